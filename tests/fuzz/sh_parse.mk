FUZZ_TARGETS += sh_parse
fuzz_sh_parse_SRCS := tests/fuzz/fuzz_sh_parse.c kernel/shell/sh_parse.c lib/string.c lib/errno.c \
	tests/unit/host_kmalloc.c

UNIT_TESTS += sh_parse
sh_parse_SRCS := tests/unit/test_sh_parse.c kernel/shell/sh_parse.c lib/string.c lib/errno.c tests/unit/host_kmalloc.c

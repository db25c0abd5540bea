FUZZ_TARGETS += p9
fuzz_p9_SRCS := tests/fuzz/fuzz_p9.c kernel/fs/9p/protocol.c lib/string.c

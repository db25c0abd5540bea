FUZZ_TARGETS += unlz4
fuzz_unlz4_SRCS := tests/fuzz/fuzz_unlz4.c lib/decompress_unlz4.c lib/string.c lib/errno.c

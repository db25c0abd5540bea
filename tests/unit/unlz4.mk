UNIT_TESTS += unlz4
unlz4_SRCS := tests/unit/test_unlz4.c lib/decompress_unlz4.c lib/string.c lib/errno.c

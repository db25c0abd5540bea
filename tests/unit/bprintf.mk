UNIT_TESTS += bprintf
bprintf_SRCS := tests/unit/test_bprintf.c lib/bprintf.c lib/printf.c lib/string.c

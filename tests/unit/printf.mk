UNIT_TESTS += printf
printf_SRCS := tests/unit/test_printf.c tests/unit/host_ref.c lib/printf.c lib/string.c

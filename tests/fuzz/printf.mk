FUZZ_TARGETS += printf
fuzz_printf_SRCS := tests/fuzz/fuzz_printf.c tests/unit/host_ref.c lib/printf.c lib/bprintf.c \
	lib/string.c

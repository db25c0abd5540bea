FUZZ_TARGETS += bprintf
fuzz_bprintf_SRCS := tests/fuzz/fuzz_bprintf.c lib/bprintf.c lib/printf.c lib/string.c

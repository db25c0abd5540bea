# Recoverable checks: gcc then calls the __ubsan_handle_* functions kernel/debug/ubsan.c defines.
UNIT_TESTS += ubsan
ubsan_SRCS := tests/unit/test_ubsan.c kernel/debug/ubsan.c lib/printf.c lib/string.c
ubsan_CFLAGS := -fsanitize-recover=undefined

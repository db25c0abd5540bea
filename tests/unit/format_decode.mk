UNIT_TESTS += format_decode
format_decode_SRCS := tests/unit/test_format_decode.c lib/printf.c lib/string.c

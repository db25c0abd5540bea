UNIT_TESTS += string
string_SRCS := tests/unit/test_string.c lib/string.c

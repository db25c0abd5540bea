UNIT_TESTS += regex
regex_SRCS := tests/unit/test_regex.c lib/regex.c lib/string.c tests/unit/host_kmalloc.c

FUZZ_TARGETS += regex
fuzz_regex_SRCS := tests/fuzz/fuzz_regex.c lib/regex.c lib/string.c tests/unit/host_kmalloc.c

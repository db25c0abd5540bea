UNIT_TESTS += sort
sort_SRCS := tests/unit/test_sort.c lib/sort.c

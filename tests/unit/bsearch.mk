UNIT_TESTS += bsearch
bsearch_SRCS := tests/unit/test_bsearch.c lib/bsearch.c

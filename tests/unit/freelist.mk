UNIT_TESTS += freelist
freelist_SRCS := tests/unit/test_freelist.c

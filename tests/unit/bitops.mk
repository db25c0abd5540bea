UNIT_TESTS += bitops
bitops_SRCS := tests/unit/test_bitops.c

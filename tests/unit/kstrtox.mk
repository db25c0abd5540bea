UNIT_TESTS += kstrtox
kstrtox_SRCS := tests/unit/test_kstrtox.c lib/kstrtox.c

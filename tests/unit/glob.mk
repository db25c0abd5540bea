UNIT_TESTS += glob
glob_SRCS := tests/unit/test_glob.c lib/glob.c

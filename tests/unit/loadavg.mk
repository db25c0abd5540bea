UNIT_TESTS += loadavg
loadavg_SRCS := tests/unit/test_loadavg.c

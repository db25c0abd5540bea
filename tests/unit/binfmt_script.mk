UNIT_TESTS += binfmt_script
binfmt_script_SRCS := tests/unit/test_binfmt_script.c kernel/fs/binfmt_script.c lib/string.c

FUZZ_TARGETS += binfmt_script
fuzz_binfmt_script_SRCS := tests/fuzz/fuzz_binfmt_script.c kernel/fs/binfmt_script.c lib/string.c

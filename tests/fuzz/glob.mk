FUZZ_TARGETS += glob
fuzz_glob_SRCS := tests/fuzz/fuzz_glob.c lib/glob.c

FUZZ_TARGETS += kstrtox
fuzz_kstrtox_SRCS := tests/fuzz/fuzz_kstrtox.c lib/kstrtox.c

FUZZ_TARGETS += multiboot2
fuzz_multiboot2_SRCS := tests/fuzz/fuzz_multiboot2.c arch/x86_64/multiboot2.c lib/string.c

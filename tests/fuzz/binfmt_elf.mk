FUZZ_TARGETS += binfmt_elf
fuzz_binfmt_elf_SRCS := tests/fuzz/fuzz_binfmt_elf.c kernel/fs/binfmt_elf.c lib/string.c

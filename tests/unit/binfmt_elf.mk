UNIT_TESTS += binfmt_elf
binfmt_elf_SRCS := tests/unit/test_binfmt_elf.c kernel/fs/binfmt_elf.c lib/string.c

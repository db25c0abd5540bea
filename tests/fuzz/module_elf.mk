FUZZ_TARGETS += module_elf
fuzz_module_elf_SRCS := tests/fuzz/fuzz_module_elf.c kernel/module/module_elf.c \
	arch/x86_64/module.c lib/string.c

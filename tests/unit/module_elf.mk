UNIT_TESTS += module_elf
module_elf_SRCS := tests/unit/test_module_elf.c kernel/module/module_elf.c arch/x86_64/module.c \
	lib/string.c
# The test loads the foo.ko this tree builds, so that it always matches struct module.
module_elf_CFLAGS := -DFOO_KO='"$(B)/modules/foo.ko"'
$(B)/host/test_module_elf: $(B)/modules/foo.ko

/*
 * x86_64's relocations: the bytes a module's code and data need patched once the loader knows
 * where everything is (Linux's arch/x86/kernel/module.c).
 *
 * gcc compiles a module as the kernel (-mcmodel=kernel): it assumes that all code and data lie
 * in the top 2 GiB of the address space, so an address fits in a sign-extended 32-bit immediate
 * (R_X86_64_32S) and any call or RIP-relative access reaches its target with a signed 32-bit
 * displacement (R_X86_64_PC32, PLT32). That holds because the module area is within 2 GiB of the
 * kernel's text (arch/x86_64/mmu.h: MODULES_VADDR). Pointers stored in data are whole 64-bit
 * addresses (R_X86_64_64): __mcount_loc's entries, a struct's function pointers.
 *
 * Each entry says: at r_offset in the target section, write the symbol's address plus r_addend
 * (minus the place's own address, for the PC-relative ones). A value that does not fit its
 * field is refused rather than cut: a truncated address would jump somewhere else.
 *
 * Memory-only, like kernel/module/module_elf.c: the host fuzzes it too.
 */
#include "kernel/module/internal.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* How many bytes a relocation type patches; 0 for one Lucid does not know. */
static size_t reloc_size(unsigned int type)
{
	switch (type) {
	case R_X86_64_64:
		return sizeof(uint64_t);
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return sizeof(uint32_t);
	}
	return 0;
}

/* The field's value for a relocation of val at place; false if it does not fit the field. */
static bool fits(unsigned int type, uint64_t *val, uintptr_t place)
{
	switch (type) {
	case R_X86_64_32:
		return *val == (uint32_t)*val;
	case R_X86_64_32S:
		return (int64_t)*val == (int32_t)*val;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		*val -= place;
		return (int64_t)*val == (int32_t)*val;
	}
	return true; /* R_X86_64_64: all 64 bits */
}

int apply_relocate_add(Elf64_Shdr *sechdrs, const char *strtab, unsigned int symindex,
		       unsigned int relsec, const char *modname)
{
	const Elf64_Shdr *rs = &sechdrs[relsec], *target = &sechdrs[rs->sh_info];
	const Elf64_Rela *rel = (const Elf64_Rela *)(uintptr_t)rs->sh_addr;
	const Elf64_Sym *symtab = (const Elf64_Sym *)(uintptr_t)sechdrs[symindex].sh_addr;
	unsigned int nsyms = (unsigned int)(sechdrs[symindex].sh_size / sizeof(Elf64_Sym));
	size_t n = rs->sh_size / sizeof(*rel);

	(void)strtab;
	for (size_t i = 0; i < n; i++) {
		unsigned int type = (unsigned int)ELF64_R_TYPE(rel[i].r_info);
		uint64_t symi = ELF64_R_SYM(rel[i].r_info);
		size_t size = reloc_size(type);

		if (type == R_X86_64_NONE)
			continue;
		if (!size) {
			pr_err("%s: Unknown rela relocation: %u\n", modname, type);
			return -ENOEXEC;
		}
		/* The place must be inside the section, the symbol inside the table. */
		if (symi >= nsyms || rel[i].r_offset > target->sh_size ||
		    size > target->sh_size - rel[i].r_offset) {
			pr_err("%s: invalid relocation %zu in section %u\n", modname, i, relsec);
			return -ENOEXEC;
		}
		void *loc = (void *)(uintptr_t)(target->sh_addr + rel[i].r_offset);
		uint64_t val = symtab[symi].st_value + (uint64_t)rel[i].r_addend;
		uint64_t old = 0;

		/*
		 * The file's bytes there are 0 (the addend is in the entry, not in place): anything
		 * else means this place was relocated twice, or the file is not what it claims.
		 */
		memcpy(&old, loc, size);
		if (old != 0) {
			pr_err("x86/modules: Invalid relocation target, existing value is nonzero "
			       "for type %u, loc %p, val %lx\n",
			       type, loc, (unsigned long)val);
			return -ENOEXEC;
		}
		if (!fits(type, &val, (uintptr_t)loc)) {
			pr_err("overflow in relocation type %u val %lx\n", type,
			       (unsigned long)val);
			pr_err("`%s' likely not compiled with -mcmodel=kernel\n", modname);
			return -ENOEXEC;
		}
		memcpy(loc, &val, size); /* little-endian: the low bytes are the field */
	}
	return 0;
}

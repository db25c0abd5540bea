/*
 * The loader's working state (Linux's kernel/module/internal.h): what load_module() learns about
 * a module's file as it checks it, lays it out and links it. kernel/module/module_elf.c is the
 * part that only reads and writes memory, so the host builds it too (tests/unit/test_module_elf.c,
 * tests/fuzz/fuzz_module_elf.c).
 */
#ifndef KERNEL_MODULE_INTERNAL_H
#define KERNEL_MODULE_INTERNAL_H

#include <stddef.h>
#include "kernel/module/module.h"
#include "lib/elf.h"

#define MODULE_PAGE_SIZE 4096UL /* the MMU protects whole pages: regions start on one */
#define MODULE_MAX_FILE (16UL << 20) /* a bigger .ko is refused (EFBIG) before it is read */

struct load_info {
	const char *name;  /* from .gnu.linkonce.this_module, once checked */
	Elf64_Ehdr *hdr;   /* the whole file, a copy the loader writes to (sh_addr, st_value) */
	size_t len;
	Elf64_Shdr *sechdrs;
	char *secstrings, *strtab;
	unsigned int num_syms;
	struct {
		unsigned int sym, str, mod, info, mcount, printk_fmt, ksymtab, param, jump_table;
	} index;           /* section numbers; 0 when the section is absent */
	struct module_layout layout; /* sizes and, once allocated, the base */
};

/*
 * The steps, in load_module()'s order. Each returns 0 or -ENOEXEC (a bad file) and says why in
 * dmesg with Linux's words; none trusts an offset or index it has not checked first.
 */
int elf_validity_check(struct load_info *info);  /* header, sections, tables: all in bounds */
int setup_load_info(struct load_info *info);     /* finds .gnu.linkonce.this_module, the name */
int layout_sections(struct load_info *info);     /* text, rodata, data: offsets and sizes */
/* Copies each section to base + its offset (base: layout.size bytes, writable), sets sh_addr. */
void move_module(struct load_info *info, void *base);
/* Undefined symbols resolved by resolve(name) (0: unknown), the others made addresses. */
int simplify_symbols(struct load_info *info,
		     unsigned long (*resolve)(const char *name, void *data), void *data);
/* Every relocation section that targets a loaded section, through apply_relocate_add. */
int apply_relocations(struct load_info *info);
/* The module's struct, relocated: all but name, init and exit reset; then the sections below. */
int setup_module_struct(struct load_info *info, struct module *mod);
/* What the module keeps: its __mcount_loc, __trace_printk_fmt, __ksymtab, __jump_table, moved. */
void find_module_sections(struct load_info *info, struct module *mod);
/* The value of "key=" in .modinfo, or NULL. */
const char *get_modinfo(const struct load_info *info, const char *key);

/* arch/x86_64/module.c: one SHT_RELA section applied to its (loaded, writable) target. */
int apply_relocate_add(Elf64_Shdr *sechdrs, const char *strtab, unsigned int symindex,
		       unsigned int relsec, const char *modname);

#endif

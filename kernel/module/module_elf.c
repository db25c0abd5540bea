/*
 * Reading a module's file: the checks, the layout and the linking that load_module() does on a
 * buffer, before and after it has memory for the module (kernel/module/main.c has the order).
 *
 * A module is a relocatable ELF object (ld -r): sections, a symbol table, and relocations that
 * say which bytes of which section need which symbol's final address. Every number in it (an
 * offset, a size, an index) comes from a file anyone can write, so nothing is used before it is
 * checked: elf_validity_check() proves that every section lies in the file, that the string
 * tables end in a NUL, that the symbol table and each relocation table are whole arrays of
 * entries, and that every index points at something that exists. What runs after it may then
 * use them freely; the relocations' own offsets are checked as they are applied
 * (arch/x86_64/module.c).
 *
 * The messages are Linux's (kernel/module/main.c), so a student can search for them.
 *
 * Memory-only: no allocation, no page tables. The host builds this file into a unit test and a
 * libFuzzer target (tests/unit/test_module_elf.c, tests/fuzz/fuzz_module_elf.c).
 */
#include "kernel/module/internal.h"
#include "kernel/jump_label.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MODULE_MAX_SIZE (64UL << 20) /* text + rodata + data: the whole module area */

static const char *section_name(const struct load_info *info, const Elf64_Shdr *s)
{
	return info->secstrings + s->sh_name;
}

/* A string table is a run of NUL-terminated strings: it must end in one, or a read runs off. */
static bool strtab_ok(const struct load_info *info, const Elf64_Shdr *s)
{
	return s->sh_type == SHT_STRTAB && s->sh_size > 0 &&
	       ((const char *)info->hdr)[s->sh_offset + s->sh_size - 1] == '\0';
}

/* An array of fixed-size entries (symbols, relocations): aligned, whole, of known entries. */
static bool table_ok(const Elf64_Shdr *s, size_t entsize)
{
	return s->sh_entsize == entsize && s->sh_size % entsize == 0 &&
	       s->sh_offset % sizeof(uint64_t) == 0;
}

/* The file's bytes [sh_offset, sh_offset + sh_size) exist (written to not overflow). */
static bool section_in_file(const struct load_info *info, const Elf64_Shdr *s)
{
	return s->sh_offset <= info->len && s->sh_size <= info->len - s->sh_offset;
}

static int check_header(const struct load_info *info)
{
	const Elf64_Ehdr *h = info->hdr;

	if (info->len < sizeof(*h)) {
		pr_err("Invalid ELF header len %zu\n", info->len);
		return -ENOEXEC;
	}
	if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0) {
		pr_err("Invalid ELF header magic: != %s\n", ELFMAG);
		return -ENOEXEC;
	}
	if (h->e_type != ET_REL) {
		pr_err("Invalid ELF header type: %u != %u\n", h->e_type, ET_REL);
		return -ENOEXEC;
	}
	if (h->e_machine != EM_X86_64 || h->e_ident[EI_CLASS] != ELFCLASS64 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB) {
		pr_err("Invalid architecture in ELF header: %u\n", h->e_machine);
		return -ENOEXEC;
	}
	if (h->e_shentsize != sizeof(Elf64_Shdr)) {
		pr_err("Invalid ELF section header size\n");
		return -ENOEXEC;
	}
	/* The headers are read in place: they must be in the file, and aligned for their type. */
	if (h->e_shnum == 0 || h->e_shoff >= info->len || h->e_shoff % sizeof(uint64_t) ||
	    (size_t)h->e_shnum * sizeof(Elf64_Shdr) > info->len - h->e_shoff) {
		pr_err("Invalid ELF section header overflow\n");
		return -ENOEXEC;
	}
	return 0;
}

/* Section i alone: in the file if it has bytes there, sensibly aligned, not absurdly big. */
static int check_section(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const Elf64_Shdr *names = &info->sechdrs[info->hdr->e_shstrndx];

	if (s->sh_name >= names->sh_size)
		goto bad;
	if (s->sh_addralign > MODULE_PAGE_SIZE || (s->sh_addralign & (s->sh_addralign - 1)))
		goto bad; /* a power of two no bigger than a page: the layout aligns within pages */
	if (s->sh_type == SHT_NOBITS) {
		if ((s->sh_flags & SHF_ALLOC) && s->sh_size > MODULE_MAX_SIZE)
			goto bad;
		return 0;
	}
	if (!section_in_file(info, s))
		goto bad;
	return 0;
bad:
	pr_err("Invalid ELF section in module (section %u type %u)\n", i, s->sh_type);
	return -ENOEXEC;
}

/* The symbol table, its strings and each symbol's name and section: all in bounds. */
static int check_symtab(struct load_info *info)
{
	const Elf64_Ehdr *h = info->hdr;
	const Elf64_Shdr *symsec = &info->sechdrs[info->index.sym];

	if (!table_ok(symsec, sizeof(Elf64_Sym)) || symsec->sh_link == SHN_UNDEF ||
	    symsec->sh_link >= h->e_shnum || !strtab_ok(info, &info->sechdrs[symsec->sh_link])) {
		pr_err("Invalid ELF sh_link!=SHN_UNDEF(%d) or (sh_link(%d) >= hdr->e_shnum(%d)\n",
		       SHN_UNDEF, symsec->sh_link, h->e_shnum);
		return -ENOEXEC;
	}
	info->index.str = symsec->sh_link;
	info->strtab = (char *)h + info->sechdrs[info->index.str].sh_offset;
	info->num_syms = symsec->sh_size / sizeof(Elf64_Sym);

	const Elf64_Sym *sym = (const Elf64_Sym *)((char *)h + symsec->sh_offset);
	uint64_t strsize = info->sechdrs[info->index.str].sh_size;
	for (unsigned int i = 0; i < info->num_syms; i++) {
		unsigned int shndx = sym[i].st_shndx;
		bool special = shndx == SHN_UNDEF || shndx == SHN_ABS || shndx == SHN_COMMON;

		if (sym[i].st_name >= strsize || (!special && shndx >= h->e_shnum)) {
			pr_err("Invalid ELF symbol %u in module\n", i);
			return -ENOEXEC;
		}
		/* A symbol in a loaded section points inside it (or just past: an end marker). */
		if (!special && (info->sechdrs[shndx].sh_flags & SHF_ALLOC) &&
		    sym[i].st_value > info->sechdrs[shndx].sh_size) {
			pr_err("Invalid ELF symbol %u in module\n", i);
			return -ENOEXEC;
		}
	}
	return 0;
}

int elf_validity_check(struct load_info *info)
{
	Elf64_Ehdr *h = info->hdr;
	unsigned int num_sym_secs = 0;
	int err = check_header(info);

	if (err)
		return err;
	info->sechdrs = (Elf64_Shdr *)((char *)h + h->e_shoff);

	/* The section names' table first: every other check prints names from it. */
	if (h->e_shstrndx == SHN_UNDEF || h->e_shstrndx >= h->e_shnum) {
		pr_err("Invalid ELF section name index: %d || e_shstrndx (%d) >= e_shnum (%d)\n",
		       h->e_shstrndx, h->e_shstrndx, h->e_shnum);
		return -ENOEXEC;
	}
	const Elf64_Shdr *names = &info->sechdrs[h->e_shstrndx];
	if (!section_in_file(info, names) || !strtab_ok(info, names)) {
		pr_err("ELF Spec violation: section name table isn't null terminated\n");
		return -ENOEXEC;
	}
	info->secstrings = (char *)h + names->sh_offset;

	const Elf64_Shdr *null = &info->sechdrs[0];
	if (null->sh_type != SHT_NULL || null->sh_size || null->sh_addr) {
		pr_err("ELF Spec violation: section 0 type(%d)!=SH_NULL or non-zero len or addr\n",
		       null->sh_type);
		return -ENOEXEC;
	}

	for (unsigned int i = 1; i < h->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];

		err = check_section(info, i);
		if (err)
			return err;
		switch (s->sh_type) {
		case SHT_SYMTAB:
			info->index.sym = i;
			num_sym_secs++;
			break;
		case SHT_RELA:
			if (!table_ok(s, sizeof(Elf64_Rela)) || s->sh_info == 0 ||
			    s->sh_info >= h->e_shnum) {
				pr_err("Invalid ELF section in module (section %u type %u)\n", i,
				       s->sh_type);
				return -ENOEXEC;
			}
			break;
		}
	}
	if (num_sym_secs != 1) {
		pr_warn("module has no symbols (stripped?)\n");
		return -ENOEXEC;
	}
	err = check_symtab(info);
	if (err)
		return err;
	/* Every relocation table uses that symbol table (the index of its symbols is checked
	 * entry by entry as they are applied). */
	for (unsigned int i = 1; i < h->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];

		if (s->sh_type == SHT_RELA && s->sh_link != info->index.sym) {
			pr_err("Invalid ELF section in module (section %u type %u)\n", i,
			       s->sh_type);
			return -ENOEXEC;
		}
	}
	return 0;
}

static unsigned int find_sec(const struct load_info *info, const char *name)
{
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++)
		if (!strcmp(section_name(info, &info->sechdrs[i]), name))
			return i;
	return 0;
}

/* A loaded section that is an array of n-byte entries: otherwise, a bad file. */
static int check_array_sec(const struct load_info *info, unsigned int i, size_t n)
{
	const Elf64_Shdr *s = &info->sechdrs[i];

	if (!i)
		return 0;
	if (!(s->sh_flags & SHF_ALLOC) || s->sh_type != SHT_PROGBITS || s->sh_size % n) {
		pr_err("%s: invalid section %s\n", info->name, section_name(info, s));
		return -ENOEXEC;
	}
	return 0;
}

int setup_load_info(struct load_info *info)
{
	info->index.mod = find_sec(info, ".gnu.linkonce.this_module");
	if (!info->index.mod) {
		pr_warn("No module found in object\n");
		return -ENOEXEC;
	}
	const Elf64_Shdr *mod = &info->sechdrs[info->index.mod];
	if (mod->sh_type != SHT_PROGBITS || mod->sh_size != sizeof(struct module) ||
	    (mod->sh_flags & (SHF_ALLOC | SHF_WRITE)) != (SHF_ALLOC | SHF_WRITE)) {
		pr_err("module %s: .gnu.linkonce.this_module section size must match the kernel's "
		       "built struct module size\n",
		       "(missing .modinfo section or name field)");
		return -ENOEXEC;
	}
	/* The name, read in place: it must end within its array (and not be empty). */
	const char *name = (const char *)info->hdr + mod->sh_offset + offsetof(struct module, name);
	size_t n = strnlen(name, MODULE_NAME_LEN);
	if (n == 0 || n == MODULE_NAME_LEN) {
		pr_err("Invalid module name in ELF\n");
		return -ENOEXEC;
	}
	info->name = name;

	/* .modinfo is read from the file and never loaded, as in Linux. */
	info->index.info = find_sec(info, ".modinfo");
	if (info->index.info)
		info->sechdrs[info->index.info].sh_flags &= ~(Elf64_Xword)SHF_ALLOC;

	/*
	 * Until the module has memory, each section's address is where its bytes are in the file
	 * (Linux's rewrite_section_headers): the relocation and symbol tables are read there.
	 */
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		Elf64_Shdr *s = &info->sechdrs[i];

		s->sh_addr = s->sh_type == SHT_NOBITS ? 0 : (uintptr_t)info->hdr + s->sh_offset;
	}

	info->index.mcount = find_sec(info, "__mcount_loc");
	info->index.printk_fmt = find_sec(info, "__trace_printk_fmt");
	info->index.ksymtab = find_sec(info, "__ksymtab");
	info->index.param = find_sec(info, "__param");
	info->index.jump_table = find_sec(info, "__jump_table");
	int err = check_array_sec(info, info->index.mcount, sizeof(unsigned long));
	if (!err)
		err = check_array_sec(info, info->index.printk_fmt, sizeof(char *));
	if (!err)
		err = check_array_sec(info, info->index.ksymtab, sizeof(struct kernel_symbol));
	if (!err)
		err = check_array_sec(info, info->index.param, sizeof(struct kernel_param));
	if (!err)
		err = check_array_sec(info, info->index.jump_table, sizeof(struct jump_entry));
	/* Sorted in place when the module loads (kernel/jump_label.c): it must be data. */
	if (!err && info->index.jump_table &&
	    !(info->sechdrs[info->index.jump_table].sh_flags & SHF_WRITE)) {
		pr_err("%s: invalid section __jump_table\n", info->name);
		err = -ENOEXEC;
	}
	return err;
}

/*
 * A section the kernel reads as C (an array, or the struct module): aligned as its entries
 * need, whatever the file says (gcc's __mcount_loc says 1; a bad file may say 1 of this_module).
 */
static void align_sec(struct load_info *info, unsigned int i, size_t align)
{
	if (i && info->sechdrs[i].sh_addralign < align)
		info->sechdrs[i].sh_addralign = align;
}

const char *get_modinfo(const struct load_info *info, const char *key)
{
	size_t klen = strlen(key);

	if (!info->index.info)
		return NULL;
	const Elf64_Shdr *s = &info->sechdrs[info->index.info];
	if (s->sh_type == SHT_NOBITS)
		return NULL;
	const char *p = (const char *)info->hdr + s->sh_offset, *end = p + s->sh_size;
	while (p < end) {
		size_t len = strnlen(p, (size_t)(end - p));

		if (len < (size_t)(end - p) && len > klen && !strncmp(p, key, klen) &&
		    p[klen] == '=')
			return p + klen + 1;
		p += len + 1;
	}
	return NULL;
}

/*
 * Three regions, each starting on a page because the MMU protects whole pages: text
 * (executable sections), rodata (neither writable nor executable), data (writable: the MMU
 * makes it no-execute even if the file asked for code there, as Linux does). Within a region the
 * sections follow in file order, each at its alignment. Each section's offset from the start is
 * kept in its sh_entsize, as Linux keeps it; ~0 marks a section not loaded.
 */
int layout_sections(struct load_info *info)
{
	enum { TEXT, RODATA, DATA, NR_REGIONS };
	uint64_t end[NR_REGIONS] = {0};
	uint64_t base = 0;

	align_sec(info, info->index.mcount, sizeof(unsigned long));
	align_sec(info, info->index.printk_fmt, sizeof(unsigned long));
	align_sec(info, info->index.ksymtab, sizeof(unsigned long));
	align_sec(info, info->index.param, sizeof(unsigned long));
	align_sec(info, info->index.jump_table, sizeof(unsigned long));
	align_sec(info, info->index.mod, __alignof__(struct module));
	for (unsigned int i = 0; i < info->hdr->e_shnum; i++)
		info->sechdrs[i].sh_entsize = ~0UL;
	for (int r = TEXT; r < NR_REGIONS; r++) {
		uint64_t off = base;

		for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
			Elf64_Shdr *s = &info->sechdrs[i];
			int region = (s->sh_flags & SHF_WRITE)	     ? DATA
				     : (s->sh_flags & SHF_EXECINSTR) ? TEXT
								     : RODATA;

			if (!(s->sh_flags & SHF_ALLOC) || region != r)
				continue;
			/* Bounded by the checks (file size, MODULE_MAX_SIZE): no overflow. */
			off = ALIGN_UP(off, s->sh_addralign ? s->sh_addralign : 1);
			s->sh_entsize = off;
			off += s->sh_size;
			if (off > MODULE_MAX_SIZE)
				return -ENOMEM;
		}
		end[r] = base = ALIGN_UP(off, MODULE_PAGE_SIZE);
	}
	if (end[DATA] == 0)
		return -ENOEXEC; /* cannot happen: this_module is data */
	info->layout.text_size = (unsigned int)end[TEXT];
	info->layout.ro_size = (unsigned int)end[RODATA];
	info->layout.size = (unsigned int)end[DATA];
	return 0;
}

void move_module(struct load_info *info, void *base)
{
	memset(base, 0, info->layout.size);
	info->layout.base = base;
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		Elf64_Shdr *s = &info->sechdrs[i];
		void *dest;

		if (!(s->sh_flags & SHF_ALLOC))
			continue;
		dest = (char *)base + s->sh_entsize;
		if (s->sh_type != SHT_NOBITS)
			memcpy(dest, (char *)info->hdr + s->sh_offset, s->sh_size);
		s->sh_addr = (uintptr_t)dest;
	}
}

int simplify_symbols(struct load_info *info, unsigned long (*resolve)(const char *name, void *data),
		     void *data)
{
	Elf64_Sym *sym =
		(Elf64_Sym *)((char *)info->hdr + info->sechdrs[info->index.sym].sh_offset);
	int ret = 0;

	for (unsigned int i = 1; i < info->num_syms; i++) {
		const char *name = info->strtab + sym[i].st_name;
		unsigned long addr;

		switch (sym[i].st_shndx) {
		case SHN_COMMON:
			/* Linux's -fno-common: a tentative definition has no section to live in. */
			pr_warn("%s: please compile with -fno-common\n", info->name);
			ret = -ENOEXEC;
			break;
		case SHN_ABS:
			break; /* an absolute value: nothing to add */
		case SHN_UNDEF:
			addr = resolve(name, data);
			if (addr) {
				sym[i].st_value = addr;
				break;
			}
			if (ELF64_ST_BIND(sym[i].st_info) == STB_WEAK)
				break; /* a weak reference may stay 0 */
			/* Every missing symbol is named before giving up, as in Linux. */
			pr_warn("%s: Unknown symbol %s (err %d)\n", info->name, name, -ENOENT);
			if (!ret)
				ret = -ENOENT;
			break;
		default:
			/* Defined in a section: its offset there becomes an address. */
			sym[i].st_value += info->sechdrs[sym[i].st_shndx].sh_addr;
			break;
		}
	}
	return ret;
}

int apply_relocations(struct load_info *info)
{
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];
		int err;

		if (s->sh_type == SHT_REL) {
			pr_err("module %s: REL relocation unsupported\n", info->name);
			return -ENOEXEC;
		}
		if (s->sh_type != SHT_RELA)
			continue;
		/* Relocations of what is not loaded (debug information) are not needed. */
		if (!(info->sechdrs[s->sh_info].sh_flags & SHF_ALLOC))
			continue;
		err = apply_relocate_add(info->sechdrs, info->strtab, info->index.sym, i,
					 info->name);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The struct module the file brought, relocated: only its name, init and exit are the file's to
 * say (and those must be in the module's text); every other field is the loader's, whatever the
 * file or its relocations wrote there.
 */
int setup_module_struct(struct load_info *info, struct module *mod)
{
	uintptr_t text = (uintptr_t)info->layout.base;
	int (*init)(void) = mod->init;
	void (*exit)(void) = mod->exit;
	char name[MODULE_NAME_LEN];

	memcpy(name, mod->name, sizeof(name));
	if ((init && ((uintptr_t)init - text) >= info->layout.text_size) ||
	    (exit && ((uintptr_t)exit - text) >= info->layout.text_size)) {
		pr_err("%s: init or exit outside the module's text\n", info->name);
		return -ENOEXEC;
	}
	memset(mod, 0, sizeof(*mod));
	memcpy(mod->name, name, sizeof(name));
	mod->init = init;
	mod->exit = exit;
	mod->state = MODULE_STATE_UNFORMED;
	mod->core_layout = info->layout;
	info->name = mod->name; /* the file's copy may be freed before the module */
	find_module_sections(info, mod);
	return 0;
}

void find_module_sections(struct load_info *info, struct module *mod)
{
	const Elf64_Shdr *s;

	if (info->index.mcount) {
		s = &info->sechdrs[info->index.mcount];
		mod->ftrace_callsites = (unsigned long *)s->sh_addr;
		mod->num_ftrace_callsites = (unsigned int)(s->sh_size / sizeof(unsigned long));
	}
	if (info->index.printk_fmt) {
		s = &info->sechdrs[info->index.printk_fmt];
		mod->trace_bprintk_fmt_start = (const char **)s->sh_addr;
		mod->num_trace_bprintk_fmt = (unsigned int)(s->sh_size / sizeof(char *));
	}
	if (info->index.ksymtab) {
		s = &info->sechdrs[info->index.ksymtab];
		mod->syms = (const struct kernel_symbol *)s->sh_addr;
		mod->num_syms = (unsigned int)(s->sh_size / sizeof(struct kernel_symbol));
	}
	if (info->index.jump_table) {
		s = &info->sechdrs[info->index.jump_table];
		mod->jump_entries = (struct jump_entry *)s->sh_addr;
		mod->num_jump_entries = (unsigned int)(s->sh_size / sizeof(struct jump_entry));
	}
	if (info->index.param) {
		s = &info->sechdrs[info->index.param];
		mod->kp = (const struct kernel_param *)s->sh_addr;
		mod->num_kp = (unsigned int)(s->sh_size / sizeof(struct kernel_param));
	}
}

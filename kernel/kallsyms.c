/*
 * kallsyms: the kernel knows its own function names.
 *
 * The build links the kernel twice. The first link has an empty table; `nm` lists its
 * functions, scripts/gen_kallsyms.py writes them out as a table, and the second link includes it.
 * The table sits at the very end of the read-only data, after all code, so adding it moves no
 * function: the addresses it records are the addresses of the final kernel (the Makefile checks).
 *
 * Lookups are a binary search over the sorted addresses. printk's %pS uses sprint_symbol.
 * /proc/kallsyms lists the table in Linux's format, "ffffffff8010a2c0 T ftest_leaf", so tools
 * that turn addresses from raw trace records into names (trace-cmd) can read it as Linux's.
 *
 * Not traced: the tracer names functions through here while it formats a trace.
 */
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "kernel/module/module.h"
#include "trace/ftrace.h"
#include "arch/x86_64/mmu.h"
#include "lib/bsearch.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/compiler.h"

extern const unsigned long kallsyms_num;
extern char __boot_text_end[], _text[]; /* linker.ld */
extern const unsigned long kallsyms_text_end;
extern const unsigned long kallsyms_addresses[];
extern const unsigned int kallsyms_name_offsets[];
extern const unsigned char kallsyms_types[]; /* nm's letter: t, T, W */
extern const char kallsyms_names[];

/*
 * Each symbol as the range of addresses up to the next one (the last: up to the end of the text).
 * Symbols at the same address (aliases) give empty ranges but the last, which matches: the last
 * symbol whose address is <= addr.
 */
static notrace int symbol_range_cmp(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	const unsigned long *start = elt, *last = &kallsyms_addresses[kallsyms_num - 1];
	unsigned long end = start < last ? start[1] : kallsyms_text_end;

	if (addr < *start)
		return -1;
	return addr >= end;
}

notrace bool kallsyms_lookup_mod(unsigned long addr, const char **name, unsigned long *start,
				 unsigned long *size, const char **modname)
{
	if (modname)
		*modname = NULL;
	/*
	 * A loaded module's function: its own symbol table (kernel/module/main.c); else one of a
	 * module unloaded since, whose traced functions ftrace keeps (Linux's ftrace_mod_map), so
	 * that the lines it left in the trace still name them.
	 */
	if (addr >= MODULES_VADDR && addr < MODULES_END)
		return module_address_lookup(addr, name, start, size, modname) ||
		       ftrace_mod_address_lookup(addr, name, start, size, modname);
	if (!kallsyms_num || addr < kallsyms_addresses[0] || addr >= kallsyms_text_end)
		return false;
	/*
	 * Between the boot code (at 1 MiB) and the kernel's text (in the top 2 GiB) lies no code
	 * of the kernel: a user program's address there (a page fault's ip) is no symbol's.
	 */
	if (addr >= (unsigned long)__boot_text_end && addr < (unsigned long)_text)
		return false;
	const unsigned long *sym = __inline_bsearch(&addr, kallsyms_addresses, kallsyms_num,
						    sizeof(*kallsyms_addresses), symbol_range_cmp);
	if (!sym) /* cannot happen: the first range starts at [0], the last ends at the text end */
		return false;
	unsigned long lo = (unsigned long)(sym - kallsyms_addresses);
	unsigned long end = lo + 1 < kallsyms_num ? kallsyms_addresses[lo + 1] : kallsyms_text_end;
	if (name)
		*name = &kallsyms_names[kallsyms_name_offsets[lo]];
	if (start)
		*start = kallsyms_addresses[lo];
	if (size)
		*size = end - kallsyms_addresses[lo];
	return true;
}

notrace bool kallsyms_lookup(unsigned long addr, const char **name, unsigned long *start,
			     unsigned long *size)
{
	return kallsyms_lookup_mod(addr, name, start, size, NULL);
}

notrace unsigned long kallsyms_lookup_name(const char *name)
{
	unsigned long value;
	char type, sym[KSYM_NAME_LEN], modname[MODULE_NAME_LEN];

	for (unsigned long i = 0; i < kallsyms_num; i++)
		if (!strcmp(&kallsyms_names[kallsyms_name_offsets[i]], name))
			return kallsyms_addresses[i];
	/* Then the loaded modules' functions, as Linux's module_kallsyms_lookup_name. */
	for (unsigned int i = 0; !module_get_kallsym(i, &value, &type, sym, modname); i++)
		if ((type == 't' || type == 'T') && !strcmp(sym, name))
			return value;
	return 0;
}

notrace int kallsyms_for_each(int (*fn)(void *data, const char *name, unsigned long addr),
			      void *data)
{
	for (unsigned long i = 0; i < kallsyms_num; i++) {
		int ret =
			fn(data, &kallsyms_names[kallsyms_name_offsets[i]], kallsyms_addresses[i]);
		if (ret)
			return ret;
	}
	return 0;
}

notrace size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	const char *name, *mod;
	unsigned long start, len;
	size_t n;
	if (!kallsyms_lookup_mod(addr, &name, &start, &len, &mod))
		return 0;
	if (with_offset)
		n = scnprintf(buf, size, "%s+0x%lx/0x%lx", name, addr - start, len);
	else
		n = scnprintf(buf, size, "%s", name);
	/* A module's, as Linux's __sprint_symbol: "foo_init+0x12/0x40 [foo]". */
	if (mod)
		n += scnprintf(buf + n, size - n, " [%s]", mod);
	return n;
}

void kallsyms_init(void)
{
	printf_set_symbolizer(sprint_symbol);
}

/* --- /proc/kallsyms --------------------------------------------------------------------------- */

/*
 * The kernel's own symbols, from _text on, as Linux's file lists them: not the boot code's at
 * 1 MiB, which tools (trace-cmd) would otherwise take for the names of user addresses above it.
 */
static notrace unsigned long first_text_symbol(void)
{
	unsigned long i = 0;

	while (i < kallsyms_num && kallsyms_addresses[i] < (unsigned long)_text)
		i++;
	return i;
}

/*
 * A record is a symbol's index + 1 (seq_file's NULL means the end); after the kernel's come the
 * loaded modules' symbols, "address type name\t[module]" as Linux lists them, a record being
 * the position + 1 there (s_show asks the loader for the symbol: modules come and go).
 */
#define MODULE_SYM_RECORD (1UL << 62) /* above any kernel symbol's index + 1 */

static notrace unsigned long nr_kernel_lines(void)
{
	return kallsyms_num - first_text_symbol();
}

/*
 * The n-th symbol after the kernel's: the loaded modules' first, then (Linux's
 * ftrace_mod_get_kallsym) the functions ftrace keeps of unloaded modules, so that a tool reading
 * a trace with this file (trace-cmd) names the lines they left. 0, or -ERANGE past the last.
 */
static notrace int module_or_kept_sym(unsigned long n, unsigned long *value, char *type,
				      char *name, char *modname)
{
	unsigned long nmod = 0;

	/* Counted afresh: modules come and go between two reads. */
	while (!module_get_kallsym((unsigned int)nmod, value, type, name, modname)) {
		if (nmod == n)
			return 0;
		nmod++;
	}
	return ftrace_mod_get_kallsym((unsigned int)(n - nmod), value, type, name, modname);
}

static notrace void *s_start(struct seq_file *m, loff_t *pos)
{
	unsigned long i = first_text_symbol() + (unsigned long)*pos;
	unsigned long value;
	char type, name[KSYM_NAME_LEN], modname[MODULE_NAME_LEN];

	(void)m;
	if (i < kallsyms_num)
		return (void *)(i + 1);
	if (module_or_kept_sym((unsigned long)*pos - nr_kernel_lines(), &value, &type, name,
			       modname))
		return NULL;
	return (void *)(MODULE_SYM_RECORD | (unsigned long)*pos);
}

static notrace void *s_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return s_start(m, pos);
}

static notrace void s_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static notrace int s_show(struct seq_file *m, void *v)
{
	unsigned long i = (unsigned long)v - 1, pos = (unsigned long)v & ~MODULE_SYM_RECORD;
	unsigned long value;
	char type, name[KSYM_NAME_LEN], modname[MODULE_NAME_LEN];

	if (!((unsigned long)v & MODULE_SYM_RECORD)) {
		seq_printf(m, "%016lx %c %s\n", kallsyms_addresses[i], kallsyms_types[i],
			   &kallsyms_names[kallsyms_name_offsets[i]]);
		return 0;
	}
	if (!module_or_kept_sym(pos - nr_kernel_lines(), &value, &type, name, modname))
		seq_printf(m, "%016lx %c %s\t[%s]\n", value, type, name, modname);
	return 0;
}

static const struct seq_operations kallsyms_op = {
	.start = s_start,
	.next = s_next,
	.stop = s_stop,
	.show = s_show,
};

static notrace int kallsyms_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &kallsyms_op);
}

const struct file_operations kallsyms_proc_ops = {
	.open = kallsyms_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/*
 * The module loader: `insmod foo.ko` links an ELF object into the running kernel and runs its
 * init; `rmmod foo` runs its exit and gives its memory back. Linux's steps, by Linux's names
 * (its kernel/module/main.c), so each can be looked up there:
 *
 *   1. elf_validity_check   the header, the section headers, the string and symbol tables: every
 *                           offset and index in bounds before anything reads through it
 *   2. setup_load_info      .gnu.linkonce.this_module: the struct module, and the name
 *   3. layout_sections      text, rodata, data: three page-aligned regions
 *   4. module_alloc         that many pages in the module area, within 2 GiB of the kernel's
 *                           text (arch/x86_64/mmu.c), mapped read-write and no-execute
 *   5. move_module          each section copied to its place; the struct module is now the
 *                           copy in the module's data
 *   6. simplify_symbols     undefined symbols looked up in the kernel's exports (and earlier
 *                           modules'): an unknown one fails the load with ENOENT
 *   7. apply_relocations    the code and data patched with the final addresses
 *                           (arch/x86_64/module.c)
 *   8. ftrace_module_init   ftrace turns the module's __fentry__ calls into NOPs, writing the
 *                           text while it is still writable and not yet executable
 *   9. protections          text read-only and executable, rodata read-only, data stays
 *                           read-write and no-execute: no page is ever writable and executable;
 *                           then jump_label_add_module patches its static branches (its
 *                           __jump_table, checked at step 7) to the state of their keys
 *  10. ftrace_module_enable the tracer's current filters reach the new functions
 *  11. do_init_module       the init runs (in the insmod task); if it fails, everything is undone
 *
 * Each step that can fail does so before the next one starts, and the way out undoes exactly
 * what was done: a failed load leaves no page and no object behind
 * (tests/qemu/kernel/test_module.py counts them).
 *
 * Locking: module_mutex serializes loads and unloads and guards the list's writers; the list is
 * also read from any context (kallsyms names a module's functions in a trace or an oops), so its
 * links change only under modules_lock, a spinlock with interrupts off, which those readers take.
 * An init runs without module_mutex, as in Linux, so that it may itself look at modules.
 *
 * A module's references (try_module_get) are one counter: rmmod refuses while it is not 0,
 * atomically with marking the module as going, so that no reference can be taken after it said
 * yes (the counter becomes MODULE_REF_DEAD).
 */
#include "trace/events/module.h"
#include "kernel/module/module.h"
#include "kernel/kprobes.h"
#include "kernel/jump_label.h"
#include "trace/trace_dynevent.h"
#include "kernel/module/internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/fs/vfs.h"
#include "kernel/printk.h"
#include "trace/trace_printk.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MODULE_REF_DEAD (-1) /* the refcount of a module that rmmod has taken */

static DEFINE_MUTEX(module_mutex);
static LIST_HEAD(modules); /* newest first, as Linux lists them */
/*
 * The untraced __raw_ forms everywhere: backtraces in tracer callbacks look addresses up under
 * it, and one fired at a traced unlock of it would wait for its own CPU
 * (kernel/locking/spinlock.h).
 */
static DEFINE_SPINLOCK(modules_lock);

extern const struct kernel_symbol __start___ksymtab[], __stop___ksymtab[]; /* linker.ld */

/* --- references ------------------------------------------------------------------------- */

DEFINE_TRACE(module_load); /* trace/events/module.h */
DEFINE_TRACE(module_free);
DEFINE_TRACE(module_get);
DEFINE_TRACE(module_put);
/*
 * Linux's count has a base of 1 while the module lives (rmmod takes it): its module_get and
 * module_put events show the references plus that, which Lucid's show too.
 */
#define MODULE_REF_BASE 1

bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;
	int old = __atomic_load_n(&mod->refcnt, __ATOMIC_RELAXED);
	do {
		if (old == MODULE_REF_DEAD || READ_ONCE(mod->state) == MODULE_STATE_GOING)
			return false;
	} while (!__atomic_compare_exchange_n(&mod->refcnt, &old, old + 1, false, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	trace_module_get(mod, _RET_IP_, old + 1 + MODULE_REF_BASE);
	return true;
}
EXPORT_SYMBOL(try_module_get);

void module_put(struct module *mod)
{
	if (mod) {
		int left = __atomic_sub_fetch(&mod->refcnt, 1, __ATOMIC_RELEASE);

		trace_module_put(mod, _RET_IP_, left + MODULE_REF_BASE);
	}
}
EXPORT_SYMBOL(module_put);

int module_refcount(struct module *mod)
{
	int n = __atomic_load_n(&mod->refcnt, __ATOMIC_RELAXED);

	return n == MODULE_REF_DEAD ? 0 : n;
}

/* --- the list ----------------------------------------------------------------------------- */

/* module_mutex held. */
static struct module *find_module(const char *name)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		if (!strcmp(mod->name, name))
			return mod;
	return NULL;
}

static void list_add_module(struct module *mod)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);

	list_add(&mod->list, &modules);
	__raw_spin_unlock_irqrestore(&modules_lock, irq);
}

static void list_del_module(struct module *mod)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);

	list_del(&mod->list);
	__raw_spin_unlock_irqrestore(&modules_lock, irq);
}

static notrace bool within_module_layout(unsigned long addr, const struct module_layout *l)
{
	return addr >= (unsigned long)l->base && addr - (unsigned long)l->base < l->size;
}

/* modules_lock held. Not traced, nor are the lookups: kallsyms calls them as the tracer formats. */
static notrace struct module *__module_address_locked(unsigned long addr)
{
	struct module *mod;

	if (addr < MODULES_VADDR || addr >= MODULES_END)
		return NULL;
	list_for_each_entry(mod, &modules, list)
		if (within_module_layout(addr, &mod->core_layout))
			return mod;
	return NULL;
}

notrace struct module *__module_address(unsigned long addr)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);
	struct module *mod = __module_address_locked(addr);

	__raw_spin_unlock_irqrestore(&modules_lock, irq);
	return mod;
}

/* Within a loaded module's text: for backtraces and text_poke, as kernel_text_address asks. */
notrace bool is_module_text_address(unsigned long addr)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);
	struct module *mod = __module_address_locked(addr);
	bool text = mod && addr - (unsigned long)mod->core_layout.base < mod->core_layout.text_size;

	__raw_spin_unlock_irqrestore(&modules_lock, irq);
	return text;
}

void module_for_each(void (*fn)(struct module *mod, void *data), void *data)
{
	struct module *mod;

	mutex_lock(&module_mutex);
	list_for_each_entry(mod, &modules, list)
		if (mod->state != MODULE_STATE_UNFORMED)
			fn(mod, data);
	mutex_unlock(&module_mutex);
}

/* --- symbols -------------------------------------------------------------------------------- */

/*
 * What a module's undefined symbol resolves to: a kernel export, or one of a live module's.
 * module_mutex held (the modules cannot go away meanwhile).
 */
static unsigned long find_symbol(const char *name, void *data)
{
	struct module *mod;

	(void)data;
	for (const struct kernel_symbol *s = __start___ksymtab; s < __stop___ksymtab; s++)
		if (!strcmp(s->name, name))
			return s->value;
	list_for_each_entry(mod, &modules, list) {
		if (mod->state == MODULE_STATE_UNFORMED)
			continue;
		for (unsigned int i = 0; i < mod->num_syms; i++)
			if (!strcmp(mod->syms[i].name, name))
				return mod->syms[i].value;
	}
	return 0;
}

static bool kallsyms_keep(const Elf64_Sym *sym, const struct load_info *info)
{
	unsigned int type = ELF64_ST_TYPE(sym->st_info);

	return sym->st_name && sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
	       (info->sechdrs[sym->st_shndx].sh_flags & SHF_ALLOC) &&
	       (type == STT_FUNC || type == STT_OBJECT || type == STT_NOTYPE);
}

/*
 * The module's own symbols, for kallsyms: the defined ones, with their final addresses, copied
 * out of the file (which the caller frees) into one allocation the module keeps.
 */
static int add_kallsyms(struct module *mod, const struct load_info *info)
{
	const Elf64_Sym *sym = (const Elf64_Sym *)info->sechdrs[info->index.sym].sh_addr;
	size_t strsize = info->sechdrs[info->index.str].sh_size;
	unsigned int n = 0;

	for (unsigned int i = 1; i < info->num_syms; i++)
		n += kallsyms_keep(&sym[i], info);
	struct mod_kallsyms *ks = kmalloc(sizeof(*ks) + n * sizeof(Elf64_Sym) + strsize);
	if (!ks)
		return -ENOMEM;
	ks->symtab = (Elf64_Sym *)(ks + 1);
	ks->strtab = (char *)(ks->symtab + n);
	ks->num_symtab = 0;
	memcpy(ks->strtab, info->strtab, strsize);
	for (unsigned int i = 1; i < info->num_syms; i++)
		if (kallsyms_keep(&sym[i], info))
			ks->symtab[ks->num_symtab++] = sym[i];
	mod->kallsyms = ks;
	return 0;
}

/*
 * The function of a module around addr: the symbol at or before it in the module's text, and
 * its size (st_size, or up to the next symbol). The strings stay valid while the module is
 * loaded: a caller that may race with rmmod gets at worst a name read just before the unload.
 */
notrace bool module_address_lookup(unsigned long addr, const char **name, unsigned long *start,
				   unsigned long *size, const char **modname)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);
	struct module *mod = __module_address_locked(addr);
	const Elf64_Sym *best = NULL;
	unsigned long next = 0;

	if (mod && mod->kallsyms && mod->state != MODULE_STATE_UNFORMED &&
	    addr - (unsigned long)mod->core_layout.base < mod->core_layout.text_size) {
		const struct mod_kallsyms *ks = mod->kallsyms;

		next = (unsigned long)mod->core_layout.base + mod->core_layout.text_size;
		for (unsigned int i = 0; i < ks->num_symtab; i++) {
			const Elf64_Sym *s = &ks->symtab[i];

			if (ELF64_ST_TYPE(s->st_info) == STT_OBJECT)
				continue;
			if (s->st_value <= addr && (!best || s->st_value > best->st_value))
				best = s;
			if (s->st_value > addr && s->st_value < next)
				next = s->st_value;
		}
	}
	if (best) {
		if (name)
			*name = mod->kallsyms->strtab + best->st_name;
		if (start)
			*start = best->st_value;
		if (size)
			*size = best->st_size && best->st_value + best->st_size > addr
					? best->st_size
					: next - best->st_value;
		if (modname)
			*modname = mod->name;
	}
	__raw_spin_unlock_irqrestore(&modules_lock, irq);
	return best != NULL;
}

/*
 * The symnum-th symbol of the loaded modules, newest module first (Linux's module_get_kallsym,
 * for /proc/kallsyms): its value, its nm type letter (t/T text, r/R rodata, d/D data; capital
 * when global), its name and its module's, copied out under the lock (name: KSYM_NAME_LEN
 * bytes, module_name: MODULE_NAME_LEN). -ERANGE past the last.
 */
notrace int module_get_kallsym(unsigned int symnum, unsigned long *value, char *type, char *name,
			       char *module_name)
{
	unsigned long irq = __raw_spin_lock_irqsave(&modules_lock);
	struct module *mod;
	int ret = -ERANGE;

	list_for_each_entry(mod, &modules, list) {
		const struct mod_kallsyms *ks = mod->kallsyms;

		if (mod->state == MODULE_STATE_UNFORMED || !ks)
			continue;
		if (symnum >= ks->num_symtab) {
			symnum -= ks->num_symtab;
			continue;
		}
		const Elf64_Sym *sym = &ks->symtab[symnum];
		unsigned long off = sym->st_value - (unsigned long)mod->core_layout.base;
		char t = off < mod->core_layout.text_size ? 't'
			 : off < mod->core_layout.ro_size ? 'r'
							    : 'd';

		*value = sym->st_value;
		*type = ELF64_ST_BIND(sym->st_info) == STB_LOCAL ? t : (char)(t - 'a' + 'A');
		strlcpy(name, ks->strtab + sym->st_name, KSYM_NAME_LEN);
		strlcpy(module_name, mod->name, MODULE_NAME_LEN);
		ret = 0;
		break;
	}
	__raw_spin_unlock_irqrestore(&modules_lock, irq);
	return ret;
}

/* --- loading -------------------------------------------------------------------------------- */

/*
 * Linux's name, so that a trace of a load reads as on Linux. It checks that the init left
 * preemption as it found it (which also keeps the call a real call, not a tail jump that would
 * make the init look called by insmod itself).
 */
noinline int do_one_initcall(initcall_t fn)
{
	int count = preempt_count();
	int ret = fn();

	if (preempt_count() != count) {
		printk(KERN_WARNING "initcall %pS returned with preemption imbalance\n", fn);
		preempt_count_sub(preempt_count() - count);
	}
	return ret;
}

/*
 * Its kprobes are killed (disarmed, marked gone) before ftrace forgets its call sites, as
 * Linux's kprobes module notifier runs at MODULE_STATE_GOING.
 */
static void kprobes_module_going_mod(struct module *mod)
{
	uintptr_t base = (uintptr_t)mod->core_layout.base;

	kprobes_module_going(base, base + mod->core_layout.text_size);
}

static void free_module(struct module *mod)
{
	void *base = mod->core_layout.base; /* mod itself is in those pages */
	size_t size = mod->core_layout.size;

	trace_module_free(mod);
	kfree(mod->kallsyms);
	module_memfree(base, size);
}

/* Text read-only and executable, rodata read-only: the writes are all done (W^X). */
static void module_enable_protections(const struct module_layout *l)
{
	uintptr_t base = (uintptr_t)l->base;

	set_memory_perms(base, l->text_size / PAGE_SIZE, MMU_EXEC);
	set_memory_perms(base + l->text_size, (l->ro_size - l->text_size) / PAGE_SIZE, 0);
}

/*
 * /sys/module/NAME appears before the init runs, as Linux's, and goes before the module's
 * memory does (kernel/module/params.c says why that is enough). Made and removed without
 * module_mutex: sysfs takes the VFS lock, and a read of /proc/modules holds that lock while it
 * takes module_mutex.
 */
static int do_init_module(struct module *mod)
{
	int ret = mod_sysfs_setup(mod);

	if (!ret && mod->init)
		ret = do_one_initcall(mod->init);
	if (ret < 0) {
		/* The init undid its own work (that is its contract); we undo ours. */
		mutex_lock(&module_mutex);
		WRITE_ONCE(mod->state, MODULE_STATE_GOING);
		list_del_module(mod);
		mutex_unlock(&module_mutex);
		mod_sysfs_teardown(mod);
		kprobes_module_going_mod(mod);
		jump_label_del_module(mod);
		ftrace_release_mod(mod);
		free_module(mod);
		return ret;
	}
	if (ret > 0)
		pr_warn("%s: '%s'->init suspiciously returned %d, it should follow 0/-E "
			"convention\n%s: loading module anyway...\n",
			__func__, mod->name, ret, __func__);
	mutex_lock(&module_mutex);
	WRITE_ONCE(mod->state, MODULE_STATE_LIVE);
	mutex_unlock(&module_mutex);
	return 0;
}

int load_module(void *buf, size_t len, const char *uargs)
{
	struct load_info info = {.hdr = buf, .len = len};
	struct module *mod;
	void *base;
	int err;

	err = elf_validity_check(&info);
	if (!err)
		err = setup_load_info(&info);
	if (err)
		return err;

	mutex_lock(&module_mutex);
	if (find_module(info.name)) {
		err = -EEXIST;
		goto unlock;
	}
	err = layout_sections(&info);
	if (err)
		goto unlock;
	base = module_alloc(info.layout.size);
	if (!base) {
		err = -ENOMEM;
		goto unlock;
	}
	move_module(&info, base);
	mod = (struct module *)info.sechdrs[info.index.mod].sh_addr;
	err = simplify_symbols(&info, find_symbol, NULL);
	if (!err)
		err = apply_relocations(&info);
	/* Relocated, so its tables now hold addresses: ftrace may read __mcount_loc. */
	if (!err)
		err = setup_module_struct(&info, mod);
	if (!err)
		err = jump_label_check_module(mod);
	if (!err)
		err = add_kallsyms(mod, &info);
	if (err) {
		module_memfree(info.layout.base, info.layout.size);
		goto unlock;
	}
	ftrace_module_init(mod);
	module_enable_protections(&mod->core_layout);
	/* its static branches as their keys are, before any of it runs */
	jump_label_add_module(mod);
	/*
	 * The module's variables, before anything of it runs but once its text may run: the set of
	 * a module_param_cb is the module's own code (Linux too parses after complete_formation()).
	 */
	if (uargs)
		err = parse_args(info.name, uargs, mod->kp, mod->num_kp);
	if (err) {
		jump_label_del_module(mod);
		ftrace_release_mod(mod);
		kfree(mod->kallsyms);
		module_memfree(info.layout.base, info.layout.size);
		goto unlock;
	}
	mod->state = MODULE_STATE_COMING;
	list_add_module(mod);
	ftrace_module_enable(mod);
	/* Its trace_printk formats: copies the trace can still read once it is gone. */
	if (mod->num_trace_bprintk_fmt)
		hold_module_trace_bprintk_format(mod->trace_bprintk_fmt_start,
						 mod->trace_bprintk_fmt_start +
							 mod->num_trace_bprintk_fmt);
	mutex_unlock(&module_mutex);

	trace_module_load(mod);
	/* Kprobe events waiting for it ("p MOD:sym" made before it loaded), before its init. */
	trace_kprobe_module_coming(mod);
	return do_init_module(mod);
unlock:
	mutex_unlock(&module_mutex);
	return err;
}

/*
 * Reads the whole of an open file into pages the loader may write to (Linux's
 * kernel_read_file). *npages for the caller's free_pages.
 */
static void *read_module_file(int fd, size_t *size, size_t *npages, int *err)
{
	struct kstat st;
	void *buf = NULL;
	size_t got = 0;

	*err = vfs_fstat(fd, &st);
	if (*err)
		return NULL;
	if (!S_ISREG(st.mode) || st.size <= 0) {
		*err = -EINVAL; /* Linux's kernel_read_file: not a regular file, or empty */
		return NULL;
	}
	if ((uint64_t)st.size > MODULE_MAX_FILE) {
		*err = -EFBIG;
		return NULL;
	}
	*npages = ALIGN_UP((size_t)st.size, PAGE_SIZE) / PAGE_SIZE;
	buf = alloc_pages(*npages);
	if (!buf) {
		*err = -ENOMEM;
		return NULL;
	}
	while (got < (size_t)st.size) {
		ssize_t n = vfs_read(fd, (char *)buf + got, (size_t)st.size - got);

		if (n < 0) {
			*err = (int)n;
			free_pages(buf, *npages);
			return NULL;
		}
		if (n == 0)
			break; /* shorter than it said: what there is is the file */
		got += (size_t)n;
	}
	*size = got;
	return buf;
}

/* finit_module's work, and the shell's insmod: load the module in an open file. */
int load_module_fd(int fd, const char *uargs)
{
	size_t size = 0, npages = 0;
	int err;
	void *buf = read_module_file(fd, &size, &npages, &err);

	if (!buf)
		return err;
	err = load_module(buf, size, uargs);
	free_pages(buf, npages);
	return err;
}

/* --- unloading ------------------------------------------------------------------------------ */

int delete_module(const char *name, unsigned int flags)
{
	struct module *mod;
	int zero = 0;

	(void)flags; /* O_NONBLOCK is the only way Lucid waits: never; O_TRUNC (force) is refused */
	mutex_lock(&module_mutex);
	mod = find_module(name);
	if (!mod) {
		mutex_unlock(&module_mutex);
		return -ENOENT;
	}
	/* Still in its init, or already leaving; or without an exit, it can never leave. */
	if (mod->state != MODULE_STATE_LIVE || (mod->init && !mod->exit)) {
		mutex_unlock(&module_mutex);
		return -EBUSY;
	}
	/* No reference, and from now on none can be taken. */
	if (!__atomic_compare_exchange_n(&mod->refcnt, &zero, MODULE_REF_DEAD, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		mutex_unlock(&module_mutex);
		return -EWOULDBLOCK;
	}
	WRITE_ONCE(mod->state, MODULE_STATE_GOING);
	mutex_unlock(&module_mutex);

	if (mod->exit)
		mod->exit();
	kprobes_module_going_mod(mod);
	jump_label_del_module(mod);
	ftrace_release_mod(mod);

	mutex_lock(&module_mutex);
	list_del_module(mod);
	mutex_unlock(&module_mutex);
	mod_sysfs_teardown(mod);
	free_module(mod);
	return 0;
}

/* --- the system calls ----------------------------------------------------------------------- */

#define MODULE_INIT_IGNORE_MODVERSIONS 1 /* finit_module's flags: Lucid checks neither */
#define MODULE_INIT_IGNORE_VERMAGIC 2
#define MODULE_PARAMS_MAX 256 /* Lucid's modules take no parameters: a line is plenty */

/* The parameter string from user space: "" for NULL, as Linux's strndup_user would refuse. */
static long copy_params(char *buf, const char __user *uargs)
{
	long n = strncpy_from_user(buf, uargs, MODULE_PARAMS_MAX);

	if (n < 0)
		return -EFAULT;
	if (n == MODULE_PARAMS_MAX)
		return -EINVAL; /* too long */
	return 0;
}

long sys_init_module(void __user *umod, unsigned long len, const char __user *uargs)
{
	char params[MODULE_PARAMS_MAX];
	size_t npages;
	void *buf;
	long err = copy_params(params, uargs);

	if (err)
		return err;
	if (len < sizeof(Elf64_Ehdr))
		return -ENOEXEC;
	if (len > MODULE_MAX_FILE)
		return -ENOMEM;
	npages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	buf = alloc_pages(npages);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, umod, len))
		err = -EFAULT;
	else
		err = load_module(buf, len, params);
	free_pages(buf, npages);
	return err;
}

long sys_finit_module(int fd, const char __user *uargs, int flags)
{
	char params[MODULE_PARAMS_MAX];
	long err;

	if (flags & ~(MODULE_INIT_IGNORE_MODVERSIONS | MODULE_INIT_IGNORE_VERMAGIC))
		return -EINVAL;
	err = copy_params(params, uargs);
	if (err)
		return err;
	return load_module_fd(fd, params);
}

long sys_delete_module(const char __user *name_user, unsigned int flags)
{
	char name[MODULE_NAME_LEN];

	/* As Linux: a longer name is cut, and then names no module. */
	if (strncpy_from_user(name, name_user, MODULE_NAME_LEN - 1) < 0)
		return -EFAULT;
	name[MODULE_NAME_LEN - 1] = '\0';
	return delete_module(name, flags);
}

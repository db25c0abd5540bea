/*
 * Loadable modules: code linked into the running kernel (kernel/module/main.c explains how).
 *
 * What a module's source sees, spelled as in Linux:
 *
 *     #include "kernel/module/module.h"
 *
 *     static int foo_init(void) { ...; return 0; }    // 0, or -EXXX to refuse to load
 *     static void foo_exit(void) { ... }
 *     module_init(foo_init);
 *     module_exit(foo_exit);
 *     MODULE_LICENSE("GPL");
 *
 * `make modules` compiles modules/NAME.c with the kernel's own flags and links it with a small
 * generated NAME.mod.c that defines __this_module, the module's struct module (as Linux's
 * modpost does), into build/modules/NAME.ko.
 */
#ifndef KERNEL_MODULE_MODULE_H
#define KERNEL_MODULE_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/module/export.h"
#include "lib/elf.h"
#include "lib/list.h"

#define MODULE_NAME_LEN (64 - sizeof(unsigned long)) /* Linux's, with the NUL */

enum module_state {
	MODULE_STATE_LIVE,     /* loaded, its init returned 0 */
	MODULE_STATE_COMING,   /* its init is running */
	MODULE_STATE_GOING,    /* its exit is running, or its init failed: leaving */
	MODULE_STATE_UNFORMED, /* being laid out and linked: not yet a module anyone may use */
};

/* What kallsyms keeps of a module's symbol table: its defined symbols, addresses final. */
struct mod_kallsyms {
	Elf64_Sym *symtab;
	unsigned int num_symtab;
	char *strtab;
};

/* One of a module's three regions: its pages, page aligned, as the MMU protects them. */
struct module_layout {
	void *base;        /* the first page: text */
	unsigned int size; /* text + rodata + data, in bytes, a multiple of PAGE_SIZE */
	unsigned int text_size; /* [base, base + text_size): read-only and executable */
	unsigned int ro_size;   /* [base + text_size, base + ro_size): read-only, no-execute */
	/* [base + ro_size, base + size): read-write, no-execute (data, bss, struct module) */
};

/*
 * A loaded module. This very structure is in the module's file, in the section
 * .gnu.linkonce.this_module (its NAME.mod.c, made by `make modules`, fills in name, init and
 * exit), and lives in the module's own data once loaded, as in Linux: THIS_MODULE is its address.
 * Its size must be the kernel's (the loader checks), so a module built for another kernel is
 * refused rather than misread.
 */
struct dentry;
struct jump_entry;
struct module {
	enum module_state state;
	struct list_head list; /* on the list of modules, under module_mutex */
	char name[MODULE_NAME_LEN];

	/* Exported symbols (its section __ksymtab), for modules loaded after it. */
	const struct kernel_symbol *syms;
	unsigned int num_syms;

	int (*init)(void);
	void (*exit)(void);

	struct module_layout core_layout;

	/* Its symbols, for kallsyms (kmalloc'd, freed with the module). */
	struct mod_kallsyms *kallsyms;

	/*
	 * Its __fentry__ call sites, as -mrecord-mcount listed them in __mcount_loc: the loaded,
	 * relocated copy of that array (absolute addresses in its text), for ftrace_module_init.
	 */
	unsigned long *ftrace_callsites;
	unsigned int num_ftrace_callsites;

	/*
	 * Its static branch sites (section __jump_table, relocated), and its link on the list of
	 * loaded tables (kernel/jump_label.c, under its mutex).
	 */
	struct jump_entry *jump_entries;
	unsigned int num_jump_entries;
	struct module *jump_next;

	/* Its trace_printk formats (section __trace_printk_fmt), for printk_formats. */
	const char **trace_bprintk_fmt_start;
	unsigned int num_trace_bprintk_fmt;

	/* Its parameters (section __param), set from insmod's line before its init. */
	const struct kernel_param *kp;
	unsigned int num_kp;

	/* References held (try_module_get): rmmod refuses while it is not 0. */
	int refcnt;

	/* /sys/module/NAME, from before its init until it is gone (kernel/module/params.c). */
	struct dentry *sysfs_dir;
};

#ifdef KBUILD_MODNAME /* a module's source, built by `make modules` */
extern struct module __this_module;
#define THIS_MODULE (&__this_module)
#else
#define THIS_MODULE ((struct module *)0)
#endif

/*
 * module_init(fn): fn runs when the module is loaded, module_exit(fn) when it is unloaded. As in
 * Linux, they are aliases named init_module and cleanup_module, which NAME.mod.c points
 * __this_module's init and exit at; the type check makes a wrong signature an error here.
 */
typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);
#define module_init(initfn)                                                            \
	static inline initcall_t __maybe_unused __inittest(void) { return initfn; }     \
	int init_module(void) __attribute__((alias(#initfn)))
#define module_exit(exitfn)                                                            \
	static inline exitcall_t __maybe_unused __exittest(void) { return exitfn; }     \
	void cleanup_module(void) __attribute__((alias(#exitfn)))

/*
 * Linux's __init and __exit put code in sections freed after use; Lucid keeps a module's code
 * whole, so they mark nothing (a module written for Linux still compiles).
 */
#define __init
#define __exit
#define __maybe_unused __attribute__((unused))

/* "key=value" strings in the section .modinfo, as Linux's: `license=GPL`. */
#define __MODULE_INFO(tag, name, info)                                                 \
	static const char __UNIQUE_ID_##name[] __used __section(".modinfo")                \
		__aligned(1) = #tag "=" info
#define MODULE_INFO(tag, info) __MODULE_INFO(tag, tag, info)
#define MODULE_LICENSE(l) MODULE_INFO(license, l)
#define MODULE_AUTHOR(a) MODULE_INFO(author, a)
#define MODULE_DESCRIPTION(d) MODULE_INFO(description, d)

/*
 * Parameters (Linux's moduleparam.h, a subset): `insmod latency_demo irqs_off_us=500` sets the
 * module's variable irqs_off_us before its init runs. module_param(var, type, perm) puts a
 * struct kernel_param in the section __param; the loader (kernel/module/params.c) parses the
 * words of insmod's line, and a bad value refuses the load (-EINVAL), as Linux's. Types: int,
 * uint, ulong, bool. perm is the mode of /sys/module/NAME/parameters/var while the module is
 * loaded (0: no file): 0444 shows the value, 0644 lets root change it too (Linux's rule: never
 * writable by others, checked at compile time). module_param_cb(name, ops, arg, perm) is the
 * same with the module's own ops: its set runs for insmod's word and for each write of the file.
 */
struct kernel_param;
struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp); /* val NULL: "name" alone */
	/*
	 * The value as the file shows it, with its newline, in buf (PARAM_VALUE_MAX); the length.
	 */
	int (*get)(char *buf, const struct kernel_param *kp);
};
struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	uint16_t perm;
	void *arg;
};
#define PARAM_VALUE_MAX 64 /* any value of the types below, as text: a ulong is 20 digits */
extern const struct kernel_param_ops param_ops_int, param_ops_uint, param_ops_ulong,
	param_ops_bool;
int param_set_uint(const char *val, const struct kernel_param *kp);
int param_get_uint(char *buf, const struct kernel_param *kp);
#define PARAM_S_IWOTH 0002 /* others' write bit: no parameter file has it (Linux's check too) */
#define module_param_cb(name, _ops, _arg, _perm)                                               \
	_Static_assert(((_perm) & PARAM_S_IWOTH) == 0, "parameter " #name " writable by all"); \
	static const struct kernel_param __param_##name __used __section("__param")              \
		__aligned(sizeof(void *)) = {#name, _ops, _perm, _arg}
#define module_param(var, type, perm) module_param_cb(var, &param_ops_##type, &(var), perm)
#define MODULE_PARM_DESC(var, desc) __MODULE_INFO(parm, var##_parm, #var ":" desc)
/* Sets the parameters named in args; 0, or -EINVAL for a bad value (said in the log). */
int parse_args(const char *modname, const char *args, const struct kernel_param *params,
	       unsigned int num);
/* /sys/module/NAME and its parameters/ files: made before the init runs, removed at the end. */
int mod_sysfs_setup(struct module *mod);
void mod_sysfs_teardown(struct module *mod);

/*
 * NAME.mod.c's one line: the module's struct module, named, pointing at its init and exit.
 * Weak references: a module may have no module_init or no module_exit (one without an exit
 * can never be unloaded, as in Linux).
 */
#define MODULE_THIS_MODULE(modname)                                                    \
	extern int init_module(void) __attribute__((weak));                            \
	extern void cleanup_module(void) __attribute__((weak));                        \
	struct module __this_module __section(".gnu.linkonce.this_module") = {         \
		.name = modname,                                                       \
		.init = init_module,                                                   \
		.exit = cleanup_module,                                                \
	}

/* A reference to a module: false if it is going away. mod NULL (built-in code) always works. */
bool try_module_get(struct module *mod);
void module_put(struct module *mod);
int module_refcount(struct module *mod);

/* --- for the kernel ---------------------------------------------------------------------- */

/*
 * Loads the module in buf[0, len) (a copy the loader may modify: it is the kernel's, freed by the
 * caller); uargs are its parameters (Lucid's modules take none: must be ""). 0 or -errno, with
 * the reason in dmesg as Linux's. init_module(2), finit_module(2) and the shell's insmod call it.
 */
int load_module(void *buf, size_t len, const char *uargs);
/* The same, from an open file (finit_module(2), the shell's insmod). */
int load_module_fd(int fd, const char *uargs);
/* rmmod: -ENOENT if not loaded, -EWOULDBLOCK if in use, -EBUSY if loading or going. */
int delete_module(const char *name, unsigned int flags);
/* The module whose text, rodata or data holds addr, or NULL (callers hold module_mutex or
 * otherwise know the module stays: see main.c). */
struct module *__module_address(unsigned long addr);
bool is_module_text_address(unsigned long addr);
/* /proc/kallsyms: the loaded modules' symbols, one by one (main.c: module_get_kallsym). */
#define KSYM_NAME_LEN 128 /* Linux's, with the NUL */
int module_get_kallsym(unsigned int symnum, unsigned long *value, char *type, char *name,
		       char *module_name);
/* kallsyms: the name of the module function around addr (main.c: module_address_lookup). */
bool module_address_lookup(unsigned long addr, const char **name, unsigned long *start,
			   unsigned long *size, const char **modname);
/* Calls fn for each module (under module_mutex), for lsmod and /proc/modules. */
void module_for_each(void (*fn)(struct module *mod, void *data), void *data);
int module_init_files(void);

/*
 * ftrace's part (trace/, Linux's names): called by the loader, in this order.
 *  - ftrace_module_init(mod): after the relocations are applied, while the module's text is
 *    still writable and not yet executable: each site of mod->ftrace_callsites becomes a NOP.
 *  - ftrace_module_enable(mod): text now read-only and executable, before the init runs: the
 *    sites the current filters select are enabled (through text_poke's alias).
 *  - ftrace_release_mod(mod): unload, or a failed load after ftrace_module_init: the sites
 *    leave every table before the pages are freed.
 * trace/ftrace_module.c defines them.
 */
void ftrace_module_init(struct module *mod);
void ftrace_module_enable(struct module *mod);
void ftrace_release_mod(struct module *mod);

#endif

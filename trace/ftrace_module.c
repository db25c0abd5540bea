/*
 * The module loader's three calls into ftrace (kernel/module/main.c says when each comes), as
 * Linux's ftrace_module_init, ftrace_module_enable and ftrace_release_mod: what a struct module
 * holds, turned into what trace/ftrace.c keeps (ftrace_module_sites_*).
 *
 * A module built with -pg -mfentry -mrecord-mcount carries its own __mcount_loc: the loader
 * hands it over relocated (mod->ftrace_callsites), and each site must be the first instruction
 * of one of the module's functions, whose name and size come from the module's own symbol table
 * (it is not on the module list yet, so kallsyms would not find it).
 *
 * Not traced, as all of trace/.
 */
#include "trace/ftrace.h"
#include "kernel/module/module.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "arch/x86_64/cpu.h"

/* The module's function that starts at ip, or NULL. */
static const Elf64_Sym *function_at(const struct mod_kallsyms *ks, unsigned long ip)
{
	for (unsigned int i = 0; ks && i < ks->num_symtab; i++) {
		const Elf64_Sym *s = &ks->symtab[i];

		if (s->st_value == ip && ELF64_ST_TYPE(s->st_info) == STT_FUNC)
			return s;
	}
	return NULL;
}

void ftrace_module_init(struct module *mod)
{
	uint64_t t0 = rdtsc();
	unsigned int n = mod->num_ftrace_callsites;
	struct ftrace_mod_site *sites;
	int k = 0;

	if (!n)
		return; /* built without -pg, or no traceable function */
	sites = kmalloc(n * sizeof(*sites));
	if (!sites) {
		/* Its sites stay calls to __fentry__, a plain ret: it runs, untraceable. */
		printk(KERN_ERR "ftrace: no memory for %s's %u call sites: not traceable\n",
		       mod->name, n);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned long ip = mod->ftrace_callsites[i];
		const Elf64_Sym *s = function_at(mod->kallsyms, ip);

		if (!s) { /* as at boot: a site must start a known function */
			printk(KERN_ERR "ftrace: %s: site %lx is not a function's first "
					"instruction: left alone\n",
			       mod->name, ip);
			continue;
		}
		sites[k++] = (struct ftrace_mod_site){
			ip, mod->kallsyms->strtab + s->st_name, s->st_size};
	}
	ftrace_module_sites_add(mod->name, sites, k);
	kfree(sites);
	/* For `bench` (module_ftrace_init_insns_per_site): the whole step, per site. */
	ftrace_module_init_tsc = rdtsc() - t0;
	ftrace_module_init_sites = (int)n;
}

void ftrace_module_enable(struct module *mod)
{
	ftrace_module_sites_enable(mod->name);
}

void ftrace_release_mod(struct module *mod)
{
	ftrace_module_sites_release(mod->name);
}

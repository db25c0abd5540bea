/*
 * Where the module loader tells ftrace about code that comes and goes (kernel/module/module.h
 * says when each is called). Empty until the tracer handles modules: a module's __fentry__
 * calls then stay as gcc emitted them, calls to a __fentry__ that returns at once.
 */
#include "kernel/module/module.h"

void ftrace_module_init(struct module *mod)
{
	(void)mod; /* will NOP each of mod->ftrace_callsites, and add them to the tables */
}

void ftrace_module_enable(struct module *mod)
{
	(void)mod; /* will enable the sites that the current filters select */
}

void ftrace_release_mod(struct module *mod)
{
	(void)mod; /* will drop the sites from every table and filter */
}

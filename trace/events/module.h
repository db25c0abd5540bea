/*
 * The module events (Linux's include/trace/events/module.h, 6.1):
 *
 *   module_load: foo
 *   module_get: foo call_site=try_module_get_demo+0x1c refcnt=2
 *   module_put: foo call_site=module_put_demo+0x1c refcnt=1
 *   module_free: foo
 *
 * module_load: loaded and about to run its init, with its taint flags after its name (Lucid's
 * modules are its own, built in its tree, and unsigned modules taint nothing: none);
 * module_free: its memory is about to be freed (rmmod, or a failed init); module_get and
 * module_put: a reference taken or dropped by the code at call_site, refcnt counted as Linux
 * counts it (one more than the references while the module lives). Hit in
 * kernel/module/main.c; defined by trace/trace_events_module.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM module
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/module.h"

#ifndef TRACE_EVENTS_MODULE_DEFS_H
#define TRACE_EVENTS_MODULE_DEFS_H
struct module;

/* Linux's taint bits of a module (include/linux/panic.h), which module_load shows. */
#define TAINT_PROPRIETARY_MODULE 0
#define TAINT_FORCED_MODULE 1
#define TAINT_CRAP 10
#define TAINT_OOT_MODULE 12
#define TAINT_UNSIGNED_MODULE 13
/* A Lucid module's: it is built in Lucid's tree, and unsigned modules are its way: none. */
#define LUCID_MODULE_TAINTS 0

/* clang-format off */
#define show_module_flags(flags) __print_flags(flags, "",	\
	{ (1UL << TAINT_PROPRIETARY_MODULE),	"P" },		\
	{ (1UL << TAINT_OOT_MODULE),		"O" },		\
	{ (1UL << TAINT_FORCED_MODULE),		"F" },		\
	{ (1UL << TAINT_CRAP),			"C" },		\
	{ (1UL << TAINT_UNSIGNED_MODULE),	"E" })
/* clang-format on */
#endif

#if !defined(TRACE_EVENTS_MODULE_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_MODULE_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

TRACE_EVENT(module_load,
	TP_PROTO(struct module *mod),
	TP_ARGS(mod),
	TP_STRUCT__entry(
		__field(unsigned int, taints)
		__string(name, mod->name)
	),
	TP_fast_assign(
		__entry->taints = LUCID_MODULE_TAINTS;
		__assign_str(name, mod->name);
	),
	TP_printk("%s %s", __get_str(name), show_module_flags(__entry->taints))
);

TRACE_EVENT(module_free,
	TP_PROTO(struct module *mod),
	TP_ARGS(mod),
	TP_STRUCT__entry(
		__string(name, mod->name)
	),
	TP_fast_assign(
		__assign_str(name, mod->name);
	),
	TP_printk("%s", __get_str(name))
);

/* refcnt: Lucid's references, plus Linux's MODULE_REF_BASE (kernel/module/main.c). */
DECLARE_EVENT_CLASS(module_refcnt,
	TP_PROTO(struct module *mod, unsigned long ip, int refcnt),
	TP_ARGS(mod, ip, refcnt),
	TP_STRUCT__entry(
		__field(unsigned long, ip)
		__field(int, refcnt)
		__string(name, mod->name)
	),
	TP_fast_assign(
		__entry->ip = ip;
		__entry->refcnt = refcnt;
		__assign_str(name, mod->name);
	),
	TP_printk("%s call_site=%ps refcnt=%d",
		  __get_str(name), (void *)__entry->ip, __entry->refcnt)
);
DEFINE_EVENT(module_refcnt, module_get,
	TP_PROTO(struct module *mod, unsigned long ip, int refcnt), TP_ARGS(mod, ip, refcnt));
DEFINE_EVENT(module_refcnt, module_put,
	TP_PROTO(struct module *mod, unsigned long ip, int refcnt), TP_ARGS(mod, ip, refcnt));

/* clang-format on */

#endif /* TRACE_EVENTS_MODULE_H */

#include "trace/define_trace.h"

/* The syscalls:* trace events: sys_enter_NAME and sys_exit_NAME for each system call. */

/*
 * Linux's (kernel/trace/trace_syscalls.c), record, format file and line:
 *
 *   field:int __syscall_nr;	offset:8;	size:4;	signed:1;
 *   field:unsigned int fd;	offset:16;	size:8;	signed:0;
 *   ...
 *   print fmt: "fd: 0x%08lx, buf: 0x%08lx, count: 0x%08lx", ((unsigned long)(REC->fd)), ...
 *
 *   sys_write(fd: 1, buf: 4020f0, count: 6)
 *   sys_write -> 0x6
 *
 * Every argument takes 8 bytes, whatever its C type: the record holds the registers, and the
 * type in the format file is only a name for tools. The events are made from one list,
 * kernel/syscall_args.h (Linux's SYSCALL_DEFINEn lines): for each call its metadata (name,
 * arguments) and its two events. Its number is found through the system-call table itself
 * (arch/x86_64/syscall_64_tbl.h), by the entry point: syscalls_metadata[nr].
 *
 * All sys_enter_NAME events share one probe on the sys_enter tracepoint (raw_syscalls' own
 * tracepoint), as Linux's do: attached while any of them is enabled, it looks the call's
 * number up in enter_syscall_files[] and records only if that call's event is on. The same
 * for sys_exit. So enabling every syscalls:* event costs one probe per tracepoint, not a
 * hundred.
 *
 * Not traced, as all of trace/: the probes run inside the traced code's tracepoint.
 */
#include "trace/trace_events.h"
#include "trace/trace_events_hist.h"
#include "trace/events/syscalls.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/syscall_64_names.h"
#include "kernel/syscalls.h" /* __user, which the types lose as Linux's do */
#include "kernel/locking/lockdep.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"
#include "lib/printf.h"

struct syscall_trace_enter {
	struct trace_entry ent;
	int nr;
	unsigned long args[]; /* as many as the call takes */
};

struct syscall_trace_exit {
	struct trace_entry ent;
	int nr;
	long ret;
};

/* What Linux's SYSCALL_DEFINEn records of a call (include/trace/syscall.h). */
struct syscall_metadata {
	const char *name; /* "sys_write" */
	int nb_args;
	const struct trace_event_field *args; /* the enter event's fields after __syscall_nr */
};

/* --- the metadata, by number ------------------------------------------------------------------ */

/*
 * Declared weak for every entry point of the table: a call kernel/syscall_args.h does not list
 * has none, and its address is NULL.
 */
#define __SYSCALL(nr, name, entry) \
	extern struct syscall_metadata __syscall_meta_##entry __attribute__((weak));
#include "arch/x86_64/syscall_64_tbl.h"
#undef __SYSCALL

#define __SYSCALL(nr, name, entry) [nr] = &__syscall_meta_##entry,
static struct syscall_metadata *const syscalls_metadata[NR_SYSCALL_NAMES] = {
#include "arch/x86_64/syscall_64_tbl.h"
};
#undef __SYSCALL

/*
 * Linux's: the name .syscall prints ("sys_read"), NULL for a number no call has. Linux has
 * metadata for every call; Lucid's for those kernel/syscall_args.h lists, so the others are
 * named from Linux's table: "sys_" and that name, made once.
 */
#define SYSCALL_NAME_PREFIX "sys_"
#define SYSCALL_NAME_MAX 32
static char syscall_full_names[NR_SYSCALL_NAMES][SYSCALL_NAME_MAX];

const char *get_syscall_name(int syscall)
{
	char *name;

	if (syscall < 0 || syscall >= NR_SYSCALL_NAMES)
		return NULL;
	if (syscalls_metadata[syscall])
		return syscalls_metadata[syscall]->name;
	if (!syscall_names[syscall])
		return NULL;
	name = syscall_full_names[syscall];
	if (!name[0]) /* the same text whoever writes it first */
		snprintf(name, SYSCALL_NAME_MAX, SYSCALL_NAME_PREFIX "%s", syscall_names[syscall]);
	return name;
}

/* --- the fields and print fmt, from the argument list ----------------------------------------- */

#define SYSCALL_NR_FIELD(st)                                                            \
	{                                                                               \
		.type = "int", .name = "__syscall_nr", .offset = offsetof(st, nr),      \
		.size = sizeof(int) + __TRACE_FIELD_CHECK(st, int, nr), .is_signed = 1, \
	}

/* Argument i: 8 bytes at args[i], unsigned whatever its type, as Linux defines them. */
#define __SC_FIELD(i, t, a)                                                                       \
	{                                                                                         \
		.type = #t,                                                                       \
		.name = #a,                                                                       \
		.offset =                                                                         \
			offsetof(struct syscall_trace_enter, args) + (i) * sizeof(unsigned long), \
		.size = sizeof(unsigned long),                                                    \
		.is_signed = 0,                                                                   \
	},
#define __SC_FIELDS_0(i, ...)
#define __SC_FIELDS_1(i, t, a) __SC_FIELD(i, t, a)
#define __SC_FIELDS_2(i, t, a, ...) __SC_FIELD(i, t, a) __SC_FIELDS_1((i) + 1, __VA_ARGS__)
#define __SC_FIELDS_3(i, t, a, ...) __SC_FIELD(i, t, a) __SC_FIELDS_2((i) + 1, __VA_ARGS__)
#define __SC_FIELDS_4(i, t, a, ...) __SC_FIELD(i, t, a) __SC_FIELDS_3((i) + 1, __VA_ARGS__)
#define __SC_FIELDS_5(i, t, a, ...) __SC_FIELD(i, t, a) __SC_FIELDS_4((i) + 1, __VA_ARGS__)
#define __SC_FIELDS_6(i, t, a, ...) __SC_FIELD(i, t, a) __SC_FIELDS_5((i) + 1, __VA_ARGS__)

/*
 * Linux builds "%s: 0x%0%zulx" for each argument, the width sizeof(unsigned long) digits:
 * "fd: 0x%08lx", joined by ", "; then each value as ((unsigned long)(REC->fd)).
 */
#define __SC_FMT(a) #a ": 0x%08lx"
#define __SC_FMT_0(...)
#define __SC_FMT_1(t, a) __SC_FMT(a)
#define __SC_FMT_2(t, a, ...) __SC_FMT(a) ", " __SC_FMT_1(__VA_ARGS__)
#define __SC_FMT_3(t, a, ...) __SC_FMT(a) ", " __SC_FMT_2(__VA_ARGS__)
#define __SC_FMT_4(t, a, ...) __SC_FMT(a) ", " __SC_FMT_3(__VA_ARGS__)
#define __SC_FMT_5(t, a, ...) __SC_FMT(a) ", " __SC_FMT_4(__VA_ARGS__)
#define __SC_FMT_6(t, a, ...) __SC_FMT(a) ", " __SC_FMT_5(__VA_ARGS__)
#define __SC_REC(a) ", ((unsigned long)(REC->" #a "))"
#define __SC_REC_0(...)
#define __SC_REC_1(t, a) __SC_REC(a)
#define __SC_REC_2(t, a, ...) __SC_REC(a) __SC_REC_1(__VA_ARGS__)
#define __SC_REC_3(t, a, ...) __SC_REC(a) __SC_REC_2(__VA_ARGS__)
#define __SC_REC_4(t, a, ...) __SC_REC(a) __SC_REC_3(__VA_ARGS__)
#define __SC_REC_5(t, a, ...) __SC_REC(a) __SC_REC_4(__VA_ARGS__)
#define __SC_REC_6(t, a, ...) __SC_REC(a) __SC_REC_5(__VA_ARGS__)

static const struct trace_event_field syscall_exit_fields[] = {
	SYSCALL_NR_FIELD(struct syscall_trace_exit),
	TRACE_FIELD(struct syscall_trace_exit, long, ret),
	TRACE_FIELD_END,
};

static void ftrace_syscall_enter(void *data, struct pt_regs *regs, long id);
static void ftrace_syscall_exit(void *data, struct pt_regs *regs, long ret);
static int syscall_enter_register(struct trace_event_call *call, bool on);
static int syscall_exit_register(struct trace_event_call *call, bool on);
static enum print_line_t print_syscall_enter(struct trace_iterator *iter, unsigned int flags,
					     struct trace_event *event);
static enum print_line_t print_syscall_exit(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event);

/*
 * One line of kernel/syscall_args.h: the call's fields, metadata and two events (not static:
 * the host test, tests/unit/test_trace_events.c, names event_enter_write). .tp and .probe say
 * where the shared probe goes; .reg attaches it.
 */
#define SYSCALL_DEFINEx(x, sname, ...)                                                      \
	static const struct trace_event_field __syscall_fields_##sname[] = {                \
		SYSCALL_NR_FIELD(struct syscall_trace_enter),                               \
		__SC_FIELDS_##x(0, __VA_ARGS__) TRACE_FIELD_END,                            \
	};                                                                                  \
	struct syscall_metadata __syscall_meta_sys_##sname = {                              \
		.name = "sys_" #sname,                                                      \
		.nb_args = x,                                                               \
		.args = __syscall_fields_##sname + 1,                                       \
	};                                                                                  \
	struct trace_event_call event_enter_##sname = {                                     \
		.system = "syscalls",                                                       \
		.name = "sys_enter_" #sname,                                                \
		.fields = __syscall_fields_##sname,                                         \
		.size = sizeof(struct syscall_trace_enter) + (x) * sizeof(unsigned long),   \
		.print_fmt = "\"" __SC_FMT_##x(__VA_ARGS__) "\"" __SC_REC_##x(__VA_ARGS__), \
		.event = {.trace = print_syscall_enter},                                    \
		.tp = &__tracepoint_sys_enter,                                              \
		.probe = ftrace_syscall_enter,                                              \
		.reg = syscall_enter_register,                                              \
		.data = &__syscall_meta_sys_##sname,                                        \
	};                                                                                  \
	REGISTER_TRACE_EVENT(event_enter_##sname);                                          \
	struct trace_event_call event_exit_##sname = {                                      \
		.system = "syscalls",                                                       \
		.name = "sys_exit_" #sname,                                                 \
		.fields = syscall_exit_fields,                                              \
		.size = sizeof(struct syscall_trace_exit),                                  \
		.print_fmt = TRACE_PRINT_FMT("0x%lx", REC->ret),                            \
		.event = {.trace = print_syscall_exit},                                     \
		.tp = &__tracepoint_sys_exit,                                               \
		.probe = ftrace_syscall_exit,                                               \
		.reg = syscall_exit_register,                                               \
		.data = &__syscall_meta_sys_##sname,                                        \
	};                                                                                  \
	REGISTER_TRACE_EVENT(event_exit_##sname);
#define SYSCALL_DEFINE0(sname) SYSCALL_DEFINEx(0, sname)
#define SYSCALL_DEFINE1(sname, ...) SYSCALL_DEFINEx(1, sname, __VA_ARGS__)
#define SYSCALL_DEFINE2(sname, ...) SYSCALL_DEFINEx(2, sname, __VA_ARGS__)
#define SYSCALL_DEFINE3(sname, ...) SYSCALL_DEFINEx(3, sname, __VA_ARGS__)
#define SYSCALL_DEFINE4(sname, ...) SYSCALL_DEFINEx(4, sname, __VA_ARGS__)
#define SYSCALL_DEFINE5(sname, ...) SYSCALL_DEFINEx(5, sname, __VA_ARGS__)
#define SYSCALL_DEFINE6(sname, ...) SYSCALL_DEFINEx(6, sname, __VA_ARGS__)
#include "kernel/syscall_args.h"

/* --- enabling: one shared probe per tracepoint ------------------------------------------------ */

/* The enabled event of each call, or NULL; read by the probes, written under event_mutex. */
static struct trace_event_call *enter_syscall_files[NR_SYSCALL_NAMES];
static struct trace_event_call *exit_syscall_files[NR_SYSCALL_NAMES];
static int sys_refcount_enter, sys_refcount_exit; /* events enabled: the probe is on if > 0 */

/* The call's number: where the table points at its metadata; -1 if nowhere. */
static int syscall_nr_of(const struct syscall_metadata *meta)
{
	for (int nr = 0; nr < NR_SYSCALL_NAMES; nr++) {
		if (syscalls_metadata[nr] == meta)
			return nr;
	}
	return -1;
}

static int syscall_register(struct trace_event_call *call, bool on, struct trace_event_call **files,
			    int *refcount, struct tracepoint *tp, void *probe)
{
	lockdep_assert_held(&event_mutex);
	int nr = syscall_nr_of(call->data), ret;

	if (nr < 0)
		return -ENODEV; /* listed in syscall_args.h but not in the table: nothing to hit */
	if (on) {
		if (!*refcount) {
			ret = tracepoint_probe_register(tp, probe, NULL);
			if (ret)
				return ret;
		}
		++*refcount;
		WRITE_ONCE(files[nr], call);
	} else {
		WRITE_ONCE(files[nr], NULL);
		if (!--*refcount)
			return tracepoint_probe_unregister(tp, probe, NULL);
	}
	return 0;
}

static int syscall_enter_register(struct trace_event_call *call, bool on)
{
	return syscall_register(call, on, enter_syscall_files, &sys_refcount_enter,
				&__tracepoint_sys_enter, ftrace_syscall_enter);
}

static int syscall_exit_register(struct trace_event_call *call, bool on)
{
	return syscall_register(call, on, exit_syscall_files, &sys_refcount_exit,
				&__tracepoint_sys_exit, ftrace_syscall_exit);
}

/* --- recording -------------------------------------------------------------------------------- */

static void ftrace_syscall_enter(void *data, struct pt_regs *regs, long id)
{
	struct trace_event_call *call;
	const struct syscall_metadata *meta;
	struct syscall_trace_enter *r;
	/* The x86_64 ABI's argument registers, in order: R10 stands in for RCX. */
	unsigned long args[] = {regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8, regs->r9};

	(void)data;
	if (id < 0 || id >= NR_SYSCALL_NAMES)
		return;
	call = READ_ONCE(enter_syscall_files[id]);
	if (!call)
		return;
	meta = call->data;
	r = trace_event_buffer_reserve(call, call->size);
	if (!r)
		return;
	r->nr = (int)id;
	for (int i = 0; i < meta->nb_args; i++)
		r->args[i] = args[i];
	trace_event_buffer_commit(call, r, call->size);
}

static void ftrace_syscall_exit(void *data, struct pt_regs *regs, long ret)
{
	long id = (long)regs->orig_rax;
	struct trace_event_call *call;
	struct syscall_trace_exit *r;

	(void)data;
	if (id < 0 || id >= NR_SYSCALL_NAMES)
		return;
	call = READ_ONCE(exit_syscall_files[id]);
	if (!call)
		return;
	r = trace_event_buffer_reserve(call, sizeof(*r));
	if (!r)
		return;
	r->nr = (int)id;
	r->ret = ret;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

/* --- the lines: no "name: " before them, as in Linux ------------------------------------------ */

static enum print_line_t print_syscall_enter(struct trace_iterator *iter, unsigned int flags,
					     struct trace_event *event)
{
	struct trace_event_call *call = trace_event_call_of(event);
	const struct syscall_metadata *meta = call->data;
	const struct syscall_trace_enter *r = (const void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (iter->ent_size < call->size) {
		trace_seq_puts(s, "[record too short]\n"); /* cannot happen, unless bugs */
		return trace_handle_return(s);
	}
	trace_seq_printf(s, "%s(", meta->name);
	for (int i = 0; i < meta->nb_args; i++)
		trace_seq_printf(s, "%s: %lx%s", meta->args[i].name, r->args[i],
				 i == meta->nb_args - 1 ? "" : ", ");
	trace_seq_puts(s, ")\n");
	return trace_handle_return(s);
}

static enum print_line_t print_syscall_exit(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event)
{
	struct trace_event_call *call = trace_event_call_of(event);
	const struct syscall_metadata *meta = call->data;
	const struct syscall_trace_exit *r = (const void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (iter->ent_size < call->size) {
		trace_seq_puts(s, "[record too short]\n");
		return trace_handle_return(s);
	}
	trace_seq_printf(s, "%s -> 0x%lx\n", meta->name, r->ret);
	return trace_handle_return(s);
}

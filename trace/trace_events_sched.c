/* The sched:* trace events: switches, wakeups, exits, with Linux's records and lines. */

/*
 * Each event here is Linux's (include/trace/events/sched.h), byte for byte in its record and
 * character for character in its line:
 *
 *   sched_switch: prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/1 ...
 *   sched_wakeup: comm=sh pid=1 prio=120 target_cpu=001
 *   sched_wakeup_new: comm=ls pid=9 prio=120 target_cpu=002
 *   sched_process_exit: comm=ls pid=9 prio=120
 *   sched_process_fork: comm=spawn pid=20 child_comm=spawn child_pid=21
 *   sched_process_exec: filename=/bin/hello pid=21 old_pid=21
 *   sched_process_wait: comm=spawn pid=21 prio=120
 *
 * Each has a record struct (starting with struct trace_entry), the table of its fields for
 * its format file, a probe that fills the record from the tracepoint's arguments
 * (trace/events/sched.h), and an output function. sched_wakeup and sched_wakeup_new share one
 * record and one probe, as Linux's share an event class.
 *
 * prev_state is not the task's state word but Linux's report of it: 0 for running ("R"), one
 * bit per letter otherwise, and TASK_REPORT_MAX for a task that was preempted ("R+": it was
 * still runnable). A Lucid task that exited is dead until kthread_join() reaps it, what Linux
 * calls a zombie: "Z", as a process its parent will wait for shows in Linux.
 *
 * Not traced, as all of trace/: the probes run inside the scheduler.
 */
#include "trace/trace_events.h"
#include "trace/events/sched.h"
#include "kernel/sched/sched.h"
#include "lib/string.h"

/* Linux's prev_state report bits (include/linux/sched.h), with the values its formats show. */
#define TASK_REPORT_RUNNING 0x00000000
#define TASK_REPORT_S 0x00000001 /* TASK_INTERRUPTIBLE */
#define TASK_REPORT_D 0x00000002 /* TASK_UNINTERRUPTIBLE */
#define TASK_REPORT_T 0x00000004 /* stopped */
#define TASK_REPORT_t 0x00000008 /* traced */
#define TASK_REPORT_X 0x00000010 /* EXIT_DEAD */
#define TASK_REPORT_Z 0x00000020 /* EXIT_ZOMBIE */
#define TASK_REPORT_P 0x00000040 /* parked */
#define TASK_REPORT_I 0x00000080 /* idle (a kernel thread's sleep) */
#define TASK_REPORT                                                                            \
	(TASK_REPORT_RUNNING | TASK_REPORT_S | TASK_REPORT_D | TASK_REPORT_T | TASK_REPORT_t | \
	 TASK_REPORT_X | TASK_REPORT_Z | TASK_REPORT_P)
#define TASK_REPORT_IDLE (TASK_REPORT + 1)
#define TASK_REPORT_MAX (TASK_REPORT_IDLE << 1) /* "preempted": the '+' */

/* Copies a comm whole (TASK_COMM_LEN bytes, NUL-padded), as Linux's memcpy of comm does. */
static void copy_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, TASK_COMM_LEN - 1);

	memcpy(dst, src, n);
	memset(dst + n, 0, TASK_COMM_LEN - n);
}

/* --- sched_switch ----------------------------------------------------------------------------- */

struct trace_event_raw_sched_switch {
	struct trace_entry ent;
	char prev_comm[TASK_COMM_LEN];
	pid_t prev_pid;
	int prev_prio;
	long prev_state;
	char next_comm[TASK_COMM_LEN];
	pid_t next_pid;
	int next_prio;
};

#define SS struct trace_event_raw_sched_switch
static const struct trace_event_field sched_switch_fields[] = {
	TRACE_FIELD_ARRAY(SS, char, prev_comm, TASK_COMM_LEN),
	TRACE_FIELD(SS, pid_t, prev_pid),
	TRACE_FIELD(SS, int, prev_prio),
	TRACE_FIELD(SS, long, prev_state),
	TRACE_FIELD_ARRAY(SS, char, next_comm, TASK_COMM_LEN),
	TRACE_FIELD(SS, pid_t, next_pid),
	TRACE_FIELD(SS, int, next_prio),
	TRACE_FIELD_END,
};
#undef SS

/* The letters of a prev_state, in Linux's order (its __print_flags table). */
static const struct {
	long mask;
	const char *name;
} state_letters[] = {
	{TASK_REPORT_S, "S"}, {TASK_REPORT_D, "D"}, {TASK_REPORT_T, "T"}, {TASK_REPORT_t, "t"},
	{TASK_REPORT_X, "X"}, {TASK_REPORT_Z, "Z"}, {TASK_REPORT_P, "P"}, {TASK_REPORT_I, "I"},
};

static long sched_switch_state(bool preempt, struct task *prev)
{
	long state = READ_ONCE(prev->state);

	if (preempt)
		return TASK_REPORT_MAX; /* still runnable, whatever it was about to do */
	if (state & TASK_DEAD)
		return TASK_REPORT_Z; /* dead, and waiting for kthread_join() */
	if (state & TASK_UNINTERRUPTIBLE)
		return TASK_REPORT_D;
	if (state & TASK_INTERRUPTIBLE)
		return TASK_REPORT_S;
	if (state & TASK_STOPPED)
		return TASK_REPORT_T;
	return TASK_REPORT_RUNNING;
}

static void probe_sched_switch(void *data, bool preempt, struct task *prev,
			       struct task *next)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_switch *r =
		trace_event_buffer_reserve_pid(call, sizeof(*r), next->pid);

	if (!r)
		return;
	copy_comm(r->prev_comm, prev->comm);
	r->prev_pid = prev->pid;
	r->prev_prio = prev->prio;
	r->prev_state = sched_switch_state(preempt, prev);
	copy_comm(r->next_comm, next->comm);
	r->next_pid = next->pid;
	r->next_prio = next->prio;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

/* "R", "S", "D|Z", ... then "+" if preempted: Linux's __print_flags() with "|". */
static void print_prev_state(struct trace_seq *s, long state)
{
	long rest = state & (TASK_REPORT_MAX - 1);
	bool first = true;

	if (!rest)
		trace_seq_putc(s, 'R');
	for (size_t i = 0; i < ARRAY_SIZE(state_letters) && rest; i++) {
		if ((rest & state_letters[i].mask) != state_letters[i].mask)
			continue;
		if (!first)
			trace_seq_putc(s, '|');
		trace_seq_puts(s, state_letters[i].name);
		rest &= ~state_letters[i].mask;
		first = false;
	}
	if (rest)
		trace_seq_printf(s, "%s0x%lx", first ? "" : "|", rest); /* bits with no letter */
	if (state & TASK_REPORT_MAX)
		trace_seq_putc(s, '+');
}

static enum print_line_t sched_switch_output(struct trace_iterator *iter,
					     unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_sched_switch *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r) {
		trace_seq_printf(s, "prev_comm=%.*s prev_pid=%d prev_prio=%d prev_state=",
				 TASK_COMM_LEN, r->prev_comm, r->prev_pid, r->prev_prio);
		print_prev_state(s, r->prev_state);
		trace_seq_printf(s, " ==> next_comm=%.*s next_pid=%d next_prio=%d\n", TASK_COMM_LEN,
				 r->next_comm, r->next_pid, r->next_prio);
	}
	return trace_handle_return(s);
}

struct trace_event_call event_sched_switch = {
	.system = "sched",
	.name = "sched_switch",
	.fields = sched_switch_fields,
	.size = sizeof(struct trace_event_raw_sched_switch),
	/* The spacing below is the text of the print fmt: keep clang-format out. */
	/* clang-format off */
	.print_fmt = TRACE_PRINT_FMT(
		"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d",
		REC->prev_comm, REC->prev_pid, REC->prev_prio,
		(REC->prev_state & (TASK_REPORT_MAX - 1)) ?
		__print_flags(REC->prev_state & (TASK_REPORT_MAX - 1), "|",
			      { TASK_REPORT_S, "S" }, { TASK_REPORT_D, "D" },
			      { TASK_REPORT_T, "T" }, { TASK_REPORT_t, "t" },
			      { TASK_REPORT_X, "X" }, { TASK_REPORT_Z, "Z" },
			      { TASK_REPORT_P, "P" }, { TASK_REPORT_I, "I" }) : "R",
		REC->prev_state & TASK_REPORT_MAX ? "+" : "",
		REC->next_comm, REC->next_pid, REC->next_prio),
	/* clang-format on */
	.event = {.trace = sched_switch_output},
	.tp = &__tracepoint_sched_switch,
	.probe = TRACEPOINT_PROBE(sched_switch, probe_sched_switch),
};
REGISTER_TRACE_EVENT(event_sched_switch);

/* --- sched_wakeup, sched_wakeup_new ----------------------------------------------------------- */

struct trace_event_raw_sched_wakeup_template {
	struct trace_entry ent;
	char comm[TASK_COMM_LEN];
	pid_t pid;
	int prio;
	int target_cpu;
};

#define SW struct trace_event_raw_sched_wakeup_template
static const struct trace_event_field sched_wakeup_fields[] = {
	TRACE_FIELD_ARRAY(SW, char, comm, TASK_COMM_LEN),
	TRACE_FIELD(SW, pid_t, pid),
	TRACE_FIELD(SW, int, prio),
	TRACE_FIELD(SW, int, target_cpu),
	TRACE_FIELD_END,
};
#undef SW

/* p's CPU is where it was queued (the tracepoint is hit with that queue locked). */
static void probe_sched_wakeup_template(void *data, struct task *p)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_wakeup_template *r =
		trace_event_buffer_reserve_pid(call, sizeof(*r), p->pid);

	if (!r)
		return;
	copy_comm(r->comm, p->comm);
	r->pid = p->pid;
	r->prio = p->prio;
	r->target_cpu = p->cpu;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t sched_wakeup_output(struct trace_iterator *iter,
					     unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_sched_wakeup_template *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "comm=%.*s pid=%d prio=%d target_cpu=%03d\n", TASK_COMM_LEN,
				 r->comm, r->pid, r->prio, r->target_cpu);
	return trace_handle_return(s);
}

#define SCHED_WAKEUP_PRINT_FMT                                                                    \
	TRACE_PRINT_FMT("comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, \
			REC->target_cpu)

struct trace_event_call event_sched_wakeup = {
	.system = "sched",
	.name = "sched_wakeup",
	.fields = sched_wakeup_fields,
	.size = sizeof(struct trace_event_raw_sched_wakeup_template),
	.print_fmt = SCHED_WAKEUP_PRINT_FMT,
	.event = {.trace = sched_wakeup_output},
	.tp = &__tracepoint_sched_wakeup,
	.probe = TRACEPOINT_PROBE(sched_wakeup, probe_sched_wakeup_template),
};
REGISTER_TRACE_EVENT(event_sched_wakeup);

struct trace_event_call event_sched_wakeup_new = {
	.system = "sched",
	.name = "sched_wakeup_new",
	.fields = sched_wakeup_fields,
	.size = sizeof(struct trace_event_raw_sched_wakeup_template),
	.print_fmt = SCHED_WAKEUP_PRINT_FMT,
	.event = {.trace = sched_wakeup_output},
	.tp = &__tracepoint_sched_wakeup_new,
	.probe = TRACEPOINT_PROBE(sched_wakeup_new, probe_sched_wakeup_template),
};
REGISTER_TRACE_EVENT(event_sched_wakeup_new);

/* --- sched_process_exit ----------------------------------------------------------------------- */

struct trace_event_raw_sched_process_template {
	struct trace_entry ent;
	char comm[TASK_COMM_LEN];
	pid_t pid;
	int prio;
};

#define SP struct trace_event_raw_sched_process_template
static const struct trace_event_field sched_process_fields[] = {
	TRACE_FIELD_ARRAY(SP, char, comm, TASK_COMM_LEN),
	TRACE_FIELD(SP, pid_t, pid),
	TRACE_FIELD(SP, int, prio),
	TRACE_FIELD_END,
};
#undef SP

static void probe_sched_process_exit(void *data, struct task *p)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_process_template *r =
		trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	copy_comm(r->comm, p->comm);
	r->pid = p->pid;
	r->prio = p->prio;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t sched_process_output(struct trace_iterator *iter,
					      unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_sched_process_template *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "comm=%.*s pid=%d prio=%d\n", TASK_COMM_LEN, r->comm, r->pid,
				 r->prio);
	return trace_handle_return(s);
}

struct trace_event_call event_sched_process_exit = {
	.system = "sched",
	.name = "sched_process_exit",
	.fields = sched_process_fields,
	.size = sizeof(struct trace_event_raw_sched_process_template),
	.print_fmt = TRACE_PRINT_FMT("comm=%s pid=%d prio=%d", REC->comm, REC->pid, REC->prio),
	.event = {.trace = sched_process_output},
	.tp = &__tracepoint_sched_process_exit,
	.probe = TRACEPOINT_PROBE(sched_process_exit, probe_sched_process_exit),
};
REGISTER_TRACE_EVENT(event_sched_process_exit);

/* --- sched_process_wait: the same record as sched_process_exit, of the waiter ----------------- */

static void probe_sched_process_wait(void *data, struct task *p, int pid)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_process_template *r =
		trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	copy_comm(r->comm, p->comm);
	r->pid = pid; /* the one waited for, not the waiter: as Linux records it */
	r->prio = p->prio;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

struct trace_event_call event_sched_process_wait = {
	.system = "sched",
	.name = "sched_process_wait",
	.fields = sched_process_fields,
	.size = sizeof(struct trace_event_raw_sched_process_template),
	.print_fmt = TRACE_PRINT_FMT("comm=%s pid=%d prio=%d", REC->comm, REC->pid, REC->prio),
	.event = {.trace = sched_process_output},
	.tp = &__tracepoint_sched_process_wait,
	.probe = TRACEPOINT_PROBE(sched_process_wait, probe_sched_process_wait),
};
REGISTER_TRACE_EVENT(event_sched_process_wait);

/* --- sched_process_fork ----------------------------------------------------------------------- */

struct trace_event_raw_sched_process_fork {
	struct trace_entry ent;
	char parent_comm[TASK_COMM_LEN];
	pid_t parent_pid;
	char child_comm[TASK_COMM_LEN];
	pid_t child_pid;
};

#define SF struct trace_event_raw_sched_process_fork
static const struct trace_event_field sched_process_fork_fields[] = {
	TRACE_FIELD_ARRAY(SF, char, parent_comm, TASK_COMM_LEN),
	TRACE_FIELD(SF, pid_t, parent_pid),
	TRACE_FIELD_ARRAY(SF, char, child_comm, TASK_COMM_LEN),
	TRACE_FIELD(SF, pid_t, child_pid),
	TRACE_FIELD_END,
};
#undef SF

static void probe_sched_process_fork(void *data, struct task *parent, struct task *child)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_process_fork *r = trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	copy_comm(r->parent_comm, parent->comm);
	r->parent_pid = parent->pid;
	copy_comm(r->child_comm, child->comm);
	r->child_pid = child->pid;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t sched_process_fork_output(struct trace_iterator *iter,
						   unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_sched_process_fork *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "comm=%.*s pid=%d child_comm=%.*s child_pid=%d\n",
				 TASK_COMM_LEN, r->parent_comm, r->parent_pid, TASK_COMM_LEN,
				 r->child_comm, r->child_pid);
	return trace_handle_return(s);
}

struct trace_event_call event_sched_process_fork = {
	.system = "sched",
	.name = "sched_process_fork",
	.fields = sched_process_fork_fields,
	.size = sizeof(struct trace_event_raw_sched_process_fork),
	.print_fmt = TRACE_PRINT_FMT("comm=%s pid=%d child_comm=%s child_pid=%d", REC->parent_comm,
				     REC->parent_pid, REC->child_comm, REC->child_pid),
	.event = {.trace = sched_process_fork_output},
	.tp = &__tracepoint_sched_process_fork,
	.probe = TRACEPOINT_PROBE(sched_process_fork, probe_sched_process_fork),
};
REGISTER_TRACE_EVENT(event_sched_process_fork);

/* --- sched_process_exec: the file's name as exec was given it, a string of any length --------- */

#define EXEC_FILENAME_MAX 256 /* longer paths are cut: a record must fit a buffer page */

struct trace_event_raw_sched_process_exec {
	struct trace_entry ent;
	uint32_t __data_loc_filename;
	pid_t pid;
	pid_t old_pid;
	char __data[]; /* the file's name */
};

#define SE struct trace_event_raw_sched_process_exec
static const struct trace_event_field sched_process_exec_fields[] = {
	TRACE_FIELD_STRING(SE, filename),
	TRACE_FIELD(SE, pid_t, pid),
	TRACE_FIELD(SE, pid_t, old_pid),
	TRACE_FIELD_END,
};
#undef SE

static void probe_sched_process_exec(void *data, struct task *p, int old_pid,
				     const char *filename)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sched_process_exec *r;
	unsigned int len = (unsigned int)strnlen(filename, EXEC_FILENAME_MAX - 1) + 1;

	r = trace_event_buffer_reserve(call, sizeof(*r) + len);
	if (!r)
		return;
	trace_event_set_str(r, &r->__data_loc_filename, offsetof(typeof(*r), __data), filename,
			    len);
	r->pid = p->pid;
	r->old_pid = old_pid;
	trace_event_buffer_commit(call, r, sizeof(*r) + len);
}

static enum print_line_t sched_process_exec_output(struct trace_iterator *iter,
						   unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_sched_process_exec *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;
	const char *filename;
	int len;

	(void)flags;
	if (r) {
		filename = trace_event_get_str(iter, r->__data_loc_filename, &len);
		trace_seq_printf(s, "filename=%.*s pid=%d old_pid=%d\n", len, filename, r->pid,
				 r->old_pid);
	}
	return trace_handle_return(s);
}

struct trace_event_call event_sched_process_exec = {
	.system = "sched",
	.name = "sched_process_exec",
	.fields = sched_process_exec_fields,
	.size = sizeof(struct trace_event_raw_sched_process_exec),
	.print_fmt = TRACE_PRINT_FMT("filename=%s pid=%d old_pid=%d", __get_str(filename), REC->pid,
				     REC->old_pid),
	.event = {.trace = sched_process_exec_output},
	.tp = &__tracepoint_sched_process_exec,
	.probe = TRACEPOINT_PROBE(sched_process_exec, probe_sched_process_exec),
};
REGISTER_TRACE_EVENT(event_sched_process_exec);

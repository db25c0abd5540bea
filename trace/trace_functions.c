/* The function tracer: one event per call of every traced kernel function. */

/*
 * "echo function > current_tracer" registers global_trace.ops with dynamic ftrace, which turns
 * the NOP at the start of each wanted function (set_ftrace_filter, set_ftrace_notrace) into a
 * call to ftrace_caller; that calls function_trace_call() with the function's address and its
 * caller's. The callback records one TRACE_FN event: "func <-parent".
 *
 * The callback runs inside every traced function, so it must be cheap and must never run
 * itself: the recursion lock (trace/ftrace.h) turns away a second entry in the same context on
 * this CPU (an interrupt may still trace), and everything it calls is untraced. Not traced, for
 * that reason.
 *
 * Options: func_stack_trace adds a stack trace event after each function event (expensive:
 * use it with a filter). set_ftrace_pid restricts recording to some tasks.
 */
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/ftrace_pid.h"
#include "trace/ring_buffer.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "kernel/sched/lockdep.h"

#define TRACE_FUNC_OPT_STACK 0x1

static struct tracer_opt func_opts[] = {
	TRACER_OPT(func_stack_trace, TRACE_FUNC_OPT_STACK),
	{NULL, 0},
};
static struct tracer_flags func_flags = {.val = 0, .opts = func_opts};
static bool func_stack_trace; /* read by the callback on every call */

/*
 * set_ftrace_pid. The callback reads the published list without a lock: a writer fills the
 * list that is not published and then publishes it. A callback still reading the old list
 * while a second write reuses it could misfilter one event; it cannot fault.
 */
struct pid_list {
	int nr;
	int pids[FTRACE_PID_MAX];
};
static struct pid_list pid_lists[2];
struct pid_list *ftrace_pids; /* NULL: every task (trace/trace_ctx.h reads it too) */

bool ftrace_trace_task(void)
{
	struct pid_list *l = __atomic_load_n(&ftrace_pids, __ATOMIC_ACQUIRE);
	struct task *t;
	int pid;

	if (likely(!l))
		return true;
	t = current;
	pid = t ? t->pid : 0;
	for (int i = 0; i < l->nr; i++)
		if (l->pids[i] == pid)
			return true;
	return false;
}

static void pid_list_publish(const int *pids, int nr);

/* Called with trace_types_lock held. nr == 0 clears the list. */
int ftrace_pid_set(const int *pids, int nr)
{
	lockdep_assert_held(&trace_types_lock);

	if (nr < 0 || nr > FTRACE_PID_MAX)
		return -EINVAL;
	if (nr == 0) {
		__atomic_store_n(&ftrace_pids, NULL, __ATOMIC_RELEASE);
		return 0;
	}
	pid_list_publish(pids, nr);
	return 0;
}

/* Publishes pids as the list, even none: then no task is traced (the followed ones all exited). */
static void pid_list_publish(const int *pids, int nr)
{
	struct pid_list *l = ftrace_pids == &pid_lists[0] ? &pid_lists[1] : &pid_lists[0];

	for (int i = 0; i < nr; i++)
		l->pids[i] = pids[i];
	l->nr = nr;
	__atomic_store_n(&ftrace_pids, l, __ATOMIC_RELEASE);
}

/* Is pid in the list l? */
static bool pid_listed(const struct pid_list *l, int pid)
{
	for (int i = 0; l && i < l->nr; i++)
		if (l->pids[i] == pid)
			return true;
	return false;
}

static bool following_forks(void)
{
	return (READ_ONCE(global_trace.trace_flags) & TRACE_ITER_FUNCTION_FORK) &&
	       READ_ONCE(ftrace_pids);
}

/*
 * A child of a traced task is traced too (Linux: ftrace_pid_follow_sched_process_fork). A list
 * that is full stays as it is: the child goes untraced, as a write of one pid too many fails.
 */
void ftrace_pid_follow_fork(int parent_pid, int child_pid)
{
	int pids[FTRACE_PID_MAX], n;

	if (!following_forks())
		return;
	mutex_lock(&trace_types_lock);
	n = ftrace_pid_get(pids, FTRACE_PID_MAX);
	if (following_forks() && pid_listed(ftrace_pids, parent_pid) &&
	    !pid_listed(ftrace_pids, child_pid) && n < FTRACE_PID_MAX) {
		pids[n++] = child_pid;
		pid_list_publish(pids, n);
	}
	mutex_unlock(&trace_types_lock);
}

/*
 * An exiting task leaves the list, so that its pid does not stay there (Linux:
 * ftrace_pid_follow_sched_process_exit). The last one to leave leaves the list empty but in
 * force, as Linux's: no task is traced until set_ftrace_pid is written again.
 */
void ftrace_pid_follow_exit(int pid)
{
	int pids[FTRACE_PID_MAX], n, kept = 0;

	if (!following_forks())
		return;
	mutex_lock(&trace_types_lock);
	n = ftrace_pid_get(pids, FTRACE_PID_MAX);
	for (int i = 0; i < n; i++)
		if (pids[i] != pid)
			pids[kept++] = pids[i];
	if (following_forks() && kept != n)
		pid_list_publish(pids, kept);
	mutex_unlock(&trace_types_lock);
}

int ftrace_pid_get(int *pids, int max)
{
	struct pid_list *l = ftrace_pids;
	int n = 0;

	for (; l && n < l->nr && n < max; n++)
		pids[n] = l->pids[n];
	return n;
}

/*
 * One TRACE_FN event: "func <-parent". Here rather than in trace.c as in Linux, and inline: it
 * runs on every traced call, and a call would cost the registers it saves.
 */
static __always_inline void trace_function(struct trace_array *tr, unsigned long ip,
					   unsigned long parent_ip, unsigned int trace_ctx)
{
	struct ring_buffer_event *event;
	struct ftrace_entry *entry;

	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry));
	if (!event)
		return; /* tracing is off, or the buffer is full in producer/consumer mode */
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_FN, trace_ctx);
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	ring_buffer_unlock_commit(tr->buffer);
}

static void function_trace_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	unsigned int trace_ctx;
	int bit;

	(void)fregs;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (ftrace_trace_task_inline()) {
		trace_ctx = tracing_gen_ctx_dec_inline();
		trace_function(tr, ip, parent_ip, trace_ctx);
		/* The stack from the traced function on: ftrace_caller's frame returns there. */
		if (unlikely(READ_ONCE(func_stack_trace)))
			__trace_stack(tr, trace_ctx, ip + MCOUNT_INSN_SIZE);
	}
	ftrace_test_recursion_unlock(bit);
}

static int function_trace_init(struct trace_array *tr)
{
	tr->ops.func = function_trace_call;
	tr->ops.private = tr;
	return register_ftrace_function(&tr->ops);
}

static void function_trace_reset(struct trace_array *tr)
{
	unregister_ftrace_function(&tr->ops);
}

/*
 * tracing_on 0 -> 1 starts a fresh trace, as Linux's function tracer does: "echo 1 >
 * tracing_on; run_test; echo 0 > tracing_on" then shows just run_test.
 */
static void function_trace_start(struct trace_array *tr)
{
	tracing_reset_online_cpus(tr);
}

static int func_set_flag(struct trace_array *tr, uint32_t old_flags, uint32_t bit,
			 int set)
{
	(void)tr;
	(void)old_flags;
	if (bit != TRACE_FUNC_OPT_STACK)
		return -EINVAL;
	WRITE_ONCE(func_stack_trace, !!set);
	return 0;
}

static struct tracer function_trace = {
	.name = "function",
	.init = function_trace_init,
	.reset = function_trace_reset,
	.start = function_trace_start,
	.flags = &func_flags,
	.set_flag = func_set_flag,
};
REGISTER_TRACER(function_trace);

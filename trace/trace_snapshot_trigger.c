/* "func:snapshot[:N]" in set_ftrace_filter: take a snapshot when func is called. */

/*
 * The trigger fires in the traced function's context: an interrupt, the scheduler, anywhere.
 * Swapping the buffers (tracing_snapshot_swap) is task-context work: it takes the tracer's
 * mutex and waits for every CPU's writers. So the trigger does at once only what keeps the
 * moment: it stops recording, so nothing after func's call enters the buffer, and asks for the
 * swap. The next timer tick on any CPU sees the request and wakes a kernel thread, which swaps
 * (the snapshot file then shows the trace up to func) and turns recording back on in the fresh
 * buffer. Linux swaps at once; here the events of the few milliseconds in between are not
 * recorded at all. With a count, each function takes at most N snapshots. The spare buffer
 * is made when the first such probe is set (trace_snapshot_trigger_setup).
 *
 * Not traced, as all of trace/.
 */
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "kernel/locking/lockdep.h"

static int snapshot_pending; /* a trigger fired: swap, then record again */
static DECLARE_WAIT_QUEUE_HEAD(snapshot_wait);
static struct trace_array *snapshot_tr;

/*
 * Stops recording and asks for the swap; false if a snapshot is already on its way. Also the
 * event trigger's (trace/trace_events_trigger.c).
 */
bool trace_snapshot_request(struct trace_array *tr)
{
	if (!tracer_tracing_is_on(tr) ||
	    __atomic_exchange_n(&snapshot_pending, 1, __ATOMIC_ACQ_REL))
		return false;
	snapshot_tr = tr;
	tracer_tracing_off(tr);
	return true;
}

static void ftrace_snapshot(unsigned long ip, unsigned long parent_ip,
			    struct trace_array *tr, long *count, void *data)
{
	(void)ip;
	(void)parent_ip;
	(void)data;
	(void)count;
	trace_snapshot_request(tr);
}

static void ftrace_snapshot_count(unsigned long ip, unsigned long parent_ip,
				  struct trace_array *tr, long *count, void *data)
{
	long old = __atomic_load_n(count, __ATOMIC_ACQUIRE);

	(void)ip;
	(void)parent_ip;
	(void)data;
	if (old > 0 && trace_snapshot_request(tr))
		__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
}

const struct ftrace_probe_ops snapshot_probe_ops = {"snapshot", false, ftrace_snapshot, NULL};
const struct ftrace_probe_ops snapshot_count_probe_ops = {"snapshot", true, ftrace_snapshot_count,
							  NULL};

/* From the timer tick: waking a task is allowed there, unlike in the trigger. */
void trace_snapshot_tick(void)
{
	if (unlikely(__atomic_load_n(&snapshot_pending, __ATOMIC_ACQUIRE)))
		wake_up(&snapshot_wait);
}

static int snapshot_thread(void *arg)
{
	(void)arg;
	for (;;) {
		wait_event(&snapshot_wait, __atomic_load_n(&snapshot_pending, __ATOMIC_ACQUIRE));
		mutex_lock(&trace_types_lock);
		if (snapshot_tr) { /* (NULL: its instance was removed meanwhile) */
			if (tracing_snapshot_swap(snapshot_tr))
				printk(KERN_WARNING
				       "tracing: snapshot trigger: no memory for the snapshot\n");
			tracer_tracing_on(snapshot_tr);
		}
		mutex_unlock(&trace_types_lock);
		__atomic_store_n(&snapshot_pending, 0, __ATOMIC_RELEASE);
	}
	return 0;
}

static struct task *snapshot_task;

/* Boot: the thread, asleep until a trigger fires (made before the shell, with no files). */
void trace_snapshot_trigger_init(void)
{
	snapshot_task = kthread_run(snapshot_thread, NULL, "snapshotd");
	if (!snapshot_task)
		printk(KERN_ERR "tracing: cannot start the snapshot trigger's thread\n");
}

/*
 * Before the first "func:snapshot" probe (trace_types_lock held): the spare buffer is
 * allocated now, as Linux does, so that the swap never lacks memory.
 */
int trace_snapshot_trigger_setup(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	return snapshot_task ? tracing_alloc_snapshot(tr) : -ENOMEM;
}

/*
 * rmdir of tr's instance, once no trigger can fire for it any more: a snapshot it asked for
 * and the thread has not taken yet is forgotten. trace_types_lock held, as the thread holds it.
 */
void trace_snapshot_trigger_forget(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	if (snapshot_tr == tr)
		snapshot_tr = NULL;
}

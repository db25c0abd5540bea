/*
 * The scheduler: which task runs on each CPU, and when that changes.
 *
 * Every CPU has its own run queue, a FIFO list of tasks ready to run, and runs them round robin:
 * the timer tick takes one tick off the running task's time slice and, when it is used up and
 * someone else is waiting, asks for a reschedule. A CPU whose queue is empty runs its idle task
 * (swapper/N, pid 0), which halts until an interrupt.
 *
 * Why per-CPU queues and not one global queue: tasks stay where their data is warm, two CPUs
 * never fight over one lock on every switch, and the trace shows what Linux's shows (a task keeps
 * its CPU; a wakeup names a target CPU). The price is balancing, done simply: a woken or new task
 * goes to an idle allowed CPU if there is one (its previous CPU first), else the least loaded; and
 * a CPU about to go idle steals a task that would otherwise wait from the busiest queue (never
 * an idle CPU's one woken task, which that CPU is about to run).
 *
 * Real-time tasks (SCHED_FIFO, SCHED_RR: sched_setscheduler, chrt) come first: the queue is
 * kept in prio order, real-time tasks by their prio ahead of the normal ones (all at prio
 * 120, among themselves round robin as above). A real-time task runs until it blocks or a more
 * urgent one wakes (FIFO), or also takes turns with its equals each time slice (RR); a wakeup
 * of a task more urgent than the one running on its CPU preempts that one at once. Linux keeps
 * one queue a priority and a bitmap; one sorted list is the same order for Lucid's few tasks.
 *
 * Locking: each run queue has a spin lock, taken with interrupts off. A task's pi_lock
 * serializes wakeups of that task. Switching: schedule() holds this CPU's queue lock across the
 * switch; the task switched to releases it (finish_task_switch). prev->on_cpu stays set until
 * then, so a wakeup on another CPU never runs a task whose stack is still in use here.
 */
#include "kernel/sched/sched.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "kernel/sched/sched_policy.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/traps.h" /* dump_stack */
#include "lib/string.h"
#include "lib/printf.h"
#include "trace/events/sched.h"
#include "kernel/locking/lockdep.h"

#define TIME_SLICE_TICKS 2 /* 20 ms at HZ=100 */

struct rq {
	spinlock_t lock;
	struct list_head queue; /* ready tasks, not counting the one running */
	int nr_queued;
	struct task *idle;
	uint64_t nr_switches; /* switches on this CPU since boot: /proc/stat's ctxt */
};

static struct rq runqueues[NR_CPUS];
LIST_HEAD(task_list);
DEFINE_SPINLOCK(task_list_lock);
/* The scheduler's tracepoints (trace/events/sched.h); trace events and tracers attach to them. */
DEFINE_TRACE(sched_switch);
DEFINE_TRACE(sched_wakeup);
DEFINE_TRACE(sched_wakeup_new);
DEFINE_TRACE(sched_waking);
DEFINE_TRACE(sched_migrate_task);
static int next_pid = INIT_PID + 1; /* pid 1 waits for the init task (kthread_run_init) */
static struct task idle_tasks[NR_CPUS];

void __switch_to(struct task *prev, struct task *next);

static struct rq *cpu_rq(int cpu)
{
	return &runqueues[cpu];
}

int nr_running(int cpu)
{
	return cpu_rq(cpu)->nr_queued + (cpus[cpu].curr != cpus[cpu].idle);
}

/* notrace: the wakeup tracers' callbacks print a switch's states with it. */
notrace char task_state_char(long state)
{
	if (state & TASK_DEAD)
		return 'X';
	if (state & TASK_UNINTERRUPTIBLE)
		return 'D';
	if (state & TASK_INTERRUPTIBLE)
		return 'S';
	if (state & TASK_STOPPED)
		return 'T';
	return 'R';
}

void set_current_state(long state)
{
	__atomic_store_n(&current->state, state, __ATOMIC_SEQ_CST);
}

/*
 * A state no wakeup may undo (TASK_DEAD, TASK_STOPPED), set under the task's pi_lock, as
 * Linux's set_special_state. wake_up_process() reads the state and, if the task is still on
 * its queue, writes TASK_RUNNING, both under pi_lock: a plain store of TASK_DEAD between the
 * two would be overwritten, and the dead task would run again (make stress saw it: hwlatd,
 * woken by its stop as it set itself going to sleep once more, then exiting).
 */
void set_special_state(long state)
{
	struct task *t = current;
	unsigned long flags = local_irq_save();

	arch_spin_lock(&t->pi_lock);
	__atomic_store_n(&t->state, state, __ATOMIC_SEQ_CST);
	arch_spin_unlock(&t->pi_lock);
	local_irq_restore(flags);
}

/*
 * A real-time task goes in prio order: after every task as urgent as it (FIFO among equals), or,
 * a FIFO task that was preempted, before them, as Linux's, so that it resumes before its
 * equals. Out of line: the common case, a normal task, goes at the end (__enqueue).
 */
static noinline void enqueue_rt(struct rq *rq, struct task *t, bool preempted)
{
	bool head = preempted && t->policy == SCHED_FIFO;
	struct list_head *pos = &rq->queue;
	struct task *q;

	list_for_each_entry(q, &rq->queue, run_list) {
		if (q->prio > t->prio || (head && q->prio == t->prio)) {
			pos = &q->run_list;
			break;
		}
	}
	list_add_tail(&t->run_list, pos); /* before pos: at the end when pos is the queue */
	rq->nr_queued++;
	t->on_rq = true;
}

static __always_inline void __enqueue(struct rq *rq, struct task *t, bool preempted)
{
	if (unlikely(rt_task(t))) {
		enqueue_rt(rq, t, preempted);
		return;
	}
	list_add_tail(&t->run_list, &rq->queue);
	rq->nr_queued++;
	t->on_rq = true;
}

static void enqueue(struct rq *rq, struct task *t)
{
	__enqueue(rq, t, false);
}

static void dequeue(struct rq *rq, struct task *t)
{
	list_del_init(&t->run_list);
	rq->nr_queued--;
}

/* Lock two run queues in a fixed order (by address), so two CPUs doing this never deadlock. */
static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		arch_spin_lock(&a->lock);
	} else if (a < b) {
		arch_spin_lock(&a->lock);
		arch_spin_lock(&b->lock);
	} else {
		arch_spin_lock(&b->lock);
		arch_spin_lock(&a->lock);
	}
}

/* A snapshot of every CPU's load, for the decisions in kernel/sched/sched_policy.c. Racy by design:
 * a decision on slightly stale numbers is still a fine decision. */
static void snapshot_load(struct cpu_load *load)
{
	for (int c = 0; c < num_online_cpus(); c++) {
		load[c].online = cpus[c].online;
		load[c].nr_queued = READ_ONCE(cpu_rq(c)->nr_queued);
		load[c].nr_running = nr_running(c);
	}
}

/*
 * Idle balancing: this CPU has nothing to run, so take the oldest waiting task from the busiest
 * other queue, if it is allowed here. Called with this CPU's queue locked; may drop it.
 */
static void steal_task(struct rq *this, int this_cpu_id)
{
	lockdep_assert_held(&this->lock);
	struct cpu_load load[NR_CPUS];
	snapshot_load(load);
	int busiest = sched_find_busiest(load, num_online_cpus(), this_cpu_id);
	if (busiest < 0)
		return;
	struct rq *src = cpu_rq(busiest);
	arch_spin_unlock(&this->lock);
	double_rq_lock(this, src);
	struct task *t;
	list_for_each_entry(t, &src->queue, run_list) {
		if (t->cpus_allowed & (1UL << this_cpu_id)) {
			dequeue(src, t);
			trace_sched_migrate_task(t, this_cpu_id);
			t->cpu = this_cpu_id;
			enqueue(this, t);
			break;
		}
	}
	if (src != this)
		arch_spin_unlock(&src->lock);
}

static struct task *pick_next_task(struct rq *rq, int cpu)
{
	if (list_empty(&rq->queue) && num_online_cpus() > 1)
		steal_task(rq, cpu);
	if (list_empty(&rq->queue))
		return rq->idle;
	struct task *t = list_first_entry(&rq->queue, struct task, run_list);
	dequeue(rq, t);
	return t;
}

/*
 * Affinity (taskset, sched_setaffinity): a task runs only on the CPUs of its cpus_allowed. A
 * wakeup picks one of them (select_task_rq), a steal takes only a task allowed there. When the
 * mask changes under a task that runs on a CPU it may no longer use, that CPU reschedules, and
 * __schedule does not put the task back on its own queue: it parks it in push_task[cpu], and
 * the task switched to, once the old stack is free (finish_task_switch), queues it on an
 * allowed CPU (Linux does this with its migration thread). push_task is written and read under
 * that CPU's queue lock.
 */
static struct task *push_task[NR_CPUS];
static void migrate_task(struct task *t);

static bool allowed_on_cpu(const struct task *t, int cpu)
{
	return READ_ONCE(t->cpus_allowed) & (1UL << cpu);
}

/* The second half of a switch, run by the task switched to: let prev go, unlock the queue. */
void finish_task_switch(struct task *prev)
{
	int cpu = smp_processor_id();
	struct rq *rq = cpu_rq(cpu);
	struct task *push = push_task[cpu];

	push_task[cpu] = NULL;
	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	arch_spin_unlock(&rq->lock);
	/* its stack is free now (push is prev): another CPU may run it */
	if (push)
		migrate_task(push);
	local_irq_enable();
}

static void __schedule(bool preempt)
{
	struct cpu *cpu = this_cpu();
	struct rq *rq = cpu_rq(cpu->id);
	struct task *prev = cpu->curr;

	local_irq_disable();
	arch_spin_lock(&rq->lock);
	cpu->need_resched = false;

	/*
	 * A task that set itself asleep leaves the queue, unless a wakeup already came. A dead task
	 * leaves it even when preempted on its way out: nothing must ever run it again.
	 */
	if ((prev->state & TASK_DEAD) || (!preempt && prev->state != TASK_RUNNING)) {
		prev->on_rq = false;
	} else if (prev != rq->idle && !allowed_on_cpu(prev, cpu->id)) {
		/* runnable, but not here any more: finish_task_switch moves it */
		prev->on_rq = false;
		push_task[cpu->id] = prev;
	} else if (prev != rq->idle) {
		/* A FIFO task preempted keeps its place (enqueue_rt). */
		__enqueue(rq, prev, preempt);
	}

	struct task *next = pick_next_task(rq, cpu->id);
	if (next == prev) {
		arch_spin_unlock(&rq->lock);
		local_irq_enable();
		return;
	}
	next->time_slice = TIME_SLICE_TICKS;
	next->on_cpu = 1;
	next->cpu = cpu->id;
	next->nr_switches++;
	rq->nr_switches++;
	/*
	 * Linux's switch_count: voluntary only when prev leaves to wait (not preempted, and no
	 * longer TASK_RUNNING); a preemption or a sched_yield that stays runnable is involuntary.
	 */
	if (!preempt && READ_ONCE(prev->state) != TASK_RUNNING)
		prev->nvcsw++;
	else
		prev->nivcsw++;
	trace_sched_switch(preempt, prev, next);
	/* Time off the CPU, for the function graph tracer's sleep-time option (trace/fgraph.c). */
	if (prev->ret_stack || next->ret_stack) {
		uint64_t now = ktime_get_ns();
		prev->switched_out_at = now;
		if (next->switched_out_at)
			next->sleep_time += now - next->switched_out_at;
	}
	cpu->curr = next;
	cpu->last_prev = prev;
	arch_switch_to(prev, next); /* kernel stack for ring 3, page tables, FPU (process_64.c) */
	__switch_to(prev, next);
	/* Back in prev, on whichever CPU now runs it; the task we came from finishes here. */
	finish_task_switch(this_cpu()->last_prev);
}

/*
 * The report of might_sleep() (kernel/sched/wait.h) called where sleeping is not allowed, in
 * Linux's words (__might_resched), at most once a second as Linux's, and the caller goes on:
 * it did not sleep this time. The idle task is left out: kmain runs as swapper with interrupts
 * off until it idles, and takes its mutexes before any other task exists to hold them. notrace:
 * a check, not the kernel's work, kept out of function traces.
 */
notrace void __might_sleep(const char *file, int line)
{
	static uint64_t last_report_ns;
	int count = preempt_count();
	bool irqs_off = irqs_disabled();

	if (likely(!count && !irqs_off) || current == this_cpu()->idle || oops_in_progress)
		return;
	uint64_t now = ktime_get_ns(), last = READ_ONCE(last_report_ns);
	if (last && now - last < NSEC_PER_SEC)
		return;
	WRITE_ONCE(last_report_ns, now);
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file,
	       line);
	printk(KERN_ERR "in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s\n",
	       count != 0, irqs_off, current->pid, current->comm);
	printk(KERN_ERR "preempt_count: %x, expected: 0\n", count);
	dump_stack();
}

void schedule(void)
{
	/* Sleeping with preemption disabled would hang this CPU's other work: refuse loudly. */
	if (unlikely(preempt_count() != 0 && !oops_in_progress))
		panic("scheduling while atomic: %s/%d/0x%08x", current->comm, current->pid,
		      preempt_count());
	/* The idle task is what runs when nothing else can: it must never block. */
	BUG_ON(current == this_cpu()->idle && current->state != TASK_RUNNING);
	preempt_count_add(1);
	__schedule(false);
	preempt_count_sub(1);
}

/*
 * The count is per CPU, so a section that leaks one (a lock not unlocked on some return path)
 * is only noticed by whichever task calls schedule() next on that CPU: "scheduling while
 * atomic" names an innocent task. The way back to user mode and out of an exception or an
 * interrupt check instead that the count is what it was when they came in (one compare), and
 * this names the system call or vector that left it changed, where the leak is.
 */
void __attribute__((cold)) preempt_count_leaked(const char *where, int was)
{
	panic("preempt_count leaked by %s: 0x%08x, was 0x%08x", where, preempt_count(), was);
}

/* Preemption: the running task is still runnable, it just has to let another one in. */
void preempt_schedule(void)
{
	if (preempt_count() || irqs_disabled())
		return;
	preempt_count_add(1);
	__schedule(true);
	preempt_count_sub(1);
}

/* From the end of an interrupt (arch/x86_64/idt.c), with interrupts off. */
void preempt_schedule_irq(void)
{
	lockdep_assert_irqs_disabled();
	preempt_count_add(1);
	__schedule(true);
	local_irq_disable(); /* the interrupt return path expects them off */
	preempt_count_sub(1);
}

void yield(void)
{
	this_cpu()->need_resched = true;
	preempt_schedule();
}

/* The prio of the first task waiting on rq, or MAX_PRIO_NONE if none. Racy, as the tick's look. */
#define MAX_PRIO_NONE 1000
static int queue_head_prio(struct rq *rq)
{
	int prio = MAX_PRIO_NONE;

	arch_spin_lock(&rq->lock);
	if (!list_empty(&rq->queue))
		prio = list_first_entry(&rq->queue, struct task, run_list)->prio;
	arch_spin_unlock(&rq->lock);
	return prio;
}

void scheduler_tick(void)
{
	struct cpu *cpu = this_cpu();
	struct task *t = cpu->curr;
	struct rq *rq = cpu_rq(cpu->id);

	if (t == cpu->idle) {
		if (READ_ONCE(rq->nr_queued))
			cpu->need_resched = true;
		return;
	}
	if (t->policy == SCHED_FIFO)
		return; /* runs until it blocks, or a more urgent task wakes (activate_on) */
	if (--t->time_slice > 0 || !READ_ONCE(rq->nr_queued))
		return;
	/* Its slice is over: the next in line gets the CPU if it is as urgent (RR, normal). */
	if (!rt_task(t) || queue_head_prio(rq) <= t->prio)
		cpu->need_resched = true;
	else
		t->time_slice = TIME_SLICE_TICKS;
}

/* Where should a waking task run? kernel/sched/sched_policy.c decides. */
static int select_task_rq(struct task *t)
{
	struct cpu_load load[NR_CPUS];
	snapshot_load(load);
	int cpu = sched_select_cpu(load, num_online_cpus(), t->cpus_allowed, t->cpu);
	return cpu >= 0 ? cpu : 0;
}

/* Why a task goes onto a queue: what the trace says about it. */
enum activate_reason {
	ACTIVATE_WAKEUP,  /* it was asleep: sched_wakeup */
	ACTIVATE_NEW,     /* fork's child, first time: sched_wakeup_new */
	ACTIVATE_MIGRATE, /* still runnable, moved off a CPU it may no longer use: no wakeup */
};

/* Put t on cpu's queue and poke that CPU if it should switch to it. */
static void activate_on(struct task *t, int cpu, enum activate_reason why)
{
	lockdep_assert_irqs_disabled();
	struct rq *rq = cpu_rq(cpu);
	arch_spin_lock(&rq->lock);
	if (t->cpu != cpu)
		trace_sched_migrate_task(t, cpu); /* Linux's set_task_cpu(), to another CPU */
	t->cpu = cpu;
	/* a migrated task preempted on its way to sleep still goes */
	if (why != ACTIVATE_MIGRATE)
		t->state = TASK_RUNNING;
	enqueue(rq, t);
	/* An idle CPU, or one running a less urgent task (a real-time wakeup), switches now. */
	bool idle = cpus[cpu].curr == rq->idle ||
		    (unlikely(rt_task(t)) && t->prio < READ_ONCE(cpus[cpu].curr)->prio);
	/* Traced with the queue locked, as Linux does: t->cpu cannot change under the probe. */
	if (why == ACTIVATE_NEW)
		trace_sched_wakeup_new(t);
	else if (why == ACTIVATE_WAKEUP)
		trace_sched_wakeup(t);
	arch_spin_unlock(&rq->lock);
	if (idle) {
		WRITE_ONCE(cpus[cpu].need_resched, true);
		if (cpu != smp_processor_id())
			smp_send_reschedule(cpu);
	}
}

/*
 * t is running, perhaps on another CPU, in user mode where it makes no system call: a reschedule
 * IPI sends it through exit_to_user_mode, which finds the signal just queued. Linux's
 * kick_process; without it, a spinning program would notice a signal only at its next tick.
 */
void kick_process(struct task *t)
{
	unsigned long flags = local_irq_save();
	int cpu = READ_ONCE(t->cpu);

	if (cpu != smp_processor_id() && cpus[cpu].curr == t)
		smp_send_reschedule(cpu);
	local_irq_restore(flags);
}

bool wake_up_process(struct task *t)
{
	unsigned long flags = local_irq_save();
	arch_spin_lock(&t->pi_lock);
	if (t->state == TASK_RUNNING || (t->state & (TASK_DEAD | TASK_NEW))) {
		arch_spin_unlock(&t->pi_lock);
		local_irq_restore(flags);
		return false;
	}
	trace_sched_waking(t); /* it will be woken: the waker's side, before anything is done */
	/*
	 * Still on a queue (it has not reached schedule() yet, or is running): just mark it awake.
	 */
	for (;;) {
		struct rq *rq = cpu_rq(t->cpu);
		arch_spin_lock(&rq->lock);
		if (rq != cpu_rq(t->cpu)) { /* moved by a steal meanwhile: try again */
			arch_spin_unlock(&rq->lock);
			continue;
		}
		if (t->on_rq) {
			t->state = TASK_RUNNING;
			/* Woken before it got off its CPU: a wakeup all the same. */
			trace_sched_wakeup(t);
			arch_spin_unlock(&rq->lock);
			arch_spin_unlock(&t->pi_lock);
			local_irq_restore(flags);
			return true;
		}
		arch_spin_unlock(&rq->lock);
		break;
	}
	/* Off every queue: wait until its old CPU has switched away from its stack. */
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
	activate_on(t, select_task_rq(t), ACTIVATE_WAKEUP);
	arch_spin_unlock(&t->pi_lock);
	local_irq_restore(flags);
	return true;
}

/* A runnable task that is on no queue and no CPU goes to an allowed CPU's queue. IRQs off. */
static void migrate_task(struct task *t)
{
	arch_spin_lock(&t->pi_lock);
	/* A wakeup may have queued it meanwhile (it was preempted while going to sleep). */
	if (!t->on_rq)
		activate_on(t, select_task_rq(t), ACTIVATE_MIGRATE);
	arch_spin_unlock(&t->pi_lock);
}

/*
 * Locks the run queue t is on and says which CPU's it is (Linux's __task_rq_lock), with
 * t->pi_lock held and interrupts off. t may move until that lock is held: look again then.
 */
static struct rq *__task_rq_lock(struct task *t, int *cpup)
{
	for (;;) {
		int cpu = READ_ONCE(t->cpu);
		struct rq *rq = cpu_rq(cpu);

		arch_spin_lock(&rq->lock);
		if (cpu == t->cpu) {
			*cpup = cpu;
			return rq;
		}
		arch_spin_unlock(&rq->lock); /* moved meanwhile: try again */
	}
}

/*
 * t may run only on the CPUs in mask from now on (Linux's set_cpus_allowed_ptr). If it is
 * where it may no longer be: waiting in that CPU's queue, it moves now; running there, that CPU
 * is told to reschedule, and __schedule pushes it off. The caller itself moves before this
 * returns, so that a program that pinned itself and then execs runs where it asked to.
 */
void set_cpus_allowed_ptr(struct task *t, uint64_t mask)
{
	unsigned long flags = local_irq_save();
	int kick = -1, cpu;
	struct rq *rq;

	arch_spin_lock(&t->pi_lock);
	WRITE_ONCE(t->cpus_allowed, mask);
	rq = __task_rq_lock(t, &cpu);
	if (allowed_on_cpu(t, cpu) || !t->on_rq) {
		/* Where it may be, or asleep: its next wakeup picks an allowed CPU. */
		arch_spin_unlock(&rq->lock);
	} else if (!list_empty(&t->run_list)) { /* waiting in that queue */
		dequeue(rq, t);
		t->on_rq = false;
		arch_spin_unlock(&rq->lock);
		activate_on(t, select_task_rq(t), ACTIVATE_MIGRATE);
	} else { /* running there */
		WRITE_ONCE(cpus[cpu].need_resched, true);
		kick = cpu;
		arch_spin_unlock(&rq->lock);
	}
	arch_spin_unlock(&t->pi_lock);
	local_irq_restore(flags);
	if (kick == smp_processor_id())
		yield(); /* t is the caller: off this CPU now */
	else if (kick >= 0)
		smp_send_reschedule(kick);
}

/*
 * sched_setscheduler: t takes policy and rt_priority (checked by the caller), and with them its
 * place: requeued in its new order if it waits, rescheduled if it runs and someone waiting is
 * now more urgent, and the CPU told if it waits and is now more urgent than the one running.
 */
void sched_set_policy(struct task *t, int policy, int rt_priority)
{
	unsigned long flags = local_irq_save();
	int kick = -1, cpu;
	struct rq *rq;
	bool queued;

	arch_spin_lock(&t->pi_lock);
	rq = __task_rq_lock(t, &cpu);
	queued = t->on_rq && !list_empty(&t->run_list);
	if (queued)
		dequeue(rq, t);
	t->policy = policy;
	t->rt_priority = rt_policy(policy) ? rt_priority : 0;
	t->prio = rt_policy(policy) ? MAX_RT_PRIO - 1 - rt_priority : DEFAULT_PRIO;
	if (queued) {
		enqueue(rq, t);
		if (t->prio < cpus[cpu].curr->prio)
			kick = cpu;
	} else if (cpus[cpu].curr == t && !list_empty(&rq->queue) &&
		   list_first_entry(&rq->queue, struct task, run_list)->prio < t->prio) {
		kick = cpu;
	}
	if (kick >= 0)
		WRITE_ONCE(cpus[cpu].need_resched, true);
	arch_spin_unlock(&rq->lock);
	arch_spin_unlock(&t->pi_lock);
	local_irq_restore(flags);
	if (kick == smp_processor_id())
		preempt_schedule();
	else if (kick >= 0)
		smp_send_reschedule(kick);
}

void wake_up_new_task(struct task *t)
{
	unsigned long flags = local_irq_save();
	arch_spin_lock(&t->pi_lock);
	activate_on(t, select_task_rq(t), ACTIVATE_NEW);
	arch_spin_unlock(&t->pi_lock);
	local_irq_restore(flags);
	preempt_disable();
	preempt_enable(); /* a reschedule point, if the new task went to this CPU */
}

static void task_init_common(struct task *t, const char *name)
{
	strlcpy(t->comm, name, TASK_COMM_LEN);
	t->prio = DEFAULT_PRIO;
	t->policy = SCHED_NORMAL;
	t->rt_priority = 0;
	t->cpus_allowed = ~0UL;
	t->start_time = ktime_get_ns();
	spin_lock_init(&t->pi_lock);
	INIT_LIST_HEAD(&t->run_list);
	init_waitqueue_head(&t->exit_wait);
	init_waitqueue_head(&t->wait_chldexit);
	t->group_leader = t; /* a process of one thread, or a kernel thread */
	t->nr_threads = 1;
	INIT_LIST_HEAD(&t->thread_head);
	INIT_LIST_HEAD(&t->thread_node);
	INIT_LIST_HEAD(&t->posix_timers);
	rlimits_init(t);
}

/* Each CPU's idle task is the code that brought the CPU up: it becomes swapper/N. */
void sched_init_this_cpu(void *stack)
{
	struct cpu *cpu = this_cpu();
	struct task *idle = &idle_tasks[cpu->id];
	char name[TASK_COMM_LEN];

	snprintf(name, sizeof(name), "swapper/%d", cpu->id);
	task_init_common(idle, name);
	idle->pid = 0;
	idle->cpu = cpu->id;
	idle->on_cpu = 1;
	idle->stack = stack; /* where this CPU has been running since it came up */
	cpu->idle = idle;
	cpu->curr = idle;
	struct rq *rq = cpu_rq(cpu->id);
	spin_lock_init(&rq->lock);
	INIT_LIST_HEAD(&rq->queue);
	rq->idle = idle;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	list_add_tail(&idle->tasks, &task_list);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

void sched_init(void)
{
	sched_init_this_cpu(boot_stack_base());
}

void __noreturn cpu_idle(void)
{
	preempt_count_sub(preempt_count()); /* whatever bring-up left, the idle loop runs at 0 */
	for (;;) {
		local_irq_disable();
		if (this_cpu()->need_resched) {
			local_irq_enable();
			schedule();
		} else {
			/* sti; hlt: an interrupt between the check and the halt still wakes us */
			safe_halt();
		}
	}
}

/* /proc/stat's ctxt: context switches on every CPU since boot (Linux's nr_context_switches). */
uint64_t nr_context_switches(void)
{
	uint64_t n = 0;

	for (int c = 0; c < num_online_cpus(); c++)
		n += READ_ONCE(cpu_rq(c)->nr_switches);
	return n;
}

/* The last pid handed out: /proc/loadavg's last field, and (pids start at 1) tasks made. */
int sched_last_pid(void)
{
	return __atomic_load_n(&next_pid, __ATOMIC_RELAXED) - 1;
}

int sched_alloc_pid(void)
{
	return __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
}

void sched_task_init(struct task *t, const char *name)
{
	task_init_common(t, name);
}

/*
 * run_test: the workload to trace, like the `run_test` of the ftrace article.
 *
 * It starts pairs of kernel threads that, in every round, do some arithmetic through a few
 * layers of functions (so the function graph has depth), bump a counter under a sleeping mutex
 * (so threads block and wake each other), play ping-pong with their partner through completions
 * (a wakeup across CPUs each way), and now and then nap for a millisecond (a timer wakeup). Each
 * round also notes which CPU ran it. At the end it checks the counter and prints one line.
 *
 *   run_test [-t THREADS] [-r ROUNDS]
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/timer.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/signal.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"

#define MAX_THREADS 64
#define NAP_EVERY 8 /* rounds between 1 ms naps */
#define WORK_WORDS 32

struct rt_state {
	struct mutex lock;
	long counter; /* protected by lock */
	long wakeups;
	unsigned long rounds_on_cpu[NR_CPUS];
	spinlock_t stats_lock;
	int rounds;
	bool stop; /* run_test was signalled: the workers give up (they take no signals) */
};

struct rt_worker {
	int id;
	struct rt_state *st;
	struct rt_worker *partner;
	struct completion go; /* the partner says: your turn */
	struct task *task;
	unsigned long checksum;
};

/* Three layers of honest work, kept out of line so each shows up in a trace. */
static noinline unsigned long rt_mix(unsigned long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdUL;
	return x ^ (x >> 29);
}

static noinline unsigned long rt_hash_block(const unsigned long *words, int n)
{
	unsigned long h = 0;
	for (int i = 0; i < n; i++)
		h = rt_mix(h + words[i]);
	return h;
}

static noinline unsigned long rt_compute(int id, int round)
{
	unsigned long words[WORK_WORDS];
	for (int i = 0; i < WORK_WORDS; i++)
		words[i] = (unsigned long)id * 1000003 + round * 31 + i;
	return rt_hash_block(words, WORK_WORDS);
}

static noinline void rt_update_counter(struct rt_state *st)
{
	mutex_lock(&st->lock);
	long v = st->counter;
	yield(); /* invite a race: without the mutex, increments would be lost */
	st->counter = v + 1;
	mutex_unlock(&st->lock);
}

static noinline void rt_account_cpu(struct rt_state *st)
{
	unsigned long flags = spin_lock_irqsave(&st->stats_lock);
	st->rounds_on_cpu[smp_processor_id()]++;
	spin_unlock_irqrestore(&st->stats_lock, flags);
}

/*
 * Even workers serve, odd ones return: each round is two cross-thread wakeups. The waits are
 * interruptible: after a Ctrl-C the partner may already have given up, and would never answer.
 */
static noinline int rt_ping_pong(struct rt_worker *w)
{
	if (w->id % 2 == 0) {
		complete(&w->partner->go);
		if (wait_for_completion_interruptible(&w->go) || READ_ONCE(w->st->stop))
			return -EINTR;
	} else {
		if (wait_for_completion_interruptible(&w->go) || READ_ONCE(w->st->stop))
			return -EINTR;
		complete(&w->partner->go);
	}
	__atomic_add_fetch(&w->st->wakeups, 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Kernel threads take no signals (kernel/sched/signal.c): a Ctrl-C or kill reaches run_test,
 * which sets st->stop and wakes them all (rt_join_workers); each gives up at its next round or
 * wait.
 */
static int rt_worker_main(void *arg)
{
	struct rt_worker *w = arg;
	for (int r = 0; r < w->st->rounds; r++) {
		if (READ_ONCE(w->st->stop))
			return STATUS_SIGINT;
		w->checksum += rt_compute(w->id, r);
		rt_update_counter(w->st);
		if (rt_ping_pong(w))
			return STATUS_SIGINT;
		if (r % NAP_EVERY == NAP_EVERY - 1)
			msleep(1);
		rt_account_cpu(w->st);
	}
	return 0;
}

/*
 * Waits until every worker has ended. If run_test is signalled meanwhile, it tells them to stop
 * and wakes any that waits for its partner (complete_all: no wait blocks again), as a Linux
 * driver stops its kernel threads for the process that started them.
 */
static void rt_join_workers(struct rt_state *st, struct rt_worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		struct task *t = w[i].task;

		if (!READ_ONCE(st->stop) &&
		    wait_event_interruptible(&t->exit_wait, READ_ONCE(t->state) == TASK_DEAD)) {
			WRITE_ONCE(st->stop, true);
			for (int j = 0; j < n; j++)
				complete_all(&w[j].go);
		}
		kthread_join(t);
	}
}

static int rt_noop(void *arg)
{
	(void)arg;
	return 0;
}

static int parse_opt(int argc, char **argv, int *threads, int *rounds)
{
	for (int i = 1; i < argc; i += 2) {
		unsigned int v;
		if (i + 1 >= argc || kstrtouint(argv[i + 1], 10, &v) || v == 0)
			return -1;
		if (!strcmp(argv[i], "-t") && v <= MAX_THREADS)
			*threads = (int)v;
		else if (!strcmp(argv[i], "-r") && v <= 100000)
			*rounds = (int)v;
		else
			return -1;
	}
	return 0;
}

static int cmd_run_test(int argc, char **argv)
{
	int threads = 2 * num_online_cpus(), rounds = 20;
	if (parse_opt(argc, argv, &threads, &rounds)) {
		dprintf(STDERR_FILENO, "usage: run_test [-t THREADS (max %d)] [-r ROUNDS]\n",
			MAX_THREADS);
		return 2;
	}
	threads += threads % 2; /* workers come in pairs */

	struct rt_state *st = kzalloc(sizeof(*st));
	struct rt_worker *w = kzalloc(sizeof(*w) * threads);
	if (!st || !w) {
		kfree(st);
		kfree(w);
		dprintf(STDERR_FILENO, "run_test: Cannot allocate memory\n");
		return 1;
	}
	mutex_init(&st->lock);
	spin_lock_init(&st->stats_lock);
	st->rounds = rounds;
	for (int i = 0; i < threads; i++) {
		w[i] = (struct rt_worker){.id = i, .st = st, .partner = &w[i ^ 1]};
		init_completion(&w[i].go);
	}
	int started = 0;
	for (; started < threads; started++) {
		char name[TASK_COMM_LEN];
		snprintf(name, sizeof(name), "run_test/%d", started);
		w[started].task = kthread_create(rt_worker_main, &w[started], name);
		if (!w[started].task)
			break;
	}
	if (started < threads) { /* all or nothing: a lone partner would wait forever */
		for (int i = 0; i < started; i++)
			w[i].task->fn = rt_noop; /* start them only to let them exit */
	}
	for (int i = 0; i < started; i++)
		wake_up_new_task(w[i].task);
	rt_join_workers(st, w, started);

	int status = 0;
	if (signal_pending_current()) {
		status = STATUS_SIGINT; /* the workers gave up: there is no result to check */
	} else if (started < threads) {
		dprintf(STDERR_FILENO, "run_test: Cannot allocate memory\n");
		status = 1;
	} else {
		int cpus_used = 0;
		printf("run_test: %d threads x %d rounds on %d CPUs: counter %ld/%ld, %ld wakeups, "
		       "rounds per CPU:",
		       threads, rounds, num_online_cpus(), st->counter, (long)threads * rounds,
		       st->wakeups);
		for (int c = 0; c < num_online_cpus(); c++) {
			printf(" %lu", st->rounds_on_cpu[c]);
			cpus_used += st->rounds_on_cpu[c] > 0;
		}
		status = st->counter == (long)threads * rounds ? 0 : 1;
		printf(", %d CPUs used, %s\n", cpus_used, status ? "FAILED" : "ok");
	}
	kfree(w);
	kfree(st);
	return status;
}
SHELL_CMD("run_test", "run_test [-t N] [-r N]: threads that lock, sleep and wake each other",
	  cmd_run_test);

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
 *
 * /bin/run_test writes its arguments to /sys/kernel/debug/run_test (kernel/debug/debugfs_cmd.c):
 * the threads are started and waited for inside its write(2), and the line is read back.
 * The workers are kernel threads, which take no signals: Ctrl-C reaches the program, waiting
 * for them, which tells them to stop (rt_state.stop) and answers -EINTR once they have.
 */
#include "kernel/debug/run_test.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/wait.h"
#include "kernel/time/timer.h"
#include "kernel/mm/kmalloc.h"
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
	bool stop; /* the program was interrupted: each worker gives up */
	int running; /* workers not done yet (atomic) */
	wait_queue_head_t done; /* woken as the last one is */
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
 * Even workers serve, odd ones return: each round is two cross-thread wakeups. After a stop the
 * partner may already have given up and never answer: rt_stop() completes every worker's go
 * for good, so that no wait outlasts it.
 */
static noinline void rt_ping_pong(struct rt_worker *w)
{
	if (w->id % 2 == 0) {
		complete(&w->partner->go);
		wait_for_completion(&w->go);
	} else {
		wait_for_completion(&w->go);
		complete(&w->partner->go);
	}
	__atomic_add_fetch(&w->st->wakeups, 1, __ATOMIC_RELAXED);
}

/* A worker's end, whether it did all its rounds or stopped: the last one wakes the program. */
static void rt_worker_done(struct rt_state *st)
{
	if (__atomic_sub_fetch(&st->running, 1, __ATOMIC_ACQ_REL) == 0)
		wake_up(&st->done);
}

static int rt_worker_main(void *arg)
{
	struct rt_worker *w = arg;
	for (int r = 0; r < w->st->rounds && !READ_ONCE(w->st->stop); r++) {
		w->checksum += rt_compute(w->id, r);
		rt_update_counter(w->st);
		rt_ping_pong(w);
		if (r % NAP_EVERY == NAP_EVERY - 1)
			msleep(1);
		rt_account_cpu(w->st);
	}
	rt_worker_done(w->st);
	return 0;
}

/* Started only to exit: all or nothing, as a lone partner would wait forever. */
static int rt_noop(void *arg)
{
	rt_worker_done(((struct rt_worker *)arg)->st);
	return 0;
}

/* Tells every worker to give up, and wakes those waiting for a partner that has. */
static void rt_stop(struct rt_state *st, struct rt_worker *w, int n)
{
	WRITE_ONCE(st->stop, true);
	for (int i = 0; i < n; i++)
		complete_all(&w[i].go);
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

static int cmd_run_test(int argc, char **argv, struct debugfs_cmd_output *out)
{
	int threads = 2 * num_online_cpus(), rounds = 20;
	if (parse_opt(argc, argv, &threads, &rounds)) {
		cmd_printf(out, "usage: run_test [-t THREADS (max %d)] [-r ROUNDS]\n", MAX_THREADS);
		return -EINVAL;
	}
	threads += threads % 2; /* workers come in pairs */

	struct rt_state *st = kzalloc(sizeof(*st));
	struct rt_worker *w = kzalloc(sizeof(*w) * threads);
	if (!st || !w) {
		kfree(st);
		kfree(w);
		cmd_printf(out, "run_test: Cannot allocate memory\n");
		return -ENOMEM;
	}
	mutex_init(&st->lock);
	spin_lock_init(&st->stats_lock);
	init_waitqueue_head(&st->done);
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
	if (started < threads) {
		for (int i = 0; i < started; i++)
			w[i].task->fn = rt_noop;
	}
	st->running = started;
	for (int i = 0; i < started; i++)
		wake_up_new_task(w[i].task);
	/* Ctrl-C: stop them, then wait for them all the same, as their state is ours. */
	if (wait_event_interruptible(&st->done,
				     __atomic_load_n(&st->running, __ATOMIC_ACQUIRE) == 0))
		rt_stop(st, w, threads);
	for (int i = 0; i < started; i++)
		kthread_join(w[i].task);

	int status = 0;
	if (READ_ONCE(st->stop)) {
		status = -EINTR; /* the workers gave up: there is no result to check */
	} else if (started < threads) {
		cmd_printf(out, "run_test: Cannot allocate memory\n");
		status = -ENOMEM;
	} else {
		int cpus_used = 0;
		cmd_printf(out,
			   "run_test: %d threads x %d rounds on %d CPUs: counter %ld/%ld, "
			   "%ld wakeups, rounds per CPU:",
			   threads, rounds, num_online_cpus(), st->counter, (long)threads * rounds,
			   st->wakeups);
		for (int c = 0; c < num_online_cpus(); c++) {
			cmd_printf(out, " %lu", st->rounds_on_cpu[c]);
			cpus_used += st->rounds_on_cpu[c] > 0;
		}
		/*
		 * A lost increment: the mutex did not exclude. The line says so, and so does EIO.
		 */
		status = st->counter == (long)threads * rounds ? 0 : -EIO;
		cmd_printf(out, ", %d CPUs used, %s\n", cpus_used, status ? "FAILED" : "ok");
	}
	kfree(w);
	kfree(st);
	return status;
}

static const struct debugfs_cmd run_test_debugfs = {"run_test", cmd_run_test};

void run_test_init(void)
{
	debugfs_create_cmd(&run_test_debugfs);
}

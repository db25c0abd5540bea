/*
 * /sys/kernel/debug/bench: built-in micro-benchmarks, one figure a line as "name: value unit",
 * run afresh by each open-and-read (`cat /sys/kernel/debug/bench`: make bench does it).
 *
 * Run under QEMU with -icount shift=0 (tools/bench.py does), where the guest's TSC advances by
 * exactly one tick per executed instruction: a TSC difference is then an instruction count,
 * repeatable from run to run, whatever else the host is doing.
 */
#include "kernel/debug/bench.h"
#include "kernel/fs/debugfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/fs/vfs.h"
#include "kernel/debug/ftest.h"
#include "kernel/debug/test_kprobes.h"
#include "trace/ftrace.h"
#include "trace/trace.h"
#include "trace/trace_printk.h"
#include "trace/trace_events.h"
#include "trace/ring_buffer.h"
#include "kernel/printk.h"
#include "kernel/drivers/console.h"
#include "kernel/time/time.h"
#include "kernel/module/module.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SWITCH_ROUNDS 2000
#define WAKEUP_ROUNDS 500

struct pingpong {
	struct completion go[2];
	int rounds;
};

static int pingpong_thread(void *arg)
{
	struct pingpong *pp = arg;
	for (int i = 0; i < pp->rounds; i++) {
		wait_for_completion(&pp->go[1]);
		complete(&pp->go[0]);
	}
	return 0;
}

/* Instructions per wakeup-and-switch, between this task and a partner on partner_cpu. */
static uint64_t measure_pingpong(int my_cpu, int partner_cpu, int rounds)
{
	struct pingpong pp = {.rounds = rounds};
	init_completion(&pp.go[0]);
	init_completion(&pp.go[1]);
	struct task *t = kthread_create(pingpong_thread, &pp, "bench_pong");
	if (!t)
		return 0;
	kthread_bind_mask(t, 1UL << partner_cpu);
	uint64_t saved = current->cpus_allowed;
	current->cpus_allowed = 1UL << my_cpu;
	yield(); /* settle on my_cpu */
	wake_up_new_task(t);
	uint64_t start = rdtsc();
	for (int i = 0; i < rounds; i++) {
		complete(&pp.go[1]);
		wait_for_completion(&pp.go[0]);
	}
	uint64_t end = rdtsc();
	kthread_join(t);
	current->cpus_allowed = saved;
	return (end - start) / (2 * (uint64_t)rounds);
}

#define WORKLOAD_ROUNDS 2000

/*
 * A fixed mix of ordinary kernel work: allocation, a short call chain, a mutex, a wait queue.
 * Built with and without -pg (make FTRACE=0), its instruction count tells what the NOPs at every
 * call site cost when nothing is traced (tools/bench.py: nop_overhead_ratio).
 */
static noinline uint64_t bench_workload(void)
{
	static DEFINE_MUTEX(m);
	static DECLARE_WAIT_QUEUE_HEAD(wq);
	uint64_t start = rdtsc();
	for (int i = 0; i < WORKLOAD_ROUNDS; i++) {
		char *p = kmalloc(96 + i % 64);
		if (p)
			p[0] = (char)i; /* touch what was allocated */
		ftest_outer(i);
		mutex_lock(&m);
		mutex_unlock(&m);
		wake_up(&wq);
		kfree(p);
	}
	uint64_t end = rdtsc();
	return end - start;
}

#define FS_ROUNDS 300
#define FS_FILE "/tmp/bench_fs"
#define FS_BYTES 512

/*
 * A second workload, of the kind a shell command does: create a file in the ramfs, write it,
 * seek back, read it, stat it, close and remove it. Its functions are bigger than
 * bench_workload()'s short call chain, so it shows what the NOPs cost in more ordinary work
 * (tools/bench.py: nop_overhead_ratio_fs). 0 if the file system said no.
 */
static noinline uint64_t bench_fs_workload(void)
{
	static char buf[FS_BYTES];
	struct kstat st;
	uint64_t start = rdtsc();

	for (int i = 0; i < FS_ROUNDS; i++) {
		int fd = vfs_open(FS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			return 0;
		buf[0] = (char)i;
		if (vfs_write(fd, buf, sizeof(buf)) != sizeof(buf) || vfs_lseek(fd, 0, SEEK_SET) ||
		    vfs_read(fd, buf, sizeof(buf)) != sizeof(buf) || vfs_fstat(fd, &st) ||
		    vfs_close(fd) || vfs_unlink(FS_FILE))
			return 0;
	}
	return rdtsc() - start;
}

#define EVENT_ROUNDS 2000

static noinline uint64_t call_leaf_rounds(void)
{
	uint64_t start = rdtsc();
	for (int i = 0; i < EVENT_ROUNDS; i++)
		ftest_leaf(i);
	return rdtsc() - start;
}

/*
 * The function tracer's filter, changed as set_ftrace_filter does it: under trace_types_lock,
 * which the file's readers hold while they walk the set (tracing_set_tracer takes it itself).
 */
static int bench_set_filter(struct trace_array *tr, const char *pattern)
{
	int ret;

	mutex_lock(&trace_types_lock);
	ret = pattern ? ftrace_set_filter(&tr->ops, pattern, true) : 0;
	if (!pattern)
		ftrace_reset_filters(&tr->ops);
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* The function tracer's cost: switching it on for every site, and one recorded event. */
static void bench_function_tracer(struct seq_file *m)
{
	struct trace_array *tr = &global_trace;
	bench_set_filter(tr, NULL);
	uint64_t t0 = rdtsc();
	int err = tracing_set_tracer(tr, "function");
	uint64_t t1 = rdtsc();
	tracing_set_tracer(tr, "nop");
	if (!err)
		seq_printf(m, "enable_all_insns: %lu insns\n", (unsigned long)(t1 - t0));

	uint64_t base = call_leaf_rounds(); /* the same calls, NOPs at their sites */
	if (!err && bench_set_filter(tr, "ftest_leaf") == 0 &&
	    tracing_set_tracer(tr, "function") == 0) {
		uint64_t traced = call_leaf_rounds();
		tracing_set_tracer(tr, "nop");
		seq_printf(m, "function_event_insns: %lu insns\n",
			   (unsigned long)((traced - base) / EVENT_ROUNDS));
	}
	/* function_graph: an entry and a return event per call, through return_to_handler. */
	if (!err && bench_set_filter(tr, "ftest_leaf") == 0 &&
	    tracing_set_tracer(tr, "function_graph") == 0) {
		uint64_t traced = call_leaf_rounds();
		tracing_set_tracer(tr, "nop");
		seq_printf(m, "graph_call_insns: %lu insns\n",
			   (unsigned long)((traced - base) / EVENT_ROUNDS));
	}
	bench_set_filter(tr, NULL);
}

#define LOCK_ROUNDS 2000

static noinline uint64_t lock_rounds(void)
{
	static DEFINE_SPINLOCK(l);
	uint64_t start = rdtsc();
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		unsigned long flags = spin_lock_irqsave(&l);
		spin_unlock_irqrestore(&l, flags);
	}
	return rdtsc() - start;
}

/*
 * What out-of-line, traceable spin locks cost (kernel/locking/spinlock.h): a lock and unlock pair
 * through _raw_spin_lock_irqsave() and _raw_spin_unlock_irqrestore() with NOPs at their sites;
 * the same pair inline (__raw_spin_*, as untraced code takes them); and the pair with both
 * traced by the function tracer (two events).
 */
static void bench_spin_lock(struct seq_file *m)
{
	struct trace_array *tr = &global_trace;
	static DEFINE_SPINLOCK(l);
	uint64_t start = rdtsc();
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		unsigned long flags = __raw_spin_lock_irqsave(&l);
		__raw_spin_unlock_irqrestore(&l, flags);
	}
	uint64_t inline_pair = (rdtsc() - start) / LOCK_ROUNDS;
	uint64_t pair = lock_rounds() / LOCK_ROUNDS;

	seq_printf(m, "spin_lock_pair_insns: %lu insns\n", (unsigned long)pair);
	seq_printf(m, "spin_lock_pair_inline_insns: %lu insns\n", (unsigned long)inline_pair);
	int err = bench_set_filter(tr, "_raw_spin_lock_irqsave");
	mutex_lock(&trace_types_lock); /* as bench_set_filter: the second name joins the first */
	err = err ?: ftrace_set_filter(&tr->ops, "_raw_spin_unlock_irqrestore", false);
	mutex_unlock(&trace_types_lock);
	if (!err && tracing_set_tracer(tr, "function") == 0) {
		uint64_t traced = lock_rounds() / LOCK_ROUNDS;
		tracing_set_tracer(tr, "nop");
		seq_printf(m, "spin_lock_pair_traced_insns: %lu insns\n", (unsigned long)traced);
	}
	bench_set_filter(tr, NULL);
}

#define PRINTK_ROUNDS 50 /* each one a line on the console */

/*
 * trace_printk against printk, as the article compares them. trace_printk_insns is the whole
 * cost of one call with a %d, recorded into the buffer under nop. printk_serial_ratio is one
 * printk of a line of the same length (formatted, logged and written to the serial console)
 * over that: instructions only. A real 115200-baud UART also keeps the CPU waiting about 87 us
 * per character, which QEMU's does not, so on hardware the gap is far wider.
 */
static void bench_trace_printk(struct seq_file *m)
{
	struct trace_array *tr = &global_trace;
	uint64_t t0, t1, per_trace, per_printk;

	if (!tracing_is_on() || tr->current_trace != &nop_trace)
		return;
	tracing_reset_online_cpus(tr);
	t0 = rdtsc();
	for (int i = 0; i < EVENT_ROUNDS; i++)
		trace_printk("bench message %d\n", i);
	t1 = rdtsc();
	if (ring_buffer_entries(tr->buffer) != EVENT_ROUNDS)
		return; /* not all recorded: the figure would mean nothing */
	tracing_reset_online_cpus(tr);
	per_trace = (t1 - t0) / EVENT_ROUNDS;
	t0 = rdtsc();
	for (int i = 0; i < PRINTK_ROUNDS; i++)
		printk(KERN_INFO "bench message %d\n", i);
	t1 = rdtsc();
	per_printk = (t1 - t0) / PRINTK_ROUNDS;
	seq_printf(m, "trace_printk_insns: %lu insns\n", (unsigned long)per_trace);
	if (per_trace)
		seq_printf(m, "printk_serial_ratio: %lu.%02lu ratio\n",
			   (unsigned long)(per_printk / per_trace),
			   (unsigned long)(per_printk * 100 / per_trace % 100));
}

/*
 * insmod foo.ko through its init: reading the file, the checks, the layout, the linking, the
 * protections (their TLB shootdowns wait for the other CPUs) and the init's trace_printk. The
 * first load keeps foo's formats for good; the figure is the least of the loads after it.
 */
#define MODULE_BENCH_FILE "/lib/modules/foo.ko"
#define MODULE_BENCH_ROUNDS 5

static void bench_module_load(struct seq_file *m)
{
	uint64_t best = UINT64_MAX, best_site = UINT64_MAX;

	for (int i = 0; i <= MODULE_BENCH_ROUNDS; i++) {
		int fd = vfs_open(MODULE_BENCH_FILE, O_RDONLY, 0), err;
		uint64_t t0, t1;

		if (fd < 0) {
			seq_printf(m, "module_load_insns: none (%s: %s)\n", MODULE_BENCH_FILE,
				   errno_text(-fd));
			return;
		}
		t0 = rdtsc();
		err = load_module_fd(fd, "");
		t1 = rdtsc();
		vfs_close(fd);
		if (err) {
			seq_printf(m, "module_load_insns: none (insmod foo: %s)\n",
				   errno_text(-err));
			return;
		}
		delete_module("foo", O_NONBLOCK);
		if (i && t1 - t0 < best)
			best = t1 - t0;
		/* ftrace_module_init's share: checking and NOPing each site, filing its record. */
		if (i && ftrace_module_init_sites &&
		    ftrace_module_init_tsc / (uint64_t)ftrace_module_init_sites < best_site)
			best_site = ftrace_module_init_tsc / (uint64_t)ftrace_module_init_sites;
	}
	seq_printf(m, "module_load_insns: %lu insns\n", (unsigned long)best);
	if (best_site != UINT64_MAX)
		seq_printf(m, "module_ftrace_init_insns_per_site: %lu insns\n",
			   (unsigned long)best_site);
	else
		seq_printf(m, "module_ftrace_init_insns_per_site: none (foo has no call sites)\n");
}

/*
 * One trace event's cost: sched_switch and sched_wakeup enabled, the same same-CPU ping-pong
 * as ctx_switch_insns (one wakeup and one switch a round), the difference halved. Only the
 * events bench enabled itself are changed back.
 */
static int bench_set_events(int on)
{
	struct trace_event_selector sel = {.sub = "sched", .event = "sched_switch", .set = on};
	int ret;

	mutex_lock(&event_mutex);
	ret = ftrace_set_clr_event(&sel);
	sel.event = "sched_wakeup";
	if (!ret)
		ret = ftrace_set_clr_event(&sel);
	mutex_unlock(&event_mutex);
	return ret;
}

static void bench_trace_event(struct seq_file *m)
{
	uint64_t base = measure_pingpong(0, 0, SWITCH_ROUNDS), traced;

	if (!tracing_is_on() || bench_set_events(1))
		return;
	tracing_reset_online_cpus(&global_trace);
	traced = measure_pingpong(0, 0, SWITCH_ROUNDS);
	bench_set_events(0);
	tracing_reset_online_cpus(&global_trace);
	seq_printf(m, "trace_event_insns: %lu insns\n", (unsigned long)((traced - base) / 2));
}

/*
 * The same events recorded into instances only (trace/trace_instances.c): into one, then into
 * two at once (each built once and copied into both buffers: at most twice one, the issue's
 * bound).
 */
static void bench_instance_events(struct seq_file *m)
{
	static const char *const names[] = {"bench0", "bench1"};
	struct trace_array *tr[ARRAY_SIZE(names)] = {NULL};
	uint64_t base = measure_pingpong(0, 0, SWITCH_ROUNDS), traced;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		tr[i] = trace_array_get_by_name(names[i]);
		if (!tr[i])
			goto out;
	}
	for (size_t n = 1; n <= ARRAY_SIZE(names); n++) {
		if (trace_array_set_clr_event(tr[n - 1], "sched", "sched_switch", true) ||
		    trace_array_set_clr_event(tr[n - 1], "sched", "sched_wakeup", true))
			goto out;
		traced = measure_pingpong(0, 0, SWITCH_ROUNDS);
		seq_printf(m, "trace_event_%zu_instance%s_insns: %lu insns\n", n, n > 1 ? "s" : "",
			   (unsigned long)((traced - base) / 2));
	}
out:
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (tr[i])
			trace_array_destroy(tr[i]);
}

static int bench_thread(void *arg)
{
	struct seq_file *m = arg;

	seq_printf(m, "callsites: %d sites\n", ftrace_nr_live_records());
	/* TSC ticks, which under -icount shift=0 are instructions (see the top of this file). */
	seq_printf(m, "ftrace_init_insns: %lu insns\n", (unsigned long)ftrace_init_tsc);
	bench_workload(); /* warm up: first-time allocations */
	seq_printf(m, "workload_insns: %lu insns\n", (unsigned long)bench_workload());
	bench_fs_workload(); /* warm up: the dentry cache, the first pages */
	seq_printf(m, "fs_workload_insns: %lu insns\n", (unsigned long)bench_fs_workload());
	if (ftrace_nr_records()) {
		bench_function_tracer(m);
		bench_spin_lock(m);
		bench_kprobes(m); /* kernel/debug/test_kprobes.c */
	}
	bench_trace_printk(m);
	bench_trace_event(m);
	bench_instance_events(m);
	bench_module_load(m);
	seq_printf(m, "boot_to_prompt_insns: %lu insns\n", (unsigned long)boot_prompt_tsc);
	seq_printf(m, "kmain_to_prompt_insns: %lu insns\n",
		   (unsigned long)(boot_prompt_tsc - boot_kmain_tsc));
	seq_printf(m, "ctx_switch_insns: %lu insns\n",
		   (unsigned long)measure_pingpong(0, 0, SWITCH_ROUNDS));
	if (num_online_cpus() > 1)
		seq_printf(m, "remote_wakeup_insns: %lu insns\n",
			   (unsigned long)measure_pingpong(0, 1, WAKEUP_ROUNDS));
	return 0;
}

/*
 * The figures are the file's one record. In a thread of its own, bound to CPU 0, so that the
 * reader's CPU mask stays its own and the benchmarks run where they pin themselves.
 */
static int bench_show(struct seq_file *m, void *v)
{
	(void)v;
	struct task *t = kthread_create(bench_thread, m, "bench");
	if (!t)
		return -ENOMEM;
	kthread_bind_mask(t, 1UL << 0);
	wake_up_new_task(t);
	return kthread_join(t);
}

static int bench_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, bench_show, NULL);
}

/*
 * No VFS lock around the read: the benchmarks open, write and remove a file themselves (and
 * load a module), which takes it.
 */
static const struct file_operations bench_fops = {
	.open = bench_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.no_vfs_lock = true,
};

void bench_init(void)
{
	if (!debugfs_create_file("bench", 0400, NULL, NULL, &bench_fops))
		printk(KERN_WARNING "bench: cannot create /sys/kernel/debug/bench\n");
}

/* The hwlat tracer: latencies the kernel did not cause, seen with interrupts off. */

/*
 * Linux's kernel/trace/trace_hwlat.c and Documentation/trace/hwlat_detector.rst. A kernel
 * thread ("hwlatd") turns interrupts off for width us of every window us and reads the clock
 * in a tight loop. Nothing of the kernel's can run in between, so a gap between two reads
 * (inner) or between one pair and the next (outer) longer than tracing_thresh is the
 * machine's: SMIs, firmware, or under QEMU the host. A window with such a gap is a line:
 *
 *   hwlatd-52  [001] d...  58.712113: #1     inner/outer(us):   11/13    ts:1733400000.251866012
 *       count:3
 *
 * (the worst gaps, when the first of them was in real time, how many there were). NMIs
 * counted meanwhile are added as nmi-count. The thread moves to the next CPU of
 * tracing_cpumask each window (hwlat_detector/mode round-robin, the default), stays where it
 * is (none), or runs one per CPU (per-cpu).
 *
 * tracing_thresh is the threshold: 10 us if it was 0 when the tracer started, given back
 * when it stops (Linux's last_tracing_thresh). tracing_max_latency keeps the worst gap.
 * Only one trace array at a time can run it (EBUSY).
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/trace_fs.h"
#include "trace/trace_output.h"
#include "trace/trace_seq.h"
#include "trace/trace_events.h"
#include "trace/ring_buffer.h"
#include "trace/trace_osnoise.h"
#include "kernel/fs/tracefs.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/lockdep.h"
#include "kernel/time/time.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define DEFAULT_SAMPLE_WINDOW_US 1000000 /* window: 1 s */
#define DEFAULT_SAMPLE_WIDTH_US 500000 /* width: half of it, interrupts off */
#define DEFAULT_LAT_THRESHOLD_US 10 /* tracing_thresh if it is 0 */
#define USEC_PER_MSEC 1000

enum hwlat_mode { MODE_NONE, MODE_ROUND_ROBIN, MODE_PER_CPU, MODE_MAX };
static const char *const thread_mode_str[MODE_MAX] = {"none", "round-robin", "per-cpu"};

static struct {
	uint64_t sample_window; /* us */
	uint64_t sample_width; /* us */
	enum hwlat_mode thread_mode;
	unsigned int count; /* windows over the threshold: the #N of the lines */
} hwlat_data = {
	.sample_window = DEFAULT_SAMPLE_WINDOW_US,
	.sample_width = DEFAULT_SAMPLE_WIDTH_US,
	.thread_mode = MODE_ROUND_ROBIN,
};

static DEFINE_MUTEX(hwlat_lock); /* the settings, the threads' start and stop */
static struct trace_array *hwlat_trace;
static struct task *hwlat_threads[NR_CPUS]; /* [0] alone unless per-cpu */
static bool hwlat_stop;
static bool hwlat_running;
static unsigned long save_tracing_thresh;
static unsigned long last_tracing_thresh = DEFAULT_LAT_THRESHOLD_US * NSEC_PER_USEC;

static inline uint64_t time_get(void)
{
	return ktime_get_ns();
}

static void trace_hwlat_sample(uint64_t inner, uint64_t outer, uint64_t ts, unsigned int nmi,
			       unsigned int count)
{
	struct trace_array *tr = hwlat_trace;
	struct ring_buffer_event *event =
		ring_buffer_lock_reserve(tr->buffer, sizeof(struct hwlat_entry));
	struct hwlat_entry *e;

	if (!event)
		return;
	e = ring_buffer_event_data(event);
	tracing_entry_update(&e->ent, TRACE_HWLAT, tracing_gen_ctx());
	e->seqnum = ++hwlat_data.count;
	e->duration = inner;
	e->outer_duration = outer;
	e->timestamp.tv_sec = (int64_t)(ts / NSEC_PER_SEC);
	e->timestamp.tv_nsec = (long)(ts % NSEC_PER_SEC);
	e->nmi_total_ts = 0; /* Lucid does not time NMIs: only their count is shown */
	e->nmi_count = nmi;
	e->count = count;
	ring_buffer_unlock_commit(tr->buffer);
}

/*
 * One width with interrupts off (Linux's get_sample). Called with interrupts off: nothing but
 * an NMI can take the CPU, which is the point.
 */
static void get_sample(void)
{
	uint64_t thresh = READ_ONCE(tracing_thresh) / NSEC_PER_USEC;
	uint64_t width = READ_ONCE(hwlat_data.sample_width) * NSEC_PER_USEC;
	uint64_t start, t1, t2, last_t2 = 0, diff, outer_diff = 0, total;
	uint64_t sample = 0, outer_sample = 0, ts = 0;
	unsigned int nmi_start = (unsigned int)this_cpu()->irq_count[VEC_NMI];
	unsigned int count = 0;

	lockdep_assert_irqs_disabled();
	start = time_get();
	do {
		t1 = time_get();
		if (last_t2) {
			outer_diff = (t1 - last_t2) / NSEC_PER_USEC;
			if (outer_diff > outer_sample)
				outer_sample = outer_diff;
		}
		t2 = time_get();
		diff = (t2 - t1) / NSEC_PER_USEC;
		if (diff > thresh || outer_diff > thresh) {
			if (!count)
				ts = ktime_get_real_ns(); /* the first one's real time */
			count++;
		}
		if (diff > sample)
			sample = diff;
		last_t2 = t2;
		total = t2 - start;
	} while (total <= width);

	if (sample > thresh || outer_sample > thresh) {
		uint64_t latency = (sample > outer_sample ? sample : outer_sample) * NSEC_PER_USEC;
		struct trace_array *tr = hwlat_trace;

		trace_hwlat_sample(sample, outer_sample, ts,
				   (unsigned int)this_cpu()->irq_count[VEC_NMI] - nmi_start, count);
		if (latency > READ_ONCE(tr->max_latency))
			WRITE_ONCE(tr->max_latency, latency);
	}
}

/* round-robin: the next CPU of tracing_cpumask after this one, for the next window. */
static void move_to_next_cpu(void)
{
	struct trace_array *tr = hwlat_trace;
	int n = num_online_cpus(), cpu = smp_processor_id();

	for (int i = 1; i <= n; i++) {
		int next = (cpu + i) % n;

		if (!(tr->cpumask_cleared & (1UL << next))) {
			if (next != cpu)
				set_cpus_allowed_ptr(current, 1UL << next);
			return;
		}
	}
}

static int hwlat_main(void *arg)
{
	(void)arg;
	while (!READ_ONCE(hwlat_stop)) {
		unsigned long flags;
		uint64_t interval;

		if (READ_ONCE(hwlat_data.thread_mode) == MODE_ROUND_ROBIN)
			move_to_next_cpu();
		flags = local_irq_save();
		get_sample();
		local_irq_restore(flags);
		interval =
			(READ_ONCE(hwlat_data.sample_window) - READ_ONCE(hwlat_data.sample_width)) /
			USEC_PER_MSEC;
		if (interval < 1)
			interval = 1; /* the CPU is given back a while at least */
		set_current_state(TASK_INTERRUPTIBLE);
		if (!READ_ONCE(hwlat_stop))
			schedule_timeout((long)interval);
		set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void stop_hwlat_threads(void)
{
	lockdep_assert_held(&hwlat_lock);
	WRITE_ONCE(hwlat_stop, true);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!hwlat_threads[cpu])
			continue;
		wake_up_process(hwlat_threads[cpu]);
		kthread_join(hwlat_threads[cpu]);
		hwlat_threads[cpu] = NULL;
	}
	hwlat_running = false;
}

static int start_hwlat_threads(void)
{
	bool per_cpu = hwlat_data.thread_mode == MODE_PER_CPU;

	lockdep_assert_held(&hwlat_lock);
	if (hwlat_running)
		return 0;
	WRITE_ONCE(hwlat_stop, false);
	hwlat_running = true;
	for (int cpu = 0; cpu < (per_cpu ? num_online_cpus() : 1); cpu++) {
		char name[TASK_COMM_LEN];
		struct task *t;

		if (per_cpu && (hwlat_trace->cpumask_cleared & (1UL << cpu)))
			continue;
		if (per_cpu)
			snprintf(name, sizeof(name), "hwlatd/%d", cpu);
		else
			strlcpy(name, "hwlatd", sizeof(name));
		t = kthread_create_on_cpu(hwlat_main, NULL, per_cpu ? cpu : -1, name);
		if (!t) {
			stop_hwlat_threads();
			return -ENOMEM;
		}
		hwlat_threads[cpu] = t;
		wake_up_new_task(t);
	}
	return 0;
}

static int hwlat_tracer_init(struct trace_array *tr)
{
	int ret;

	mutex_lock(&hwlat_lock);
	if (hwlat_trace) {
		mutex_unlock(&hwlat_lock);
		return -EBUSY; /* running in another trace array */
	}
	hwlat_trace = tr;
	hwlat_data.count = 0;
	tr->max_latency = 0;
	save_tracing_thresh = tracing_thresh;
	if (!tracing_thresh)
		WRITE_ONCE(tracing_thresh, last_tracing_thresh);
	ret = tracer_tracing_is_on(tr) ? start_hwlat_threads() : 0;
	if (ret) {
		WRITE_ONCE(tracing_thresh, save_tracing_thresh);
		hwlat_trace = NULL;
	}
	mutex_unlock(&hwlat_lock);
	return ret;
}

static void hwlat_tracer_reset(struct trace_array *tr)
{
	(void)tr;
	mutex_lock(&hwlat_lock);
	stop_hwlat_threads();
	/* The threshold it ran with is kept for the next time (Linux's last_tracing_thresh). */
	last_tracing_thresh = tracing_thresh;
	WRITE_ONCE(tracing_thresh, save_tracing_thresh);
	hwlat_trace = NULL;
	mutex_unlock(&hwlat_lock);
}

static void hwlat_tracer_start(struct trace_array *tr)
{
	(void)tr;
	mutex_lock(&hwlat_lock);
	start_hwlat_threads();
	mutex_unlock(&hwlat_lock);
}

static void hwlat_tracer_stop(struct trace_array *tr)
{
	(void)tr;
	mutex_lock(&hwlat_lock);
	stop_hwlat_threads();
	mutex_unlock(&hwlat_lock);
}

static struct tracer hwlat_tracer = {
	.name = "hwlat",
	.init = hwlat_tracer_init,
	.reset = hwlat_tracer_reset,
	.start = hwlat_tracer_start,
	.stop = hwlat_tracer_stop,
	.allow_instances = true,
};
REGISTER_TRACER(hwlat_tracer);

/* --- the line, and events/ftrace/hwlat -------------------------------------------------------- */

static enum print_line_t trace_hwlat_print(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *event)
{
	struct hwlat_entry *field = (struct hwlat_entry *)iter->ent;
	struct trace_seq *s = &iter->seq;

	(void)flags, (void)event;
	trace_seq_printf(
		s, "#%-5u inner/outer(us): %4llu/%-5llu ts:%lld.%09ld count:%d", field->seqnum,
		(unsigned long long)field->duration, (unsigned long long)field->outer_duration,
		(long long)field->timestamp.tv_sec, field->timestamp.tv_nsec, (int)field->count);
	if (field->nmi_count)
		trace_seq_printf(s, " nmi-total:%llu nmi-count:%u",
				 (unsigned long long)field->nmi_total_ts, field->nmi_count);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static const struct trace_event_field hwlat_fields[] = {
	OSNOISE_FIELD_U64(struct hwlat_entry, duration),
	OSNOISE_FIELD_U64(struct hwlat_entry, outer_duration),
	OSNOISE_FIELD_U64(struct hwlat_entry, nmi_total_ts),
	/* Linux's __field_desc: the members of the timestamp, by their own names */
	{.type = "s64",
	 .name = "tv_sec",
	 .offset = offsetof(struct hwlat_entry, timestamp.tv_sec),
	 .size = sizeof(int64_t),
	 .is_signed = 1},
	{.type = "long",
	 .name = "tv_nsec",
	 .offset = offsetof(struct hwlat_entry, timestamp.tv_nsec),
	 .size = sizeof(long),
	 .is_signed = 1},
	TRACE_FIELD(struct hwlat_entry, unsigned int, nmi_count),
	TRACE_FIELD(struct hwlat_entry, unsigned int, seqnum),
	TRACE_FIELD(struct hwlat_entry, unsigned int, count),
	TRACE_FIELD_END,
};

struct trace_event_call event_ftrace_hwlat = {
	.system = "ftrace",
	.name = "hwlat",
	.fields = hwlat_fields,
	.size = sizeof(struct hwlat_entry),
	/* clang-format off */
	.print_fmt = TRACE_PRINT_FMT(
	"cnt:%u\tts:%010llu.%010lu\tinner:%llu\touter:%llu\tcount:%d\tnmi-ts:%llu\tnmi-count:%u",
		REC->seqnum, REC->tv_sec, REC->tv_nsec, REC->duration, REC->outer_duration,
		REC->count, REC->nmi_total_ts, REC->nmi_count),
	/* clang-format on */
	.event = {.type = TRACE_HWLAT},
	.flags = TRACE_EVENT_FL_IGNORE_ENABLE,
};
REGISTER_TRACE_EVENT(event_ftrace_hwlat);

static struct trace_event trace_hwlat_event = {.type = TRACE_HWLAT, .trace = trace_hwlat_print};

/* --- hwlat_detector/ -------------------------------------------------------------------------- */

/* width at most window, window at least width (Linux's hwlat_width, hwlat_window). */
static const struct osnoise_param hwlat_width = {
	.lock = &hwlat_lock,
	.val = &hwlat_data.sample_width,
	.max_ptr = &hwlat_data.sample_window,
};
static const struct osnoise_param hwlat_window = {
	.lock = &hwlat_lock,
	.val = &hwlat_data.sample_window,
	.min_ptr = &hwlat_data.sample_width,
};

/* mode: "none [round-robin] per-cpu", the current one bracketed; a write names one. */
static ssize_t hwlat_mode_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	enum hwlat_mode mode = READ_ONCE(hwlat_data.thread_mode);
	char buf[64];
	size_t len = 0;

	(void)file;
	for (int i = 0; i < MODE_MAX; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					i == (int)mode ? "[%s]%s" : "%s%s", thread_mode_str[i],
					i + 1 < MODE_MAX ? " " : "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t hwlat_mode_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[32], *name;
	int mode = -1;
	bool running;

	(void)file;
	if (tracing_copy_write(buf, sizeof(buf), ubuf, cnt))
		return -EINVAL;
	name = strim(buf);
	for (int i = 0; i < MODE_MAX; i++)
		if (!strcmp(name, thread_mode_str[i]))
			mode = i;
	if (mode < 0)
		return -EINVAL;
	mutex_lock(&hwlat_lock);
	running = hwlat_running;
	if (running)
		stop_hwlat_threads();
	WRITE_ONCE(hwlat_data.thread_mode, (enum hwlat_mode)mode);
	if (running)
		start_hwlat_threads();
	mutex_unlock(&hwlat_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations hwlat_mode_fops = {
	.read = hwlat_mode_read,
	.write = hwlat_mode_write,
};

void hwlat_init_tracefs(void)
{
	struct dentry *dir = tracefs_create_dir("hwlat_detector", NULL);

	register_trace_event(&trace_hwlat_event);

	if (!dir ||
	    !tracefs_create_file("width", TRACE_MODE_WRITE, dir, (void *)&hwlat_width,
				 &osnoise_param_fops) ||
	    !tracefs_create_file("window", TRACE_MODE_WRITE, dir, (void *)&hwlat_window,
				 &osnoise_param_fops) ||
	    !tracefs_create_file("mode", TRACE_MODE_WRITE, dir, NULL, &hwlat_mode_fops))
		printk(KERN_ERR "hwlat: cannot create its files\n");
}

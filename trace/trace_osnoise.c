/* The osnoise and timerlat tracers: what keeps a CPU from running the work it was given. */

/*
 * Linux's kernel/trace/trace_osnoise.c, Documentation/trace/osnoise-tracer.rst and
 * timerlat-tracer.rst.
 *
 * osnoise: a kernel thread per CPU ("osnoise/N", in osnoise/cpus) spins for runtime_us of
 * every period_us, reading the clock. Whenever two reads are further apart than the threshold
 * (tracing_thresh, or 5 us if it is 0), something else had the CPU: that gap is noise. The
 * thread cannot see what it was, so the tracer counts, at the same time, what interrupted it:
 * interrupt handlers (irq_handler_entry/exit for devices, the tick's hrtimer_expire_entry/exit)
 * and other threads (sched_switch). A gap during which nothing was counted is the hardware's
 * (or, under QEMU, the host's): HW. At the end of a period one line sums it up:
 *
 *             RUNTIME      NOISE  %% OF CPU  NOISE   HW NMI IRQ SIRQ THREAD
 *   ...  4.763306: 1000000    916  99.90840     674    0   0 251    0     34
 *
 * and with the osnoise:* events on, each interference is an event of its own
 * (trace/events/osnoise.h): sample_threshold for the gap, irq_noise and thread_noise for what
 * caused it, each with its own duration (an interrupt inside a noisy thread is taken out of the
 * thread's: the thread's start is pushed forward by it, as Linux's cond_move_*_delta_start).
 *
 * timerlat: a real-time thread per CPU ("timerlat/N", SCHED_FIFO 95) sleeps until the next
 * period (timerlat_period_us) and measures how late the timer's interrupt (context irq) and
 * then the thread itself (context thread) ran after the time asked for:
 *
 *   <idle>-0    [000] d.h1  1.700374: #1     context    irq timer_latency     66576 ns
 *   timerlat/0-117 [000] ....  1.700377: #1     context thread timer_latency     70035 ns
 *
 * The timer is a high-resolution one (kernel/time/hrtimer.c), pinned to the thread's CPU and run
 * in hard irq, as Linux's: its function, timerlat_irq, is the irq context's measurement, and
 * the wakeup of the thread its thread context's. So the figures are the interrupt's and the
 * scheduler's latencies, in microseconds, not the tick's 10 ms.
 *
 * Both record into every trace array (top level or instance) whose current_tracer is theirs,
 * and keep tracing_max_latency: the worst single noise (osnoise) or thread latency (timerlat)
 * since the tracer started. stop_tracing_us / stop_tracing_total_us turn tracing off in them when
 * a single noise (or irq latency) / the period's total noise (or thread latency) is over it.
 * osnoise and timerlat cannot run at once (the same per-CPU state): the second is EBUSY.
 *
 * Not traced, as all of trace/: the probes run inside the interrupts and switches they measure.
 */
#include <limits.h>
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/trace_fs.h"
#include "trace/trace_output.h"
#include "trace/trace_printk.h"
#include "trace/trace_seq.h"
#include "trace/ring_buffer.h"
#include "trace/trace_osnoise.h"
#include "trace/events/irq.h"
#include "trace/events/sched.h"
#include "trace/events/timer.h"
#include "kernel/time/hrtimer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/time/time.h"
#include "kernel/sched/preempt.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/locking/lockdep.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CREATE_TRACE_EVENTS
#include "trace/events/osnoise.h"

DEFINE_TRACE(thread_noise); /* trace/events/osnoise.h */
DEFINE_TRACE(softirq_noise);
DEFINE_TRACE(irq_noise);
DEFINE_TRACE(nmi_noise);
DEFINE_TRACE(sample_threshold);

/* Linux's defaults: the osnoise/ files' values at boot. */
#define DEFAULT_SAMPLE_PERIOD_US 1000000 /* period_us: 1 s */
#define DEFAULT_SAMPLE_RUNTIME_US 1000000 /* runtime_us: all of it */
#define DEFAULT_TIMERLAT_PERIOD_US 1000 /* timerlat_period_us: 1 ms */
#define MIN_SAMPLE_RUNTIME_US 100 /* runtime_us below this is refused */
#define MIN_TIMERLAT_PERIOD_US 100 /* timerlat_period_us's bounds */
#define MAX_TIMERLAT_PERIOD_US 1000000
#define DEFAULT_OSNOISE_THRESHOLD_NS 5000 /* a gap that is noise when tracing_thresh is 0 */
#define TIMERLAT_PRIO 95 /* SCHED_FIFO priority of the timerlat threads */
#define LOCAL_TIMER_VECTOR 236 /* the tick's vector as Linux names it in irq_noise */
#define OSNOISE_MAX_INSTANCES 8 /* trace arrays that can run the tracer at once */
#define TIMERLAT_STACK_ENTRIES 16 /* print_stack: frames saved at the timer's interrupt */
#define USEC_PER_MSEC 1000

/* --- settings: the osnoise/ files ------------------------------------------------------------ */

/* osnoise/options, Linux's names, in Linux's order (DEFAULTS first, as a command only). */
enum osnoise_options_index {
	OSN_DEFAULTS = 0,
	OSN_WORKLOAD,
	OSN_PANIC_ON_STOP,
	OSN_PREEMPT_DISABLE,
	OSN_IRQ_DISABLE,
	OSN_MAX
};
static const char *const osnoise_options_str[OSN_MAX] = {
	"DEFAULTS",
	"OSNOISE_WORKLOAD",
	"PANIC_ON_STOP",
	"OSNOISE_PREEMPT_DISABLE",
	"OSNOISE_IRQ_DISABLE",
};
#define OSN_DEFAULT_OPTIONS (1UL << OSN_WORKLOAD)

static struct {
	uint64_t sample_period; /* us */
	uint64_t sample_runtime; /* us */
	uint64_t stop_tracing; /* us; 0: never */
	uint64_t stop_tracing_total; /* us; 0: never */
	uint64_t timerlat_period; /* us */
	uint64_t print_stack; /* us; 0: never */
	unsigned long options; /* 1 << OSN_* */
	uint64_t cpus; /* osnoise/cpus: a bit per CPU */
} osnoise_data = {
	.sample_period = DEFAULT_SAMPLE_PERIOD_US,
	.sample_runtime = DEFAULT_SAMPLE_RUNTIME_US,
	.timerlat_period = DEFAULT_TIMERLAT_PERIOD_US,
	.options = OSN_DEFAULT_OPTIONS,
	.cpus = ~0ULL,
};

/* Orders the settings' writers, the tracers' start and stop, and the instances' list. */
static DEFINE_MUTEX(osnoise_lock);

/* --- per-CPU state ---------------------------------------------------------------------------- */

/*
 * A CPU's measurement. The interrupt and switch probes write it on their own CPU only, and the
 * thread reads it on the same CPU: int_counter, bumped at every interference's start, lets the
 * thread read a time and the counters consistently (set_int_safe_time: again if it changed).
 */
struct osnoise_variables {
	struct task *thread;
	bool stop; /* the thread is asked to end */
	bool sampling; /* the probes count: a measurement runs on this CPU */
	unsigned long int_counter;
	unsigned int irq_count, thread_count;
	/* the interrupt being handled: which, when it started, its name */
	bool in_irq;
	const void *irq_timer;
	uint64_t irq_arrival, irq_delta_start;
	int irq_vector;
	const char *irq_desc;
	/* another thread on the CPU */
	uint64_t thread_arrival, thread_delta_start;
	/* timerlat */
	bool tlat_armed; /* the thread sleeps until abs_period: its timer will wake it */
	struct hrtimer tlat_timer; /* the thread's: fires at abs_period on its CPU */
	uint64_t abs_period; /* ns: when the timer should fire */
	unsigned int tlat_count; /* activations so far: the #N of the lines */
	int stack_size;
	unsigned long stack[TIMERLAT_STACK_ENTRIES];
};
static struct osnoise_variables osn_vars[NR_CPUS];

/* The trace arrays running osnoise or timerlat (which one: osnoise_mode). */
enum osnoise_mode { OSN_MODE_NONE, OSN_MODE_OSNOISE, OSN_MODE_TIMERLAT };
static struct trace_array *osnoise_instances[OSNOISE_MAX_INSTANCES];
static int nr_osnoise_instances;
static enum osnoise_mode osnoise_mode;
static bool workload_running;

static inline uint64_t time_get(void)
{
	return ktime_get_ns();
}

static bool osnoise_option(int opt)
{
	return READ_ONCE(osnoise_data.options) & (1UL << opt);
}

/* --- records --------------------------------------------------------------------------------- */

static void *osnoise_reserve(struct trace_array *tr, int type, size_t size)
{
	struct ring_buffer_event *event = ring_buffer_lock_reserve(tr->buffer, size);
	void *entry;

	if (!event)
		return NULL;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(entry, (unsigned short)type, tracing_gen_ctx());
	return entry;
}

struct osnoise_sample {
	uint64_t runtime, noise, max_sample; /* us */
	unsigned int hw_count, nmi_count, irq_count, softirq_count, thread_count;
};

static void trace_osnoise_sample(const struct osnoise_sample *s)
{
	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);
		struct osnoise_entry *e;

		if (!tr || !(e = osnoise_reserve(tr, TRACE_OSNOISE, sizeof(*e))))
			continue;
		e->runtime = s->runtime;
		e->noise = s->noise;
		e->max_sample = s->max_sample;
		e->hw_count = s->hw_count;
		e->nmi_count = s->nmi_count;
		e->irq_count = s->irq_count;
		e->softirq_count = s->softirq_count;
		e->thread_count = s->thread_count;
		ring_buffer_unlock_commit(tr->buffer);
	}
}

static void trace_timerlat_sample(unsigned int seqnum, int context, uint64_t latency)
{
	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);
		struct timerlat_entry *e;

		if (!tr || !(e = osnoise_reserve(tr, TRACE_TIMERLAT, sizeof(*e))))
			continue;
		e->seqnum = seqnum;
		e->context = context;
		e->timer_latency = latency;
		ring_buffer_unlock_commit(tr->buffer);
	}
}

/* print_stack: the stack saved at the timer's interrupt, as a stack record (Linux's order). */
static void timerlat_dump_stack(struct osnoise_variables *osn_var)
{
	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);
		size_t size = (size_t)osn_var->stack_size * sizeof(long);
		struct stack_entry *e;

		if (!tr || !(e = osnoise_reserve(tr, TRACE_STACK, sizeof(*e) + size)))
			continue;
		e->size = osn_var->stack_size;
		memcpy(e->caller, osn_var->stack, size);
		ring_buffer_unlock_commit(tr->buffer);
	}
}

/* A line of text in every instance's buffer, as Linux's trace_array_printk_buf. */
static void osnoise_printk(const char *text)
{
	size_t len = strlen(text);

	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);
		struct print_entry *e;

		if (!tr || !(e = osnoise_reserve(tr, TRACE_PRINT, sizeof(*e) + len + 1)))
			continue;
		e->ip = _THIS_IP_;
		memcpy(e->buf, text, len + 1);
		ring_buffer_unlock_commit(tr->buffer);
	}
}

/* tracing_max_latency of every instance: the worst seen, in ns. */
static void notify_new_max_latency(uint64_t latency)
{
	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);

		if (tr && READ_ONCE(tr->max_latency) < latency)
			WRITE_ONCE(tr->max_latency, latency);
	}
}

/* stop_tracing_us & co hit: tracing off in every instance (the threads go on, unrecorded). */
static void osnoise_stop_tracing(void)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "stop tracing hit on cpu %d\n", smp_processor_id());
	osnoise_printk(msg);
	if (osnoise_option(OSN_PANIC_ON_STOP))
		panic("osnoise: panic on stop");
	for (int i = 0; i < nr_osnoise_instances; i++) {
		struct trace_array *tr = READ_ONCE(osnoise_instances[i]);

		if (tr)
			tracer_tracing_off(tr);
	}
}

/* --- the probes: what interrupts the measured CPU --------------------------------------------- */

/* Linux's set_int_safe_time: a time no interference began in the middle of reading. */
static unsigned long set_int_safe_time(struct osnoise_variables *osn_var, uint64_t *time)
{
	unsigned long int_counter;

	do {
		int_counter = READ_ONCE(osn_var->int_counter);
		barrier();
		*time = time_get();
		barrier();
	} while (int_counter != READ_ONCE(osn_var->int_counter));
	return int_counter;
}

/*
 * Interrupts do not nest on Lucid (handlers run with interrupts off), but the tick runs the
 * expired timers inside itself, each framed by hrtimer_expire_entry/exit too: irq_timer is the
 * one whose exit ends the interrupt (NULL: a device's, ended by irq_handler_exit). So a probe
 * registered in the middle of an interrupt sees, at worst, one interrupt not counted.
 */
static void osnoise_irq_entry(int vector, const char *desc, uint64_t now, const void *timer)
{
	struct osnoise_variables *osn_var = &osn_vars[smp_processor_id()];

	if (osn_var->in_irq)
		return;
	osn_var->in_irq = true;
	osn_var->irq_timer = timer;
	osn_var->irq_delta_start = 0;
	if (!READ_ONCE(osn_var->sampling))
		return;
	osn_var->irq_arrival = now;
	osn_var->irq_delta_start = now;
	osn_var->irq_vector = vector;
	osn_var->irq_desc = desc;
	osn_var->int_counter++;
	osn_var->irq_count++;
}

static void osnoise_irq_exit(const void *timer)
{
	struct osnoise_variables *osn_var = &osn_vars[smp_processor_id()];
	uint64_t duration;

	if (!osn_var->in_irq || osn_var->irq_timer != timer)
		return;
	osn_var->in_irq = false;
	if (!osn_var->irq_delta_start)
		return;
	duration = time_get() - osn_var->irq_delta_start;
	osn_var->irq_delta_start = 0;
	trace_irq_noise(osn_var->irq_vector, osn_var->irq_desc, osn_var->irq_arrival, duration);
	/* The thread it interrupted ran that much less (Linux's cond_move_thread_delta_start). */
	if (osn_var->thread_delta_start)
		osn_var->thread_delta_start += duration;
}

static void probe_irq_entry(void *data, int irq, const char *name)
{
	(void)data;
	osnoise_irq_entry(irq, name, time_get(), NULL);
}

static void probe_irq_exit(void *data, int irq, int ret)
{
	(void)data, (void)irq, (void)ret;
	osnoise_irq_exit(NULL);
}

/*
 * The first hrtimer_expire_entry of a timer interrupt is its start (the timer_list timers the
 * tick runs nest inside the tick's); that timer's exit is its end.
 */
static void probe_hrtimer_entry(void *data, void *t, void *function, uint64_t now)
{
	struct osnoise_variables *osn_var = &osn_vars[smp_processor_id()];

	(void)data, (void)function;
	if (!in_hardirq() || osn_var->in_irq)
		return;
	osnoise_irq_entry(LOCAL_TIMER_VECTOR, "local_timer", now, t);
}

static void probe_hrtimer_exit(void *data, void *t)
{
	(void)data;
	osnoise_irq_exit(t);
}

/* Another thread coming and going on a measured CPU is thread noise. */
static void probe_sched_switch(void *data, bool preempt, struct task *prev, struct task *next)
{
	struct osnoise_variables *osn_var = &osn_vars[smp_processor_id()];
	uint64_t now;

	(void)data, (void)preempt;
	if (!READ_ONCE(osn_var->sampling))
		return;
	now = time_get();
	if (prev != osn_var->thread && osn_var->thread_delta_start) {
		trace_thread_noise(prev, osn_var->thread_arrival,
				   now - osn_var->thread_delta_start);
		osn_var->thread_delta_start = 0;
	}
	if (next != osn_var->thread && next != this_cpu()->idle) {
		osn_var->thread_arrival = now;
		osn_var->thread_delta_start = now;
		osn_var->int_counter++;
		osn_var->thread_count++;
	}
}

static int osnoise_hook_events(void)
{
	int ret = register_trace_irq_handler_entry(probe_irq_entry, NULL);

	if (!ret)
		ret = register_trace_irq_handler_exit(probe_irq_exit, NULL);
	if (!ret)
		ret = register_trace_hrtimer_expire_entry(probe_hrtimer_entry, NULL);
	if (!ret)
		ret = register_trace_hrtimer_expire_exit(probe_hrtimer_exit, NULL);
	if (!ret)
		ret = register_trace_sched_switch(probe_sched_switch, NULL);
	return ret;
}

static void osnoise_unhook_events(void)
{
	unregister_trace_irq_handler_entry(probe_irq_entry, NULL);
	unregister_trace_irq_handler_exit(probe_irq_exit, NULL);
	unregister_trace_hrtimer_expire_entry(probe_hrtimer_entry, NULL);
	unregister_trace_hrtimer_expire_exit(probe_hrtimer_exit, NULL);
	unregister_trace_sched_switch(probe_sched_switch, NULL); /* waits for running probes */
}

/* --- the osnoise thread ----------------------------------------------------------------------- */

static unsigned int nmi_count(void)
{
	return (unsigned int)this_cpu()->irq_count[VEC_NMI];
}

/* One runtime_us of spinning on the clock (Linux's run_osnoise). */
static void run_osnoise(struct osnoise_variables *osn_var)
{
	uint64_t threshold = READ_ONCE(tracing_thresh) ?: DEFAULT_OSNOISE_THRESHOLD_NS;
	uint64_t runtime = READ_ONCE(osnoise_data.sample_runtime) * NSEC_PER_USEC;
	uint64_t stop_in = READ_ONCE(osnoise_data.stop_tracing) * NSEC_PER_USEC;
	uint64_t stop_total = READ_ONCE(osnoise_data.stop_tracing_total) * NSEC_PER_USEC;
	bool irq_disable = osnoise_option(OSN_IRQ_DISABLE);
	bool preempt_off = irq_disable || osnoise_option(OSN_PREEMPT_DISABLE);
	uint64_t start, sample, last_sample, total, noise, sum_noise = 0, max_noise = 0;
	unsigned int irq_start, thread_start, nmi_start, hw_count = 0;
	unsigned long int_count, last_int_count, flags = 0;
	struct osnoise_sample s;
	bool stopped = false;

	if (preempt_off)
		preempt_disable();
	if (irq_disable)
		flags = local_irq_save();
	irq_start = osn_var->irq_count;
	thread_start = osn_var->thread_count;
	nmi_start = nmi_count();
	WRITE_ONCE(osn_var->sampling, true);
	barrier();
	last_int_count = set_int_safe_time(osn_var, &start);
	last_sample = start;
	do {
		int_count = set_int_safe_time(osn_var, &sample);
		noise = sample - last_sample;
		if (noise >= threshold) {
			unsigned long interference = int_count - last_int_count;

			if (noise > max_noise)
				max_noise = noise;
			if (!interference)
				hw_count++;
			sum_noise += noise;
			trace_sample_threshold(last_sample, noise, interference);
			if (stop_in && noise > stop_in && !stopped) {
				osnoise_stop_tracing();
				stopped = true;
			}
		}
		last_sample = sample;
		last_int_count = int_count;
		total = sample - start;
		if (stop_total && sum_noise > stop_total && !stopped) {
			osnoise_stop_tracing();
			stopped = true;
		}
	} while (total < runtime && !READ_ONCE(osn_var->stop));
	WRITE_ONCE(osn_var->sampling, false);
	barrier();
	if (irq_disable)
		local_irq_restore(flags);
	if (preempt_off)
		preempt_enable();

	s.runtime = total / NSEC_PER_USEC;
	s.noise = sum_noise / NSEC_PER_USEC;
	s.max_sample = max_noise / NSEC_PER_USEC;
	s.hw_count = hw_count;
	s.nmi_count = nmi_count() - nmi_start;
	s.irq_count = osn_var->irq_count - irq_start;
	s.softirq_count = 0; /* Lucid has no softirqs */
	s.thread_count = osn_var->thread_count - thread_start;
	trace_osnoise_sample(&s);
	notify_new_max_latency(max_noise);
}

/* Sleeps ms, or until asked to stop. */
static void osnoise_sleep(struct osnoise_variables *osn_var, long ms)
{
	set_current_state(TASK_INTERRUPTIBLE);
	if (!READ_ONCE(osn_var->stop))
		schedule_timeout(ms);
	set_current_state(TASK_RUNNING);
}

static int osnoise_main(void *arg)
{
	struct osnoise_variables *osn_var = arg;

	while (!READ_ONCE(osn_var->stop)) {
		uint64_t interval;

		run_osnoise(osn_var);
		interval = (READ_ONCE(osnoise_data.sample_period) -
			    READ_ONCE(osnoise_data.sample_runtime)) /
			   USEC_PER_MSEC;
		if (interval) /* else go on at once: preemption is on, others still get the CPU */
			osnoise_sleep(osn_var, (long)interval);
	}
	return 0;
}

/* --- the timerlat thread ---------------------------------------------------------------------- */

/*
 * The thread's timer, in hard irq on its CPU: how late the interrupt came (Linux's
 * timerlat_irq). Then the thread is woken, and measures how late it runs.
 */
static enum hrtimer_restart timerlat_irq(struct hrtimer *timer)
{
	struct osnoise_variables *osn_var =
		container_of(timer, struct osnoise_variables, tlat_timer);
	uint64_t now = time_get();
	uint64_t latency = now - osn_var->abs_period;
	uint64_t stop_in = READ_ONCE(osnoise_data.stop_tracing) * NSEC_PER_USEC;

	WRITE_ONCE(osn_var->tlat_armed, false);
	osn_var->tlat_count++;
	trace_timerlat_sample(osn_var->tlat_count, 0, latency);
	if (READ_ONCE(osnoise_data.print_stack))
		osn_var->stack_size = trace_save_stack(osn_var->stack, TIMERLAT_STACK_ENTRIES);
	if (stop_in && latency > stop_in) {
		osnoise_stop_tracing();
		if (READ_ONCE(osnoise_data.print_stack))
			timerlat_dump_stack(osn_var);
	}
	wake_up_process(osn_var->thread);
	return HRTIMER_NORESTART;
}

static int timerlat_main(void *arg)
{
	struct osnoise_variables *osn_var = arg;
	uint64_t now = time_get();

	hrtimer_init(&osn_var->tlat_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	osn_var->tlat_timer.function = timerlat_irq;
	osn_var->tlat_count = 0;
	osn_var->abs_period = now + READ_ONCE(osnoise_data.timerlat_period) * NSEC_PER_USEC;
	WRITE_ONCE(osn_var->sampling, true); /* the osnoise:* events of what delays the thread */
	while (!READ_ONCE(osn_var->stop)) {
		uint64_t period, latency, stop_total, print_stack;

		/* Asleep before the timer is queued: its wakeup cannot come before we sleep. */
		set_current_state(TASK_INTERRUPTIBLE);
		WRITE_ONCE(osn_var->tlat_armed, true);
		hrtimer_start(&osn_var->tlat_timer, osn_var->abs_period,
			      HRTIMER_MODE_ABS_PINNED_HARD);
		if (!READ_ONCE(osn_var->stop))
			schedule();
		set_current_state(TASK_RUNNING);
		if (READ_ONCE(osn_var->tlat_armed)) { /* woken to stop, not by the timer */
			hrtimer_cancel(&osn_var->tlat_timer);
			WRITE_ONCE(osn_var->tlat_armed, false);
			continue;
		}
		now = time_get();
		latency = now - osn_var->abs_period;
		trace_timerlat_sample(osn_var->tlat_count, 1, latency);
		notify_new_max_latency(latency);
		print_stack = READ_ONCE(osnoise_data.print_stack) * NSEC_PER_USEC;
		if (print_stack && latency >= print_stack)
			timerlat_dump_stack(osn_var);
		stop_total = READ_ONCE(osnoise_data.stop_tracing_total) * NSEC_PER_USEC;
		if (stop_total && latency > stop_total)
			osnoise_stop_tracing();
		/* The next period after now: the ones the latency overran are skipped. */
		period = READ_ONCE(osnoise_data.timerlat_period) * NSEC_PER_USEC;
		osn_var->abs_period += period;
		while (osn_var->abs_period <= now)
			osn_var->abs_period += period;
	}
	hrtimer_cancel(&osn_var->tlat_timer); /* its function runs nowhere once the thread ends */
	WRITE_ONCE(osn_var->sampling, false);
	return 0;
}

/* --- starting and stopping the threads (osnoise_lock held) ------------------------------------ */

static void stop_per_cpu_kthreads(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct osnoise_variables *osn_var = &osn_vars[cpu];

		WRITE_ONCE(osn_var->sampling, false);
		if (!osn_var->thread)
			continue;
		WRITE_ONCE(osn_var->stop, true);
		wake_up_process(osn_var->thread);
		kthread_join(osn_var->thread);
		osn_var->thread = NULL;
	}
}

static void osnoise_workload_stop(void)
{
	lockdep_assert_held(&osnoise_lock);
	if (!workload_running)
		return;
	stop_per_cpu_kthreads();
	osnoise_unhook_events();
	workload_running = false;
}

static int osnoise_workload_start(void)
{
	bool timerlat = osnoise_mode == OSN_MODE_TIMERLAT;
	int ret;

	lockdep_assert_held(&osnoise_lock);
	if (workload_running || osnoise_mode == OSN_MODE_NONE)
		return 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct osnoise_variables *osn_var = &osn_vars[cpu];

		memset(osn_var, 0, sizeof(*osn_var));
	}
	ret = osnoise_hook_events();
	if (ret) {
		osnoise_unhook_events();
		return ret;
	}
	workload_running = true;
	for (int cpu = 0; cpu < num_online_cpus(); cpu++) {
		struct osnoise_variables *osn_var = &osn_vars[cpu];
		char name[TASK_COMM_LEN];
		struct task *t;

		if (!(READ_ONCE(osnoise_data.cpus) & (1ULL << cpu)))
			continue;
		if (!timerlat && !osnoise_option(OSN_WORKLOAD)) {
			/*
			 * No thread: only the events of what runs there (Linux's
			 * NO_OSNOISE_WORKLOAD).
			 */
			WRITE_ONCE(osn_var->sampling, true);
			continue;
		}
		snprintf(name, sizeof(name), "%s/%d", timerlat ? "timerlat" : "osnoise", cpu);
		t = kthread_create_on_cpu(timerlat ? timerlat_main : osnoise_main, osn_var, cpu,
					  name);
		if (!t) {
			osnoise_workload_stop();
			return -ENOMEM;
		}
		if (timerlat)
			sched_set_policy(t, SCHED_FIFO, TIMERLAT_PRIO);
		osn_var->thread = t;
		wake_up_new_task(t);
	}
	return 0;
}

/* --- the tracers ------------------------------------------------------------------------------ */

static int osnoise_register_instance(struct trace_array *tr, enum osnoise_mode mode)
{
	int ret;

	mutex_lock(&osnoise_lock);
	if (osnoise_mode != OSN_MODE_NONE && osnoise_mode != mode) {
		mutex_unlock(&osnoise_lock);
		return -EBUSY; /* the other of osnoise and timerlat runs somewhere */
	}
	if (nr_osnoise_instances == OSNOISE_MAX_INSTANCES) {
		mutex_unlock(&osnoise_lock);
		return -ENOSPC;
	}
	/* The threads write to the list: it changes while they are stopped. */
	osnoise_workload_stop();
	osnoise_instances[nr_osnoise_instances++] = tr;
	osnoise_mode = mode;
	tr->max_latency = 0;
	ret = osnoise_workload_start();
	if (ret) {
		osnoise_instances[--nr_osnoise_instances] = NULL;
		if (!nr_osnoise_instances)
			osnoise_mode = OSN_MODE_NONE;
		else
			osnoise_workload_start();
	}
	mutex_unlock(&osnoise_lock);
	return ret;
}

static void osnoise_unregister_instance(struct trace_array *tr)
{
	mutex_lock(&osnoise_lock);
	osnoise_workload_stop();
	for (int i = 0; i < nr_osnoise_instances; i++) {
		if (osnoise_instances[i] != tr)
			continue;
		osnoise_instances[i] = osnoise_instances[--nr_osnoise_instances];
		osnoise_instances[nr_osnoise_instances] = NULL;
		break;
	}
	if (nr_osnoise_instances)
		osnoise_workload_start();
	else
		osnoise_mode = OSN_MODE_NONE;
	mutex_unlock(&osnoise_lock);
}

/* tracing_on 0 stops the threads, 1 starts them again (Linux's osnoise_tracer_start/stop). */
static void osnoise_tracer_start(struct trace_array *tr)
{
	(void)tr;
	mutex_lock(&osnoise_lock);
	osnoise_workload_start();
	mutex_unlock(&osnoise_lock);
}

static void osnoise_tracer_stop(struct trace_array *tr)
{
	(void)tr;
	mutex_lock(&osnoise_lock);
	osnoise_workload_stop();
	mutex_unlock(&osnoise_lock);
}

static int osnoise_tracer_init(struct trace_array *tr)
{
	return osnoise_register_instance(tr, OSN_MODE_OSNOISE);
}

static int timerlat_tracer_init(struct trace_array *tr)
{
	return osnoise_register_instance(tr, OSN_MODE_TIMERLAT);
}

/*
 * The columns: Linux 6.1's (its "%% OF CPU" too, printed as it is), for Lucid's lines: four
 * flag columns where Linux has five (seven with PREEMPT_RT), the pid in "-%-5d".
 */
static void print_osnoise_headers(struct trace_iterator *iter)
{
	struct trace_seq *s = &iter->seq;

	/* clang-format off */
	trace_seq_puts(s, "#                              _-----=> irqs-off\n");
	trace_seq_puts(s, "#                             / _----=> need-resched\n");
	trace_seq_puts(s, "#                            | / _---=> hardirq/softirq\n");
	trace_seq_puts(s, "#                            || / _--=> preempt-depth\n");
	trace_seq_puts(s, "#                            ||| /                           "
			  "                    MAX\n");
	trace_seq_puts(s, "#                            ||||                            "
			  "                 SINGLE      Interference counters:\n");
	trace_seq_puts(s, "#                            ||||               RUNTIME      "
			  "NOISE  %% OF CPU  NOISE    +-----------------------------+\n");
	trace_seq_puts(s, "#           TASK-PID    CPU# ||||   TIMESTAMP    IN US       "
			  "IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n");
	trace_seq_puts(s, "#              | |       |   ||||      |           |             "
			  "|    |            |      |      |      |      |      |\n");
	/* clang-format on */
}

static void print_timerlat_headers(struct trace_iterator *iter)
{
	struct trace_seq *s = &iter->seq;

	/* clang-format off */
	trace_seq_puts(s, "#                              _-----=> irqs-off\n");
	trace_seq_puts(s, "#                             / _----=> need-resched\n");
	trace_seq_puts(s, "#                            | / _---=> hardirq/softirq\n");
	trace_seq_puts(s, "#                            || / _--=> preempt-depth\n");
	trace_seq_puts(s, "#                            ||| /\n");
	trace_seq_puts(s, "#                            ||||             ACTIVATION\n");
	trace_seq_puts(s, "#           TASK-PID    CPU# ||||   TIMESTAMP    ID            "
			  "CONTEXT                LATENCY\n");
	trace_seq_puts(s, "#              | |       |   ||||      |         |                  "
			  "|                       |\n");
	/* clang-format on */
}

static struct tracer timerlat_tracer = {
	.name = "timerlat",
	.init = timerlat_tracer_init,
	.reset = osnoise_unregister_instance,
	.start = osnoise_tracer_start,
	.stop = osnoise_tracer_stop,
	.print_header = print_timerlat_headers,
	.allow_instances = true,
};
REGISTER_TRACER(timerlat_tracer);

static struct tracer osnoise_tracer = {
	.name = "osnoise",
	.init = osnoise_tracer_init,
	.reset = osnoise_unregister_instance,
	.start = osnoise_tracer_start,
	.stop = osnoise_tracer_stop,
	.print_header = print_osnoise_headers,
	.allow_instances = true,
};
REGISTER_TRACER(osnoise_tracer);

/* --- the lines (Linux's trace_osnoise_print, trace_timerlat_print) ---------------------------- */

static enum print_line_t trace_osnoise_print(struct trace_iterator *iter, unsigned int flags,
					     struct trace_event *event)
{
	struct osnoise_entry *field = (struct osnoise_entry *)iter->ent;
	struct trace_seq *s = &iter->seq;
	/* The CPU left to the thread, in hundred-thousandths of a percent: "99.90840". */
	uint64_t net = field->runtime - field->noise;
	uint64_t ratio = field->runtime ? net * 10000000 / field->runtime : 0;

	(void)flags, (void)event;
	trace_seq_printf(s, "%llu %10llu %3llu.%05llu %7llu", (unsigned long long)field->runtime,
			 (unsigned long long)field->noise, (unsigned long long)(ratio / 100000),
			 (unsigned long long)(ratio % 100000),
			 (unsigned long long)field->max_sample);
	trace_seq_printf(s, " %6u", field->hw_count);
	trace_seq_printf(s, " %6u", field->nmi_count);
	trace_seq_printf(s, " %6u", field->irq_count);
	trace_seq_printf(s, " %6u", field->softirq_count);
	trace_seq_printf(s, " %6u\n", field->thread_count);
	return trace_handle_return(s);
}

static enum print_line_t trace_timerlat_print(struct trace_iterator *iter, unsigned int flags,
					      struct trace_event *event)
{
	struct timerlat_entry *field = (struct timerlat_entry *)iter->ent;

	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, "#%-5u context %6s timer_latency %9llu ns\n", field->seqnum,
			 field->context ? "thread" : "irq",
			 (unsigned long long)field->timer_latency);
	return trace_handle_return(&iter->seq);
}

/* The lines' printers, by record type (as the wakeup tracers' TRACE_CTX, TRACE_WAKE). */
static struct trace_event trace_osnoise_event = {.type = TRACE_OSNOISE,
						 .trace = trace_osnoise_print};
static struct trace_event trace_timerlat_event = {.type = TRACE_TIMERLAT,
						  .trace = trace_timerlat_print};

/* events/ftrace/osnoise and timerlat: the records' layout for tools (rtla reads them). */
static const struct trace_event_field osnoise_fields[] = {
	OSNOISE_FIELD_U64(struct osnoise_entry, noise),
	OSNOISE_FIELD_U64(struct osnoise_entry, runtime),
	OSNOISE_FIELD_U64(struct osnoise_entry, max_sample),
	TRACE_FIELD(struct osnoise_entry, unsigned int, hw_count),
	TRACE_FIELD(struct osnoise_entry, unsigned int, nmi_count),
	TRACE_FIELD(struct osnoise_entry, unsigned int, irq_count),
	TRACE_FIELD(struct osnoise_entry, unsigned int, softirq_count),
	TRACE_FIELD(struct osnoise_entry, unsigned int, thread_count),
	TRACE_FIELD_END,
};

struct trace_event_call event_ftrace_osnoise = {
	.system = "ftrace",
	.name = "osnoise",
	.fields = osnoise_fields,
	.size = sizeof(struct osnoise_entry),
	/* clang-format off */
	.print_fmt = TRACE_PRINT_FMT(
		"noise:%llu\tmax_sample:%llu\thw:%u\tnmi:%u\tirq:%u\tsoftirq:%u\tthread:%u",
		REC->noise, REC->max_sample, REC->hw_count, REC->nmi_count, REC->irq_count,
		REC->softirq_count, REC->thread_count),
	/* clang-format on */
	.event = {.type = TRACE_OSNOISE},
	.flags = TRACE_EVENT_FL_IGNORE_ENABLE,
};
REGISTER_TRACE_EVENT(event_ftrace_osnoise);

static const struct trace_event_field timerlat_fields[] = {
	TRACE_FIELD(struct timerlat_entry, unsigned int, seqnum),
	TRACE_FIELD(struct timerlat_entry, int, context),
	OSNOISE_FIELD_U64(struct timerlat_entry, timer_latency),
	TRACE_FIELD_END,
};

struct trace_event_call event_ftrace_timerlat = {
	.system = "ftrace",
	.name = "timerlat",
	.fields = timerlat_fields,
	.size = sizeof(struct timerlat_entry),
	.print_fmt = TRACE_PRINT_FMT("seq:%u\tcontext:%d\ttimer_latency:%llu", REC->seqnum,
				     REC->context, REC->timer_latency),
	.event = {.type = TRACE_TIMERLAT},
	.flags = TRACE_EVENT_FL_IGNORE_ENABLE,
};
REGISTER_TRACE_EVENT(event_ftrace_timerlat);

/* --- the osnoise/ files ----------------------------------------------------------------------- */

/*
 * A number file with bounds (Linux's trace_min_max_param): a value or another setting's
 * (runtime_us is at most period_us, and period_us at least runtime_us). Out of them: EINVAL.
 */
ssize_t osnoise_param_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct osnoise_param *p = file_inode(file)->i_private;

	return tracing_read_ulong(ppos, ubuf, cnt, (unsigned long)READ_ONCE(*p->val));
}

ssize_t osnoise_param_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct osnoise_param *p = file_inode(file)->i_private;
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(p->lock);
	if ((p->min_ptr && val < *p->min_ptr) || val < p->min ||
	    (p->max_ptr && val > *p->max_ptr) || (p->max && val > p->max)) {
		mutex_unlock(p->lock);
		return -EINVAL;
	}
	WRITE_ONCE(*p->val, val);
	mutex_unlock(p->lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations osnoise_param_fops = {
	.read = osnoise_param_read,
	.write = osnoise_param_write,
};

static const struct osnoise_param osnoise_period = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.sample_period,
	.min_ptr = &osnoise_data.sample_runtime,
};
static const struct osnoise_param osnoise_runtime = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.sample_runtime,
	.min = MIN_SAMPLE_RUNTIME_US,
	.max_ptr = &osnoise_data.sample_period,
};
static const struct osnoise_param osnoise_stop_tracing_in = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.stop_tracing,
};
static const struct osnoise_param osnoise_stop_tracing_total = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.stop_tracing_total,
};
static const struct osnoise_param osnoise_print_stack = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.print_stack,
};
static const struct osnoise_param timerlat_period = {
	.lock = &osnoise_lock,
	.val = &osnoise_data.timerlat_period,
	.min = MIN_TIMERLAT_PERIOD_US,
	.max = MAX_TIMERLAT_PERIOD_US,
};

/*
 * osnoise/cpus: a CPU list, "0-1" or "0,1", parsed as Linux's bitmap_parselist: blanks and
 * commas between regions, nothing at all is the empty list; a number past UINT_MAX is
 * EOVERFLOW, a CPU past the last ERANGE, anything else EINVAL. Running threads move to the
 * new set at once.
 */
static int cpulist_getnum(char **p, unsigned int *num)
{
	unsigned long long n = 0;
	char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > UINT_MAX)
			continue; /* already too big: read the digits to the end */
		n = n * 10 + (unsigned long long)(*s - '0');
	}
	if (n > UINT_MAX)
		return -EOVERFLOW;
	*num = (unsigned int)n;
	*p = s;
	return 0;
}

static bool cpulist_end_of_region(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

static int osnoise_cpulist_parse(char *s, uint64_t *mask)
{
	*mask = 0;
	for (;;) {
		unsigned int first, last;
		int ret;

		while (*s && cpulist_end_of_region(*s))
			s++;
		if (!*s)
			return 0;
		ret = cpulist_getnum(&s, &first);
		if (ret)
			return ret;
		last = first;
		if (*s == '-') {
			s++;
			ret = cpulist_getnum(&s, &last);
			if (ret)
				return ret;
		}
		if (*s && !cpulist_end_of_region(*s))
			return -EINVAL;
		if (last < first)
			return -EINVAL;
		if (last >= (unsigned int)num_online_cpus())
			return -ERANGE;
		for (unsigned int c = first; c <= last; c++)
			*mask |= 1ULL << c;
	}
}

static ssize_t osnoise_cpus_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	uint64_t mask = READ_ONCE(osnoise_data.cpus);
	char buf[NR_CPUS * 4 + 2];
	size_t len = 0;

	(void)file;
	for (int c = 0; c < num_online_cpus(); c++) {
		int last = c;

		if (!(mask & (1ULL << c)))
			continue;
		while (last + 1 < num_online_cpus() && (mask & (1ULL << (last + 1))))
			last++;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, len ? ",%d" : "%d", c);
		if (last > c)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "-%d", last);
		c = last;
	}
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t osnoise_cpus_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[NR_CPUS * 4 + 2];
	uint64_t mask;
	int ret;

	(void)file;
	if (cnt >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	ret = osnoise_cpulist_parse(buf, &mask);
	if (ret)
		return ret;
	mutex_lock(&osnoise_lock);
	if (workload_running) {
		osnoise_workload_stop();
		WRITE_ONCE(osnoise_data.cpus, mask);
		osnoise_workload_start();
	} else {
		WRITE_ONCE(osnoise_data.cpus, mask);
	}
	mutex_unlock(&osnoise_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations osnoise_cpus_fops = {
	.read = osnoise_cpus_read,
	.write = osnoise_cpus_write,
};

/*
 * osnoise/options: "DEFAULTS OSNOISE_WORKLOAD NO_PANIC_ON_STOP ..." (NO_ for those off). A
 * write sets one (NAME), clears it (NO_NAME) or restores them all (DEFAULTS); running threads
 * restart with it. Anything else is EINVAL.
 */
static ssize_t osnoise_options_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	unsigned long options = READ_ONCE(osnoise_data.options);
	char buf[256];
	size_t len = 0;

	(void)file;
	for (int i = 0; i < OSN_MAX; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s ",
					i == OSN_DEFAULTS || (options & (1UL << i)) ? "" : "NO_",
					osnoise_options_str[i]);
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t osnoise_options_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[64], *name;
	bool enable = true, running;
	int opt = -1;

	(void)file;
	if (tracing_copy_write(buf, sizeof(buf), ubuf, cnt))
		return -EINVAL;
	name = strim(buf);
	if (!strncmp(name, "NO_", 3)) {
		enable = false;
		name += 3;
	}
	for (int i = 0; i < OSN_MAX; i++)
		if (!strcmp(name, osnoise_options_str[i]))
			opt = i;
	if (opt < 0 || (opt == OSN_DEFAULTS && !enable))
		return -EINVAL;
	mutex_lock(&osnoise_lock);
	running = workload_running;
	osnoise_workload_stop();
	if (opt == OSN_DEFAULTS)
		osnoise_data.options = OSN_DEFAULT_OPTIONS;
	else if (enable)
		osnoise_data.options |= 1UL << opt;
	else
		osnoise_data.options &= ~(1UL << opt);
	if (running)
		osnoise_workload_start();
	mutex_unlock(&osnoise_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations osnoise_options_fops = {
	.read = osnoise_options_read,
	.write = osnoise_options_write,
};

void osnoise_init_tracefs(void)
{
	static const struct {
		const char *name;
		const struct osnoise_param *param;
	} params[] = {
		{"period_us", &osnoise_period},
		{"runtime_us", &osnoise_runtime},
		{"stop_tracing_us", &osnoise_stop_tracing_in},
		{"stop_tracing_total_us", &osnoise_stop_tracing_total},
		{"print_stack", &osnoise_print_stack},
		{"timerlat_period_us", &timerlat_period},
	};
	struct dentry *dir = tracefs_create_dir("osnoise", NULL);
	bool ok = dir;

	register_trace_event(&trace_osnoise_event);
	register_trace_event(&trace_timerlat_event);

	for (size_t i = 0; ok && i < ARRAY_SIZE(params); i++)
		ok = tracefs_create_file(params[i].name, TRACE_MODE_WRITE, dir,
					 (void *)params[i].param, &osnoise_param_fops);
	ok = ok && tracefs_create_file("cpus", TRACE_MODE_WRITE, dir, NULL, &osnoise_cpus_fops);
	ok = ok &&
	     tracefs_create_file("options", TRACE_MODE_WRITE, dir, NULL, &osnoise_options_fops);
	if (!ok)
		printk(KERN_ERR "osnoise: cannot create its files\n");
}

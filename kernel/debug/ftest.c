/*
 * `ftest`: small functions that exist to be traced, so a student (and the tests) can see exactly
 * what the tracers record for a call chain they know. /bin/ftest writes its arguments to
 * /sys/kernel/debug/ftest (kernel/debug/debugfs_cmd.c), and the calls run in its write(2):
 *
 *   ftest call       ftest_outer -> ftest_mid -> ftest_leaf, three times
 *   ftest delay N    ftest_delay busy-waits N microseconds
 *   ftest stack      ftest_stack -> ftest_stack_deep, 12 frames of 256+ bytes each
 *   ftest deep N     ftest_deep calls itself, N deep: past the graph tracer's return stack
 *   ftest printk [N] ftest_printk: trace_printk("ftrace test %d\n", 42), N times (1)
 *   ftest off        ftest_off: ftest_leaf, tracing_off(), ftest_leaf again
 *   ftest tick N     the next N timer ticks (any CPU) each do a trace_printk, in hard irq
 *
 * They are noinline and do a little real work, so the compiler keeps each one a real function
 * with its own call site.
 */
#include "kernel/debug/ftest.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/cputime.h"
#include "kernel/sched/preempt.h"
#include "kernel/percpu.h"
#include "arch/x86_64/idt.h"
#include "lib/time64.h"
#include "trace/trace.h"
#include "trace/trace_printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/kstrtox.h"

#define FTEST_CALL_REPEAT 3
#define FTEST_DELAY_MAX_US 10000000
#define FTEST_PRINTK_MAX 100000 /* a few buffers' worth: enough to watch it wrap */

static volatile unsigned long ftest_sink; /* results go here, so the work is not optimized away */

noinline unsigned long ftest_leaf(unsigned long x)
{
	ftest_sink += x;
	return x * 3 + 1;
}

noinline unsigned long ftest_mid(unsigned long x)
{
	return ftest_leaf(x + 1) + 1;
}

noinline unsigned long ftest_outer(unsigned long x)
{
	return ftest_mid(x * 2) + 2;
}

/*
 * A delay of two ticks or more also waits, bounded, until two timer interrupts have come on its
 * CPU: what it is for is to show the ticks that land inside a traced call (the tutorial), and on
 * a loaded host this vCPU can be held off for the whole delay, its tick delivered only after.
 */
#define FTEST_DELAY_TICKS 2
#define FTEST_DELAY_TICKS_US (FTEST_DELAY_TICKS * TICK_NSEC / NSEC_PER_USEC)

noinline void ftest_delay(unsigned long us)
{
	unsigned long ticks;
	uint64_t deadline;

	if (us < FTEST_DELAY_TICKS_US) {
		udelay(us);
		return;
	}
	preempt_disable(); /* the ticks counted are this CPU's */
	ticks = READ_ONCE(this_cpu()->irq_count[VEC_TIMER]);
	deadline = ktime_get_ns() + FTEST_DELAY_MAX_US * NSEC_PER_USEC;
	udelay(us);
	while (READ_ONCE(this_cpu()->irq_count[VEC_TIMER]) - ticks < FTEST_DELAY_TICKS &&
	       ktime_get_ns() < deadline)
		cpu_relax();
	preempt_enable();
}

#define FTEST_STACK_DEPTH 12
#define FTEST_STACK_FRAME 256

/* A deliberately deep call chain, each frame with a buffer: something for the stack tracer. */
noinline unsigned long ftest_stack_deep(int depth)
{
	volatile char frame[FTEST_STACK_FRAME];
	frame[0] = (char)depth;
	if (depth <= 1)
		return frame[0];
	return ftest_stack_deep(depth - 1) + frame[0];
}

noinline unsigned long ftest_stack(void)
{
	return ftest_stack_deep(FTEST_STACK_DEPTH);
}

#define FTEST_DEEP_MAX 200 /* small frames: 200 of them fit a kernel stack many times over */

/*
 * A call chain n deep, for the function graph tracer's return stack (FTRACE_RETFUNC_DEPTH
 * entries): the calls below it are not hooked, and counted as overruns. The work after the
 * call keeps the compiler from turning the recursion into a loop.
 */
noinline unsigned long ftest_deep(unsigned long n)
{
	unsigned long r = n ? ftest_deep(n - 1) : 0;

	ftest_sink += r;
	return r + 1;
}

/* trace_printk from ordinary code: "ftest_printk: ftrace test 42" in the trace. */
noinline void ftest_printk(void)
{
	trace_printk("ftrace test %d\n", 42);
}

/*
 * Stopping the trace from inside: the first ftest_leaf is recorded, the second is not. Its
 * callback still runs (the function tracer does not know recording is off); it just finds the
 * ring buffer off. Hence the trace ends exactly at the tracing_off().
 */
noinline void ftest_off(void)
{
	ftest_sink += ftest_leaf(1);
	tracing_off();
	ftest_sink += ftest_leaf(2);
}

#define FTEST_TICK_MAX 10000
#define FTEST_TICK_WAIT_MS 10
#define FTEST_TICK_TIMEOUT_MS 30000

static int ftest_tick_left; /* trace_printk calls the timer ticks still owe `ftest tick` */

/*
 * Called by every timer interrupt (kernel/time/timer.c): trace_printk in hard irq context, while
 * whatever it interrupted may be in the middle of recording an event itself. Each tick that
 * wins the compare-and-swap prints once, so exactly N lines appear however many CPUs tick.
 * notrace: it runs on every tick of every CPU, and would crowd a function trace of ftest_*.
 */
notrace void ftest_tick(void)
{
	int left = READ_ONCE(ftest_tick_left);

	if (likely(left <= 0))
		return;
	if (__atomic_compare_exchange_n(&ftest_tick_left, &left, left - 1, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		trace_printk("ftest tick %d\n", left);
}

/* Waits (bounded) until the ticks have done all of them. 0, -ETIMEDOUT, -EINTR after Ctrl-C. */
static int ftest_tick_run(int n, struct debugfs_cmd_output *out)
{
	__atomic_store_n(&ftest_tick_left, n, __ATOMIC_RELAXED);
	for (int ms = 0; ms < FTEST_TICK_TIMEOUT_MS; ms += FTEST_TICK_WAIT_MS) {
		if (__atomic_load_n(&ftest_tick_left, __ATOMIC_RELAXED) <= 0)
			return 0;
		if (msleep_interruptible(FTEST_TICK_WAIT_MS)) {
			__atomic_store_n(&ftest_tick_left, 0, __ATOMIC_RELAXED); /* no more */
			return -EINTR;
		}
	}
	__atomic_store_n(&ftest_tick_left, 0, __ATOMIC_RELAXED);
	cmd_printf(out, "ftest: the ticks did not come\n");
	return -ETIMEDOUT;
}

static int cmd_ftest(int argc, char **argv, struct debugfs_cmd_output *out)
{
	if (argc == 2 && !strcmp(argv[1], "call")) {
		for (int i = 0; i < FTEST_CALL_REPEAT; i++)
			ftest_sink += ftest_outer(i);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "stack")) {
		ftest_sink += ftest_stack();
		return 0;
	}
	unsigned long n = 1;
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "printk") &&
	    (argc == 2 || (!kstrtoul(argv[2], 10, &n) && n <= FTEST_PRINTK_MAX))) {
		while (n--)
			ftest_printk();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "off")) {
		ftest_off();
		return 0;
	}
	unsigned long us;
	if (argc == 3 && !strcmp(argv[1], "delay") && !kstrtoul(argv[2], 10, &us) &&
	    us <= FTEST_DELAY_MAX_US) {
		ftest_delay(us);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "deep") && !kstrtoul(argv[2], 10, &n) && n >= 1 &&
	    n <= FTEST_DEEP_MAX) {
		ftest_sink += ftest_deep(n - 1); /* n calls in all */
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "tick") && !kstrtoul(argv[2], 10, &n) &&
	    n <= FTEST_TICK_MAX)
		return ftest_tick_run((int)n, out);
	cmd_printf(out, "usage: ftest call | ftest delay MICROSECONDS | ftest stack | "
			"ftest deep N | ftest printk [N] | ftest off | ftest tick N\n");
	return -EINVAL;
}

static const struct debugfs_cmd ftest_debugfs = {"ftest", cmd_ftest};

/*
 * notrace: boot-time setup, not one of the functions to trace, and `ftest*` in
 * set_ftrace_filter must give exactly those (Linux drops its __init functions from ftrace).
 */
notrace void ftest_init(void)
{
	debugfs_create_cmd(&ftest_debugfs);
}

/*
 * `crash`: break the kernel on purpose, to see what an oops looks like (and, with the tracer,
 * which functions led to it). Each way of crashing is its own small function, so that the oops's
 * backtrace names it.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/panic.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/lockdep.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/spinlock.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "lib/string.h"

#pragma GCC diagnostic ignored "-Winfinite-recursion" /* crash_stack recurses forever on purpose */

#define STACK_EATER_BYTES 512

static noinline void crash_null(void)
{
	*(volatile int *)NULL = 1;
}

/* In asm: for 1 / x in C, gcc is clever enough to avoid the divide instruction altogether. */
static noinline void crash_divzero(void)
{
	__asm__ __volatile__("xorl %%ecx, %%ecx\n\t"
			     "movl $1, %%eax\n\t"
			     "cltd\n\t"
			     "idivl %%ecx"
			     :
			     :
			     : "eax", "ecx", "edx");
}

static noinline void crash_ud(void)
{
	__asm__ __volatile__("ud2");
}

static noinline void crash_panic(void)
{
	panic("crash: panic requested from the shell");
}

/* Each call eats another frame until the stack runs into its guard page. */
static noinline int crash_stack(int depth)
{
	volatile char frame[STACK_EATER_BYTES];
	frame[0] = (char)depth;
	return crash_stack(depth + 1) + frame[0];
}

/* Signed overflow is undefined in C: with UBSAN=1 the check before the add reports it. */
static noinline void crash_ubsan(void)
{
	volatile int big = __INT_MAX__;
	volatile int sum;

	sum = big + 1;
	(void)sum;
}

/*
 * Write one word past a local array: over the stack protector's canary, which gcc places right
 * above the arrays, and no further, so the backtrace through the saved frame pointer stays
 * intact. memset, not a loop, so that in a UBSAN=1 kernel the bounds check does not catch the
 * overrun first.
 */
static noinline void crash_canary(void)
{
	char buf[16];
	volatile size_t n = sizeof(buf) + sizeof(unsigned long);

	memset(buf, 'A', n);
}

/* Kernel text is mapped read-only, so writing to a function faults (CR0.WP: even the kernel). */
static noinline void crash_wtext(void)
{
	*(volatile unsigned char *)(void *)crash_wtext = 0xc3;
}

/* The direct map's view of the same text is read-only too: only text_poke's alias may write. */
static noinline void crash_wtext_direct(void)
{
	*(volatile unsigned char *)__va(__pa((void *)crash_wtext_direct)) = 0xc3;
}

/* Data is mapped no-execute: calling into it faults on the first instruction fetch. */
static unsigned char data_ret[] = {0xc3}; /* "ret", in .data */

static noinline void crash_jmpdata(void)
{
	((void (*)(void))(void *)data_ret)();
	barrier(); /* not a tail call (a jmp): this function stays in the backtrace */
}

/* Spin with preemption off: the CPU takes its ticks but can never schedule. */
static noinline void crash_lockup(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

/* Not a crash: a WARN reports and the kernel goes on (traceoff_on_warning stops the trace). */
static noinline void crash_warn(void)
{
	volatile bool broken = true;

	WARN_ON(broken);
}

/*
 * Not a crash either: each check of kernel/sched/lockdep.h once with its condition kept, which must
 * say nothing, then once with it broken, which WARNs (a WARN_ON_ONCE: first, or it would be
 * silenced). The checks that only the debug and UBSAN builds compile in say nothing elsewhere.
 */
static DEFINE_MUTEX(crash_mutex);
static DEFINE_SPINLOCK(crash_spinlock);

static noinline void crash_lockdep_mutex(void)
{
	lockdep_assert_held(&crash_mutex);
}

static noinline void crash_lockdep_spinlock(void)
{
	lockdep_assert_held(&crash_spinlock);
}

static noinline void crash_lockdep_irqs(void)
{
	lockdep_assert_irqs_disabled();
}

static noinline void crash_lockdep_preemption(void)
{
	lockdep_assert_preemption_disabled();
}

static noinline void crash_lockdep(void)
{
	mutex_lock(&crash_mutex);
	crash_lockdep_mutex();
	mutex_unlock(&crash_mutex);
	unsigned long flags = spin_lock_irqsave(&crash_spinlock);
	crash_lockdep_spinlock();
	crash_lockdep_irqs();
	crash_lockdep_preemption();
	spin_unlock_irqrestore(&crash_spinlock, flags);

	crash_lockdep_mutex();
	crash_lockdep_spinlock();
	crash_lockdep_irqs();
	crash_lockdep_preemption();
}

/* What a crash needs that this kernel may have been built without (NULL: nothing). */
#ifdef CONFIG_UBSAN
#define NEEDS_UBSAN NULL
#else
#define NEEDS_UBSAN "UBSAN (make UBSAN=1)"
#endif
#ifdef CONFIG_STACKPROTECTOR
#define NEEDS_STACKPROTECTOR NULL
#else
#define NEEDS_STACKPROTECTOR "the stack protector (make STACKPROTECTOR=1)"
#endif

static const struct {
	const char *name;
	void (*fn)(void);
	const char *needs;
} crashes[] = {
	{"null", crash_null, NULL},
	{"divzero", crash_divzero, NULL},
	{"ud", crash_ud, NULL},
	{"panic", crash_panic, NULL},
	{"lockup", crash_lockup, NULL},
	{"ubsan", crash_ubsan, NEEDS_UBSAN},
	{"canary", crash_canary, NEEDS_STACKPROTECTOR},
	{"wtext", crash_wtext, NULL},
	{"wtext_direct", crash_wtext_direct, NULL},
	{"jmpdata", crash_jmpdata, NULL},
	{"warn", crash_warn, NULL},
	{"lockdep", crash_lockdep, NULL},
};

#define CRASH_NAMES \
	"null|divzero|ud|panic|stack|lockup|ubsan|canary|wtext|wtext_direct|jmpdata|warn|lockdep"

static int cmd_crash(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "stack"))
		return crash_stack(0);
	for (size_t i = 0; argc == 2 && i < ARRAY_SIZE(crashes); i++) {
		if (strcmp(argv[1], crashes[i].name))
			continue;
		if (crashes[i].needs) {
			dprintf(STDERR_FILENO, "crash: %s: this kernel was built without %s\n",
				argv[1], crashes[i].needs);
			return 1;
		}
		crashes[i].fn();
		return 0;
	}
	dprintf(STDERR_FILENO, "usage: crash " CRASH_NAMES "\n");
	return 2;
}
SHELL_CMD("crash", "crash the kernel on purpose: crash " CRASH_NAMES, cmd_crash);

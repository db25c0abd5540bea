/*
 * lkdtm, the Linux Kernel Dump Test Module's interface: break the kernel on purpose, to see what
 * an oops looks like (and, with the tracer, which functions led to it).
 *
 *   cat /sys/kernel/debug/provoke-crash/DIRECT          the crash types, one a line
 *   echo ACCESS_NULL > /sys/kernel/debug/provoke-crash/DIRECT   runs one, in the writer's context
 *
 * As Linux's drivers/misc/lkdtm/core.c (direct_entry): the name is trimmed and looked up, an
 * unknown one is -EINVAL with nothing done, a known one is logged ("Performing direct entry
 * NAME") and run by lkdtm_do_action() in the write(2) itself, under the writer's pid. The names
 * are lkdtm's where lkdtm has the same crash; DIVIDE_ERROR, WRITE_KERN_DIRECT, LOCKDEP and
 * PREEMPT_LEAK are Lucid's own, and NULL is a short alias for ACCESS_NULL. Each crash is its own
 * small function named lkdtm_TYPE as Linux's, so that the oops's backtrace names it.
 *
 * A type that needs what this kernel was built without (UBSAN, the stack protector) does what
 * lkdtm does: says so at KERN_ERR, "XFAIL: ...", runs nothing and the write succeeds.
 */
#include "kernel/debug/lkdtm.h"
#include "kernel/fs/debugfs.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

/* EXHAUST_STACK recurses forever on purpose. */
#pragma GCC diagnostic ignored "-Winfinite-recursion"

#define STACK_EATER_BYTES 512
#define LKDTM_WRITE_MAX 64 /* bytes of a name written to DIRECT: the longest, and room to spare */
#define LKDTM_LIST_MAX 1024 /* bytes of DIRECT's list of names */

/* Writes to page 0, which is never mapped: Linux's ACCESS_NULL tries a read first, then this. */
static noinline void lkdtm_ACCESS_NULL(void)
{
	*(volatile int *)NULL = 1;
}

/* Lucid's own: #DE. In asm: for 1 / x in C, gcc is clever enough to avoid the divide altogether. */
static noinline void lkdtm_DIVIDE_ERROR(void)
{
	__asm__ __volatile__("xorl %%ecx, %%ecx\n\t"
			     "movl $1, %%eax\n\t"
			     "cltd\n\t"
			     "idivl %%ecx"
			     :
			     :
			     : "eax", "ecx", "edx");
}

/*
 * Linux's BUG() is a ud2, which its #UD handler reports as "kernel BUG at ..." followed by the
 * invalid opcode oops. Lucid's BUG() panics without trapping, so the ud2 itself is done here:
 * the invalid opcode oops.
 */
static noinline void lkdtm_BUG(void)
{
	__asm__ __volatile__("ud2");
}

static noinline void lkdtm_PANIC(void)
{
	panic("dumptest");
}

/*
 * Each call eats another frame until the stack runs into its guard page. noipa: gcc would
 * otherwise make a clone of it (lkdtm_recursive_loop.isra.0), a name the backtrace would show.
 */
static noinline __attribute__((noipa)) int lkdtm_recursive_loop(int depth)
{
	volatile char frame[STACK_EATER_BYTES];

	frame[0] = (char)depth;
	return lkdtm_recursive_loop(depth + 1) + frame[0];
}

static noinline void lkdtm_EXHAUST_STACK(void)
{
	lkdtm_recursive_loop(0);
	barrier(); /* not a tail call: this function stays in the backtrace */
}

/* Signed overflow is undefined in C: with UBSAN=1 the check before the add reports it. */
static noinline void lkdtm_OVERFLOW_SIGNED(void)
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
static noinline void lkdtm_CORRUPT_STACK(void)
{
	char buf[16];
	volatile size_t n = sizeof(buf) + sizeof(unsigned long);

	memset(buf, 'A', n);
}

/* Kernel text is mapped read-only, so writing to a function faults (CR0.WP: even the kernel). */
static noinline void lkdtm_WRITE_KERN(void)
{
	*(volatile unsigned char *)(void *)lkdtm_WRITE_KERN = 0xc3;
}

/* Lucid's own: the direct map's view of the text is read-only too (only text_poke's may write). */
static noinline void lkdtm_WRITE_KERN_DIRECT(void)
{
	*(volatile unsigned char *)__va(__pa((void *)lkdtm_WRITE_KERN_DIRECT)) = 0xc3;
}

/* Data is mapped no-execute: calling into it faults on the first instruction fetch. */
static unsigned char data_area[] = {0xc3}; /* "ret", in .data */

static noinline void lkdtm_EXEC_DATA(void)
{
	((void (*)(void))(void *)data_area)();
	barrier(); /* not a tail call (a jmp): this function stays in the backtrace */
}

/* Spin with preemption off: the CPU takes its ticks but can never schedule. */
static noinline void lkdtm_SOFTLOCKUP(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

/*
 * Spin with interrupts off: the CPU takes no tick and no IPI, so the next CPU that waits for
 * it (smp_call_function) gives up after its timeout and shows where it is by NMI.
 */
static noinline void lkdtm_HARDLOCKUP(void)
{
	local_irq_disable();
	for (;;)
		cpu_relax();
}

/* Not a crash: a WARN reports and the kernel goes on (traceoff_on_warning stops the trace). */
static noinline void lkdtm_WARNING(void)
{
	volatile bool broken = true;

	WARN_ON(broken);
}

/*
 * Lucid's own, and not a crash either: each check of kernel/locking/lockdep.h once with its
 * condition kept, which must say nothing, then once with it broken, which WARNs (a WARN_ON_ONCE:
 * first, or it would be silenced). The checks that only the debug and UBSAN builds compile in
 * say nothing elsewhere.
 */
static DEFINE_MUTEX(lkdtm_mutex);
static DEFINE_SPINLOCK(lkdtm_spinlock);

static noinline void lkdtm_lockdep_mutex(void)
{
	lockdep_assert_held(&lkdtm_mutex);
}

static noinline void lkdtm_lockdep_spinlock(void)
{
	lockdep_assert_held(&lkdtm_spinlock);
}

static noinline void lkdtm_lockdep_irqs(void)
{
	lockdep_assert_irqs_disabled();
}

static noinline void lkdtm_lockdep_preemption(void)
{
	lockdep_assert_preemption_disabled();
}

static noinline void lkdtm_LOCKDEP(void)
{
	mutex_lock(&lkdtm_mutex);
	lkdtm_lockdep_mutex();
	mutex_unlock(&lkdtm_mutex);
	unsigned long flags = spin_lock_irqsave(&lkdtm_spinlock);
	lkdtm_lockdep_spinlock();
	lkdtm_lockdep_irqs();
	lkdtm_lockdep_preemption();
	spin_unlock_irqrestore(&lkdtm_spinlock, flags);

	lkdtm_lockdep_mutex();
	lkdtm_lockdep_spinlock();
	lkdtm_lockdep_irqs();
	lkdtm_lockdep_preemption();
}

/*
 * Lucid's own: preemption disabled and never enabled again, as a lock left held on an error
 * path leaves it. Without a check it would be noticed only by the next schedule() on this CPU,
 * as "scheduling while atomic" of whichever task that is; the way back to user mode names the
 * system call instead (kernel/sched/sched.c, preempt_count_leaked): "leaked by write".
 */
static noinline void lkdtm_PREEMPT_LEAK(void)
{
	preempt_disable();
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

struct crashtype {
	const char *name;
	void (*func)(void);
	const char *needs;
};

/*
 * lkdtm's ATOMIC_SLEEP: something that may sleep, called with preemption off. Linux's sleeps
 * (msleep); this one takes a mutex nobody holds, so it never sleeps and schedule() never sees
 * it: might_sleep() in mutex_lock reports it all the same ("BUG: sleeping function called
 * from invalid context"), as it reports a mutex taken under a spin lock on the runs where
 * that mutex happens to be free.
 */
static noinline void lkdtm_ATOMIC_SLEEP(void)
{
	static DEFINE_MUTEX(free_mutex);

	preempt_disable();
	mutex_lock(&free_mutex);
	mutex_unlock(&free_mutex);
	preempt_enable();
}

/* clang-format off */
#define CRASHTYPE(name, needs) {#name, lkdtm_##name, needs}
/* clang-format on */

static const struct crashtype crashtypes[] = {
	CRASHTYPE(PANIC, NULL),
	CRASHTYPE(BUG, NULL),
	CRASHTYPE(WARNING, NULL),
	CRASHTYPE(EXHAUST_STACK, NULL),
	CRASHTYPE(CORRUPT_STACK, NEEDS_STACKPROTECTOR),
	CRASHTYPE(SOFTLOCKUP, NULL),
	CRASHTYPE(HARDLOCKUP, NULL),
	CRASHTYPE(ATOMIC_SLEEP, NULL),
	CRASHTYPE(OVERFLOW_SIGNED, NEEDS_UBSAN),
	CRASHTYPE(WRITE_KERN, NULL),
	CRASHTYPE(EXEC_DATA, NULL),
	CRASHTYPE(ACCESS_NULL, NULL),
	CRASHTYPE(DIVIDE_ERROR, NULL),
	CRASHTYPE(WRITE_KERN_DIRECT, NULL),
	CRASHTYPE(LOCKDEP, NULL),
	CRASHTYPE(PREEMPT_LEAK, NULL),
};

/* Other names for a type: not listed, as an alias is no crash of its own. */
static const struct {
	const char *alias;
	const char *name;
} crashtype_aliases[] = {
	{"NULL", "ACCESS_NULL"},
};

static const struct crashtype *find_crashtype(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(crashtype_aliases); i++)
		if (!strcmp(name, crashtype_aliases[i].alias))
			name = crashtype_aliases[i].name;
	for (size_t i = 0; i < ARRAY_SIZE(crashtypes); i++)
		if (!strcmp(name, crashtypes[i].name))
			return &crashtypes[i];
	return NULL;
}

/* A function of its own, as Linux's, so that every crash's backtrace shows how it was asked. */
static noinline void lkdtm_do_action(const struct crashtype *crashtype)
{
	if (crashtype->needs) {
		pr_err("lkdtm: XFAIL: %s: this kernel was built without %s\n", crashtype->name,
		       crashtype->needs);
		return;
	}
	crashtype->func();
	barrier(); /* not a tail call (a jmp): this function stays in the backtrace */
}

static ssize_t direct_entry(struct file *file, const char *ubuf, size_t count, loff_t *ppos)
{
	char buf[LKDTM_WRITE_MAX + 1];
	const struct crashtype *crashtype;

	(void)file;
	if (count < 1 || count > LKDTM_WRITE_MAX)
		return -EINVAL;
	memcpy(buf, ubuf, count);
	buf[count] = '\0';
	crashtype = find_crashtype(strim(buf));
	if (!crashtype)
		return -EINVAL;
	pr_info("lkdtm: Performing direct entry %s\n", crashtype->name);
	lkdtm_do_action(crashtype);
	*ppos += count;
	return count;
}

static ssize_t lkdtm_debugfs_read(struct file *file, char *ubuf, size_t count, loff_t *ppos)
{
	char list[LKDTM_LIST_MAX];
	size_t n;

	(void)file;
	n = (size_t)snprintf(list, sizeof(list), "Available crash types:\n");
	for (size_t i = 0; i < ARRAY_SIZE(crashtypes); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s\n", crashtypes[i].name);
	/* The list is fixed at build time: it must fit, or the reader would get a cut one. */
	BUG_ON(n >= sizeof(list));
	return simple_read_from_buffer(ubuf, count, ppos, list, n);
}

/*
 * No VFS lock around the write: a crash may sleep (LOCKDEP takes a mutex) or never return
 * (SOFTLOCKUP), and must not hold up every other file's reader meanwhile.
 */
static const struct file_operations direct_fops = {
	.read = lkdtm_debugfs_read,
	.write = direct_entry,
	.llseek = default_llseek,
	.no_vfs_lock = true,
};

void lkdtm_init(void)
{
	struct dentry *dir = debugfs_create_dir("provoke-crash", NULL);

	if (!dir || !debugfs_create_file("DIRECT", 0600, dir, NULL, &direct_fops))
		printk(KERN_WARNING
		       "lkdtm: cannot create /sys/kernel/debug/provoke-crash/DIRECT\n");
}

/* Fault injection: every Nth kmalloc or page allocation fails (Linux's failslab, simplified). */

/*
 * Code that allocates must cope with NULL, and a path that is never taken is a path that is
 * never tested. With fail_kmalloc=N on the command line (or N written to
 * /proc/sys/kernel/fail_kmalloc) every Nth call of kmalloc returns NULL; fail_page_alloc=N
 * does the same to alloc_pages. 0 turns it off. Writing N starts the count again, so
 * `echo 3 > fail_kmalloc; cmd` fails cmd's third allocation, every time.
 *
 * What is under test is the commands, not the shell that runs them: only the allocations of a
 * task whose /proc/PID/make-it-fail is 1 are counted and failed, as with Linux's task-filter.
 * fork copies the mark (and so does a kernel thread a marked task starts), so
 *
 *	sh -c 'echo 1 > /proc/self/make-it-fail; exec CMD'
 *
 * puts CMD and all it starts under test and nothing else (Linux's tools/testing/
 * fault-injection/failcmd.sh does the same). The console's shell and init are never marked, so
 * whatever the interval, the prompt comes back, and the write that turns injection off never
 * fails for want of memory. Ctrl-O x (or `echo x > /proc/sysrq-trigger`) turns both off from
 * the console's interrupt, whatever is running.
 *
 * A marked command's own page faults are not under test either, by default: what a user page
 * fault allocates (the page and the tables that map it) is never failed, as Linux's
 * fail_page_alloc ignores __GFP_HIGHMEM (user) pages by default (ignore-gfp-highmem=Y). A fault
 * has no system call to fail: the process would die of the OOM killer's SIGKILL instead of
 * being told ENOMEM, and what is under test is how the kernel's paths handle NULL. Writing 0 to
 * /proc/sys/kernel/fail_page_alloc_ignore_gfp_highmem (Linux's debugfs
 * fail_page_alloc/ignore-gfp-highmem) fails user pages too, to test the OOM path.
 *
 * Booting is not under test either (a kernel that cannot allocate its own tables panics, as
 * Linux does): the boot-time values take effect as pid 1 starts init (kernel_init). Linux's fault
 * injection has more knobs (probability, times, a stack filter); one interval is enough to
 * walk every allocation of a command.
 */
#include "kernel/debug/fault_inject.h"
#include "kernel/cmdline.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/fs/proc/sysctl.h"
#include "lib/kstrtox.h"

#define FAIL_INTERVAL_MAX 1000000000UL

struct fault_attr failslab, fail_page_alloc;
static unsigned long ignore_gfp_highmem = 1; /* 1: a user page fault's pages are never failed */

static unsigned long boot_fail_kmalloc, boot_fail_page_alloc;

/* A new interval counts from the next call: what fails is what the user expects to fail. */
static int fault_attr_write(const struct ctl_table *t, unsigned long val)
{
	struct fault_attr *attr = container_of(t->data, struct fault_attr, interval);

	(void)val;
	__atomic_store_n(&attr->count, 0, __ATOMIC_RELAXED);
	return 0;
}

static const struct ctl_table fault_inject_table[] = {
	{"fail_kmalloc", &failslab.interval, 0644, 0, FAIL_INTERVAL_MAX, fault_attr_write},
	{"fail_page_alloc", &fail_page_alloc.interval, 0644, 0, FAIL_INTERVAL_MAX,
	 fault_attr_write},
	{"fail_page_alloc_ignore_gfp_highmem", &ignore_gfp_highmem, 0644, 0, 1, NULL},
};

/*
 * notrace: alloc_pages calls it, and the tracer must not trace the page allocator its buffers
 * come from. Never in an interrupt: what it allocates belongs to no command.
 */
notrace bool should_fail(struct fault_attr *attr)
{
	unsigned long interval = READ_ONCE(attr->interval);

	if (!interval || in_interrupt() || !current->make_it_fail)
		return false;
	return __atomic_add_fetch(&attr->count, 1, __ATOMIC_RELAXED) % interval == 0;
}

/* notrace as should_fail: alloc_pages calls it. */
notrace bool should_fail_page(void)
{
	if (current->in_user_fault && READ_ONCE(ignore_gfp_highmem))
		return false;
	return should_fail(&fail_page_alloc);
}

static void set_interval(struct fault_attr *attr, unsigned long interval)
{
	__atomic_store_n(&attr->count, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&attr->interval, interval, __ATOMIC_RELAXED);
}

void fault_inject_off(void)
{
	set_interval(&failslab, 0);
	set_interval(&fail_page_alloc, 0);
}

static void boot_param(const char *name, unsigned long *val)
{
	char buf[24];

	if (cmdline_get(name, buf, sizeof(buf)) &&
	    (kstrtoul(buf, 10, val) || *val > FAIL_INTERVAL_MAX)) {
		printk(KERN_WARNING "%s=%s: not a number of calls, ignored\n", name, buf);
		*val = 0;
	}
}

void fault_inject_init(void)
{
	boot_param("fail_kmalloc", &boot_fail_kmalloc);
	boot_param("fail_page_alloc", &boot_fail_page_alloc);
	if (register_sysctl_table(fault_inject_table, (int)ARRAY_SIZE(fault_inject_table)))
		printk(KERN_ERR "fault injection: cannot create its files\n");
}

void fault_inject_start(void)
{
	if (boot_fail_kmalloc || boot_fail_page_alloc)
		printk(KERN_INFO
		       "fault injection: fail_kmalloc=%lu fail_page_alloc=%lu from now on\n",
		       boot_fail_kmalloc, boot_fail_page_alloc);
	set_interval(&failslab, boot_fail_kmalloc);
	set_interval(&fail_page_alloc, boot_fail_page_alloc);
}

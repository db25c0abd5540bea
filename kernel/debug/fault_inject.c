/* Fault injection: every Nth kmalloc or page allocation fails (Linux's failslab, simplified). */

/*
 * Code that allocates must cope with NULL, and a path that is never taken is a path that is
 * never tested. With fail_kmalloc=N on the command line (or N written to
 * /proc/sys/kernel/fail_kmalloc) every Nth call of kmalloc returns NULL; fail_page_alloc=N
 * does the same to alloc_pages. 0 turns it off. The count is global and deterministic, so a
 * failure seen once comes back with the same commands.
 *
 * The boot-time values take effect at the shell's first prompt: booting is not what is under
 * test (a kernel that cannot allocate its own tables panics, as Linux does), the tracing files
 * and the shell commands are. Linux's fault injection has more knobs (probability, a task
 * filter, a stack filter); one interval is enough to walk every allocation of a command.
 */
#include "kernel/debug/fault_inject.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/fs/proc/sysctl.h"
#include "lib/kstrtox.h"

#define FAIL_INTERVAL_MAX 1000000000UL

static unsigned long boot_fail_kmalloc, boot_fail_page_alloc;

static const struct ctl_table fault_inject_table[] = {
	{"fail_kmalloc", &kmalloc_fail_every, 0644, 0, FAIL_INTERVAL_MAX, NULL},
	{"fail_page_alloc", &page_alloc_fail_every, 0644, 0, FAIL_INTERVAL_MAX, NULL},
};

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
	if (register_sysctl_table(fault_inject_table, 2))
		printk(KERN_ERR "fault injection: cannot create its files\n");
}

void fault_inject_start(void)
{
	if (boot_fail_kmalloc || boot_fail_page_alloc)
		printk(KERN_INFO
		       "fault injection: fail_kmalloc=%lu fail_page_alloc=%lu from now on\n",
		       boot_fail_kmalloc, boot_fail_page_alloc);
	__atomic_store_n(&kmalloc_fail_every, boot_fail_kmalloc, __ATOMIC_RELAXED);
	__atomic_store_n(&page_alloc_fail_every, boot_fail_page_alloc, __ATOMIC_RELAXED);
}

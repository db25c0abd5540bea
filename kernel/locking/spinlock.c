/*
 * The spin lock operations out of line, as Linux's kernel/locking/spinlock.c has them: each is
 * a function with its own __fentry__ call, so `echo '*spin_lock*' > set_ftrace_filter` finds
 * _raw_spin_lock and the rest, and a function trace shows who takes locks, where, how often.
 * The bodies are the inline forms of kernel/locking/spinlock.h, which the code that must never
 * be traced uses directly (that header says which code, and why).
 */
#include "kernel/locking/spinlock.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"

bool virt_spin_lock_enabled = true; /* until native_pv_lock_init(): QEMU is the usual case */

/*
 * The kind of lock for this machine (spinlock.h says why), as Linux's native_pv_lock_init():
 * tickets on real hardware, test-and-set under a hypervisor. Switching while locks are held is
 * safe, since both kinds read and write the same fields; done before the other CPUs start all
 * the same, so that every CPU's lock is of one kind from the first.
 */
void native_pv_lock_init(void)
{
	/* nopvspin: tickets in a guest too, as Linux's boot option (and the tests' way to them) */
	bool nopvspin = cmdline_has("nopvspin");

	WRITE_ONCE(virt_spin_lock_enabled, cpu_has_hypervisor() && !nopvspin);
	printk(KERN_INFO "spinlock: %s\n",
	       virt_spin_lock_enabled ? "test-and-set, under a hypervisor (virt_spin_lock)"
	       : nopvspin	      ? "ticket lock, forced by \"nopvspin\""
				      : "ticket lock, on real hardware");
}

void _raw_spin_lock(spinlock_t *l)
{
	__raw_spin_lock(l);
}

bool _raw_spin_trylock(spinlock_t *l)
{
	return __raw_spin_trylock(l);
}

void _raw_spin_unlock(spinlock_t *l)
{
	__raw_spin_unlock(l);
}

unsigned long _raw_spin_lock_irqsave(spinlock_t *l)
{
	return __raw_spin_lock_irqsave(l);
}

void _raw_spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	__raw_spin_unlock_irqrestore(l, flags);
}

void _raw_spin_lock_irq(spinlock_t *l)
{
	__raw_spin_lock_irq(l);
}

void _raw_spin_unlock_irq(spinlock_t *l)
{
	__raw_spin_unlock_irq(l);
}

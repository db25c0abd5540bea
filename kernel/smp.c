/*
 * Per-CPU data and inter-processor interrupts.
 *
 * Each CPU's struct cpu is found through its GS base (kernel/percpu.h). IPIs are how one CPU gets
 * another's attention: a reschedule IPI wakes a halted idle CPU when a task is queued there; a
 * call-function IPI runs a function on every other CPU (code patching uses it to make all CPUs
 * resynchronize their instruction streams); an NMI stops every CPU when the kernel panics.
 */
#include "kernel/smp.h"
#include "kernel/locking/lockdep.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/traps.h"
#include "lib/compiler.h"

#define CALL_TIMEOUT_NS (5 * NSEC_PER_SEC) /* a CPU that never answers: warn, don't hang */
#define STOP_TIMEOUT_NS NSEC_PER_SEC       /* how long a panic waits for the others to stop */

struct cpu cpus[NR_CPUS];
int __num_online_cpus = 1; /* the boot CPU; smp_boot_aps() counts the others in */

/* One smp_call_function at a time: the caller holds call_lock while the others run fn. Taken
 * with the untraced __raw_spin_lock, as smp_call_function is notrace (below). */
static DEFINE_SPINLOCK(call_lock);
static void (*call_fn)(void *info);
static void *call_info;
static unsigned long call_pending; /* the CPUs yet to answer, a bit each */

/*
 * notrace: before the GS base is set, a traced call's callback finds no per-CPU data; text_poke
 * runs smp_call_function and its IPI handler on every CPU while call sites are half rewritten;
 * smp_send_stop is the panic's, which must work when the tracer broke; and the reschedule IPI
 * is an interrupt path, as do_interrupt (arch/x86_64/idt.c says why those are not traced).
 */
notrace void percpu_init_this_cpu(struct cpu *c)
{
	c->self = c;
	wrmsr(MSR_GS_BASE, (uint64_t)c);
}

notrace void smp_send_reschedule(int cpu)
{
	lapic_send_ipi(cpus[cpu].apic_id, VEC_IPI_RESCHEDULE);
}

/*
 * Every other CPU to cpu_stop_this(), by NMI, and a bounded wait until they are there (Linux
 * waits a second too): the panic notifiers then read what those CPUs were writing, and a CPU
 * that never answers must not keep the panic from finishing.
 */
notrace void smp_send_stop(void)
{
	uint64_t deadline = ktime_get_ns() + STOP_TIMEOUT_NS;
	int me = smp_processor_id();

	if (num_online_cpus() <= 1)
		return;
	lapic_send_nmi_all_but_self();
	for (int c = 0; c < num_online_cpus(); c++)
		while (c != me && READ_ONCE(cpus[c].online) && ktime_get_ns() < deadline)
			cpu_relax();
}

static notrace void ipi_reschedule(struct pt_regs *regs)
{
	(void)regs;
	this_cpu()->need_resched = true; /* acted on as the interrupt returns */
}

static notrace void ipi_call_function(struct pt_regs *regs)
{
	(void)regs;
	call_fn(call_info);
	__atomic_and_fetch(&call_pending, ~(1UL << smp_processor_id()), __ATOMIC_RELEASE);
}

/*
 * call_lock is taken before "the others" are chosen: it turns preemption off, so the caller
 * stays on the CPU it left out. Chosen first, a caller preempted in between and moved to
 * another CPU would leave that one out and never run fn there (a TLB shootdown that misses the
 * CPU the unmapping thread now runs on, beside a sibling thread's stale translations).
 */
notrace void smp_call_function(void (*fn)(void *info), void *info)
{
	unsigned long others = 0;

	/*
	 * smp.h says why; kmain, which runs as swapper/0 with interrupts off until it idles, may.
	 */
	lockdep_assert(!irqs_disabled() || current == this_cpu()->idle);
	__raw_spin_lock(&call_lock);
	for (int c = 0; c < num_online_cpus(); c++)
		if (c != smp_processor_id() && cpus[c].online)
			others |= 1UL << c;
	if (!others)
		goto out;
	call_fn = fn;
	call_info = info;
	__atomic_store_n(&call_pending, others, __ATOMIC_RELEASE);
	for (int c = 0; c < num_online_cpus(); c++)
		if (others & (1UL << c))
			lapic_send_ipi(cpus[c].apic_id, VEC_IPI_CALL_FUNCTION);
	uint64_t deadline = ktime_get_ns() + CALL_TIMEOUT_NS;
	unsigned long waiting;
	while ((waiting = __atomic_load_n(&call_pending, __ATOMIC_ACQUIRE))) {
		if (ktime_get_ns() > deadline) {
			/*
			 * Which CPUs, and where they are stuck (Linux's CSD lock timeout does so).
			 */
			int n = 0;

			for (unsigned long w = waiting; w; w &= w - 1)
				n++;
			printk(KERN_ERR "smp_call_function: %d CPU(s) did not answer\n", n);
			trigger_cpumask_backtrace(waiting);
			break;
		}
		cpu_relax();
	}
out:
	__raw_spin_unlock(&call_lock);
}

/*
 * fn on this CPU (interrupts off, as the others run it in their IPI handler), then on every
 * other, all with preemption off, so that "this CPU" stays the same one throughout: Linux's
 * on_each_cpu(fn, info, wait=1).
 */
void on_each_cpu(void (*fn)(void *info), void *info)
{
	preempt_disable();
	unsigned long flags = local_irq_save();
	fn(info);
	local_irq_restore(flags);
	smp_call_function(fn, info);
	preempt_enable();
}

static void sync_sched_ipi(void *info)
{
	(void)info;
}

/*
 * A section with preemption off cannot span a task switch, and a CPU seen with its count at 0
 * is outside every section. The IPI round first: once a CPU has answered, its count as it was
 * at the IPI is visible here (x86 keeps its stores in order, the answer last), and its later
 * sections read what was stored before the call. So a CPU seen at 0, or running another task
 * than at the start, after that, is done with what it read before.
 */
void synchronize_sched(void)
{
	struct task *was[NR_CPUS];
	int me = smp_processor_id(); /* in no section: it runs us (an interrupt's is over) */

	for (int c = 0; c < num_online_cpus(); c++)
		was[c] = READ_ONCE(cpus[c].curr);
	smp_call_function(sync_sched_ipi, NULL);
	for (int c = 0; c < num_online_cpus(); c++)
		while (c != me && READ_ONCE(cpus[c].online) && READ_ONCE(cpus[c].preempt_count) &&
		       READ_ONCE(cpus[c].curr) == was[c])
			cpu_relax();
}

void smp_ipi_init(void)
{
	set_irq_handler(VEC_IPI_RESCHEDULE, ipi_reschedule);
	set_irq_handler(VEC_IPI_CALL_FUNCTION, ipi_call_function);
}


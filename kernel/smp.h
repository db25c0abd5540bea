/* Several CPUs: bringing them up, and making them do things (kernel/smp.c). */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdint.h>
#include "kernel/percpu.h"

void smp_boot_cpus(void);
/*
 * The CPUs there may ever be (Linux's cpu_possible_mask, as a count): the MADT's, or only the
 * boot CPU under nosmp or maxcpus=0. maxcpus=N (N > 0) limits which start, not which are
 * possible. The tracer sizes its per-CPU buffers by it, before the others start.
 */
int num_possible_cpus(void);
void smp_ipi_init(void);
/* Asks cpu to look at its run queue (it may be halted in its idle loop). */
void smp_send_reschedule(int cpu);
/* Stops every other CPU (panic): an NMI, which even a CPU with interrupts off takes. */
void smp_send_stop(void);
/*
 * Runs fn(info) on every other online CPU and waits until all have finished. Used by code
 * patching to make every CPU serialize its instruction stream. Must be called with interrupts
 * enabled (the other CPUs may be waiting for us to take their IPI too), except by kmain during
 * boot, when no other CPU calls here yet (Linux's early_boot_irqs_disabled).
 */
void smp_call_function(void (*fn)(void *info), void *info);
/* fn on every online CPU, this one included (Linux's on_each_cpu): the same rules. */
void on_each_cpu(void (*fn)(void *info), void *info);
/*
 * Waits until every CPU has left the preempt-disabled sections it was in when called (Linux's
 * synchronize_rcu for rcu_read_lock_sched readers): after it, no CPU can still hold a pointer
 * it read in such a section before the call. Task context, interrupts enabled (as
 * smp_call_function wants them).
 */
void synchronize_sched(void);

#endif

/* Ctrl-C, Lucid's only signal (kernel/sched/signal.c). */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <stdbool.h>

struct task;

/* Marks t interrupted and wakes it if it sleeps interruptibly. Safe from an interrupt. */
void send_sigint(struct task *t);
/* bool signal_pending_current(void) is declared in kernel/sched/wait.h, which tests it. */

#endif

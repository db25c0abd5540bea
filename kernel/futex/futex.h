/*
 * Futexes: user-space locks' sleeping half (kernel/futex/core.c, waitwake.c, requeue.c as Linux).
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <stdint.h>
#include "kernel/syscalls.h" /* __user */

struct task;

/* Wakes up to nr tasks waiting on the futex at uaddr in current's memory: how many it woke. */
int futex_wake_addr(uint32_t __user *uaddr, int nr);
/*
 * At a thread's exit (kernel/exit.c): the robust futexes it still holds are marked
 * FUTEX_OWNER_DIED and one waiter of each woken; then CLONE_CHILD_CLEARTID's word is zeroed and
 * its waiter (pthread_join) woken. Linux's exit_robust_list and mm_release.
 */
void futex_exit_release(struct task *t);

#endif

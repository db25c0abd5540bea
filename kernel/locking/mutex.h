/*
 * Mutexes: locks whose waiters sleep instead of spinning (kernel/locking/mutex.c).
 *
 * Use a mutex when the holder may sleep or hold it for long (the VFS, a tracing file's write);
 * use a spin lock for short sections and anything an interrupt handler takes.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include <stdbool.h>
#include "kernel/sched/wait.h"

struct task;

struct mutex {
	struct task *owner; /* NULL when free; set and cleared with atomics */
	wait_queue_head_t waiters;
};

#define MUTEX_INIT(name) {NULL, WAIT_QUEUE_HEAD_INIT((name).waiters)}
#define DEFINE_MUTEX(name) struct mutex name = MUTEX_INIT(name)

void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);

#endif

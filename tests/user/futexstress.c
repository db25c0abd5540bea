/*
 * futexstress: no lost wakeup. NTHREADS threads, each pinned to a CPU of its
 * own where there are enough, take and release one lock ROUNDS times each, adding 1 to a
 * counter the lock guards (not atomic: only the lock keeps it exact). The lock is Drepper's
 * three-state futex mutex ("Futexes Are Tricky", mutex3): 0 free, 1 taken, 2 taken with
 * waiters; an unlock that finds 2 calls FUTEX_WAKE. A wakeup the kernel lost leaves a thread
 * asleep for good (the test's timeout then fails it); a lock that let two in makes the count
 * short. Prints the count and whether it is exact, as on Linux.
 *
 *   futexstress [ROUNDS]   (ROUNDS per thread)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NTHREADS 4
#define DEFAULT_ROUNDS 1000000 /* the 4 x 1M: about 2.5 s under TCG */
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129

static atomic_int lock;
static long counter; /* guarded by lock */
static long rounds = DEFAULT_ROUNDS;
static atomic_long waits; /* how often a thread went to sleep on the lock */
static atomic_int started; /* the threads wait for each other first: they must overlap */

static void futex(atomic_int *uaddr, int op, int val)
{
	syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void mutex_lock(void)
{
	int c = 0;

	if (atomic_compare_exchange_strong(&lock, &c, 1))
		return;
	if (c != 2)
		c = atomic_exchange(&lock, 2);
	while (c != 0) {
		atomic_fetch_add(&waits, 1);
		futex(&lock, FUTEX_WAIT_PRIVATE, 2);
		c = atomic_exchange(&lock, 2);
	}
}

static void mutex_unlock(void)
{
	if (atomic_fetch_sub(&lock, 1) != 1) {
		atomic_store(&lock, 0);
		futex(&lock, FUTEX_WAKE_PRIVATE, 1);
	}
}

/* The handoff: takes the lock main holds, so it must sleep in FUTEX_WAIT until main's unlock. */
static void *waiter(void *arg)
{
	(void)arg;
	mutex_lock();
	mutex_unlock();
	return NULL;
}

static void *worker(void *arg)
{
	long cpu = (long)arg;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (ncpus >= NTHREADS) { /* one CPU each: the threads really race */
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	atomic_fetch_add(&started, 1);
	while (atomic_load(&started) < NTHREADS)
		; /* a spin: each has a CPU, and sleeping here would let the first ones finish */
	for (long i = 0; i < rounds; i++) {
		mutex_lock();
		counter++;
		if (i % 64 == 0)
			sched_yield(); /* holding it: the others must wait in the kernel */
		mutex_unlock();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[NTHREADS];

	if (argc > 1)
		rounds = atol(argv[1]);
	/*
	 * First one wait and wake for certain, whatever the timing: main holds the lock until the
	 * waiter has marked the lock contended and is on its way into FUTEX_WAIT, then lets go
	 * (FUTEX_WAKE). The race below may or may not make a thread sleep; this always does.
	 */
	pthread_t w;

	mutex_lock();
	pthread_create(&w, NULL, waiter, NULL);
	while (atomic_load(&waits) == 0)
		sched_yield();
	mutex_unlock();
	pthread_join(w, NULL);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	printf("%d threads x %ld lock/unlock: count %ld, %s\n", NTHREADS, rounds, counter,
	       counter == NTHREADS * rounds ? "exact" : "WRONG");
	printf("slept in FUTEX_WAIT: %s\n", atomic_load(&waits) ? "yes" : "no");
	return counter == NTHREADS * rounds ? 0 : 1;
}

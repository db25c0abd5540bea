/*
 * pthreads: a student's first concurrent programs, built with musl and
 * static with glibc, each printing what it prints on Linux (tests/qemu/user/test_threads.py):
 *   - a producer and two consumers on a bounded queue (a mutex, two condition variables);
 *   - a barrier: every thread's phase 1 before any thread's phase 2;
 *   - thread-local storage (__thread): each thread its own copy, initialized;
 *   - pthread_cancel of a thread asleep in a condition variable and of one in sleep(),
 *     with its cleanup handler run; pthread_join's PTHREAD_CANCELED;
 *   - a detached thread, and pthread_join's return values.
 * (musl's pthread_join of itself hangs where glibc's says EDEADLK: not asked.)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUEUE_SIZE 4
#define ITEMS 200
#define CONSUMERS 2
#define BARRIER_THREADS 4

/* --- producer and consumers --- */

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static int queue[QUEUE_SIZE], head, count;
static int done;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&qlock);
		while (count == QUEUE_SIZE)
			pthread_cond_wait(&not_full, &qlock);
		queue[(head + count++) % QUEUE_SIZE] = i;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&qlock);
	}
	pthread_mutex_lock(&qlock);
	done = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&qlock);
	return NULL;
}

static void *consumer(void *arg)
{
	long sum = 0, n = 0;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&qlock);
		while (count == 0 && !done)
			pthread_cond_wait(&not_empty, &qlock);
		if (count == 0 && done) {
			pthread_mutex_unlock(&qlock);
			break;
		}
		sum += queue[head];
		head = (head + 1) % QUEUE_SIZE;
		count--;
		n++;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&qlock);
	}
	long *r = malloc(2 * sizeof(long));
	r[0] = sum;
	r[1] = n;
	return r;
}

static void producer_consumers(void)
{
	pthread_t p, c[CONSUMERS];
	long sum = 0, n = 0;

	pthread_create(&p, NULL, producer, NULL);
	for (int i = 0; i < CONSUMERS; i++)
		pthread_create(&c[i], NULL, consumer, NULL);
	pthread_join(p, NULL);
	for (int i = 0; i < CONSUMERS; i++) {
		long *r;

		pthread_join(c[i], (void **)&r);
		sum += r[0];
		n += r[1];
		free(r);
	}
	printf("queue: %ld items consumed, sum %ld (want %d)\n", n, sum, ITEMS * (ITEMS + 1) / 2);
}

/* --- a barrier --- */

static pthread_barrier_t barrier;
static atomic_int phase1, early;

static void *barrier_thread(void *arg)
{
	(void)arg;
	atomic_fetch_add(&phase1, 1);
	int r = pthread_barrier_wait(&barrier);
	if (atomic_load(&phase1) != BARRIER_THREADS)
		atomic_fetch_add(&early, 1);
	return (void *)(long)(r == PTHREAD_BARRIER_SERIAL_THREAD);
}

static void barriers(void)
{
	pthread_t th[BARRIER_THREADS];
	long serial = 0;

	pthread_barrier_init(&barrier, NULL, BARRIER_THREADS);
	for (int i = 0; i < BARRIER_THREADS; i++)
		pthread_create(&th[i], NULL, barrier_thread, NULL);
	for (int i = 0; i < BARRIER_THREADS; i++) {
		void *r;

		pthread_join(th[i], &r);
		serial += (long)r;
	}
	pthread_barrier_destroy(&barrier);
	printf("barrier: %d threads through, %d early, %ld serial thread\n", atomic_load(&phase1),
	       atomic_load(&early), serial);
}

/* --- thread-local storage --- */

static __thread int tls_value = 7;
static __thread char tls_name[16] = "initial";

static void *tls_thread(void *arg)
{
	long id = (long)arg;
	int ok = tls_value == 7 && strcmp(tls_name, "initial") == 0;

	tls_value = (int)id * 100;
	snprintf(tls_name, sizeof(tls_name), "thread%ld", id);
	usleep(10000); /* the others write theirs meanwhile */
	ok = ok && tls_value == id * 100;
	return (void *)(long)ok;
}

static void thread_local(void)
{
	pthread_t th[3];
	int ok = 0;

	tls_value = 1;
	for (long i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, tls_thread, (void *)(i + 1));
	for (int i = 0; i < 3; i++) {
		void *r;

		pthread_join(th[i], &r);
		ok += (int)(long)r;
	}
	printf("tls: %d of 3 threads saw their own copy, main's still %d, %s\n", ok, tls_value,
	       tls_name);
}

/* --- cancellation --- */

static pthread_mutex_t clock_ = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static atomic_int cleaned, waiting;

static void cleanup(void *arg)
{
	atomic_fetch_add(&cleaned, 1);
	if (arg)
		pthread_mutex_unlock(arg); /* a cond wait's cancel comes back with the mutex held */
}

static void *cond_sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&clock_);
	pthread_cleanup_push(cleanup, &clock_);
	atomic_store(&waiting, 1);
	for (;;)
		pthread_cond_wait(&never, &clock_);
	pthread_cleanup_pop(1);
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup, NULL);
	for (;;)
		sleep(100);
	pthread_cleanup_pop(1);
	return NULL;
}

static void cancellation(void)
{
	pthread_t a, b;
	void *ra, *rb;

	pthread_create(&a, NULL, cond_sleeper, NULL);
	pthread_create(&b, NULL, sleeper, NULL);
	while (!atomic_load(&waiting))
		usleep(1000);
	usleep(20000); /* both asleep in the kernel */
	pthread_cancel(a);
	pthread_cancel(b);
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("cancel: cond waiter %s, sleeper %s, cleanups run %d\n",
	       ra == PTHREAD_CANCELED ? "canceled" : "?", rb == PTHREAD_CANCELED ? "canceled" : "?",
	       atomic_load(&cleaned));
	/* The mutex the canceled cond waiter held is free again (its cleanup unlocked it). */
	printf("cancel: the waiter's mutex is free: %s\n",
	       pthread_mutex_trylock(&clock_) == 0 ? "yes" : "no");
	pthread_mutex_unlock(&clock_);
}

/* --- detached, and join's errors --- */

static atomic_int detached_ran;

static void *detached(void *arg)
{
	(void)arg;
	atomic_store(&detached_ran, 1);
	return NULL;
}

static void detach(void)
{
	pthread_t t;
	pthread_attr_t a;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &a, detached, NULL);
	while (!atomic_load(&detached_ran))
		usleep(1000);
	printf("detached thread ran: yes\n");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	producer_consumers();
	barriers();
	thread_local();
	cancellation();
	detach();
	return 0;
}

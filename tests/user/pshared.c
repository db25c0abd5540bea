/*
 * Process-shared locks: futexes on shared memory, as Linux's get_futex_key keys them by the page
 * (kernel/futex/core.c). A pthread mutex with PTHREAD_PROCESS_SHARED, a condition variable and
 * a sem_t (sem_init pshared=1) in MAP_SHARED memory work between forked processes: CHILDREN
 * processes each add ADDS times to a plain counter under the mutex, and the sum is exact (a
 * lock that did not exclude across processes loses adds, one whose waiter is never woken
 * hangs); a waiter on the condvar or the semaphore is woken by another process. The same in a
 * file that two processes map each on its own (not inherited), and in a memfd. The raw futex
 * calls say it too: FUTEX_WAKE from another process wakes exactly the one waiter, while a
 * FUTEX_PRIVATE_FLAG waiter (keyed by its own address space) is never reached from another
 * process. Every wait is bounded: a lost wakeup ends the program with a message, not a hang.
 * The output has no address or pid: the same on Linux (tests/qemu/user/test_shared_memory.py).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* futex(2)'s operations (linux/futex.h, which musl-gcc's headers lack). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128

#define CHILDREN 4
#define ADDS 20000
#define YIELD_EVERY 64 /* a holder that yields now and then makes the others wait in the kernel */
#define WAIT_LIMIT_S 20 /* a lost wakeup: the program says so and ends, never hangs */
#define SPIN_LIMIT 2000000 /* tries of a FUTEX_WAKE until the other process is queued */

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	sem_t sem;
	long counter;
	int ready;
	uint32_t word; /* a raw futex */
	uint32_t word2;
};

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

static void reap(const char *who, pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		printf("%s: a child ended badly (%#x)\n", who, status);
}

/* An absolute CLOCK_REALTIME deadline WAIT_LIMIT_S from now (the pthread and sem waits' clock). */
static struct timespec deadline(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += WAIT_LIMIT_S;
	return ts;
}

static void init_shared(struct shared *s)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	memset(s, 0, sizeof(*s));
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->lock, &ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&s->cond, &ca);
	if (sem_init(&s->sem, 1, 0))
		perror("sem_init");
}

static void add_under_lock(struct shared *s)
{
	for (int i = 0; i < ADDS; i++) {
		pthread_mutex_lock(&s->lock);
		long v = s->counter;
		if (i % YIELD_EVERY == 0)
			sched_yield(); /* with the lock held: the others queue on its futex */
		s->counter = v + 1;
		pthread_mutex_unlock(&s->lock);
	}
}

/* The mutex, the condvar and the semaphore between forked processes, in the memory at s. */
static void locks(const char *what, struct shared *s, struct shared *(*child_view)(void))
{
	pid_t pid[CHILDREN];

	for (int c = 0; c < CHILDREN; c++) {
		pid[c] = fork();
		if (pid[c] == 0) {
			add_under_lock(child_view ? child_view() : s);
			_exit(0);
		}
	}
	for (int c = 0; c < CHILDREN; c++)
		reap(what, pid[c]);
	printf("%s: mutex: %d processes x %d adds = %ld\n", what, CHILDREN, ADDS, s->counter);

	/* The condvar: the parent waits until a child sets ready and signals. */
	pid_t child = fork();
	if (child == 0) {
		struct shared *cs = child_view ? child_view() : s;

		usleep(20000); /* let the parent wait first, mostly: either order must work */
		pthread_mutex_lock(&cs->lock);
		cs->ready = 1;
		pthread_cond_signal(&cs->cond);
		pthread_mutex_unlock(&cs->lock);
		_exit(0);
	}
	struct timespec ts = deadline();
	int err = 0;
	pthread_mutex_lock(&s->lock);
	while (!s->ready && !err)
		err = pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	pthread_mutex_unlock(&s->lock);
	reap(what, child);
	printf("%s: condvar: %s\n", what, s->ready ? "woken by the other process" : strerror(err));

	/* The semaphore: a child waits, the parent posts. */
	child = fork();
	if (child == 0) {
		struct shared *cs = child_view ? child_view() : s;
		struct timespec cts = deadline();

		_exit(sem_timedwait(&cs->sem, &cts) ? 1 : 0);
	}
	usleep(20000);
	sem_post(&s->sem);
	reap(what, child);
	printf("%s: semaphore: posted and taken across processes\n", what);
}

/*
 * The raw calls: a child sleeps in FUTEX_WAIT on the shared word; the parent's FUTEX_WAKE
 * returns 1 once it is queued (tried until then), and the child returns 0 from its wait.
 * Then a child sleeping with FUTEX_PRIVATE_FLAG: the parent's private wakes reach nobody, and
 * the child's wait ends by its timeout.
 */
static void raw(const char *what, struct shared *s)
{
	pid_t child = fork();
	long woke = 0;

	if (child == 0) {
		struct timespec t = {WAIT_LIMIT_S, 0};
		long r = futex(&s->word, FUTEX_WAIT, 0, &t);

		_exit(r == 0 ? 0 : 1);
	}
	for (long i = 0; i < SPIN_LIMIT && woke == 0; i++) {
		woke = futex(&s->word, FUTEX_WAKE, 1, NULL);
		if (!woke)
			sched_yield();
	}
	reap(what, child);
	printf("%s: FUTEX_WAKE from another process woke %ld\n", what, woke);

	child = fork();
	if (child == 0) {
		struct timespec t = {0, 200 * 1000 * 1000};
		long r = futex(&s->word2, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &t);

		_exit(r == -1 && errno == ETIMEDOUT ? 0 : 1);
	}
	woke = 0;
	for (int i = 0; i < 50; i++) {
		woke += futex(&s->word2, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL);
		usleep(2000);
	}
	reap(what, child);
	printf("%s: FUTEX_PRIVATE_FLAG across processes: woke %ld, the waiter timed out\n", what,
	       woke);
}

static const char *file_path;

/* The child's own mapping of the file: a new mmap, not the parent's inherited one. */
static struct shared *map_file_again(void)
{
	int fd = open(file_path, O_RDWR);
	void *p = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (fd < 0 || p == MAP_FAILED) {
		perror("child's mmap");
		_exit(1);
	}
	close(fd);
	return p;
}

static struct shared *map_fd(int fd)
{
	if (ftruncate(fd, sizeof(struct shared)))
		perror("ftruncate");
	void *p = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	struct shared *s =
		mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char path[256];

	alarm(4 * WAIT_LIMIT_S); /* the last resort against a hang */
	init_shared(s);
	locks("anonymous", s, NULL);
	raw("anonymous", s);

	/* A file: the children map it themselves, so only the file's pages are common. */
	snprintf(path, sizeof(path), "%s/pshared.map", argc > 1 ? argv[1] : "/tmp");
	file_path = path;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct shared *f = map_fd(fd);
	close(fd);
	init_shared(f);
	locks("file", f, map_file_again);
	raw("file", f);
	munmap(f, sizeof(*f));
	unlink(path);

	fd = memfd_create("pshared", 0);
	struct shared *m = map_fd(fd);
	init_shared(m);
	locks("memfd", m, NULL);
	raw("memfd", m);
	return 0;
}

/*
 * The TLB shootdown's invariant, from user space (kernel/mm/mmu_gather.c): a thread never reads
 * a value from a page that was unmapped, freed and reused. The main thread maps region after
 * region, each at an address never used before, writes into every word its own address,
 * publishes it to READERS threads (each on its own CPU, reading all the time), then unmaps it
 * while they read and maps the next, which is likely to get the pages just freed. A reader's
 * read of address A either faults (SIGSEGV: unmapped, it goes on with the next region) or
 * returns A; anything else came from a page that is no longer that region's, reached through a
 * translation its CPU still cached.
 *
 * Then copy-on-write: a private page the readers read over and over is shared with a child
 * (fork), and the main thread's write to it gets a copy; a reader told so (through a MAP_SHARED
 * flag, which no fork copies) must read the new value, never the old page its CPU may have
 * cached a translation for. Linux flushes every CPU of the process at that copy; without that
 * flush the readers would go on reading the old page. The counts printed are the same on Linux.
 * With `tlbstress N`: N regions (default ITERATIONS).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define READERS 3 /* one per other CPU (Lucid's tests boot 4) */
#define REGION_PAGES 16
#define ITERATIONS 2000
#define BASE 0x200000000000UL /* regions go up from here, each at a fresh address */
#define REGION_BYTES (REGION_PAGES * PAGE)
#define WORDS (REGION_BYTES / sizeof(uintptr_t))
#define COW_ROUNDS 200

static volatile long current = -1; /* the region readers read: its index, -1 none yet */
static volatile int done;
static __thread sigjmp_buf fault_jmp;
static long bad_reads, good_reads;

/* The copy-on-write part: the page the value is in (private), and what readers are told. */
static volatile long *cow_value;
static struct cow_flags {
	long round; /* the round whose value is written: read it now */
	long acks; /* readers that read it this round */
	long stale; /* reads of an older value after the round was announced */
} *cow_flags; /* MAP_SHARED: the same page in the child, never copied */

static uintptr_t region_addr(long i)
{
	return BASE + (uintptr_t)i * (REGION_BYTES + PAGE); /* a hole between: never adjacent */
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

static void *reader(void *arg)
{
	volatile long good = 0, bad = 0; /* kept across the siglongjmp */
	volatile unsigned int seed = (unsigned int)(uintptr_t)arg;

	while (!done) {
		long i = __atomic_load_n(&current, __ATOMIC_ACQUIRE);

		if (i < 0)
			continue;
		volatile uintptr_t *words = (volatile uintptr_t *)region_addr(i);
		if (sigsetjmp(fault_jmp, 1))
			continue; /* unmapped under us: the next region */
		for (int n = 0; n < 64; n++) {
			unsigned int s = seed;
			size_t w = (size_t)rand_r(&s) % WORDS;

			seed = s;
			uintptr_t v = words[w];

			if (v == (uintptr_t)&words[w])
				good++;
			else
				bad++;
		}
	}
	__atomic_add_fetch(&good_reads, good, __ATOMIC_RELAXED);
	__atomic_add_fetch(&bad_reads, bad, __ATOMIC_RELAXED);

	/* Copy-on-write: read the value all the time (its translation cached), check each round. */
	long seen_round = 0;
	while (seen_round < COW_ROUNDS) {
		long v = *cow_value;
		long round = __atomic_load_n(&cow_flags->round, __ATOMIC_ACQUIRE);

		if (round == seen_round)
			continue;
		v = *cow_value; /* after the announcement: must be that round's */
		if (v != round)
			__atomic_add_fetch(&cow_flags->stale, 1, __ATOMIC_RELAXED);
		seen_round = round;
		__atomic_add_fetch(&cow_flags->acks, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Each round: a child shares the page, the write copies it, the readers must see the copy. */
static void cow_rounds(void)
{
	for (long round = 1; round <= COW_ROUNDS; round++) {
		int go[2];

		if (pipe(go))
			return;
		pid_t pid = fork();
		if (pid == 0) {
			char c;

			read(go[0], &c, 1); /* holds the old page until the write has copied it */
			_exit(0);
		}
		for (volatile int spin = 0; spin < 20000; spin++)
			; /* the readers read the shared page meanwhile, caching it */
		*cow_value = round; /* the copy-on-write fault: a new page for this process */
		__atomic_store_n(&cow_flags->round, round, __ATOMIC_RELEASE);
		while (__atomic_load_n(&cow_flags->acks, __ATOMIC_ACQUIRE) < round * READERS)
			;
		close(go[0]);
		write(go[1], "x", 1);
		close(go[1]);
		waitpid(pid, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	long iterations = argc > 1 ? atol(argv[1]) : ITERATIONS;
	struct sigaction sa = {.sa_handler = on_segv, .sa_flags = SA_NODEFER};
	pthread_t t[READERS];

	sigaction(SIGSEGV, &sa, NULL);
	cow_value = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cow_flags = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*cow_value = 0;
	for (int r = 0; r < READERS; r++)
		pthread_create(&t[r], NULL, reader, (void *)(uintptr_t)(r + 1));
	for (long i = 0; i < iterations; i++) {
		uintptr_t *p = mmap((void *)region_addr(i), REGION_BYTES, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (size_t w = 0; w < WORDS; w++)
			p[w] = (uintptr_t)&p[w];
		__atomic_store_n(&current, i, __ATOMIC_RELEASE);
		/* Let the readers at it (and cache its translations), then take it away. */
		for (volatile int spin = 0; spin < 20000; spin++)
			;
		munmap(p, REGION_BYTES);
	}
	done = 1;
	cow_rounds();
	for (int r = 0; r < READERS; r++)
		pthread_join(t[r], NULL);
	printf("%ld regions unmapped under %d reading threads\n", iterations, READERS);
	printf("reads from a freed page: %ld\n", bad_reads);
	printf("reads done: %s\n", good_reads > 0 ? "some" : "none");
	printf("%d copy-on-write rounds: stale reads %ld\n", COW_ROUNDS, cow_flags->stale);
	return 0;
}

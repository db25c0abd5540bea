/*
 * sdtprobe: a probe site with an SDT semaphore, for uprobe_events' PATH:OFFSET(REF_CTR_OFFSET)
 * (tests/qemu/trace/test_uprobes.py). <sys/sdt.h>'s semaphores are shorts in the section .probes:
 * file data (not bss), so that the file offset the probe definition names holds it. A tracer
 * that arms the probe makes the kernel add one to it in each process that maps the program
 * (Linux's uprobes update_ref_ctr), so the program knows to do the site's work.
 *
 * sdtprobe FILE...   prints "sem=N", then for each FILE waits (up to 60 s) until it exists and
 *                    prints "FILE sem=N"; each time, if the semaphore is up, calls sdt_site(N),
 *                    the probed function, as an SDT probe's macro does
 */
#include <stdio.h>
#include <unistd.h>

#define WAIT_POLL_US 10000
#define WAIT_MAX_POLLS 6000 /* 60 s */

__attribute__((section(".probes"), used)) volatile unsigned short sdt_sem;

__attribute__((noinline, used)) int sdt_site(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static void check(const char *when)
{
	unsigned short sem = sdt_sem;

	printf("%s%ssem=%u\n", when, *when ? " " : "", sem);
	fflush(stdout);
	if (sem)
		sdt_site(sem);
}

int main(int argc, char **argv)
{
	check("");
	for (int f = 1; f < argc; f++) {
		for (int i = 0; access(argv[f], F_OK) && i < WAIT_MAX_POLLS; i++)
			usleep(WAIT_POLL_US);
		check(argv[f]);
	}
	return 0;
}

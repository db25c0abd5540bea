/*
 * Stack growth: the stack area grows down as a deep call touches the pages below it, up to
 * RLIMIT_STACK (8 MiB by default); a call that goes past the limit dies of SIGSEGV (seen from a
 * forked child). The [stack] line of /proc/self/maps shows the growth. The output has no
 * addresses: the same on Linux (tests/qemu/user/test_user_memory.py compares).
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define FRAME (64 << 10)
#define MIB (1UL << 20)

/* Uses about depth * 64 KiB of stack, touching every page of it. */
static int deep(int depth)
{
	volatile char buf[FRAME];

	memset((char *)buf, 1, sizeof(buf));
	if (depth > 1)
		return deep(depth - 1) + buf[0] - 1; /* not a tail call: the frame stays in use */
	return buf[FRAME - 1];
}

/* The size of the [stack] area, from /proc/self/maps. */
static unsigned long stack_area(void)
{
	char line[256];
	unsigned long lo, hi, size = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			size = hi - lo;
	fclose(f);
	return size;
}

int main(void)
{
	struct rlimit rl;
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (getrlimit(RLIMIT_STACK, &rl) || rl.rlim_cur == RLIM_INFINITY) {
		printf("no stack limit to test\n");
		return 1;
	}
	printf("stack limit: %lu MiB\n", (unsigned long)rl.rlim_cur / MIB);
	printf("stack area under 1 MiB at first: %s\n", stack_area() < MIB ? "yes" : "no");
	printf("4 MiB deep call: %s\n", deep(4 * MIB / FRAME) == 1 ? "ok" : "bad");
	printf("stack area now over 4 MiB: %s\n", stack_area() > 4 * MIB ? "yes" : "no");
	pid_t pid = fork();
	if (pid == 0) {
		deep((int)((rl.rlim_cur + MIB) / FRAME)); /* a MiB past the limit */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("a call 1 MiB past the limit: killed by %s\n", strsignal(WTERMSIG(status)));
	else
		printf("a call 1 MiB past the limit: exit %d\n", WEXITSTATUS(status));
	return 0;
}

/*
 * Anonymous memory from a user program: mmap (MAP_FIXED, MAP_FIXED_NOREPLACE), munmap of part
 * of a mapping, and mprotect, with Linux's errors. Whether a touch faults is seen from a forked
 * child: the parent prints how it ended (SIGSEGV, or exit 0). No addresses are printed, so the
 * output is the same on Linux (tests/qemu/user/test_syscalls.py compares them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define PAGE 4096
#define RET 0xc3 /* x86's ret instruction: a function that does nothing */

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

static void mapped(const char *what, void *p)
{
	step(what, p == MAP_FAILED ? -1 : 0);
}

enum touch { READ, WRITE, CALL };

/* Touches p in a child; prints whether that worked or what signal ended it. */
static void touch(const char *what, volatile unsigned char *p, enum touch how)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (how == READ)
			_exit(p[0] == 0x5a ? 0 : 1);
		if (how == WRITE) {
			p[0] = 0x5a;
			_exit(0);
		}
		((void (*)(void))p)();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s: killed by %s\n", what, strsignal(WTERMSIG(status)));
	else
		printf("%s: exit %d\n", what, WEXITSTATUS(status));
}

int main(void)
{
	unsigned char *p =
		mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *q;

	setvbuf(stdout, NULL, _IONBF, 0);
	mapped("mmap 4 pages", p);
	memset(p, 0x5a, 4 * PAGE);
	touch("write page 1", p + PAGE, WRITE);
	step("mprotect read-only", mprotect(p + PAGE, PAGE, PROT_READ));
	touch("read page 1", p + PAGE, READ);
	touch("write page 1", p + PAGE, WRITE);
	touch("write page 2", p + 2 * PAGE, WRITE);
	step("mprotect none", mprotect(p + 2 * PAGE, PAGE, PROT_NONE));
	touch("read page 2", p + 2 * PAGE, READ);
	step("mprotect back", mprotect(p + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	touch("read page 2 again", p + 2 * PAGE, READ);
	step("data kept", p[2 * PAGE + 100] == 0x5a);

	p[0] = RET;
	touch("call writable page", p, CALL);
	step("mprotect read+exec", mprotect(p, PAGE, PROT_READ | PROT_EXEC));
	touch("call executable page", p, CALL);
	touch("write executable page", p, WRITE);
	step("mprotect write+exec", mprotect(p, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC));
	touch("write w+x page", p, WRITE);
	touch("call w+x page", p, CALL);

	step("mprotect unaligned", syscall(SYS_mprotect, p + 1, PAGE, PROT_READ)); /* musl aligns */
	step("mprotect bad prot", mprotect(p, PAGE, 0x40));
	step("mprotect zero length", mprotect(p, 0, PROT_READ));
	step("munmap page 3", munmap(p + 3 * PAGE, PAGE));
	touch("read unmapped page 3", p + 3 * PAGE, READ);
	touch("read page 2 beside it", p + 2 * PAGE, READ);
	step("mprotect over the hole", mprotect(p + 3 * PAGE, PAGE, PROT_READ));
	step("munmap unaligned", munmap(p + 1, PAGE));
	step("munmap zero length", munmap(p, 0));
	step("munmap unmapped again", munmap(p + 3 * PAGE, PAGE));

	q = mmap(p + 3 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	step("MAP_FIXED into the hole", q == p + 3 * PAGE);
	step("its page is zeroed", q[7] == 0);
	q = mmap(p + 2 * PAGE, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	step("MAP_FIXED over two pages", q == p + 2 * PAGE);
	step("old data gone", p[2 * PAGE + 100] == 0);
	touch("write read-only fixed page", p + 2 * PAGE, WRITE);
	mapped("MAP_FIXED_NOREPLACE taken",
	       mmap(p, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0));
	mapped("MAP_FIXED unaligned",
	       mmap(p + 1, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	mapped("mmap zero length", mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	mapped("mmap no type", mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0));
	mapped("mmap huge", mmap(NULL, 1UL << 47, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	step("munmap all", munmap(p, 4 * PAGE));
	touch("read after munmap", p, READ);
	return 0;
}

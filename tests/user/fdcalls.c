/*
 * fchdir, close_range, and the vectored transfers at a position (preadv, pwritev, preadv2,
 * pwritev2), judged against Linux (tests/qemu/user/test_syscalls.py): what each does, and its
 * errors in Linux's order. Run as `fdcalls DIR`, DIR a scratch directory. No number printed
 * depends on the machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#define SYS_CLOSE_RANGE 436 /* x86_64 */
#define SYS_PREADV2 327
#define SYS_PWRITEV2 328
#define RWF_DSYNC 0x02
#define RWF_BAD (1 << 30) /* no RWF_ flag has this bit (Linux 6.1 knows up to 0x10) */
#define FIRST_FD 10 /* close_range's range: far above what the program has open */

static const char *result(long r)
{
	static char buf[32];

	if (r >= 0) {
		snprintf(buf, sizeof(buf), "%ld", r);
		return buf;
	}
	switch (errno) {
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ENOTDIR: return "ENOTDIR";
	case ESPIPE: return "ESPIPE";
	case EFAULT: return "EFAULT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(errno);
	}
}

/* a's four bytes, a NUL shown as '.'. */
static const char *shown(const char *a)
{
	static char buf[5];

	for (int i = 0; i < 4; i++)
		buf[i] = a[i] ? a[i] : '.';
	return buf;
}

static void fchdir_cases(const char *dir)
{
	char cwd[PATH_MAX];
	int d = open(dir, O_RDONLY | O_DIRECTORY);
	int p = open("/", O_PATH);
	int f;

	chdir("/");
	printf("fchdir(dir): %s\n", result(fchdir(d)));
	printf("  cwd is dir: %s\n", getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, dir) ? "yes" : "no");
	f = open("file", O_CREAT | O_RDWR | O_TRUNC, 0644); /* made in dir, by its relative name */
	printf("  relative create lands in dir: %s\n",
	       faccessat(d, "file", F_OK, 0) == 0 ? "yes" : "no");
	printf("fchdir(O_PATH /): %s\n", result(fchdir(p)));
	printf("  cwd is /: %s\n", getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/") ? "yes" : "no");
	printf("fchdir(file): %s\n", result(fchdir(f)));
	printf("fchdir(-1): %s\n", result(fchdir(-1)));
	printf("fchdir(closed): %s\n", result(fchdir(999)));
	close(d);
	close(p);
	close(f);
	chdir(dir);
}

static long close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	return syscall(SYS_CLOSE_RANGE, first, last, flags);
}

/* Which of FIRST_FD .. FIRST_FD + 4 are open, and which close-on-exec: "o" "c" or "-". */
static void show_fds(const char *what)
{
	printf("%s:", what);
	for (int fd = FIRST_FD; fd < FIRST_FD + 5; fd++) {
		int fl = fcntl(fd, F_GETFD);

		printf(" %s", fl < 0 ? "-" : (fl & FD_CLOEXEC) ? "c" : "o");
	}
	printf("\n");
}

static void open_fds(void)
{
	for (int fd = FIRST_FD; fd < FIRST_FD + 5; fd++)
		dup2(1, fd);
}

static void close_range_cases(void)
{
	open_fds();
	show_fds("open");
	printf("close_range(+1, +2, 0): %s\n", result(close_range(FIRST_FD + 1, FIRST_FD + 2, 0)));
	show_fds("after");
	printf("close_range(+3, ~0, CLOEXEC): %s\n",
	       result(close_range(FIRST_FD + 3, ~0U, CLOSE_RANGE_CLOEXEC)));
	show_fds("after");
	printf("close_range(+0, ~0, 0): %s\n", result(close_range(FIRST_FD, ~0U, 0)));
	show_fds("after");
	printf("nothing open in the range: %s\n", result(close_range(FIRST_FD, FIRST_FD + 100, 0)));
	printf("first > last: %s\n", result(close_range(FIRST_FD + 1, FIRST_FD, 0)));
	printf("unknown flag: %s\n", result(close_range(FIRST_FD, FIRST_FD, 1)));
	open_fds();
	printf("CLOSE_RANGE_UNSHARE, no threads: %s\n",
	       result(close_range(FIRST_FD, ~0U, CLOSE_RANGE_UNSHARE)));
	show_fds("after");
}

static void vector_cases(void)
{
	char a[4], b[6], whole[16];
	struct iovec in[2] = {{a, sizeof(a)}, {b, sizeof(b)}};
	struct iovec out[2] = {{"abcd", 4}, {"efghij", 6}};
	int fd = open("vec", O_CREAT | O_RDWR | O_TRUNC, 0644);
	int pfd[2];

	printf("pwritev at 3: %s\n", result(pwritev(fd, out, 2, 3)));
	printf("  f_pos still: %s\n", result(lseek(fd, 0, SEEK_CUR)));
	memset(whole, 0, sizeof(whole));
	pread(fd, whole, sizeof(whole), 0);
	printf("  file: %d %.10s\n", whole[0], whole + 3);
	printf("preadv at 3: %s\n", result(preadv(fd, in, 2, 3)));
	printf("  got: %.4s %.6s\n", a, b);
	printf("preadv at 9 (short): %s\n", result(preadv(fd, in, 2, 9)));
	printf("preadv past the end: %s\n", result(preadv(fd, in, 2, 100)));
	printf("preadv at -1: %s\n", result(preadv(fd, in, 2, -1)));
	printf("pwritev at -5: %s\n", result(pwritev(fd, out, 2, -5)));
	pipe(pfd);
	printf("preadv on a pipe: %s\n", result(preadv(pfd[0], in, 2, 0)));
	printf("pwritev on a pipe: %s\n", result(pwritev(pfd[1], out, 2, 0)));
	printf("preadv on a closed fd: %s\n", result(preadv(999, in, 2, 0)));
	int wo = open("vec", O_WRONLY);
	printf("preadv of a write-only fd: %s\n", result(preadv(wo, in, 2, 0)));
	close(wo);
	printf("preadv, a bad vector: %s\n", result(preadv(fd, (struct iovec *)8, 2, 0)));
	printf("preadv, vlen 0: %s\n", result(preadv(fd, in, 0, 0)));
	printf("preadv, vlen 1025: %s\n", result(preadv(fd, in, 1025, 0)));

	lseek(fd, 1, SEEK_SET);
	printf("preadv2 at -1 (f_pos): %s\n",
	       result(syscall(SYS_PREADV2, fd, in, 1, -1L, 0L, 0)));
	printf("  f_pos moved to: %s, got %s\n", result(lseek(fd, 0, SEEK_CUR)), shown(a));
	printf("preadv2 at 5, RWF_DSYNC: %s\n",
	       result(syscall(SYS_PREADV2, fd, in, 1, 5L, 0L, RWF_DSYNC)));
	printf("  f_pos still: %s, got %s\n", result(lseek(fd, 0, SEEK_CUR)), shown(a));
	printf("pwritev2 at 0: %s\n", result(syscall(SYS_PWRITEV2, fd, out, 1, 0L, 0L, 0)));
	printf("pwritev2 at -1 (f_pos): %s\n",
	       result(syscall(SYS_PWRITEV2, fd, out + 1, 1, -1L, 0L, 0)));
	printf("  f_pos moved to: %s\n", result(lseek(fd, 0, SEEK_CUR)));
	memset(whole, 0, sizeof(whole));
	pread(fd, whole, sizeof(whole), 0);
	printf("  file: %.13s\n", whole);
	printf("preadv2, an unknown flag: %s\n",
	       result(syscall(SYS_PREADV2, fd, in, 1, 0L, 0L, RWF_BAD)));
	printf("pwritev2 at -2: %s\n", result(syscall(SYS_PWRITEV2, fd, out, 1, -2L, 0L, 0)));
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fdcalls DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	chdir(argv[1]);
	fchdir_cases(argv[1]);
	close_range_cases();
	vector_cases();
	return 0;
}

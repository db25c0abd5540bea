/*
 * statfs and fstatfs: /proc's figures (Linux's simple_statfs: its magic, a
 * page a block, no blocks), the same answer by path and by descriptor for DIR and /proc, and
 * Linux's errors. Prints what is the same on every Linux, for tests/qemu/user/test_syscalls.py.
 *
 * Usage: statfs DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC 0x9fa0
#define ST_VALID 0x0020

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

/* statfs and fstatfs of path agree (the free counts may move between the two: not compared). */
static void both(const char *path)
{
	struct statfs a, b;
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	step("statfs", statfs(path, &a));
	step("fstatfs", fstatfs(fd, &b));
	step("same type", a.f_type == b.f_type);
	step("same size", a.f_blocks == b.f_blocks && a.f_bsize == b.f_bsize);
	step("namelen", a.f_namelen);
	step("frsize is bsize", a.f_frsize == a.f_bsize);
	step("ST_VALID", !!(a.f_flags & ST_VALID));
	close(fd);
}

int main(int argc, char **argv)
{
	struct statfs st;

	if (argc != 2) {
		fprintf(stderr, "usage: statfs DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	both(argv[1]);
	both("/proc");
	step("statfs /proc", statfs("/proc/self", &st));
	printf("/proc: type %#lx bsize %ld blocks %lu bfree %lu files %lu\n",
	       (unsigned long)st.f_type, (long)st.f_bsize, (unsigned long)st.f_blocks,
	       (unsigned long)st.f_bfree, (unsigned long)st.f_files);
	step("type is PROC_SUPER_MAGIC", st.f_type == PROC_SUPER_MAGIC);
	step("statfs missing", statfs("/nonexistent/x", &st));
	step("statfs empty", statfs("", &st));
	/* musl's statfs clears the buffer itself first: the system call, straight. */
	step("statfs bad buffer", syscall(SYS_statfs, "/", (struct statfs *)8));
	step("fstatfs bad buffer", syscall(SYS_fstatfs, 0, (struct statfs *)8));
	step("fstatfs bad fd", fstatfs(-1, &st));
	step("fstatfs closed fd", fstatfs(99, &st));
	return 0;
}

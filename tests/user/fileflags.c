/*
 * The file system calls beyond the basics: pread64/pwrite64/readv, the open
 * and fcntl flags (O_APPEND, O_NONBLOCK, O_CLOEXEC across execve, F_GETFL/F_SETFL), chmod,
 * utimensat, truncate, umask and the *at() calls relative to a directory descriptor. Every step
 * prints what it got and the test compares the whole output with what the same binary prints on
 * Linux (tests/qemu/user/test_syscalls.py runs both).
 *
 * Usage: fileflags DIR (works in DIR/ff, which it makes and removes). It runs itself again as
 * "fileflags --child FD..." through execve, which reports which descriptors survived the exec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

/* fcntl's F_GETFL in octal, the way the flags are written in fcntl.h. */
static void getfl(const char *what, int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		step(what, fl);
	else
		printf("%s: 0%o\n", what, fl);
}

static void child(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		int fd = atoi(argv[i]);
		char name[32];

		snprintf(name, sizeof(name), "after exec fd %d", fd);
		step(name, fcntl(fd, F_GETFD));
	}
}

static void rw_group(void)
{
	char buf[32] = {0};
	struct iovec iov[2] = {{buf, 4}, {buf + 10, 6}};
	int p[2];
	int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);

	step("write", write(fd, "0123456789abcdef", 16));
	step("pread", pread(fd, buf, 5, 3));
	printf("buf=%s\n", buf);
	step("offset after pread", lseek(fd, 0, SEEK_CUR));
	step("pwrite", pwrite(fd, "XY", 2, 20));
	step("size after pwrite", lseek(fd, 0, SEEK_END));
	memset(buf, 0, sizeof(buf));
	step("pread past a hole", pread(fd, buf, sizeof(buf), 14));
	printf("bytes=%d%d%d%d%c%c\n", buf[0], buf[1], buf[2], buf[3], buf[6], buf[7]);
	step("pread at the end", pread(fd, buf, 4, 22));
	step("pread negative", pread(fd, buf, 4, -1));
	step("lseek 0", lseek(fd, 0, SEEK_SET));
	memset(buf, 0, sizeof(buf));
	step("readv", readv(fd, iov, 2));
	printf("readv=%.4s|%.6s\n", buf, buf + 10);
	close(fd);
	fd = open("data", O_WRONLY);
	step("pread write-only", pread(fd, buf, 4, 0));
	close(fd);
	fd = open(".", O_RDONLY | O_DIRECTORY);
	step("pread directory", pread(fd, buf, 4, 0));
	close(fd);
	step("pread bad fd", pread(99, buf, 4, 0));
	step("pipe", pipe(p));
	step("pread pipe", pread(p[0], buf, 4, 0));
	step("pwrite pipe", pwrite(p[1], "x", 1, 0));
	step("lseek pipe", lseek(p[0], 0, SEEK_SET));
	close(p[0]);
	close(p[1]);
}

static void flags_group(void)
{
	char buf[32] = {0};
	struct stat st;
	int p[2];
	int fd = open("data", O_RDWR);

	getfl("getfl rdwr", fd);
	close(fd);
	fd = open("data", O_WRONLY | O_APPEND | O_CREAT);
	getfl("getfl append", fd);
	step("lseek 0", lseek(fd, 0, SEEK_SET));
	step("append write", write(fd, "++", 2));
	step("offset after append", lseek(fd, 0, SEEK_CUR));
	step("setfl no append", fcntl(fd, F_SETFL, 0));
	getfl("getfl cleared", fd);
	step("lseek 0", lseek(fd, 0, SEEK_SET));
	step("overwrite", write(fd, "==", 2));
	step("setfl append+junk", fcntl(fd, F_SETFL, O_APPEND | O_RDWR | O_TRUNC));
	getfl("getfl append again", fd);
	close(fd);
	fd = open("data", O_RDONLY);
	step("read back", read(fd, buf, sizeof(buf) - 1));
	printf("data=%.2s...%s\n", buf, buf + 20);
	close(fd);
	fd = open("data", O_RDWR | O_TRUNC);
	step("fstat after O_TRUNC", fstat(fd, &st) ? -1 : st.st_size);
	close(fd);
	step("O_EXCL existing", open("data", O_RDWR | O_CREAT | O_EXCL, 0644));
	step("O_DIRECTORY on a file", open("data", O_RDONLY | O_DIRECTORY));
	fd = open(".", O_RDONLY | O_DIRECTORY);
	step("O_DIRECTORY on a directory", fd >= 0 ? 0 : -1);
	getfl("getfl directory", fd);
	close(fd);
	step("write-only directory", open(".", O_WRONLY));
	step("missing without O_CREAT", open("missing", O_RDONLY));
	step("getfl bad fd", fcntl(99, F_GETFL));
	step("setfl bad fd", fcntl(99, F_SETFL, O_NONBLOCK));

	step("pipe", pipe(p));
	getfl("getfl pipe read", p[0]);
	getfl("getfl pipe write", p[1]);
	step("setfl nonblock", fcntl(p[0], F_SETFL, O_NONBLOCK));
	getfl("getfl pipe nonblock", p[0]);
	step("read empty nonblocking", read(p[0], buf, 4));
	step("write", write(p[1], "ab", 2));
	step("read", read(p[0], buf, 4));
	close(p[0]);
	close(p[1]);
	step("pipe2 nonblock|cloexec", pipe2(p, O_NONBLOCK | O_CLOEXEC));
	getfl("getfl pipe2 read", p[0]);
	getfl("getfl pipe2 write", p[1]);
	step("getfd pipe2", fcntl(p[0], F_GETFD));
	step("read empty pipe2", read(p[0], buf, 4));
	close(p[0]);
	close(p[1]);
	step("pipe2 bad flags", pipe2(p, O_APPEND));
}

static void cloexec_group(const char *self)
{
	int fd = open("data", O_RDONLY | O_CLOEXEC), keep, d, status;
	char a[16], b[16], c[16], e[16];

	step("getfd O_CLOEXEC", fcntl(fd, F_GETFD));
	getfl("getfl O_CLOEXEC", fd);
	step("setfd 0", fcntl(fd, F_SETFD, 0));
	step("getfd", fcntl(fd, F_GETFD));
	step("setfd FD_CLOEXEC", fcntl(fd, F_SETFD, FD_CLOEXEC));
	keep = dup(fd);
	step("getfd dup", fcntl(keep, F_GETFD));
	d = dup3(fd, 20, O_CLOEXEC);
	step("dup3 cloexec", d);
	step("getfd dup3", fcntl(d, F_GETFD));
	step("dup2 over it", dup2(keep, 20));
	step("getfd after dup2", fcntl(20, F_GETFD));
	d = fcntl(fd, F_DUPFD_CLOEXEC, 30);
	step("dupfd_cloexec", d);
	step("getfd dupfd_cloexec", fcntl(d, F_GETFD));
	step("dup3 same fd", dup3(fd, fd, 0));
	step("dup3 bad flags", syscall(SYS_dup3, fd, 21, O_APPEND)); /* musl masks them */
	step("getfd bad fd", fcntl(99, F_GETFD));
	snprintf(a, sizeof(a), "%d", fd);
	snprintf(b, sizeof(b), "%d", keep);
	snprintf(c, sizeof(c), "%d", 20);
	snprintf(e, sizeof(e), "%d", d);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execlp(self, self, "--child", a, b, c, e, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("child status %d\n", WEXITSTATUS(status));
	close(fd);
	close(keep);
	close(20);
	close(d);
}

static void mode_of(const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		step(what, -1);
	else
		printf("%s: 0%o\n", what, st.st_mode & 07777);
}

static void chmod_group(void)
{
	int fd = open("data", O_RDONLY);

	step("chmod", chmod("data", 0600));
	mode_of("after chmod", "data");
	step("chmod type bits", chmod("data", S_IFDIR | 04751));
	mode_of("after chmod type bits", "data");
	step("fchmod", fchmod(fd, 0444));
	mode_of("after fchmod", "data");
	step("fchmod bad fd", fchmod(99, 0644));
	step("fchmodat", fchmodat(AT_FDCWD, "data", 0640, 0));
	mode_of("after fchmodat", "data");
	step("chmod missing", chmod("missing", 0644));
	step("chmod dir", chmod(".", 0700));
	mode_of("dir after chmod", ".");
	step("chmod dir back", chmod(".", 0755));
	close(fd);
}

static void times_of(const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		step(what, -1);
	else
		printf("%s: atime %ld.%09ld mtime %ld.%09ld\n", what, (long)st.st_atim.tv_sec,
		       st.st_atim.tv_nsec, (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

#define SLACK_NS 100000000L /* Linux stamps files with a coarse clock, up to a tick behind */
#define FUTURE 2000000000L /* 2033: never "now", on Linux or on Lucid (whose clock starts at 0) */

static long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

/* Which of the file's times were stamped "now", since before? Now differs between machines. */
static void stamped_since(const char *what, const char *path, const struct timespec *before)
{
	struct timespec after;
	struct stat st;
	long lo = ns_of(before) - SLACK_NS, hi;

	clock_gettime(CLOCK_REALTIME, &after);
	hi = ns_of(&after) + SLACK_NS;
	stat(path, &st);
	printf("%s: mtime now %d atime now %d ctime now %d\n", what,
	       ns_of(&st.st_mtim) >= lo && ns_of(&st.st_mtim) <= hi,
	       ns_of(&st.st_atim) >= lo && ns_of(&st.st_atim) <= hi,
	       ns_of(&st.st_ctim) >= lo && ns_of(&st.st_ctim) <= hi);
}

static void times_group(void)
{
	struct timespec t[2] = {{FUTURE, 500}, {FUTURE + 1, 999999999}};
	struct timespec before;
	struct stat st;
	int fd = open("data", O_RDWR);

	step("utimensat", utimensat(AT_FDCWD, "data", t, 0));
	times_of("set", "data");
	t[0].tv_nsec = UTIME_OMIT;
	t[1].tv_sec = FUTURE + 42;
	t[1].tv_nsec = 7;
	step("utimensat omit atime", utimensat(AT_FDCWD, "data", t, 0));
	times_of("omitted", "data");
	t[1].tv_nsec = 1000000000;
	step("utimensat bad nsec", utimensat(AT_FDCWD, "data", t, 0));
	t[1].tv_nsec = -1;
	step("utimensat negative nsec", utimensat(AT_FDCWD, "data", t, 0));
	step("utimensat bad flags", utimensat(AT_FDCWD, "data", NULL, 0x4));
	step("utimensat missing", utimensat(AT_FDCWD, "missing", NULL, 0));
	t[0].tv_nsec = 0;
	t[0].tv_sec = FUTURE + 5;
	t[1].tv_nsec = UTIME_NOW;
	clock_gettime(CLOCK_REALTIME, &before);
	step("futimens", futimens(fd, t));
	stamped_since("futimens now", "data", &before);
	step("futimens atime", stat("data", &st) ? -1 : st.st_atim.tv_sec);
	step("utimensat NULL name, fd", syscall(SYS_utimensat, fd, NULL, t, 0));
	step("utimensat NULL name, AT_FDCWD", syscall(SYS_utimensat, AT_FDCWD, NULL, t, 0));
	step("utimensat NULL name, flags",
	     syscall(SYS_utimensat, fd, NULL, t, AT_SYMLINK_NOFOLLOW));
	clock_gettime(CLOCK_REALTIME, &before);
	step("utimensat empty path", utimensat(fd, "", NULL, AT_EMPTY_PATH));
	stamped_since("empty path now", "data", &before);
	step("utimensat nofollow", utimensat(AT_FDCWD, "data", t, AT_SYMLINK_NOFOLLOW));
	step("utimensat bad fd", futimens(99, t));
	t[0].tv_sec = t[1].tv_sec = FUTURE;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	utimensat(AT_FDCWD, "data", t, 0);
	clock_gettime(CLOCK_REALTIME, &before);
	step("write", write(fd, "t", 1));
	stamped_since("after write", "data", &before);
	utimensat(AT_FDCWD, "data", t, 0);
	clock_gettime(CLOCK_REALTIME, &before);
	step("ftruncate", ftruncate(fd, 0));
	stamped_since("after ftruncate", "data", &before);
	step("ftruncate negative", ftruncate(fd, -1));
	step("truncate", truncate("data", 3));
	step("size", stat("data", &st) ? -1 : st.st_size);
	step("truncate missing", truncate("missing", 0));
	step("truncate directory", truncate(".", 0));
	step("ftruncate bad fd", ftruncate(99, 0));
	close(fd);
}

static void umask_group(void)
{
	step("umask", umask(027));
	step("umask again", umask(027));
	close(open("masked", O_WRONLY | O_CREAT, 0666));
	mode_of("file mode", "masked");
	mkdir("maskdir", 0777);
	mode_of("dir mode", "maskdir");
	step("umask junk", umask(0177777));
	step("umask back", umask(022));
	unlink("masked");
	rmdir("maskdir");
}

static void at_group(void)
{
	struct stat st;
	int dfd, fd;

	step("mkdir d", mkdir("d", 0755));
	dfd = open("d", O_RDONLY | O_DIRECTORY);
	fd = openat(dfd, "f", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	step("openat", fd >= 0 ? 0 : -1);
	step("write", write(fd, "at", 2));
	step("fstatat", fstatat(dfd, "f", &st, 0) ? -1 : st.st_size);
	step("fstatat nofollow", fstatat(dfd, "f", &st, AT_SYMLINK_NOFOLLOW) ? -1 : st.st_size);
	step("fstatat empty path", fstatat(fd, "", &st, AT_EMPTY_PATH) ? -1 : st.st_size);
	step("fstatat empty no flag", fstatat(fd, "", &st, 0));
	step("fstatat bad flag", fstatat(dfd, "f", &st, 0x4));
	step("stat through d", stat("d/f", &st) ? -1 : st.st_size);
	step("mkdirat", mkdirat(dfd, "sub", 0755));
	step("mkdirat again", mkdirat(dfd, "sub", 0755));
	step("fstatat dir", fstatat(dfd, "sub", &st, 0) ? -1 : S_ISDIR(st.st_mode));
	step("openat on a file fd", openat(fd, "x", O_RDONLY));
	step("openat bad fd", openat(99, "x", O_RDONLY));
	step("openat absolute, bad fd", (fd = openat(99, "/", O_RDONLY)) >= 0 ? 0 : -1);
	close(fd);
	step("renameat", renameat(dfd, "f", dfd, "g"));
	step("renameat2 noreplace", syscall(SYS_renameat2, dfd, "g", dfd, "sub", RENAME_NOREPLACE));
	step("renameat2 noreplace missing",
	     syscall(SYS_renameat2, dfd, "nope", dfd, "sub", RENAME_NOREPLACE));
	step("renameat2 noreplace free",
	     syscall(SYS_renameat2, dfd, "g", AT_FDCWD, "h", RENAME_NOREPLACE));
	step("renameat2 bad flags", syscall(SYS_renameat2, dfd, "g", dfd, "h", 0x80));
	step("stat moved", stat("h", &st) ? -1 : st.st_size);
	step("unlinkat dir", unlinkat(dfd, "sub", 0));
	step("unlinkat bad flag", unlinkat(dfd, "sub", 0x4));
	step("unlinkat removedir", unlinkat(dfd, "sub", AT_REMOVEDIR));
	step("unlinkat file", unlinkat(AT_FDCWD, "h", 0));
	step("unlinkat missing", unlinkat(dfd, "h", 0));
	close(dfd);
	step("rmdir d", rmdir("d"));
}

int main(int argc, char **argv)
{
	char dir[256];

	if (argc > 1 && !strcmp(argv[1], "--child")) {
		child(argc, argv);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: fileflags DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	snprintf(dir, sizeof(dir), "%s/ff", argv[1]);
	step("mkdir", mkdir(dir, 0755));
	step("chdir", chdir(dir));
	rw_group();
	flags_group();
	cloexec_group(argv[0]);
	chmod_group();
	times_group();
	umask_group();
	at_group();
	unlink("data");
	step("chdir ..", chdir(".."));
	step("rmdir", rmdir("ff"));
	return 0;
}

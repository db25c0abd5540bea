/*
 * openat2 and its RESOLVE_* flags, judged against Linux (tests/qemu/user/test_fd_events.py): the
 * checks on struct open_how (size, unknown flags, mode, resolve bits), and each flag's rule on a
 * small tree: RESOLVE_NO_SYMLINKS, RESOLVE_NO_MAGICLINKS (/proc/self/fd/N), RESOLVE_NO_XDEV
 * (into and out of /proc), RESOLVE_BENEATH and RESOLVE_IN_ROOT (absolute names, "..", links
 * out), RESOLVE_CACHED. What an open found is shown by the file's text.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#define RESOLVE_CACHED 0x20

struct open_how {
	uint64_t flags, mode, resolve;
};

static long openat2(int dfd, const char *name, uint64_t flags, uint64_t mode, uint64_t resolve)
{
	struct open_how how = {flags, mode, resolve};

	return syscall(SYS_openat2, dfd, name, &how, sizeof(how));
}

/* Opens, and shows the error or the first line of what it opened. */
static void try(const char *what, int dfd, const char *name, uint64_t flags, uint64_t resolve)
{
	long fd = openat2(dfd, name, flags, 0, resolve);
	char buf[64] = "";

	if (fd < 0) {
		printf("%s: %s\n", what, strerror(errno));
		return;
	}
	ssize_t n = read((int)fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	/* Our files by their text; another (a /proc file) only as opened. */
	printf("%s: opened, %s\n", what,
	       !strcmp(buf, "inside") || !strcmp(buf, "outside") ? buf : "another file");
	close((int)fd);
}

/* A call's result, errno read after it (not as another argument beside it). */
static void res(const char *what, long ret)
{
	printf("%s: %ld %s\n", what, ret, ret < 0 ? strerror(errno) : "");
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	write(fd, text, strlen(text));
	close(fd);
}

int main(void)
{
	char big[64] = {0}, link[64];
	struct open_how how = {O_RDONLY, 0, 0};
	int d, root, proc, fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	mkdir("d", 0755);
	mkdir("d/sub", 0755);
	put("d/f", "inside\n");
	put("x", "outside\n");
	symlink("f", "d/lnk");
	symlink("../x", "d/up");
	symlink("/f", "d/abs");
	d = open("d", O_RDONLY | O_DIRECTORY);
	root = open("/", O_RDONLY | O_DIRECTORY);
	proc = open("/proc", O_RDONLY | O_DIRECTORY);

	/* struct open_how's checks. */
	res("size 0", syscall(SYS_openat2, d, "f", &how, 0));
	res("size 23", syscall(SYS_openat2, d, "f", &how, 23));
	res("size 4097", syscall(SYS_openat2, d, "f", big, 4097));
	memcpy(big, &how, sizeof(how));
	fd = (int)syscall(SYS_openat2, d, "f", big, 32);
	printf("size 32, zero tail: %s\n", fd >= 0 ? "opened" : strerror(errno));
	close(fd);
	big[30] = 1;
	res("size 32, a byte set past the struct", syscall(SYS_openat2, d, "f", big, 32));
	res("fault", syscall(SYS_openat2, d, "f", (void *)8, sizeof(how)));
	try("unknown flag bit 1 << 40", d, "f", 1ULL << 40, 0);
	try("unknown flag 0x80000000", d, "f", 0x80000000ULL, 0);
	res("mode without O_CREAT", openat2(d, "f", O_RDONLY, 0644, 0));
	res("mode 010644 with O_CREAT", openat2(d, "new", O_CREAT | O_WRONLY, 010644, 0));
	try("resolve bit 0x40", d, "f", O_RDONLY, 0x40);
	try("BENEATH | IN_ROOT", d, "f", O_RDONLY, RESOLVE_BENEATH | RESOLVE_IN_ROOT);
	res("CACHED with O_CREAT", openat2(d, "f", O_CREAT | O_RDONLY, 0644, RESOLVE_CACHED));
	try("CACHED, a file just used", d, "f", O_RDONLY, RESOLVE_CACHED);
	try("empty name", d, "", O_RDONLY, 0);
	try("bad dirfd", 99, "f", O_RDONLY, 0);
	try("dirfd not a directory", 0, "f", O_RDONLY, 0);
	fd = (int)openat2(d, "f", O_RDONLY | O_CLOEXEC, 0, 0);
	printf("O_CLOEXEC: FD_CLOEXEC %d, F_GETFL %#o\n", fcntl(fd, F_GETFD), fcntl(fd, F_GETFL));
	close(fd);
	fd = (int)openat2(d, "made", O_CREAT | O_WRONLY, 0600, 0);
	struct stat st;
	fstat(fd, &st);
	printf("O_CREAT 0600: mode %o\n", st.st_mode & 07777);
	close(fd);

	/* RESOLVE_NO_SYMLINKS and RESOLVE_NO_MAGICLINKS. */
	try("plain, a link", d, "lnk", O_RDONLY, 0);
	try("NO_SYMLINKS, a link", d, "lnk", O_RDONLY, RESOLVE_NO_SYMLINKS);
	try("NO_SYMLINKS, a link with O_NOFOLLOW", d, "lnk", O_RDONLY | O_NOFOLLOW,
	    RESOLVE_NO_SYMLINKS);
	try("NO_SYMLINKS, sub/../f", d, "sub/../f", O_RDONLY, RESOLVE_NO_SYMLINKS);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", d);
	try("plain, /proc/self/fd/N/f", AT_FDCWD, strcat(link, "/f"), O_RDONLY, 0);
	try("NO_MAGICLINKS, /proc/self/fd/N/f", AT_FDCWD, link, O_RDONLY, RESOLVE_NO_MAGICLINKS);
	try("NO_SYMLINKS, /proc/self/fd/N/f", AT_FDCWD, link, O_RDONLY, RESOLVE_NO_SYMLINKS);
	try("NO_MAGICLINKS, /proc/self/status", AT_FDCWD, "/proc/self/status", O_RDONLY,
	    RESOLVE_NO_MAGICLINKS);

	/* RESOLVE_NO_XDEV: /proc is a mount of its own. */
	try("NO_XDEV, / then proc/self/status", root, "proc/self/status", O_RDONLY,
	    RESOLVE_NO_XDEV);
	try("plain, / then proc/self/status", root, "proc/self/status", O_RDONLY, 0);
	try("NO_XDEV, /proc then self/status", proc, "self/status", O_RDONLY, RESOLVE_NO_XDEV);
	try("NO_XDEV, /proc then ../proc/self/status", proc, "../proc/self/status", O_RDONLY,
	    RESOLVE_NO_XDEV);

	/* RESOLVE_BENEATH: nothing above dirfd's directory. */
	try("BENEATH, f", d, "f", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, sub/../f", d, "sub/../f", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, lnk", d, "lnk", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, ../x", d, "../x", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, up (a link to ../x)", d, "up", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, abs (a link to /f)", d, "abs", O_RDONLY, RESOLVE_BENEATH);
	try("BENEATH, an absolute name", d, "/proc/self/status", O_RDONLY, RESOLVE_BENEATH);
	snprintf(link, sizeof(link), "%d/f", d);
	int fds = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	try("BENEATH, a magic link", fds, link, O_RDONLY, RESOLVE_BENEATH);

	/* RESOLVE_IN_ROOT: dirfd's directory is "/" for the lookup. */
	try("IN_ROOT, /f", d, "/f", O_RDONLY, RESOLVE_IN_ROOT);
	try("IN_ROOT, ../../f", d, "../../f", O_RDONLY, RESOLVE_IN_ROOT);
	try("IN_ROOT, abs (a link to /f)", d, "abs", O_RDONLY, RESOLVE_IN_ROOT);
	try("IN_ROOT, up (a link to ../x)", d, "up", O_RDONLY, RESOLVE_IN_ROOT);
	try("plain, up", d, "up", O_RDONLY, 0);
	try("IN_ROOT, a magic link", fds, link, O_RDONLY, RESOLVE_IN_ROOT);

	unlink("d/lnk");
	unlink("d/up");
	unlink("d/abs");
	unlink("d/f");
	unlink("d/made");
	unlink("x");
	rmdir("d/sub");
	rmdir("d");
	return 0;
}

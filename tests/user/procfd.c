/*
 * /proc/self/fd and fdinfo, judged against Linux (tests/qemu/user/test_syscalls.py): a link's text
 * for a pipe ("pipe:[INODE]", the inode fstat gives), a file, a removed file and a pidfd; the
 * link's mode by how the file is open; opening a link opens the file again (a pipe: a new
 * reader or writer of the same pipe, O_RDWR too; a removed file still); stat through a link is the
 * file's; fdinfo's flags in octal with O_CLOEXEC, O_APPEND, O_NONBLOCK; the errors for names
 * that are not open descriptors. Run in an empty directory (argv[1]).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "show.h"

static char buf[4096];

static const char *link_of(int fd)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = '\0';
	return n < 0 ? strerror(errno) : buf;
}

static void show_mode(int fd)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (lstat(path, &st))
		printf("lstat %d: %s\n", fd, strerror(errno));
	else
		printf("fd %d: mode %o size %ld\n", fd, (unsigned)st.st_mode, (long)st.st_size);
}

/* fdinfo's lines but mnt_id and ino, which differ between machines. */
static void show_fdinfo(int fd)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f) {
		printf("fdinfo %d: %s\n", fd, strerror(errno));
		return;
	}
	while (fgets(buf, sizeof(buf), f))
		if (strncmp(buf, "pos:", 4) == 0 || strncmp(buf, "flags:", 6) == 0)
			printf("fdinfo %d: %s", fd, buf);
	fclose(f);
}

static int reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	return open(path, flags);
}

int main(int argc, char **argv)
{
	int p[2], r, w, rw, fd, pidfd;
	struct stat st, st2;
	char c;

	if (argc != 2 || chdir(argv[1]))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Keep 3 and up free of whatever the caller left open. */
	for (fd = 3; fd < 64; fd++)
		close(fd);

	if (pipe(p))
		return 1;
	fstat(p[0], &st);
	snprintf(buf, sizeof(buf), "pipe:[%lu]", (unsigned long)st.st_ino);
	printf("pipe's link is pipe:[its inode]: %s\n", strcmp(link_of(p[0]), buf) ? "no" : "yes");
	printf("both ends the same: %s\n", strcmp(link_of(p[1]), buf) ? "no" : "yes");
	show_mode(p[0]);
	show_mode(p[1]);
	show_fdinfo(p[0]);
	show_fdinfo(p[1]);
	/* A new open of the pipe: a writer through the link, the reader gets its bytes. */
	w = reopen(p[0], O_WRONLY);
	printf("reopen for writing: %s\n", w >= 0 ? "ok" : strerror(errno));
	SHOW("write via the new writer", write(w, "x", 1));
	SHOW("read from the old reader", read(p[0], &c, 1));
	printf("read '%c'\n", c);
	close(p[1]);
	close(w);
	SHOW("read at end of file, every writer gone", read(p[0], &c, 1));
	r = reopen(p[0], O_RDONLY | O_NONBLOCK);
	printf("reopen for reading: %s\n", r >= 0 ? "ok" : strerror(errno));
	show_fdinfo(r);
	close(r);
	rw = reopen(p[0], O_RDWR);
	printf("reopen O_RDWR: %s\n", rw >= 0 ? "ok" : strerror(errno));
	SHOW("write and read back through it", write(rw, "y", 1) == 1 && read(rw, &c, 1) == 1);
	show_mode(rw);
	close(rw);
	close(p[0]);

	fd = open("file", O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
	SHOW("write", write(fd, "hello\n", 6));
	printf("file: %s\n", strstr(link_of(fd), "/file") ? "its path" : buf);
	show_mode(fd);
	show_fdinfo(fd);
	stat("/dev/fd/3", &st);
	fstat(fd, &st2);
	printf("stat through the link is the file's: %s\n",
	       st.st_ino == st2.st_ino && S_ISREG(st.st_mode) && st.st_size == 6 ? "yes" : "no");
	r = reopen(fd, O_RDONLY);
	SHOW("read the file through the link", read(r, buf, sizeof(buf)));
	lseek(r, 2, SEEK_SET);
	show_fdinfo(r);
	close(r);
	unlink("file");
	printf("removed: ends with /file (deleted): %s\n",
	       strlen(link_of(fd)) > 15 && !strcmp(buf + strlen(buf) - 15, "/file (deleted)")
		       ? "yes"
		       : buf);
	r = reopen(fd, O_RDONLY);
	SHOW("open a removed file through its link", r);
	SHOW("and read it", read(r, buf, sizeof(buf)));
	close(r);
	close(fd);

	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	/* Opening it is ENXIO on Linux 6.1 (an anon inode), allowed since pidfs (6.9): not here. */
	printf("pidfd: %s\n", link_of(pidfd));
	close(pidfd);

	/* An eventfd (an anon inode) and a socket (sockfs) refuse to be opened again: ENXIO. */
	fd = eventfd(0, 0);
	SHOW("reopen an eventfd", reopen(fd, O_RDWR));
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	SHOW("reopen a socket", reopen(fd, O_RDWR));
	close(fd);

	SHOW("readlink of a closed fd", readlink("/proc/self/fd/9", buf, sizeof(buf)));
	SHOW("open a closed fd", open("/dev/fd/9", O_RDONLY));
	SHOW("fd 00", open("/proc/self/fd/00", O_RDONLY));
	SHOW("fd +0", open("/proc/self/fdinfo/+0", O_RDONLY));
	SHOW("fd 99999999999", open("/proc/self/fd/99999999999", O_RDONLY));
	SHOW("mkdir in fd", mkdir("/proc/self/fd/x", 0755));
	SHOW("symlink in fd", symlink("/", "/proc/self/fd/7"));
	SHOW("unlink of a link", unlink("/proc/self/fd/0"));
	SHOW("O_NOFOLLOW on a link", open("/proc/self/fd/0", O_RDONLY | O_NOFOLLOW));
	SHOW("O_DIRECTORY through a link", open("/dev/stdin", O_RDONLY | O_DIRECTORY));
	SHOW("a file below a link to a non-directory", open("/dev/stdin/x", O_RDONLY));
	return 0;
}

/*
 * modload FILE NAME COUNT: loads the module in FILE and unloads it (as NAME), COUNT times, with
 * the system calls kmod's insmod and rmmod use: finit_module on odd rounds, init_module of the
 * file's bytes on even ones, then delete_module. Several at once, each on its own module, load
 * and unload on every CPU (tests/qemu/kernel/test_module.py). Any failure stops it with kmod's
 * words and status 1.
 *
 * modload -f FILE COUNT: the load must fail every time (a module whose init refuses, say): the
 * loader's way out, COUNT times. A load that succeeds stops it with status 1.
 *
 * modload -i FILE: one load under fault injection, left loaded. It marks itself for injection
 * (/proc/self/make-it-fail, Linux's task filter) only once the file is open and read, so that
 * what fails is the kernel's loader, not exec's or the program's own first page faults (which
 * would kill it: no page for a fault is an out-of-memory kill, not an error it could print).
 * Then finit_module, and init_module of the bytes if that fails, as busybox's insmod does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *read_file(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0)
		return NULL;
	buf = malloc((size_t)st.st_size);
	for (off_t got = 0; buf && got < st.st_size;) { /* a read may return less */
		ssize_t n = read(fd, buf + got, (size_t)(st.st_size - got));

		if (n <= 0) {
			free(buf);
			buf = NULL;
		}
		got += n;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static long load(const char *path, int round)
{
	long ret;

	if (round % 2) {
		int fd = open(path, O_RDONLY);

		if (fd < 0)
			return -1;
		ret = syscall(SYS_finit_module, fd, "", 0);
		close(fd);
	} else {
		size_t len;
		void *buf = read_file(path, &len);

		if (!buf)
			return -1;
		ret = syscall(SYS_init_module, buf, len, "");
		free(buf);
	}
	return ret;
}

/*
 * errno in kmod's words: Debian's kmod is built on glibc, whose strerror says "Cannot allocate
 * memory" where musl's says "Out of memory"; the other errnos a load gives read the same.
 */
static const char *kmod_strerror(int err)
{
	return err == ENOMEM ? "Cannot allocate memory" : strerror(err);
}

/* Marks this process: from now on its allocations in the kernel are the ones injected. */
static int make_it_fail(void)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);
	int ok = fd >= 0 && write(fd, "1", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int load_under_injection(const char *path)
{
	size_t len;
	void *buf = read_file(path, &len);
	int fd = open(path, O_RDONLY);

	if (!buf || fd < 0 || make_it_fail() < 0) {
		fprintf(stderr, "modload: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (syscall(SYS_finit_module, fd, "", 0) < 0 &&
	    syscall(SYS_init_module, buf, len, "") < 0) {
		fprintf(stderr, "insmod: ERROR: could not insert module %s: %s\n", path,
			kmod_strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-i"))
		return load_under_injection(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "-f")) {
		for (int i = 1, n = atoi(argv[3]); i <= n; i++) {
			if (load(argv[2], i) == 0) {
				fprintf(stderr, "modload: %s loaded, but should fail\n", argv[2]);
				return 1;
			}
		}
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: modload FILE NAME COUNT | modload -f FILE COUNT | modload "
				"-i FILE\n");
		return 2;
	}
	int count = atoi(argv[3]);

	for (int i = 1; i <= count; i++) {
		if (load(argv[1], i) < 0) {
			fprintf(stderr, "insmod: ERROR: could not insert module %s: %s\n", argv[1],
				kmod_strerror(errno));
			return 1;
		}
		if (syscall(SYS_delete_module, argv[2], O_NONBLOCK) < 0) {
			fprintf(stderr, "rmmod: ERROR: could not remove module %s: %s\n", argv[2],
				kmod_strerror(errno));
			return 1;
		}
	}
	return 0;
}

/*
 * klogctl TYPE [LEN [null|bad]]: one syslog(2) call, as busybox's dmesg makes them (klogctl),
 * and what it returned: "ret N", or "ret -1 EINVAL" with errno's name; then, for the actions
 * that read (2, 3, 4), the bytes it gave. Without LEN, len is 0. The buffer is LEN bytes of
 * ours, or NULL (null), or an address nothing maps (bad), for the errors Linux gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define UNMAPPED ((char *)0x1000) /* below mmap_min_addr: never mapped */
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_CLEAR 4

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EINTR:
		return "EINTR";
	case EPERM:
		return "EPERM";
	default:
		return strerror(e);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: klogctl TYPE [LEN [null|bad]]\n");
		return 2;
	}
	int type = atoi(argv[1]);
	int len = argc > 2 ? atoi(argv[2]) : 0;
	char *buf = malloc(len > 0 ? (size_t)len : 1); /* len 0 too: Linux checks buf first */

	if (argc > 3)
		buf = !strcmp(argv[3], "bad") ? UNMAPPED : NULL;
	long r = syscall(SYS_syslog, type, buf, len);

	if (r < 0) {
		printf("ret -1 %s\n", errno_name(errno));
		return 1;
	}
	printf("ret %ld\n", r);
	if (type >= SYSLOG_ACTION_READ && type <= SYSLOG_ACTION_READ_CLEAR && buf)
		fwrite(buf, 1, (size_t)r, stdout);
	return 0;
}

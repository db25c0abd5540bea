/*
 * sched_setattr, sched_getattr and creat, as rtla calls them: what Linux answers, size
 * handshakes and errors included (tests/qemu/trace/test_osnoise.py compares it with the host).
 * Only SCHED_OTHER is set, which needs no privilege.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SCHED_ATTR_SIZE_VER0 48
#define SCHED_FIFO 1
#define NO_SUCH_PID 999999

struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
	char more[8]; /* a newer caller's fields */
};

static void setattr(const char *what, int pid, struct sched_attr *a, unsigned int flags)
{
	long r = syscall(SYS_sched_setattr, pid, a, flags);

	printf("setattr %s: %ld %s size=%u\n", what, r, r ? strerror(errno) : "", a->size);
}

static void getattr(const char *what, int pid, unsigned int usize, unsigned int flags)
{
	struct sched_attr a;
	long r;

	memset(&a, 0xff, sizeof(a));
	r = syscall(SYS_sched_getattr, pid, &a, usize, flags);
	printf("getattr %s: %ld %s", what, r, r ? strerror(errno) : "");
	if (!r)
		printf(" size=%u policy=%u flags=%llu nice=%d prio=%u", a.size, a.sched_policy,
		       (unsigned long long)a.sched_flags, a.sched_nice, a.sched_priority);
	printf("\n");
}

int main(void)
{
	struct sched_attr a;
	char buf[8];
	ssize_t n;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER0;
	setattr("other", 0, &a, 0);
	a.size = 0; /* the first version */
	setattr("size 0", 0, &a, 0);
	a.size = sizeof(a); /* larger than the kernel's, zeros past it */
	setattr("bigger, zeros", 0, &a, 0);
	a.more[3] = 1;
	setattr("bigger, not zeros", 0, &a, 0);
	a.more[3] = 0;
	a.size = SCHED_ATTR_SIZE_VER0 - 1;
	setattr("too small", 0, &a, 0);
	a.size = SCHED_ATTR_SIZE_VER0;
	setattr("flags", 0, &a, 1);
	setattr("pid -1", -1, &a, 0);
	setattr("no such pid", NO_SUCH_PID, &a, 0);
	a.sched_priority = 1;
	setattr("other, prio 1", 0, &a, 0);
	a.sched_policy = SCHED_FIFO;
	a.sched_priority = 0;
	setattr("fifo, prio 0", 0, &a, 0);
	a.sched_priority = 100;
	setattr("fifo, prio 100", 0, &a, 0);
	a.sched_policy = 0;
	a.sched_priority = 0;
	a.sched_flags = 1ULL << 40;
	setattr("unknown flag", 0, &a, 0);
	a.sched_policy = 77;
	a.sched_flags = 0;
	setattr("unknown policy", 0, &a, 0);
	getattr("48", 0, SCHED_ATTR_SIZE_VER0, 0);
	getattr("64", 0, sizeof(a), 0);
	getattr("47", 0, SCHED_ATTR_SIZE_VER0 - 1, 0);
	getattr("flags", 0, SCHED_ATTR_SIZE_VER0, 1);
	getattr("no such pid", NO_SUCH_PID, SCHED_ATTR_SIZE_VER0, 0);

	/* creat: made, write-only, truncated when made again */
	fd = syscall(SYS_creat, "creat.txt", 0644);
	printf("creat: %s\n", fd >= 0 ? "ok" : strerror(errno));
	printf("write: %zd\n", write(fd, "hello", 5));
	n = read(fd, buf, sizeof(buf));
	printf("read: %zd %s\n", n, strerror(errno));
	printf("flags: %#x\n", fcntl(fd, F_GETFL) & O_ACCMODE);
	close(fd);
	fd = syscall(SYS_creat, "creat.txt", 0644);
	printf("again: size %ld\n", (long)lseek(fd, 0, SEEK_END));
	close(fd);
	unlink("creat.txt");
	fd = syscall(SYS_creat, "nosuchdir/x", 0644);
	printf("no dir: %d %s\n", fd, strerror(errno));
	return 0;
}

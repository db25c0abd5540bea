/*
 * The small system calls busybox and bash need, each checked at its edges and printed
 * one a line as `name: result`, so that tests/qemu/user/test_busybox.py can compare with Linux's
 * answers: prctl's names, time, getgroups, sched_getaffinity, sendfile and syslog.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static const char *err(long ret)
{
	return ret < 0 ? strerror(errno) : "ok";
}

int main(void)
{
	char name[16] = "";
	unsigned long mask[2] = {0, 0};
	char buf[64];
	long ret;
	off_t off = 2;
	int in, out, p[2];

	ret = prctl(PR_SET_NAME, "a-rather-long-name-here");
	prctl(PR_GET_NAME, name);
	printf("prctl: %s %s\n", err(ret), name);
	printf("prctl unknown: %s\n", err(prctl(12345, 0, 0, 0, 0)));

	/*
	 * time() reads the seconds of the last tick (CLOCK_REALTIME_COARSE), in Linux as here, so
	 * it may be behind a CLOCK_REALTIME read just before it by up to a tick: compare it with
	 * the clock it reads. The seconds count from boot, so 0 is a fine answer.
	 */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	long t = syscall(SYS_time, NULL), t2 = -1;
	syscall(SYS_time, &t2);
	printf("time: %s\n", t >= ts.tv_sec && t2 >= t && t2 - ts.tv_sec < 5 ? "ok" : "wrong");

	printf("getgroups: %ld\n", (long)getgroups(0, NULL));
	printf("getgroups -1: %s\n", err(syscall(SYS_getgroups, -1, NULL)));

	ret = syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	printf("sched_getaffinity: %ld cpus %d\n", ret, __builtin_popcountl(mask[0]));
	printf("sched_getaffinity len 4: %s\n", err(syscall(SYS_sched_getaffinity, 0, 4, mask)));
	printf("sched_getaffinity pid 99999: %s\n",
	       err(syscall(SYS_sched_getaffinity, 99999, sizeof(mask), mask)));

	out = open("/tmp/bbcalls", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	in = open("/tmp/bbcalls.in", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(in, "0123456789", 10);
	lseek(in, 0, SEEK_SET);
	ret = sendfile(out, in, &off, 5);
	printf("sendfile offset: %ld off %ld pos %ld\n", ret, (long)off,
	       (long)lseek(in, 0, SEEK_CUR));
	ret = sendfile(out, in, NULL, 100);
	printf("sendfile pos: %ld pos %ld\n", ret, (long)lseek(in, 0, SEEK_CUR));
	printf("sendfile eof: %ld\n", (long)sendfile(out, in, NULL, 100));
	close(out);
	out = open("/tmp/bbcalls", O_RDONLY);
	ret = read(out, buf, sizeof(buf) - 1);
	buf[ret > 0 ? ret : 0] = '\0';
	printf("sendfile wrote: %s\n", buf);
	close(out);
	pipe(p);
	printf("sendfile from a pipe: %s\n", err(sendfile(in, p[0], NULL, 1)));
	out = open("/tmp/bbcalls", O_WRONLY | O_APPEND);
	printf("sendfile to O_APPEND: %s\n", err(sendfile(out, in, &off, 1)));
	printf("sendfile bad fd: %s\n", err(sendfile(out, 99, NULL, 1)));

	ret = syscall(SYS_syslog, SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	printf("syslog size: %s\n", ret > 0 ? "ok" : err(ret));
	ret = syscall(SYS_syslog, SYSLOG_ACTION_READ_ALL, buf, 8);
	printf("syslog read 8: %ld\n", ret);
	printf("syslog bad: %s\n", err(syscall(SYS_syslog, SYSLOG_ACTION_READ_ALL, NULL, 8)));
	return 0;
}

/*
 * sysinfo(2) and uname(2) as a program sees them, printed as facts that hold on any machine (the
 * figures themselves differ), so that tests/qemu/user/test_syscalls.py can compare with Linux; with
 * "-v", the figures too. Then rseq, which Lucid answers ENOSYS (no CONFIG_RSEQ).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sysinfo si;
	struct utsname u;
	long ret;

	memset(&si, 0xff, sizeof(si));
	ret = sysinfo(&si);
	printf("sysinfo: %ld\n", ret);
	printf("mem_unit: %u\n", si.mem_unit);
	printf("uptime < 10 years: %d\n", si.uptime < 10UL * 365 * 24 * 3600);
	printf("0 < freeram < totalram: %d\n", si.freeram > 0 && si.freeram < si.totalram);
	printf("totalram >= 16 MiB: %d\n", si.totalram >= (16UL << 20));
	printf("procs >= 1: %d\n", si.procs >= 1);
	printf("totalhigh: %lu freehigh: %lu\n", si.totalhigh, si.freehigh);
	printf("padding zeroed: %d\n", si.pad == 0);
	printf("uname: %ld\n", (long)uname(&u));
	printf("sysname=%s machine=%s\n", u.sysname, u.machine);
	if (argc > 1 && !strcmp(argv[1], "-v")) {
		printf("uptime=%lu totalram=%lu freeram=%lu procs=%u loads=%lu,%lu,%lu\n",
		       si.uptime, si.totalram, si.freeram, si.procs, si.loads[0], si.loads[1],
		       si.loads[2]);
		errno = 0;
		ret = syscall(SYS_rseq, NULL, 0, 0, 0);
		printf("rseq: %ld %s\n", ret, strerror(errno));
	}
	return 0;
}

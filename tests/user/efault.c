/*
 * Bad pointers into system calls: each must fail with EFAULT (or, for the kernel's own
 * addresses, never be read or written), and the program goes on. Prints one line per check.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define UNMAPPED ((void *)16)                       /* page 0: never mapped */
#define KERNEL_DIRECT_MAP ((void *)0xffff888000100000UL) /* the kernel's memory */
#define NONCANONICAL ((void *)0x0000800000000000UL)  /* between the two halves */
#define ARCH_GET_FS 0x1003

static void check(const char *what, long ret)
{
	printf("%s: %s\n", what, ret == -1 ? strerror(errno) : "no error");
}

int main(void)
{
	struct iovec bad_iov[1] = {{UNMAPPED, 5}};
	sigset_t set;

	check("write unmapped", syscall(SYS_write, 1, UNMAPPED, 5));
	check("write kernel", syscall(SYS_write, 1, KERNEL_DIRECT_MAP, 5));
	check("write noncanonical", syscall(SYS_write, 1, NONCANONICAL, 5));
	check("read kernel", syscall(SYS_read, 0, KERNEL_DIRECT_MAP, 5));
	check("writev iov", syscall(SYS_writev, 1, UNMAPPED, 1));
	check("writev base", syscall(SYS_writev, 1, bad_iov, 1));
	check("uname", syscall(SYS_uname, UNMAPPED));
	check("rt_sigprocmask", syscall(SYS_rt_sigprocmask, SIG_BLOCK, UNMAPPED, NULL, 8));
	check("rt_sigprocmask old",
	      syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, KERNEL_DIRECT_MAP, 8));
	check("rt_sigaction", syscall(SYS_rt_sigaction, 2, UNMAPPED, NULL, 8));
	check("arch_prctl", syscall(SYS_arch_prctl, ARCH_GET_FS, UNMAPPED));
	check("open", syscall(SYS_open, UNMAPPED, 0));
	check("openat", syscall(SYS_openat, -100, KERNEL_DIRECT_MAP, 0));
	check("stat path", syscall(SYS_stat, UNMAPPED, UNMAPPED));
	check("stat buf", syscall(SYS_stat, "/", UNMAPPED));
	check("fstat", syscall(SYS_fstat, 1, KERNEL_DIRECT_MAP));
	check("pipe2", syscall(SYS_pipe2, UNMAPPED, 0));
	check("getcwd", syscall(SYS_getcwd, UNMAPPED, 100));
	check("mkdir", syscall(SYS_mkdir, UNMAPPED, 0755));
	check("rename", syscall(SYS_rename, "/tmp", UNMAPPED));
	long zero = syscall(SYS_open, "/dev/zero", 0); /* never waits, as the console would */

	check("pread64", syscall(SYS_pread64, zero, KERNEL_DIRECT_MAP, 5, 0));
	check("pwrite64", syscall(SYS_pwrite64, 1, UNMAPPED, 5, 0));
	check("readv base", syscall(SYS_readv, zero, bad_iov, 1));
	check("mkdirat", syscall(SYS_mkdirat, -100, UNMAPPED, 0755));
	check("unlinkat", syscall(SYS_unlinkat, -100, KERNEL_DIRECT_MAP, 0));
	check("renameat", syscall(SYS_renameat, -100, UNMAPPED, -100, "/tmp/x"));
	check("renameat2", syscall(SYS_renameat2, -100, "/tmp", -100, NONCANONICAL, 0));
	check("newfstatat buf", syscall(SYS_newfstatat, -100, "/", UNMAPPED, 0));
	check("sysinfo", syscall(SYS_sysinfo, KERNEL_DIRECT_MAP));
	check("chmod", syscall(SYS_chmod, UNMAPPED, 0644));
	check("fchmodat", syscall(SYS_fchmodat, -100, KERNEL_DIRECT_MAP, 0644));
	check("utimensat times", syscall(SYS_utimensat, -100, "/tmp", UNMAPPED, 0));
	check("utimensat path", syscall(SYS_utimensat, -100, KERNEL_DIRECT_MAP, NULL, 0));
	check("truncate", syscall(SYS_truncate, UNMAPPED, 0));
	check("symlink", syscall(SYS_symlink, UNMAPPED, "/tmp/l"));
	check("readlink path", syscall(SYS_readlink, KERNEL_DIRECT_MAP, NULL, 10));
	syscall(SYS_symlink, "/tmp", "/tmp/efault-link"); /* a link to read into a bad buffer */
	check("readlinkat buf", syscall(SYS_readlinkat, -100, "/tmp/efault-link", UNMAPPED, 10));
	syscall(SYS_unlink, "/tmp/efault-link");
	check("access", syscall(SYS_access, UNMAPPED, 0));
	check("faccessat", syscall(SYS_faccessat, -100, NONCANONICAL, 0));
	sigemptyset(&set);
	check("rt_sigprocmask good", syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8));
	return 0;
}

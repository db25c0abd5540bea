/* Asks for a system call Lucid lacks (acct, for now): ENOSYS, and one line in dmesg. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SYS_NONE 1000 /* no system call has this number */

int main(void)
{
	long r = syscall(SYS_acct, NULL);

	printf("acct: %ld %s\n", r, strerror(errno));
	r = syscall(SYS_NONE);
	printf("1000: %ld %s\n", r, strerror(errno));
	return 0;
}

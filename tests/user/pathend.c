/*
 * A path that runs into the end of the user half: its last byte is the last byte below
 * TASK_SIZE_MAX, with no NUL. Every call that reads a path must say EFAULT, not read on into
 * what is not the program's (the stack's top page is where Lucid puts it: STACK_TOP).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TASK_SIZE_MAX 0x00007ffffffff000UL /* Linux x86_64's, and Lucid's stack top */

static void check(const char *what, long ret)
{
	printf("%s: %s\n", what, ret == -1 ? strerror(errno) : "no error");
}

int main(void)
{
	char *path = (char *)(TASK_SIZE_MAX - 8); /* in the stack's top page, already mapped */
	struct stat st;

	memset(path, 'a', 8); /* over the end of the environment strings: no longer needed */
	check("open", syscall(SYS_open, path, O_RDONLY));
	check("stat", syscall(SYS_stat, path, &st));
	check("mkdir", syscall(SYS_mkdir, path, 0755));
	check("chdir", syscall(SYS_chdir, path));
	check("execve", syscall(SYS_execve, path, NULL, NULL));
	return 0;
}

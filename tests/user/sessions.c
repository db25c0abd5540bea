/*
 * Sessions and process groups: setsid, getsid, setpgid, getpgid and getpgrp with Linux's rules
 * and errors, and /dev/tty without a controlling terminal. It prints relations (is my group my
 * pid?), never ids, so the output is the same on Linux (tests/qemu/user/test_syscalls.py). Every
 * step runs in a child that made a group of its own first, so where it starts does not matter.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "show.h"

#define NO_SUCH_PID 4000000 /* over Linux's pid_max limit: no process has it */

static void yesno(const char *what, int cond)
{
	printf("%s: %s\n", what, cond ? "yes" : "no");
}

/* A group leader in the caller's session, then a child that leaves for a session of its own. */
static int leader(void)
{
	pid_t me = getpid(), child;
	int pfd[2], back[2], status; /* child to parent, parent to child */
	char c;

	SHOW("setpgid(0, 0)", setpgid(0, 0));
	yesno("group is my pid", getpgrp() == me && getpgid(0) == me && getpgid(me) == me);
	yesno("session unchanged, not mine", getsid(0) != me && getsid(0) == getsid(getppid()));
	SHOW("setsid as a group leader", setsid());
	SHOW("setpgid negative pgid", setpgid(0, -1));
	SHOW("setpgid no such pid", setpgid(NO_SUCH_PID, 0));
	SHOW("setpgid into no such group", setpgid(0, NO_SUCH_PID));
	SHOW("setpgid of my parent", setpgid(getppid(), 0));
	SHOW("getsid no such pid", getsid(NO_SUCH_PID));
	SHOW("getpgid no such pid", getpgid(NO_SUCH_PID));
	SHOW("getpgid -1", getpgid(-1));

	pipe(pfd);
	pipe(back);
	child = fork();
	if (child == 0) {
		pid_t self = getpid();

		yesno("child in my group", getpgrp() == me);
		SHOW("child setsid", setsid());
		yesno("child leads session and group", getsid(0) == self && getpgrp() == self);
		SHOW("child setpgid back into the old group", setpgid(0, me));
		SHOW("child setpgid(0, 0) as session leader", setpgid(0, 0));
		SHOW("child setsid again", setsid());
		SHOW("child opens /dev/tty", open("/dev/tty", O_RDWR));
		write(pfd[1], "x", 1);
		read(back[0], &c, 1); /* until the parent has tried */
		_exit(0);
	}
	read(pfd[0], &c, 1);
	yesno("getsid(child) is the child", getsid(child) == child);
	SHOW("setpgid of a child in another session", setpgid(child, child));
	write(back[1], "x", 1);
	waitpid(child, &status, 0);

	child = fork();
	if (child == 0) {
		read(back[0], &c, 1);
		yesno("second child moved by its parent", getpgrp() == getpid());
		_exit(0);
	}
	SHOW("setpgid(child, 0) by the parent", setpgid(child, 0));
	yesno("getpgid(child) is the child", getpgid(child) == child);
	SHOW("setpgid(child, me): back into my group", setpgid(child, me));
	SHOW("setpgid(child, child) again", setpgid(child, child));
	write(back[1], "x", 1);
	waitpid(child, &status, 0);
	return 0;
}

int main(void)
{
	int status;
	pid_t child;

	setvbuf(stdout, NULL, _IONBF, 0); /* nothing buffered is copied by fork */
	child = fork();

	if (child == 0)
		_exit(leader());
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

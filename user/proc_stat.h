/*
 * The state letter and parent of a process, from /proc/PID/stat ("pid (comm) state ppid ..."),
 * read after the last ')' since comm may hold spaces and parentheses: recwait waits on
 * trace-cmd's recorders with it, tests/user/pipewait.c on its reader. A header of one static
 * function, since each program is one C file.
 */
#ifndef USER_PROC_STAT_H
#define USER_PROC_STAT_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PROC_STAT_MAX 512 /* /proc/PID/stat's line: its fields up to ppid are well within this */

/* pid's state letter (and its parent in *ppid), or 0 once it is gone. */
static char stat_of(int pid, int *ppid)
{
	char path[64], buf[PROC_STAT_MAX];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	char state;
	if (!p || sscanf(p + 1, " %c %d", &state, ppid) != 2)
		return 0;
	return state;
}

#endif

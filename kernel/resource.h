/*
 * Resource limits (getrlimit, setrlimit, prlimit64; kernel/sys.c): Linux's numbers and
 * defaults (include/uapi/asm-generic/resource.h, INIT_RLIMITS). Each task has its own copy,
 * inherited from its creator across fork and kept across exec, as Linux's signal->rlim is
 * (one thread per process here). The soft limit (rlim_cur) is the one enforced; the hard one
 * (rlim_max) is the ceiling the soft one may be raised to.
 *
 * Enforced: RLIMIT_NOFILE (the descriptors a process may have: kernel/fs/file.c), and
 * RLIMIT_STACK (the stack's growth, kernel/mm/memory.c, and the room execve gives argv and
 * envp, kernel/fs/exec.c). The others are kept and read back, as a program sets them.
 */
#ifndef KERNEL_RESOURCE_H
#define KERNEL_RESOURCE_H

#include <stdint.h>

#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0UL)

#define INR_OPEN_CUR 1024 /* RLIMIT_NOFILE's defaults, as Linux's init gets them */
#define INR_OPEN_MAX 4096
#define NR_OPEN_MAX (1U << 20) /* Linux's sysctl_nr_open: no process may have more */

struct rlimit64 {
	uint64_t rlim_cur, rlim_max;
};

struct task;
void rlimits_init(struct task *t); /* Linux's INIT_RLIMITS: for the tasks that start it all */
void rlimits_copy(struct task *t, const struct task *from); /* a new task: its creator's */

/* The running task's soft limit for resource, as Linux's rlimit(). */
uint64_t rlimit(unsigned int resource);

#endif

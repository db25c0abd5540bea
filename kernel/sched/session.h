/* Sessions and process groups of user processes (kernel/sched/session.c). */
#ifndef KERNEL_SESSION_H
#define KERNEL_SESSION_H

#include <stdbool.h>

/* The session the process group pgrp belongs to (or the process pgrp, if no group has that id
 * yet), as TIOCSPGRP checks it; -ESRCH if neither exists. */
int session_of_pgrp(int pgrp);
/* sig to the user processes of group pgrp only, not the kernel shell's own commands (which
 * would die of it): ^\ and ^Z while the kernel shell runs a line. How many, or -ESRCH. */
int kill_pgrp_procs(int pgrp, int sig);

/* Whether current blocks or ignores sig (the tty's SIGTTIN and SIGTTOU checks). */
bool sig_ignored_or_blocked(int sig);
/*
 * sig to the processes of group pgrp that catch it, for a signal whose default action is to be
 * ignored (SIGWINCH): the others would not see it anyway. How many.
 */
int kill_pgrp_caught(int pgrp, int sig);

#endif

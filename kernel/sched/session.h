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

#endif

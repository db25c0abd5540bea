/* Sessions and process groups of user processes (kernel/session.c). */
#ifndef KERNEL_SESSION_H
#define KERNEL_SESSION_H

#include <stdbool.h>

/* The session the process group pgrp belongs to (or the process pgrp, if no group has that id
 * yet), as TIOCSPGRP checks it; -ESRCH if neither exists. */
int session_of_pgrp(int pgrp);

#endif

/* Sessions and process groups of user processes (kernel/session.c). */
#ifndef KERNEL_SESSION_H
#define KERNEL_SESSION_H

#include <stdbool.h>

/* The session the process group pgrp belongs to (or the process pgrp, if no group has that id
 * yet), as TIOCSPGRP checks it; -ESRCH if neither exists. */
int session_of_pgrp(int pgrp);

struct task;
/*
 * Orphaned process groups (kernel/session.c): is current's group orphaned (no process in it
 * has a parent in another group of its session)? Then job-control stops are discarded.
 */
bool is_current_pgrp_orphaned(void);
/*
 * Linux's kill_orphaned_pgrp: tsk exits (parent NULL), or its parent does (parent): if that
 * orphans tsk's group and a process of it is stopped, the group gets SIGHUP then SIGCONT.
 * The __ one with task_list_lock held.
 */
void kill_orphaned_pgrp(struct task *tsk, struct task *parent);
void __kill_orphaned_pgrp(struct task *tsk, struct task *parent);

#endif

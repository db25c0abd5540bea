/*
 * The function-fork option (trace/trace_functions.c): with it set, set_ftrace_pid follows its
 * tasks' children as they are forked and lets go of tasks as they exit, as Linux's
 * ftrace_pid_follow_fork() does from the sched_process_fork and sched_process_exit tracepoints.
 * Both may sleep (they take trace_types_lock); both cost one load when the option is off.
 */
#ifndef TRACE_FTRACE_PID_H
#define TRACE_FTRACE_PID_H

void ftrace_pid_follow_fork(int parent_pid, int child_pid);
void ftrace_pid_follow_exit(int pid);

#endif

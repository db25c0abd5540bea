/*
 * ftrace_dump: the trace buffer printed on the console, when the kernel dies (trace/trace_dump.c).
 */
#ifndef TRACE_TRACE_DUMP_H
#define TRACE_TRACE_DUMP_H

/* Linux's modes: what ftrace_dump_on_oops holds, and what ftrace_dump() prints. */
enum ftrace_dump_mode {
	DUMP_NONE = 0, /* nothing */
	DUMP_ALL = 1, /* every CPU's events, merged by time */
	DUMP_ORIG = 2, /* only the CPU that oopsed (ftrace_dump_on_oops=orig_cpu) */
};

/*
 * /proc/sys/kernel/ftrace_dump_on_oops and the boot option of that name: 0, or the mode the
 * panic notifier and the soft-lockup watchdog dump with. Any other number dumps every CPU.
 */
extern int ftrace_dump_on_oops;

/*
 * Stops tracing, then prints the buffer through printk and consumes it: "Dumping ftrace
 * buffer:", a line of dashes, the events in the latency format (or the tracer's own, such as
 * function_graph's), dashes again (or "   (ftrace buffer empty)"). Safe from an oops, a panic,
 * an interrupt: no sleeping, no allocation, bounded waits. One dumper at a time; a second
 * caller returns at once.
 */
void ftrace_dump(int mode);
/* The same for one trace array's buffer (an instance's dump command): tr's recording stops. */
struct trace_array;
void ftrace_dump_one(struct trace_array *tr, int mode);

/* Boot: the option, the /proc file, the panic notifier and the watchdog hook. */
void ftrace_dump_init(void);

#endif

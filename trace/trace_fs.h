/*
 * Between the tracefs table (trace/trace_fs.c) and the files defined elsewhere: the trace and
 * trace_pipe readers (trace/trace_iter.c) and the dynamic ftrace files (trace/ftrace_fs.c).
 */
#ifndef TRACE_TRACE_FS_H
#define TRACE_TRACE_FS_H

#include "kernel/fs/vfs.h"
#include "trace/trace.h"

/* Linux's modes for tracefs files. */
#define TRACE_MODE_WRITE 0640
#define TRACE_MODE_READ 0440
#define TRACE_MODE_WRITE_ONLY 0220 /* trace_marker */
#define TRACE_MODE_WRITE_ONLY_OWNER 0200 /* free_buffer */

/*
 * A file of a trace array's tree carries a struct trace_cpu (trace/trace.h): which array, and
 * which CPU (RING_BUFFER_ALL_CPUS for the top-level files).
 */
static inline notrace int tracing_get_cpu(struct inode *inode)
{
	const struct trace_cpu *tc = inode->i_private;

	return tc ? tc->cpu : -1 /* RING_BUFFER_ALL_CPUS */;
}

static inline notrace struct trace_array *tracing_get_tr(struct inode *inode)
{
	const struct trace_cpu *tc = inode->i_private;

	return tc ? tc->tr : &global_trace;
}

/*
 * Copies a write of at most size - 1 bytes into buf as a string; -EINVAL if it is longer
 * (files whose values are short words or numbers).
 */
int tracing_copy_write(char *buf, size_t size, const char *ubuf, size_t cnt);

/* The small numeric files: a read gives "N\n"; a write is one decimal number (kstrtoul). */
ssize_t tracing_read_ulong(loff_t *ppos, char *ubuf, size_t cnt, unsigned long val);
ssize_t tracing_read_long(loff_t *ppos, char *ubuf, size_t cnt, long val); /* "-N\n" too */
int tracing_write_ulong(const char *ubuf, size_t cnt, unsigned long *val);

/* The options directory, for option files that belong to no tracer (the profiler's). */
struct dentry *tracing_options_dir(void);

/* Wakes trace_pipe readers at once (they also look every few milliseconds). */
void trace_pipe_wake(void);

/* The trace file's operations, for the snapshot file (trace/trace_iter.c). */
int tracing_open_buffer(struct inode *inode, struct file *file, bool snapshot);
ssize_t tracing_read(struct file *file, char *buf, size_t cnt, loff_t *ppos);
loff_t tracing_lseek(struct file *file, loff_t offset, int whence);
int tracing_release(struct inode *inode, struct file *file);

extern const struct file_operations tracing_fops;      /* trace */
/* The options' files (trace/trace_options.c). */
extern const struct file_operations buffer_percent_fops;         /* buffer_percent */
extern const struct file_operations tracing_free_buffer_fops;    /* free_buffer */
extern const struct file_operations tracing_saved_tgids_fops;    /* saved_tgids */
extern const struct file_operations trace_time_stamp_mode_fops;  /* timestamp_mode */
extern const struct file_operations tracing_cpumask_fops; /* tracing_cpumask */
extern const struct file_operations snapshot_fops;     /* snapshot */
extern const struct file_operations tracing_pipe_fops; /* trace_pipe */
extern const struct file_operations tracing_buffers_fops; /* per_cpu/cpuN/trace_pipe_raw */
extern const struct file_operations tracing_stats_fops; /* per_cpu/cpuN/stats */
extern const struct file_operations ftrace_avail_fops;   /* available_filter_functions */
extern const struct file_operations ftrace_enabled_fops; /* enabled_functions */
extern const struct file_operations tracing_dyn_info_fops; /* dyn_ftrace_total_info */
extern const struct file_operations ftrace_filter_fops;  /* set_ftrace_filter */
extern const struct file_operations ftrace_notrace_fops; /* set_ftrace_notrace */
/* The pid filters (trace/trace_pid.c). */
extern const struct file_operations ftrace_pid_fops;    /* set_ftrace_pid */
extern const struct file_operations ftrace_no_pid_fops; /* set_ftrace_notrace_pid */
extern const struct file_operations event_pid_fops;     /* set_event_pid */
extern const struct file_operations event_no_pid_fops;  /* set_event_notrace_pid */
extern const struct file_operations ftrace_formats_fops;  /* printk_formats */
extern const struct file_operations tracing_mark_fops;    /* trace_marker */
extern const struct file_operations tracing_mark_raw_fops; /* trace_marker_raw */
/* The function_graph tracer's (trace/ftrace_fs.c, trace/trace_functions_graph.c). */
extern const struct file_operations ftrace_graph_fops;         /* set_graph_function */
extern const struct file_operations ftrace_graph_notrace_fops; /* set_graph_notrace */
extern const struct file_operations stack_trace_filter_fops; /* stack_trace_filter */
extern const struct file_operations graph_depth_fops;          /* max_graph_depth */
extern const struct file_operations tracing_thresh_fops;       /* tracing_thresh */
extern const struct file_operations tracing_max_lat_fops;      /* tracing_max_latency */

#endif

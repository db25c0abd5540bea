/*
 * The tracer core: the trace buffer, the tracers, and how events get recorded (trace/trace.c).
 *
 * There is one trace buffer, global_trace: a per-CPU ring buffer (trace/ring_buffer.h) plus the
 * settings the tracefs files show and change: the current tracer, the options, the clock, the
 * per-CPU sizes. A tracer (struct tracer) is what current_tracer selects: nop records nothing
 * by itself, function records every traced call. Events are written by any CPU in any context
 * (task, irq, NMI); everything else here runs in task context under trace_types_lock.
 */
#ifndef TRACE_TRACE_H
#define TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"
#include "kernel/percpu.h"
#include "trace/ftrace.h"
#include "trace/trace_entries.h"
#include "trace/trace_seq.h"
#include "trace/trace_error_log.h"

struct ring_buffer;
struct ring_buffer_iter;
struct trace_array;
struct trace_iterator;
struct task;
struct mutex;

#define TRACE_BUF_SIZE_DEFAULT (1408UL * 1024) /* per CPU, as Linux */
#define BUFFER_PERCENT_DEFAULT 50 /* buffer_percent: Linux's */
#define TRACE_COMM_LEN 16                      /* TASK_COMM_LEN */

/* Core options (trace_options, options/NAME): bits of trace_array.trace_flags. */
enum trace_iterator_flags {
	TRACE_ITER_PRINT_PARENT = 1 << 0, /* "func <-parent" rather than "func" */
	TRACE_ITER_SYM_OFFSET = 1 << 1,   /* "func+0x6/0xa0" */
	TRACE_ITER_SYM_ADDR = 1 << 2,     /* "func <ffffffff81000000>" */
	TRACE_ITER_PRINTK = 1 << 3,       /* trace_printk() records */
	TRACE_ITER_ANNOTATE = 1 << 4,     /* "##### CPU n buffer started ####" */
	TRACE_ITER_CONTEXT_INFO = 1 << 5, /* the task-pid [cpu] flags timestamp prefix */
	TRACE_ITER_RECORD_CMD = 1 << 6,   /* remember pid -> comm for the prefix */
	TRACE_ITER_OVERWRITE = 1 << 7,    /* full buffer: lose the oldest (1) or the newest (0) */
	TRACE_ITER_IRQ_INFO = 1 << 8,     /* the four flag columns */
	TRACE_ITER_MARKERS = 1 << 9,      /* trace_marker writes are recorded */
	TRACE_ITER_FUNCTION_FORK = 1 << 10, /* set_ftrace_*pid follow forks and exits */
	TRACE_ITER_EVENT_FORK = 1 << 11,    /* set_event_*pid follow forks and exits */
	/* Linux 6.1's other core options (trace/trace_options.c explains each). */
	TRACE_ITER_VERBOSE = 1 << 12,        /* latency-format: the long prefix */
	TRACE_ITER_RAW = 1 << 13,            /* numbers: "pid cpu ts" and the event's raw form */
	TRACE_ITER_HEX = 1 << 14,            /* the same in hex */
	TRACE_ITER_BIN = 1 << 15,            /* the same as binary words */
	TRACE_ITER_BLOCK = 1 << 16,          /* poll of trace_pipe always says readable */
	TRACE_ITER_USERSTACKTRACE = 1 << 17, /* a user stack after every event */
	TRACE_ITER_SYM_USEROBJ = 1 << 18,    /* ... each address as file[+offset] */
	TRACE_ITER_PRINTK_MSGONLY = 1 << 19, /* trace_printk and marker: the message alone */
	TRACE_ITER_LATENCY_FMT = 1 << 20,    /* the latency header and prefix */
	TRACE_ITER_RECORD_TGID = 1 << 21,    /* remember pid -> tgid (saved_tgids, a column) */
	TRACE_ITER_DISABLE_ON_FREE = 1 << 22, /* closing free_buffer also turns tracing off */
	TRACE_ITER_PAUSE_ON_TRACE = 1 << 23, /* recording pauses while trace is open */
	TRACE_ITER_HASH_PTR = 1 << 24,       /* %p in events prints a hash, not the address */
	TRACE_ITER_FUNCTION = 1 << 25,       /* function-trace: latency tracers trace functions */
	TRACE_ITER_DISPLAY_GRAPH = 1 << 26,  /* latency tracers print as function_graph */
	TRACE_ITER_STACKTRACE = 1 << 27,     /* a kernel stack after every event */
};
/* The options that change how every line looks: print_trace_line() asks them in this order. */
#define TRACE_ITER_NUMERIC (TRACE_ITER_RAW | TRACE_ITER_HEX | TRACE_ITER_BIN)
/* Asked by trace_event_buffer_commit() after every event: one test for both. */
#define TRACE_ITER_STACKS (TRACE_ITER_STACKTRACE | TRACE_ITER_USERSTACKTRACE)
#define TRACE_ITER_SYM_MASK (TRACE_ITER_PRINT_PARENT | TRACE_ITER_SYM_OFFSET | TRACE_ITER_SYM_ADDR)

/* One core option: its name in trace_options and options/, and its bit. */
struct trace_option {
	const char *name;
	unsigned int bit;
};
extern const struct trace_option trace_options[];
extern const int nr_trace_options;

/* A tracer's own options (func_stack_trace, funcgraph-*): shown after the core ones. */
struct tracer_opt {
	const char *name;
	uint32_t bit;
};
struct tracer_flags {
	uint32_t val;            /* the bits that are set */
	struct tracer_opt *opts; /* ends with an entry whose name is NULL */
	struct tracer *trace;    /* filled in by register_tracer */
};
#define TRACER_OPT(s, b) {.name = #s, .bit = (b)}

/*
 * What a tracer's print_line did: printed it, could not (seq full), or leave it to default.
 * NO_CONSUME: printed it, and already moved the reader past it to look at the next event
 * (function_graph's leaf check): the reader must not move again.
 */
enum print_line_t {
	TRACE_TYPE_PARTIAL_LINE = 0,
	TRACE_TYPE_HANDLED = 1,
	TRACE_TYPE_UNHANDLED = 2,
	TRACE_TYPE_NO_CONSUME = 3,
};

struct tracer {
	const char *name;
	int (*init)(struct trace_array *tr);   /* becomes current_tracer: start recording */
	void (*reset)(struct trace_array *tr); /* stops being current_tracer */
	void (*start)(struct trace_array *tr); /* tracing_on 0 -> 1 */
	void (*stop)(struct trace_array *tr);  /* tracing_on 1 -> 0 */
	/* A reader opened trace or trace_pipe (per-reader state in iter->private), closed it. */
	void (*open)(struct trace_iterator *iter);
	void (*close)(struct trace_iterator *iter);
	/* The header after "# tracer: NAME" and "#"; NULL for the default one. Into iter->seq. */
	void (*print_header)(struct trace_iterator *iter);
	/* One event into iter->seq; NULL or TRACE_TYPE_UNHANDLED for the default format. */
	enum print_line_t (*print_line)(struct trace_iterator *iter);
	/* One of flags->opts changes: may refuse with a negative errno. */
	int (*set_flag)(struct trace_array *tr, uint32_t old_flags, uint32_t bit, int set);
	struct tracer_flags *flags;
	bool allow_instances; /* may be an instance's current_tracer (else the top level's only) */
	/* A core option changed while this tracer is current (function-trace: the latency ones). */
	void (*flag_changed)(struct trace_array *tr, unsigned int mask, int set);
	/*
	 * A latency tracer: keeps its worst case in the snapshot (max) buffer, which trace shows.
	 */
	bool use_max_tr;
	bool print_max;
	struct tracer *next; /* on the list of registered tracers, newest first */
};

/*
 * Tracers register themselves: REGISTER_TRACER(my_tracer) in the tracer's own file puts a
 * pointer in the .tracers section (linker.ld), and tracing_init() registers each in link order,
 * after nop. So a new tracer touches only its own file.
 */
#define REGISTER_TRACER(t)                                                                         \
	static struct tracer *const __tracer_ptr_##t __used __section(".tracers")                 \
		__aligned(8) = &(t)

extern struct tracer nop_trace;
extern struct tracer *trace_types; /* registered tracers, most recent first */
extern struct mutex trace_types_lock; /* the tracer, options, sizes, clock, filters */

/* Trace clocks (trace_clock): local, global, counter, uptime, x86-tsc. */
struct trace_clock {
	const char *name;
	uint64_t (*func)(void);
	bool in_ns; /* else the raw value is printed, not seconds.microseconds */
};
extern const struct trace_clock trace_clocks[];
extern const int nr_trace_clocks;

/*
 * What a tracefs file of a trace array points at (its inode's data): the array and which CPU,
 * RING_BUFFER_ALL_CPUS for the top-level files. One per CPU and one for all, in the array.
 */
struct trace_cpu {
	struct trace_array *tr;
	int cpu;
};

struct trace_pid_filter;
struct trace_event_file;
struct dentry;
struct fgraph_ops;

/*
 * What the max (snapshot) buffer holds for a latency tracer (trace/trace_irqsoff.c,
 * trace/trace_sched_wakeup.c): the worst section's figures for the latency header, taken when
 * it was swapped in (Linux's per-CPU max_data of update_max_tr).
 */
struct trace_max_data {
	/* the section began: the max buffer's older events are skipped */
	uint64_t time_start;
	unsigned long saved_latency;  /* ns */
	unsigned long critical_start; /* irqsoff: where it began and ended; 0 for wakeup */
	unsigned long critical_end;
	int cpu;
	/* only cpu's part was swapped in: the others are older maxes */
	bool cpu_only;
	char comm[16];
	int pid, uid;
	long nice, policy, rt_priority;
};

struct trace_array {
	struct ring_buffer *buffer;
	int nr_cpus;                        /* CPUs with a buffer: per_cpu/cpu0 .. cpuN-1 */
	unsigned long buffer_size[NR_CPUS]; /* bytes per CPU, as asked for (buffer_size_kb) */
	unsigned int trace_flags;           /* TRACE_ITER_* */
	struct tracer *current_trace;
	int clock_id;                       /* index in trace_clocks[] */
	int trace_ref;                      /* open trace_pipe readers: the tracer stays */
	struct ftrace_ops ops;              /* the function tracer's: set_ftrace_filter edits it */
	struct fgraph_ops *gops; /* while function_graph is its tracer (trace_functions_graph.c) */
	uint64_t time_start;                /* when the buffer was last emptied (latency format) */
	struct ring_buffer *snapshot_buffer; /* the spare swapped in by "echo 1 > snapshot" */
	/* ... and it is full size (else: as small as can be) */
	bool allocated_snapshot;
	struct trace_err_log err_log;        /* error_log (trace/trace_error_log.c) */
	unsigned long cpumask_cleared; /* CPUs tracing_cpumask stops (trace/trace_cpumask.c) */

	/* Instances (trace/trace_instances.c): global_trace has no name and is never freed. */
	const char *name;             /* instances/NAME; NULL for global_trace */
	struct trace_array *next;     /* on the list of instances, under trace_types_lock */
	struct dentry *dir;           /* its directory (tracefs's root for global_trace) */
	struct trace_cpu cpu_files[NR_CPUS + 1]; /* [0]: all CPUs; [cpu + 1]: per_cpu/cpuN */
	struct trace_pid_filter *event_pids; /* set_event_pid, set_event_notrace_pid */
	struct trace_pid_filter *function_pids; /* set_ftrace_pid, set_ftrace_notrace_pid */
	/* an instance's event files, newest first on file->tr_next (trace/trace_instances.c) */
	struct trace_event_file *event_files;
	void *event_dirs;              /* what its events/ directories' files point at */
	struct trace_event_file *print_file; /* its ftrace:print, whose triggers markers run */
	void *options;                 /* an instance's options/ files' data */
	unsigned long buffer_percent;  /* buffer_percent (trace/trace_options.c) */
	unsigned long max_latency;     /* tracing_max_latency, in ns (trace/trace_irqsoff.c) */
	struct trace_max_data max_data;
};
extern struct trace_array global_trace;

/* iter_flags */
#define TRACE_FILE_LAT_FMT 0x1    /* the latency format's prefix (ftrace_dump) */
#define TRACE_FILE_ANNOTATE 0x2   /* the buffer overran: mark where each CPU's events start */
#define TRACE_FILE_TIME_IN_NS 0x4 /* the clock counts nanoseconds */
/*
 * The reader is ftrace_dump: it runs in an oops, where nothing may be allocated or waited for,
 * and one at a time. A tracer's open() gives it static state instead of allocating.
 */
#define TRACE_FILE_DUMP 0x8

/*
 * A reader of the buffer: the trace file (buffer_iter[] set: non-consuming, merged by time),
 * trace_pipe or ftrace_dump (consuming). Every reader sets it up with trace_iterator_init()
 * (trace/trace_reader.h). Output functions get the current event in ent and print into seq.
 */
struct trace_iterator {
	struct trace_array *tr;
	struct ring_buffer *buffer; /* what it reads: tr->buffer, or the snapshot (NULL: none) */
	bool snapshot;              /* the snapshot file */
	struct tracer *trace; /* current_tracer when the file was opened */
	void *private;        /* the tracer's, from its open() */
	int cpu_file;         /* one CPU, or RING_BUFFER_ALL_CPUS */
	struct ring_buffer_iter *buffer_iter[NR_CPUS];
	unsigned int iter_flags;
	struct trace_seq seq;

	/* The current event. */
	struct trace_entry *ent;
	unsigned int ent_size;
	int cpu;
	uint64_t ts;
	unsigned long lost_events; /* before this one; ULONG_MAX: some, count unknown */
	long idx;                  /* its index; 0 is the header */
	unsigned long started;     /* CPUs whose first event was seen (annotate) */
	bool leftover;             /* seq holds the current record's text, not yet taken */
	bool moved;                /* print_line said NO_CONSUME: already past the current event */

	/* The header's figures, taken when the file was opened. */
	unsigned long entries; /* events in the buffer */
	unsigned long skipped; /* ... before a latency tracer's section: not shown */
	unsigned long total;   /* entries + overwritten */
	int cpus_online;

	unsigned long pos; /* trace_pipe: events consumed so far */
	bool paused;       /* pause-on-trace stopped recording while this reader is open */
	/*
	 * The trace file's look-ahead, for the latency format's delay mark (Linux's
	 * trace_find_next_entry): the time of the event after the current one, or the current
	 * one's if there is none. It copies the current event into temp first, as the iterator
	 * moves past it. NULL for the consuming readers, whose next unread event is still the
	 * current one (their delta is 0, as on Linux).
	 */
	uint64_t (*next_ts)(struct trace_iterator *iter);
	void *temp;
	unsigned int temp_size;
};

/* The options that act beyond the output (trace/trace_options.c). */
void ftrace_trace_stacks(struct trace_array *tr, unsigned long from); /* after an event */
void trace_save_tgid(const struct task *t);
int trace_find_tgid(int pid); /* 0: unknown */
int trace_alloc_tgid_map(void);
bool trace_user_obj(int tgid, unsigned long ip, char *path, size_t size, unsigned long *offset);
void trace_pause_on_open(struct trace_iterator *iter);
void trace_pause_on_release(struct trace_iterator *iter);

/* Tracers and options (task context). Each returns 0 or a negative errno. */
int register_tracer(struct tracer *t);
void unregister_tracer(struct tracer *t); /* a module's tracer, as it unloads */
int tracing_set_tracer(struct trace_array *tr, const char *name);
void set_tracer_flag(struct trace_array *tr, unsigned int mask, int enabled); /* cannot fail */
int set_tracer_option(struct trace_array *tr, struct tracer_flags *flags,
		      struct tracer_opt *opt, int set);
int tracing_set_clock(struct trace_array *tr, const char *name);
int tracing_resize_ring_buffer(struct trace_array *tr, unsigned long size, int cpu);
void tracing_reset_online_cpus(struct trace_array *tr);
void tracing_reset_cpu(struct trace_array *tr, int cpu);

/* tracing_on: recording stops, callbacks still run. For kernel code, and the file. */
void tracing_on(void);
void tracing_off(void);
bool tracing_is_on(void);
void tracer_tracing_on(struct trace_array *tr);
void tracer_tracing_off(struct trace_array *tr);
bool tracer_tracing_is_on(struct trace_array *tr);

/*
 * Recording, from any context. trace_ctx packs the entry's flags and preempt depth:
 * tracing_gen_ctx() describes the caller; tracing_gen_ctx_dec() does the same from inside a
 * callback that disabled preemption once (the recursion lock), not counting that.
 */
unsigned int tracing_gen_ctx(void);
unsigned int tracing_gen_ctx_dec(void);
void tracing_generic_entry_update(struct trace_entry *entry, unsigned short type,
				  unsigned int trace_ctx);
/* A TRACE_STACK event of the caller's stack, starting at the frame that returns to from. */
void __trace_stack(struct trace_array *tr, unsigned int trace_ctx, unsigned long from);
/*
 * Inlined into a function F: where F's caller will return to, one frame further than
 * __builtin_return_address(0), read off F's caller's frame (every kernel function keeps one:
 * -fno-omit-frame-pointer). 0 if that frame pointer is not a kernel address.
 */
#define TRACE_KERNEL_HALF_START 0xffff800000000000UL /* every kernel stack is above */
static __always_inline unsigned long trace_parent_ip(void)
{
	unsigned long *fp = __builtin_frame_address(0); /* [0]: the caller's frame pointer */
	unsigned long *up = (unsigned long *)fp[0];

	if ((unsigned long)up < TRACE_KERNEL_HALF_START || ((unsigned long)up & (sizeof(long) - 1)))
		return 0;
	return up[1];
}

/* Return addresses up the frame-pointer chain, innermost first; returns how many. */
int trace_save_stack(unsigned long *store, int size);

/*
 * The pid -> comm cache behind the TASK column (saved_cmdlines). Recorders fill it through
 * tracing_record_cmdline() (trace/trace_ctx.h), as each task shows up in a CPU's events.
 */
bool trace_save_cmdline(int pid, const char *comm); /* false: busy, try again later */
void trace_save_cmdline_wait(int pid, const char *comm); /* task context: waits for the lock */
void tracing_record_cmdline_exit(struct task *t); /* a name no event could save, at exit */
void trace_find_cmdline(int pid, char comm[TRACE_COMM_LEN]); /* "<idle>", "<...>" */
void tracing_forget_cmdline_tasks(void);
void tracing_task_renamed(struct task *t);
/* saved_cmdlines: slot by slot (pid -1: unused; false past the end), the size, resizing. */
#define PID_MAX_DEFAULT 32768 /* the most saved_cmdlines_size accepts, as Linux */
bool trace_saved_cmdline(unsigned int slot, int *pid, char comm[TRACE_COMM_LEN]);
unsigned int trace_saved_cmdlines_size(void);
int trace_resize_saved_cmdlines(unsigned int num); /* -EINVAL, -ENOMEM */

/*
 * The snapshot buffer (trace/trace_snapshot.c), trace_types_lock held: allocate it at the
 * main buffer's size, swap it with the main buffer (a snapshot), clear it, shrink it back.
 */
int tracing_alloc_snapshot(struct trace_array *tr);
/*
 * A latency tracer found a new worst case on cpu (interrupts off, any context): this CPU's
 * part of the trace buffer becomes the max buffer's (Linux's update_max_tr_single), or the
 * whole buffer (update_max_tr), and the header's figures are taken from tsk. false: not now
 * (a write in progress on that part, or no snapshot buffer), the old max stays.
 */
bool update_max_tr_single(struct trace_array *tr, struct task *tsk, int cpu,
			  const struct trace_max_data *section);
bool update_max_tr(struct trace_array *tr, struct task *tsk, int cpu,
		   const struct trace_max_data *section);
/* The buffer trace shows: the max buffer while a latency tracer is current (may be NULL). */
struct ring_buffer *tracing_shown_buffer(struct trace_array *tr);
/* The time a latency-format line counts from, for a reader of buffer: a section's start. */
static inline uint64_t tracing_time_start(struct trace_array *tr, struct ring_buffer *buffer)
{
	if (buffer && buffer == tr->snapshot_buffer && tr->current_trace->use_max_tr)
		return tr->max_data.time_start;
	return tr->time_start;
}
/* display-graph: a latency tracer prints its functions as function_graph does. */
static inline bool latency_display_graph(struct trace_array *tr)
{
	return tr->trace_flags & TRACE_ITER_DISPLAY_GRAPH;
}
/*
 * The latency tracers' printing (struct tracer's open, close, print_line, print_header): the
 * latency format, or with display-graph function_graph's lines under the latency header.
 */
void latency_trace_open(struct trace_iterator *iter);
void latency_trace_close(struct trace_iterator *iter);
enum print_line_t latency_print_line(struct trace_iterator *iter);
void latency_print_header(struct trace_iterator *iter);
/* What every latency tracer's struct tracer holds besides its own callbacks. */
#define LATENCY_TRACER_PRINTING                                                 \
	.open = latency_trace_open, .close = latency_trace_close,               \
	.print_line = latency_print_line, .print_header = latency_print_header, \
	.use_max_tr = true, .print_max = true

/*
 * What the latency tracers (trace/trace_irqsoff.c, trace/trace_sched_wakeup.c) share, in
 * trace/trace_max_latency.c. Starting, a tracer allocates the max buffer, empties it, and sets
 * the options it needs (the latency format, overwrite: the worst case must not be lost to a full
 * buffer, pause-on-trace), keeping the old ones for its reset to put back.
 */
int latency_tracer_init(struct trace_array *tr, unsigned int *saved_flags);
void latency_tracer_restore_flags(struct trace_array *tr, unsigned int saved_flags);
void latency_max_reset(struct trace_array *tr); /* no worst case yet, the max buffer empty */
/* Its records: a function ("func <-parent"), and display-graph's entry and return. */
void latency_trace_function(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			    unsigned int trace_ctx);
bool latency_graph_record_entry(struct trace_array *tr, unsigned long func, int depth,
				unsigned int trace_ctx);
void latency_graph_record_return(struct trace_array *tr, unsigned long func, int depth,
				 uint64_t calltime, uint64_t rettime, unsigned int trace_ctx);
/*
 * function-trace: the functions a tracer follows are hooked one way or the other, by its
 * ftrace_ops (func) or, with display-graph, by its fgraph_ops; at most one at a time.
 */
struct fgraph_ops;
struct latency_hooks {
	struct ftrace_ops *ops;
	struct fgraph_ops *gops;
	ftrace_func_t func;
	bool function_enabled; /* ops is registered */
	bool graph_enabled;    /* gops is */
};
int register_latency_function(struct trace_array *tr, struct latency_hooks *hooks);
void unregister_latency_function(struct latency_hooks *hooks);
extern unsigned long tracing_thresh; /* ns; 0: off (trace/trace_functions_graph.c's file) */
int tracing_snapshot_swap(struct trace_array *tr);
void tracing_clear_snapshot(struct trace_array *tr);
void tracing_free_snapshot(struct trace_array *tr);
/* "cat snapshot" of an empty snapshot: Linux's help, into iter->seq. */
void print_snapshot_help(struct trace_iterator *iter);

/* The CPUs online now (the header's #P). */
int tracing_num_online_cpus(void);

/*
 * "name" sets an option, "noname" clears it: a core one, or the current tracer's (trace_options).
 */
int trace_set_options(struct trace_array *tr, char *option);

/*
 * The command line's trace_buf_size=, trace_clock=, alloc_snapshot, ftrace_filter=,
 * ftrace_notrace=, ftrace_graph_filter=, ftrace_graph_notrace=, trace_options= and
 * trace_event= (trace/trace_boot.c).
 */
unsigned long trace_boot_buf_size(void);
void trace_boot_clock(struct trace_array *tr);
void trace_boot_snapshot(struct trace_array *tr);
void trace_boot_filters(struct trace_array *tr);
void trace_boot_options(struct trace_array *tr, bool quiet);
void trace_boot_events(struct trace_array *tr);

/* traceoff_on_warning (trace/trace_warning.c): __warn() calls the first, the boot the others. */
extern int __disable_trace_on_warning;
void disable_trace_on_warning(void);
void trace_boot_traceoff_on_warning(void);
void traceoff_on_warning_init_sysctl(void);

/* Boot: the buffer, the tracers, the tracefs files, the self-tests (trace_selftest). */
void tracing_init(void);         /* before the other CPUs start */
void tracing_init_tracefs(void); /* once the VFS exists */
void late_trace_init(void);      /* the end of boot: tp_printk_stop_on_boot */
int tracer_init_tracefs(struct trace_array *tr); /* trace/trace_fs.c */
/* An instance's files in its directory, and the data they need freed (trace/trace_fs.c). */
int tracer_init_instance_files(struct trace_array *tr);
void tracer_free_instance_files(struct trace_array *tr);

/*
 * Instances (trace/trace_instances.c): made by mkdir in instances/, removed by rmdir.
 * for_each_trace_array() walks global_trace, then every instance, under trace_types_lock.
 */
extern struct trace_array *trace_instances;
void trace_instances_init_tracefs(void);
/* For kernel code (as Linux's): an instance by name, made if need be; removing it; its events. */
struct trace_array *trace_array_get_by_name(const char *name);
int trace_array_destroy(struct trace_array *tr);
int trace_array_set_clr_event(struct trace_array *tr, const char *system, const char *event,
			      bool enable);
#define for_each_trace_array(tr)                                                                  \
	for ((tr) = &global_trace; (tr);                                                          \
	     (tr) = (tr) == &global_trace ? trace_instances : (tr)->next)
void tracing_create_tracer_options(struct tracer *t);
void trace_selftest_run(void); /* trace/trace_selftest.c */

/*
 * The function_graph tracer's sets (trace/trace_functions_graph.c): filter_hash is
 * set_graph_function, notrace_hash set_graph_notrace. Never registered: it only holds the two
 * sets, so that the filter files and ftrace_set_filter() work on them as on any ops.
 */
extern struct ftrace_ops graph_hash_ops;

#endif

/*
 * What the tracers write into the ring buffer: one record per event, laid out as Linux's.
 *
 * Every record starts with struct trace_entry: its type, and the context it was recorded in
 * (the irqs-off / need-resched / hardirq / preempt-depth columns of the trace, and the pid).
 * The type says which struct follows and which output function prints it. Type numbers are
 * Linux's (kernel/trace/trace.h), so that tools reading raw pages see familiar values; numbers
 * for tracers Lucid does not have stay reserved.
 */
#ifndef TRACE_TRACE_ENTRIES_H
#define TRACE_TRACE_ENTRIES_H

#include <stdint.h>

enum trace_type {
	__TRACE_FIRST_TYPE = 0,
	TRACE_FN,         /*  1: struct ftrace_entry, the function tracer */
	TRACE_CTX,        /*  2: sched_switch */
	TRACE_WAKE,       /*  3: sched_wakeup */
	TRACE_STACK,      /*  4: struct stack_entry, a kernel stack trace */
	TRACE_PRINT,      /*  5: struct print_entry, trace_marker and formatted trace_printk */
	TRACE_BPRINT,     /*  6: struct bprint_entry, binary trace_printk */
	TRACE_MMIO_RW,    /*  7: reserved (Linux's mmiotrace) */
	TRACE_MMIO_MAP,   /*  8: reserved */
	TRACE_BRANCH,     /*  9: reserved (Linux's branch profiler) */
	TRACE_GRAPH_RET,  /* 10: function_graph return */
	TRACE_GRAPH_ENT,  /* 11: function_graph entry */
	TRACE_USER_STACK, /* 12: struct userstack_entry, a user program's stack */
	TRACE_BLK,        /* 13: reserved */
	TRACE_BPUTS,      /* 14: struct bputs_entry, trace_puts of a constant string */
	TRACE_HWLAT,      /* 15: struct hwlat_entry, the hwlat tracer's sample */
	TRACE_OSNOISE,    /* 16: struct osnoise_entry, the osnoise tracer's period */
	TRACE_TIMERLAT,   /* 17: struct timerlat_entry, a timerlat activation */
	TRACE_RAW_DATA,   /* 18: struct raw_data_entry, a trace_marker_raw write */
	TRACE_FUNC_REPEATS, /* 19: reserved (Linux's func-repeats option) */
	__TRACE_LAST_TYPE
};

/* trace_entry.flags, Linux's bits; they become the 'd', 'N', 'h'/'s' columns. */
#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_IRQS_NOSUPPORT 0x02
#define TRACE_FLAG_NEED_RESCHED 0x04
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define TRACE_FLAG_PREEMPT_RESCHED 0x20
#define TRACE_FLAG_NMI 0x40

struct trace_entry {
	unsigned short type;         /* enum trace_type */
	unsigned char flags;         /* TRACE_FLAG_* */
	unsigned char preempt_count; /* preemption depth, 0..15 (the last flag column) */
	int pid;
};

/*
 * trace_ctx, the context an event is recorded in (tracing_gen_ctx()): the flags and preempt
 * depth as they sit in bytes 2 and 3 of struct trace_entry, the rest zero.
 */
#define TRACE_CTX(flags, depth) ((unsigned int)(flags) << 16 | (unsigned int)(depth) << 24)
#define TRACE_CTX_FLAGS(ctx) ((unsigned char)((ctx) >> 16))
#define TRACE_CTX_DEPTH(ctx) ((unsigned char)((ctx) >> 24))

/*
 * TRACE_CTX and TRACE_WAKE (the wakeup tracers, trace/trace_sched_wakeup.c): a switch or a
 * wakeup, "  3:120:R ==> [001]    45: 89:R rtprog" (Linux's ctx_switch_entry).
 */
struct ctx_switch_entry {
	struct trace_entry ent;
	int prev_pid;
	int next_pid;
	int next_cpu;
	unsigned char prev_prio;
	unsigned char prev_state;
	unsigned char next_prio;
	unsigned char next_state;
};

/* TRACE_FN: "func <-parent". */
struct ftrace_entry {
	struct trace_entry ent;
	unsigned long ip;        /* the traced function */
	unsigned long parent_ip; /* the address it will return to, in its caller */
	/* With func-args (Linux 6.15), the six argument registers; else the record ends here. */
	unsigned long args[];
};

/* TRACE_STACK: "<stack trace>" then " => func" per frame, innermost first. */
#define FTRACE_STACK_ENTRIES 16
struct stack_entry {
	struct trace_entry ent;
	int size; /* entries in caller[] */
	unsigned long caller[];
};

/*
 * TRACE_USER_STACK: "<user stack trace>" then " => <addr>" per frame (options/userstacktrace):
 * the user program's instruction pointer, then the return addresses its frame pointers lead
 * to; 0 ends the list early. tgid finds the program again at print time (sym-userobj).
 */
#define FTRACE_USER_STACK_ENTRIES 8 /* Linux's FTRACE_STACK_ENTRIES for user stacks */
struct userstack_entry {
	struct trace_entry ent;
	unsigned int tgid;
	unsigned long caller[FTRACE_USER_STACK_ENTRIES];
};

/* TRACE_PRINT: "caller: text". buf is NUL-terminated and ends with a newline. */
struct print_entry {
	struct trace_entry ent;
	unsigned long ip;
	char buf[];
};

/*
 * TRACE_RAW_DATA: a binary trace_marker_raw write, its first 4 bytes the id, the rest buf.
 * The record may hold more bytes than were written (Linux's minimum size, the ring buffer's
 * rounding): they are zero, and the trace shows them, as Linux shows what is there.
 */
struct raw_data_entry {
	struct trace_entry ent;
	unsigned int id;
	char buf[];
};

/* TRACE_BPRINT: the format stays in the kernel image; only the argument words are saved. */
struct bprint_entry {
	struct trace_entry ent;
	unsigned long ip;
	const char *fmt;
	uint32_t buf[];
};

/* TRACE_BPUTS: a constant string, saved as a pointer. */
struct bputs_entry {
	struct trace_entry ent;
	unsigned long ip;
	const char *str;
};

/*
 * TRACE_GRAPH_ENT: a traced function was entered (trace/trace_functions_graph.c). Printed as
 * "func() {", or as "func();" when its own return is the next event of that CPU.
 */
struct ftrace_graph_ent_entry {
	struct trace_entry ent;
	unsigned long func; /* the function (its first instruction) */
	int depth;          /* its place on the task's return stack: 0 is the outermost */
	/*
	 * What the options asked for when it was recorded, as many words as the record's length
	 * says: with funcgraph-args the six argument registers (Linux 6.15's args[]), then with
	 * funcgraph-retaddr the return address into the caller. So 0, 1, 6 or 7 words.
	 */
	unsigned long args[];
};
#define FGRAPH_ENT_NR_ARGS 6 /* RDI, RSI, RDX, RCX, R8, R9: Linux's FTRACE_REGS_MAX_ARGS */
#define FGRAPH_ENT_MAX_WORDS (FGRAPH_ENT_NR_ARGS + 1)

/*
 * TRACE_GRAPH_RET: it returned. Printed as "}", with the duration rettime - calltime. retval
 * (Linux 6.5, where Linux puts it) is RAX as the function returned: its return value, or
 * whatever the register held if the function returns nothing.
 */
struct ftrace_graph_ret_entry {
	struct trace_entry ent;
	unsigned long func;
	unsigned long retval;
	int depth;
	unsigned int overrun; /* calls this task could not hook so far: its return stack was full */
	uint64_t calltime;    /* ns (ktime_get_ns) at the entry; later if sleep-time is off */
	uint64_t rettime;     /* ... and at the return */
};

/*
 * TRACE_OSNOISE: one period of an osnoise thread (trace/trace_osnoise.c): how long it ran,
 * how much of it was taken away (noise, the single worst gap) and by what, in Linux's order.
 * runtime, noise and max_sample are in us.
 */
struct osnoise_entry {
	struct trace_entry ent;
	uint64_t noise;
	uint64_t runtime;
	uint64_t max_sample;
	unsigned int hw_count;
	unsigned int nmi_count;
	unsigned int irq_count;
	unsigned int softirq_count;
	unsigned int thread_count;
};

/*
 * TRACE_TIMERLAT: activation seqnum's latency in ns, seen from the timer (context 0) or the
 * thread (1).
 */
struct timerlat_entry {
	struct trace_entry ent;
	unsigned int seqnum;
	int context;
	uint64_t timer_latency;
};

/*
 * TRACE_HWLAT: a hwlat window over the threshold (trace/trace_hwlat.c): the worst gap between
 * two reads of the clock (inner) and between one pair and the next (outer), in us, and the
 * real time of the first such gap (Linux's struct timespec64, laid out as its tv_sec, tv_nsec).
 */
struct hwlat_entry {
	struct trace_entry ent;
	uint64_t duration;
	uint64_t outer_duration;
	uint64_t nmi_total_ts;
	struct {
		int64_t tv_sec;
		long tv_nsec;
	} timestamp;
	unsigned int nmi_count;
	unsigned int seqnum;
	unsigned int count;
};

#endif

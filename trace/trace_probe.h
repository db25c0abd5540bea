/*
 * Probe events' common part (trace/trace_probe.c), Linux's kernel/trace/trace_probe.h: the
 * fetch arguments of kprobe, uprobe and eprobe events, parsed, fetched, stored, printed.
 *
 * A probe event is an event made at run time ("p:myprobe do_sys_openat2 dfd=$arg1
 * path=+0($arg2):ustring"). Each argument, NAME=FETCHARG[:TYPE], is compiled once, when it is
 * written, into a short program of fetch_insn (Linux's design):
 *
 *   stage 1, load:   a register, a stack slot, $argN, $retval, $comm, an immediate, an address,
 *                    a field of the attached event (eprobes)
 *   stage 2, deref:  +OFFS(...) nested: read the word at value + OFFS (kernel or user memory)
 *   stage 3, store:  the value into the record at the argument's offset (ST_RAW), or the memory
 *                    it points to (ST_MEM), or a string it points to (ST_STRING: the record
 *                    holds a __data_loc word, the text goes after the fixed part)
 *   stage 4, modify: a bitfield's shift and mask
 *   stage 5, loop:   an array of N: stages 3-4 again at the next element
 *   END
 *
 * so a probe hit runs a flat loop per argument, with no parsing and no allocation. A read that
 * faults (a bad pointer) never oopses: it goes through the exception-table-safe copies, and the
 * argument records "(fault)" (a string) or 0 (a number: Lucid zeroes the record first, where
 * Linux leaves what the buffer held).
 *
 * A record is: struct trace_entry, the probe kind's own fields (kprobe: __probe_ip; kretprobe:
 * __probe_func, __probe_ret_ip; eprobe: none), then the arguments' fixed part (tp->size bytes,
 * each at probe_arg.offset), then the strings. The format file and the print fmt are built from
 * the same probe_arg array, as Linux builds them (traceprobe_define_arg_fields,
 * traceprobe_set_print_fmt).
 *
 * How a probe kind uses it (trace/trace_kprobe.c, trace/trace_uprobe.c, trace/trace_eprobe.c):
 *   create:  trace_probe_log_init(); tp = trace_probe_alloc(event, group, nargs);
 *            traceprobe_parse_probe_arg(tp, i, argv[i], flags) for each argument;
 *            traceprobe_set_print_fmt(tp, ptype); traceprobe_define_arg_fields(tp, own
 *            fields, their size); trace_probe_register_event_call(tp, print, reg);
 *            trace_probe_log_clear().
 *   hit:     dsize = traceprobe_get_data_size(tp, &fc); reserve sizeof(own) + tp->size + dsize;
 *            store_trace_args(rec + own, tp, &fc, sizeof(own) + tp->size, dsize); commit.
 *   output:  trace_probe_print_args(s, tp->args, tp->nr_args, rec + own, rec).
 *   remove:  trace_probe_unregister_event_call(tp) (EBUSY while enabled or used); then
 *            trace_probe_cleanup(tp).
 */
#ifndef TRACE_TRACE_PROBE_H
#define TRACE_TRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trace/trace_events.h"
#include "trace/trace_seq.h"
#include "lib/list.h"

struct pt_regs;

#define MAX_TRACE_ARGS 128 /* arguments of one probe, Linux 6.1's */
#define MAX_ARGSTR_LEN 63 /* one argument's text (after NAME=) */
#define MAX_ARRAY_LEN 64 /* :TYPE[N], N at most */
#define MAX_ARG_NAME_LEN 32 /* NAME, with its NUL */
#define MAX_EVENT_NAME_LEN 64 /* a group's or an event's name, with its NUL */
#define MAX_STRING_SIZE 4096 /* PATH_MAX: the longest string an argument records */
#define MAX_ARG_BUF_LEN (MAX_TRACE_ARGS * MAX_ARG_NAME_LEN)
#define FETCH_INSN_MAX 16 /* fetch + deref*N + store + mod + end: allows N = 12, enough */

/* Reserved field names: no argument may be called so. */
#define FIELD_STRING_IP "__probe_ip"
#define FIELD_STRING_RETIP "__probe_ret_ip"
#define FIELD_STRING_FUNC "__probe_func"

#define FAULT_STRING "(fault)" /* what a string that could not be read prints */

/* trace_probe.flags: who has the event enabled (Linux's TP_FLAG_*). */
#define TP_FLAG_TRACE 1 /* its enable file or set_event, or an instance */
#define TP_FLAG_PROFILE 2 /* perf, which Lucid has not: never set */

/* A __data_loc word: the string's length (NUL included) << 16 | its offset in the record. */
#define make_data_loc(len, offs) (((uint32_t)(len) << 16) | ((uint32_t)(offs)&0xffff))
#define get_loc_len(dl) ((uint32_t)(dl) >> 16)
#define get_loc_offs(dl) ((uint32_t)(dl)&0xffff)

enum fetch_op {
	FETCH_OP_NOP = 0,
	/* stage 1: load */
	FETCH_OP_REG, /* a register: .param = its offset in struct pt_regs */
	FETCH_OP_STACK, /* $stackN: .param = N */
	FETCH_OP_STACKP, /* $stack: the stack pointer */
	FETCH_OP_RETVAL, /* $retval */
	FETCH_OP_IMM, /* \IMM and @ADDR: .immediate */
	FETCH_OP_COMM, /* $comm: the current task's name */
	FETCH_OP_ARG, /* $argN: .param = N - 1 */
	FETCH_OP_FOFFS, /* uprobe @+OFFS: .immediate, a file offset */
	FETCH_OP_DATA, /* \"string": .data */
	FETCH_OP_TP_ARG, /* eprobe $FIELD: .data = the attached event's field */
	/* stage 2: dereference */
	FETCH_OP_DEREF, /* kernel memory at value + .offset */
	FETCH_OP_UDEREF, /* user memory at value + .offset */
	/* stage 3: store */
	FETCH_OP_ST_RAW, /* the value itself, .size bytes */
	FETCH_OP_ST_MEM, /* .size bytes of kernel memory at value + .offset */
	FETCH_OP_ST_UMEM, /* ... of user memory */
	FETCH_OP_ST_STRING, /* a kernel string at value + .offset */
	FETCH_OP_ST_USTRING, /* a user string */
	FETCH_OP_ST_SYMSTR, /* the symbol of the value, as text ("func+0x10/0x40") */
	/* stage 4: modify */
	FETCH_OP_MOD_BF, /* bitfield: .basesize, .lshift, .rshift */
	/* stage 5: loop */
	FETCH_OP_LP_ARRAY, /* array: .param = its length */
	FETCH_OP_END,
	FETCH_NOP_SYMBOL, /* @SYM[+|-OFFS]: .data = the text, the next IMM gets its address */
};

struct fetch_insn {
	enum fetch_op op;
	union {
		unsigned int param;
		struct {
			unsigned int size;
			int offset;
		};
		struct {
			unsigned char basesize;
			unsigned char lshift;
			unsigned char rshift;
		};
		unsigned long immediate;
		void *data;
	};
};

/* A type of :TYPE. print prints one value at data (ent: the record, for a string's loc). */
typedef int (*print_type_func_t)(struct trace_seq *s, void *data, void *ent);
struct fetch_type {
	const char *name; /* "u32", "x64", "string" */
	size_t size; /* in the record (a string: its 4-byte __data_loc) */
	bool is_signed;
	bool is_string;
	print_type_func_t print;
	const char *fmt; /* in the print fmt: "%u", "0x%Lx", "\"%s\"" */
	const char *fmttype; /* in the format file: "u32", "u64" for x64, "__data_loc char[]" */
};

/* One argument, NAME=FETCHARG:TYPE. */
struct probe_arg {
	struct fetch_insn *code; /* its program, ending in FETCH_OP_END */
	bool dynamic; /* a string: its text goes after the fixed part */
	unsigned int offset; /* from the start of the arguments' part of the record */
	unsigned int count; /* an array's length, 0 for one value */
	const char *name; /* NAME, or "argN" (N from 1) when none was given */
	const char *comm; /* the FETCHARG[:TYPE] text, as kprobe_events lists it back */
	char *fmt; /* an array's format-file type ("u8[4]"), or NULL */
	const struct fetch_type *type;
	/*
	 * In a cannot_fault probe (below): where the value is in struct pt_regs, so that a hit
	 * stores it with one load (store_trace_regs), or -1 ($argN past the sixth: on the stack).
	 */
	int regs_offset;
};

/*
 * A probe and its event (Linux's trace_probe and trace_probe_event in one struct). Every probe
 * has its own; the first probe made under a GROUP/EVENT name is also the event: its call, flags,
 * fields and print fmt are the ones used. A later definition of the same name with the same
 * arguments (names, types, array lengths) is appended to that event (Linux 6.1's multi-probe
 * events, e.g. one event on two functions): it parses its own arguments, whose fetch programs
 * may differ (another +OFFS, another @SYM), but its records go to event->call, laid out as the
 * event's, since the arguments' types agree. The probe kind finds itself from a hit by
 * container_of, and the event's probes through the list probes, which links a list_head of
 * each kind's probe struct. The event lives until its last probe leaves
 * (trace_probe_unlink()), even if that is not the first.
 */
struct trace_probe {
	struct trace_event_call call; /* call.system = the group, call.name = the event */
	struct trace_probe
		*event; /* where hits go: itself, or the probe this one was appended to */
	struct list_head probes; /* the event's: its probes (valid only where event == this one) */
	unsigned int flags; /* TP_FLAG_*, the event's */
	struct trace_event_field *fields; /* the format's: the kind's own, then the arguments */
	char *print_fmt;
	/* eprobe: the attached event, whose fields $FIELD names (set before parsing) */
	const struct trace_event_call *attached;
	unsigned int size; /* the arguments' fixed part, bytes */
	/*
	 * Set by traceprobe_define_arg_fields, for the hit path (false is always safe):
	 * fixed_size, no argument is a string (no sizing pass, traceprobe_get_data_size is 0);
	 * cannot_fault, every argument a register, $retval or $argN stored as it is (nothing
	 * to zero first for a fault, store_trace_args).
	 */
	bool fixed_size;
	bool cannot_fault;
	bool from_regs; /* cannot_fault, and each argument one load from pt_regs (regs_offset) */
	unsigned int nr_args;
	struct probe_arg args[]; /* nr_args of them */
};

static inline struct trace_probe *trace_probe_from_call(struct trace_event_call *call)
{
	return container_of(call, struct trace_probe, call);
}
static inline const char *trace_probe_name(const struct trace_probe *tp)
{
	return tp->call.name;
}
static inline const char *trace_probe_group_name(const struct trace_probe *tp)
{
	return tp->call.system;
}
static inline bool trace_probe_is_enabled(const struct trace_probe *tp)
{
	return __atomic_load_n(&tp->flags, __ATOMIC_ACQUIRE) & (TP_FLAG_TRACE | TP_FLAG_PROFILE);
}

/*
 * Parsing flags: what the probe kind allows (Linux 6.1's TPARG_FL_*). KERNEL: kernel memory
 * and symbols (else: a uprobe, memory is the task's, @+OFFS is a file offset). RETURN: $retval
 * (a return probe). FENTRY: $argN (at a function's first instruction). TPOINT: an eprobe, $FIELD
 * names a field of tp->attached, and there are no registers.
 */
#define TPARG_FL_RETURN (1u << 0)
#define TPARG_FL_KERNEL (1u << 1)
#define TPARG_FL_FENTRY (1u << 2)
#define TPARG_FL_TPOINT (1u << 3)
#define TPARG_FL_MASK (TPARG_FL_RETURN | TPARG_FL_KERNEL | TPARG_FL_FENTRY | TPARG_FL_TPOINT)

/*
 * A new probe of nargs arguments for event/group: kzalloc'ed with its args, names copied, its
 * own event with no probes on it yet. NULL if out of memory. trace_probe_cleanup frees what it
 * and the parse allocated, and tp.
 */
struct trace_probe *trace_probe_alloc(const char *event, const char *group, int nargs);
void trace_probe_cleanup(struct trace_probe *tp);

/*
 * Multi-probe events. trace_probe_compare_arg_type: 0 if a and b have the same arguments
 * (number, names, types, array lengths), else the number (from 1) of the first that differs
 * (Linux's). trace_probe_link: node (the kind's list_head of tp's probe) onto tp's own event,
 * the first probe. trace_probe_append: tp's probe, node, onto to's event, whose records it
 * makes from then on. trace_probe_has_sibling: another probe is on tp's event.
 * trace_probe_same_fetchargs: a and b fetch the same (their arguments as written).
 * trace_probe_unlink: node off its event (if it was on one), tp freed unless it is the event,
 * and the event freed when node was its last probe (its call must have been unregistered).
 * Under dyn_event_mutex.
 */
int trace_probe_compare_arg_type(const struct trace_probe *a, const struct trace_probe *b);
bool trace_probe_same_fetchargs(const struct trace_probe *a, const struct trace_probe *b);
void trace_probe_link(struct trace_probe *tp, struct list_head *node);
void trace_probe_append(struct trace_probe *tp, struct trace_probe *to, struct list_head *node);
bool trace_probe_has_sibling(const struct trace_probe *tp);
void trace_probe_unlink(struct trace_probe *tp, struct list_head *node);

/* Parses argv ("NAME=FETCHARG:TYPE") into tp->args[i]; 0 or -EINVAL/-E2BIG/-ENOMEM (logged). */
int traceprobe_parse_probe_arg(struct trace_probe *tp, int i, const char *argv, unsigned int flags);
/*
 * Resolves the @SYM arguments (kallsyms), when the probe is registered: 0, or -ENOENT for an
 * unknown symbol, as Linux's.
 */
int traceprobe_update_arg(struct probe_arg *arg);
/* "SYM+OFFS" or "SYM-OFFS": cuts symbol at the sign and sets *offset; 0 or -EINVAL. */
int traceprobe_split_symbol_offset(char *symbol, long *offset);
/*
 * "GROUP/EVENT" or "EVENT" at *pevent (written after "p:" at column offset of the command):
 * checks the names as Linux does (C identifiers, lengths), points *pgroup at buf's copy of
 * GROUP (if given) and *pevent at EVENT. 0 or -EINVAL (logged).
 */
int traceprobe_parse_event_name(const char **pevent, const char **pgroup, char *buf, int offset);
bool is_good_name(const char *name); /* a C identifier */

enum probe_print_type {
	PROBE_PRINT_NORMAL, /* "(%lx)", __probe_ip */
	PROBE_PRINT_RETURN, /* "(%lx <- %lx)", __probe_func, __probe_ret_ip */
	PROBE_PRINT_EVENT, /* nothing: an eprobe */
};
/*
 * After parsing: the format's fields (own, e.g. {__probe_ip}, come first; own_size bytes of
 * them after struct trace_entry), the print fmt, the offsets. 0 or -ENOMEM.
 */
int traceprobe_set_print_fmt(struct trace_probe *tp, enum probe_print_type ptype);
int traceprobe_define_arg_fields(struct trace_probe *tp, const struct trace_event_field *own,
				 unsigned int own_size);

/*
 * Where a hit's values come from: the registers (kprobe, uprobe), or the attached event's
 * record (eprobe). user: memory reads are the task's (uprobe): @ADDR, $stackN, +OFFS().
 * foffs_to_vaddr (uprobe): the address of a file offset in the probed task, for @+OFFS.
 */
struct fetch_context {
	struct pt_regs *regs;
	const void *rec; /* eprobe */
	bool user;
	unsigned long (*foffs_to_vaddr)(const struct fetch_context *fc, unsigned long offs);
	void *data; /* the kind's, for foffs_to_vaddr */
};

/* The strings' total size at this hit (the record's variable part), 0 if none. */
int traceprobe_get_data_size(const struct trace_probe *tp, const struct fetch_context *fc);
/*
 * Stores every argument at data, the arguments' part of the record, header_size bytes from the
 * record's start; the strings go after the fixed part (data + tp->size), maxlen bytes of room
 * for them (what traceprobe_get_data_size said). The fixed part is zeroed first.
 */
void store_trace_args(void *data, const struct trace_probe *tp, const struct fetch_context *fc,
		      int header_size, int maxlen);
/*
 * The same for a probe whose arguments are all registers, $retval or $argN (tp->cannot_fault):
 * straight from regs, no fetch_context for the caller to build.
 */
void store_trace_regs(void *data, const struct trace_probe *tp, struct pt_regs *regs);
/* " NAME=VALUE" for each argument; data: the arguments' part, ent: the record. */
int trace_probe_print_args(struct trace_seq *s, const struct probe_arg *args, int nr_args,
			   uint8_t *data, void *ent);
/*
 * Do argv (the words after "-:EVENT PLACE" of a removal) name tp's first argc arguments, each
 * as "NAME=FETCHARG:TYPE" exactly as listed? Linux's trace_probe_match_command_args().
 */
bool trace_probe_match_command_args(const struct trace_probe *tp, int argc, const char **argv);
/* " NAME=FETCHARG:TYPE" for each argument, as kprobe_events lists a probe. */
struct seq_file;
void trace_probe_show_args(struct seq_file *m, const struct trace_probe *tp);

/*
 * The event, on the events' list with its files (events/GROUP/EVENT/ enable, filter, trigger,
 * format, id), output printing with trace; reg attaches or detaches the probe (trace_event_call
 * .reg). 0, -EEXIST (the name is taken), -ENOMEM.
 */
int trace_probe_register_event_call(struct trace_probe *tp, trace_print_func trace,
				    int (*reg)(struct trace_event_call *call, bool on));
/* Removes it: -EBUSY while it is enabled (here or in an instance) or a trigger uses it. */
int trace_probe_unregister_event_call(struct trace_probe *tp);

/*
 * Error log (Linux's trace_probe_log): a definition's words, the one being parsed, and the
 * error with its column. The caret goes under word index's column + offset.
 */
void trace_probe_log_init(const char *subsystem, int argc, const char **argv);
void trace_probe_log_set_index(int index);
void trace_probe_log_clear(void);
void __trace_probe_log_err(int offset, int err);
#define trace_probe_log_err(offs, err) __trace_probe_log_err(offs, TP_ERR_##err)

/* Linux 6.1's messages, in its order (the index is the error's number in error_log's table). */
#define TP_ERRORS                                                                                 \
	C(FILE_NOT_FOUND, "Failed to find the given file"),                                       \
		C(NO_REGULAR_FILE, "Not a regular file"),                                         \
		C(BAD_REFCNT, "Invalid reference counter offset"),                                \
		C(REFCNT_OPEN_BRACE, "Reference counter brace is not closed"),                    \
		C(BAD_REFCNT_SUFFIX, "Reference counter has wrong suffix"),                       \
		C(BAD_UPROBE_OFFS, "Invalid uprobe offset"),                                      \
		C(MAXACT_NO_KPROBE, "Maxactive is not for kprobe"),                               \
		C(BAD_MAXACT, "Invalid maxactive number"),                                        \
		C(MAXACT_TOO_BIG, "Maxactive is too big"),                                        \
		C(BAD_PROBE_ADDR, "Invalid probed address or symbol"),                            \
		C(BAD_RETPROBE, "Retprobe address must be an function entry"),                    \
		C(BAD_ADDR_SUFFIX, "Invalid probed address suffix"),                              \
		C(NO_GROUP_NAME, "Group name is not specified"),                                  \
		C(GROUP_TOO_LONG, "Group name is too long"),                                      \
		C(BAD_GROUP_NAME, "Group name must follow the same rules as C identifiers"),      \
		C(NO_EVENT_NAME, "Event name is not specified"),                                  \
		C(EVENT_TOO_LONG, "Event name is too long"),                                      \
		C(BAD_EVENT_NAME, "Event name must follow the same rules as C identifiers"),      \
		C(EVENT_EXIST, "Given group/event name is already used by another event"),        \
		C(RETVAL_ON_PROBE, "$retval can be used only on retprobe"),                       \
		C(BAD_STACK_NUM, "Invalid stack number"),                                         \
		C(BAD_ARG_NUM, "Invalid argument number"),                                        \
		C(BAD_VAR, "Invalid $-valiable specified"),                                       \
		C(BAD_REG_NAME, "Invalid register name"),                                         \
		C(BAD_MEM_ADDR, "Invalid memory address"), C(BAD_IMM, "Invalid immediate value"), \
		C(IMMSTR_NO_CLOSE, "String is not closed with '\"'"),                             \
		C(FILE_ON_KPROBE, "File offset is not available with kprobe"),                    \
		C(BAD_FILE_OFFS, "Invalid file offset value"),                                    \
		C(SYM_ON_UPROBE, "Symbol is not available with uprobe"),                          \
		C(TOO_MANY_OPS, "Dereference is too much nested"),                                \
		C(DEREF_NEED_BRACE, "Dereference needs a brace"),                                 \
		C(BAD_DEREF_OFFS, "Invalid dereference offset"),                                  \
		C(DEREF_OPEN_BRACE, "Dereference is not closed"),                                 \
		C(COMM_CANT_DEREF, "$comm can not be dereferenced"),                              \
		C(BAD_FETCH_ARG, "Invalid fetch argument"),                                       \
		C(ARRAY_NO_CLOSE, "Array is not closed"),                                         \
		C(BAD_ARRAY_SUFFIX, "Array has wrong suffix"),                                    \
		C(BAD_ARRAY_NUM, "Invalid array size"),                                           \
		C(ARRAY_TOO_BIG, "Array number is too big"),                                      \
		C(BAD_TYPE, "Unknown type is specified"),                                         \
		C(BAD_STRING, "String accepts only memory argument"),                             \
		C(BAD_SYMSTRING, "Symbol String doesn't accept data/userdata"),                   \
		C(BAD_BITFIELD, "Invalid bitfield"),                                              \
		C(ARG_NAME_TOO_LONG, "Argument name is too long"),                                \
		C(NO_ARG_NAME, "Argument name is not specified"),                                 \
		C(BAD_ARG_NAME, "Argument name must follow the same rules as C identifiers"),     \
		C(USED_ARG_NAME, "This argument name is already used"),                           \
		C(ARG_TOO_LONG, "Argument expression is too long"),                               \
		C(NO_ARG_BODY, "No argument expression"),                                         \
		C(BAD_INSN_BNDRY, "Probe point is not an instruction boundary"),                  \
		C(FAIL_REG_PROBE, "Failed to register probe event"),                              \
		C(DIFF_PROBE_TYPE, "Probe type is different from existing probe"),                \
		C(DIFF_ARG_TYPE, "Argument type or name is different from existing probe"),       \
		C(SAME_PROBE, "There is already the exact same probe event"),                     \
		C(NO_EVENT_INFO, "This requires both group and event name to attach"),            \
		C(BAD_ATTACH_EVENT, "Attached event does not exist"),                             \
		C(BAD_ATTACH_ARG, "Attached event does not have this field"),                     \
		C(NO_EP_FILTER, "No filter rule after 'if'"),                                     \
		C(TOO_MANY_ARGS, "Too many arguments are specified"),

#undef C
#define C(a, b) TP_ERR_##a
enum { TP_ERRORS };
#undef C

#endif

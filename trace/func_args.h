/*
 * The arguments of traced functions: func-args (function tracer) and funcgraph-args
 * (function_graph), Linux 6.15's "func(name=value, ...)".
 *
 * Linux reads each function's parameter names and types from BTF. Lucid has no BTF: the build
 * makes the same knowledge from its own debug information (scripts/gen_func_args.py reads the
 * first link's DWARF), a table of every kernel function's parameters linked into the second
 * link, as kallsyms is (kernel/kallsyms.c).
 */
#ifndef TRACE_FUNC_ARGS_H
#define TRACE_FUNC_ARGS_H

#include <stdint.h>
#include "trace/ftrace.h"
#include "trace/trace_entries.h"

struct trace_seq;

/* What the printer needs of a parameter's type (BTF's kinds, as Linux's printer uses them). */
enum func_arg_kind {
	FUNC_ARG_INT,    /* signed integer (char, short, int, long, ...): decimal */
	FUNC_ARG_UINT,   /* unsigned integer or _Bool: decimal as Linux 6.15 prints it */
	FUNC_ARG_PTR,    /* pointer: 0x... */
	FUNC_ARG_ENUM,   /* enum: decimal */
	FUNC_ARG_STRUCT, /* by value: "(STRUCT)[0x...:0x...]", a word a register */
	FUNC_ARG_UNION,  /* "(UNION)[...]" */
	FUNC_ARG_FLOAT,  /* "(FLOAT)[...]" (not in the kernel, but the table can say so) */
	FUNC_ARG_UNKNOWN, /* "?0x..." */
};

struct func_arg {
	uint32_t name;  /* offset in func_args_strings */
	uint8_t kind;   /* enum func_arg_kind */
	uint8_t size;   /* bytes */
};

struct func_proto {
	uint32_t name;      /* offset in func_args_strings */
	uint16_t first_arg; /* index in func_args_table */
	uint8_t nr_args;
};

/* The generated table: func_protos sorted by name (strcmp), for a binary search. */
extern const struct func_proto func_protos[];
extern const unsigned int func_protos_num;
extern const struct func_arg func_args_table[];
extern const char func_args_strings[];

/* A function's parameters, or NULL if the table does not know it (a module's, say). */
const struct func_proto *func_proto_find(const char *name);

/*
 * "(fd=3, buf=0xffff..., count=512)" for the function at func, with the registers args (six):
 * Linux 6.15's print_function_args. "()" if args is NULL or the function is not known.
 */
void print_function_args(struct trace_seq *s, const unsigned long *args, unsigned long func);

/* The six argument registers as the traced function was entered, in the ABI's order. */
static inline void ftrace_regs_get_arguments(const struct ftrace_regs *fregs,
					     unsigned long args[FGRAPH_ENT_NR_ARGS])
{
	args[0] = fregs->rdi;
	args[1] = fregs->rsi;
	args[2] = fregs->rdx;
	args[3] = fregs->rcx;
	args[4] = fregs->r8;
	args[5] = fregs->r9;
}

#endif

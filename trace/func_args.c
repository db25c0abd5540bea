/*
 * Printing a traced function's arguments from its six argument registers, with the names and
 * types of the build's table (trace/func_args.h): Linux 6.15's print_function_args, with the
 * table where Linux has BTF.
 *
 *   do_sys_openat2(dfd=-100, filename=0xffff888001234000, how=0xffffc90000123e58)
 *
 * Per parameter, in order: "name=" and the value, as its type says: a pointer in hex, an
 * integer or enum in decimal, a struct or union passed by value as "(STRUCT)[0x..:0x..]", one
 * word per register it takes. The registers are six (RDI, RSI, RDX, RCX, R8, R9): a function
 * with more parameters shows "..." after the sixth register's. One difference from 6.15: an
 * integer narrower than the register is cut to its width first (with its sign), since the
 * upper bits of a register that holds an int are not defined by the ABI: an int of -100 prints
 * -100, where 6.15 could print 4294967196 (later Linux cuts return values to their type too).
 *
 * Not traced: runs while the trace is read.
 */
#include "trace/func_args.h"
#include "trace/trace_seq.h"
#include "kernel/kallsyms.h"
#include "lib/string.h"

#define KSYM_NAME_MAX 128 /* a name, or "name [module]", longer than any Lucid has */

#define BITS_PER_BYTE 8

/*
 * The table is generated into the kernel's second link; a host test links none. Weak, so
 * that such a program sees an empty table (func_protos_num's address is NULL) instead of
 * failing to link.
 */
extern const unsigned int func_protos_num __attribute__((weak));
extern const struct func_proto func_protos[] __attribute__((weak));
extern const struct func_arg func_args_table[] __attribute__((weak));
extern const char func_args_strings[] __attribute__((weak));

const struct func_proto *func_proto_find(const char *name)
{
	if (!&func_protos_num)
		return NULL;
	unsigned int lo = 0, hi = func_protos_num;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, func_args_strings + func_protos[mid].name);

		if (!cmp)
			return &func_protos[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* An integer of size bytes from the low bytes of a register, sign-extended if signed. */
static unsigned long arg_int(unsigned long reg, unsigned int size, bool is_signed)
{
	unsigned int bits = size * BITS_PER_BYTE;

	if (!size || bits >= sizeof(long) * BITS_PER_BYTE)
		return reg;
	unsigned long mask = (1UL << bits) - 1;
	reg &= mask;
	if (is_signed && (reg >> (bits - 1)))
		reg |= ~mask;
	return reg;
}

static const char *const kind_names[] = {
	[FUNC_ARG_STRUCT] = "STRUCT",
	[FUNC_ARG_UNION] = "UNION",
	[FUNC_ARG_FLOAT] = "FLOAT",
};

void print_function_args(struct trace_seq *s, const unsigned long *args, unsigned long func)
{
	const struct func_proto *proto;
	char name[KSYM_NAME_MAX];

	trace_seq_putc(s, '(');
	/* A module's function reads "name [mod]": not in the table, which has the kernel's. */
	if (!args || !sprint_symbol(name, sizeof(name), func, false))
		goto out;
	proto = func_proto_find(name);
	if (!proto)
		goto out;
	/* a counts registers, p parameters: a struct may take two registers. */
	for (unsigned int a = 0, p = 0; p < proto->nr_args; a++, p++) {
		const struct func_arg *arg = &func_args_table[proto->first_arg + p];

		if (p)
			trace_seq_puts(s, ", ");
		if (a == FGRAPH_ENT_NR_ARGS) {
			trace_seq_puts(s, "...");
			break;
		}
		trace_seq_printf(s, "%s=", func_args_strings + arg->name);
		switch (arg->kind) {
		case FUNC_ARG_UNKNOWN:
			trace_seq_putc(s, '?');
			__attribute__((fallthrough)); /* still print its value */
		case FUNC_ARG_PTR:
			trace_seq_printf(s, "0x%lx", args[a]);
			break;
		case FUNC_ARG_INT:
		case FUNC_ARG_ENUM:
			trace_seq_printf(s, "%ld", (long)arg_int(args[a], arg->size, true));
			break;
		case FUNC_ARG_UINT:
			trace_seq_printf(s, "%ld", (long)arg_int(args[a], arg->size, false));
			break;
		default:
			/* By value: a word per register, as far as the registers go. */
			trace_seq_printf(s, "(%s)[0x%lx", kind_names[arg->kind], args[a]);
			for (unsigned int x = sizeof(long); x < arg->size; x += sizeof(long)) {
				trace_seq_putc(s, ':');
				if (++a == FGRAPH_ENT_NR_ARGS) {
					trace_seq_puts(s, "...]");
					goto out;
				}
				trace_seq_printf(s, "0x%lx", args[a]);
			}
			trace_seq_putc(s, ']');
			break;
		}
	}
out:
	trace_seq_putc(s, ')');
}

/* Probe events' fetch arguments: parsing them, and their format file and text (Linux's). */

/*
 * trace/trace_probe.h tells the design: each NAME=FETCHARG:TYPE becomes a short fetch_insn
 * program when it is written. This file is the compiler (traceprobe_parse_probe_arg, following
 * Linux 6.1's kernel/trace/trace_probe.c step by step, so that every malformed argument fails
 * where Linux's fails, with its message and caret), the types' table, the format file's fields
 * and print fmt, and the text of a record. The programs run in trace/trace_probe_fetch.c.
 *
 * Parsing runs in task context under the dynamic events' lock (trace/trace_dynevent.c), which
 * also covers the error log's state (trace_probe_log): one definition is parsed at a time.
 */
#include "trace/trace_probe.h"
#include "trace/trace_error_log.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "arch/x86_64/ptrace.h" /* regs_query_register_offset: what %REG names */
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define BITS_PER_BYTE 8
#define SYM_BUF_LEN 160 /* "name+0x.../0x... [module]" */
/*
 * $stackN and $argN: at most this many words (Linux's PARAM_MAX_STACK, THREAD_SIZE / sizeof
 * long; Lucid's kernel stacks are as big as Linux's, 16 KiB).
 */
#define KERNEL_STACK_BYTES 16384
#define PARAM_MAX_STACK (KERNEL_STACK_BYTES / sizeof(unsigned long))

/* --- the error log ---------------------------------------------------------------------------- */

#undef C
#define C(a, b) b
static const char *const trace_probe_err_text[] = {TP_ERRORS};
#undef C

static struct {
	const char *subsystem;
	const char **argv;
	int argc;
	int index;
} trace_probe_log;

void trace_probe_log_init(const char *subsystem, int argc, const char **argv)
{
	trace_probe_log.subsystem = subsystem;
	trace_probe_log.argc = argc;
	trace_probe_log.argv = argv;
	trace_probe_log.index = 0;
}

void trace_probe_log_clear(void)
{
	memset(&trace_probe_log, 0, sizeof(trace_probe_log));
}

void trace_probe_log_set_index(int index)
{
	trace_probe_log.index = index;
}

/*
 * Linux's: the command is the words joined by one space; the caret goes under the word being
 * parsed, offset into it. Past the last word: one column past the end (what is missing).
 */
void __trace_probe_log_err(int offset, int err_type)
{
	int i, len = 0, pos = 0;
	char *command, *p;

	if (!trace_probe_log.argv)
		return;
	for (i = 0; i < trace_probe_log.argc; i++) {
		if (i == trace_probe_log.index)
			pos = len;
		len += (int)strlen(trace_probe_log.argv[i]) + 1;
	}
	command = kzalloc((size_t)len + 1);
	if (!command)
		return;
	if (trace_probe_log.index >= trace_probe_log.argc) {
		pos = len;
		offset = 0;
	}
	p = command;
	for (i = 0; i < trace_probe_log.argc; i++) {
		size_t l = strlen(trace_probe_log.argv[i]);

		memcpy(p, trace_probe_log.argv[i], l);
		p[l] = ' ';
		p += l + 1;
	}
	if (p > command)
		*(p - 1) = '\0';
	tracing_log_err(NULL, trace_probe_log.subsystem, command, trace_probe_err_text,
			(unsigned int)err_type, (unsigned int)(pos + offset));
	kfree(command);
}

/* --- the types -------------------------------------------------------------------------------- */

#define DEFINE_BASIC_PRINT_TYPE_FUNC(tname, type, fmt, cast)                      \
	static int print_type_##tname(struct trace_seq *s, void *data, void *ent) \
	{                                                                         \
		type v;                                                           \
                                                                                  \
		(void)ent;                                                        \
		memcpy(&v, data, sizeof(v)); /* packed: at any byte */            \
		trace_seq_printf(s, fmt, (cast)v);                                \
		return !trace_seq_has_overflowed(s);                              \
	}

DEFINE_BASIC_PRINT_TYPE_FUNC(u8, uint8_t, "%u", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(u16, uint16_t, "%u", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(u32, uint32_t, "%u", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(u64, uint64_t, "%llu", unsigned long long)
DEFINE_BASIC_PRINT_TYPE_FUNC(s8, int8_t, "%d", int)
DEFINE_BASIC_PRINT_TYPE_FUNC(s16, int16_t, "%d", int)
DEFINE_BASIC_PRINT_TYPE_FUNC(s32, int32_t, "%d", int)
DEFINE_BASIC_PRINT_TYPE_FUNC(s64, int64_t, "%lld", long long)
DEFINE_BASIC_PRINT_TYPE_FUNC(x8, uint8_t, "0x%x", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(x16, uint16_t, "0x%x", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(x32, uint32_t, "0x%x", unsigned int)
DEFINE_BASIC_PRINT_TYPE_FUNC(x64, uint64_t, "0x%llx", unsigned long long)

/* %pS: "func+0x10/0x40", or the address in hex if no symbol holds it. */
static int print_type_symbol(struct trace_seq *s, void *data, void *ent)
{
	unsigned long addr;
	char buf[SYM_BUF_LEN];

	memcpy(&addr, data, sizeof(addr));

	(void)ent;
	if (sprint_symbol(buf, sizeof(buf), addr, true))
		trace_seq_puts(s, buf);
	else
		trace_seq_printf(s, "0x%lx", addr);
	return !trace_seq_has_overflowed(s);
}

static int print_type_string(struct trace_seq *s, void *data, void *ent)
{
	uint32_t loc;

	memcpy(&loc, data, sizeof(loc));
	if (!get_loc_len(loc))
		trace_seq_puts(s, FAULT_STRING);
	else
		trace_seq_printf(s, "\"%s\"", (const char *)ent + get_loc_offs(loc));
	return !trace_seq_has_overflowed(s);
}

#define TYPE(n, sz, sign, fmtstr, ftype)                                                           \
	{                                                                                          \
		.name = #n, .size = sz, .is_signed = sign, .print = print_type_##n, .fmt = fmtstr, \
		.fmttype = ftype                                                                   \
	}
#define STRING_TYPE(n)                                                                          \
	{                                                                                       \
		.name = n, .size = sizeof(uint32_t), .is_signed = true, .is_string = true,      \
		.print = print_type_string, .fmt = "\\\"%s\\\"", .fmttype = "__data_loc char[]" \
	}

/* Linux 6.1's probe_fetch_types, in its order; x* and symbol show their base type. */
static const struct fetch_type probe_fetch_types[] = {
	STRING_TYPE("string"),
	STRING_TYPE("ustring"),
	STRING_TYPE("symstr"),
	TYPE(u8, 1, false, "%u", "u8"),
	TYPE(u16, 2, false, "%u", "u16"),
	TYPE(u32, 4, false, "%u", "u32"),
	TYPE(u64, 8, false, "%Lu", "u64"),
	TYPE(s8, 1, true, "%d", "s8"),
	TYPE(s16, 2, true, "%d", "s16"),
	TYPE(s32, 4, true, "%d", "s32"),
	TYPE(s64, 8, true, "%Ld", "s64"),
	TYPE(x8, 1, false, "0x%x", "u8"),
	TYPE(x16, 2, false, "0x%x", "u16"),
	TYPE(x32, 4, false, "0x%x", "u32"),
	TYPE(x64, 8, false, "0x%Lx", "u64"),
	TYPE(symbol, sizeof(unsigned long), false, "%pS", "u64"),
	{.name = NULL},
};

#define DEFAULT_FETCH_TYPE_STR "x64" /* an unsigned long, in hex */

static const struct fetch_type *find_fetch_type(const char *type)
{
	if (!type)
		type = DEFAULT_FETCH_TYPE_STR;
	/* A bitfield b<width>@<offset>/<size> is stored as its container's unsigned type. */
	if (*type == 'b') {
		unsigned long bs;

		type = strchr(type, '/');
		if (!type || kstrtoul(type + 1, 0, &bs))
			return NULL;
		switch (bs) {
		case 8:
			return find_fetch_type("u8");
		case 16:
			return find_fetch_type("u16");
		case 32:
			return find_fetch_type("u32");
		case 64:
			return find_fetch_type("u64");
		default:
			return NULL;
		}
	}
	for (int i = 0; probe_fetch_types[i].name; i++)
		if (!strcmp(type, probe_fetch_types[i].name))
			return &probe_fetch_types[i];
	return NULL;
}

/* --- names ------------------------------------------------------------------------------------ */

bool is_good_name(const char *name)
{
	if (!isalpha((unsigned char)*name) && *name != '_')
		return false;
	while (*++name != '\0')
		if (!isalnum((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

int traceprobe_split_symbol_offset(char *symbol, long *offset)
{
	char *tmp;

	if (!offset)
		return -EINVAL;
	tmp = strchr(symbol, '+');
	if (!tmp)
		tmp = strchr(symbol, '-');
	if (tmp) {
		/* kstrtol refuses a leading '+' */
		if (kstrtol(tmp + (*tmp == '+'), 0, offset))
			return -EINVAL;
		*tmp = '\0';
	} else {
		*offset = 0;
	}
	return 0;
}

int traceprobe_parse_event_name(const char **pevent, const char **pgroup, char *buf, int offset)
{
	const char *slash, *event = *pevent;
	size_t len;

	slash = strchr(event, '/');
	if (!slash)
		slash = strchr(event, '.');
	if (slash) {
		if (slash == event) {
			trace_probe_log_err(offset, NO_GROUP_NAME);
			return -EINVAL;
		}
		if (slash - event + 1 > MAX_EVENT_NAME_LEN) {
			trace_probe_log_err(offset, GROUP_TOO_LONG);
			return -EINVAL;
		}
		strlcpy(buf, event, (size_t)(slash - event + 1));
		if (!is_good_name(buf)) {
			trace_probe_log_err(offset, BAD_GROUP_NAME);
			return -EINVAL;
		}
		*pgroup = buf;
		*pevent = slash + 1;
		offset += (int)(slash - event + 1);
		event = *pevent;
	}
	len = strlen(event);
	if (len == 0) {
		if (slash) {
			*pevent = NULL; /* "GROUP/": the kind names the event */
			return 0;
		}
		trace_probe_log_err(offset, NO_EVENT_NAME);
		return -EINVAL;
	} else if (len > MAX_EVENT_NAME_LEN) {
		trace_probe_log_err(offset, EVENT_TOO_LONG);
		return -EINVAL;
	}
	if (!is_good_name(event)) {
		trace_probe_log_err(offset, BAD_EVENT_NAME);
		return -EINVAL;
	}
	return 0;
}

/* --- parsing one argument --------------------------------------------------------------------- */

static const struct trace_event_field *find_event_field(const struct trace_event_call *call,
							const char *name)
{
	for (const struct trace_event_field *f = call->fields; f && f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

static size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) == 0 ? len : 0;
}

/* $VAR: Linux's parse_probe_vars(). */
static int parse_probe_vars(char *arg, struct fetch_insn *code, unsigned int flags, int offs,
			    const struct trace_probe *tp)
{
	unsigned long param;
	size_t len;

	if (flags & TPARG_FL_TPOINT) {
		/* an eprobe: a field of the attached event, or the task's name */
		const struct trace_event_field *f =
			tp->attached ? find_event_field(tp->attached, arg) : NULL;

		if (f) {
			code->op = FETCH_OP_TP_ARG;
			code->data = (void *)f;
			return 0;
		}
		if (!strcmp(arg, "comm") || !strcmp(arg, "COMM")) {
			code->op = FETCH_OP_COMM;
			return 0;
		}
		/* Linux's caret: at the start of the argument's word */
		trace_probe_log_err(0, BAD_ATTACH_ARG);
		return -ENOENT;
	}
	if (!strcmp(arg, "retval")) {
		if (flags & TPARG_FL_RETURN) {
			code->op = FETCH_OP_RETVAL;
			return 0;
		}
		trace_probe_log_err(offs, RETVAL_ON_PROBE);
		return -EINVAL;
	}
	if ((len = str_has_prefix(arg, "stack"))) {
		if (arg[len] == '\0') {
			code->op = FETCH_OP_STACKP;
			return 0;
		}
		if (!isdigit((unsigned char)arg[len]) || kstrtoul(arg + len, 10, &param))
			goto inval_var;
		if ((flags & TPARG_FL_KERNEL) && param > PARAM_MAX_STACK) {
			trace_probe_log_err(offs, BAD_STACK_NUM);
			return -EINVAL;
		}
		code->op = FETCH_OP_STACK;
		code->param = (unsigned int)param;
		return 0;
	}
	if (!strcmp(arg, "comm") || !strcmp(arg, "COMM")) {
		code->op = FETCH_OP_COMM;
		return 0;
	}
	/* $argN only where the arguments are known to be in place: a kernel function's entry */
	if ((flags & TPARG_FL_MASK) == (TPARG_FL_KERNEL | TPARG_FL_FENTRY) &&
	    (len = str_has_prefix(arg, "arg"))) {
		if (kstrtoul(arg + len, 10, &param))
			goto inval_var;
		if (!param || param > PARAM_MAX_STACK) {
			trace_probe_log_err(offs, BAD_ARG_NUM);
			return -EINVAL;
		}
		code->op = FETCH_OP_ARG;
		code->param = (unsigned int)param - 1;
		return 0;
	}
inval_var:
	trace_probe_log_err(offs, BAD_VAR);
	return -EINVAL;
}

static int str_to_immediate(char *str, unsigned long *imm)
{
	if (isdigit((unsigned char)str[0]))
		return kstrtoul(str, 0, imm);
	if (str[0] == '-')
		return kstrtol(str, 0, (long *)imm);
	if (str[0] == '+')
		return kstrtol(str + 1, 0, (long *)imm);
	return -EINVAL;
}

static int parse_imm_string(char *str, char **pbuf, int offs)
{
	size_t len = strlen(str);

	if (len == 0 || str[len - 1] != '"') {
		trace_probe_log_err(offs + (int)len, IMMSTR_NO_CLOSE);
		return -EINVAL;
	}
	*pbuf = kzalloc(len);
	if (!*pbuf)
		return -ENOMEM;
	memcpy(*pbuf, str, len - 1);
	return 0;
}

/* One FETCHARG, recursively for +OFFS(FETCHARG): Linux's parse_probe_arg(). */
static int parse_probe_arg(char *arg, struct fetch_insn **pcode, struct fetch_insn *end,
			   unsigned int flags, int offs, const struct trace_probe *tp)
{
	struct fetch_insn *code = *pcode;
	enum fetch_op deref = FETCH_OP_DEREF;
	unsigned long param;
	long offset = 0;
	char *tmp;
	int ret = 0;

	switch (arg[0]) {
	case '$':
		ret = parse_probe_vars(arg + 1, code, flags, offs, tp);
		break;
	case '%': /* a register */
		if (flags & TPARG_FL_TPOINT) {
			trace_probe_log_err(offs, BAD_VAR); /* an eprobe has no registers */
			return -EINVAL;
		}
		ret = regs_query_register_offset(arg + 1);
		if (ret >= 0) {
			code->op = FETCH_OP_REG;
			code->param = (unsigned int)ret;
			ret = 0;
		} else {
			trace_probe_log_err(offs, BAD_REG_NAME);
		}
		break;
	case '@': /* an address, a file offset or a symbol */
		if (isdigit((unsigned char)arg[1])) {
			ret = kstrtoul(arg + 1, 0, &param);
			if (ret) {
				trace_probe_log_err(offs, BAD_MEM_ADDR);
				break;
			}
			code->op = FETCH_OP_IMM;
			code->immediate = param;
		} else if (arg[1] == '+') {
			if (flags & TPARG_FL_KERNEL) {
				trace_probe_log_err(offs, FILE_ON_KPROBE);
				return -EINVAL;
			}
			ret = kstrtol(arg + 2, 0, &offset);
			if (ret) {
				trace_probe_log_err(offs, BAD_FILE_OFFS);
				break;
			}
			code->op = FETCH_OP_FOFFS;
			code->immediate = (unsigned long)offset;
			offset = 0;
		} else {
			if (!(flags & TPARG_FL_KERNEL)) {
				trace_probe_log_err(offs, SYM_ON_UPROBE);
				return -EINVAL;
			}
			/* kept by name, resolved when the probe is registered */
			code->op = FETCH_NOP_SYMBOL;
			code->data = kstrdup(arg + 1);
			if (!code->data)
				return -ENOMEM;
			if (++code == end) {
				trace_probe_log_err(offs, TOO_MANY_OPS);
				return -EINVAL;
			}
			code->op = FETCH_OP_IMM;
			code->immediate = 0;
		}
		/* the value is what is at the address */
		if (++code == end) {
			trace_probe_log_err(offs, TOO_MANY_OPS);
			return -EINVAL;
		}
		*pcode = code;
		code->op = (flags & TPARG_FL_KERNEL) ? FETCH_OP_DEREF : FETCH_OP_UDEREF;
		code->offset = 0;
		break;
	case '+': /* dereference */
	case '-':
		if (arg[1] == 'u') {
			deref = FETCH_OP_UDEREF;
			arg[1] = arg[0];
			arg++;
		}
		if (arg[0] == '+')
			arg++; /* kstrtol refuses a leading '+' */
		tmp = strchr(arg, '(');
		if (!tmp) {
			trace_probe_log_err(offs, DEREF_NEED_BRACE);
			return -EINVAL;
		}
		*tmp = '\0';
		ret = kstrtol(arg, 0, &offset);
		if (ret) {
			trace_probe_log_err(offs, BAD_DEREF_OFFS);
			break;
		}
		offs += (int)(tmp + 1 - arg) + (arg[0] != '-' ? 1 : 0);
		arg = tmp + 1;
		tmp = strrchr(arg, ')');
		if (!tmp) {
			trace_probe_log_err(offs + (int)strlen(arg), DEREF_OPEN_BRACE);
			return -EINVAL;
		}
		*tmp = '\0';
		ret = parse_probe_arg(arg, &code, end, flags, offs, tp);
		if (ret)
			break;
		if (code->op == FETCH_OP_COMM || code->op == FETCH_OP_DATA) {
			trace_probe_log_err(offs, COMM_CANT_DEREF);
			return -EINVAL;
		}
		if (++code == end) {
			trace_probe_log_err(offs, TOO_MANY_OPS);
			return -EINVAL;
		}
		*pcode = code;
		code->op = deref;
		code->offset = (int)offset;
		break;
	case '\\': /* an immediate value or string */
		if (arg[1] == '"') {
			ret = parse_imm_string(arg + 2, &tmp, offs + 2);
			if (ret)
				break;
			code->op = FETCH_OP_DATA;
			code->data = tmp;
		} else {
			ret = str_to_immediate(arg + 1, &code->immediate);
			if (ret)
				trace_probe_log_err(offs + 1, BAD_IMM);
			else
				code->op = FETCH_OP_IMM;
		}
		break;
	}
	if (!ret && code->op == FETCH_OP_NOP) {
		trace_probe_log_err(offs, BAD_FETCH_ARG); /* parsed, but names no way to fetch */
		ret = -EINVAL;
	}
	return ret;
}

/* :b<width>@<offset>/<size>: shift left then right to keep width bits at offset. */
static int parse_bitfield_probe_arg(const char *bf, const struct fetch_type *t,
				    struct fetch_insn **pcode)
{
	struct fetch_insn *code = *pcode;
	unsigned long bw, bo;
	char *tail;

	if (*bf != 'b')
		return 0;
	bw = simple_strtoul(bf + 1, &tail, 0);
	if (bw == 0 || *tail != '@')
		return -EINVAL;
	bf = tail + 1;
	bo = simple_strtoul(bf, &tail, 0);
	if (tail == bf || *tail != '/')
		return -EINVAL;
	code++;
	if (code->op != FETCH_OP_NOP)
		return -EINVAL;
	*pcode = code;
	if (BITS_PER_BYTE * t->size < bw + bo)
		return -EINVAL;
	code->op = FETCH_OP_MOD_BF;
	code->lshift = (unsigned char)(BITS_PER_BYTE * t->size - (bw + bo));
	code->rshift = (unsigned char)(BITS_PER_BYTE * t->size - bw);
	code->basesize = (unsigned char)t->size;
	return 0;
}

static void free_fetch_code(struct fetch_insn *code)
{
	for (struct fetch_insn *c = code; c && c->op != FETCH_OP_END; c++)
		if (c->op == FETCH_NOP_SYMBOL || c->op == FETCH_OP_DATA)
			kfree(c->data);
	kfree(code);
}

static bool is_op(const struct fetch_insn *code, enum fetch_op a, enum fetch_op b, enum fetch_op c)
{
	return code->op == a || code->op == b || code->op == c;
}

/* FETCHARG[:TYPE] of argument parg: Linux's traceprobe_parse_probe_arg_body(). */
static int parse_probe_arg_body(const char *argv, struct trace_probe *tp, struct probe_arg *parg,
				unsigned int flags, int offset)
{
	struct fetch_insn *code, *scode, *tmp = NULL;
	char *t, *t2, *t3, *arg;
	int ret = -EINVAL;
	size_t len;

	arg = kstrdup(argv);
	if (!arg)
		return -ENOMEM;
	len = strlen(arg);
	if (len > MAX_ARGSTR_LEN) {
		trace_probe_log_err(offset, ARG_TOO_LONG);
		goto out;
	} else if (len == 0) {
		trace_probe_log_err(offset, NO_ARG_BODY);
		goto out;
	}
	ret = -ENOMEM;
	parg->comm = kstrdup(arg);
	if (!parg->comm)
		goto out;
	ret = -EINVAL;
	/* :TYPE, and [N] after it */
	t = strchr(arg, ':');
	if (t) {
		*t = '\0';
		t2 = strchr(++t, '[');
		if (t2) {
			*t2++ = '\0';
			t3 = strchr(t2, ']');
			if (!t3) {
				trace_probe_log_err(offset + (int)(t2 + strlen(t2) - arg),
						    ARRAY_NO_CLOSE);
				goto out;
			} else if (t3[1] != '\0') {
				trace_probe_log_err(offset + (int)(t3 + 1 - arg), BAD_ARRAY_SUFFIX);
				goto out;
			}
			*t3 = '\0';
			if (kstrtouint(t2, 0, &parg->count) || !parg->count) {
				trace_probe_log_err(offset + (int)(t2 - arg), BAD_ARRAY_NUM);
				goto out;
			}
			if (parg->count > MAX_ARRAY_LEN) {
				trace_probe_log_err(offset + (int)(t2 - arg), ARRAY_TOO_BIG);
				goto out;
			}
		}
	}
	/* $comm and an immediate string are strings, of no other type (and not arrays) */
	if (!(flags & TPARG_FL_TPOINT) &&
	    (!strcmp(arg, "$comm") || !strcmp(arg, "$COMM") || !strncmp(arg, "\\\"", 2))) {
		if (parg->count || (t && strcmp(t, "string"))) {
			trace_probe_log_err(offset + (t ? (int)(t - arg) : 0), BAD_TYPE);
			goto out;
		}
		parg->type = find_fetch_type("string");
	} else {
		parg->type = find_fetch_type(t);
	}
	if (!parg->type) {
		trace_probe_log_err(offset + (t ? (int)(t - arg) : 0), BAD_TYPE);
		goto out;
	}
	parg->offset = tp->size;
	tp->size += (unsigned int)parg->type->size * (parg->count ? parg->count : 1);
	ret = -ENOMEM;
	if (parg->count) {
		size_t flen = strlen(parg->type->fmttype) + 8;

		parg->fmt = kmalloc(flen);
		if (!parg->fmt)
			goto out;
		snprintf(parg->fmt, flen, "%s[%u]", parg->type->fmttype, parg->count);
	}
	code = tmp = kzalloc(sizeof(*code) * FETCH_INSN_MAX);
	if (!code)
		goto out;
	code[FETCH_INSN_MAX - 1].op = FETCH_OP_END;

	ret = parse_probe_arg(arg, &code, &code[FETCH_INSN_MAX - 1], flags, offset, tp);
	if (ret)
		goto fail;
	ret = -EINVAL;
	/* stage 3: store */
	if (parg->type->is_string) {
		bool symstr = !strcmp(parg->type->name, "symstr");

		if (symstr) {
			if (code->op != FETCH_OP_REG && code->op != FETCH_OP_STACK &&
			    code->op != FETCH_OP_RETVAL && code->op != FETCH_OP_ARG &&
			    code->op != FETCH_OP_DEREF && code->op != FETCH_OP_TP_ARG) {
				trace_probe_log_err(offset + (t ? (int)(t - arg) : 0),
						    BAD_SYMSTRING);
				goto fail;
			}
		} else if (code->op != FETCH_OP_DEREF && code->op != FETCH_OP_UDEREF &&
			   !is_op(code, FETCH_OP_IMM, FETCH_OP_COMM, FETCH_OP_DATA) &&
			   code->op != FETCH_OP_TP_ARG) {
			trace_probe_log_err(offset + (t ? (int)(t - arg) : 0), BAD_STRING);
			goto fail;
		}
		/*
		 * IMM, DATA, COMM and a field are the string's address themselves; so is each
		 * element of an array (of string pointers); symstr prints the value: keep the
		 * load, store after it. A DEREF is replaced by the string store.
		 */
		if (symstr || is_op(code, FETCH_OP_IMM, FETCH_OP_COMM, FETCH_OP_DATA) ||
		    code->op == FETCH_OP_TP_ARG || parg->count) {
			code++;
			if (code->op != FETCH_OP_NOP) {
				trace_probe_log_err(offset, TOO_MANY_OPS);
				goto fail;
			}
		}
		if (!strcmp(parg->type->name, "ustring") || code->op == FETCH_OP_UDEREF)
			code->op = FETCH_OP_ST_USTRING;
		else if (symstr)
			code->op = FETCH_OP_ST_SYMSTR;
		else
			code->op = FETCH_OP_ST_STRING;
		code->size = (unsigned int)parg->type->size;
		parg->dynamic = true;
	} else if (code->op == FETCH_OP_DEREF) {
		code->op = FETCH_OP_ST_MEM;
		code->size = (unsigned int)parg->type->size;
	} else if (code->op == FETCH_OP_UDEREF) {
		code->op = FETCH_OP_ST_UMEM;
		code->size = (unsigned int)parg->type->size;
	} else {
		code++;
		if (code->op != FETCH_OP_NOP) {
			trace_probe_log_err(offset, TOO_MANY_OPS);
			goto fail;
		}
		code->op = FETCH_OP_ST_RAW;
		code->size = (unsigned int)parg->type->size;
	}
	scode = code;
	/* stage 4: a bitfield */
	if (t && parse_bitfield_probe_arg(t, parg->type, &code)) {
		trace_probe_log_err(offset + (int)(t - arg), BAD_BITFIELD);
		goto fail;
	}
	/* stage 5: an array */
	if (parg->count) {
		if (scode->op != FETCH_OP_ST_MEM && scode->op != FETCH_OP_ST_UMEM &&
		    scode->op != FETCH_OP_ST_STRING && scode->op != FETCH_OP_ST_USTRING) {
			trace_probe_log_err(offset + (t ? (int)(t - arg) : 0), BAD_STRING);
			goto fail;
		}
		code++;
		if (code->op != FETCH_OP_NOP) {
			trace_probe_log_err(offset, TOO_MANY_OPS);
			goto fail;
		}
		code->op = FETCH_OP_LP_ARRAY;
		code->param = parg->count;
	}
	code++;
	code->op = FETCH_OP_END;
	/* keep only what is used */
	ret = -ENOMEM;
	parg->code = kzalloc(sizeof(*code) * (size_t)(code - tmp + 1));
	if (!parg->code)
		goto fail;
	memcpy(parg->code, tmp, sizeof(*code) * (size_t)(code - tmp + 1));
	kfree(tmp);
	tmp = NULL;
	ret = 0;
fail:
	if (tmp)
		free_fetch_code(tmp);
out:
	kfree(arg);
	return ret;
}

/* A name the record's own fields or an earlier argument already has. */
static bool traceprobe_conflict_field_name(const char *name, const struct probe_arg *args, int n)
{
	static const char *const reserved[] = {FIELD_STRING_IP, FIELD_STRING_RETIP,
					       FIELD_STRING_FUNC};

	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(reserved[i], name))
			return true;
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i].name, name))
			return true;
	return false;
}

int traceprobe_parse_probe_arg(struct trace_probe *tp, int i, const char *arg, unsigned int flags)
{
	struct probe_arg *parg = &tp->args[i];
	const char *body;
	char *name;

	tp->nr_args++; /* so that cleanup frees this one too, whatever happens */
	body = strchr(arg, '=');
	if (body) {
		if (body - arg > MAX_ARG_NAME_LEN) {
			trace_probe_log_err(0, ARG_NAME_TOO_LONG);
			return -EINVAL;
		} else if (body == arg) {
			trace_probe_log_err(0, NO_ARG_NAME);
			return -EINVAL;
		}
		name = kzalloc((size_t)(body - arg) + 1);
		if (name)
			memcpy(name, arg, (size_t)(body - arg));
		body++;
	} else {
		name = kmalloc(MAX_ARG_NAME_LEN); /* "argN" when none is given */
		if (name)
			snprintf(name, MAX_ARG_NAME_LEN, "arg%d", i + 1);
		body = arg;
	}
	if (!name)
		return -ENOMEM;
	parg->name = name;
	if (!is_good_name(parg->name)) {
		trace_probe_log_err(0, BAD_ARG_NAME);
		return -EINVAL;
	}
	if (traceprobe_conflict_field_name(parg->name, tp->args, i)) {
		trace_probe_log_err(0, USED_ARG_NAME);
		return -EINVAL;
	}
	return parse_probe_arg_body(body, tp, parg, flags, (int)(body - arg));
}

int traceprobe_update_arg(struct probe_arg *arg)
{
	for (struct fetch_insn *code = arg->code; code->op != FETCH_OP_END; code++) {
		long offset;
		char *tmp, c = 0;
		unsigned long addr;

		if (code->op != FETCH_NOP_SYMBOL)
			continue;
		if (code[1].op != FETCH_OP_IMM)
			return -EINVAL;
		tmp = strchr(code->data, '+');
		if (!tmp)
			tmp = strchr(code->data, '-');
		if (tmp)
			c = *tmp;
		if (traceprobe_split_symbol_offset(code->data, &offset))
			return -EINVAL;
		addr = kallsyms_lookup_name(code->data);
		if (tmp)
			*tmp = c;
		if (!addr)
			return -ENOENT;
		code[1].immediate = addr + (unsigned long)offset;
	}
	return 0;
}

/* --- the probe -------------------------------------------------------------------------------- */

struct trace_probe *trace_probe_alloc(const char *event, const char *group, int nargs)
{
	struct trace_probe *tp = kzalloc(sizeof(*tp) + sizeof(struct probe_arg) * (size_t)nargs);

	if (!tp)
		return NULL;
	tp->event = tp;
	INIT_LIST_HEAD(&tp->probes);
	tp->call.name = kstrdup(event);
	tp->call.system = kstrdup(group);
	if (!tp->call.name || !tp->call.system) {
		trace_probe_cleanup(tp);
		return NULL;
	}
	return tp;
}

void trace_probe_cleanup(struct trace_probe *tp)
{
	if (!tp)
		return;
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		struct probe_arg *a = &tp->args[i];

		kfree((void *)a->name);
		kfree((void *)a->comm);
		kfree(a->fmt);
		free_fetch_code(a->code);
	}
	kfree(tp->fields);
	kfree(tp->print_fmt);
	kfree((void *)tp->call.name);
	kfree((void *)tp->call.system);
	kfree(tp);
}

/* --- multi-probe events ----------------------------------------------------------------------- */

int trace_probe_compare_arg_type(const struct trace_probe *a, const struct trace_probe *b)
{
	if (a->nr_args < b->nr_args)
		return (int)a->nr_args + 1;
	if (a->nr_args > b->nr_args)
		return (int)b->nr_args + 1;
	for (unsigned int i = 0; i < a->nr_args; i++)
		if (a->args[i].type != b->args[i].type || a->args[i].count != b->args[i].count ||
		    strcmp(a->args[i].name, b->args[i].name))
			return (int)i + 1;
	return 0;
}

bool trace_probe_same_fetchargs(const struct trace_probe *a, const struct trace_probe *b)
{
	if (a->nr_args != b->nr_args)
		return false;
	for (unsigned int i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].comm, b->args[i].comm))
			return false;
	return true;
}

void trace_probe_link(struct trace_probe *tp, struct list_head *node)
{
	BUG_ON(tp->event != tp);
	list_add_tail(node, &tp->probes);
}

void trace_probe_append(struct trace_probe *tp, struct trace_probe *to, struct list_head *node)
{
	/* same arguments, so the same record layout: the event's fields describe tp's records */
	BUG_ON(trace_probe_compare_arg_type(tp, to->event) || tp->size != to->event->size);
	tp->event = to->event;
	list_add_tail(node, &tp->event->probes);
}

bool trace_probe_has_sibling(const struct trace_probe *tp)
{
	const struct list_head *probes = &tp->event->probes;

	return !list_empty(probes) && probes->next != probes->prev;
}

void trace_probe_unlink(struct trace_probe *tp, struct list_head *node)
{
	struct trace_probe *event;

	if (!tp)
		return;
	event = tp->event;
	if (node->next) /* NULL: never linked (a kzalloc'ed probe that failed before) */
		list_del_init(node);
	if (tp != event)
		trace_probe_cleanup(tp);
	if (list_empty(&event->probes))
		trace_probe_cleanup(event);
}

/* probe_arg.regs_offset: where in pt_regs a register, $retval or $argN program reads, or -1. */
static int arg_regs_offset(const struct fetch_insn *code)
{
	static const int argument_offs[] = {
		offsetof(struct pt_regs, rdi), offsetof(struct pt_regs, rsi),
		offsetof(struct pt_regs, rdx), offsetof(struct pt_regs, rcx),
		offsetof(struct pt_regs, r8),  offsetof(struct pt_regs, r9),
	};

	switch (code[0].op) {
	case FETCH_OP_REG:
		return (int)code[0].param;
	case FETCH_OP_RETVAL:
		return offsetof(struct pt_regs, rax);
	case FETCH_OP_ARG:
		return code[0].param < ARRAY_SIZE(argument_offs) ? argument_offs[code[0].param]
								 : -1;
	default:
		return -1;
	}
}

/* --- the format file -------------------------------------------------------------------------- */

int traceprobe_define_arg_fields(struct trace_probe *tp, const struct trace_event_field *own,
				 unsigned int own_size)
{
	int nr_own = 0;
	struct trace_event_field *f;

	while (own && own[nr_own].name)
		nr_own++;
	f = kzalloc(sizeof(*f) * (size_t)(nr_own + (int)tp->nr_args + 1));
	if (!f)
		return -ENOMEM;
	for (int i = 0; i < nr_own; i++)
		f[i] = own[i];
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *a = &tp->args[i];
		struct trace_event_field *af = &f[nr_own + (int)i];

		/* the type as the format file shows it: "u64", "u8[4]", "__data_loc char[]" */
		af->type = a->fmt ? a->fmt : a->type->fmttype;
		af->name = a->name;
		af->offset = (unsigned int)sizeof(struct trace_entry) + own_size + a->offset;
		af->size = (unsigned int)a->type->size * (a->count ? a->count : 1);
		af->is_signed = a->type->is_signed;
	}
	tp->fixed_size = true;
	tp->cannot_fault = true;
	tp->from_regs = true;
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct fetch_insn *code = tp->args[i].code;

		tp->fixed_size &= !tp->args[i].dynamic;
		/* store_reg_fast's programs: [REG|RETVAL|ARG, ST_RAW, END] */
		tp->cannot_fault &= (code[0].op == FETCH_OP_REG || code[0].op == FETCH_OP_RETVAL ||
				     code[0].op == FETCH_OP_ARG) &&
				    code[1].op == FETCH_OP_ST_RAW && code[2].op == FETCH_OP_END;
		tp->args[i].regs_offset = arg_regs_offset(code);
		tp->from_regs &= tp->args[i].regs_offset >= 0;
	}
	tp->from_regs &= tp->cannot_fault;
	kfree(tp->fields);
	tp->fields = f;
	tp->call.fields = f;
	tp->call.size = (unsigned int)sizeof(struct trace_entry) + own_size + tp->size;
	return 0;
}

/* Linux's __set_print_fmt(): with buf NULL, only the length. */
static int set_print_fmt(const struct trace_probe *tp, char *buf, int len,
			 enum probe_print_type ptype)
{
	const char *fmt = "", *arg = "";
	int pos = 0;

#define LEN_OR_ZERO (len ? len - pos : 0)
#define BUF_POS (buf ? buf + pos : NULL)
	if (ptype == PROBE_PRINT_NORMAL) {
		fmt = "(%lx)";
		arg = ", REC->" FIELD_STRING_IP;
	} else if (ptype == PROBE_PRINT_RETURN) {
		fmt = "(%lx <- %lx)";
		arg = ", REC->" FIELD_STRING_FUNC ", REC->" FIELD_STRING_RETIP;
	}
	pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, "\"%s", fmt);
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *parg = &tp->args[i];

		pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, " %s=", parg->name);
		if (parg->count) {
			pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, "{%s", parg->type->fmt);
			for (unsigned int j = 1; j < parg->count; j++)
				pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, ",%s",
						parg->type->fmt);
			pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, "}");
		} else {
			pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, "%s", parg->type->fmt);
		}
	}
	pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, "\"%s", arg);
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *parg = &tp->args[i];
		const char *afmt = parg->type->is_string ? ", __get_str(%s)" : ", REC->%s";

		if (parg->count) {
			afmt = parg->type->is_string ? ", __get_str(%s[%u])" : ", REC->%s[%u]";
			for (unsigned int j = 0; j < parg->count; j++)
				pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, afmt, parg->name, j);
		} else {
			pos += snprintf(BUF_POS, (size_t)LEN_OR_ZERO, afmt, parg->name);
		}
	}
#undef LEN_OR_ZERO
#undef BUF_POS
	return pos; /* the length, without the NUL */
}

int traceprobe_set_print_fmt(struct trace_probe *tp, enum probe_print_type ptype)
{
	int len = set_print_fmt(tp, NULL, 0, ptype);
	char *buf = kmalloc((size_t)len + 1);

	if (!buf)
		return -ENOMEM;
	set_print_fmt(tp, buf, len + 1, ptype);
	kfree(tp->print_fmt);
	tp->print_fmt = buf;
	tp->call.print_fmt = buf;
	return 0;
}

/* --- the text --------------------------------------------------------------------------------- */

int trace_probe_print_args(struct trace_seq *s, const struct probe_arg *args, int nr_args,
			   uint8_t *data, void *ent)
{
	for (int i = 0; i < nr_args; i++) {
		const struct probe_arg *a = &args[i];
		uint8_t *p = data + a->offset;

		trace_seq_printf(s, " %s=", a->name);
		if (!a->count) {
			if (!a->type->print(s, p, ent))
				return -ENOMEM;
			continue;
		}
		trace_seq_putc(s, '{');
		for (unsigned int j = 0; j < a->count; j++) {
			if (!a->type->print(s, p, ent))
				return -ENOMEM;
			trace_seq_putc(s, j + 1 < a->count ? ',' : '}');
			p += a->type->size;
		}
	}
	return 0;
}

void trace_probe_show_args(struct seq_file *m, const struct trace_probe *tp)
{
	for (unsigned int i = 0; i < tp->nr_args; i++)
		seq_printf(m, " %s=%s", tp->args[i].name, tp->args[i].comm);
}

/* --- the event ------------------------------------------------------------------------------- */

/* Linux's trace_probe_match_command_args(): each word is the head of an argument, in order. */
bool trace_probe_match_command_args(const struct trace_probe *tp, int argc, const char **argv)
{
	char buf[MAX_ARGSTR_LEN + MAX_ARG_NAME_LEN + 2];

	if ((unsigned int)argc > tp->nr_args)
		return false;
	for (int i = 0; i < argc; i++) {
		snprintf(buf, sizeof(buf), "%s=%s", tp->args[i].name, tp->args[i].comm);
		if (strcmp(buf, argv[i]))
			return false;
	}
	return true;
}

#ifndef LUCID_HOST
int trace_probe_register_event_call(struct trace_probe *tp, trace_print_func trace,
				    int (*reg)(struct trace_event_call *call, bool on))
{
	tp->call.event.trace = trace;
	tp->call.reg = reg;
	return trace_add_event_call(&tp->call);
}

int trace_probe_unregister_event_call(struct trace_probe *tp)
{
	return trace_remove_event_call(&tp->call);
}
#endif

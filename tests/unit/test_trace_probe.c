/*
 * Tests for trace/trace_probe.c and trace/trace_probe_fetch.c: every malformed argument of
 * Linux 6.1's kprobe_syntax_errors.tc fails with Linux's error and its caret where Linux puts
 * it (the '^' in each case below, as the selftest writes them); good arguments compile to the
 * programs, format fields and print fmt of Linux's captures (kprobes_gp3_format.txt,
 * kprobes_gpr_format.txt); and the programs fetch, store and print values from registers and
 * memory, with "(fault)" for a string that cannot be read.
 */
#include "lib/compiler.h" /* first: glibc's cdefs.h accepts its __always_inline, not the reverse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <cmocka.h>
#include "trace/trace_probe.h"
#include "arch/x86_64/ptrace.h"
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "tests/unit/host_probe_fetch.h"
#include "tests/unit/host_kmalloc.h"
#include "lib/errno.h"

/* --- stand-ins -------------------------------------------------------------------------------- */

static struct {
	int type;
	unsigned int pos;
	char loc[64], cmd[512];
} last_err;

void tracing_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		     const char *const *errs, unsigned int type, unsigned int pos)
{
	(void)tr, (void)errs;
	last_err.type = (int)type;
	last_err.pos = pos;
	snprintf(last_err.loc, sizeof(last_err.loc), "%s", loc);
	snprintf(last_err.cmd, sizeof(last_err.cmd), "%s", cmd);
}

#define FAULT_BELOW 4096 /* a host address below this "faults" */

int probe_kernel_read(void *dst, unsigned long src, unsigned long n)
{
	if (src < FAULT_BELOW)
		return -EFAULT;
	memcpy(dst, (const void *)src, n);
	return 0;
}

int probe_user_read(void *dst, unsigned long src, unsigned long n)
{
	return probe_kernel_read(dst, src, n);
}

long probe_kernel_strncpy(char *dst, unsigned long src, long max)
{
	long len;

	if (src < FAULT_BELOW)
		return -EFAULT;
	len = (long)strnlen((const char *)src, (size_t)max - 1) + 1;
	if (dst) {
		memcpy(dst, (const char *)src, (size_t)len - 1);
		dst[len - 1] = '\0';
	}
	return len;
}

long probe_user_strncpy(char *dst, unsigned long src, long max)
{
	return probe_kernel_strncpy(dst, src, max);
}

const char *probe_current_comm(void)
{
	return "lbench";
}

static const char sym_data[4] = {1, 2, 3, 4}; /* "sym_data", for @SYM */

void probe_sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	sprint_symbol(buf, size, addr, true);
}

size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	(void)with_offset;
	if (addr >= (unsigned long)sym_data && addr < (unsigned long)sym_data + sizeof(sym_data))
		return (size_t)snprintf(buf, size, "sym_data+0x%lx/0x4",
					addr - (unsigned long)sym_data);
	return 0;
}

unsigned long kallsyms_lookup_name(const char *name)
{
	return strcmp(name, "sym_data") ? 0 : (unsigned long)sym_data;
}

int regs_query_register_offset(const char *name)
{
	static const struct {
		const char *name;
		unsigned int offset;
	} regs[] = {{"di", offsetof(struct pt_regs, rdi)},
		    {"si", offsetof(struct pt_regs, rsi)},
		    {"ax", offsetof(struct pt_regs, rax)},
		    {"sp", offsetof(struct pt_regs, rsp)}};

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (!strcmp(regs[i].name, name))
			return (int)regs[i].offset;
	return -EINVAL;
}

bool regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	(void)regs, (void)addr;
	return true;
}

/* An invariant the code checks (BUG_ON) broke: the test fails. */
void panic(const char *fmt, ...)
{
	fail_msg("panic: %s", fmt);
	abort();
}

static char seq_text[1024];
void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	size_t len = strlen(seq_text);
	va_list ap;

	(void)m;
	va_start(ap, fmt);
	vsnprintf(seq_text + len, sizeof(seq_text) - len, fmt, ap);
	va_end(ap);
}

/* --- parsing a definition as trace_kprobe does ------------------------------------------------ */

#define MAX_WORDS 16
#define KPROBE_FLAGS (TPARG_FL_KERNEL | TPARG_FL_FENTRY)

/* The words of text, and the caret's column (where '^' was, now cut out), or -1. */
static int split(const char *text, char *buf, size_t size, const char **argv, int *caret)
{
	int argc = 0;
	char *p;

	*caret = -1;
	snprintf(buf, size, "%s", text);
	p = strchr(buf, '^');
	if (p) {
		*caret = (int)(p - buf);
		memmove(p, p + 1, strlen(p));
	}
	for (p = strtok(buf, " "); p && argc < MAX_WORDS; p = strtok(NULL, " "))
		argv[argc++] = p;
	return argc;
}

/* Parses the definition's event name and arguments; 0 or the first error. */
static int parse_def(const char *text, unsigned int flags, struct trace_probe **out)
{
	char buf[512], gbuf[MAX_EVENT_NAME_LEN];
	const char *argv[MAX_WORDS], *event, *group = "kprobes";
	struct trace_probe *tp;
	int argc, caret, ret = 0;

	argc = split(text, buf, sizeof(buf), argv, &caret);
	memset(&last_err, 0, sizeof(last_err));
	last_err.type = -1;
	trace_probe_log_init("trace_kprobe", argc, argv);
	event = strchr(argv[0], ':');
	if (event) {
		event++;
		ret = traceprobe_parse_event_name(&event, &group, gbuf, (int)(event - argv[0]));
		if (ret)
			goto out;
	}
	tp = trace_probe_alloc(event ? event : "p_vfs_read_0", group, argc - 2);
	assert_non_null(tp);
	for (int i = 2; i < argc && !ret; i++) {
		trace_probe_log_set_index(i);
		ret = traceprobe_parse_probe_arg(tp, i - 2, argv[i], flags);
	}
	if (!ret && out)
		*out = tp;
	else
		trace_probe_cleanup(tp);
out:
	trace_probe_log_clear();
	return ret;
}

/* The case fails with err, its caret at the '^', the command logged without it. */
static void check_error(const char *text, int err)
{
	char buf[512];
	const char *argv[MAX_WORDS];
	int caret;
	int ret = parse_def(text, KPROBE_FLAGS, NULL);

	split(text, buf, sizeof(buf), argv, &caret);
	if (ret != -EINVAL || last_err.type != err || (int)last_err.pos != caret)
		fail_msg("%s: ret %d, error %d at %u; want -EINVAL, %d at %d", text, ret,
			 last_err.type, last_err.pos, err, caret);
	assert_string_equal(last_err.loc, "trace_kprobe");
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "%s", text);
		char *p = strchr(cmd, '^');
		memmove(p, p + 1, strlen(p));
		assert_string_equal(last_err.cmd, cmd);
	}
}

/* Linux 6.1's kprobe_syntax_errors.tc, the cases the argument and name parsers decide. */
static void test_syntax_errors(void **state)
{
	(void)state;
	check_error("p:^/bar vfs_read", TP_ERR_NO_GROUP_NAME);
	check_error("p:^12345678901234567890123456789012345678901234567890123456789012345/bar "
		    "vfs_read",
		    TP_ERR_GROUP_TOO_LONG);
	check_error("p:^foo.1/bar vfs_read", TP_ERR_BAD_GROUP_NAME);
	check_error("p:foo/^12345678901234567890123456789012345678901234567890123456789012345 "
		    "vfs_read",
		    TP_ERR_EVENT_TOO_LONG);
	check_error("p:foo/^bar.1 vfs_read", TP_ERR_BAD_EVENT_NAME);
	check_error("p vfs_read ^$retval", TP_ERR_RETVAL_ON_PROBE);
	check_error("p vfs_read ^$stack10000", TP_ERR_BAD_STACK_NUM);
	check_error("p vfs_read ^$arg10000", TP_ERR_BAD_ARG_NUM);
	check_error("p vfs_read ^$none_var", TP_ERR_BAD_VAR);
	check_error("p vfs_read ^%none_reg", TP_ERR_BAD_REG_NAME);
	check_error("p vfs_read ^@12345678abcde", TP_ERR_BAD_MEM_ADDR);
	check_error("p vfs_read ^@+10", TP_ERR_FILE_ON_KPROBE);
	check_error("p vfs_read arg1=\\^x", TP_ERR_BAD_IMM);
	check_error("p vfs_read arg1=\\\"abcd^", TP_ERR_IMMSTR_NO_CLOSE);
	check_error("p vfs_read ^+0@0)", TP_ERR_DEREF_NEED_BRACE);
	check_error("p vfs_read ^+0ab1(@0)", TP_ERR_BAD_DEREF_OFFS);
	check_error("p vfs_read +0(+0(@0^)", TP_ERR_DEREF_OPEN_BRACE);
	check_error("p vfs_read +0(^$comm)", TP_ERR_COMM_CANT_DEREF);
	check_error("p vfs_read ^&1", TP_ERR_BAD_FETCH_ARG);
	check_error("p vfs_read +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))",
		    TP_ERR_TOO_MANY_OPS);
	check_error("p vfs_read +0(@11):u8[10^", TP_ERR_ARRAY_NO_CLOSE);
	check_error("p vfs_read +0(@11):u8[10]^a", TP_ERR_BAD_ARRAY_SUFFIX);
	check_error("p vfs_read +0(@11):u8[^10a]", TP_ERR_BAD_ARRAY_NUM);
	check_error("p vfs_read +0(@11):u8[^256]", TP_ERR_ARRAY_TOO_BIG);
	check_error("p vfs_read @11:^unknown_type", TP_ERR_BAD_TYPE);
	check_error("p vfs_read $stack0:^string", TP_ERR_BAD_STRING);
	check_error("p vfs_read @11:^b10@a/16", TP_ERR_BAD_BITFIELD);
	check_error("p vfs_read ^arg123456789012345678901234567890=@11", TP_ERR_ARG_NAME_TOO_LONG);
	check_error("p vfs_read ^=@11", TP_ERR_NO_ARG_NAME);
	check_error("p vfs_read ^var.1=@11", TP_ERR_BAD_ARG_NAME);
	check_error("p vfs_read var1=@11 ^var1=@12", TP_ERR_USED_ARG_NAME);
	check_error("p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))",
		    TP_ERR_ARG_TOO_LONG);
	check_error("p vfs_read arg1=^", TP_ERR_NO_ARG_BODY);
	/* reserved names, $argN where the arguments are not known, symbols on a uprobe */
	check_error("p vfs_read ^__probe_ip=%di", TP_ERR_USED_ARG_NAME);
	{
		int ret = parse_def("p vfs_read+4 ^$arg1", TPARG_FL_KERNEL, NULL);

		assert_int_equal(ret, -EINVAL);
		assert_int_equal(last_err.type, TP_ERR_BAD_VAR);
	}
	assert_int_equal(parse_def("p /bin/sh:0x10 @sym", 0, NULL), -EINVAL);
	assert_int_equal(last_err.type, TP_ERR_SYM_ON_UPROBE);
}

/* --- the format file and the print fmt -------------------------------------------------------- */

static const struct trace_event_field own_ip[] = {
	{.type = "unsigned long", .name = FIELD_STRING_IP, .offset = 8, .size = 8},
	{.name = NULL},
};

/* kprobes_gp3_format.txt: "p:kprobes/gp3 __x64_sys_getpid regs=%di comm=$comm". */
static void test_gp3_format(void **state)
{
	struct trace_probe *tp = NULL;
	const struct trace_event_field *f;

	(void)state;
	assert_int_equal(parse_def("p:gp3 __x64_sys_getpid regs=%di comm=$comm", KPROBE_FLAGS, &tp),
			 0);
	assert_int_equal(traceprobe_set_print_fmt(tp, PROBE_PRINT_NORMAL), 0);
	assert_int_equal(traceprobe_define_arg_fields(tp, own_ip, sizeof(unsigned long)), 0);
	assert_string_equal(tp->print_fmt, "\"(%lx) regs=0x%Lx comm=\\\"%s\\\"\", "
					   "REC->__probe_ip, REC->regs, __get_str(comm)");
	f = tp->call.fields;
	assert_string_equal(f[0].name, "__probe_ip");
	assert_string_equal(f[1].type, "u64");
	assert_string_equal(f[1].name, "regs");
	assert_int_equal(f[1].offset, 16);
	assert_int_equal(f[1].size, 8);
	assert_false(f[1].is_signed);
	assert_string_equal(f[2].type, "__data_loc char[]");
	assert_string_equal(f[2].name, "comm");
	assert_int_equal(f[2].offset, 24);
	assert_int_equal(f[2].size, 4);
	assert_true(f[2].is_signed);
	assert_null(f[3].name);
	seq_text[0] = '\0';
	trace_probe_show_args(NULL, tp);
	assert_string_equal(seq_text, " regs=%di comm=$comm");
	trace_probe_cleanup(tp);
}

/* kprobes_gpr_format.txt: "r10:kprobes/gpr __x64_sys_getpid ret=$retval". */
static void test_gpr_format(void **state)
{
	struct trace_probe *tp = NULL;

	(void)state;
	assert_int_equal(parse_def("r10:gpr __x64_sys_getpid ret=$retval",
				   TPARG_FL_KERNEL | TPARG_FL_RETURN, &tp),
			 0);
	assert_int_equal(traceprobe_set_print_fmt(tp, PROBE_PRINT_RETURN), 0);
	assert_string_equal(tp->print_fmt, "\"(%lx <- %lx) ret=0x%Lx\", REC->__probe_func, "
					   "REC->__probe_ret_ip, REC->ret");
	trace_probe_cleanup(tp);
}

/* Arrays and the other types, in the print fmt and the fields. */
static void test_types_format(void **state)
{
	struct trace_probe *tp = NULL;

	(void)state;
	assert_int_equal(parse_def("p f a=+0(%di):u8[3] b=%si:s32 c=%ax:symbol d=\\\"hi\" %di",
				   KPROBE_FLAGS, &tp),
			 0);
	assert_int_equal(traceprobe_set_print_fmt(tp, PROBE_PRINT_EVENT), 0);
	assert_string_equal(tp->print_fmt,
			    "\" a={%u,%u,%u} b=%d c=%pS d=\\\"%s\\\" arg5=0x%Lx\", REC->a[0], "
			    "REC->a[1], REC->a[2], REC->b, REC->c, __get_str(d), REC->arg5");
	assert_int_equal(traceprobe_define_arg_fields(tp, NULL, 0), 0);
	assert_string_equal(tp->call.fields[0].type, "u8[3]");
	assert_int_equal(tp->call.fields[0].size, 3);
	assert_string_equal(tp->call.fields[1].type, "s32");
	assert_true(tp->call.fields[1].is_signed);
	assert_int_equal(tp->call.fields[1].offset, 8 + 3);
	assert_string_equal(tp->call.fields[2].type, "u64");
	trace_probe_cleanup(tp);
}

/* --- fetching, storing, printing -------------------------------------------------------------- */

/* Parses text's arguments, runs them on regs as a hit would, returns the printed arguments. */
static const char *hit(const char *text, unsigned int flags, struct pt_regs *regs)
{
	static char out[1024];
	static uint8_t rec[4096] __aligned(8);
	struct trace_probe *tp = NULL;
	struct fetch_context fc = {.regs = regs};
	struct trace_seq *s = malloc(sizeof(*s));
	int dsize;

	assert_non_null(s);
	assert_int_equal(parse_def(text, flags, &tp), 0);
	for (unsigned int i = 0; i < tp->nr_args; i++)
		assert_int_equal(traceprobe_update_arg(&tp->args[i]), 0);
	dsize = traceprobe_get_data_size(tp, &fc);
	assert_true(8 + tp->size + (unsigned int)dsize <= sizeof(rec));
	memset(rec, 0xaa, sizeof(rec));
	store_trace_args(rec + 8, tp, &fc, 8, dsize);
	trace_seq_init(s);
	assert_int_equal(trace_probe_print_args(s, tp->args, (int)tp->nr_args, rec + 8, rec), 0);
	snprintf(out, sizeof(out), "%.*s", (int)s->len, s->buffer);
	free(s);
	trace_probe_cleanup(tp);
	return out;
}

struct thing {
	uint32_t flags;
	int32_t neg;
	const char *name;
	struct thing *next;
};

static void test_fetch(void **state)
{
	static const char *names[] = {"one", "two", NULL};
	struct thing inner = {.flags = 0xf0, .neg = -5, .name = "inner", .next = NULL};
	struct thing outer = {.flags = 0x1234, .neg = -1, .name = "outer", .next = &inner};
	uint8_t bytes[4] = {1, 2, 3, 250};
	struct pt_regs regs = {0};

	(void)state;
	regs.rdi = (unsigned long)&outer;
	regs.rsi = (unsigned long)bytes;
	regs.rax = 42;
	assert_string_equal(hit("p f x=%ax r=%ax:s8 u=%ax:u16", KPROBE_FLAGS, &regs),
			    " x=0x2a r=42 u=42");
	/* a member, nested pointers, a string behind a pointer */
	assert_string_equal(hit("p f fl=+0(%di):x32 n=+4(%di):s32 nm=+0(+8(+16(%di))):string",
				KPROBE_FLAGS, &regs),
			    " fl=0x1234 n=-1 nm=\"inner\"");
	assert_string_equal(hit("p f a=+0(%si):u8[4] b=+0(%si):x8[2]", KPROBE_FLAGS, &regs),
			    " a={1,2,3,250} b={0x1,0x2}");
	/* 0x1234: bits 4..11 are 0x23 */
	assert_string_equal(hit("p f bf=+0(%di):b8@4/32", KPROBE_FLAGS, &regs), " bf=35");
	/* $argN: the calling convention's registers */
	{
		/* the return address at RSP, then the seventh argument */
		unsigned long stack[2] = {0xdead, 0x77};
		char want[64];

		snprintf(want, sizeof(want), " a1=0x%lx a7=0x77", (unsigned long)bytes);
		regs.rsp = (unsigned long)stack;
		assert_string_equal(hit("p f a1=$arg2:x64 a7=$arg7", KPROBE_FLAGS, &regs), want);
	}
	assert_string_equal(hit("p f c=$comm s=\\\"imm\" i=\\-7:s32", KPROBE_FLAGS, &regs),
			    " c=\"lbench\" s=\"imm\" i=-7");
	/* a fault: the string reads "(fault)", a number 0 */
	regs.rdi = 16;
	assert_string_equal(
		hit("p f s=+0(%di):string n=+0(%di):u32 ok=%ax:u8", KPROBE_FLAGS, &regs),
		" s=(fault) n=0 ok=42");
	/* an array of strings */
	regs.rdi = (unsigned long)names;
	assert_string_equal(hit("p f s=+0(%di):string[2]", KPROBE_FLAGS, &regs),
			    " s={\"one\",\"two\"}");
	/* @SYM+OFFS, and symbol / symstr */
	regs.rax = (unsigned long)sym_data + 2;
	assert_string_equal(
		hit("p f v=@sym_data+1:u8 s=%ax:symbol t=%ax:symstr", KPROBE_FLAGS, &regs),
		" v=2 s=sym_data+0x2/0x4 t=\"sym_data+0x2/0x4\"");
	/* $retval on a return probe */
	regs.rax = (unsigned long)-2;
	assert_string_equal(hit("r f r=$retval:s64", TPARG_FL_KERNEL | TPARG_FL_RETURN, &regs),
			    " r=-2");
}

/* An eprobe's $FIELD: a number and a string field of the attached event's record. */
struct src_rec {
	struct trace_entry ent;
	int32_t nr;
	uint32_t __data_loc_name;
	char text[8];
};

static void test_eprobe_fields(void **state)
{
	static const struct trace_event_field fields[] = {
		{.type = "int",
		 .name = "nr",
		 .offset = offsetof(struct src_rec, nr),
		 .size = 4,
		 .is_signed = true},
		{.type = "__data_loc char[]",
		 .name = "name",
		 .offset = offsetof(struct src_rec, __data_loc_name),
		 .size = 4},
		{.name = NULL},
	};
	struct trace_event_call src = {.system = "sys", .name = "ev", .fields = fields};
	struct src_rec rec = {.nr = -3, .text = "abc"};
	static uint8_t out[256] __aligned(8);
	struct trace_probe *tp = trace_probe_alloc("e", "eprobes", 3);
	struct fetch_context fc = {.rec = &rec};
	struct trace_seq *s = malloc(sizeof(*s));
	int dsize;

	(void)state;
	rec.__data_loc_name = make_data_loc(4, offsetof(struct src_rec, text));
	tp->attached = &src;
	trace_probe_log_init("event_probe", 0, NULL);
	assert_int_equal(
		traceprobe_parse_probe_arg(tp, 0, "n=$nr:s32", TPARG_FL_KERNEL | TPARG_FL_TPOINT),
		0);
	assert_int_equal(traceprobe_parse_probe_arg(tp, 1, "s=$name:string",
						    TPARG_FL_KERNEL | TPARG_FL_TPOINT),
			 0);
	assert_int_equal(
		traceprobe_parse_probe_arg(tp, 2, "x=$nosuch", TPARG_FL_KERNEL | TPARG_FL_TPOINT),
		-ENOENT);
	tp->nr_args = 2; /* the third was refused */
	dsize = traceprobe_get_data_size(tp, &fc);
	assert_int_equal(dsize, 4);
	store_trace_args(out + 8, tp, &fc, 8, dsize);
	trace_seq_init(s);
	trace_probe_print_args(s, tp->args, 2, out + 8, out);
	assert_string_equal(s->buffer, " n=-3 s=\"abc\"");
	free(s);
	tp->nr_args = 3;
	trace_probe_cleanup(tp);
	trace_probe_log_clear();
}

/*
 * Multi-probe events: a second probe with the same arguments is appended to the first's
 * event, other arguments are told apart, and the event outlives its first probe until the
 * last leaves (host_kmalloc_live back where it was: nothing leaked, nothing freed twice).
 */
struct kind_probe {
	struct trace_probe *tp;
	struct list_head sibling;
};

static void test_multi_probe(void **state)
{
	struct kind_probe a = {0}, b = {0};
	struct trace_probe *other;
	long live = host_kmalloc_live;

	(void)state;
	assert_int_equal(parse_def("p:ev vfs_read x=%di:u32 s=+0(%si):string", KPROBE_FLAGS, &a.tp),
			 0);
	assert_int_equal(
		parse_def("p:ev vfs_write x=%ax:u32 s=+8(%si):string", KPROBE_FLAGS, &b.tp), 0);
	assert_int_equal(trace_probe_compare_arg_type(a.tp, b.tp), 0);
	assert_int_equal(
		parse_def("p:ev vfs_write x=%ax:u32 t=+8(%si):string", KPROBE_FLAGS, &other), 0);
	assert_int_equal(trace_probe_compare_arg_type(a.tp, other), 2); /* the name of the 2nd */
	trace_probe_cleanup(other);
	assert_int_equal(
		parse_def("p:ev vfs_write x=%ax:u64 s=+8(%si):string", KPROBE_FLAGS, &other), 0);
	assert_int_equal(trace_probe_compare_arg_type(a.tp, other), 1); /* the type of the 1st */
	trace_probe_cleanup(other);
	assert_int_equal(parse_def("p:ev vfs_write x=%ax:u32", KPROBE_FLAGS, &other), 0);
	assert_int_equal(trace_probe_compare_arg_type(a.tp, other), 2); /* the 2nd is missing */
	trace_probe_cleanup(other);

	trace_probe_link(a.tp, &a.sibling);
	assert_false(trace_probe_has_sibling(a.tp));
	trace_probe_append(b.tp, a.tp, &b.sibling);
	assert_ptr_equal(b.tp->event, a.tp);
	assert_true(trace_probe_has_sibling(a.tp));
	assert_true(trace_probe_has_sibling(b.tp));
	/* the first probe leaves: its trace_probe stays, as the event b records into */
	trace_probe_unlink(a.tp, &a.sibling);
	assert_false(trace_probe_has_sibling(b.tp));
	assert_ptr_equal(list_first_entry(&b.tp->event->probes, struct kind_probe, sibling), &b);
	/* the last: the event goes too */
	trace_probe_unlink(b.tp, &b.sibling);
	assert_int_equal(host_kmalloc_live, live);
	/* never linked (a definition that failed): freed alone */
	assert_int_equal(parse_def("p:ev vfs_read", KPROBE_FLAGS, &a.tp), 0);
	memset(&a.sibling, 0, sizeof(a.sibling));
	trace_probe_unlink(a.tp, &a.sibling);
	assert_int_equal(host_kmalloc_live, live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors), cmocka_unit_test(test_gp3_format),
		cmocka_unit_test(test_gpr_format),    cmocka_unit_test(test_types_format),
		cmocka_unit_test(test_fetch),	      cmocka_unit_test(test_eprobe_fields),
		cmocka_unit_test(test_multi_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Fuzzing the probe events' arguments (trace/trace_probe.c, trace/trace_probe_fetch.c): any
 * words, parsed as a kprobe's, a kretprobe's, a uprobe's or an eprobe's arguments, are refused
 * only with Linux's errnos and an error_log caret inside the command (or one past it); what is
 * accepted gets a format and a print fmt, and its programs, run on registers and memory that
 * point anywhere, store no byte outside the record reserved at the size they asked for, and
 * print.
 *
 * Input: the first byte picks the probe kind, the rest is the words, up to a NUL.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/trace_probe.h"
#include "arch/x86_64/ptrace.h"
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "tests/unit/host_probe_fetch.h"
#include "tests/fuzz/fuzz_check.h"

#define L_EINVAL 22
#define L_ENOENT 2
#define L_ERANGE 34 /* a number too big for kstrtoul: Linux passes its errno on */
#define MAX_WORDS 24

/* The only memory a fetch may read: an arena, strings and pointers into itself inside. */
static char arena[4096] __attribute__((aligned(8)));
static size_t cmd_len;

static bool in_arena(unsigned long a, unsigned long n)
{
	unsigned long lo = (unsigned long)arena;

	return a >= lo && n <= sizeof(arena) && a - lo <= sizeof(arena) - n;
}

void tracing_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		     const char *const *errs, unsigned int type, unsigned int pos)
{
	(void)tr, (void)loc, (void)errs, (void)type;
	CHECK(strlen(cmd) == cmd_len && pos <= cmd_len + 1);
}

int probe_kernel_read(void *dst, unsigned long src, unsigned long n)
{
	if (!in_arena(src, n))
		return -14;
	memcpy(dst, (const void *)src, n);
	return 0;
}

int probe_user_read(void *dst, unsigned long src, unsigned long n)
{
	return probe_kernel_read(dst, src, n);
}

long probe_kernel_strncpy(char *dst, unsigned long src, long max)
{
	long i;

	for (i = 0; i < max; i++) {
		char c;

		if (probe_kernel_read(&c, src + (unsigned long)i, 1))
			return -14;
		if (dst)
			dst[i] = c;
		if (!c)
			return i + 1;
	}
	if (dst && max > 0)
		dst[max - 1] = '\0';
	return max;
}

long probe_user_strncpy(char *dst, unsigned long src, long max)
{
	return probe_kernel_strncpy(dst, src, max);
}

const char *probe_current_comm(void)
{
	return "fuzz";
}

void probe_sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	snprintf(buf, size, "0x%lx", addr);
}

size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	(void)with_offset;
	return in_arena(addr, 1) ? (size_t)snprintf(buf, size, "arena+0x%lx/0x1000",
						    addr - (unsigned long)arena)
				 : 0;
}

unsigned long kallsyms_lookup_name(const char *name)
{
	return strcmp(name, "arena") ? 0 : (unsigned long)arena;
}

int regs_query_register_offset(const char *name)
{
	if (!strcmp(name, "di"))
		return (int)offsetof(struct pt_regs, rdi);
	if (!strcmp(name, "ax"))
		return (int)offsetof(struct pt_regs, rax);
	if (!strcmp(name, "sp"))
		return (int)offsetof(struct pt_regs, rsp);
	return -L_EINVAL;
}

bool regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	(void)regs;
	return in_arena(addr, sizeof(unsigned long));
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	(void)m, (void)fmt;
}

/* An invariant the code checks (BUG_ON) broke: a crash, which the fuzzer reports. */
void panic(const char *fmt, ...)
{
	fprintf(stderr, "panic: %s\n", fmt);
	abort();
}

static const struct trace_event_field src_fields[] = {
	{.type = "int", .name = "nr", .offset = 8, .size = 4, .is_signed = true},
	{.type = "__data_loc char[]", .name = "name", .offset = 12, .size = 4},
	{.type = "char[8]", .name = "comm", .offset = 16, .size = 8},
	{.name = NULL},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int kinds[] = {
		TPARG_FL_KERNEL | TPARG_FL_FENTRY, TPARG_FL_KERNEL,
		TPARG_FL_KERNEL | TPARG_FL_RETURN, 0,
		TPARG_FL_KERNEL | TPARG_FL_TPOINT,
	};
	static const struct trace_event_call src = {
		.system = "s", .name = "e", .fields = src_fields};
	static char buf[1024];
	const char *argv[MAX_WORDS + 2] = {"p", "f"};
	struct fetch_context fc = {0};
	struct pt_regs regs = {0};
	struct trace_probe *tp;
	unsigned int flags;
	int argc = 2, ret = 0, dsize;
	size_t len;
	char *p;

	if (size < 1)
		return 0;
	flags = kinds[data[0] % (sizeof(kinds) / sizeof(kinds[0]))];
	for (len = 0; len + 1 < size && len < sizeof(buf) - 1 && data[len + 1]; len++)
		buf[len] = (char)data[len + 1];
	buf[len] = '\0';
	for (p = strtok(buf, " \t\n"); p && argc < MAX_WORDS + 2; p = strtok(NULL, " \t\n"))
		argv[argc++] = p;
	cmd_len = 0;
	for (int i = 0; i < argc; i++)
		cmd_len += strlen(argv[i]) + (i ? 1 : 0);

	/* memory that points into itself: strings, pointers, a record of the attached event */
	memset(arena, 'a', sizeof(arena));
	arena[100] = '\0';
	arena[sizeof(arena) - 1] = '\0';
	for (int i = 0; i < 16; i++)
		((unsigned long *)arena)[64 + i] = (unsigned long)arena + (unsigned long)(i * 37);
	*(uint32_t *)(arena + 12) = make_data_loc(8, 40);
	regs.rdi = (unsigned long)arena + 512;
	regs.rsp = (unsigned long)arena + 520;
	regs.rax = (unsigned long)arena + 7;
	fc.regs = &regs;
	fc.rec = arena;
	fc.user = !(flags & TPARG_FL_KERNEL);

	tp = trace_probe_alloc("ev", "grp", argc - 2);
	CHECK(tp);
	tp->attached = &src;
	trace_probe_log_init("trace_kprobe", argc, argv);
	for (int i = 2; i < argc && !ret; i++) {
		trace_probe_log_set_index(i);
		ret = traceprobe_parse_probe_arg(tp, i - 2, argv[i], flags);
		CHECK(ret == 0 || ret == -L_EINVAL || ret == -L_ENOENT || ret == -L_ERANGE);
	}
	for (unsigned int i = 0; !ret && i < tp->nr_args; i++)
		ret = traceprobe_update_arg(&tp->args[i]);
	if (!ret) {
		struct trace_seq *s = malloc(sizeof(*s));
		uint8_t *rec;

		CHECK(s);
		CHECK(traceprobe_set_print_fmt(tp, PROBE_PRINT_NORMAL) == 0);
		CHECK(tp->print_fmt[0] == '"');
		CHECK(traceprobe_define_arg_fields(tp, NULL, 0) == 0);
		dsize = traceprobe_get_data_size(tp, &fc);
		CHECK(dsize >= 0);
		/* exactly what was asked for: ASan catches a byte past it */
		rec = malloc(8 + tp->size + (size_t)dsize);
		CHECK(rec);
		store_trace_args(rec + 8, tp, &fc, 8, dsize);
		trace_seq_init(s);
		trace_probe_print_args(s, tp->args, (int)tp->nr_args, rec + 8, rec);
		free(rec);
		free(s);
	}
	trace_probe_log_clear();
	trace_probe_cleanup(tp);
	return 0;
}

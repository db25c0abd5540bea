/*
 * `callsite FUNC`: look at a function's first five bytes, the call site dynamic ftrace patches.
 * Run it before and after `echo function > current_tracer` to watch a NOP become a call.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/kallsyms.h"
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h"

static int cmd_callsite(int argc, char **argv)
{
	if (argc != 2) {
		dprintf(STDERR_FILENO, "usage: callsite FUNCTION\n");
		return 2;
	}
	unsigned long ip = kallsyms_lookup_name(argv[1]);
	if (!ip) {
		dprintf(STDERR_FILENO, "callsite: %s: no such function\n", argv[1]);
		return 1;
	}
	int rec = ftrace_find_rec(ip);
	if (rec < 0) {
		printf("%s at %016lx: not a call site (notrace, or built without -pg)\n", argv[1], ip);
		return 1;
	}
	const unsigned char *p = (const unsigned char *)ip;
	printf("%s at %016lx: %02x %02x %02x %02x %02x  %s (refcount %d)\n", argv[1], ip, p[0],
	       p[1], p[2], p[3], p[4], ftrace_describe_site(ip),
	       ftrace_rec_refcount(rec));
	return 0;
}
SHELL_CMD("callsite", "callsite FUNC: show FUNC's patchable first 5 bytes and what they are",
	  cmd_callsite);

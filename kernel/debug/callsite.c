/*
 * /sys/kernel/debug/callsite: a function's first five bytes, the call site dynamic ftrace
 * patches. /bin/callsite FUNC writes the name and reads back one line (kernel/debug/debugfs_cmd.c);
 * run it before and after `echo function > current_tracer` to watch a NOP become a call.
 *
 * Errors, as write's: -EINVAL without exactly one name, -ENOENT for a name that is no function,
 * -ENXIO for a function that has no call site (notrace, or built without -pg), which the line
 * read back says too.
 */
#include "kernel/debug/callsite.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/kallsyms.h"
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h"
#include "lib/errno.h"

static int cmd_callsite(int argc, char **argv, struct debugfs_cmd_output *out)
{
	if (argc != 2) {
		cmd_printf(out, "usage: callsite FUNCTION\n");
		return -EINVAL;
	}
	unsigned long ip = kallsyms_lookup_name(argv[1]);
	if (!ip) {
		cmd_printf(out, "callsite: %s: no such function\n", argv[1]);
		return -ENOENT;
	}
	int rec = ftrace_find_rec(ip);
	if (rec < 0) {
		cmd_printf(out, "%s at %016lx: not a call site (notrace, or built without -pg)\n",
			   argv[1], ip);
		return -ENXIO;
	}
	const unsigned char *p = (const unsigned char *)ip;
	cmd_printf(out, "%s at %016lx: %02x %02x %02x %02x %02x  %s (refcount %d)\n", argv[1], ip,
		   p[0], p[1], p[2], p[3], p[4], ftrace_describe_site(ip),
		   ftrace_rec_refcount(rec));
	return 0;
}

static const struct debugfs_cmd callsite_debugfs = {"callsite", cmd_callsite};

void callsite_init(void)
{
	debugfs_create_cmd(&callsite_debugfs);
}

/* traceoff_on_warning: a WARN stops the trace, so that what led to it is not overwritten. */

/*
 * A WARN is the kernel saying "this should not happen" and going on. By the time someone looks,
 * the trace buffer has long wrapped around past the events that explain it. With the boot
 * option traceoff_on_warning (or /proc/sys/kernel/traceoff_on_warning non-zero), __warn()
 * (kernel/panic.c) calls disable_trace_on_warning() before it prints the report, which writes
 * one last line into the trace, as Linux does,
 *
 *     disable_trace_on_warning: Disabling tracing due to warning
 *
 * and turns tracing_on off: the trace ends at the warning. `echo 1 > tracing_on` goes on.
 *
 * Boot option, as Linux's stop_trace_on_warning() takes it: traceoff_on_warning, or with any
 * value but =0 and =off, turns it on; no later word turns it off again.
 *
 * Not traced: part of the tracer (and called from a WARN anywhere).
 */
#include "trace/trace.h"
#include "trace/trace_printk.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/proc/sysctl.h"
#include "lib/compiler.h"

int __disable_trace_on_warning; /* an int, as Linux's: the sysctl is proc_dointvec */

void disable_trace_on_warning(void)
{
	if (!READ_ONCE(__disable_trace_on_warning))
		return;
	trace_puts("Disabling tracing due to warning\n");
	tracing_off();
}

/* Before any WARN could matter: with the other boot options, in tracing_init(). */
void trace_boot_traceoff_on_warning(void)
{
	if (cmdline_flag_on("traceoff_on_warning"))
		__disable_trace_on_warning = 1;
}

void traceoff_on_warning_init_sysctl(void)
{
	if (!proc_create_data("traceoff_on_warning", 0644, proc_sys_kernel, &proc_dointvec_fops,
			      &__disable_trace_on_warning))
		pr_warn("tracing: cannot create /proc/sys/kernel/traceoff_on_warning\n");
}

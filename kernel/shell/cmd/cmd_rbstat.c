/* `rbstat`: the trace buffer's counters per CPU, and whether every event is accounted for. */

/*
 * per_cpu/cpuN/stats shows what Linux shows; it leaves out how many events writers tried to
 * record, which is what makes the counters checkable. The ring buffer counts that too
 * (trace/ring_buffer.h), and each such event must have ended as exactly one of: still in the
 * buffer, read from trace_pipe, overwritten, dropped (buffer full, overwrite off), or lost to a
 * commit overrun. rbstat prints the sum per CPU and fails (status 1) if it does not add up.
 * Run it with tracing_on at 0: while events are being written the counters move between reads.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "trace/trace.h"
#include "trace/ring_buffer.h"

static int cmd_rbstat(int argc, char **argv)
{
	struct ring_buffer *b = global_trace.buffer;
	int status = 0;

	(void)argc;
	(void)argv;
	for (int cpu = 0; b && cpu < global_trace.nr_cpus; cpu++) {
		unsigned long written = ring_buffer_written_cpu(b, cpu);
		unsigned long entries = ring_buffer_entries_cpu(b, cpu);
		unsigned long read = ring_buffer_read_events_cpu(b, cpu);
		unsigned long overrun = ring_buffer_overrun_cpu(b, cpu);
		unsigned long dropped = ring_buffer_dropped_events_cpu(b, cpu);
		unsigned long commit = ring_buffer_commit_overrun_cpu(b, cpu);
		unsigned long sum = entries + read + overrun + dropped + commit;

		printf("cpu%d: written %lu = entries %lu + read %lu + overrun %lu + dropped %lu + "
		       "commit overrun %lu%s\n",
		       cpu, written, entries, read, overrun, dropped, commit,
		       sum == written ? "" : "  MISMATCH");
		if (sum != written)
			status = 1;
	}
	return status;
}
SHELL_CMD("rbstat", "rbstat: each CPU's trace buffer counters, checked to add up", cmd_rbstat);

UNIT_TESTS += trace_events
trace_events_SRCS := tests/unit/test_trace_events.c trace/trace_events.c trace/trace_events_text.c \
	trace/trace_events_filter.c lib/glob.c lib/kstrtox.c \
	trace/trace_events_trigger.c trace/trace_events_trigger_parse.c \
	trace/trace_events_sched.c trace/trace_events_irq.c trace/trace_syscalls.c trace/trace_export.c trace/trace_output.c trace/func_args.c \
	trace/trace_seq.c trace/trace_cmdline.c trace/trace_graph_fmt.c trace/ring_buffer.c \
	kernel/tracepoint.c lib/printf.c lib/bprintf.c lib/string.c \
	tests/unit/host_kmalloc.c

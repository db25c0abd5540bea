UNIT_TESTS += trace_output
trace_output_SRCS := tests/unit/test_trace_output.c trace/trace_output.c trace/func_args.c trace/trace_seq.c \
	trace/trace_cmdline.c trace/trace_graph_fmt.c lib/printf.c lib/bprintf.c lib/string.c \
	tests/unit/host_kmalloc.c

UNIT_TESTS += trace_graph_output
trace_graph_output_SRCS := tests/unit/test_trace_graph_output.c trace/trace_graph_output.c trace/func_args.c \
	trace/trace_graph_fmt.c trace/trace_output.c trace/trace_seq.c trace/trace_cmdline.c \
	trace/trace_reader.c trace/ring_buffer.c lib/bprintf.c lib/printf.c lib/string.c \
	tests/unit/host_kmalloc.c

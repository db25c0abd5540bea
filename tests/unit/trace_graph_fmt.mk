UNIT_TESTS += trace_graph_fmt
trace_graph_fmt_SRCS := tests/unit/test_trace_graph_fmt.c trace/trace_graph_fmt.c lib/printf.c lib/string.c

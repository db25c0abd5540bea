UNIT_TESTS += trace_events_filter
trace_events_filter_SRCS := tests/unit/test_trace_events_filter.c trace/trace_events_filter.c \
	trace/trace_events_text.c trace/trace_seq.c lib/printf.c lib/bprintf.c lib/string.c lib/glob.c \
	lib/kstrtox.c tests/unit/host_kmalloc.c

FUZZ_TARGETS += trace_events_filter
fuzz_trace_events_filter_SRCS := tests/fuzz/fuzz_trace_events_filter.c trace/trace_events_filter.c \
	trace/trace_events_text.c trace/trace_seq.c lib/printf.c lib/bprintf.c lib/string.c \
	lib/glob.c lib/kstrtox.c tests/unit/host_kmalloc.c

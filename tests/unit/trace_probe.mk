UNIT_TESTS += trace_probe
trace_probe_SRCS := tests/unit/test_trace_probe.c trace/trace_probe.c trace/trace_probe_fetch.c \
	trace/trace_seq.c lib/printf.c lib/bprintf.c lib/string.c lib/kstrtox.c tests/unit/host_kmalloc.c
trace_probe_CFLAGS := -DHOST_TRACING_LOG_ERR

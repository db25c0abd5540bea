FUZZ_TARGETS += trace_probe
fuzz_trace_probe_SRCS := tests/fuzz/fuzz_trace_probe.c trace/trace_probe.c trace/trace_probe_fetch.c \
	trace/trace_seq.c lib/printf.c lib/bprintf.c lib/string.c lib/kstrtox.c tests/unit/host_kmalloc.c
fuzz_trace_probe_CFLAGS := -DHOST_TRACING_LOG_ERR

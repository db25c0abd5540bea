UNIT_TESTS += trace_pid
trace_pid_SRCS := tests/unit/test_trace_pid.c trace/trace_pid.c lib/kstrtox.c lib/printf.c \
	lib/string.c tests/unit/host_kmalloc.c

FUZZ_TARGETS += trace_events_trigger
fuzz_trace_events_trigger_SRCS := tests/fuzz/fuzz_trace_events_trigger.c \
	trace/trace_events_trigger_parse.c lib/printf.c lib/bprintf.c lib/string.c lib/kstrtox.c

UNIT_TESTS += trace_events_trigger
trace_events_trigger_SRCS := tests/unit/test_trace_events_trigger.c trace/trace_events_trigger_parse.c \
	lib/printf.c lib/bprintf.c lib/string.c lib/kstrtox.c

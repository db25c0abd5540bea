UNIT_TESTS += trace_printk_fmt
trace_printk_fmt_SRCS := tests/unit/test_trace_printk_fmt.c trace/trace_printk_fmt.c lib/printf.c \
	lib/string.c

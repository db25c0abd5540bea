UNIT_TESTS += ftrace_cmd_parse
ftrace_cmd_parse_SRCS := tests/unit/test_ftrace_cmd_parse.c trace/ftrace_cmd_parse.c \
	lib/kstrtox.c lib/printf.c lib/string.c

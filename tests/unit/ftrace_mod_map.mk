UNIT_TESTS += ftrace_mod_map
ftrace_mod_map_SRCS := tests/unit/test_ftrace_mod_map.c trace/ftrace_mod_map.c lib/bsearch.c \
	lib/sort.c lib/string.c tests/unit/host_kmalloc.c

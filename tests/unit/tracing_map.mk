UNIT_TESTS += tracing_map
tracing_map_SRCS := tests/unit/test_tracing_map.c trace/tracing_map.c lib/sort.c lib/string.c \
	tests/unit/host_kmalloc.c

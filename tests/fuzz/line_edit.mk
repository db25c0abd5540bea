FUZZ_TARGETS += line_edit
fuzz_line_edit_SRCS := tests/fuzz/fuzz_line_edit.c kernel/shell/line_edit.c lib/string.c \
	tests/unit/host_kmalloc.c

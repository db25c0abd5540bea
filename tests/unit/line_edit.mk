UNIT_TESTS += line_edit
line_edit_SRCS := tests/unit/test_line_edit.c kernel/shell/line_edit.c lib/string.c tests/unit/host_kmalloc.c

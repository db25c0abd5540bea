UNIT_TESTS += seq_file
seq_file_SRCS := tests/unit/test_seq_file.c kernel/fs/seq_file.c lib/printf.c lib/string.c tests/unit/host_kmalloc.c

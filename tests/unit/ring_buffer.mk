UNIT_TESTS += ring_buffer
ring_buffer_SRCS := tests/unit/test_ring_buffer.c trace/ring_buffer.c lib/string.c \
	tests/unit/host_kmalloc.c
# The same tests against Linux's x86 record layout (4-byte alignment, type_len 1..28), with a
# quarter of the stress.
UNIT_TESTS += ring_buffer_align4
ring_buffer_align4_SRCS := $(ring_buffer_SRCS)
ring_buffer_align4_CFLAGS := -DRB_ALIGNMENT=4 -DRB_TEST_QUICK

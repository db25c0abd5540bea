UNIT_TESTS += p9_protocol
p9_protocol_SRCS := tests/unit/test_p9_protocol.c kernel/fs/9p/protocol.c lib/string.c

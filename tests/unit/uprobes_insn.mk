UNIT_TESTS += uprobes_insn
uprobes_insn_SRCS := tests/unit/test_uprobes_insn.c arch/x86_64/uprobes.c arch/x86_64/insn_decoder.c lib/string.c

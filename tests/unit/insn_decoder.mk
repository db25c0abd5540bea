UNIT_TESTS += insn_decoder
insn_decoder_SRCS := tests/unit/test_insn_decoder.c arch/x86_64/insn_decoder.c

/*
 * The x86-64 half of static keys (Linux: arch/x86/kernel/jump_label.c): the two instructions a
 * site may hold, and checking that it holds the one it should before it is changed.
 *
 * NOP5 or "jmp rel32" to the entry's target: both 5 bytes, so a site never changes length, and
 * text_poke_bp_batch (text_poke.c) replaces one with the other while other CPUs run it. The
 * jump's displacement counts from the end of the instruction, as a call's does.
 *
 * Not traced, and never probed (the Makefile's NOKPROBE_SRCS): it runs while code changes.
 */
#include "arch/x86_64/jump_label.h"
#include "kernel/jump_label.h"
#include "kernel/panic.h"
#include "lib/string.h"

static const uint8_t jump_label_nop[JUMP_LABEL_NOP_SIZE] = {BYTES_NOP5};

/* The instruction a site holds in state type. */
void arch_jump_label_make_insn(const struct jump_entry *e, enum jump_label_type type,
			       uint8_t insn[JUMP_LABEL_NOP_SIZE])
{
	if (type == JUMP_LABEL_NOP) {
		memcpy(insn, jump_label_nop, JUMP_LABEL_NOP_SIZE);
		return;
	}
	/* The target is in the same function: always within a rel32's reach. */
	long dist = (long)(e->target - (e->code + JMP32_INSN_SIZE));
	int32_t rel = (int32_t)dist;

	BUG_ON(rel != dist);

	insn[0] = JMP32_INSN_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

/* Does the site hold exactly what state type says? Never patch blindly. */
bool arch_jump_label_site_is(const struct jump_entry *e, enum jump_label_type type)
{
	uint8_t want[JUMP_LABEL_NOP_SIZE];

	arch_jump_label_make_insn(e, type, want);
	return !memcmp((const void *)e->code, want, JUMP_LABEL_NOP_SIZE);
}

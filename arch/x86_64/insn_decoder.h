/*
 * An x86-64 instruction decoder that knows where each part of an instruction is and how long it
 * is (arch/x86_64/insn_decoder.c; Linux: arch/x86/lib/insn.c, asm/insn.h, the same names where
 * they exist). Kprobes need exactly this: whether an address is on an instruction boundary (walk
 * a function from its start), how many bytes to copy to an out-of-line slot, and where a
 * RIP-relative displacement sits so the copy can be fixed up. 64-bit mode only.
 */
#ifndef ARCH_X86_64_INSN_DECODER_H
#define ARCH_X86_64_INSN_DECODER_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_INSN_LEN 15 /* the architecture's limit: longer is #UD */

/* Opcode maps: the one-byte map, and the three reached through 0F, 0F 38, 0F 3A (or VEX.mmmmm). */
enum insn_map { INSN_MAP_1BYTE, INSN_MAP_0F, INSN_MAP_0F38, INSN_MAP_0F3A, INSN_MAP_OTHER };

/* Legacy prefixes seen (a bit each). */
#define INSN_PFX_66 0x01 /* operand size */
#define INSN_PFX_67 0x02 /* address size */
#define INSN_PFX_F2 0x04 /* repne */
#define INSN_PFX_F3 0x08 /* rep */
#define INSN_PFX_LOCK 0x10 /* F0 */
#define INSN_PFX_SEG 0x20 /* 26 2E 36 3E 64 65 */

struct insn {
	const uint8_t *kaddr; /* where it was decoded from */
	uint8_t length;
	uint8_t prefixes; /* INSN_PFX_* */
	uint8_t nr_prefixes; /* legacy prefix bytes */
	uint8_t rex; /* the REX byte, 0 if none */
	uint8_t vex_len; /* 0, 2 or 3 (VEX), 4 (EVEX) */
	uint8_t vex[3]; /* the VEX/EVEX payload bytes after C4/C5/62 */
	enum insn_map map;
	uint8_t opcode; /* the opcode byte within its map */
	uint8_t opcode_offset;
	bool has_modrm;
	uint8_t modrm;
	bool has_sib;
	uint8_t sib;
	uint8_t disp_size; /* 0, 1, 4 (or 8: the moffs of A0-A3) */
	uint8_t disp_offset;
	int64_t displacement;
	uint8_t imm_size; /* total immediate bytes (enter has two: 2 + 1) */
	uint8_t imm_offset;
	int64_t immediate; /* the first immediate, sign-extended */
	bool rip_relative; /* ModRM mod=00 rm=101: disp32 is relative to the next instruction */
	bool rel_branch; /* a jmp/jcc/call/loop whose immediate is a relative target */
};

static inline uint8_t X86_MODRM_MOD(uint8_t m)
{
	return m >> 6;
}
static inline uint8_t X86_MODRM_REG(uint8_t m)
{
	return (m >> 3) & 7;
}
static inline uint8_t X86_MODRM_RM(uint8_t m)
{
	return m & 7;
}
#define X86_REX_W 0x8

/*
 * Decodes the instruction at kaddr, reading at most buf_len bytes. 0, or -EINVAL (-22) if the
 * bytes are not a valid 64-bit-mode instruction, or it would be longer than buf_len or 15 bytes.
 */
int insn_decode(struct insn *insn, const void *kaddr, int buf_len);

static inline bool insn_rip_relative(const struct insn *insn)
{
	return insn->rip_relative;
}

#endif

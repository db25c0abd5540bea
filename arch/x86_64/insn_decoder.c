/*
 * x86-64 instruction decoder: the parts of an instruction and its length.
 *
 * An instruction is, in this order (each part optional but the opcode):
 *
 *   legacy prefixes (66 67 F2 F3 F0, segments) | REX (40-4F) or VEX (C4/C5) or EVEX (62)
 *   | opcode (1 byte, or 0F xx, 0F 38 xx, 0F 3A xx) | ModRM | SIB | displacement | immediate
 *
 * The opcode decides whether a ModRM byte follows and how big the immediate is; ModRM (and SIB)
 * decide the displacement. So the decoder is: skip prefixes, find the map and the opcode, look
 * the opcode up in small per-map rules below, then read ModRM/SIB/displacement/immediate. No
 * operand meaning is decoded: kprobes need lengths, the RIP-relative displacement, and whether
 * an instruction is a relative branch (arch/x86_64/kprobes/core.c fixes those up after the step).
 *
 * Opcodes that are invalid in 64-bit mode (06 07 0E 16 17 1E 1F 27 2F 37 3F 60-62(non-EVEX) 82
 * 9A C4/C5(never: they are VEX here) D4 D5 D6 EA) are refused, so a walk through data or a
 * misaligned start fails early instead of inventing instructions.
 *
 * Pure computation on a byte buffer, no kernel dependency: the host unit test
 * (tests/unit/test_insn_decoder.c) compiles this same file.
 */
#include "arch/x86_64/insn_decoder.h"
#include "lib/errno.h"

#define REX_MIN 0x40
#define REX_MAX 0x4f
#define OPC_ESCAPE 0x0f
#define OPC_3BYTE_38 0x38
#define OPC_3BYTE_3A 0x3a
#define OPC_VEX3 0xc4
#define OPC_VEX2 0xc5
#define OPC_EVEX 0x62

/* Immediate kinds: a byte, a word, "z" (2 with 66, else 4), "v" (2, 4 or 8 with REX.W). */
enum imm { IMM_NONE, IMM_B, IMM_W, IMM_Z, IMM_V, IMM_WB, IMM_MOFFS, IMM_BAD };

static bool is_legacy_prefix(uint8_t b, uint8_t *bit)
{
	switch (b) {
	case 0x66:
		*bit = INSN_PFX_66;
		return true;
	case 0x67:
		*bit = INSN_PFX_67;
		return true;
	case 0xf2:
		*bit = INSN_PFX_F2;
		return true;
	case 0xf3:
		*bit = INSN_PFX_F3;
		return true;
	case 0xf0:
		*bit = INSN_PFX_LOCK;
		return true;
	case 0x26:
	case 0x2e:
	case 0x36:
	case 0x3e:
	case 0x64:
	case 0x65:
		*bit = INSN_PFX_SEG;
		return true;
	}
	return false;
}

/* One-byte map: is it valid in 64-bit mode, has it a ModRM byte, what immediate? */
static bool onebyte_valid(uint8_t op)
{
	switch (op) {
	case 0x06:
	case 0x07:
	case 0x0e:
	case 0x16:
	case 0x17:
	case 0x1e:
	case 0x1f:
	case 0x27:
	case 0x2f:
	case 0x37:
	case 0x3f:
	case 0x60:
	case 0x61:
	case 0x82:
	case 0x9a:
	case 0xce:
	case 0xd4:
	case 0xd5:
	case 0xd6:
	case 0xea:
		return false;
	}
	return true;
}

static bool onebyte_has_modrm(uint8_t op)
{
	if (op < 0x40)
		return (op & 7) < 4; /* the ALU rows: 00-03, 08-0B, ... */
	switch (op) {
	case 0x63:
	case 0x69:
	case 0x6b:
	case 0x8f:
	case 0xc0:
	case 0xc1:
	case 0xc6:
	case 0xc7:
	case 0xd0:
	case 0xd1:
	case 0xd2:
	case 0xd3:
	case 0xf6:
	case 0xf7:
	case 0xfe:
	case 0xff:
		return true;
	}
	return (op >= 0x80 && op <= 0x8e) || (op >= 0xd8 && op <= 0xdf);
}

static enum imm onebyte_imm(uint8_t op, uint8_t modrm)
{
	if (op < 0x40) {
		if ((op & 7) == 4)
			return IMM_B; /* ALU al, imm8 */
		if ((op & 7) == 5)
			return IMM_Z; /* ALU eax, imm32 */
		return IMM_NONE;
	}
	if (op >= 0x70 && op <= 0x7f)
		return IMM_B; /* jcc rel8 */
	if (op >= 0xb0 && op <= 0xb7)
		return IMM_B;
	if (op >= 0xb8 && op <= 0xbf)
		return IMM_V; /* mov reg, imm (movabs with REX.W) */
	if (op >= 0xe0 && op <= 0xe7)
		return IMM_B; /* loop/jrcxz rel8, in/out imm8 */
	if (op >= 0xa0 && op <= 0xa3)
		return IMM_MOFFS;
	switch (op) {
	case 0x68:
	case 0x69:
	case 0x81:
	case 0xa9:
	case 0xc7:
	case 0xe8:
	case 0xe9:
		return IMM_Z;
	case 0x6a:
	case 0x6b:
	case 0x80:
	case 0x83:
	case 0xa8:
	case 0xc0:
	case 0xc1:
	case 0xc6:
	case 0xcd:
	case 0xeb:
		return IMM_B;
	case 0xc2:
	case 0xca:
		return IMM_W;
	case 0xc8:
		return IMM_WB; /* enter imm16, imm8 */
	case 0xf6:
		return X86_MODRM_REG(modrm) < 2 ? IMM_B : IMM_NONE; /* test r/m8, imm8 */
	case 0xf7:
		return X86_MODRM_REG(modrm) < 2 ? IMM_Z : IMM_NONE;
	}
	return IMM_NONE;
}

/* Two-byte map (0F xx): the few opcodes without ModRM, and those with an immediate. */
static bool twobyte_valid(uint8_t op)
{
	switch (op) {
	case 0x04:
	case 0x0a:
	case 0x0c:
	case 0x24:
	case 0x25:
	case 0x26:
	case 0x27:
	case 0x36:
	case 0x39:
	case 0x3b:
	case 0x3c:
	case 0x3d:
	case 0x3e:
	case 0x3f:
	case 0x7a:
	case 0x7b:
	case 0xa6:
	case 0xa7:
	case 0xff:
		return false;
	}
	return true;
}

static bool twobyte_has_modrm(uint8_t op)
{
	switch (op) {
	case 0x05:
	case 0x06:
	case 0x07:
	case 0x08:
	case 0x09:
	case 0x0b:
	case 0x0e:
	case 0x77:
	case 0xa0:
	case 0xa1:
	case 0xa2:
	case 0xa8:
	case 0xa9:
	case 0xaa:
		return false;
	}
	if (op >= 0x30 && op <= 0x37)
		return false; /* wrmsr rdtsc rdmsr rdpmc sysenter sysexit getsec */
	if (op >= 0x80 && op <= 0x8f)
		return false; /* jcc rel32 */
	if (op >= 0xc8 && op <= 0xcf)
		return false; /* bswap */
	return true;
}

static enum imm twobyte_imm(uint8_t op)
{
	if (op >= 0x80 && op <= 0x8f)
		return IMM_Z;
	switch (op) {
	case 0x0f: /* 3DNow!: the real opcode is a trailing byte */
	case 0x70:
	case 0x71:
	case 0x72:
	case 0x73:
	case 0xa4:
	case 0xac:
	case 0xba:
	case 0xc2:
	case 0xc4:
	case 0xc5:
	case 0xc6:
		return IMM_B;
	}
	return IMM_NONE;
}

static bool is_rel_branch(enum insn_map map, uint8_t op)
{
	if (map == INSN_MAP_1BYTE)
		return (op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) || op == 0xe8 ||
		       op == 0xe9 || op == 0xeb;
	return map == INSN_MAP_0F && op >= 0x80 && op <= 0x8f;
}

/* Reads n little-endian bytes as a signed value. */
static int64_t read_signed(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	if (n < 8 && (v & (1ULL << (n * 8 - 1))))
		v |= ~0ULL << (n * 8);
	return (int64_t)v;
}

int insn_decode(struct insn *insn, const void *kaddr, int buf_len)
{
	const uint8_t *p = kaddr;
	int max = buf_len < MAX_INSN_LEN ? buf_len : MAX_INSN_LEN;
	int i = 0;
	uint8_t bit;
	enum imm imm = IMM_NONE;

	*insn = (struct insn){.kaddr = p, .map = INSN_MAP_1BYTE};
#define NEED(n)                         \
	do {                            \
		if (i + (n) > max)      \
			return -EINVAL; \
	} while (0)

	/* Legacy prefixes, any number (the 15-byte limit bounds them). */
	for (;;) {
		NEED(1);
		if (!is_legacy_prefix(p[i], &bit))
			break;
		insn->prefixes |= bit;
		insn->nr_prefixes++;
		i++;
	}
	/* REX: must come right before the opcode (a REX followed by a prefix is ignored by the
	 * CPU; gcc never emits that, so we refuse it rather than guess). */
	if (p[i] >= REX_MIN && p[i] <= REX_MAX) {
		insn->rex = p[i++];
		NEED(1);
		if (is_legacy_prefix(p[i], &bit))
			return -EINVAL;
	}

	NEED(1);
	uint8_t b = p[i];
	if ((b == OPC_VEX2 || b == OPC_VEX3 || b == OPC_EVEX) && !insn->rex) {
		/* In 64-bit mode C4/C5 are always VEX; 62 is EVEX (BOUND does not exist). */
		insn->vex_len = b == OPC_VEX2 ? 2 : b == OPC_VEX3 ? 3 : 4;
		NEED(insn->vex_len);
		for (int k = 0; k < insn->vex_len - 1; k++)
			insn->vex[k] = p[i + 1 + k];
		i += insn->vex_len;
		if (insn->vex_len == 2) {
			insn->map = INSN_MAP_0F;
		} else {
			uint8_t m = insn->vex[0] & (insn->vex_len == 3 ? 0x1f : 0x07);
			if (m < 1 || m > 3)
				return -EINVAL;
			insn->map = (enum insn_map)m;
		}
		NEED(1);
		insn->opcode_offset = (uint8_t)i;
		insn->opcode = p[i++];
		/* Every VEX/EVEX instruction has ModRM but vzeroupper/vzeroall (0F 77). */
		insn->has_modrm = !(insn->map == INSN_MAP_0F && insn->opcode == 0x77);
		if (insn->map == INSN_MAP_0F3A)
			imm = IMM_B;
		else if (insn->map == INSN_MAP_0F)
			imm = twobyte_imm(insn->opcode) == IMM_B ? IMM_B : IMM_NONE;
		if (insn->map == INSN_MAP_0F && (insn->opcode >= 0x80 && insn->opcode <= 0x8f))
			return -EINVAL;
	} else if (b == OPC_ESCAPE) {
		NEED(2);
		uint8_t b2 = p[i + 1];
		if (b2 == OPC_3BYTE_38 || b2 == OPC_3BYTE_3A) {
			NEED(3);
			insn->map = b2 == OPC_3BYTE_38 ? INSN_MAP_0F38 : INSN_MAP_0F3A;
			insn->opcode_offset = (uint8_t)(i + 2);
			insn->opcode = p[i + 2];
			i += 3;
			insn->has_modrm = true;
			imm = insn->map == INSN_MAP_0F3A ? IMM_B : IMM_NONE;
		} else {
			if (!twobyte_valid(b2))
				return -EINVAL;
			insn->map = INSN_MAP_0F;
			insn->opcode_offset = (uint8_t)(i + 1);
			insn->opcode = b2;
			i += 2;
			insn->has_modrm = twobyte_has_modrm(b2);
			imm = twobyte_imm(b2);
		}
	} else {
		if (!onebyte_valid(b))
			return -EINVAL;
		insn->opcode_offset = (uint8_t)i;
		insn->opcode = b;
		i++;
		insn->has_modrm = onebyte_has_modrm(b);
	}

	if (insn->has_modrm) {
		NEED(1);
		insn->modrm = p[i++];
		uint8_t mod = X86_MODRM_MOD(insn->modrm), rm = X86_MODRM_RM(insn->modrm);
		if (mod != 3 && rm == 4) {
			NEED(1);
			insn->has_sib = true;
			insn->sib = p[i++];
		}
		if (mod == 1)
			insn->disp_size = 1;
		else if (mod == 2)
			insn->disp_size = 4;
		else if (mod == 0 && rm == 5) {
			insn->disp_size = 4;
			insn->rip_relative = true;
		} else if (mod == 0 && insn->has_sib && (insn->sib & 7) == 5)
			insn->disp_size = 4; /* SIB with no base */
		/* Group opcodes whose reg field must be a valid sub-opcode. */
		if (insn->map == INSN_MAP_1BYTE && !insn->vex_len) {
			uint8_t reg = X86_MODRM_REG(insn->modrm);
			if ((b == 0x8f && reg != 0) ||
			    (b == 0xc6 && reg != 0 && insn->modrm != 0xf8) ||
			    (b == 0xc7 && reg != 0 && insn->modrm != 0xf8) ||
			    (b == 0xfe && reg > 1) || (b == 0xff && reg == 7))
				return -EINVAL;
		}
	}
	if (insn->disp_size) {
		NEED(insn->disp_size);
		insn->disp_offset = (uint8_t)i;
		insn->displacement = read_signed(p + i, insn->disp_size);
		i += insn->disp_size;
	}

	if (insn->map == INSN_MAP_1BYTE && !insn->vex_len) {
		imm = onebyte_imm(b, insn->modrm);
		/* xabort (C6 F8 ib) and xbegin (C7 F8 rel) */
		if (b == 0xc6 && insn->modrm == 0xf8)
			imm = IMM_B;
	}
	int opsz16 = (insn->prefixes & INSN_PFX_66) && !(insn->rex & X86_REX_W);
	switch (imm) {
	case IMM_NONE:
		insn->imm_size = 0;
		break;
	case IMM_B:
		insn->imm_size = 1;
		break;
	case IMM_W:
		insn->imm_size = 2;
		break;
	case IMM_WB:
		insn->imm_size = 3;
		break;
	case IMM_Z:
		/* Near branches ignore 66 in 64-bit mode as Intel CPUs do; gcc never emits it. */
		insn->imm_size = opsz16 && !is_rel_branch(insn->map, insn->opcode) ? 2 : 4;
		break;
	case IMM_V:
		insn->imm_size = (insn->rex & X86_REX_W) ? 8 : opsz16 ? 2 : 4;
		break;
	case IMM_MOFFS:
		insn->imm_size = (insn->prefixes & INSN_PFX_67) ? 4 : 8;
		break;
	case IMM_BAD:
		return -EINVAL;
	}
	if (insn->imm_size) {
		NEED(insn->imm_size);
		insn->imm_offset = (uint8_t)i;
		insn->immediate = read_signed(p + i, insn->imm_size == 3 ? 2 : insn->imm_size);
		i += insn->imm_size;
	}
	insn->rel_branch = !insn->vex_len && is_rel_branch(insn->map, insn->opcode);
	insn->length = (uint8_t)i;
#undef NEED
	return 0;
}

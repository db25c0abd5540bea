/*
 * The x86-64 half of uprobes: what the probed instruction is, and how it runs once the int3
 * that replaced its first byte has been hit (kernel/events/uprobes.c does the rest).
 *
 * The instruction cannot run where it is: its first byte is the int3. Linux runs it in one of
 * two ways, and so does Lucid:
 *	- emulated, for the few that are simple and common at a function's start: a nop, a
 *	  push of a register (push %rbp, the frame-pointer prologue), and the relative branches
 *	  (jmp, call, jcc), whose target depends on where they are. Nothing is copied; the
 *	  registers and the stack are changed as the CPU would have.
 *	- single-stepped out of line (XOL): a copy goes into a slot of the process's [uprobes]
 *	  page, the task returns to ring 3 at the slot with the trap flag (TF) set, the CPU runs
 *	  that one instruction and traps (#DB), and the registers are put right as if it had run
 *	  at its own address: rip moved back by the distance between slot and original, the
 *	  return address an indirect call pushed likewise. An operand addressed relative to rip
 *	  (mov 0x1234(%rip),%rax) would read the wrong place from the slot, and the slot may be
 *	  terabytes away, beyond a 32-bit displacement: the copy is rewritten to address it
 *	  through a scratch register (%rsi, %rdi or %rbx, whichever the instruction does not
 *	  name) set to the original rip for the step, and given back its value after.
 * What needs neither, or cannot be done so, is refused when the probe is armed (-ENOTSUPP):
 * int3 itself, system calls and software interrupts, VEX/EVEX-encoded (AVX) instructions,
 * which this decoder does not read, and the loop/jcxz branches.
 *
 * The decoder below knows only what this needs: the prefixes, REX, the opcode maps, ModRM,
 * SIB, displacements and immediates, hence each instruction's length.
 */
#include "arch/x86_64/uprobes.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/sched/signal.h"
#include "kernel/syscalls.h" /* force_sig_fault */
#include "lib/errno.h"
#include "lib/string.h"

#define X86_EFLAGS_CF 0x0001UL
#define X86_EFLAGS_PF 0x0004UL
#define X86_EFLAGS_ZF 0x0040UL
#define X86_EFLAGS_SF 0x0080UL
#define X86_EFLAGS_TF 0x0100UL
#define X86_EFLAGS_OF 0x0800UL

#define REX_W 0x08
#define REX_R 0x04
#define REX_B 0x01
#define MODRM_MOD(m) ((m) >> 6)
#define MODRM_REG(m) (((m) >> 3) & 7)
#define MODRM_RM(m) ((m)&7)
#define RIP_RELATIVE_RM 5 /* mod 00, rm 101: disp32 from the next instruction's rip */
#define SIB_RM 4 /* rm 100: a SIB byte follows */
#define X86_MAX_INSN_LEN 15

/* Registers in the instruction encoding's order: ax cx dx bx sp bp si di r8 ... r15. */
static uint64_t *regs_reg(struct pt_regs *regs, unsigned int n)
{
	uint64_t *const map[16] = {&regs->rax, &regs->rcx, &regs->rdx, &regs->rbx,
				   &regs->rsp, &regs->rbp, &regs->rsi, &regs->rdi,
				   &regs->r8,  &regs->r9,  &regs->r10, &regs->r11,
				   &regs->r12, &regs->r13, &regs->r14, &regs->r15};
	return map[n & 15];
}

static bool is_prefix(uint8_t b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: /* segments */
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3: /* size, lock, rep */
		return true;
	default:
		return false;
	}
}

/* One-byte opcodes invalid in 64-bit mode, or that Lucid will not step (see the top). */
static bool refused_one_byte(uint8_t op)
{
	switch (op) {
	case 0x06: case 0x07: case 0x0e: case 0x16: case 0x17: case 0x1e: case 0x1f:
	case 0x27: case 0x2f: case 0x37: case 0x3f: case 0x60: case 0x61: case 0x82:
	case 0x9a: case 0xce: case 0xd4: case 0xd5: case 0xd6: case 0xea:
	case 0x62: case 0xc4: case 0xc5: /* EVEX, VEX */
	case 0xcc: case 0xcd: case 0xf1: /* int3, int n, int1 */
	case 0xe0: case 0xe1: case 0xe2: case 0xe3: /* loop, jcxz */
		return true;
	default:
		return false;
	}
}

static bool has_modrm_one_byte(uint8_t op)
{
	if (op < 0x40)
		return (op & 7) < 4;
	switch (op) {
	case 0x63: case 0x69: case 0x6b: case 0xc0: case 0xc1: case 0xc6: case 0xc7:
	case 0xd0: case 0xd1: case 0xd2: case 0xd3: case 0xf6: case 0xf7: case 0xfe: case 0xff:
		return true;
	default:
		return (op >= 0x80 && op <= 0x8f) || (op >= 0xd8 && op <= 0xdf);
	}
}

/* The immediate's size after ModRM (z: 4, or 2 with the 0x66 prefix). */
static int imm_one_byte(uint8_t op, uint8_t modrm, bool p66, uint8_t rex)
{
	int z = p66 ? 2 : 4;

	if (op < 0x40 && (op & 7) == 4)
		return 1;
	if (op < 0x40 && (op & 7) == 5)
		return z;
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xb0 && op <= 0xb7) || (op >= 0xe4 && op <= 0xe7))
		return 1;
	if (op >= 0xb8 && op <= 0xbf)
		return rex & REX_W ? 8 : z;
	switch (op) {
	case 0x6a: case 0x6b: case 0x80: case 0x83: case 0xa8: case 0xc0: case 0xc1: case 0xc6:
	case 0xeb:
		return 1;
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7:
		return z;
	case 0xe8: case 0xe9:
		return 4;
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;
	case 0xa0: case 0xa1: case 0xa2: case 0xa3:
		return 8; /* moffs: a whole address (4 with 0x67, handled by the caller) */
	case 0xf6:
		return MODRM_REG(modrm) < 2 ? 1 : 0; /* test r/m8, imm8 */
	case 0xf7:
		return MODRM_REG(modrm) < 2 ? z : 0;
	default:
		return 0;
	}
}

/* Two-byte (0x0f xx) opcodes without a ModRM byte. */
static bool no_modrm_0f(uint8_t op)
{
	switch (op) {
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b: case 0x0e:
	case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x37:
	case 0x77: case 0xa0: case 0xa1: case 0xa2: case 0xa8: case 0xa9: case 0xaa:
		return true;
	default:
		return (op >= 0x80 && op <= 0x8f) || (op >= 0xc8 && op <= 0xcf);
	}
}

static int imm_0f(uint8_t op)
{
	if (op >= 0x80 && op <= 0x8f)
		return 4; /* jcc rel32 */
	switch (op) {
	case 0x70: case 0x71: case 0x72: case 0x73: case 0xa4: case 0xac: case 0xba:
	case 0xc2: case 0xc4: case 0xc5: case 0xc6:
		return 1;
	default:
		return 0;
	}
}

/*
 * Chooses how a rip-relative instruction's copy addresses its operand (Linux's
 * riprel_analyze): a register neither its ModRM reg field nor an implicit operand uses. %rsi
 * first, then %rdi, then %rbx (cmpxchg8b's reg field is 1, and it uses bx implicitly: si).
 */
static uint8_t riprel_scratch(uint8_t modrm)
{
	uint8_t reg = MODRM_REG(modrm);

	return reg != 6 ? 6 : reg != 7 ? 7 : 3;
}

int arch_uprobe_analyze_insn(struct arch_uprobe *au, const uint8_t *b, size_t avail)
{
	size_t i = 0, opc, modrm_at = 0;
	bool p66 = false, p67 = false, has_modrm, jcc32 = false;
	uint8_t rex = 0, modrm = 0, op, op2 = 0;
	int imm;

	memset(au, 0, sizeof(*au));
	avail = avail < MAX_UINSN_BYTES ? avail : MAX_UINSN_BYTES;
	while (i < avail && is_prefix(b[i])) {
		p66 |= b[i] == 0x66;
		p67 |= b[i] == 0x67;
		i++;
	}
	if (i < avail && (b[i] & 0xf0) == 0x40)
		rex = b[i++];
	if (i >= avail)
		return -EINVAL;
	opc = i;
	op = b[i++];
	if (op == 0x0f) {
		if (i >= avail)
			return -EINVAL;
		op2 = b[i++];
		if (op2 == 0x38 || op2 == 0x3a) { /* three-byte maps: always ModRM */
			i++;
			has_modrm = true;
			imm = op2 == 0x3a ? 1 : 0;
		} else {
			/* syscall, sysenter, sysret, 3DNow!: not stepped (see the top) */
			if (op2 == 0x05 || op2 == 0x07 || op2 == 0x34 || op2 == 0x35 ||
			    op2 == 0x0f)
				return -ENOTSUPP;
			has_modrm = !no_modrm_0f(op2);
			imm = imm_0f(op2);
			jcc32 = op2 >= 0x80 && op2 <= 0x8f;
		}
	} else {
		if (refused_one_byte(op))
			return -ENOTSUPP;
		has_modrm = has_modrm_one_byte(op);
		imm = 0;
	}
	if (has_modrm) {
		if (i >= avail)
			return -EINVAL;
		modrm_at = i;
		modrm = b[i++];
		if (MODRM_MOD(modrm) != 3) {
			int disp = MODRM_MOD(modrm) == 1 ? 1 : MODRM_MOD(modrm) == 2 ? 4 : 0;

			if (MODRM_RM(modrm) == SIB_RM) {
				if (i >= avail)
					return -EINVAL;
				if (MODRM_MOD(modrm) == 0 && (b[i] & 7) == 5)
					disp = 4; /* no base: disp32 */
				i++;
			} else if (MODRM_MOD(modrm) == 0 && MODRM_RM(modrm) == RIP_RELATIVE_RM) {
				disp = 4;
			}
			i += (size_t)disp;
		}
	}
	if (op != 0x0f) {
		imm = imm_one_byte(op, modrm, p66, rex);
		if (op >= 0xa0 && op <= 0xa3 && p67)
			imm = 4;
	}
	i += (size_t)imm;
	if (i > avail || i > X86_MAX_INSN_LEN)
		return -EINVAL;
	au->len = (uint8_t)i;
	memcpy(au->insn, b, i);
	memcpy(au->ixol, b, i);

	/* The ones emulated (Linux's branch_setup_xol_ops and push_setup_xol_ops). */
	bool rel8 = (op >= 0x70 && op <= 0x7f) || op == 0xeb;
	if (rel8 || op == 0xe8 || op == 0xe9 || jcc32) {
		if (p66)
			return -ENOTSUPP; /* a 16-bit branch target: Linux refuses it too */
		au->offs = rel8 ? (int8_t)b[i - 1] : (int32_t)((uint32_t)b[i - 4] |
							      (uint32_t)b[i - 3] << 8 |
							      (uint32_t)b[i - 2] << 16 |
							      (uint32_t)b[i - 1] << 24);
		if (op == 0xe8)
			au->op = UPROBE_OP_CALL;
		else if (op == 0xe9 || op == 0xeb)
			au->op = UPROBE_OP_JMP;
		else
			au->op = UPROBE_OP_JCC;
		au->cond = jcc32 ? (op2 & 0xf) : (op & 0xf);
		return 0;
	}
	if (op == 0x90 && !(rex & REX_B)) {
		au->op = UPROBE_OP_NOP; /* also pause (f3 90) and xchg %ax,%ax (66 90) */
		return 0;
	}
	if (op >= 0x50 && op <= 0x57 && !p66) {
		au->op = UPROBE_OP_PUSH;
		au->reg = (uint8_t)((op - 0x50) | (rex & REX_B ? 8 : 0));
		return 0;
	}

	/* Stepped out of line: which fixups the copy's other address calls for. */
	au->op = UPROBE_OP_XOL;
	au->fixups = UPROBE_FIX_IP;
	switch (op) {
	case 0xc2: case 0xc3: case 0xca: case 0xcb: case 0xcf: /* ret, iret: rip is where they go */
		au->fixups = 0;
		break;
	case 0x9c:
		au->fixups |= UPROBE_FIX_PUSHF;
		break;
	case 0xff:
		if (MODRM_REG(modrm) == 2 || MODRM_REG(modrm) == 3)
			au->fixups = UPROBE_FIX_CALL; /* indirect call: target right, return not */
		else if (MODRM_REG(modrm) == 4 || MODRM_REG(modrm) == 5)
			au->fixups = 0; /* indirect jmp */
		break;
	default:
		break;
	}
	if (has_modrm && MODRM_MOD(modrm) == 0 && MODRM_RM(modrm) == RIP_RELATIVE_RM) {
		/* "00 reg 101" becomes "10 reg scratch": disp32(%scratch), the same displacement. */
		au->scratch = riprel_scratch(modrm);
		au->ixol[modrm_at] = (uint8_t)(0x80 | (MODRM_REG(modrm) << 3) | au->scratch);
		if (rex)
			au->ixol[opc - 1] &= (uint8_t)~REX_B; /* the scratch is one of the first 8 */
		au->fixups |= UPROBE_FIX_RIP_SCRATCH;
	}
	return 0;
}

/* Does condition cc (a jcc opcode's low 4 bits) hold on these flags? */
static bool check_jcc(unsigned long flags, unsigned int cc)
{
	bool of = flags & X86_EFLAGS_OF, cf = flags & X86_EFLAGS_CF, zf = flags & X86_EFLAGS_ZF;
	bool sf = flags & X86_EFLAGS_SF, pf = flags & X86_EFLAGS_PF, r;

	switch (cc >> 1) {
	case 0: r = of; break;
	case 1: r = cf; break;
	case 2: r = zf; break;
	case 3: r = cf || zf; break;
	case 4: r = sf; break;
	case 5: r = pf; break;
	case 6: r = sf != of; break;
	default: r = zf || sf != of; break;
	}
	return cc & 1 ? !r : r; /* odd codes are the negations */
}

static bool push_user(struct pt_regs *regs, uint64_t val)
{
	if (copy_to_user((void *)(regs->rsp - sizeof(val)), &val, sizeof(val)))
		return false;
	regs->rsp -= sizeof(val);
	return true;
}

bool arch_uprobe_skip_sstep(const struct arch_uprobe *au, struct pt_regs *regs,
			    unsigned long vaddr)
{
	unsigned long next = vaddr + au->len;

	switch (au->op) {
	case UPROBE_OP_NOP:
		regs->rip = next;
		return true;
	case UPROBE_OP_PUSH:
		if (!push_user(regs, *regs_reg(regs, au->reg)))
			return false; /* stepped instead: its own fault then gives the signal */
		regs->rip = next;
		return true;
	case UPROBE_OP_JMP:
		regs->rip = next + (unsigned long)(long)au->offs;
		return true;
	case UPROBE_OP_JCC:
		regs->rip = next + (check_jcc(regs->rflags, au->cond) ? (unsigned long)(long)au->offs
								       : 0);
		return true;
	case UPROBE_OP_CALL:
		if (!push_user(regs, next)) {
			/* The stack is bad: SIGSEGV at the call, as the CPU's own push would. */
			regs->rip = vaddr;
			force_sig_fault(regs, SIGSEGV, regs->rsp - sizeof(uint64_t));
			return true;
		}
		regs->rip = next + (unsigned long)(long)au->offs;
		return true;
	default:
		return false;
	}
}

void arch_uprobe_pre_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			 struct pt_regs *regs, unsigned long vaddr, unsigned long slot_vaddr)
{
	at->saved_tf = regs->rflags & X86_EFLAGS_TF;
	if (au->fixups & UPROBE_FIX_RIP_SCRATCH) {
		uint64_t *scratch = regs_reg(regs, au->scratch);

		at->saved_scratch = *scratch;
		*scratch = vaddr + au->len; /* what rip would be after it, where it lives */
	}
	regs->rflags |= X86_EFLAGS_TF;
	regs->rip = slot_vaddr;
}

static void restore_borrowed(const struct arch_uprobe *au, const struct arch_uprobe_task *at,
			     struct pt_regs *regs)
{
	if (au->fixups & UPROBE_FIX_RIP_SCRATCH)
		*regs_reg(regs, au->scratch) = at->saved_scratch;
	if (!at->saved_tf)
		regs->rflags &= ~X86_EFLAGS_TF;
}

int arch_uprobe_post_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			 struct pt_regs *regs, unsigned long vaddr, unsigned long slot_vaddr)
{
	restore_borrowed(au, at, regs);
	if (au->fixups & UPROBE_FIX_IP)
		regs->rip = vaddr + (regs->rip - slot_vaddr);
	if (au->fixups & UPROBE_FIX_CALL) {
		uint64_t ret = vaddr + au->len;

		if (copy_to_user((void *)regs->rsp, &ret, sizeof(ret)))
			return -EFAULT;
	}
	if ((au->fixups & UPROBE_FIX_PUSHF) && !at->saved_tf) {
		uint64_t flags;

		if (copy_from_user(&flags, (void *)regs->rsp, sizeof(flags)))
			return -EFAULT;
		flags &= ~X86_EFLAGS_TF; /* the program's flags, not the step's */
		if (copy_to_user((void *)regs->rsp, &flags, sizeof(flags)))
			return -EFAULT;
	}
	return 0;
}

void arch_uprobe_abort_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			   struct pt_regs *regs, unsigned long vaddr)
{
	restore_borrowed(au, at, regs);
	regs->rip = vaddr;
}

unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline, struct pt_regs *regs)
{
	uint64_t orig;

	if (copy_from_user(&orig, (void *)regs->rsp, sizeof(orig)))
		return (unsigned long)-1;
	if (copy_to_user((void *)regs->rsp, &trampoline, sizeof(trampoline)))
		return (unsigned long)-1;
	return orig;
}

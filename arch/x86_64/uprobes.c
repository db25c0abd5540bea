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
 * What cannot be done so is refused when the probe is armed (-ENOTSUPP): int3 itself, system
 * calls and software interrupts, the loop/jcxz branches, and a VEX/EVEX-encoded (AVX)
 * instruction with a rip-relative operand. The instruction's parts and length come from the
 * kprobes' decoder (arch/x86_64/insn_decoder.c).
 */
#include "arch/x86_64/uprobes.h"
#include "arch/x86_64/insn_decoder.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/syscall.h" /* exit_to_user_mode */
#include "kernel/events/uprobes.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/signal.h"
#include "kernel/syscalls.h" /* force_sig_fault */
#include "lib/errno.h"
#include "lib/string.h"

#define X86_EFLAGS_CF 0x0001UL
#define X86_EFLAGS_PF 0x0004UL
#define X86_EFLAGS_ZF 0x0040UL
#define X86_EFLAGS_SF 0x0080UL
#define X86_EFLAGS_TF 0x0100UL
#define X86_EFLAGS_OF 0x0800UL

#define REX_B 0x01 /* REX's extension of ModRM.rm (or of the register in the opcode) */

/* Registers in the instruction encoding's order: ax cx dx bx sp bp si di r8 ... r15. */
static uint64_t *regs_reg(struct pt_regs *regs, unsigned int n)
{
	uint64_t *const map[16] = {&regs->rax, &regs->rcx, &regs->rdx, &regs->rbx,
				   &regs->rsp, &regs->rbp, &regs->rsi, &regs->rdi,
				   &regs->r8,  &regs->r9,  &regs->r10, &regs->r11,
				   &regs->r12, &regs->r13, &regs->r14, &regs->r15};
	return map[n & 15];
}

/* One-byte opcodes refused (see the top): int3, int n, into, int1, loop and jcxz. */
static bool refused_one_byte(uint8_t op)
{
	return op == 0xcc || op == 0xcd || op == 0xce || op == 0xf1 || (op >= 0xe0 && op <= 0xe3);
}

/* 0F opcodes refused: syscall, sysret, sysenter, sysexit. */
static bool refused_0f(uint8_t op)
{
	return op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35;
}

/*
 * Chooses how a rip-relative instruction's copy addresses its operand (Linux's
 * riprel_analyze): a register neither its ModRM reg field nor an implicit operand uses. %rsi
 * first, then %rdi, then %rbx (cmpxchg8b's reg field is 1, and it uses bx implicitly: si).
 */
static uint8_t riprel_scratch(uint8_t modrm)
{
	uint8_t reg = X86_MODRM_REG(modrm);

	return reg != 6 ? 6 : reg != 7 ? 7 : 3;
}

int arch_uprobe_analyze_insn(struct arch_uprobe *au, const uint8_t *b, size_t avail)
{
	struct insn insn;
	int len = (int)(avail < MAX_UINSN_BYTES ? avail : MAX_UINSN_BYTES);

	memset(au, 0, sizeof(*au));
	if (insn_decode(&insn, b, len))
		return -EINVAL;
	uint8_t op = insn.opcode;
	bool one = insn.map == INSN_MAP_1BYTE, p66 = insn.prefixes & INSN_PFX_66;

	if ((one && refused_one_byte(op)) || (insn.map == INSN_MAP_0F && refused_0f(op)))
		return -ENOTSUPP;
	if (insn.vex_len && insn.rip_relative)
		return -ENOTSUPP; /* its VEX.B and vvvv would need rewriting too */
	au->len = insn.length;
	memcpy(au->insn, b, insn.length);
	memcpy(au->ixol, b, insn.length);

	/* The ones emulated (Linux's branch_setup_xol_ops and push_setup_xol_ops). */
	if (insn.rel_branch) {
		if (p66)
			return -ENOTSUPP; /* a 16-bit branch target: Linux refuses it too */
		au->offs = (int32_t)insn.immediate;
		if (one && op == 0xe8)
			au->op = UPROBE_OP_CALL;
		else if (one && (op == 0xe9 || op == 0xeb))
			au->op = UPROBE_OP_JMP;
		else
			au->op = UPROBE_OP_JCC; /* 70-7f, 0f 80-8f */
		au->cond = op & 0xf;
		return 0;
	}
	if (one && op == 0x90 && !(insn.rex & REX_B)) {
		au->op = UPROBE_OP_NOP; /* also pause (f3 90) and xchg %ax,%ax (66 90) */
		return 0;
	}
	if (one && op >= 0x50 && op <= 0x57 && !p66) {
		au->op = UPROBE_OP_PUSH;
		au->reg = (uint8_t)((op - 0x50) | (insn.rex & REX_B ? 8 : 0));
		return 0;
	}

	/* Stepped out of line: which fixups the copy's other address calls for. */
	au->op = UPROBE_OP_XOL;
	au->fixups = UPROBE_FIX_IP;
	if (one) {
		switch (op) {
		case 0xc2:
		case 0xc3:
		case 0xca:
		case 0xcb:
		case 0xcf:
			au->fixups = 0; /* ret, iret: rip is where they go */
			break;
		case 0x9c:
			au->fixups |= UPROBE_FIX_PUSHF;
			break;
		case 0xff:
			if (X86_MODRM_REG(insn.modrm) == 2 || X86_MODRM_REG(insn.modrm) == 3)
				/* indirect call: target right, return not */
				au->fixups = UPROBE_FIX_CALL;
			else if (X86_MODRM_REG(insn.modrm) == 4 || X86_MODRM_REG(insn.modrm) == 5)
				au->fixups = 0; /* indirect jmp */
			break;
		default:
			break;
		}
	}
	if (insn.rip_relative) {
		/*
		 * "00 reg 101" becomes "10 reg scratch": disp32(%scratch), the same displacement.
		 */
		au->scratch = riprel_scratch(insn.modrm);
		au->ixol[insn.disp_offset - 1] =
			(uint8_t)(0x80 | (X86_MODRM_REG(insn.modrm) << 3) | au->scratch);
		if (insn.rex) /* REX comes just before the opcode bytes */
			au->ixol[insn.nr_prefixes] &=
				(uint8_t)~REX_B; /* the scratch is one of the first 8 */
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
	case 0:
		r = of;
		break;
	case 1:
		r = cf;
		break;
	case 2:
		r = zf;
		break;
	case 3:
		r = cf || zf;
		break;
	case 4:
		r = sf;
		break;
	case 5:
		r = pf;
		break;
	case 6:
		r = sf != of;
		break;
	default:
		r = zf || sf != of;
		break;
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

bool arch_uprobe_skip_sstep(const struct arch_uprobe *au, struct pt_regs *regs, unsigned long vaddr)
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
		regs->rip = next +
			    (check_jcc(regs->rflags, au->cond) ? (unsigned long)(long)au->offs : 0);
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

/*
 * Ring 3's int3 and single-step traps go to uprobes first, ahead of the kernel's own handlers
 * (Linux's uprobe_exception_notify on the die chain): one the probes do not claim (a program's
 * own int3) goes on down the chain to SIGTRAP. A claimed one returns to ring 3 from here, by
 * the way every trap from there does (a signal the handlers sent, a reschedule).
 */
static notrace bool uprobe_trap_handler(struct pt_regs *regs)
{
	if (!user_mode(regs) || !uprobe_handle_trap(regs))
		return false;
	exit_to_user_mode(regs);
	return true;
}

void arch_uprobes_init(void)
{
	add_exception_handler(VEC_BREAKPOINT, uprobe_trap_handler);
	add_exception_handler(VEC_DEBUG, uprobe_trap_handler);
}

/* The x86-64 half of uprobes (arch/x86_64/uprobes.c): the probed instruction and how it is run. */
#ifndef ARCH_X86_64_UPROBES_H
#define ARCH_X86_64_UPROBES_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "arch/x86_64/regs.h"

#define UPROBE_SWBP_INSN 0xCC /* int3 */
#define UPROBE_SWBP_INSN_SIZE 1
#define MAX_UINSN_BYTES 16 /* an x86 instruction is at most 15 bytes */
#define UPROBE_XOL_SLOT_BYTES 128 /* Linux's: a slot per task stepping, 32 to the page */

/* How the instruction is run after the handlers: stepped out of line, or emulated. */
enum uprobe_op {
	UPROBE_OP_XOL, /* copied into a slot and single-stepped there (TF, #DB) */
	UPROBE_OP_NOP, /* nothing to do: rip moves past it */
	UPROBE_OP_PUSH, /* push %reg: the value stored below rsp */
	UPROBE_OP_JMP, /* jmp rel: rip moves by offs */
	UPROBE_OP_CALL, /* call rel32: the return address pushed, rip moved */
	UPROBE_OP_JCC, /* jcc rel: taken if its condition holds on rflags */
};

/* After a step, what the copy's having run at the slot's address needs put right. */
#define UPROBE_FIX_IP 0x01 /* rip: from the slot back to the instruction's own place */
#define UPROBE_FIX_CALL 0x02 /* an indirect call pushed the slot's return address */
#define UPROBE_FIX_RIP_SCRATCH 0x04 /* rip-relative operand, through a scratch register */
#define UPROBE_FIX_PUSHF 0x08 /* pushf stored the TF the step set */

struct arch_uprobe {
	uint8_t insn[MAX_UINSN_BYTES]; /* the original instruction, as the file has it */
	uint8_t ixol[MAX_UINSN_BYTES]; /* what goes into the slot (rip-relative rewritten) */
	uint8_t len;
	uint8_t op; /* enum uprobe_op */
	uint8_t fixups; /* UPROBE_FIX_* */
	uint8_t scratch; /* UPROBE_FIX_RIP_SCRATCH: the register (Linux's numbering, 3 6 or 7) */
	uint8_t reg; /* UPROBE_OP_PUSH: which register (0-15) */
	uint8_t cond; /* UPROBE_OP_JCC: the condition code (the opcode's low 4 bits) */
	int32_t offs; /* UPROBE_OP_JMP, CALL, JCC: the displacement */
};

/* What a task keeps while it steps: the registers and flags the step borrows. */
struct arch_uprobe_task {
	uint64_t saved_scratch;
	bool saved_tf;
};

/*
 * Decodes the instruction in bytes (avail of them) for a probe at vaddr: 0, or -ENOTSUPP
 * for one Lucid cannot step or emulate (int3 itself, syscall, int, VEX/EVEX-encoded, ...),
 * -EINVAL if the bytes do not make a whole instruction.
 */
int arch_uprobe_analyze_insn(struct arch_uprobe *au, const uint8_t *bytes, size_t avail);
/* Emulates it if it is one of the simple ones; true if done (regs moved past it). */
bool arch_uprobe_skip_sstep(const struct arch_uprobe *au, struct pt_regs *regs,
			    unsigned long vaddr);
/* Sets regs up to single-step the copy written at slot (user address slot_vaddr). */
void arch_uprobe_pre_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			 struct pt_regs *regs, unsigned long vaddr, unsigned long slot_vaddr);
/* After the step's #DB: regs as if the instruction had run at vaddr. 0, or -EFAULT. */
int arch_uprobe_post_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			 struct pt_regs *regs, unsigned long vaddr, unsigned long slot_vaddr);
/* The step is given up (a signal): regs back at the probed instruction. */
void arch_uprobe_abort_xol(const struct arch_uprobe *au, struct arch_uprobe_task *at,
			   struct pt_regs *regs, unsigned long vaddr);
/*
 * At a function's first instruction: its return address (at rsp) becomes trampoline; the
 * old one is returned, or -1 if the stack cannot be read or written.
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline, struct pt_regs *regs);
/* Boot, after the kprobes' handlers: ring 3's int3 and #DB come to uprobes first. */
void arch_uprobes_init(void);

#endif

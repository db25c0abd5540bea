/*
 * Kprobes on x86-64: int3, then the probed instruction single-stepped out of line.
 *
 * Arming a probe writes int3 (CC) over the first byte of the probed instruction. When a CPU
 * gets there:
 *
 *   1. #BP: the CPU traps with RIP = addr + 1 and interrupts off. kprobe_int3_handler finds the
 *      probe of addr, marks this CPU as running it, and calls its pre_handler(s).
 *   2. The original instruction cannot run where it was (its first byte is the int3), so a
 *      copy of it waits in an out-of-line slot: an executable page near the kernel (the module
 *      area, so 32-bit displacements still reach), the RIP-relative displacement adjusted for
 *      the new place. The handler points RIP at the copy, sets TF (trap after one instruction)
 *      and clears IF in the saved flags, and returns.
 *   3. iretq: the copy runs, exactly one instruction, with interrupts off.
 *   4. #DB (single step): kprobe_debug_handler puts things back as if the instruction had run
 *      in place (Linux's resume_execution): RIP moved back by (slot - addr) unless the
 *      instruction set an absolute RIP (ret, indirect jmp/call); a call's pushed return address
 *      likewise; pushf's saved flags without our TF. Then the post_handler(s), TF off, IF as it
 *      was, and the code goes on after the probed instruction.
 *
 * What cannot be stepped out of line is refused (-EINVAL): instructions that change IF or
 * trap themselves (cli, sti, popf, iret, int3, int n, hlt, ud2, syscall/sysret), "mov ss"
 * (which delays the single-step trap by one instruction), far jumps/calls, and rep-prefixed
 * string instructions (TF traps after each iteration). A probe hit while a handler runs on
 * the same CPU is single-stepped without calling anything (KPROBE_REENTER) and counted in
 * nmissed. A fault in the copy (a user access, say) is handed back to the probed address
 * (kprobe_fault_handler), so the exception tables and oops reports see the real instruction.
 *
 * Everything here runs in the int3/#DB path, so the whole file is in the kprobe blacklist
 * (the .kprobes.text section, Makefile's NOKPROBE_SRCS) and not traced (NOTRACE_SRCS).
 */
#include "arch/x86_64/kprobes/kprobes.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/insn.h"
#include "arch/x86_64/insn_decoder.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/text_poke.h"
#include "kernel/kallsyms.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h" /* MCOUNT_INSN_SIZE */

#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_IF 0x200

/* The preemption count's marks while the int3 and #DB handlers run: Linux's NMI entry's. */
#define KPROBE_TRAP_OFFSET (NMI_OFFSET + HARDIRQ_OFFSET)

/* What #DB must fix after the copy ran (kprobe.ainsn.fixups). */
#define KPROBE_FIX_IP 0x1 /* RIP is relative to the slot: move it back to the original */
#define KPROBE_FIX_CALL 0x2 /* a call pushed a return address inside the slot */
#define KPROBE_FIX_PUSHF 0x4 /* pushf saved our TF (and IF off) */

/* --- out-of-line slots ------------------------------------------------------------------- */

/*
 * Executable pages in the module area, cut in MAX_INSN_SIZE slots; a bitmap says which are
 * taken. Written only through text_poke (the pages are read-only once executable). Under the
 * caller's kprobe_mutex (kernel/kprobes.c).
 */
#define SLOT_SIZE MAX_INSN_SIZE
#define SLOTS_PER_PAGE (PAGE_SIZE / SLOT_SIZE)
#define MAX_SLOT_PAGES 16

struct slot_page {
	uint8_t *base;
	uint8_t used[SLOTS_PER_PAGE];
};
static struct slot_page slot_pages[MAX_SLOT_PAGES];
static int nr_slot_pages;

static uint8_t *get_insn_slot(void)
{
	for (int p = 0; p < nr_slot_pages; p++)
		for (unsigned s = 0; s < SLOTS_PER_PAGE; s++)
			if (!slot_pages[p].used[s]) {
				slot_pages[p].used[s] = 1;
				return slot_pages[p].base + s * SLOT_SIZE;
			}
	if (nr_slot_pages == MAX_SLOT_PAGES)
		return NULL;
	uint8_t *page = module_alloc(PAGE_SIZE);
	if (!page)
		return NULL;
	memset(page, INT3_INSN_OPCODE, PAGE_SIZE); /* a stray jump into a slot traps */
	set_memory_perms((uintptr_t)page, 1, MMU_EXEC);
	struct slot_page *sp = &slot_pages[nr_slot_pages];
	sp->base = page;
	memset(sp->used, 0, sizeof(sp->used));
	sp->used[0] = 1;
	WRITE_ONCE(nr_slot_pages, nr_slot_pages + 1); /* after base: readers check the range */
	return page;
}

static void free_insn_slot(uint8_t *slot)
{
	for (int p = 0; p < nr_slot_pages; p++)
		if (slot >= slot_pages[p].base && slot < slot_pages[p].base + PAGE_SIZE)
			slot_pages[p].used[(slot - slot_pages[p].base) / SLOT_SIZE] = 0;
}

notrace bool arch_within_kprobe_area(unsigned long addr)
{
	extern char __kretprobe_trampoline_end[];

	for (int p = 0; p < READ_ONCE(nr_slot_pages); p++)
		if (addr >= (unsigned long)slot_pages[p].base &&
		    addr < (unsigned long)slot_pages[p].base + PAGE_SIZE)
			return true;
	return addr >= (unsigned long)__kretprobe_trampoline &&
	       addr < (unsigned long)__kretprobe_trampoline_end;
}

/* --- decoding: is it an instruction, and can it be stepped? -------------------------------- */

/*
 * The bytes at addr as they were before any probe: an armed probe's int3 stands for the byte
 * it replaced (Linux's recover_probed_instruction). buf gets MAX_INSN_LEN bytes, or fewer at
 * the end of the function (len).
 */
static void recover_insn(unsigned long addr, uint8_t *buf, int len)
{
	memcpy(buf, (const void *)addr, (size_t)len);
	struct kprobe *p = get_kprobe((void *)addr);
	if (p && !kprobe_ftrace(p))
		buf[0] = p->opcode;
}

notrace int arch_check_insn_boundary(unsigned long addr)
{
	unsigned long start, size;
	uint8_t buf[MAX_INSN_LEN];

	if (!kallsyms_lookup(addr, NULL, &start, &size))
		return -EILSEQ; /* not in any function: Linux cannot walk it either */
	unsigned long end = start + size, a = start;
	while (a < addr) {
		struct insn insn;
		int len = (int)MIN((unsigned long)MAX_INSN_LEN, end - a);

		/* A function's ftrace call site is a 5-byte instruction whatever it holds now (a
		 * call, the NOP, or for an instant ftrace's own int3). */
		if (a == start && ftrace_find_rec(a) >= 0) {
			a += MCOUNT_INSN_SIZE;
			continue;
		}
		recover_insn(a, buf, len);
		if (insn_decode(&insn, buf, len))
			return -EILSEQ;
		a += insn.length;
	}
	return a == addr ? 0 : -EILSEQ;
}

/* Which instructions cannot be stepped out of line (see the top of the file), or 0. */
static int refuse_insn(const struct insn *insn)
{
	uint8_t op = insn->opcode, reg = X86_MODRM_REG(insn->modrm);

	if (insn->vex_len)
		return 0;
	if (insn->map == INSN_MAP_0F)
		switch (op) {
		case 0x05: /* syscall */
		case 0x07: /* sysret */
		case 0x0b: /* ud2: a BUG(): stepping it would trap again at the probe, forever */
		case 0x34: /* sysenter */
		case 0x35: /* sysexit */
			return -EINVAL;
		default:
			return 0;
		}
	if (insn->map != INSN_MAP_1BYTE)
		return 0;
	switch (op) {
	case 0x8e: /* mov to a segment register: the next trap waits one instruction */
	case 0x9d: /* popf */
	case 0xcc: /* int3: another debugger's breakpoint */
	case 0xcd: /* int n */
	case 0xcf: /* iret */
	case 0xf1: /* int1 */
	case 0xf4: /* hlt */
	case 0xfa: /* cli */
	case 0xfb: /* sti */
		return -EINVAL;
	case 0xc7:
		return insn->modrm == 0xf8 ? -EINVAL : 0; /* xbegin */
	case 0xff:
		return reg == 3 || reg == 5 ? -EINVAL : 0; /* far call, far jmp */
	}
	/* rep string instructions (movs, cmps, stos, lods, scas, ins, outs) */
	if ((insn->prefixes & (INSN_PFX_F2 | INSN_PFX_F3)) &&
	    ((op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	     (op >= 0x6c && op <= 0x6f)))
		return -EINVAL;
	return 0;
}

/* What the #DB handler must fix after the copy of insn ran (Linux's resume_execution cases). */
static uint8_t insn_fixups(const struct insn *insn)
{
	if (insn->vex_len || insn->map != INSN_MAP_1BYTE)
		return KPROBE_FIX_IP;
	switch (insn->opcode) {
	case 0x9c: /* pushf */
		return KPROBE_FIX_IP | KPROBE_FIX_PUSHF;
	case 0xc2: /* ret imm16 */
	case 0xc3: /* ret */
	case 0xca: /* lret imm16 */
	case 0xcb: /* lret */
		return 0; /* RIP is the return address: already right */
	case 0xe8: /* call rel32 */
		return KPROBE_FIX_IP | KPROBE_FIX_CALL;
	case 0xff:
		if (X86_MODRM_REG(insn->modrm) == 2)
			return KPROBE_FIX_CALL; /* call *x: absolute target, relative return */
		if (X86_MODRM_REG(insn->modrm) == 4)
			return 0; /* jmp *x */
		return KPROBE_FIX_IP;
	}
	return KPROBE_FIX_IP;
}

notrace int arch_prepare_kprobe(struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr, start, size;
	uint8_t buf[MAX_INSN_LEN];
	struct insn insn;

	if (!kallsyms_lookup(addr, NULL, &start, &size))
		return -EILSEQ;
	int len = (int)MIN((unsigned long)MAX_INSN_LEN, start + size - addr);
	recover_insn(addr, buf, len);
	if (insn_decode(&insn, buf, len))
		return -EILSEQ;
	int ret = refuse_insn(&insn);
	if (ret)
		return ret;

	uint8_t *slot = get_insn_slot();
	if (!slot)
		return -ENOMEM;
	/*
	 * RIP-relative operand: the copy's RIP differs by (slot - addr), so its displacement
	 * must shrink by as much. The slots are in the module area, within 2 GiB of every
	 * probed instruction, and a displacement that would not fit is refused all the same.
	 */
	if (insn_rip_relative(&insn)) {
		int64_t disp = insn.displacement + (int64_t)(addr - (unsigned long)slot);
		int32_t d32 = (int32_t)disp;

		if (disp != d32) {
			free_insn_slot(slot);
			return -EINVAL;
		}
		memcpy(buf + insn.disp_offset, &d32, sizeof(d32));
	}
	text_poke(slot, buf, insn.length);
	p->opcode = buf[0];
	p->ainsn.insn = slot;
	p->ainsn.len = insn.length;
	p->ainsn.fixups = insn_fixups(&insn);
	p->ainsn.if_modifier = false;
	return 0;
}

notrace void arch_arm_kprobe(struct kprobe *p)
{
	static const uint8_t int3 = INT3_INSN_OPCODE;

	text_poke(p->addr, &int3, INT3_INSN_SIZE);
	text_poke_sync();
}

notrace void arch_disarm_kprobe(struct kprobe *p)
{
	text_poke(p->addr, &p->opcode, INT3_INSN_SIZE);
	text_poke_sync();
	/* Once more, the same byte: QEMU drops any translation made from the int3 (text_poke.c) */
	text_poke(p->addr, &p->opcode, INT3_INSN_SIZE);
	text_poke_sync();
}

notrace void arch_remove_kprobe(struct kprobe *p)
{
	if (p->ainsn.insn) {
		free_insn_slot(p->ainsn.insn);
		p->ainsn.insn = NULL;
	}
}

/* --- the int3 and #DB handlers ------------------------------------------------------------ */

struct kprobe_ctlblk kprobe_ctlblks[NR_CPUS];
unsigned long kprobe_step_faults;

notrace struct kprobe *kprobe_running(void)
{
	return READ_ONCE(kprobe_ctlblks[smp_processor_id()].current_kprobe);
}

static notrace void save_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	kcb->prev_kprobe.kp = kcb->current_kprobe;
	kcb->prev_kprobe.status = kcb->kprobe_status;
	kcb->prev_kprobe.old_flags = kcb->kprobe_old_flags;
}

static notrace void restore_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	kcb->current_kprobe = kcb->prev_kprobe.kp;
	kcb->kprobe_status = kcb->prev_kprobe.status;
	kcb->kprobe_old_flags = kcb->prev_kprobe.old_flags;
}

/* Send the CPU into the copy for one instruction, interrupts off, TF on. */
static notrace void setup_singlestep(struct kprobe *p, struct pt_regs *regs,
				     struct kprobe_ctlblk *kcb, bool reenter)
{
	if (reenter) {
		save_previous_kprobe(kcb);
		kcb->kprobe_status = KPROBE_REENTER;
	} else {
		kcb->kprobe_status = KPROBE_HIT_SS;
	}
	kcb->current_kprobe = p;
	kcb->kprobe_old_flags = regs->rflags & (X86_EFLAGS_TF | X86_EFLAGS_IF);
	regs->rflags |= X86_EFLAGS_TF;
	regs->rflags &= ~X86_EFLAGS_IF;
	regs->rip = (unsigned long)p->ainsn.insn;
}

static notrace bool kprobe_int3_handler(struct pt_regs *regs)
{
	if (user_mode(regs))
		return false;
	unsigned long addr = regs->rip - INT3_INSN_SIZE;
	struct kprobe *p = get_kprobe((void *)addr);
	if (!p || kprobe_ftrace(p))
		return false; /* not ours: text_poke's, or a bug (the oops says int3) */
	/* disarmed since: text_poke's handler has this CPU run what is there */
	if (*(volatile uint8_t *)addr != INT3_INSN_OPCODE)
		return false;

	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	/* The probe machinery runs as Linux's int3 does: in NMI context (it can interrupt
	 * anything, the tracer's own writes included), as irqentry_nmi_enter() marks it. */
	preempt_count_add(KPROBE_TRAP_OFFSET);
	if (kcb->current_kprobe) {
		/* A probe inside a handler: step it, report nothing (one level deep). */
		if (kcb->kprobe_status == KPROBE_HIT_SS || kcb->kprobe_status == KPROBE_REENTER)
			panic("kprobes: unrecoverable int3 at %pS while single-stepping",
			      (void *)addr);
		kprobes_inc_nmissed_count(p);
		setup_singlestep(p, regs, kcb, true);
	} else {
		kcb->current_kprobe = p;
		kcb->kprobe_status = KPROBE_HIT_ACTIVE;
		if (!p->pre_handler || !p->pre_handler(p, regs))
			setup_singlestep(p, regs, kcb, false);
		else
			kcb->current_kprobe = NULL; /* the handler moved RIP: no step */
	}
	preempt_count_sub(KPROBE_TRAP_OFFSET);
	return true;
}

/* After the step: make it look as if the instruction had run at its own address. */
static notrace void resume_execution(struct kprobe *p, struct pt_regs *regs,
				     struct kprobe_ctlblk *kcb)
{
	unsigned long copy_ip = (unsigned long)p->ainsn.insn, orig_ip = (unsigned long)p->addr;
	unsigned long *tos = (unsigned long *)regs->rsp;
	uint8_t fix = p->ainsn.fixups;

	regs->rflags &= ~(X86_EFLAGS_TF | X86_EFLAGS_IF);
	regs->rflags |= kcb->kprobe_old_flags;
	if (fix & KPROBE_FIX_PUSHF) {
		*tos &= ~(X86_EFLAGS_TF | X86_EFLAGS_IF);
		*tos |= kcb->kprobe_old_flags;
	}
	if (fix & KPROBE_FIX_CALL)
		*tos = orig_ip + (*tos - copy_ip);
	if (fix & KPROBE_FIX_IP)
		regs->rip = orig_ip + (regs->rip - copy_ip);
}

static notrace bool kprobe_debug_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = kcb->current_kprobe;

	if (user_mode(regs) || !cur || !(kcb->kprobe_status & (KPROBE_HIT_SS | KPROBE_REENTER)))
		return false;
	unsigned long dr6 = read_dr6();
	if (!(dr6 & DR6_BS))
		return false;
	write_dr6(DR6_RESERVED);

	preempt_count_add(KPROBE_TRAP_OFFSET);
	resume_execution(cur, regs, kcb);
	if (kcb->kprobe_status == KPROBE_REENTER) {
		restore_previous_kprobe(kcb);
	} else {
		if (cur->post_handler) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			cur->post_handler(cur, regs, 0);
		}
		kcb->current_kprobe = NULL;
	}
	preempt_count_sub(KPROBE_TRAP_OFFSET);
	return true;
}

notrace bool kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	(void)trapnr;
	if (user_mode(regs))
		return false;
	struct kprobe_ctlblk *kcb = &kprobe_ctlblks[smp_processor_id()];
	struct kprobe *cur = READ_ONCE(kcb->current_kprobe);

	if (likely(!cur) || !(kcb->kprobe_status & (KPROBE_HIT_SS | KPROBE_REENTER)))
		return false;
	if (regs->rip < (unsigned long)cur->ainsn.insn ||
	    regs->rip >= (unsigned long)cur->ainsn.insn + cur->ainsn.len)
		return false; /* not the copy's fault */
	/* As Linux: back to the probed address, flags as they were, the probe let go. The
	 * instruction runs again from its int3 once the fault is dealt with: the pre_handler
	 * runs again too, and this step has no post_handler. */
	__atomic_add_fetch(&kprobe_step_faults, 1, __ATOMIC_RELAXED);
	regs->rip = (unsigned long)cur->addr;
	regs->rflags &= ~(X86_EFLAGS_TF | X86_EFLAGS_IF);
	regs->rflags |= kcb->kprobe_old_flags;
	if (kcb->kprobe_status == KPROBE_REENTER)
		restore_previous_kprobe(kcb);
	else
		kcb->current_kprobe = NULL;
	return true;
}

void arch_init_kprobes(void)
{
	/* In front of text_poke's int3 handler: ours knows which int3s are probes. */
	add_exception_handler(VEC_BREAKPOINT, kprobe_int3_handler);
	add_exception_handler(VEC_DEBUG, kprobe_debug_handler);
}

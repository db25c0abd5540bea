/*
 * Tests for arch/x86_64/uprobes.c: how each kind of probed instruction is run (emulated or
 * stepped out of line), the copy of a rip-relative one rewritten to use a scratch register,
 * what is refused, and the registers after an emulation or a step, as the CPU would leave them.
 * User memory is this process's (the stubs below): a push lands in a buffer here.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "arch/x86_64/uprobes.h"
#include "lib/errno.h"

#define X86_EFLAGS_TF 0x0100UL
#define X86_EFLAGS_ZF 0x0040UL
#define X86_EFLAGS_CF 0x0001UL
#define VADDR 0x401000UL /* where the probed instruction is */
#define SLOT 0x7effffff0080UL /* its out-of-line copy */

/* The kernel's user copies and signal, for the host: memory is ours, a signal is counted. */
unsigned long __copy_user(void *to, const void *from, unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}

/* The trap handler's world, which these tests do not enter. */
struct pt_regs;
typedef bool (*exception_handler_t)(struct pt_regs *regs);
void add_exception_handler(int vector, exception_handler_t fn)
{
	(void)vector, (void)fn;
}
bool uprobe_handle_trap(struct pt_regs *regs)
{
	(void)regs;
	return false;
}
void exit_to_user_mode(struct pt_regs *regs)
{
	(void)regs;
}

static int signals;
struct pt_regs;
void force_sig_fault(struct pt_regs *regs, int sig, unsigned long addr)
{
	(void)regs, (void)sig, (void)addr;
	signals++;
}

static struct arch_uprobe analyze(const uint8_t *b, size_t n, int want)
{
	struct arch_uprobe au;

	assert_int_equal(arch_uprobe_analyze_insn(&au, b, n), want);
	return au;
}

static void test_emulated(void **state)
{
	(void)state;
	static const uint8_t push_rbp[] = {0x55}, push_r13[] = {0x41, 0x55}, nop[] = {0x90},
			     pause[] = {0xf3, 0x90}, call[] = {0xe8, 0x10, 0x00, 0x00, 0x00},
			     jmp8[] = {0xeb, 0xfe}, je32[] = {0x0f, 0x84, 0x00, 0x01, 0x00, 0x00},
			     jne8[] = {0x75, 0x10};
	struct arch_uprobe au = analyze(push_rbp, sizeof(push_rbp), 0);

	assert_int_equal(au.op, UPROBE_OP_PUSH);
	assert_int_equal(au.reg, 5);
	au = analyze(push_r13, sizeof(push_r13), 0);
	assert_int_equal(au.op, UPROBE_OP_PUSH);
	assert_int_equal(au.reg, 13);
	assert_int_equal(analyze(nop, sizeof(nop), 0).op, UPROBE_OP_NOP);
	assert_int_equal(analyze(pause, sizeof(pause), 0).op, UPROBE_OP_NOP);
	au = analyze(call, sizeof(call), 0);
	assert_int_equal(au.op, UPROBE_OP_CALL);
	assert_int_equal(au.offs, 0x10);
	au = analyze(jmp8, sizeof(jmp8), 0);
	assert_int_equal(au.op, UPROBE_OP_JMP);
	assert_int_equal(au.offs, -2);
	au = analyze(je32, sizeof(je32), 0);
	assert_int_equal(au.op, UPROBE_OP_JCC);
	assert_int_equal(au.cond, 4);
	assert_int_equal(au.len, 6);
	assert_int_equal(analyze(jne8, sizeof(jne8), 0).cond, 5);
}

static void test_emulation_moves_registers(void **state)
{
	(void)state;
	static const uint8_t push_rbp[] = {0x55}, call[] = {0xe8, 0x10, 0x00, 0x00, 0x00},
			     je32[] = {0x0f, 0x84, 0x00, 0x01, 0x00, 0x00}, nop[] = {0x90};
	uint64_t stack[4] = {0};
	struct pt_regs regs = {.rbp = 0x1234, .rsp = (uint64_t)&stack[4]};
	struct arch_uprobe au = analyze(push_rbp, 1, 0);

	assert_true(arch_uprobe_skip_sstep(&au, &regs, VADDR));
	assert_int_equal(regs.rip, VADDR + 1);
	assert_int_equal(regs.rsp, (uint64_t)&stack[3]);
	assert_int_equal(stack[3], 0x1234);
	au = analyze(call, sizeof(call), 0);
	assert_true(arch_uprobe_skip_sstep(&au, &regs, VADDR));
	assert_int_equal(regs.rip, VADDR + 5 + 0x10);
	assert_int_equal(stack[2], VADDR + 5); /* the return address */
	au = analyze(je32, sizeof(je32), 0);
	regs.rflags = X86_EFLAGS_ZF;
	assert_true(arch_uprobe_skip_sstep(&au, &regs, VADDR));
	assert_int_equal(regs.rip, VADDR + 6 + 0x100); /* taken */
	regs.rflags = X86_EFLAGS_CF;
	assert_true(arch_uprobe_skip_sstep(&au, &regs, VADDR));
	assert_int_equal(regs.rip, VADDR + 6); /* not taken */
	au = analyze(nop, 1, 0);
	assert_true(arch_uprobe_skip_sstep(&au, &regs, VADDR));
	assert_int_equal(regs.rip, VADDR + 1);
	assert_int_equal(signals, 0);
}

static void test_stepped_and_fixups(void **state)
{
	(void)state;
	static const uint8_t lea[] = {0x8d, 0x44, 0x7f, 0x01}, ret[] = {0xc3},
			     jmp_rax[] = {0xff, 0xe0}, call_rax[] = {0xff, 0xd0}, pushf[] = {0x9c},
			     xchg_r8[] = {0x41, 0x90}, vmovdqa[] = {0xc5, 0xf9, 0x6f, 0xc1};
	struct arch_uprobe au = analyze(lea, sizeof(lea), 0);

	assert_int_equal(au.op, UPROBE_OP_XOL);
	assert_int_equal(au.fixups, UPROBE_FIX_IP);
	assert_int_equal(au.len, 4);
	assert_int_equal(analyze(ret, 1, 0).fixups, 0);
	assert_int_equal(analyze(jmp_rax, 2, 0).fixups, 0);
	assert_int_equal(analyze(call_rax, 2, 0).fixups, UPROBE_FIX_CALL);
	assert_int_equal(analyze(pushf, 1, 0).fixups, UPROBE_FIX_IP | UPROBE_FIX_PUSHF);
	assert_int_equal(analyze(xchg_r8, 2, 0).op, UPROBE_OP_XOL); /* not a nop with REX.B */
	assert_int_equal(analyze(vmovdqa, sizeof(vmovdqa), 0).len, 4);
}

/* The copy addresses the operand through a scratch register; the displacement stays. */
static void test_rip_relative_rewrite(void **state)
{
	(void)state;
	static const struct {
		uint8_t bytes[8];
		size_t len, modrm_at;
		uint8_t scratch, modrm, rex;
	} cases[] = {
		/* mov 0x8c32(%rip),%eax: reg 0, scratch %rsi */
		{{0x8b, 0x05, 0x32, 0x8c, 0x00, 0x00}, 6, 1, 6, 0x86, 0},
		/* cmpl $-1,disp(%rip): 83 /7, reg field 7, scratch %rsi (bash's readline) */
		{{0x83, 0x3d, 0xf9, 0x75, 0x07, 0x00, 0xff}, 7, 1, 6, 0xbe, 0},
		/* mov disp(%rip),%r14: REX.R, reg field 6: scratch %rdi */
		{{0x4c, 0x8b, 0x35, 0x10, 0x00, 0x00, 0x00}, 7, 2, 7, 0xb7, 0x4c},
		/* REX.W|B: the B goes, as the scratch is one of the first eight */
		{{0x49, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00}, 7, 2, 6, 0x86, 0x48},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct arch_uprobe au = analyze(cases[i].bytes, cases[i].len, 0);

		assert_int_equal(au.fixups, UPROBE_FIX_IP | UPROBE_FIX_RIP_SCRATCH);
		assert_int_equal(au.scratch, cases[i].scratch);
		assert_int_equal(au.ixol[cases[i].modrm_at], cases[i].modrm);
		if (cases[i].rex)
			assert_int_equal(au.ixol[0], cases[i].rex);
		/* everything after ModRM (displacement, immediate) as it was */
		assert_memory_equal(au.ixol + cases[i].modrm_at + 1,
				    cases[i].bytes + cases[i].modrm_at + 1,
				    cases[i].len - cases[i].modrm_at - 1);
		assert_memory_equal(au.insn, cases[i].bytes, cases[i].len);
	}
}

static void test_step_registers(void **state)
{
	(void)state;
	static const uint8_t mov[] = {0x8b, 0x05, 0x32, 0x8c, 0x00, 0x00};
	struct arch_uprobe au = analyze(mov, sizeof(mov), 0);
	struct arch_uprobe_task at;
	struct pt_regs regs = {.rsi = 77, .rflags = 0x202};

	arch_uprobe_pre_xol(&au, &at, &regs, VADDR, SLOT);
	assert_int_equal(regs.rip, SLOT);
	assert_true(regs.rflags & X86_EFLAGS_TF);
	assert_int_equal(regs.rsi, VADDR + 6); /* the rip the instruction would have seen */
	regs.rip = SLOT + 6; /* the CPU ran it */
	assert_int_equal(arch_uprobe_post_xol(&au, &at, &regs, VADDR, SLOT), 0);
	assert_int_equal(regs.rip, VADDR + 6);
	assert_int_equal(regs.rsi, 77);
	assert_int_equal(regs.rflags, 0x202);
	/* A fault in the slot: back at the probed instruction, nothing borrowed kept. */
	arch_uprobe_pre_xol(&au, &at, &regs, VADDR, SLOT);
	arch_uprobe_abort_xol(&au, &at, &regs, VADDR);
	assert_int_equal(regs.rip, VADDR);
	assert_int_equal(regs.rsi, 77);
	assert_int_equal(regs.rflags, 0x202);
}

static void test_indirect_call_return_address(void **state)
{
	(void)state;
	static const uint8_t call_rax[] = {0xff, 0xd0};
	struct arch_uprobe au = analyze(call_rax, 2, 0);
	struct arch_uprobe_task at;
	uint64_t stack[2] = {0, SLOT + 2}; /* what the call in the slot pushed */
	struct pt_regs regs = {.rsp = (uint64_t)&stack[1]};

	arch_uprobe_pre_xol(&au, &at, &regs, VADDR, SLOT);
	regs.rip = 0x402000; /* its target */
	assert_int_equal(arch_uprobe_post_xol(&au, &at, &regs, VADDR, SLOT), 0);
	assert_int_equal(regs.rip, 0x402000);
	assert_int_equal(stack[1], VADDR + 2);
}

static void test_refused(void **state)
{
	(void)state;
	static const uint8_t int3[] = {0xcc}, int80[] = {0xcd, 0x80}, syscall[] = {0x0f, 0x05},
			     loop[] = {0xe2, 0xfe}, jmp16[] = {0x66, 0xe9, 0x00, 0x00, 0x00, 0x00},
			     vex_rip[] = {0xc5, 0xfd, 0x6f, 0x05, 0x10, 0x00, 0x00, 0x00},
			     cut[] = {0x8b, 0x05, 0x32};

	analyze(int3, 1, -ENOTSUPP);
	analyze(int80, 2, -ENOTSUPP);
	analyze(syscall, 2, -ENOTSUPP);
	analyze(loop, 2, -ENOTSUPP);
	analyze(jmp16, sizeof(jmp16), -ENOTSUPP);
	analyze(vex_rip, sizeof(vex_rip), -ENOTSUPP);
	analyze(cut, sizeof(cut), -EINVAL); /* the page ends inside it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emulated),
		cmocka_unit_test(test_emulation_moves_registers),
		cmocka_unit_test(test_stepped_and_fixups),
		cmocka_unit_test(test_rip_relative_rewrite),
		cmocka_unit_test(test_step_registers),
		cmocka_unit_test(test_indirect_call_return_address),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

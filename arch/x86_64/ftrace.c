/*
 * The x86 half of dynamic ftrace: what a call site's five bytes look like, and how they change.
 *
 * A site is one of:
 *     e8 <rel32 to __fentry__>      as gcc emitted it (until ftrace_init)
 *     0f 1f 44 00 00                the 5-byte NOP, "nopl 0x0(%rax,%rax,1)": tracing off
 *     e8 <rel32 to ftrace_caller>   tracing on
 *     e8 <rel32 to ftrace_regs_caller>  tracing on, for an ops that wants every register
 * rel32 is relative to the end of the instruction: target - (ip + 5).
 *
 * Before changing a site we check it holds exactly what we expect: if it does not, someone
 * else changed it (or the table is wrong) and writing would corrupt code, so we refuse.
 *
 * Not traced: it patches the tracer's own call sites.
 */
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/text_poke.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "lib/compiler.h"

const uint8_t ftrace_nop_insn[MCOUNT_INSN_SIZE] = {BYTES_NOP5};

notrace void ftrace_call_insn(unsigned long ip, unsigned long target, uint8_t out[MCOUNT_INSN_SIZE])
{
	int32_t rel = (int32_t)(target - (ip + MCOUNT_INSN_SIZE));
	out[0] = CALL_INSN_OPCODE;
	memcpy(out + 1, &rel, sizeof(rel));
}

notrace bool ftrace_site_is(unsigned long ip, const uint8_t expected[MCOUNT_INSN_SIZE])
{
	return memcmp((const void *)ip, expected, MCOUNT_INSN_SIZE) == 0;
}

/* Whether the site holds what the compiler put there: a call of __fentry__. */
static notrace bool ftrace_site_calls_fentry(unsigned long ip)
{
	uint8_t call[MCOUNT_INSN_SIZE];

	ftrace_call_insn(ip, (unsigned long)__fentry__, call);
	return ftrace_site_is(ip, call);
}

/* Boot only, one CPU: no other CPU can be executing the site, so a plain write is safe. */
notrace int ftrace_make_nop_early(unsigned long ip)
{
	if (!ftrace_site_calls_fentry(ip))
		return -EINVAL;
	text_poke((void *)ip, ftrace_nop_insn, MCOUNT_INSN_SIZE);
	return 0;
}

/*
 * A module's site, before its text is executable (kernel/module/main.c maps it read-write and
 * no-execute until then): no CPU can be executing it, and the page is writable where it is, so
 * a plain write is safe. As Linux's ftrace_module_init, before module_enable_ro.
 */
notrace int ftrace_make_nop_module(unsigned long ip)
{
	if (!ftrace_site_calls_fentry(ip))
		return -EINVAL;
	memcpy((void *)ip, ftrace_nop_insn, MCOUNT_INSN_SIZE);
	return 0;
}

notrace int ftrace_check_site(unsigned long ip, unsigned long addr)
{
	uint8_t insn[MCOUNT_INSN_SIZE];

	ftrace_new_insn(ip, addr, insn);
	return ftrace_site_is(ip, insn) ? 0 : -EINVAL;
}

notrace void ftrace_new_insn(unsigned long ip, unsigned long addr, uint8_t out[MCOUNT_INSN_SIZE])
{
	if (addr)
		ftrace_call_insn(ip, addr, out);
	else
		memcpy(out, ftrace_nop_insn, MCOUNT_INSN_SIZE);
}

notrace bool ftrace_is_site_insn(const volatile uint8_t *insn)
{
	bool nop = true;

	for (int i = 0; i < MCOUNT_INSN_SIZE; i++)
		nop &= insn[i] == ftrace_nop_insn[i];
	return nop || insn[0] == CALL_INSN_OPCODE;
}

notrace const char *ftrace_describe_site(unsigned long ip)
{
	const uint8_t *p = (const uint8_t *)ip;
	int32_t rel;
	if (ftrace_site_is(ip, ftrace_nop_insn))
		return "nop";
	if (p[0] == INT3_INSN_OPCODE)
		return "int3 (being patched)";
	if (p[0] != CALL_INSN_OPCODE)
		return "unknown";
	memcpy(&rel, p + 1, sizeof(rel));
	unsigned long target = ip + MCOUNT_INSN_SIZE + rel;
	if (target == FTRACE_ADDR)
		return "call ftrace_caller";
	if (target == FTRACE_REGS_ADDR)
		return "call ftrace_regs_caller";
	if (target == (unsigned long)__fentry__)
		return "call __fentry__";
	return "call (unknown target)";
}

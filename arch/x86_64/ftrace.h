/*
 * The x86 side of dynamic ftrace: call sites and trampolines (arch/x86_64/ftrace.c, ftrace_64.S).
 */
#ifndef ARCH_FTRACE_H
#define ARCH_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86_64/insn.h"

/* A call site: "call rel32", or the NOP of the same size that replaces it. */
#define MCOUNT_INSN_SIZE CALL_INSN_SIZE
_Static_assert(NOP5_INSN_SIZE == MCOUNT_INSN_SIZE, "a site's NOP is as long as its call");

extern const uint8_t ftrace_nop_insn[MCOUNT_INSN_SIZE];
void __fentry__(void);
void ftrace_caller(void);
void ftrace_regs_caller(void);
void ftrace_stub(void);

/*
 * What an enabled site calls (Linux's names): ftrace_caller, which saves what the callbacks of
 * most ops need, or ftrace_regs_caller, which also saves a whole struct pt_regs, for the sites
 * an ops with FTRACE_OPS_FL_SAVE_REGS wants (trace/ftrace.h). A disabled site holds the NOP.
 */
#define FTRACE_ADDR ((unsigned long)ftrace_caller)
#define FTRACE_REGS_ADDR ((unsigned long)ftrace_regs_caller)

void ftrace_call_insn(unsigned long ip, unsigned long target, uint8_t out[MCOUNT_INSN_SIZE]);
bool ftrace_site_is(unsigned long ip, const uint8_t expected[MCOUNT_INSN_SIZE]);
/* Checks "call __fentry__" and writes the NOP; -EINVAL if the site holds something else. */
int ftrace_make_nop_early(unsigned long ip);
/* The same for a module's site, while its text is still writable and not executable. */
int ftrace_make_nop_module(unsigned long ip);
/*
 * 0 if the site holds what it should: a call to addr (FTRACE_ADDR or FTRACE_REGS_ADDR), or the
 * NOP when addr is 0. ftrace_new_insn writes that instruction for the site into out.
 */
int ftrace_check_site(unsigned long ip, unsigned long addr);
void ftrace_new_insn(unsigned long ip, unsigned long addr, uint8_t out[MCOUNT_INSN_SIZE]);
/*
 * True if insn is one of the two instructions dynamic ftrace leaves at a site between changes
 * (the NOP, or a call): text_poke's int3 handler asks, and skips such a site whole.
 */
bool ftrace_is_site_insn(const volatile uint8_t *insn);
/*
 * "nop", "call ftrace_caller", "call ftrace_regs_caller", "call __fentry__",
 * "int3 (being patched)" or "unknown".
 */
const char *ftrace_describe_site(unsigned long ip);

#endif

/* The stack protector's canary (kernel/debug/stackprotector.c). */
#ifndef KERNEL_STACKPROTECTOR_H
#define KERNEL_STACKPROTECTOR_H

#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"

extern unsigned long __stack_chk_guard;

/*
 * Picks the canary: the first thing kmain does, before any function with a canary has run.
 * Inline, so that it has no frame (and no canary) of its own; kmain itself is built without a
 * canary, because its frame was set up before the value changed (it never returns anyway).
 *
 * The TSC at boot is not secret, but it differs from boot to boot, which is all that a canary
 * against accidents needs. Multiplying spreads its changing low bits over the whole word. The
 * low byte is then cleared, as Linux does: a runaway string copy stops at that NUL, so it can
 * neither read the canary out nor write it back intact.
 */
static __always_inline void boot_init_stack_canary(void)
{
	unsigned long canary = (unsigned long)rdtsc() * 0x9e3779b97f4a7c15UL;

	__stack_chk_guard = canary & ~0xffUL;
}

#endif

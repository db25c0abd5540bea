/* Changing kernel code while it runs (arch/x86_64/text_poke.c). */
#ifndef ARCH_TEXT_POKE_H
#define ARCH_TEXT_POKE_H

#include <stddef.h>
#include <stdint.h>

#define POKE_INSN_MAX 5 /* the longest instruction we replace: a 5-byte call or NOP */

struct text_poke_loc {
	unsigned long addr;
	uint8_t new_insn[POKE_INSN_MAX];
};

void text_poke_init(void);
/* Writes len bytes at addr (kernel text) through a temporary writable alias. */
void text_poke(void *addr, const void *src, size_t len);
/* Replaces the 5-byte instruction at each loc->addr on a running SMP system (int3 protocol).
 * locs must be sorted by address. Call with interrupts enabled. */
void text_poke_bp_batch(const struct text_poke_loc *locs, int n);
/* Makes every CPU serialize its instruction stream. */
void text_poke_sync(void);

#endif

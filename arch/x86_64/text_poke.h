/* Changing kernel code while it runs (arch/x86_64/text_poke.c). */
#ifndef ARCH_TEXT_POKE_H
#define ARCH_TEXT_POKE_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>
#include "arch/x86_64/insn.h"

/* The longest instruction text_poke_bp_batch replaces: a call rel32. Each site is this long. */
#define POKE_INSN_MAX CALL_INSN_SIZE

struct text_poke_loc {
	unsigned long addr;
	uint8_t new_insn[POKE_INSN_MAX];
};

void text_poke_init(void);
/* Writes len bytes at addr (kernel text) through a temporary writable alias. */
void text_poke(void *addr, const void *src, size_t len);
/* Replaces the 5-byte instruction at each loc->addr on a running SMP system (int3 protocol).
 * locs must be sorted by address. Task context, interrupts enabled: it takes text_mutex
 * (one batch at a time) and waits for every CPU. */
void text_poke_bp_batch(const struct text_poke_loc *locs, int n);
/* Makes every CPU serialize its instruction stream. */
void text_poke_sync(void);

/*
 * Whoever patches sites with text_poke_bp_batch says what they hold between batches: a CPU that
 * runs a stale int3 at a site that fn recognizes skips the whole site (POKE_INSN_MAX bytes), as
 * during a batch, rather than run it again (text_poke.c explains). text_poke itself only moves
 * bytes: which bytes, and what they mean, is its caller's business (dynamic ftrace's).
 */
typedef bool (*text_poke_site_fn)(const volatile uint8_t *insn);
void text_poke_set_site_insn(text_poke_site_fn fn);

#endif

/*
 * arch/x86_64/page_64.h - zeroing and copying a whole page, as Linux's clear_page and
 * copy_page. A page is 4096 bytes, a multiple of 8, and page-aligned: rep stosq / rep movsq move
 * 8 bytes a step, 512 steps a page, where memset's rep stosb takes 4096. That is the bulk of a
 * page fault's and a fork's cost (each new page table is zeroed), so it is worth its own
 * function (and under `-icount`, where each step is counted as an instruction, plain to see).
 */
#ifndef ARCH_PAGE_64_H
#define ARCH_PAGE_64_H

#include "lib/compiler.h"

#define PAGE_QWORDS (4096 / 8)

static __always_inline void clear_page(void *page)
{
	unsigned long n = PAGE_QWORDS;

	__asm__ __volatile__("rep stosq" : "+D"(page), "+c"(n) : "a"(0UL) : "memory");
}

static __always_inline void copy_page(void *to, const void *from)
{
	unsigned long n = PAGE_QWORDS;

	__asm__ __volatile__("rep movsq" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}

/* n quadwords from from to to, which do not overlap: a pgd's kernel half, say. */
static __always_inline void copy_qwords(void *to, const void *from, unsigned long n)
{
	__asm__ __volatile__("rep movsq" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}

#endif

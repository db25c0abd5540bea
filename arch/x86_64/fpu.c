/*
 * The FPU and SSE registers of user tasks: what fpu.h says, in a few instructions.
 *
 * Not traced: fpu_save and fpu_restore run inside the scheduler's switch.
 */
#include "arch/x86_64/fpu.h"
#include "kernel/mm/page_alloc.h"
#include "lib/compiler.h"
#include "lib/string.h"

#define CR0_MP (1UL << 1) /* WAIT/FWAIT honour TS */
#define CR0_EM (1UL << 2) /* no FPU: emulate (must be clear for SSE) */
#define CR0_TS (1UL << 3) /* task switched: the next FPU instruction traps */
#define CR4_OSFXSR (1UL << 9) /* the OS saves SSE state with FXSAVE: SSE allowed */
#define CR4_OSXMMEXCPT (1UL << 10) /* SSE exceptions as #XM, not #UD */
#define FCW_DEFAULT 0x037f /* all x87 exceptions masked, 64-bit precision: FNINIT's */
#define MXCSR_DEFAULT 0x1f80 /* all SSE exceptions masked, round to nearest */
#define FXSAVE_FCW 0 /* offsets in the FXSAVE area */
#define FXSAVE_MXCSR 24
#define FXSAVE_MXCSR_MASK 28
#define MXCSR_MASK_DEFAULT 0xffbf

void fpu_init_this_cpu(void)
{
	unsigned long cr0, cr4;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 | CR0_MP) & ~(CR0_EM | CR0_TS);
	__asm__ __volatile__("mov %0, %%cr0" : : "r"(cr0));
	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4));
}

void fpu_init_state(struct fpu *fpu)
{
	uint16_t fcw = FCW_DEFAULT;
	uint32_t mxcsr = MXCSR_DEFAULT;

	memset(fpu, 0, sizeof(*fpu));
	memcpy(fpu->fxsave + FXSAVE_FCW, &fcw, sizeof(fcw));
	memcpy(fpu->fxsave + FXSAVE_MXCSR, &mxcsr, sizeof(mxcsr));
}

/* A page each: 512 bytes aligned to 16, without asking the slab allocator for alignment. */
struct fpu *fpu_alloc(void)
{
	struct fpu *fpu = alloc_page_zeroed();

	if (fpu)
		fpu_init_state(fpu);
	return fpu;
}

/*
 * MXCSR bits a program may set: FXRSTOR faults (#GP, in the kernel) on any other, so state read
 * back from a signal frame is masked with this first. The CPU says which in FXSAVE's
 * MXCSR_MASK field; 0 there means the original 0xffbf.
 */
uint32_t fpu_mxcsr_mask(void)
{
	struct fpu probe; /* aligned(16): the compiler aligns it on the stack */
	uint32_t mask;

	__asm__ __volatile__("fxsaveq %0" : "=m"(probe));
	memcpy(&mask, probe.fxsave + FXSAVE_MXCSR_MASK, sizeof(mask));
	return mask ? mask : MXCSR_MASK_DEFAULT;
}

void fpu_free(struct fpu *fpu)
{
	free_pages(fpu, 1);
}

notrace void fpu_save(struct fpu *fpu)
{
	__asm__ __volatile__("fxsaveq %0" : "=m"(*fpu));
}

notrace void fpu_restore(const struct fpu *fpu)
{
	__asm__ __volatile__("fxrstorq %0" : : "m"(*fpu));
}

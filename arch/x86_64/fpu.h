/*
 * The FPU and SSE registers of user tasks (arch/x86_64/fpu.c).
 *
 * The kernel is built with -mno-sse -mgeneral-regs-only (Makefile): it never touches these
 * registers, so they belong to whichever user task last ran on the CPU. The scheduler saves them
 * (FXSAVE, 512 bytes) when a user task leaves the CPU and restores them (FXRSTOR) when one comes
 * back; kernel threads cost nothing. musl and glibc use SSE for memcpy and friends from the
 * first instruction, so a program without this would see another program's registers.
 */
#ifndef ARCH_FPU_H
#define ARCH_FPU_H

#include <stdint.h>

#define FXSAVE_SIZE 512

struct fpu {
	uint8_t fxsave[FXSAVE_SIZE] __attribute__((aligned(16)));
};

void fpu_init_this_cpu(void); /* CR0/CR4: SSE on, exceptions reported as on Linux */
struct fpu *fpu_alloc(void); /* the state a new program starts with, as after FNINIT */
void fpu_free(struct fpu *fpu);
void fpu_init_state(struct fpu *fpu); /* FNINIT's state, as a new program and a handler start */
uint32_t fpu_mxcsr_mask(void);       /* the MXCSR bits FXRSTOR accepts */
#define FXSAVE_MXCSR_OFFSET 24
void fpu_save(struct fpu *fpu);
void fpu_restore(const struct fpu *fpu);

#endif

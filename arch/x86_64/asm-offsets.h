/*
 * Offsets the assembly needs into C structures, checked by _Static_assert beside each structure
 * (kernel/percpu.h, arch/x86_64/regs.h): change one and the build says where the other is.
 * Included by .S files too, so only #defines here.
 */
#ifndef ARCH_ASM_OFFSETS_H
#define ARCH_ASM_OFFSETS_H

#define CPU_TOP_OF_STACK 8 /* struct cpu: top_of_stack */
#define CPU_USER_RSP 16    /* struct cpu: user_rsp */
#define PTREGS_SIZE (22 * 8) /* struct pt_regs */

#endif

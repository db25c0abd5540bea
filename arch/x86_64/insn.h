/*
 * The x86 instructions the kernel writes into its own code, or recognizes there: their opcodes
 * and sizes, in one place (Linux: asm/text-patching.h and asm/nops.h, with the same names).
 *
 * Dynamic ftrace turns each function's "call __fentry__" into NOP5 and back into a call
 * (arch/x86_64/ftrace.c, ftrace_64.S); text_poke briefly puts an INT3 over the first byte of an
 * instruction while it changes (arch/x86_64/text_poke.c); a static key turns NOP5 into a JMP32
 * and back (arch/x86_64/jump_label.c); a backtrace steps over the call site
 * to find the prologue (arch/x86_64/traps.c). Safe to include from assembly.
 */
#ifndef ARCH_X86_64_INSN_H
#define ARCH_X86_64_INSN_H

/* int3: the one-byte breakpoint. A trap: the saved RIP is the byte after it. */
#define INT3_INSN_SIZE 1
#define INT3_INSN_OPCODE 0xCC

/* call rel32: the opcode, then a 32-bit displacement from the end of the instruction. */
#define CALL_INSN_SIZE 5
#define CALL_INSN_OPCODE 0xE8

/* jmp rel32: the opcode, then a 32-bit displacement from the end of the instruction. */
#define JMP32_INSN_SIZE 5
#define JMP32_INSN_OPCODE 0xE9

/* The 5-byte NOP, "nopl 0x0(%rax,%rax,1)": one instruction, so a CPU never runs half of it. */
#define NOP5_INSN_SIZE 5
#define BYTES_NOP5 0x0f, 0x1f, 0x44, 0x00, 0x00

/* push %rbp: the first instruction of a function's frame-pointer prologue. */
#define PUSH_RBP_INSN_OPCODE 0x55

#endif

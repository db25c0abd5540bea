/*
 * The x86-64 half of static keys (Linux: arch/x86/include/asm/jump_label.h).
 *
 * A static branch is one 5-byte instruction in the code that tests it: NOP5 (fall through to the
 * code that follows) or JMP32 to the branch's other side, and one entry in the section
 * __jump_table saying where that instruction is, where the jump goes, and which key decides
 * (struct jump_entry, kernel/jump_label.h). The asm goto below emits both at once: the compiler
 * knows the instruction may go to l_yes, so it lays out both paths, the likely one falling
 * through; it does not know which is taken, which only the bytes at run time say.
 *
 * kernel/jump_label.c decides, for each entry, which of the two the key's state wants, and asks
 * arch_jump_label_transform_queue() (jump_label.c here) to write it with text_poke.
 */
#ifndef ARCH_X86_64_JUMP_LABEL_H
#define ARCH_X86_64_JUMP_LABEL_H

#include <stdbool.h>
#include "arch/x86_64/insn.h"
#include "lib/compiler.h"

#define JUMP_LABEL_NOP_SIZE NOP5_INSN_SIZE /* the site is this long, NOP or JMP */

#define __jl_stringify_1(x...) #x
#define __jl_stringify(x...) __jl_stringify_1(x)

/*
 * One entry: three absolute addresses, {code, target, key}, 8-byte aligned. The key's address
 * is a struct's, so at least 4-aligned (static_key is an int): its low bit carries `branch`,
 * the direction the code was written for (struct jump_entry says what it means). Linux stores
 * code and target as 32-bit offsets from the entry itself, half the size; absolute addresses
 * read more easily in a debugger and need no arithmetic here.
 */
#define JUMP_TABLE_ENTRY(key, branch, label)                       \
	".pushsection __jump_table, \"aw\"\n\t"                    \
	".balign 8\n\t"                                            \
	".quad 1b, %l[" #label "], %c" #key " + %c" #branch "\n\t" \
	".popsection\n\t"

struct static_key;

/* The two instructions a site starts as, at label 1 (the entry's code). */
#define JUMP_LABEL_NOP_ASM "1: .byte " __jl_stringify(BYTES_NOP5) "\n\t"
#define JUMP_LABEL_JMP_ASM \
	"1: .byte " __jl_stringify(JMP32_INSN_OPCODE) "\n\t.long %l[l_yes] - 2f\n2:\n\t"

/* The site starts as a NOP: false until patched (the key's default is off for this branch). */
static __always_inline bool arch_static_branch(struct static_key *key, bool branch)
{
	__asm__ goto(JUMP_LABEL_NOP_ASM JUMP_TABLE_ENTRY(0, 1, l_yes)
		     :
		     : "i"(key), "i"(branch)
		     :
		     : l_yes);
	return false;
l_yes:
	return true;
}

/* The site starts as a jump to l_yes: true until patched. Always the 5-byte form, as patched. */
static __always_inline bool arch_static_branch_jump(struct static_key *key, bool branch)
{
	__asm__ goto(JUMP_LABEL_JMP_ASM JUMP_TABLE_ENTRY(0, 1, l_yes)
		     :
		     : "i"(key), "i"(branch)
		     :
		     : l_yes);
	return false;
l_yes:
	return true;
}

#endif

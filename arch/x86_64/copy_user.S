/*
 * arch/x86_64/copy_user.S - the only instructions that touch user memory for the kernel.
 *
 * A user pointer handed to a system call may point anywhere: nowhere mapped, or at a page the
 * program unmapped a moment ago. Checking first would race with the program and cost a page
 * table walk; instead the kernel just does the access, and if it faults, the page fault handler
 * finds the faulting instruction in the exception table (__ex_table: pairs of "this instruction,
 * continue there"), and resumes at the fixup, which returns an error. So a bad pointer costs
 * nothing until it is bad, and then becomes -EFAULT, as in Linux (arch/x86/lib/copy_user_64.S).
 * The callers (arch/x86_64/uaccess.h) first check that the range is below the kernel half.
 *
 * Not traced: the fixup must find the registers as the fault left them.
 */
#define EFAULT 14

/* One exception table entry: a fault at `from` resumes at `to`. */
.macro _ASM_EXTABLE from, to
	.pushsection __ex_table, "a"
	.balign 8
	.quad \from, \to
	.popsection
.endm

	.text
/*
 * unsigned long __copy_user(void *to, const void *from, unsigned long n)
 * Returns the number of bytes NOT copied: 0 when all went well.
 */
	.globl __copy_user
__copy_user:
	movq %rdx, %rcx
1:	rep movsb
	xorl %eax, %eax
	ret
2:	movq %rcx, %rax		/* rep movsb counts RCX down: what is left */
	ret
	_ASM_EXTABLE 1b, 2b

/*
 * long __strncpy_from_user(char *dst, const char *src, long count)
 * Copies up to and including the NUL, at most count bytes. Returns the string's length, or
 * count if no NUL came within count bytes, or -EFAULT.
 */
	.globl __strncpy_from_user
__strncpy_from_user:
	xorl %eax, %eax
1:	cmpq %rdx, %rax
	je 3f
2:	movb (%rsi,%rax), %cl
	movb %cl, (%rdi,%rax)
	testb %cl, %cl
	jz 3f
	incq %rax
	jmp 1b
3:	ret
4:	movq $-EFAULT, %rax
	ret
	_ASM_EXTABLE 2b, 4b

/*
 * long __clear_user(void *to, unsigned long n): zeroes n bytes; returns the bytes not zeroed.
 */
	.globl __clear_user
__clear_user:
	movq %rsi, %rcx
	xorl %eax, %eax
1:	rep stosb
	ret
2:	movq %rcx, %rax
	ret
	_ASM_EXTABLE 1b, 2b

/*
 * int __futex_cmpxchg_user(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur)
 * One atomic compare-and-exchange of a user word, as a futex's robust-list cleanup needs it (the
 * owner's word changes under it from other CPUs): *cur is what the word held. 0, or -EFAULT.
 */
	.globl __futex_cmpxchg_user
__futex_cmpxchg_user:
	movl %esi, %eax
1:	lock cmpxchgl %edx, (%rdi)
	movl %eax, (%rcx)
	xorl %eax, %eax
	ret
2:	movq $-EFAULT, %rax
	ret
	_ASM_EXTABLE 1b, 2b

/*
 * -fstack-protector-strong: the kernel's side.
 *
 * gcc gives every function with a local array (or a local whose address is taken) a canary: on
 * entry it copies __stack_chk_guard into the frame, between the locals and the saved frame
 * pointer and return address; before returning it compares the copy with the original and
 * calls __stack_chk_fail() if they differ. A buffer overrun that reaches the return address
 * must first overwrite the canary, so it is caught before the corrupted return address is used.
 *
 * Linux keeps the canary per task, at %gs:40 on x86_64 (gcc's default, where user space keeps
 * it in the thread block). Lucid uses one global value (-mstack-protector-guard=global), set
 * once at boot: simpler, and code running before the per-CPU area exists is covered too.
 *
 * Not traced, so that a corrupted stack is reported without the tracer's help.
 */
#include "kernel/debug/stackprotector.h"
#include "kernel/panic.h"

unsigned long __stack_chk_guard;

notrace __noreturn void __stack_chk_fail(void)
{
	/* The call is the last thing in its function: back up one byte to name that function. */
	panic("stack-protector: Kernel stack is corrupted in: %pS",
	      (void *)((unsigned long)__builtin_return_address(0) - 1));
}

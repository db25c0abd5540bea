/*
 * uprobes: breakpoints in user programs (kernel/events/uprobes.c), Linux 6.1's kernel API
 * (include/linux/uprobes.h): a probe is a file and an offset in it, and every process that
 * maps that byte of the file hits it.
 */
#ifndef KERNEL_EVENTS_UPROBES_H
#define KERNEL_EVENTS_UPROBES_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86_64/regs.h"

struct inode;
struct mm_struct;
struct vm_area_struct;
struct task;

typedef long loff_t;

enum uprobe_filter_ctx {
	UPROBE_FILTER_REGISTER,
	UPROBE_FILTER_UNREGISTER,
	UPROBE_FILTER_MMAP,
};

/*
 * Who wants to hear of a hit: handler at the probed instruction (regs as the program's, rip
 * the probe's address), ret_handler when the function entered there returns (func: its
 * address; regs at the return, rax its value), filter (may be NULL) whether the breakpoint
 * goes into mm at all. handler's return value is Linux's (UPROBE_HANDLER_REMOVE is not kept:
 * the breakpoint stays). Called with interrupts off, in the process that hit it.
 */
struct uprobe_consumer {
	int (*handler)(struct uprobe_consumer *self, struct pt_regs *regs);
	int (*ret_handler)(struct uprobe_consumer *self, unsigned long func, struct pt_regs *regs);
	bool (*filter)(struct uprobe_consumer *self, enum uprobe_filter_ctx ctx,
		       struct mm_struct *mm);
	struct uprobe_consumer *next;
};

/*
 * Adds uc to the probe at offset in inode's file, made and armed in every process that maps
 * it now (and later ones) if it is the first. The caller keeps inode alive until it
 * unregisters (trace_uprobe holds its path). Sleeps; not under the VFS lock's callers' own
 * locks other than the VFS lock. 0, -EINVAL (offset past the file), -ENOMEM, or -ENOTSUPP
 * (an instruction that cannot be probed: found when first armed, as Linux).
 */
int uprobe_register(struct inode *inode, loff_t offset, struct uprobe_consumer *uc);
/*
 * The same, for a probe with an SDT semaphore: the short at file offset ref_ctr_offset (in the
 * file's writable data) goes up by one in each process while the probe's int3 is in it.
 * -EINVAL if ref_ctr_offset is odd, or the probe exists with another (Linux's).
 */
int uprobe_register_refctr(struct inode *inode, loff_t offset, loff_t ref_ctr_offset,
			   struct uprobe_consumer *uc);
/* Takes uc off; the last consumer's going removes the breakpoints. uc may be freed after. */
void uprobe_unregister(struct inode *inode, loff_t offset, struct uprobe_consumer *uc);

/* Hooks for mm, fork, exec and exit. */
void uprobe_mmap(struct mm_struct *mm, struct vm_area_struct *vma); /* mmap_lock held */
void uprobe_exec(struct mm_struct *mm); /* exec: mm is the task's now */
/* fork: around dup_mm; then uprobe_forked once the child task has the copy (or it is freed). */
void uprobe_start_dup_mmap(void);
void uprobe_end_dup_mmap(struct mm_struct *mm);
void uprobe_forked(struct mm_struct *mm);
int uprobe_dup_mmap(struct mm_struct *old, struct mm_struct *mm); /* old's mmap_lock held */
void uprobe_copy_process(struct task *child, unsigned long clone_flags);
void uprobe_free_utask(struct task *t);
void uprobe_clear_state(struct mm_struct *mm);

/*
 * arch/x86_64/uprobes.c: an int3 or a debug trap in user mode. true: a uprobe's (its work
 * done, regs set to go on); false: the program's own, which gets SIGTRAP.
 */
bool uprobe_handle_trap(struct pt_regs *regs);
/*
 * exit_to_user_mode (arch/x86_64/syscall_64.c), with signal work to do: true if the task is
 * half-way through a probe's step, which must be done first (the caller leaves the signals
 * pending, clears TIF_SIGPENDING and goes back to ring 3 to run the copy; its #DB sets the flag
 * again). A fatal signal or a fault of the copy gives the step up instead (false: the task
 * stands at the probed instruction, the signal is taken there). Linux's uprobe_deny_signal.
 */
bool uprobe_deny_signal(struct pt_regs *regs);

#endif

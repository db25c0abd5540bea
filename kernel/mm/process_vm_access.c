/*
 * process_vm_readv and process_vm_writev (Linux's mm/process_vm_access.c): copying between the
 * caller's memory and another process's, as a debugger or an MPI library does without a pipe
 * or ptrace's word at a time.
 *
 * The local iovecs say where in the caller, the remote ones where in the other process; the
 * bytes flow in order through both lists. Each page of the other process is reached under its
 * mm's lock (access_remote_page, kernel/mm/memory.c), faulted in as its own access would be, and
 * the bytes go through a page-sized bounce buffer: the caller's side is copied with the lock let
 * go, since a fault on the caller's memory takes its own mm's lock (the same one when a program
 * names itself). Where either side faults, the copy stops there: the bytes moved so far, or
 * EFAULT if none, as Linux's. Lucid runs everything as root: any process may be read.
 */
#include "kernel/syscalls.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define UIO_MAXIOV 1024 /* iovecs a call may give, Linux's */
#define MAX_RW_COUNT 0x7ffff000UL /* Linux's cap on one transfer (INT_MAX & PAGE_MASK) */

struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

/*
 * A user's iovec array, copied in (Linux's iovec_from_user): EINVAL for more than UIO_MAXIOV
 * or a length that is negative as an ssize_t, EFAULT for an array that is not there.
 * *total: the bytes they name, capped at MAX_RW_COUNT as Linux's import_iovec does.
 */
static struct iovec *iovec_from_user(const struct iovec __user *uvec, unsigned long nr,
				     size_t *total, long *err)
{
	struct iovec *iov;

	*err = -EINVAL;
	if (nr > UIO_MAXIOV)
		return NULL;
	*err = -ENOMEM;
	iov = kmalloc(nr ? nr * sizeof(*iov) : 1);
	if (!iov)
		return NULL;
	*err = -EFAULT;
	if (copy_from_user(iov, uvec, nr * sizeof(*iov))) {
		kfree(iov);
		return NULL;
	}
	*total = 0;
	for (unsigned long i = 0; i < nr; i++) {
		if ((long)iov[i].iov_len < 0) {
			*err = -EINVAL;
			kfree(iov);
			return NULL;
		}
		/* Capped, as Linux's: what is past MAX_RW_COUNT is not moved. */
		iov[i].iov_len = MIN(iov[i].iov_len, MAX_RW_COUNT - *total);
		*total += iov[i].iov_len;
	}
	*err = 0;
	return iov;
}

/* The mm of process pid, with a reference (mmput): NULL if none (gone, a kernel thread). */
static struct mm_struct *get_task_mm_by_pid(int pid)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct mm_struct *mm = NULL;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		/* exit and exec change t->mm under this lock, before they drop their reference */
		if (t->pid == pid && !t->reaped && t->mm) {
			mm = t->mm;
			mmget(mm);
			break;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return mm;
}

/* Walks both lists together, a piece at a time: within one remote page and one local iovec. */
static long process_vm_rw_core(struct mm_struct *mm, struct iovec *lvec, unsigned long liovcnt,
			       struct iovec *rvec, unsigned long riovcnt, bool write, char *bounce)
{
	unsigned long li = 0, ri = 0;
	size_t loff = 0, roff = 0, done = 0;
	long err = 0; /* -EFAULT once a side faults; running out of either list is no error */

	while (li < liovcnt && ri < riovcnt) {
		if (loff == lvec[li].iov_len) {
			li++, loff = 0;
			continue;
		}
		if (roff == rvec[ri].iov_len) {
			ri++, roff = 0;
			continue;
		}
		unsigned long raddr = (unsigned long)rvec[ri].iov_base + roff;
		char __user *laddr = (char __user *)lvec[li].iov_base + loff;
		size_t n = MIN(lvec[li].iov_len - loff, rvec[ri].iov_len - roff);

		n = MIN(n, PAGE_SIZE - (raddr & (PAGE_SIZE - 1)));
		err = -EFAULT;
		if (raddr >= TASK_SIZE_MAX || n > TASK_SIZE_MAX - raddr)
			break; /* not the process's memory at all */
		if (write) {
			n -= copy_from_user(bounce, laddr, n);
			if (!n || access_remote_page(mm, raddr, bounce, n, true))
				break;
		} else {
			if (access_remote_page(mm, raddr, bounce, n, false))
				break;
			size_t left = copy_to_user(laddr, bounce, n);

			done += n - left;
			if (left)
				break;
			err = 0;
			loff += n;
			roff += n;
			continue;
		}
		err = 0;
		done += n;
		loff += n;
		roff += n;
	}
	return done ? (long)done : err;
}

static long process_vm_rw(int pid, const struct iovec __user *ulvec, unsigned long liovcnt,
			  const struct iovec __user *urvec, unsigned long riovcnt,
			  unsigned long flags, bool write)
{
	struct iovec *lvec, *rvec = NULL;
	struct mm_struct *mm = NULL;
	size_t ltotal, rtotal;
	char *bounce = NULL;
	long ret;

	if (flags)
		return -EINVAL;
	lvec = iovec_from_user(ulvec, liovcnt, &ltotal, &ret);
	if (!lvec)
		return ret;
	if (ltotal == 0) /* Linux: nothing to move, whatever the rest says */
		goto out;
	rvec = iovec_from_user(urvec, riovcnt, &rtotal, &ret);
	if (!rvec)
		goto out;
	mm = get_task_mm_by_pid(pid);
	ret = -ESRCH;
	if (!mm)
		goto out;
	ret = -ENOMEM;
	bounce = kmalloc(PAGE_SIZE);
	if (bounce)
		ret = process_vm_rw_core(mm, lvec, liovcnt, rvec, riovcnt, write, bounce);
out:
	if (mm)
		mmput(mm);
	kfree(bounce);
	kfree(rvec);
	kfree(lvec);
	return ret;
}

long sys_process_vm_readv(int pid, const struct iovec __user *lvec, unsigned long liovcnt,
			  const struct iovec __user *rvec, unsigned long riovcnt,
			  unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, false);
}

long sys_process_vm_writev(int pid, const struct iovec __user *lvec, unsigned long liovcnt,
			   const struct iovec __user *rvec, unsigned long riovcnt,
			   unsigned long flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, true);
}

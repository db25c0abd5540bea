/*
 * Futexes ("fast user-space mutexes"), Linux's kernel/futex/: the sleeping half of the locks,
 * condition variables, barriers and joins of musl's and glibc's pthreads.
 *
 * A lock lives in a 32-bit word of user memory. Taking a free one or releasing one nobody
 * waits for is an atomic instruction in user space and no system call. Only a thread that must
 * wait calls futex(FUTEX_WAIT, word, val): "sleep, if the word still holds val". The owner that
 * sees waiters (the word says so) calls futex(FUTEX_WAKE, word, n) after changing the word.
 *
 * No wakeup is lost because the check of the word and the queueing are one step under the
 * hash bucket's lock, and a waker takes the same lock to look at the queue: either the waiter
 * queued before the waker looked (and is woken), or it reads the word after the waker's
 * user-space change (and returns -EAGAIN without sleeping). The read is done with page faults
 * off (a fault under a spinlock could not sleep); if the page is not there, the lock is dropped,
 * the page faulted in, and the whole step tried again, as Linux's get_futex_value_locked.
 *
 * A futex is named by its key, Linux's get_futex_key. A private futex (FUTEX_PRIVATE_FLAG:
 * the threads of one process) is (address space, user address). A shared one (the flag off:
 * pthread_mutexattr_setpshared's PTHREAD_PROCESS_SHARED, sem_init(pshared=1)) on a MAP_SHARED
 * area (anonymous, /dev/zero, memfd or a ramfs file) is (page, offset in the page): the same
 * word at other addresses in other processes, forked or unrelated, has the same key, so they
 * meet. Linux names a file's page by (inode, file page); Lucid's shared areas map the object's
 * pages themselves, which stay while any mapping or the file holds them, so the page is as
 * good a name and needs no walk to the inode. The key holds a reference on that page from
 * get_futex_key to put_futex_key, the whole sleep for a waiter: the page cannot be freed and
 * reused for another word meanwhile (a waiter would wait for a wake nobody could send it, or a
 * waker wake a stranger). A shared futex on a private area is (address space, address) still:
 * nobody else can see that word, as Linux's key for private anonymous memory.
 *
 * Waiters hang on FUTEX_HASH_SIZE buckets, each a lock and a list. A waiter is a struct futex_q
 * on its own kernel stack; its waker takes it off the list and marks it woken under the
 * bucket's lock, and the waiter, awake, takes that lock again before its stack frame goes, so
 * no waker touches a q that is gone. FUTEX_REQUEUE moves waiters to another word's bucket
 * (glibc's old condition variables, and whoever asks): the q's bucket pointer changes under
 * both buckets' locks, and a waiter locks the bucket its q is in now (futex_q_lock).
 */
#include "kernel/futex/futex.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "kernel/sched/wait.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/page_alloc.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/list.h"

/* futex(2)'s operations and flags, Linux's values (uapi/linux/futex.h). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffU
/* The robust list's marks in a lock word (uapi/linux/futex.h). */
#define FUTEX_WAITERS 0x80000000U
#define FUTEX_OWNER_DIED 0x40000000U
#define FUTEX_TID_MASK 0x3fffffffU
#define ROBUST_LIST_LIMIT 2048 /* Linux's bound on a robust list walk: a loop cannot hang exit */

#define FUTEX_HASH_BITS 8
#define FUTEX_HASH_SIZE (1 << FUTEX_HASH_BITS)

struct futex_key {
	void *ptr; /* the mm (private), or the page's direct-map address (shared) */
	unsigned long addr; /* the user address (private), or the word's offset in the page */
	bool page_ref; /* ptr is a page this key holds a reference on (put_futex_key drops it) */
};

struct futex_hash_bucket {
	spinlock_t lock;
	struct list_head chain; /* its futex_qs; NULL until first used (set up under lock) */
};

struct futex_q {
	struct list_head list;
	struct task *task;
	struct futex_key key;
	uint32_t bitset;
	struct futex_hash_bucket *hb; /* the bucket it is on: changes only under that lock */
	bool woken; /* taken off its list by a waker, under the bucket's lock */
};

static struct futex_hash_bucket futex_queues[FUTEX_HASH_SIZE];

static struct futex_hash_bucket *hash_futex(const struct futex_key *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key->ptr ^ (key->addr >> 2) * 0x9e3779b97f4a7c15ULL;

	return &futex_queues[(h >> (64 - FUTEX_HASH_BITS)) % FUTEX_HASH_SIZE];
}

static unsigned long hb_lock(struct futex_hash_bucket *hb)
{
	unsigned long flags = spin_lock_irqsave(&hb->lock);

	if (!hb->chain.next)
		INIT_LIST_HEAD(&hb->chain);
	return flags;
}

static void hb_unlock(struct futex_hash_bucket *hb, unsigned long flags)
{
	spin_unlock_irqrestore(&hb->lock, flags);
}

/* Locks the bucket q is on now: a requeue may move it while we wait for the lock. */
static struct futex_hash_bucket *futex_q_lock(struct futex_q *q, unsigned long *flags)
{
	for (;;) {
		struct futex_hash_bucket *hb = READ_ONCE(q->hb);

		*flags = hb_lock(hb);
		if (hb == READ_ONCE(q->hb))
			return hb;
		hb_unlock(hb, *flags);
	}
}

/*
 * The key of uaddr in current's memory (above): -EINVAL for a misaligned word, as Linux's
 * get_futex_key, -EFAULT for one that is not mapped in a shared area. A shared area's page is
 * faulted in first, as Linux's get_user_pages_fast does: the key is the page, so it must be
 * there. Put with put_futex_key.
 */
static int get_futex_key(const uint32_t __user *uaddr, bool fshared, struct futex_key *key)
{
	unsigned long addr = (unsigned long)uaddr;
	struct mm_struct *mm = current->mm;

	if (addr % sizeof(uint32_t))
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(uint32_t)))
		return -EFAULT;
	key->ptr = mm;
	key->addr = addr;
	key->page_ref = false;
	while (fshared) {
		unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
		struct vm_area_struct *vma = find_vma(mm, addr);
		void *page = NULL;

		if (!vma || addr < vma->vm_start || vma->kind != VMA_SHARED) {
			spin_unlock_irqrestore(&mm->mmap_lock, flags);
			return 0; /* private memory: (mm, address), as a private futex */
		}
		page = mmu_user_page(mm->pgd, ALIGN_DOWN(addr, PAGE_SIZE), NULL);
		if (page)
			get_page(page); /* under mmap_lock: no munmap can drop it meanwhile */
		spin_unlock_irqrestore(&mm->mmap_lock, flags);
		if (page) {
			key->ptr = page;
			key->addr = addr % PAGE_SIZE;
			key->page_ref = true;
			return 0;
		}
		uint32_t v;
		if (copy_from_user(&v, uaddr, sizeof(v))) /* faults the page in */
			return -EFAULT;
	}
	return 0;
}

static void put_futex_key(struct futex_key *key)
{
	if (key->page_ref)
		put_page(key->ptr);
	key->page_ref = false;
}

static bool match_futex(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->addr == b->addr;
}

/* The word, read under a bucket lock: no fault may be serviced (it could sleep). */
static int get_futex_value_locked(uint32_t *val, const uint32_t __user *uaddr)
{
	unsigned long left;

	pagefault_disable();
	left = copy_from_user(val, uaddr, sizeof(*val));
	pagefault_enable();
	return left ? -EFAULT : 0;
}

/* Takes q off its list and wakes its task: the bucket's lock is held. */
static void futex_wake_q(struct futex_q *q)
{
	struct task *t = q->task;

	list_del_init(&q->list);
	WRITE_ONCE(q->woken, true);
	wake_up_process(t); /* t cannot go: it takes this lock before leaving futex_wait */
}

/*
 * FUTEX_WAIT and FUTEX_WAIT_BITSET: sleep while the word is val, until a wake whose bitset
 * meets ours, a signal, or the clock reaching end_ns (0: no timeout). realtime: end_ns is on
 * CLOCK_REALTIME. restart: what a signal makes of the call (an absolute timeout or none can be
 * redone from the start; a relative one cannot, and ends with -EINTR).
 */
static long futex_wait(uint32_t __user *uaddr, bool fshared, uint32_t val, uint64_t end_ns,
		       bool realtime, uint32_t bitset, bool restart)
{
	struct futex_q q = {.task = current, .bitset = bitset};
	struct futex_hash_bucket *hb;
	unsigned long flags;
	uint32_t cur;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, fshared, &q.key);
	if (err)
		return err;
	hb = hash_futex(&q.key);
	for (;;) {
		flags = hb_lock(hb);
		if (!get_futex_value_locked(&cur, uaddr))
			break;
		hb_unlock(hb, flags);
		if (copy_from_user(&cur, uaddr, sizeof(cur))) { /* faults the page in */
			put_futex_key(&q.key);
			return -EFAULT;
		}
	}
	if (cur != val) {
		hb_unlock(hb, flags);
		put_futex_key(&q.key);
		return -EAGAIN; /* it changed: the waker has been, or the lock is free */
	}
	q.hb = hb;
	list_add_tail(&q.list, &hb->chain);
	set_current_state(TASK_INTERRUPTIBLE); /* before the unlock: a wake from now on counts */
	hb_unlock(hb, flags);

	bool timed_out = false;
	for (;;) {
		if (READ_ONCE(q.woken) || signal_pending_current())
			break;
		if (end_ns) {
			uint64_t now = realtime ? ktime_get_real_ns() : ktime_get_ns();

			if (now >= end_ns) {
				timed_out = true;
				break;
			}
			schedule_timeout((long)((end_ns - now) / NSEC_PER_MSEC) + 1);
		} else {
			schedule();
		}
		set_current_state(TASK_INTERRUPTIBLE);
	}
	set_current_state(TASK_RUNNING);
	hb = futex_q_lock(&q, &flags);
	bool woken = q.woken;
	if (!woken)
		list_del(&q.list);
	hb_unlock(hb, flags);
	put_futex_key(&q.key); /* a requeue may have changed it: off every list now, it is ours */
	if (woken)
		return 0;
	if (timed_out)
		return -ETIMEDOUT;
	return restart ? -ERESTARTSYS : -EINTR;
}

/* FUTEX_WAKE and FUTEX_WAKE_BITSET: up to nr waiters on the word whose bitset meets ours. */
static long futex_wake(uint32_t __user *uaddr, bool fshared, int nr, uint32_t bitset)
{
	struct futex_key key;
	struct futex_hash_bucket *hb;
	struct futex_q *q, *n;
	unsigned long flags;
	int err, woken = 0;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, fshared, &key);
	if (err)
		return err;
	hb = hash_futex(&key);
	flags = hb_lock(hb);
	list_for_each_entry_safe(q, n, &hb->chain, list)
	{
		if (woken >= nr)
			break;
		if (match_futex(&q->key, &key) && (q->bitset & bitset)) {
			futex_wake_q(q);
			woken++;
		}
	}
	hb_unlock(hb, flags);
	put_futex_key(&key);
	return woken;
}

/* Shared, as Linux's mm_release and handle_futex_death wake: the word may be in shared memory. */
int futex_wake_addr(uint32_t __user *uaddr, int nr)
{
	return (int)futex_wake(uaddr, true, nr, FUTEX_BITSET_MATCH_ANY);
}

/* Two buckets locked in address order (one, if both keys hash there): no ABBA deadlock. */
static void double_lock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b,
			   unsigned long *flags)
{
	if (a > b) {
		struct futex_hash_bucket *t = a;
		a = b;
		b = t;
	}
	*flags = hb_lock(a);
	if (a != b) {
		if (!b->chain.next)
			INIT_LIST_HEAD(&b->chain);
		spin_lock(&b->lock);
	}
}

static void double_unlock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b,
			     unsigned long flags)
{
	if (a != b)
		spin_unlock(&(a > b ? a : b)->lock);
	hb_unlock(a < b ? a : b, flags);
}

/*
 * FUTEX_REQUEUE and FUTEX_CMP_REQUEUE: wake nr_wake waiters of uaddr, and move up to
 * nr_requeue of the others to uaddr2, where they wait on as if they had called FUTEX_WAIT
 * there. CMP_REQUEUE first checks that uaddr still holds val (-EAGAIN if not), under both locks,
 * so that no wake of uaddr slips between the caller's read and the move. Returns the woken
 * and, for CMP_REQUEUE, the requeued together, as Linux.
 */
static long futex_requeue(uint32_t __user *uaddr, uint32_t __user *uaddr2, bool fshared,
			  int nr_wake, int nr_requeue, const uint32_t *cmpval)
{
	struct futex_key key1, key2;
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_q *q, *n;
	unsigned long flags;
	int err, woken = 0, moved = 0;
	uint32_t cur;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	err = get_futex_key(uaddr, fshared, &key1);
	if (err)
		return err;
	err = get_futex_key(uaddr2, fshared, &key2);
	if (err) {
		put_futex_key(&key1);
		return err;
	}
	if (cmpval && match_futex(&key1, &key2)) {
		err = -EINVAL; /* as Linux: requeueing onto itself would spin */
		goto out;
	}
	hb1 = hash_futex(&key1);
	hb2 = hash_futex(&key2);
	for (;;) {
		double_lock_hb(hb1, hb2, &flags);
		if (!cmpval || !get_futex_value_locked(&cur, uaddr))
			break;
		double_unlock_hb(hb1, hb2, flags);
		if (copy_from_user(&cur, uaddr, sizeof(cur))) {
			err = -EFAULT;
			goto out;
		}
	}
	if (cmpval && cur != *cmpval) {
		double_unlock_hb(hb1, hb2, flags);
		err = -EAGAIN;
		goto out;
	}
	list_for_each_entry_safe(q, n, &hb1->chain, list)
	{
		if (!match_futex(&q->key, &key1))
			continue;
		if (woken < nr_wake) {
			futex_wake_q(q);
			woken++;
			continue;
		}
		if (moved >= nr_requeue)
			break;
		list_del(&q->list);
		list_add_tail(&q->list, &hb2->chain);
		/*
		 * The waiter's reference moves to the new page: one on key2's first, then the
		 * old one dropped, which never frees it here (key1 holds one till we return).
		 */
		if (key2.page_ref)
			get_page(key2.ptr);
		put_futex_key(&q->key);
		q->key = key2;
		WRITE_ONCE(q->hb, hb2);
		moved++;
	}
	double_unlock_hb(hb1, hb2, flags);
	err = cmpval ? woken + moved : woken;
out:
	put_futex_key(&key1);
	put_futex_key(&key2);
	return err;
}

struct futex_timespec { /* struct __kernel_timespec */
	int64_t tv_sec;
	int64_t tv_nsec;
};

static int get_timeout_ns(const struct futex_timespec __user *u, uint64_t *ns)
{
	struct futex_timespec ts;

	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if ((uint64_t)ts.tv_sec >= UINT64_MAX / NSEC_PER_SEC - 1)
		*ns = UINT64_MAX; /* forever, as Linux saturates it */
	else
		*ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return 0;
}

/*
 * futex(uaddr, op, val, utime, uaddr2, val3). For the waits utime is a timeout (FUTEX_WAIT:
 * relative, on CLOCK_MONOTONIC; FUTEX_WAIT_BITSET: the absolute end, on CLOCK_MONOTONIC or, with
 * FUTEX_CLOCK_REALTIME, CLOCK_REALTIME); for the requeues its value is nr_requeue.
 */
long sys_futex(uint32_t __user *uaddr, int op, uint32_t val, const void __user *utime,
	       uint32_t __user *uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool fshared = !(op & FUTEX_PRIVATE_FLAG);
	bool realtime = op & FUTEX_CLOCK_REALTIME;
	uint64_t end = 0;
	int err;

	if (realtime && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS; /* as Linux */
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		if (utime) {
			uint64_t ns;

			err = get_timeout_ns(utime, &ns);
			if (err)
				return err;
			if (cmd == FUTEX_WAIT) { /* relative: its end on the clock it runs on */
				uint64_t now = realtime ? ktime_get_real_ns() : ktime_get_ns();
				end = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
			} else {
				end = ns ? ns : 1; /* 0 would mean none: an end long past */
			}
		}
		return futex_wait(uaddr, fshared, val, end, realtime,
				  cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3,
				  !utime || cmd == FUTEX_WAIT_BITSET);
	case FUTEX_WAKE:
		return futex_wake(uaddr, fshared, (int)val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, fshared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, uaddr2, fshared, (int)val, (int)(uintptr_t)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, fshared, (int)val, (int)(uintptr_t)utime,
				     &val3);
	default:
		/* FUTEX_WAKE_OP, the PI futexes: neither C library's pthreads need them */
		return -ENOSYS;
	}
}

/* Linux's struct robust_list_head: a list of the locks a thread holds, in its own memory. */
struct robust_list_head {
	uint64_t next; /* the first entry (a struct robust_list: its next pointer) */
	int64_t futex_offset; /* from an entry to its lock word */
	uint64_t pending; /* an entry being taken or released right now */
};

/*
 * One robust lock of a dying thread: if the word still names it the owner, it gets
 * FUTEX_OWNER_DIED (the next locker's pthread_mutex_lock returns EOWNERDEAD) and, if it had
 * waiters, one of them is woken to find that. Linux's handle_futex_death.
 */
static void handle_futex_death(uint32_t __user *uaddr, int tid)
{
	uint32_t val, cur;

	if ((uintptr_t)uaddr % sizeof(uint32_t))
		return;
	for (int tries = 0; tries < ROBUST_LIST_LIMIT; tries++) {
		if (copy_from_user(&val, uaddr, sizeof(val)))
			return;
		if ((val & FUTEX_TID_MASK) != (uint32_t)tid)
			return;
		uint32_t nval = (val & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
		if (futex_cmpxchg_user(uaddr, val, nval, &cur))
			return;
		if (cur != val)
			continue; /* a waiter set FUTEX_WAITERS meanwhile: again */
		if (nval & FUTEX_WAITERS)
			futex_wake_addr(uaddr, 1);
		return;
	}
}

/* Walks t's robust list (set_robust_list), bounded so that a looped list cannot hang exit. */
static void exit_robust_list(struct task *t)
{
	struct robust_list_head head;
	uint64_t entry, pending;

	if (!t->robust_list)
		return;
	if (copy_from_user(&head, (void __user *)t->robust_list, sizeof(head)))
		return;
	entry = head.next;
	pending = head.pending;
	for (int n = 0; entry != t->robust_list && n < ROBUST_LIST_LIMIT; n++) {
		uint64_t next;

		if (copy_from_user(&next, (void __user *)entry, sizeof(next)))
			return;
		if (entry != pending)
			handle_futex_death((uint32_t __user *)(entry + head.futex_offset), t->pid);
		entry = next;
	}
	if (pending)
		handle_futex_death((uint32_t __user *)(pending + head.futex_offset), t->pid);
}

void futex_exit_release(struct task *t)
{
	exit_robust_list(t);
	t->robust_list = 0;
	if (t->clear_child_tid) {
		uint32_t __user *tidptr = (uint32_t __user *)t->clear_child_tid;
		uint32_t zero = 0;

		t->clear_child_tid = 0;
		/* A bad address is ignored, as Linux's. Then pthread_join's waiter wakes. */
		if (!copy_to_user(tidptr, &zero, sizeof(zero)))
			futex_wake_addr(tidptr, 1);
	}
}

/* set_robust_list and get_robust_list: where the calling thread's list head is. */
long sys_set_robust_list(void __user *head, size_t len)
{
	if (len != sizeof(struct robust_list_head))
		return -EINVAL;
	current->robust_list = (unsigned long)head;
	return 0;
}

/*
 * musl asks it first (pthread_mutexattr_setrobust): are robust lists there? Thread pid's, or ours.
 */
long sys_get_robust_list(int pid, unsigned long __user *head_ptr, size_t __user *len_ptr)
{
	unsigned long head = 0, flags;
	size_t len = sizeof(struct robust_list_head);
	bool found = !pid;
	struct task *t;

	if (pid < 0)
		return -ESRCH;
	if (!pid) {
		head = current->robust_list;
	} else {
		flags = spin_lock_irqsave(&task_list_lock);
		list_for_each_entry(t, &task_list, tasks)
		{
			if (t->pid == pid && t->mm) {
				head = t->robust_list;
				found = true;
				break;
			}
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
	}
	if (!found)
		return -ESRCH;
	if (copy_to_user(len_ptr, &len, sizeof(len)) || copy_to_user(head_ptr, &head, sizeof(head)))
		return -EFAULT;
	return 0;
}

/*
 * poll, ppoll, select and pselect6: waiting for any of several files at once (Linux's
 * fs/select.c), as a shell waits for the terminal and for its children's pipes.
 *
 * Each file says which events it is ready for now (file_operations.poll: a pipe with data is
 * readable, the console with a line typed; a file without one, a regular file or /dev/null, is
 * always ready). If none of those asked for is, the caller sleeps on every file's wait queue
 * (file_operations.wait_queue) at once, with the VFS lock let go, until one of them is woken,
 * the timeout passes or a signal comes (EINTR), and looks again. It is on every queue before it
 * looks, so a wakeup between the look and the sleep is not lost (as vfs_block()).
 *
 * select and pselect6 are the same loop over bitmaps: a descriptor in the read set waits for
 * POLLIN (or hang-up, or error), in the write set for POLLOUT; an fd that is not open is EBADF.
 * ppoll and pselect6 take a signal mask that holds for the wait only (the libc's way of waiting
 * for a file or a signal without a race); and they, like select, write back the time left.
 * A signal that ends the wait is delivered with that mask still on, as sigsuspend's, and the
 * caller's comes back after the handler's frame is built (task->saved_sigmask, signals.md).
 */
#include "kernel/syscalls.h"
#include "kernel/signal.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "arch/x86_64/uaccess.h"
#include "lib/bitops.h"
#include "lib/errno.h"
#include "lib/string.h"

#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
/* What select's sets wait for, as Linux's POLLIN_SET and POLLOUT_SET. */
#define POLLIN_SET (POLLRDNORM | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET POLLPRI

struct pollfd {
	int fd;
	short events, revents;
};

struct timespec_user {
	long tv_sec, tv_nsec;
};

struct timeval_user {
	long tv_sec, tv_usec;
};

/*
 * The core of all four: fills revents for each of fds (events asked, POLLERR and POLLHUP
 * always, POLLNVAL for an fd not open) and returns how many have any, waiting until one does,
 * deadline (ktime ns) passes, or a signal (-EINTR).
 */
static long do_poll(struct pollfd *fds, unsigned int nfds, uint64_t deadline)
{
	struct wait_queue_entry *w = kzalloc(nfds ? nfds * sizeof(*w) : 1);
	struct wait_queue_head **wq = kzalloc(nfds ? nfds * sizeof(*wq) : 1);
	long count;

	if (!w || !wq) {
		kfree(w);
		kfree(wq);
		return -ENOMEM;
	}
	vfs_lock();
	for (;;) {
		count = 0;
		/* Asleep before looking, as prepare_to_wait() below: so is a poll of no file. */
		set_current_state(TASK_INTERRUPTIBLE);
		for (unsigned int i = 0; i < nfds; i++) {
			struct file *file = fds[i].fd >= 0 ? fget(fds[i].fd) : NULL;
			unsigned int mask;

			fds[i].revents = 0;
			if (fds[i].fd < 0)
				continue; /* ignored, as poll(2) says */
			if (!file) {
				fds[i].revents = POLLNVAL;
				count++;
				continue;
			}
			/* On its queue first, then look: a wakeup from now on is not lost. */
			if (!wq[i] && file->f_op && file->f_op->wait_queue)
				wq[i] = file->f_op->wait_queue(file);
			if (wq[i])
				prepare_to_wait(wq[i], &w[i], TASK_INTERRUPTIBLE);
			mask = file->f_op && file->f_op->poll ? file->f_op->poll(file)
							      : DEFAULT_POLLMASK;
			mask &= (unsigned short)fds[i].events | POLLERR | POLLHUP;
			fds[i].revents = (short)mask;
			if (mask)
				count++;
		}
		if (count || ktime_get_ns() >= deadline)
			break;
		if (signal_pending_current()) {
			/* Again after a stop and continue; EINTR if a handler runs. A kernel thread
			 * has no restart: EINTR. */
			count = current->sighand ? -ERESTARTNOHAND : -EINTR;
			break;
		}
		poll_schedule_timeout(deadline);
	}
	for (unsigned int i = 0; i < nfds; i++) {
		if (wq[i])
			finish_wait(wq[i], &w[i]);
	}
	set_current_state(TASK_RUNNING);
	vfs_unlock();
	kfree(w);
	kfree(wq);
	return count;
}

/*
 * Sleeps, the VFS lock dropped, until a wakeup or deadline (NO_TIMEOUT: none), as Linux's
 * poll_schedule_timeout: the one wait of select, poll and epoll_wait. The caller is on its
 * queues and in TASK_INTERRUPTIBLE already, so a wakeup since its last look is not lost.
 */
void poll_schedule_timeout(uint64_t deadline)
{
	vfs_unlock();
	if (deadline == NO_TIMEOUT) {
		schedule();
	} else {
		uint64_t left = deadline - ktime_get_ns();

		if ((int64_t)left > 0)
			schedule_timeout((long)((left + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC));
	}
	vfs_lock();
}

/* A relative timeout into a deadline; NO_TIMEOUT for none. */
static uint64_t deadline_after(uint64_t ns)
{
	uint64_t now = ktime_get_ns();

	return ns >= NO_TIMEOUT - now ? NO_TIMEOUT : now + ns;
}

/* What is left of the time until deadline, for the caller's timeout. */
static uint64_t time_left(uint64_t deadline)
{
	uint64_t now = ktime_get_ns();

	return now >= deadline ? 0 : deadline - now;
}

/*
 * Linux's restore_saved_sigmask_unless(): a wait a signal ended leaves the caller's mask for
 * the signal code to put back once the handler's frame is built; any other end puts it back.
 */
static void end_wait_sigmask(long ret)
{
	if (ret != -ERESTARTNOHAND)
		restore_saved_sigmask();
}

static long do_sys_poll(void __user *ufds, unsigned int nfds, uint64_t deadline)
{
	struct pollfd *fds;
	long ret;

	if (nfds > rlimit(RLIMIT_NOFILE)) /* Linux's answer */
		return -EINVAL;
	fds = kmalloc(nfds ? nfds * sizeof(*fds) : 1);
	if (!fds)
		return -ENOMEM;
	if (copy_from_user(fds, ufds, nfds * sizeof(*fds))) {
		kfree(fds);
		return -EFAULT;
	}
	ret = do_poll(fds, nfds, deadline);
	if (ret >= 0) { /* only revents go back, as Linux writes them */
		for (unsigned int i = 0; i < nfds; i++) {
			struct pollfd __user *u = (struct pollfd __user *)ufds + i;

			if (copy_to_user(&u->revents, &fds[i].revents, sizeof(short))) {
				ret = -EFAULT;
				break;
			}
		}
	}
	kfree(fds);
	return ret;
}

/* poll(fds, nfds, timeout): milliseconds, negative for none. */
long sys_poll(void __user *ufds, unsigned int nfds, int timeout_msecs)
{
	uint64_t deadline = timeout_msecs < 0
				    ? NO_TIMEOUT
				    : deadline_after((uint64_t)timeout_msecs * NSEC_PER_MSEC);

	return do_sys_poll(ufds, nfds, deadline);
}

/* A timespec into a deadline: EINVAL if negative or its nanoseconds are out of range. */
static long timespec_deadline(const void __user *tsp, uint64_t *deadline)
{
	struct timespec_user ts;

	*deadline = NO_TIMEOUT;
	if (!tsp)
		return 0;
	if (copy_from_user(&ts, tsp, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*deadline =
		(uint64_t)ts.tv_sec >= NO_TIMEOUT / NSEC_PER_SEC
			? NO_TIMEOUT
			: deadline_after((uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec);
	return 0;
}

/* Writes the time left back into the caller's timespec, as Linux's poll_select_finish. */
static void timespec_left(void __user *tsp, uint64_t deadline)
{
	uint64_t left = time_left(deadline);
	struct timespec_user ts = {(long)(left / NSEC_PER_SEC), (long)(left % NSEC_PER_SEC)};

	if (tsp && deadline != NO_TIMEOUT)
		(void)copy_to_user(tsp, &ts, sizeof(ts)); /* Linux too ignores a fault here */
}

long sys_ppoll(void __user *ufds, unsigned int nfds, const void __user *tsp,
	       const uint64_t __user *sigmask, size_t sigsetsize)
{
	uint64_t deadline;
	long ret = timespec_deadline(tsp, &deadline);

	if (ret)
		return ret;
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, deadline);
	end_wait_sigmask(ret);
	timespec_left((void __user *)tsp, deadline);
	return ret;
}

/*
 * select's three sets, n bits each, into a pollfd per descriptor in any of them. The sets,
 * their results and the pollfds are allocated for n (at most the table's size, as Linux's
 * core_sys_select: bits past it are not looked at).
 */
struct select_bufs {
	uint64_t *sets[3], *res[3];
	struct pollfd *fds;
};

static long do_select(int n, void __user *usets[3], struct select_bufs *b, uint64_t deadline)
{
	static const unsigned short want[3] = {POLLIN_SET, POLLOUT_SET, POLLEX_SET};
	size_t words = ((size_t)n + BITS_PER_LONG - 1) / BITS_PER_LONG;
	size_t bytes = words * sizeof(uint64_t);
	unsigned int nfds = 0;
	long ret;

	for (int s = 0; s < 3; s++) {
		if (usets[s] && copy_from_user(b->sets[s], usets[s], bytes))
			return -EFAULT;
		if (n % BITS_PER_LONG && words) /* bits past n are not looked at */
			b->sets[s][words - 1] &= (1ULL << (n % BITS_PER_LONG)) - 1;
	}
	for (int fd = 0; fd < n; fd++) {
		unsigned short events = 0;

		for (int s = 0; s < 3; s++)
			if (b->sets[s][fd / BITS_PER_LONG] & (1ULL << (fd % BITS_PER_LONG)))
				events |= want[s];
		if (!events)
			continue;
		b->fds[nfds++] = (struct pollfd){.fd = fd, .events = (short)events};
	}
	ret = do_poll(b->fds, nfds, deadline);
	if (ret < 0)
		return ret;
	ret = 0;
	for (unsigned int i = 0; i < nfds; i++) {
		int fd = b->fds[i].fd;

		if (b->fds[i].revents & POLLNVAL)
			return -EBADF;
		for (int s = 0; s < 3; s++) {
			bool asked =
				b->sets[s][fd / BITS_PER_LONG] & (1ULL << (fd % BITS_PER_LONG));

			if (asked && (b->fds[i].revents & want[s])) {
				b->res[s][fd / BITS_PER_LONG] |= 1ULL << (fd % BITS_PER_LONG);
				ret++;
			}
		}
	}
	for (int s = 0; s < 3; s++)
		if (usets[s] && copy_to_user(usets[s], b->res[s], bytes))
			return -EFAULT;
	return ret;
}

static long core_select(int n, void __user *inp, void __user *outp, void __user *exp,
			uint64_t deadline)
{
	void __user *usets[3] = {inp, outp, exp};
	struct select_bufs b;
	long ret;

	if (n < 0)
		return -EINVAL;
	n = MIN(n, vfs_max_fds()); /* Linux: no more than the fd table holds */
	size_t words = ((size_t)n + BITS_PER_LONG - 1) / BITS_PER_LONG;
	uint64_t *bits = kzalloc(6 * words * sizeof(uint64_t) + 1);

	b.fds = kmalloc((size_t)n * sizeof(struct pollfd) + 1);
	if (!bits || !b.fds) {
		kfree(bits);
		kfree(b.fds);
		return -ENOMEM;
	}
	for (int s = 0; s < 3; s++) {
		b.sets[s] = bits + s * words;
		b.res[s] = bits + (3 + s) * words;
	}
	ret = do_select(n, usets, &b, deadline);
	kfree(bits);
	kfree(b.fds);
	return ret;
}

long sys_select(int n, void __user *inp, void __user *outp, void __user *exp, void __user *tvp)
{
	uint64_t deadline = NO_TIMEOUT;
	struct timeval_user tv;
	long ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		if (tv.tv_sec < 0 || tv.tv_usec < 0 ||
		    (uint64_t)tv.tv_usec >= NSEC_PER_SEC / NSEC_PER_USEC)
			return -EINVAL;
		deadline = (uint64_t)tv.tv_sec >= NO_TIMEOUT / NSEC_PER_SEC
				   ? NO_TIMEOUT
				   : deadline_after((uint64_t)tv.tv_sec * NSEC_PER_SEC +
						    (uint64_t)tv.tv_usec * NSEC_PER_USEC);
	}
	ret = core_select(n, inp, outp, exp, deadline);
	if (tvp && deadline != NO_TIMEOUT) {
		uint64_t left = time_left(deadline);

		tv.tv_sec = (long)(left / NSEC_PER_SEC);
		tv.tv_usec = (long)(left % NSEC_PER_SEC / NSEC_PER_USEC);
		(void)copy_to_user(tvp, &tv, sizeof(tv));
	}
	return ret;
}

/* pselect6's sixth argument: where the mask is and its size (the kernel takes only 6 args). */
struct sigset_argpack {
	const uint64_t __user *p;
	size_t size;
};

long sys_pselect6(int n, void __user *inp, void __user *outp, void __user *exp, void __user *tsp,
		  void __user *sig)
{
	struct sigset_argpack pack = {NULL, 0};
	uint64_t deadline;
	long ret = timespec_deadline(tsp, &deadline);

	if (ret)
		return ret;
	if (sig && copy_from_user(&pack, sig, sizeof(pack)))
		return -EFAULT;
	ret = set_user_sigmask(pack.p, pack.size);
	if (ret)
		return ret;
	ret = core_select(n, inp, outp, exp, deadline);
	end_wait_sigmask(ret);
	timespec_left(tsp, deadline);
	return ret;
}

/*
 * epoll (Linux's fs/eventpoll.c): an event loop's way of waiting for many files, where poll(2)
 * would look at every one of them on every call.
 *
 * An epoll is a file (epoll_create1) holding a set of watched files, one struct epitem each
 * (epoll_ctl ADD, MOD, DEL), and a ready list of the items that may have an event. Each item
 * sits on its file's wait queue (file_operations.wait_queue, the one poll and select sleep on)
 * not as a sleeping task but as a callback, ep_poll_callback: whenever the file's code wakes the
 * queue (data came, room was made, an end closed), the callback puts the item on the ready list
 * and wakes the epoll's own waiters. epoll_wait then looks only at the ready list: it asks each
 * item's file what it is ready for now (file_operations.poll), reports those asked for, and
 * decides whether the item stays on the list:
 *   - level-triggered (the default): it goes back on the list, so the next epoll_wait asks the
 *     file again and reports it again while the condition lasts;
 *   - EPOLLET (edge-triggered): it comes off, and only the file's next wakeup puts it back;
 *   - EPOLLONESHOT: it is reported once, then disabled (its events cleared) until a MOD.
 * A file that is not ready when asked comes off the list either way.
 *
 * Lucid's wakeups carry no event mask (Linux's "key"), so a wakeup of any kind makes an item a
 * candidate; what is reported is always what the file's poll says now, so the only difference
 * from Linux is for EPOLLET: a file whose queue is woken for its other direction too (a pipe's
 * one queue serves readers and writers) reports an edge there when Linux's would not.
 *
 * Locking: the set of items (ep->items, epitems) changes under the VFS lock, as every
 * file operation runs under it; the ready list and each item's place on it under ep->lock, a
 * spin lock, because the callback runs wherever the file is woken, an interrupt included (the
 * console's). remove_wait_queue() takes the file queue's lock, so once an item is off its queue
 * no callback is running for it and it can be freed. Waiting is poll's (kernel/fs/select.c):
 * on ep->wq before looking, the VFS lock let go while asleep.
 *
 * An epoll may watch another epoll (its poll: "has a ready item"), but not itself (EINVAL) nor
 * one that leads back to it, nor more than EP_MAX_NESTS deep (ELOOP), as Linux's.
 *
 * An item lives until DEL, until its epoll is closed, or until the last descriptor of its file
 * is closed (eventpoll_release_file, from fput): closing one of two descriptors of a file (a
 * dup) leaves it watched, as on Linux. The items are found for that on one list of them all
 * (Linux: on the file), looked at only while there are any.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/time/time.h"
#include "kernel/sched/wait.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

/* epoll_ctl's operations and the event bits of epoll alone (include/uapi/linux/eventpoll.h). */
#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3
#define EPOLL_CLOEXEC O_CLOEXEC
#define EPOLLEXCLUSIVE (1U << 28)
#define EPOLLWAKEUP (1U << 29)
#define EPOLLONESHOT (1U << 30)
#define EPOLLET (1U << 31)
/* The bits that say how an item is reported, not what: an item with none else is disabled. */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
/* What EPOLLEXCLUSIVE may be combined with (Linux's EPOLLEXCLUSIVE_OK_BITS). */
#define EPOLLEXCLUSIVE_OK_BITS \
	(POLLIN | POLLOUT | POLLERR | POLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)
#define EP_MAX_NESTS 4 /* epolls watching epolls, at most this deep (Linux's) */
/* epoll_wait's maxevents bound, as Linux's: the events must fit INT_MAX bytes. */
#define EP_MAX_EVENTS (INT32_MAX / (int)sizeof(struct epoll_event))

/* What user space passes and gets: packed on x86_64, 12 bytes, as Linux's EPOLL_PACKED. */
struct epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

struct eventpoll {
	spinlock_t lock; /* the ready list and each item's on_rdllist */
	struct list_head rdllist; /* items that may be ready */
	wait_queue_head_t wq; /* tasks in epoll_wait */
	wait_queue_head_t poll_wait; /* poll, select or another epoll watching this one */
	struct list_head items; /* every item, under the VFS lock */
	unsigned int nr_items;
};

struct epitem {
	struct eventpoll *ep;
	struct file *file; /* unreferenced: its last close removes the item first */
	int fd; /* with file, the item's key: the fd it was added by */
	struct epoll_event event;
	struct list_head itemlink; /* in ep->items */
	struct list_head fllink; /* in epitems: every epoll's items (eventpoll_release) */
	struct list_head rdllink; /* in ep->rdllist while on_rdllist */
	bool on_rdllist;
	struct wait_queue_entry wait; /* on whead, func ep_poll_callback */
	wait_queue_head_t *whead; /* the file's queue; NULL for a file that never wakes one */
};

static const struct file_operations eventpoll_fops;

/* Every item of every epoll, for a file's last close to find its own (vfs_internal.h says why
 * not from the file). Under the VFS lock. */
static LIST_HEAD(epitems);
unsigned int nr_epitems;

static bool is_file_epoll(const struct file *file)
{
	return file->f_op == &eventpoll_fops;
}

/* Puts epi on the ready list unless it is there; ep->lock held. */
static void list_add_ready(struct epitem *epi)
{
	if (!epi->on_rdllist) {
		list_add_tail(&epi->rdllink, &epi->ep->rdllist);
		epi->on_rdllist = true;
	}
}

static void ep_wake(struct eventpoll *ep)
{
	wake_up(&ep->wq);
	wake_up(&ep->poll_wait);
}

/*
 * The file's queue was woken: the item may be ready. Runs with that queue's lock held,
 * interrupts maybe off. A disabled item (EPOLLONESHOT, reported) waits for its MOD.
 */
static void ep_poll_callback(struct wait_queue_entry *wait)
{
	struct epitem *epi = container_of(wait, struct epitem, wait);
	struct eventpoll *ep = epi->ep;
	unsigned long flags = spin_lock_irqsave(&ep->lock);
	bool enabled = epi->event.events & ~EP_PRIVATE_BITS;

	if (enabled)
		list_add_ready(epi);
	spin_unlock_irqrestore(&ep->lock, flags);
	if (enabled)
		ep_wake(ep);
}

static unsigned int ep_poll_file(struct file *file, int depth);

/* What epi's file is ready for now, of what the item asks (POLLERR and POLLHUP always asked). */
static unsigned int ep_item_poll(struct epitem *epi, int depth)
{
	return ep_poll_file(epi->file, depth) & epi->event.events;
}

/* An epoll's own poll: readable if one of its ready items really is (Linux's ep_eventpoll_poll). */
static unsigned int ep_eventpoll_poll_depth(struct eventpoll *ep, int depth)
{
	struct epitem *epi, *next;
	unsigned int mask = 0;

	if (depth > EP_MAX_NESTS)
		return 0;
	list_for_each_entry_safe(epi, next, &ep->items, itemlink)
	{
		unsigned long flags = spin_lock_irqsave(&ep->lock);
		bool ready = epi->on_rdllist;

		spin_unlock_irqrestore(&ep->lock, flags);
		if (ready && ep_item_poll(epi, depth + 1)) {
			mask = POLLIN | POLLRDNORM;
			break;
		}
	}
	return mask;
}

static unsigned int ep_poll_file(struct file *file, int depth)
{
	if (is_file_epoll(file))
		return ep_eventpoll_poll_depth(file->private_data, depth);
	return file->f_op->poll(file);
}

static unsigned int ep_eventpoll_poll(struct file *file)
{
	return ep_eventpoll_poll_depth(file->private_data, 0);
}

static struct wait_queue_head *ep_eventpoll_wait_queue(struct file *file)
{
	return &((struct eventpoll *)file->private_data)->poll_wait;
}

/* Takes epi out of everything and frees it; VFS lock held. */
static void ep_remove(struct epitem *epi)
{
	struct eventpoll *ep = epi->ep;
	unsigned long flags;

	if (epi->whead)
		remove_wait_queue(epi->whead, &epi->wait); /* no callback runs for it after this */
	flags = spin_lock_irqsave(&ep->lock);
	if (epi->on_rdllist)
		list_del(&epi->rdllink);
	spin_unlock_irqrestore(&ep->lock, flags);
	list_del(&epi->fllink);
	list_del(&epi->itemlink);
	ep->nr_items--;
	nr_epitems--;
	kfree(epi);
}

static int ep_eventpoll_release(struct inode *inode, struct file *file)
{
	struct eventpoll *ep = file->private_data;
	struct epitem *epi, *next;

	(void)inode;
	list_for_each_entry_safe(epi, next, &ep->items, itemlink)
	{
		ep_remove(epi);
	}
	kfree(ep);
	return 0;
}

static const struct file_operations eventpoll_fops = {
	.release = ep_eventpoll_release,
	.poll = ep_eventpoll_poll,
	.wait_queue = ep_eventpoll_wait_queue,
};

void eventpoll_release_file(struct file *file)
{
	struct epitem *epi, *next;

	list_for_each_entry_safe(epi, next, &epitems, fllink)
	{
		if (epi->file == file)
			ep_remove(epi);
	}
}

static struct epitem *ep_find(struct eventpoll *ep, struct file *file, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, &ep->items, itemlink)
	{
		if (epi->file == file && epi->fd == fd)
			return epi;
	}
	return NULL;
}

/*
 * Whether watching the epoll file tf from ep would close a loop or nest too deep: ep reachable
 * from tf, or tf's chain of epolls deeper than EP_MAX_NESTS (Linux's ep_loop_check).
 */
static bool ep_loop_check(struct eventpoll *ep, struct eventpoll *tep, int depth)
{
	struct epitem *epi;

	if (tep == ep || depth > EP_MAX_NESTS)
		return true;
	list_for_each_entry(epi, &tep->items, itemlink)
	{
		if (is_file_epoll(epi->file) &&
		    ep_loop_check(ep, epi->file->private_data, depth + 1))
			return true;
	}
	return false;
}

/* Puts epi on the ready list and wakes the waiters if its file has what it asks for now. */
static void ep_check_ready(struct epitem *epi)
{
	struct eventpoll *ep = epi->ep;

	if (ep_item_poll(epi, 0)) {
		unsigned long flags = spin_lock_irqsave(&ep->lock);

		list_add_ready(epi);
		spin_unlock_irqrestore(&ep->lock, flags);
		ep_wake(ep);
	}
}

static int ep_insert(struct eventpoll *ep, const struct epoll_event *event, struct file *tfile,
		     int fd)
{
	struct epitem *epi;

	if (is_file_epoll(tfile) && ep_loop_check(ep, tfile->private_data, 1))
		return -ELOOP;
	epi = kzalloc(sizeof(*epi));
	if (!epi)
		return -ENOMEM;
	epi->ep = ep;
	epi->file = tfile;
	epi->fd = fd;
	epi->event = *event;
	epi->wait.func = ep_poll_callback;
	INIT_LIST_HEAD(&epi->rdllink);
	list_add_tail(&epi->itemlink, &ep->items);
	list_add_tail(&epi->fllink, &epitems);
	ep->nr_items++;
	nr_epitems++;
	/* On the queue before the first look, as poll: a wakeup in between is not lost. */
	epi->whead = tfile->f_op->wait_queue ? tfile->f_op->wait_queue(tfile) : NULL;
	if (epi->whead)
		add_wait_queue(epi->whead, &epi->wait);
	ep_check_ready(epi);
	return 0;
}

static void ep_modify(struct epitem *epi, const struct epoll_event *event)
{
	unsigned long flags = spin_lock_irqsave(&epi->ep->lock);

	epi->event = *event; /* under the lock: the callback reads events */
	spin_unlock_irqrestore(&epi->ep->lock, flags);
	ep_check_ready(epi);
}

long sys_epoll_create1(int flags)
{
	struct eventpoll *ep;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kzalloc(sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->rdllist);
	INIT_LIST_HEAD(&ep->items);
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	fd = anon_inode_getfd("[eventpoll]", &eventpoll_fops, ep, O_RDWR | (flags & O_CLOEXEC));
	if (fd < 0)
		kfree(ep);
	return fd;
}

/* epoll_create(size): the size is only a hint since Linux 2.6.8, but must be positive. */
long sys_epoll_create(int size)
{
	if (size <= 0)
		return -EINVAL;
	return sys_epoll_create1(0);
}

static bool ep_op_has_event(int op)
{
	return op != EPOLL_CTL_DEL;
}

/* Linux's do_epoll_ctl: its checks in its order, so each wrong call gets Linux's errno. */
long sys_epoll_ctl(int epfd, int op, int fd, struct epoll_event __user *uevent)
{
	struct epoll_event event = {0};
	struct file *file, *tfile;
	struct eventpoll *ep;
	struct epitem *epi;
	long error;

	if (ep_op_has_event(op) && copy_from_user(&event, uevent, sizeof(event)))
		return -EFAULT;
	vfs_lock();
	error = -EBADF;
	file = fget(epfd);
	tfile = fget(fd);
	if (!file || !tfile)
		goto out;
	error = -EPERM; /* a file that cannot be polled: a regular file, /dev/null */
	if (!tfile->f_op || !tfile->f_op->poll)
		goto out;
	error = -EINVAL;
	if (file == tfile || !is_file_epoll(file))
		goto out;
	if (ep_op_has_event(op) && (event.events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD || (event.events & ~EPOLLEXCLUSIVE_OK_BITS) ||
		    is_file_epoll(tfile))
			goto out;
	}
	ep = file->private_data;
	epi = ep_find(ep, tfile, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		event.events |= POLLERR | POLLHUP; /* always reported */
		error = epi ? -EEXIST : ep_insert(ep, &event, tfile, fd);
		break;
	case EPOLL_CTL_DEL:
		error = -ENOENT;
		if (epi) {
			ep_remove(epi);
			error = 0;
		}
		break;
	case EPOLL_CTL_MOD:
		error = -ENOENT;
		if (epi) {
			error = 0;
			if (!(epi->event.events & EPOLLEXCLUSIVE)) {
				event.events |= POLLERR | POLLHUP;
				ep_modify(epi, &event);
			}
		}
		break;
	default:
		break; /* EINVAL */
	}
out:
	vfs_unlock();
	return error;
}

/*
 * Takes up to maxevents events off the ready list into events (Linux's ep_send_events): each
 * item's file is asked what it is ready for now; level-triggered items go back on the list,
 * edge-triggered ones stay off until the next wakeup, one-shot ones are disabled. Items not
 * reached stay on the list, in order. VFS lock held.
 */
static int ep_send_events(struct eventpoll *ep, struct epoll_event *events, int maxevents)
{
	struct list_head txlist;
	unsigned long flags;
	int res = 0;

	INIT_LIST_HEAD(&txlist);
	flags = spin_lock_irqsave(&ep->lock);
	list_splice_tail_init(&ep->rdllist, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	while (!list_empty(&txlist) && res < maxevents) {
		struct epitem *epi = list_first_entry(&txlist, struct epitem, rdllink);
		unsigned int revents;

		/* Off the list first: a wakeup from now on puts it back (on rdllist). */
		flags = spin_lock_irqsave(&ep->lock);
		list_del_init(&epi->rdllink);
		epi->on_rdllist = false;
		spin_unlock_irqrestore(&ep->lock, flags);
		revents = ep_item_poll(epi, 0);
		if (!revents)
			continue;
		events[res].events = revents;
		events[res].data = epi->event.data;
		res++;
		flags = spin_lock_irqsave(&ep->lock);
		if (epi->event.events & EPOLLONESHOT)
			epi->event.events &= EP_PRIVATE_BITS;
		else if (!(epi->event.events & EPOLLET))
			list_add_ready(epi); /* level: asked again next time */
		spin_unlock_irqrestore(&ep->lock, flags);
	}
	/* What was not reached goes back in front, before what was woken meanwhile. */
	flags = spin_lock_irqsave(&ep->lock);
	list_splice_tail_init(&ep->rdllist, &txlist);
	list_splice_tail_init(&txlist, &ep->rdllist);
	spin_unlock_irqrestore(&ep->lock, flags);
	return res;
}

static bool ep_events_available(struct eventpoll *ep)
{
	unsigned long flags = spin_lock_irqsave(&ep->lock);
	bool avail = !list_empty(&ep->rdllist);

	spin_unlock_irqrestore(&ep->lock, flags);
	return avail;
}

/*
 * Waits until ep has events, deadline (ktime ns) passes or a signal comes, and fills events.
 * A signal ends it with EINTR, never restarted (Linux's ep_poll), whatever SA_RESTART says.
 */
static long ep_poll(struct eventpoll *ep, struct epoll_event *events, int maxevents,
		    uint64_t deadline)
{
	struct wait_queue_entry w = {0};
	long res;

	for (;;) {
		prepare_to_wait(&ep->wq, &w, TASK_INTERRUPTIBLE);
		if (ep_events_available(ep)) {
			set_current_state(TASK_RUNNING); /* the files' poll may sleep on a mutex */
			res = ep_send_events(ep, events, maxevents);
			if (res)
				break;
			continue; /* all false alarms: wait again, on the queue already */
		}
		res = 0;
		if (ktime_get_ns() >= deadline)
			break;
		if (signal_pending_current()) {
			res = -EINTR;
			break;
		}
		poll_schedule_timeout(deadline);
	}
	finish_wait(&ep->wq, &w);
	return res;
}

static long do_epoll_wait(int epfd, struct epoll_event __user *uevents, int maxevents,
			  uint64_t deadline)
{
	struct epoll_event *events;
	struct eventpoll *ep;
	struct file *file;
	int err;
	long res;

	if (maxevents <= 0 || maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (!access_ok(uevents, (size_t)maxevents * sizeof(struct epoll_event)))
		return -EFAULT;
	vfs_lock();
	file = fget_anon(epfd, &eventpoll_fops, &err);
	if (!file) {
		vfs_unlock();
		return err;
	}
	ep = file->private_data;
	/* Never more than there are items: each is reported once a call. */
	maxevents = (int)MIN((unsigned int)maxevents, MAX(ep->nr_items, 1U));
	events = kmalloc((size_t)maxevents * sizeof(*events));
	if (!events) {
		vfs_unlock();
		return -ENOMEM;
	}
	file->f_count++; /* ours while the lock is let go: a close meanwhile does not free ep */
	res = ep_poll(ep, events, maxevents, deadline);
	fput(file);
	vfs_unlock();
	if (res > 0 && copy_to_user(uevents, events, (size_t)res * sizeof(*events)))
		res = -EFAULT;
	kfree(events);
	return res;
}

static uint64_t ms_deadline(int timeout)
{
	uint64_t now = ktime_get_ns();

	if (timeout < 0)
		return NO_TIMEOUT;
	return now + (uint64_t)timeout * NSEC_PER_MSEC;
}

long sys_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents, int timeout)
{
	return do_epoll_wait(epfd, events, maxevents, ms_deadline(timeout));
}

/* As epoll_wait, with sigmask the caller's mask while it waits (ppoll's way; signals.md). */
long sys_epoll_pwait(int epfd, struct epoll_event __user *events, int maxevents, int timeout,
		     const uint64_t __user *sigmask, size_t sigsetsize)
{
	long ret = set_user_sigmask(sigmask, sigsetsize);

	if (ret)
		return ret;
	ret = do_epoll_wait(epfd, events, maxevents, ms_deadline(timeout));
	if (ret != -EINTR)
		restore_saved_sigmask(); /* a signal's handler frame puts it back (select.c) */
	return ret;
}

/* epoll_pwait2 (Linux 5.11): the timeout a timespec, NULL for none. */
long sys_epoll_pwait2(int epfd, struct epoll_event __user *events, int maxevents,
		      const struct timespec64 __user *timeout, const uint64_t __user *sigmask,
		      size_t sigsetsize)
{
	uint64_t deadline = NO_TIMEOUT;
	struct timespec64 ts;
	long ret;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		deadline = (uint64_t)ts.tv_sec >= NO_TIMEOUT / NSEC_PER_SEC / 2
				   ? NO_TIMEOUT
				   : ktime_get_ns() + (uint64_t)ts.tv_sec * NSEC_PER_SEC +
					     (uint64_t)ts.tv_nsec;
	}
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_epoll_wait(epfd, events, maxevents, deadline);
	if (ret != -EINTR)
		restore_saved_sigmask();
	return ret;
}

/*
 * timerfd (Linux's fs/timerfd.c): a timer as a file, so that an event loop waits for its
 * deadlines in epoll with its other files.
 *
 * timerfd_settime arms it: a first expiry (it_value, relative or, with TFD_TIMER_ABSTIME, a
 * time on the file's clock) and an interval after that (it_interval, 0: once). Each expiry
 * counts one tick; a read returns the ticks since the last read as a uint64_t and sets them to
 * 0, waiting while there are none (EAGAIN with TFD_NONBLOCK). Poll says readable while ticks
 * are pending. timerfd_gettime gives the time left to the next expiry and the interval.
 *
 * As Linux's, the timer (a struct timer_list, kernel/time/timer.c) fires once and stays
 * stopped until the ticks are read (or gettime is asked): the intervals that passed meanwhile
 * are counted then, all at once, and the timer is started again at the next one in the future
 * (Linux's hrtimer_forward_now). So a periodic timerfd nobody reads costs nothing.
 *
 * Every clock is ktime_get_ns() underneath (kernel/time/time.c): CLOCK_REALTIME is it plus
 * offs_real (kernel/time/timekeeping.c). An absolute time on a date's clock (CLOCK_REALTIME,
 * CLOCK_REALTIME_ALARM) is a date: it is converted with the offset of the moment and the
 * offset kept beside it (is_real, offs_real, as kernel/time/hrtimer.c's realtime base), and
 * when a program sets the date, timerfd_clock_was_set() moves it to wait for the same date.
 * TFD_TIMER_CANCEL_ON_SET, with TFD_TIMER_ABSTIME on those clocks, makes the file "cancelled"
 * by a change of date, as Linux's: it turns readable, and the next read says ECANCELED (so
 * does a timerfd_settime that re-arms it first), after which it is an ordinary timer again.
 * moffs is the date's offset the file last knew, KTIME_MAX once cancelled (Linux's names).
 * Expiries come with the timer tick (10 ms), as Lucid's sleeps.
 *
 * Locking: ctx->lock (a spin lock: the timer function runs from the tick) guards ticks and the
 * timer's state; the file's operations also run under the VFS lock, and so does the walk of
 * the files on a date's clock (timerfd_realtime) when the date is set.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/time/hrtimer.h" /* KTIME_MAX, timerfd_clock_was_set */
#include "kernel/panic.h"
#include "kernel/sched/wait.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CLOCK_REALTIME 0 /* Linux's clock ids (kernel/time/time.c has them all) */
#define CLOCK_MONOTONIC 1
#define CLOCK_BOOTTIME 7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#define TFD_TIMER_ABSTIME (1 << 0)
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#define TFD_CLOEXEC O_CLOEXEC
#define TFD_NONBLOCK O_NONBLOCK
#define TFD_CREATE_FLAGS (TFD_CLOEXEC | TFD_NONBLOCK)
#define TFD_SETTIME_FLAGS (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
#define KTIME_SEC_MAX (INT64_MAX / (int64_t)NSEC_PER_SEC) /* a time past this: forever */

struct itimerspec64 {
	struct timespec64 it_interval;
	struct timespec64 it_value;
};

struct timerfd_ctx {
	spinlock_t lock; /* ticks, expires, armed */
	struct timer_list t; /* pending while armed and not yet expired */
	wait_queue_head_t wqh; /* woken at each expiry */
	int clockid;
	uint64_t ticks; /* expiries not yet read */
	uint64_t expires; /* the next (or last) expiry, in ktime_get_ns() time */
	uint64_t interval; /* ns; 0: once */
	bool armed; /* set and not disarmed: expires means something */
	bool is_real; /* armed for a date: expires + offs_real is it, always */
	uint64_t offs_real;
	bool might_cancel; /* set with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET on a date */
	uint64_t moffs; /* the date's offset as last seen; KTIME_MAX: cancelled, not yet read */
	struct list_head clist; /* on timerfd_realtime: the files on a date's clock */
};

static bool is_realtime(int clockid)
{
	return clockid == CLOCK_REALTIME || clockid == CLOCK_REALTIME_ALARM;
}

/* The files on CLOCK_REALTIME or CLOCK_REALTIME_ALARM, which a change of date concerns. */
static LIST_HEAD(timerfd_realtime); /* under the VFS lock */

/*
 * Cancelled by a change of date since the last look (Linux's timerfd_canceled): true once, and
 * the file knows the date's offset again. ctx->lock held.
 */
static bool timerfd_canceled(struct timerfd_ctx *ctx)
{
	if (!ctx->might_cancel || ctx->moffs != KTIME_MAX)
		return false;
	ctx->moffs = ktime_get_real_offset_ns();
	return true;
}

/*
 * The date was set (clock_was_set, kernel/time/hrtimer.c; offs_real is new): each file armed
 * for a date waits for the same date on the new offset, and each that may be cancelled and
 * had not seen this offset is cancelled, woken, readable (Linux's timerfd_clock_was_set, with
 * what its realtime hrtimer base does for the move). The timer is stopped while expires moves
 * (its function takes ctx->lock inside the timers' lock: never the other way round).
 */
void timerfd_clock_was_set(void)
{
	uint64_t offs = ktime_get_real_offset_ns();
	struct timerfd_ctx *ctx;

	vfs_lock();
	list_for_each_entry(ctx, &timerfd_realtime, clist)
	{
		bool pending = del_timer(&ctx->t), wake = false;
		unsigned long flags = spin_lock_irqsave(&ctx->lock);

		if (ctx->armed && ctx->is_real && ctx->offs_real != offs &&
		    ctx->expires != INT64_MAX) {
			uint64_t date = ctx->expires + ctx->offs_real;

			ctx->expires =
				date > offs ? date - offs : 0; /* now past: at the next tick */
			ctx->offs_real = date - ctx->expires;
			ctx->t.expires = ctx->expires;
		}
		if (ctx->might_cancel && ctx->moffs != offs) {
			ctx->moffs = KTIME_MAX;
			ctx->ticks++; /* readable, and a sleeping read wakes to say ECANCELED */
			wake = true;
		}
		spin_unlock_irqrestore(&ctx->lock, flags);
		if (pending)
			add_timer(&ctx->t);
		if (wake)
			wake_up(&ctx->wqh);
	}
	vfs_unlock();
}

static void timerfd_fn(struct timer_list *t)
{
	struct timerfd_ctx *ctx = t->data;
	unsigned long flags = spin_lock_irqsave(&ctx->lock);

	ctx->ticks++;
	if (!ctx->interval)
		ctx->armed = false; /* a one-shot is over: gettime says 0 */
	spin_unlock_irqrestore(&ctx->lock, flags);
	wake_up(&ctx->wqh);
}

/*
 * An expired periodic timer: counts the intervals that passed since its expiry as ticks (one
 * is counted already) and moves expires to the next one to come. ctx->lock held, the timer
 * stopped (it expired). True if the caller must start it again, with add_timer once the lock
 * is let go: the timer's function takes ctx->lock inside the timers' lock, so we may not take
 * them the other way round.
 */
static bool timerfd_forward(struct timerfd_ctx *ctx)
{
	uint64_t now = ktime_get_ns();

	if (!ctx->armed || !ctx->interval || !ctx->ticks || ctx->expires > now)
		return false;
	uint64_t missed = (now - ctx->expires) / ctx->interval + 1;

	ctx->ticks += missed - 1;
	ctx->expires += missed * ctx->interval;
	ctx->t.expires = ctx->expires;
	return true;
}

static ssize_t timerfd_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct timerfd_ctx *ctx = file->private_data;
	unsigned long flags;
	uint64_t ticks;
	bool restart;

	(void)pos;
	if (count < sizeof(ticks))
		return -EINVAL;
	flags = spin_lock_irqsave(&ctx->lock);
	if (timerfd_canceled(ctx)) {
		/*
		 * The date changed: the ticks mean nothing, and a periodic timer is not re-armed.
		 */
		ctx->ticks = 0;
		spin_unlock_irqrestore(&ctx->lock, flags);
		return -ECANCELED;
	}
	restart = timerfd_forward(ctx);
	ticks = ctx->ticks;
	ctx->ticks = 0;
	spin_unlock_irqrestore(&ctx->lock, flags);
	if (restart)
		add_timer(&ctx->t); /* under the VFS lock: nothing else starts it meanwhile */
	if (!ticks)
		return -EAGAIN;
	memcpy(buf, &ticks, sizeof(ticks));
	return sizeof(ticks);
}

static unsigned int timerfd_poll(struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;

	return READ_ONCE(ctx->ticks) ? POLLIN | POLLRDNORM : 0;
}

static struct wait_queue_head *timerfd_wait_queue(struct file *file)
{
	return &((struct timerfd_ctx *)file->private_data)->wqh;
}

static int timerfd_release(struct inode *inode, struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;

	(void)inode;
	WARN_ON(!vfs_lock_held()); /* timerfd_realtime's lock */
	list_del_init(&ctx->clist); /* from timerfd_realtime, if it was there */
	del_timer(&ctx->t); /* its function is not running once this returns */
	kfree(ctx);
	return 0;
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.release = timerfd_release,
	.poll = timerfd_poll,
	.wait_queue = timerfd_wait_queue,
};

long sys_timerfd_create(int clockid, int flags)
{
	struct timerfd_ctx *ctx;
	int fd;

	if (flags & ~TFD_CREATE_FLAGS)
		return -EINVAL;
	if (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME && clockid != CLOCK_BOOTTIME &&
	    clockid != CLOCK_REALTIME_ALARM && clockid != CLOCK_BOOTTIME_ALARM)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	spin_lock_init(&ctx->lock);
	init_waitqueue_head(&ctx->wqh);
	INIT_LIST_HEAD(&ctx->t.entry);
	ctx->t.fn = timerfd_fn;
	ctx->t.data = ctx;
	ctx->clockid = clockid;
	ctx->moffs = ktime_get_real_offset_ns();
	INIT_LIST_HEAD(&ctx->clist);
	/* On the list before the file exists (anon_inode_getfd takes the VFS lock itself). */
	if (is_realtime(clockid)) {
		vfs_lock();
		list_add(&ctx->clist, &timerfd_realtime);
		vfs_unlock();
	}
	fd = anon_inode_getfd("[timerfd]", &timerfd_fops, ctx, O_RDWR | flags);
	if (fd < 0) {
		vfs_lock();
		list_del(&ctx->clist);
		vfs_unlock();
		kfree(ctx);
	}
	return fd;
}

static bool timespec64_valid(const struct timespec64 *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && (uint64_t)ts->tv_nsec < NSEC_PER_SEC;
}

static uint64_t timespec64_to_ns(const struct timespec64 *ts)
{
	if (ts->tv_sec >= KTIME_SEC_MAX)
		return INT64_MAX;
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static struct timespec64 ns_to_timespec64(uint64_t ns)
{
	return (struct timespec64){(long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC)};
}

/*
 * The time left to the next expiry (0 if it is past or the timer disarmed) and the interval,
 * as gettime and settime's old value give them; an expired periodic timer is moved on first,
 * as Linux's timerfd_gettime. ctx->lock held; true if the timer must be started again.
 */
static bool timerfd_get(struct timerfd_ctx *ctx, struct itimerspec64 *cur)
{
	bool restart = timerfd_forward(ctx);
	uint64_t now = ktime_get_ns();

	cur->it_interval = ns_to_timespec64(ctx->interval);
	cur->it_value = ns_to_timespec64(ctx->armed && ctx->expires > now ? ctx->expires - now : 0);
	return restart;
}

long sys_timerfd_settime(int ufd, int flags, const struct itimerspec64 __user *utmr,
			 struct itimerspec64 __user *otmr)
{
	struct itimerspec64 new, old;
	struct timerfd_ctx *ctx;
	struct file *file;
	unsigned long irqflags;
	int err;

	if (copy_from_user(&new, utmr, sizeof(new)))
		return -EFAULT;
	if ((flags & ~TFD_SETTIME_FLAGS) || !timespec64_valid(&new.it_value) ||
	    !timespec64_valid(&new.it_interval))
		return -EINVAL;
	vfs_lock();
	file = fget_anon(ufd, &timerfd_fops, &err);
	if (!file) {
		vfs_unlock();
		return err;
	}
	ctx = file->private_data;
	del_timer(&ctx->t); /* stopped (and its function not running) while it changes */
	irqflags = spin_lock_irqsave(&ctx->lock);
	/* Linux's timerfd_setup_cancel: only an absolute time on a date may be cancelled. */
	ctx->might_cancel = is_realtime(ctx->clockid) && (flags & TFD_TIMER_ABSTIME) &&
			    (flags & TFD_TIMER_CANCEL_ON_SET);
	(void)timerfd_get(ctx, &old); /* not started again: it is set anew below */
	ctx->ticks = 0; /* Linux: setting the timer forgets the expiries not read */
	ctx->armed = new.it_value.tv_sec || new.it_value.tv_nsec;
	ctx->interval = timespec64_to_ns(&new.it_interval);
	ctx->is_real = ctx->armed && (flags & TFD_TIMER_ABSTIME) && is_realtime(ctx->clockid);
	err = 0;
	if (ctx->armed) {
		uint64_t value = timespec64_to_ns(&new.it_value), now = ktime_get_ns();
		uint64_t offs = ktime_get_real_offset_ns();

		if (!(flags & TFD_TIMER_ABSTIME))
			ctx->expires = value > INT64_MAX - now ? INT64_MAX : now + value;
		else if (ctx->is_real && value != INT64_MAX) /* a date: see the top */
			ctx->expires = value > offs ? value - offs : 0;
		else
			ctx->expires = value;
		ctx->offs_real = ctx->is_real ? value - ctx->expires : 0; /* date = expires + it */
		ctx->t.expires = ctx->expires;
		/* Armed, and cancelled by a change of date not yet read: Linux says so here. */
		if (timerfd_canceled(ctx))
			err = -ECANCELED;
	}
	spin_unlock_irqrestore(&ctx->lock, irqflags);
	if (ctx->armed)
		add_timer(&ctx->t); /* a time past fires at the next tick, as Linux's at once */
	vfs_unlock();
	if (err)
		return err; /* the old value is not written, as Linux's */
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(int ufd, struct itimerspec64 __user *otmr)
{
	struct itimerspec64 cur;
	struct timerfd_ctx *ctx;
	struct file *file;
	unsigned long flags;
	bool restart;
	int err;

	vfs_lock();
	file = fget_anon(ufd, &timerfd_fops, &err);
	if (!file) {
		vfs_unlock();
		return err;
	}
	ctx = file->private_data;
	flags = spin_lock_irqsave(&ctx->lock);
	restart = timerfd_get(ctx, &cur);
	spin_unlock_irqrestore(&ctx->lock, flags);
	if (restart)
		add_timer(&ctx->t);
	vfs_unlock();
	return copy_to_user(otmr, &cur, sizeof(cur)) ? -EFAULT : 0;
}

/*
 * POSIX per-process timers: timer_create, timer_settime, timer_gettime, timer_getoverrun and
 * timer_delete (Linux's kernel/time/posix-timers.c).
 *
 * A process makes as many timers as it likes (up to its RLIMIT_SIGPENDING: EAGAIN past it),
 * each numbered from 0 up within the process, as Linux numbers them. A timer counts on a clock
 * and, when its time comes, notifies as its struct sigevent says:
 *	SIGEV_SIGNAL	a signal to the process (si_code SI_TIMER, the timer's id, the program's
 *			sigev_value, and si_overrun);
 *	SIGEV_THREAD_ID	the same, to one thread of the process (glibc's SIGEV_THREAD is this,
 *			to a helper thread that sigwaitinfo()s and starts the program's function);
 *	SIGEV_NONE	nothing: timer_gettime says how long is left.
 *
 * How: each timer is an hrtimer (kernel/time/hrtimer.c), set up anew at each timer_settime
 * as Linux's common_hrtimer_arm: an absolute time on a date's clock (CLOCK_REALTIME, TAI,
 * CLOCK_REALTIME_ALARM) on the realtime base, whose timers clock_was_set moves when the date
 * is set; every relative time, and the other clocks' (CLOCK_MONOTONIC and CLOCK_BOOTTIME are
 * one here: Lucid never suspends), on the monotonic one. The CPU-time clocks are counted by
 * the tick instead (kernel/time/posix-cpu-timers.c).
 *
 * One signal per timer at most (POSIX; Linux's preallocated sigqueue): each timer owns one
 * queue entry, and an expiry while it is still pending adds to its overrun count instead of
 * queueing another. A periodic timer is not re-armed when it fires but when its signal is
 * taken (posixtimer_rearm, from kernel/signal.c's dequeue): the expiries missed meanwhile are
 * then counted (hrtimer_forward) into the si_overrun the program sees and timer_getoverrun
 * returns. it_requeue_pending tells a signal of the timer's current setting from an older one:
 * odd while the signal is out, +2 at every timer_settime; only a match re-arms. If the signal is
 * ignored, nothing will take it, so the timer re-arms itself at once (at most every tick).
 *
 * Timers are the process's: fork gives the child none, exec and the last thread's exit delete
 * them all (and exec drops their pending signals). Deleting a timer whose signal is pending
 * leaves the signal to be delivered, as Linux does.
 *
 * Locking: one lock, posix_timers_lock, guards every process's list and every timer's state;
 * the hrtimer function takes it in hard irq, so it is taken with interrupts off, and before
 * kernel/signal.c's sig_lock. A timer whose function is running on another CPU cannot be
 * cancelled under the lock (the function waits for it): settime and delete let go, wait, and
 * look the timer up again (Linux's TIMER_RETRY).
 */
#include "kernel/syscalls.h"
#include "kernel/time/posix-timers.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/cputime.h"
#include "kernel/signal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/spinlock.h"
#include "kernel/fs/seq_file.h"
#include "kernel/panic.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SIGEV_SIGNAL 0 /* Linux's sigev_notify values */
#define SIGEV_NONE 1
#define SIGEV_THREAD 2
#define SIGEV_THREAD_ID 4
#define SIGEV_MAX_SIZE 64 /* struct sigevent, as the C libraries pass it */
#define REQUEUE_PENDING 1 /* it_requeue_pending's low bit: a signal is out */
#define TIMER_RETRY 1 /* the timer's function runs: let go and try again */
#define TIMER_ID_MAX 0x7fffffff /* ids are positive ints (Linux's INT_MAX) */

/* Linux's sigevent_t on x86_64. */
struct sigevent_user {
	uint64_t sigev_value;
	int sigev_signo;
	int sigev_notify;
	union {
		int tid; /* SIGEV_THREAD_ID */
		char pad[SIGEV_MAX_SIZE - 16];
	} un;
};
_Static_assert(sizeof(struct sigevent_user) == SIGEV_MAX_SIZE, "Linux's sigevent_t");

struct k_itimer {
	struct list_head list; /* on its process's posix_timers (its leader's) */
	struct list_head cpu_list; /* a CPU-time timer: on cpu_timers, for the tick */
	int it_id;
	int it_clock;
	int it_clock_shown; /* /proc/PID/timers' ClockID: Linux's it_clock (PROCESS_CLOCK for 2) */
	int it_sigev_notify;
	int it_tid; /* SIGEV_THREAD_ID: the thread the signal goes to */
	bool it_active; /* armed, its signal not yet sent */
	bool it_cpu; /* on a CPU-time clock: the tick runs it (posix-cpu-timers.c) */
	int64_t it_overrun; /* expiries missed since the signal went; -1 before the first */
	int64_t it_overrun_last; /* it_overrun as the last signal was taken */
	int it_requeue_pending;
	uint64_t it_interval; /* ns; 0: one shot */
	uint64_t it_cpu_expires; /* a CPU-time timer: the clock's reading it fires at */
	struct task *it_process; /* the process's leader: it outlives the timer (exit deletes it) */
	struct sigqueue *sigq; /* its one signal */
	struct hrtimer timer; /* its expiry on ktime_get_ns(), queued or not (SIGEV_NONE) */
};

static DEFINE_SPINLOCK(posix_timers_lock);
/*
 * The CPU-time timers of every process. The tick looks at them all (a timer may count another
 * process's time), only when there are some: nr_cpu_timers is read without the lock.
 */
static LIST_HEAD(cpu_timers);
static int nr_cpu_timers;

static struct list_head *timers_of(struct task *leader)
{
	/* a new task's is empty (sched_task_init): fork's child too */
	return &leader->posix_timers;
}

/* current's process's timer id, with posix_timers_lock held; NULL if it has none of that id. */
static struct k_itimer *find_timer(int id)
{
	struct k_itimer *timr;

	if (id < 0)
		return NULL;
	list_for_each_entry(timr, timers_of(current->group_leader), list)
	{
		if (timr->it_id == id)
			return timr;
	}
	return NULL;
}

/*
 * Which clocks a timer may count on: 0, -EINVAL (no such clock), -EOPNOTSUPP (no timers). A CPU
 * clock's task is looked for later, as Linux's posix_cpu_timer_create does.
 */
static int timer_clock_ok(int clock)
{
	if (clock < 0) /* a dynamic clock's fd (none here, and they take no timers), or a CPU one */
		return (clock & CLOCKFD_MASK) == CLOCKFD ? -EOPNOTSUPP : 0;
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
	/* Linux: with an RTC and CAP_WAKE_ALARM, both of which Lucid's root has. */
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP; /* clocks that can be read, not timed (Linux's) */
	default:
		return -EINVAL;
	}
}

static bool is_cpu_clock(int clock)
{
	return clock < 0 || clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID;
}

/* A CPU-time timer's clock, with pid 0 made the creator's (Linux's does the same at create). */
static int cpu_timer_clock(int clock)
{
	if (clock == CLOCK_PROCESS_CPUTIME_ID)
		return MAKE_PROCESS_CPUCLOCK(current->tgid, CPUCLOCK_SCHED);
	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return MAKE_THREAD_CPUCLOCK(current->pid, CPUCLOCK_SCHED);
	if (CPUCLOCK_PID(clock) == 0)
		return CPUCLOCK_PERTHREAD(clock)
			       ? MAKE_THREAD_CPUCLOCK(current->pid, CPUCLOCK_WHICH(clock))
			       : MAKE_PROCESS_CPUCLOCK(current->tgid, CPUCLOCK_WHICH(clock));
	return clock;
}

/* The timer's clock now, in the unit its expiry counts: ktime_get_ns(), or CPU time. */
static uint64_t timer_now(struct k_itimer *timr)
{
	uint64_t ns = 0;

	if (!timr->it_cpu)
		return ktime_get_ns();
	cpu_clock_read(timr->it_clock, &ns); /* 0 once its task is gone: it never fires */
	return ns;
}

static uint64_t *timer_expires(struct k_itimer *timr)
{
	return timr->it_cpu ? &timr->it_cpu_expires : &timr->timer.expires;
}

/* hrtimer_forward on either kind: expiry moved on past now by whole intervals, how many. */
static uint64_t timer_forward(struct k_itimer *timr, uint64_t now)
{
	uint64_t *expires = timer_expires(timr), n;

	if (now < *expires)
		return 0;
	n = (now - *expires) / timr->it_interval + 1;
	*expires += n * timr->it_interval;
	return n;
}

static int timer_overrun_to_int(struct k_itimer *timr, int64_t base)
{
	int64_t sum = timr->it_overrun_last + base;

	return sum > TIMER_ID_MAX ? TIMER_ID_MAX : (int)sum;
}

/* The signal for an expiry: 1 if it was ignored (or nobody takes it) and nothing will re-arm. */
static bool posix_timer_event(struct k_itimer *timr, int si_private)
{
	int tid = timr->it_sigev_notify & SIGEV_THREAD_ID ? timr->it_tid : 0;

	timr->sigq->info.sys_private = si_private;
	return send_sigqueue(timr->sigq, timr->it_process, tid) > 0;
}

/* An expiry, posix_timers_lock held: the signal goes; a periodic timer whose signal was
 * ignored moves on at once (not more often than a tick). True if it goes again. */
static bool timer_expired(struct k_itimer *timr, uint64_t now)
{
	int si_private = 0;

	timr->it_active = false;
	if (timr->it_interval)
		si_private = ++timr->it_requeue_pending;
	if (!posix_timer_event(timr, si_private) || !timr->it_interval)
		return false;
	if (timr->it_interval < TICK_NSEC)
		now += TICK_NSEC; /* Linux's guard: an ignored 1 ns timer must not eat the CPU */
	timr->it_overrun += timer_forward(timr, now);
	++timr->it_requeue_pending;
	timr->it_active = true;
	return true;
}

/* The hrtimer's function: hard irq, interrupts off. */
static enum hrtimer_restart posix_timer_fn(struct hrtimer *timer)
{
	struct k_itimer *timr = container_of(timer, struct k_itimer, timer);
	unsigned long flags = spin_lock_irqsave(&posix_timers_lock);
	bool again = timer_expired(timr, ktime_get_ns());

	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return again ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/* The tick (kernel/time/timer.c), interrupts off: the CPU-time timers whose time has come. */
void run_posix_cpu_timers(void)
{
	struct k_itimer *timr;

	if (!READ_ONCE(nr_cpu_timers))
		return; /* the common case: nothing to look at */
	spin_lock(&posix_timers_lock);
	list_for_each_entry(timr, &cpu_timers, cpu_list)
	{
		if (!timr->it_active)
			continue;
		uint64_t now = timer_now(timr);

		if (now >= timr->it_cpu_expires)
			timer_expired(timr, now);
	}
	spin_unlock(&posix_timers_lock);
}

void posixtimer_rearm(struct ksiginfo *info)
{
	struct k_itimer *timr;
	unsigned long flags;

	if (info->code != SI_TIMER || !info->sys_private)
		return;
	flags = spin_lock_irqsave(&posix_timers_lock);
	timr = find_timer(info->timer_id);
	if (timr && timr->it_interval && timr->it_requeue_pending == info->sys_private) {
		/* Off the queue while its signal was out: the date may have moved meanwhile. */
		if (!timr->it_cpu)
			hrtimer_update_expires(&timr->timer);
		timr->it_overrun += timer_forward(timr, timer_now(timr));
		if (!timr->it_cpu)
			hrtimer_start_expires(&timr->timer);
		timr->it_active = true;
		timr->it_overrun_last = timr->it_overrun;
		timr->it_overrun = -1;
		++timr->it_requeue_pending;
		info->overrun = timer_overrun_to_int(timr, info->overrun);
	}
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	info->sys_private = 0; /* the user never sees it, as Linux's */
}

/* The sigevent's target: 0, or -EINVAL (Linux's good_sigevent). */
static int check_sigevent(const struct sigevent_user *ev)
{
	struct task *th;
	bool found = false;

	switch (ev->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID: {
		unsigned long flags = spin_lock_irqsave(&task_list_lock);

		list_for_each_entry(th, &task_list, tasks)
		{
			if (th->pid == ev->un.tid && th->group_leader == current->group_leader &&
			    !th->zombie)
				found = true;
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		if (!found)
			return -EINVAL;
	}
		/* fall through */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		if (ev->sigev_signo <= 0 || ev->sigev_signo > _NSIG)
			return -EINVAL;
		/* fall through */
	case SIGEV_NONE:
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * In Linux's order, which programs can see: the clock (no id taken yet), the allocation, then
 * the id, then the sigevent's target, the id's copy-out and a CPU clock's task, each of which
 * fails with the id spent (the next timer gets the one after).
 */
long sys_timer_create(int which_clock, const struct sigevent_user __user *uev,
		      int __user *created_timer_id)
{
	struct task *leader = current->group_leader;
	struct sigevent_user ev;
	struct k_itimer *timr, *pos;
	unsigned long flags;
	int err = timer_clock_ok(which_clock), n = 0;

	if (err)
		return err;
	if (uev && copy_from_user(&ev, uev, sizeof(ev)))
		return -EFAULT;
	timr = kzalloc(sizeof(*timr));
	if (timr)
		timr->sigq = kzalloc(sizeof(*timr->sigq));
	if (!timr || !timr->sigq) {
		kfree(timr);
		return -EAGAIN; /* Linux's answer when the signal cannot be allocated */
	}
	flags = spin_lock_irqsave(&posix_timers_lock);
	list_for_each_entry(pos, timers_of(leader), list)
	{
		n++;
	}
	if ((uint64_t)n >= rlimit(RLIMIT_SIGPENDING)) {
		err = -EAGAIN; /* each timer holds a signal: Linux counts it in RLIMIT_SIGPENDING */
	} else {
		/* The next free id from where the last one was taken (Linux's posix_timer_add). */
		do {
			timr->it_id = leader->next_posix_timer_id;
			leader->next_posix_timer_id = (timr->it_id + 1) & TIMER_ID_MAX;
		} while (find_timer(timr->it_id));
	}
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	if (!err && uev)
		err = check_sigevent(&ev);
	if (!err && copy_to_user(created_timer_id, &timr->it_id, sizeof(int)))
		err = -EFAULT;
	timr->it_cpu = is_cpu_clock(which_clock);
	if (!err && which_clock < 0)
		err = cpu_clock_valid(which_clock);
	if (err) {
		kfree(timr->sigq);
		kfree(timr);
		return err;
	}
	INIT_LIST_HEAD(&timr->sigq->list);
	timr->sigq->prealloc = true;
	hrtimer_init(&timr->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	timr->timer.function = posix_timer_fn;
	timr->it_clock = timr->it_cpu ? cpu_timer_clock(which_clock) : which_clock;
	timr->it_clock_shown = which_clock == CLOCK_PROCESS_CPUTIME_ID
				       ? MAKE_PROCESS_CPUCLOCK(0, CPUCLOCK_SCHED)
			       : which_clock == CLOCK_THREAD_CPUTIME_ID
				       ? MAKE_THREAD_CPUCLOCK(0, CPUCLOCK_SCHED)
				       : which_clock;
	timr->it_overrun = -1;
	timr->it_process = leader;
	timr->sigq->info.code = SI_TIMER;
	timr->sigq->info.timer_id = timr->it_id;
	if (uev) {
		timr->it_sigev_notify = ev.sigev_notify;
		timr->it_tid = ev.un.tid;
		timr->sigq->info.signo = ev.sigev_signo;
		timr->sigq->info.value = ev.sigev_value;
	} else { /* NULL: SIGALRM to the process, its id as the value (Linux's) */
		timr->it_sigev_notify = SIGEV_SIGNAL;
		timr->sigq->info.signo = SIGALRM;
		timr->sigq->info.value = (uint64_t)timr->it_id;
	}
	flags = spin_lock_irqsave(&posix_timers_lock);
	list_add(&timr->list, timers_of(leader));
	if (timr->it_cpu) {
		list_add(&timr->cpu_list, &cpu_timers);
		WRITE_ONCE(nr_cpu_timers, nr_cpu_timers + 1);
	}
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return 0;
}

static struct __kernel_timespec ns_to_timespec(uint64_t ns)
{
	return (struct __kernel_timespec){(long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC)};
}

/* Linux's common_timer_get, posix_timers_lock held: how long is left, and the interval. */
static void timer_get(struct k_itimer *timr, struct __kernel_itimerspec *cur)
{
	bool sig_none = timr->it_sigev_notify == SIGEV_NONE;
	uint64_t now, expires;

	memset(cur, 0, sizeof(*cur));
	if (timr->it_interval)
		cur->it_interval = ns_to_timespec(timr->it_interval);
	else if (!timr->it_active && !sig_none)
		return; /* a one-shot that fired, or never set */
	if (!timr->it_cpu)
		hrtimer_update_expires(&timr->timer); /* a date's, not queued: as the date is now */
	now = timer_now(timr);
	/* A signal out, or nothing to send: where the timer would be had it been re-armed. */
	if (timr->it_interval && ((timr->it_requeue_pending & REQUEUE_PENDING) || sig_none))
		timr->it_overrun += timer_forward(timr, now);
	expires = *timer_expires(timr);
	if (expires > now)
		cur->it_value = ns_to_timespec(expires - now);
	else if (!sig_none)
		cur->it_value.tv_nsec = 1; /* expired, its signal not yet out: not "disarmed" */
}

long sys_timer_gettime(int timer_id, struct __kernel_itimerspec __user *setting)
{
	struct __kernel_itimerspec cur;
	unsigned long flags = spin_lock_irqsave(&posix_timers_lock);
	struct k_itimer *timr = find_timer(timer_id);

	if (timr)
		timer_get(timr, &cur);
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	if (!timr)
		return -EINVAL;
	return copy_to_user(setting, &cur, sizeof(cur)) ? -EFAULT : 0;
}

long sys_timer_getoverrun(int timer_id)
{
	unsigned long flags = spin_lock_irqsave(&posix_timers_lock);
	struct k_itimer *timr = find_timer(timer_id);
	int overrun = timr ? timer_overrun_to_int(timr, 0) : -EINVAL;

	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return overrun;
}

static bool timespec_valid(const struct __kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < (long)NSEC_PER_SEC;
}

/* Saturated, as Linux's timespec64_to_ktime: a time too far to count is for ever. */
static uint64_t timespec_to_ns(const struct __kernel_timespec *ts)
{
	if ((uint64_t)ts->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

/* Linux's common_timer_set, posix_timers_lock held: TIMER_RETRY if its function runs now. */
static int timer_set(struct k_itimer *timr, int flags, const struct __kernel_itimerspec *new,
		     struct __kernel_itimerspec *old)
{
	bool sig_none = timr->it_sigev_notify == SIGEV_NONE;
	uint64_t value = timespec_to_ns(&new->it_value), now;

	if (old)
		timer_get(timr, old);
	timr->it_interval = 0; /* no re-arming from now on */
	if (!timr->it_cpu && hrtimer_try_to_cancel(&timr->timer) < 0)
		return TIMER_RETRY;
	timr->it_active = false;
	timr->it_requeue_pending = (timr->it_requeue_pending + 2) & ~REQUEUE_PENDING;
	timr->it_overrun_last = 0;
	if (!value)
		return 0; /* it_value 0: disarmed */
	timr->it_interval = timespec_to_ns(&new->it_interval);
	now = timer_now(timr);
	if (!(flags & TIMER_ABSTIME))
		value = value > KTIME_MAX - now ? KTIME_MAX : now + value;
	if (timr->it_cpu) {
		timr->it_cpu_expires = value;
	} else {
		/* Not queued, its function not running (cancelled above): it may be set up anew. */
		bool real = (flags & TIMER_ABSTIME) && is_realtime_clock(timr->it_clock);

		hrtimer_init(&timr->timer, real ? CLOCK_REALTIME : CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS);
		timr->timer.function = posix_timer_fn;
		hrtimer_set_expires(&timr->timer, value); /* a date: converted (struct hrtimer) */
		if (!sig_none)
			hrtimer_start_expires(&timr->timer);
	}
	timr->it_active = !sig_none;
	return 0;
}

long sys_timer_settime(int timer_id, int flags, const struct __kernel_itimerspec __user *unew,
		       struct __kernel_itimerspec __user *uold)
{
	struct __kernel_itimerspec new, old, *oldp = uold ? &old : NULL;
	unsigned long irqflags;
	struct k_itimer *timr;
	int err;

	if (!unew)
		return -EINVAL;
	if (copy_from_user(&new, unew, sizeof(new)))
		return -EFAULT;
	if (!timespec_valid(&new.it_interval) || !timespec_valid(&new.it_value))
		return -EINVAL;
	memset(&old, 0, sizeof(old));
	for (;;) {
		irqflags = spin_lock_irqsave(&posix_timers_lock);
		timr = find_timer(timer_id);
		err = timr ? timer_set(timr, flags, &new, oldp) : -EINVAL;
		spin_unlock_irqrestore(&posix_timers_lock, irqflags);
		if (err != TIMER_RETRY)
			break;
		oldp = NULL; /* the old setting is the first look's */
		cpu_relax();
	}
	if (err)
		return err;
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}

/* Off its list and freed, posix_timers_lock held: TIMER_RETRY if its function runs now. */
static int timer_del(struct k_itimer *timr)
{
	timr->it_interval = 0;
	if (!timr->it_cpu && hrtimer_try_to_cancel(&timr->timer) < 0)
		return TIMER_RETRY;
	WARN_ON(hrtimer_active(&timr->timer)); /* its function will run no more: it may go */
	list_del(&timr->list);
	if (timr->it_cpu) {
		list_del(&timr->cpu_list);
		WRITE_ONCE(nr_cpu_timers, nr_cpu_timers - 1);
	}
	return 0;
}

static void timer_free(struct k_itimer *timr)
{
	sigqueue_free(timr->sigq); /* a pending signal is still delivered */
	kfree(timr);
}

long sys_timer_delete(int timer_id)
{
	struct k_itimer *timr;
	unsigned long flags;
	int err;

	for (;;) {
		flags = spin_lock_irqsave(&posix_timers_lock);
		timr = find_timer(timer_id);
		err = timr ? timer_del(timr) : -EINVAL;
		spin_unlock_irqrestore(&posix_timers_lock, flags);
		if (err != TIMER_RETRY)
			break;
		cpu_relax();
	}
	if (!err)
		timer_free(timr);
	return err;
}

void exit_posix_timers(struct task *leader)
{
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&posix_timers_lock);
		struct list_head *head = timers_of(leader);
		struct k_itimer *timr =
			list_empty(head) ? NULL : list_first_entry(head, struct k_itimer, list);
		int err = timr ? timer_del(timr) : 0;

		spin_unlock_irqrestore(&posix_timers_lock, flags);
		if (!timr)
			return;
		if (err == TIMER_RETRY)
			cpu_relax();
		else
			timer_free(timr);
	}
}

/*
 * /proc/PID/timers (kernel/fs/proc/base.c): the process's timers, newest first, as Linux's
 * show_timer prints them. posix_timers_lock, then task_list_lock (the tick's order), held
 * while printing: seq_printf only fills the file's buffer.
 */
int proc_timers_show(struct seq_file *m, int pid)
{
	static const char *const nstr[] = {[SIGEV_SIGNAL] = "signal", [SIGEV_NONE] = "none",
					   [SIGEV_THREAD] = "thread"};
	unsigned long flags = spin_lock_irqsave(&posix_timers_lock);
	struct task *leader = NULL, *t;
	struct k_itimer *timr;

	spin_lock(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid && !t->reaped)
			leader = t->group_leader;
	}
	if (leader) {
		list_for_each_entry(timr, timers_of(leader), list)
		{
			int notify = timr->it_sigev_notify;
			bool tid = notify & SIGEV_THREAD_ID;

			seq_printf(m, "ID: %d\n", timr->it_id);
			seq_printf(m, "signal: %d/%016lx\n", timr->sigq->info.signo,
				   (unsigned long)timr->sigq->info.value);
			seq_printf(m, "notify: %s/%s.%d\n", nstr[notify & ~SIGEV_THREAD_ID],
				   tid ? "tid" : "pid", tid ? timr->it_tid : leader->tgid);
			seq_printf(m, "ClockID: %d\n", timr->it_clock_shown);
		}
	}
	spin_unlock(&task_list_lock);
	spin_unlock_irqrestore(&posix_timers_lock, flags);
	return leader ? 0 : -ESRCH;
}

/*
 * The pid filters (trace/trace_pid.h): the lists, the check the tracers make, fork and exit
 * following, and the four tracefs files that show and set the lists.
 *
 * A file reads its list one pid a line. set_ftrace_pid and set_ftrace_notrace_pid say "no pid"
 * when their list is not in force, the event files nothing (Linux's fpid_start and p_start).
 * A write is pids separated by blanks, as Linux's trace_pid_write takes them; opened with O_TRUNC
 * (">") it replaces the list, without (">>") it adds to it; a write of no pid at all ("echo >")
 * removes the list. A bad word fails the whole write, and then nothing changes, not even the
 * O_TRUNC: that is applied by the write, or by close if nothing was written.
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace_pid.h"
#include "trace/trace_fs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

struct trace_pid_filter ftrace_pid_filter = {.fork_option = TRACE_ITER_FUNCTION_FORK};
struct trace_pid_filter event_pid_filter = {.fork_option = TRACE_ITER_EVENT_FORK};

/* Is pid in the list l? */
static bool pid_listed(const struct trace_pid_list *l, int pid)
{
	for (int i = 0; l && i < l->nr; i++)
		if (l->pids[i] == pid)
			return true;
	return false;
}

bool trace_ignore_this_task(struct trace_pid_filter *f, int pid)
{
	struct trace_pid_list *pids = __atomic_load_n(&f->lists[TRACE_PIDS], __ATOMIC_ACQUIRE);
	struct trace_pid_list *no = __atomic_load_n(&f->lists[TRACE_NO_PIDS], __ATOMIC_ACQUIRE);

	/* Not asked for, or asked against: the notrace list wins over the other. */
	return (pids && !pid_listed(pids, pid)) || pid_listed(no, pid);
}

bool trace_ignore_current(struct trace_pid_filter *f)
{
	struct task *t = current;

	return trace_ignore_this_task(f, t ? t->pid : 0); /* before the first task: the idle pid */
}

/* Publishes pids (nr of them, even none) as f's kind list; NULL: that list is not in force. */
static void pid_list_publish(struct trace_pid_filter *f, enum trace_pid_kind kind, const int *pids,
			     int nr)
{
	struct trace_pid_list *old = f->lists[kind], *l = NULL;

	lockdep_assert_held(&trace_types_lock);
	if (pids) {
		l = old == &f->copies[kind][0] ? &f->copies[kind][1] : &f->copies[kind][0];
		for (int i = 0; i < nr; i++)
			l->pids[i] = pids[i];
		l->nr = nr;
	}
	__atomic_store_n(&f->lists[kind], l, __ATOMIC_RELEASE);
	WRITE_ONCE(f->in_force, f->lists[TRACE_PIDS] || f->lists[TRACE_NO_PIDS]);
}

/* Copies f's kind list into pids (at most TRACE_PID_MAX); returns how many. */
static int pid_list_get(struct trace_pid_filter *f, enum trace_pid_kind kind, int *pids)
{
	struct trace_pid_list *l = f->lists[kind];
	int n = 0;

	for (; l && n < l->nr; n++)
		pids[n] = l->pids[n];
	return n;
}

/* --- fork and exit: function-fork, event-fork ---------------------------------------------- */

/* Does f follow forks and exits: its array's option is set, and a list is in force? */
static bool following(struct trace_pid_filter *f, struct trace_array *tr)
{
	return (READ_ONCE(tr->trace_flags) & f->fork_option) && READ_ONCE(f->in_force);
}

#define NO_CHILD (-1) /* pid_lists_follow() of an exit */

/*
 * The list pids (n of them, l published) after a fork of pid's child (Linux:
 * trace_filter_add_remove_task, from the sched_process_fork probes of both options) or pid's
 * exit. A child joins a list its parent is in, unless it is full: then the child is left out, as
 * a write of one pid too many fails. An exiting task leaves the list, so that its pid does not
 * stay there; the last one to leave leaves it empty but in force, as Linux's: for set_*_pid, no
 * task is traced until the file is written again. Returns the new count.
 */
static int pid_list_followed(int *pids, int n, const struct trace_pid_list *l, int pid,
			     int child_pid)
{
	int kept = 0;

	if (child_pid != NO_CHILD) {
		if (pid_listed(l, pid) && !pid_listed(l, child_pid) && n < TRACE_PID_MAX)
			pids[n++] = child_pid;
		return n;
	}
	for (int i = 0; i < n; i++)
		if (pids[i] != pid)
			pids[kept++] = pids[i];
	return kept;
}

/* f's lists after a fork or an exit. trace_types_lock held. */
static void pid_filter_follow(struct trace_pid_filter *f, struct trace_array *tr, int pid,
			      int child_pid)
{
	int pids[TRACE_PID_MAX], n, now;

	for (int kind = 0; kind < TRACE_PID_KINDS && following(f, tr); kind++) {
		n = pid_list_get(f, kind, pids);
		now = pid_list_followed(pids, n, f->lists[kind], pid, child_pid);
		if (now != n)
			pid_list_publish(f, kind, pids, now);
	}
}

/*
 * A fork or an exit, applied to every list whose option is set: each trace array's
 * set_ftrace_*pid (its function-fork) and set_event_*pid (its event-fork). The
 * lock is taken only if some list follows, so that a fork costs nothing while none does.
 */
static void pid_lists_follow(int pid, int child_pid)
{
	struct trace_array *tr;
	bool any = following(&ftrace_pid_filter, &global_trace) ||
		   following(&event_pid_filter, &global_trace) || READ_ONCE(trace_instances);

	if (!any)
		return;
	mutex_lock(&trace_types_lock);
	for_each_trace_array(tr)
	{
		if (tr->function_pids)
			pid_filter_follow(tr->function_pids, tr, pid, child_pid);
		if (tr->event_pids)
			pid_filter_follow(tr->event_pids, tr, pid, child_pid);
	}
	mutex_unlock(&trace_types_lock);
}

void trace_pid_follow_fork(int parent_pid, int child_pid)
{
	pid_lists_follow(parent_pid, child_pid);
}

void trace_pid_follow_exit(int pid)
{
	pid_lists_follow(pid, NO_CHILD);
}

/* --- the files ----------------------------------------------------------------------------- */

#define PID_WORD_MAX 127 /* Linux's PID_BUF_SIZE: a longer word is refused */
#define PID_LIMIT (1U << 30) /* Linux's pid lists (MAX_PID) hold the pids below this */

static int pid_open(struct inode *inode, struct file *file);
static ssize_t pid_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos);
static ssize_t pid_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos);
static int pid_release(struct inode *inode, struct file *file);

/* Four files, the same operations: each its own struct, which is how pid_file() tells them. */
#define PID_FOPS                                                                               \
	{                                                                                      \
		.open = pid_open, .read = pid_read, .write = pid_write, .release = pid_release \
	}
const struct file_operations ftrace_pid_fops = PID_FOPS;
const struct file_operations ftrace_no_pid_fops = PID_FOPS;
const struct file_operations event_pid_fops = PID_FOPS;
const struct file_operations event_no_pid_fops = PID_FOPS;

static const struct pid_file {
	const struct file_operations *fops;
	struct trace_pid_filter *filter;
	enum trace_pid_kind kind;
	const char *none; /* a read while the list is not in force */
} pid_files[] = {
	{&ftrace_pid_fops, &ftrace_pid_filter, TRACE_PIDS, "no pid\n"},
	{&ftrace_no_pid_fops, &ftrace_pid_filter, TRACE_NO_PIDS, "no pid\n"},
	{&event_pid_fops, &event_pid_filter, TRACE_PIDS, ""},
	{&event_no_pid_fops, &event_pid_filter, TRACE_NO_PIDS, ""},
};

static const struct pid_file *pid_file(const struct file *file)
{
	size_t i = 0;

	while (i < ARRAY_SIZE(pid_files) - 1 && pid_files[i].fops != file->f_op)
		i++;
	return &pid_files[i];
}

/* The filter a file edits: the file's trace array's (an instance has its own). */
static struct trace_pid_filter *pid_filter_of(struct file *file, const struct pid_file *pf)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));

	if (pf->filter == &event_pid_filter && tr->event_pids)
		return tr->event_pids;
	if (pf->filter == &ftrace_pid_filter && tr->function_pids)
		return tr->function_pids;
	return pf->filter;
}

static int pid_open(struct inode *inode, struct file *file)
{
	(void)inode;
	/* private_data: "the O_TRUNC still has to empty the list" */
	file->private_data =
		(void *)(long)((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC));
	return 0;
}

static ssize_t pid_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct pid_file *pf = pid_file(file);
	int pids[TRACE_PID_MAX], n;
	char buf[TRACE_PID_MAX * 12 + 8];
	size_t len = 0;
	bool in_force;

	mutex_lock(&trace_types_lock);
	n = pid_list_get(pid_filter_of(file, pf), pf->kind, pids);
	in_force = pid_filter_of(file, pf)->lists[pf->kind] != NULL;
	mutex_unlock(&trace_types_lock);
	if (!in_force) /* an empty list in force (the followed tasks exited): nothing */
		len = strlcpy(buf, pf->none, sizeof(buf));
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%d\n", pids[i]);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t pid_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct pid_file *pf = pid_file(file);
	bool reset = file->private_data != NULL;
	int pids[TRACE_PID_MAX], n = 0, ret = 0;
	char *text = kmalloc(cnt + 1), *p, *w;

	file->private_data = NULL; /* applied, or failed: either way close changes nothing */
	if (!text)
		return -ENOMEM;
	memcpy(text, ubuf, cnt);
	text[cnt] = '\0';
	mutex_lock(&trace_types_lock);
	if (!reset)
		n = pid_list_get(pid_filter_of(file, pf), pf->kind, pids);
	for (p = text; !ret && (w = next_word(&p));) {
		unsigned long val;
		int i;

		/*
		 * As Linux's trace_pid_write: a number in any base kstrtoul reads ("0x10" is 16),
		 * else -EINVAL; one its pid list cannot hold fails with the -1 Linux returns for
		 * it, -EPERM. Linux keeps the low 32 bits first (a pid_t), so 4294967296 was pid 0:
		 * here every number too big for the list is too big, whatever its low bits.
		 */
		if (strlen(w) > PID_WORD_MAX || kstrtoul(w, 0, &val)) {
			ret = -EINVAL;
			break;
		}
		if (val >= PID_LIMIT) {
			ret = -EPERM;
			break;
		}
		for (i = 0; i < n && pids[i] != (int)val; i++)
			;
		if (i == n) {
			if (n == TRACE_PID_MAX)
				ret = -ENOSPC;
			else
				pids[n++] = (int)val;
		}
	}
	if (!ret) /* no pid at all: no list */
		pid_list_publish(pid_filter_of(file, pf), pf->kind, n ? pids : NULL, n);
	mutex_unlock(&trace_types_lock);
	kfree(text);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static int pid_release(struct inode *inode, struct file *file)
{
	const struct pid_file *pf = pid_file(file);

	(void)inode;
	if (file->private_data) { /* opened with ">" and never written: empty the list */
		mutex_lock(&trace_types_lock);
		pid_list_publish(pid_filter_of(file, pf), pf->kind, NULL, 0);
		mutex_unlock(&trace_types_lock);
	}
	return 0;
}

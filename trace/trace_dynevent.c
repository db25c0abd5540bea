/* dynamic_events: one file to make, list and remove every kind of dynamic event (Linux's). */

/*
 * Linux 6.1 has three kinds of event made at run time by writing a definition: kprobes
 * ("p:..." "r:..."), uprobes (the same letters on PATH:OFFSET), eprobes ("e:..."), and
 * synthetic events ("s:..."). Each has its own file (kprobe_events, uprobe_events), and
 * dynamic_events takes them all: a line is offered to each registered kind in turn until one
 * says it is of its kind (create returns anything but -ECANCELED). The list holds every
 * dynamic event in creation order, whatever its kind, so dynamic_events lists them all and each
 * kind's file lists its own from the same list.
 *
 * Removal, as Linux: "-:[GROUP/]EVENT" (GROUP/ alone: all of the group; more words: only those
 * whose definition starts so), and in dynamic_events a definition with '!' in front removes
 * it too. Opening for writing with O_TRUNC (">") removes all of them, or, if one is enabled or
 * held, none, and the open fails with EBUSY.
 *
 * One definition is handled at a time, under dyn_event_mutex: parsing (whose error log state is
 * global, trace/trace_probe.c), the list, and the creation of the event's files. Task context.
 */
#include "trace/trace_dynevent.h"
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/lockdep.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

#define WRITE_BUFSIZE 4096 /* Linux's longest definition line */

LIST_HEAD(dyn_event_list);
DEFINE_MUTEX(dyn_event_mutex);
static LIST_HEAD(dyn_event_ops_list);

int dyn_event_register(struct dyn_event_operations *ops)
{
	if (!ops || !ops->create || !ops->show || !ops->is_busy || !ops->free || !ops->match)
		return -EINVAL;
	mutex_lock(&dyn_event_mutex);
	list_add_tail(&ops->list, &dyn_event_ops_list);
	mutex_unlock(&dyn_event_mutex);
	return 0;
}

void dyn_event_add(struct dyn_event *ev, struct dyn_event_operations *ops)
{
	ev->ops = ops;
	list_add_tail(&ev->list, &dyn_event_list);
}

void dyn_event_remove(struct dyn_event *ev)
{
	list_del(&ev->list);
}

/* --- words ------------------------------------------------------------------------------------ */

char **argv_split(const char *str, int *argcp)
{
	int argc = 0;
	const char *p = str;
	char **argv, *copy;

	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		argc++;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	/* the pointers, then one copy of the text they point into */
	argv = kmalloc(sizeof(char *) * (size_t)(argc + 1) + strlen(str) + 1);
	if (!argv)
		return NULL;
	copy = (char *)(argv + argc + 1);
	strcpy(copy, str);
	argc = 0;
	while (*copy) {
		while (isspace((unsigned char)*copy))
			*copy++ = '\0';
		if (!*copy)
			break;
		argv[argc++] = copy;
		while (*copy && !isspace((unsigned char)*copy))
			copy++;
	}
	argv[argc] = NULL;
	*argcp = argc;
	return argv;
}

void argv_free(char **argv)
{
	kfree(argv);
}

/* --- removing --------------------------------------------------------------------------------- */

void tracing_reset_all_online_cpus(void)
{
	struct trace_array *tr;

	mutex_lock(&trace_types_lock);
	for_each_trace_array(tr) tracing_reset_online_cpus(tr);
	mutex_unlock(&trace_types_lock);
}

int dyn_event_release(const char *raw_command, struct dyn_event_operations *type)
{
	struct dyn_event *pos, *n;
	char *system = NULL, *event, *p;
	int argc, ret = -ENOENT;
	bool freed = false;
	char **argv;

	argv = argv_split(raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	if (!argc) {
		ret = -EINVAL;
		goto out;
	}
	if (argv[0][0] == '-') {
		if (argv[0][1] != ':') {
			ret = -EINVAL;
			goto out;
		}
		event = &argv[0][2];
	} else {
		event = strchr(argv[0], ':');
		if (!event) {
			ret = -EINVAL;
			goto out;
		}
		event++;
	}
	p = strchr(event, '/');
	if (p) {
		system = event;
		event = p + 1;
		*p = '\0';
	}
	if (!system && event[0] == '\0') {
		ret = -EINVAL;
		goto out;
	}
	lockdep_assert_held(&dyn_event_mutex);
	for_each_dyn_event_safe(pos, n)
	{
		if (type && type != pos->ops)
			continue;
		if (!pos->ops->match(system, event, argc - 1, (const char **)argv + 1, pos))
			continue;
		ret = pos->ops->free(pos);
		if (ret)
			break;
		freed = true;
	}
	if (freed)
		tracing_reset_all_online_cpus();
out:
	argv_free(argv);
	return ret;
}

int dyn_events_release_all(struct dyn_event_operations *type)
{
	struct dyn_event *ev, *tmp;
	bool freed = false;
	int ret = 0;

	mutex_lock(&dyn_event_mutex);
	for_each_dyn_event(ev)
	{
		if ((!type || ev->ops == type) && ev->ops->is_busy(ev)) {
			ret = -EBUSY;
			goto out;
		}
	}
	for_each_dyn_event_safe(ev, tmp)
	{
		if (type && ev->ops != type)
			continue;
		ret = ev->ops->free(ev);
		if (ret)
			break;
		freed = true;
	}
	if (freed)
		tracing_reset_all_online_cpus();
out:
	mutex_unlock(&dyn_event_mutex);
	return ret;
}

/* --- writing definitions ---------------------------------------------------------------------- */

ssize_t trace_parse_run_command(const char *ubuf, size_t count, loff_t *ppos,
				int (*createfn)(const char *raw_command))
{
	char *buf = kmalloc(WRITE_BUFSIZE);
	size_t done = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (done < count) {
		const char *line = ubuf + done;
		size_t left = count - done;
		const char *nl = memchr(line, '\n', left);
		size_t len = nl ? (size_t)(nl - line) : left;
		char *tmp;

		if (len >= WRITE_BUFSIZE) {
			pr_warn("Line length is too long: Should be less than %d\n", WRITE_BUFSIZE);
			ret = -EINVAL;
			break;
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		done += len + (nl ? 1 : 0);
		tmp = strchr(buf, '#'); /* a comment */
		if (tmp)
			*tmp = '\0';
		mutex_lock(&dyn_event_mutex);
		ret = createfn(buf);
		mutex_unlock(&dyn_event_mutex);
		if (ret)
			break;
	}
	kfree(buf);
	if (ret)
		return ret;
	*ppos += (loff_t)done;
	return (ssize_t)done;
}

/* --- dynamic_events --------------------------------------------------------------------------- */

/* A line of any kind: the first kind that does not refuse it as not its own makes it. */
static int create_dyn_event(const char *raw_command)
{
	struct dyn_event_operations *ops;
	int ret = -ENODEV;
	const char *p = skip_spaces(raw_command);

	if (!*p)
		return 0; /* an empty line (or only a comment) */
	if (p[0] == '-' || p[0] == '!')
		return dyn_event_release(p[0] == '!' ? p + 1 : p, NULL);
	list_for_each_entry(ops, &dyn_event_ops_list, list)
	{
		ret = ops->create(raw_command);
		if (ret != -ECANCELED)
			break;
	}
	return ret == -ECANCELED ? -EINVAL : ret;
}

/* m->private: the kind the file lists (kprobe_events), or NULL for every kind. */
void *dyn_event_seq_start(struct seq_file *m, loff_t *pos)
{
	struct dyn_event *ev;
	loff_t i = 0;

	mutex_lock(&dyn_event_mutex);
	for_each_dyn_event(ev)
	{
		if (m->private && ev->ops != m->private)
			continue;
		if (i++ == *pos)
			return ev;
	}
	return NULL;
}

void *dyn_event_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct list_head *p = &((struct dyn_event *)v)->list;

	(*pos)++;
	for (p = p->next; p != &dyn_event_list; p = p->next) {
		struct dyn_event *ev = container_of(p, struct dyn_event, list);

		if (!m->private || ev->ops == m->private)
			return ev;
	}
	return NULL;
}

void dyn_event_seq_stop(struct seq_file *m, void *v)
{
	(void)m, (void)v;
	mutex_unlock(&dyn_event_mutex);
}

static int dyn_event_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;

	return ev->ops->show(m, ev);
}

static const struct seq_operations dyn_event_seq_op = {
	.start = dyn_event_seq_start,
	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,
	.show = dyn_event_seq_show,
};

/* Opens a definitions file listing kind (NULL: all); O_TRUNC removes them all first. */
int dyn_event_file_open(struct file *file, struct dyn_event_operations *kind)
{
	int ret;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = dyn_events_release_all(kind);
		if (ret < 0)
			return ret;
	}
	ret = seq_open(file, &dyn_event_seq_op);
	if (!ret)
		((struct seq_file *)file->private_data)->private = kind;
	return ret;
}

static int dyn_event_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return dyn_event_file_open(file, NULL);
}

static ssize_t dyn_event_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return trace_parse_run_command(ubuf, cnt, ppos, create_dyn_event);
}

static const struct file_operations dynamic_events_ops = {
	.open = dyn_event_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = dyn_event_write,
	.release = seq_release,
};

void init_dynamic_event(void)
{
	if (!tracefs_create_file("dynamic_events", TRACE_MODE_WRITE, NULL, NULL,
				 &dynamic_events_ops))
		pr_warn("Could not create tracefs 'dynamic_events' entry\n");
}

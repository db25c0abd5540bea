/*
 * uprobe events (Linux's kernel/trace/trace_uprobe.c): an event made at run time on an
 * instruction of a user program, by a line written to uprobe_events:
 *
 *	p[:[GRP/]EVENT] PATH:OFFSET[%return][(REF_CTR_OFFSET)] [FETCHARGS]	a probe
 *	r[:[GRP/]EVENT] PATH:OFFSET[(REF_CTR_OFFSET)] [FETCHARGS]		a return probe
 *	-:[GRP/]EVENT						removes it
 *
 * REF_CTR_OFFSET is where an SDT probe's semaphore is in the file: while the event is enabled
 * (its breakpoint in), every process that maps the file sees that short one higher
 * (kernel/events/uprobes.c, uprobe_register_refctr), so the program knows to prepare the
 * probe's arguments. Listed back as "PATH:0x%016lx(0x%lx)", Linux's.
 *
 * OFFSET is where the instruction is in the file (not an address: every process that maps the
 * file hits it, wherever it maps it). Group "uprobes" unless named; event "p_FILE_0xOFFSET"
 * unless named. The fetch arguments are the probe events' (trace/trace_probe.c: %REG, @ADDR,
 * @+OFFSET in the file, $stackN, $stack, $retval for r, $comm, +OFFS(...) dereferences, types),
 * reading the task's memory. Opening the file with O_TRUNC (">") removes every uprobe event
 * (EBUSY if one is enabled, changing nothing).
 *
 * An event is made at once (events/GRP/EVENT/), but the breakpoint goes in only while it is
 * enabled: enabling registers a consumer with the uprobe mechanism (kernel/events/uprobes.c),
 * whose handler records a hit. uprobe_profile shows each event's file and hits.
 *
 * A second definition under a name in use, of the same kind and with the same arguments' names
 * and types, is appended to that event as another probe (Linux 6.1's append_trace_uprobe; see
 * trace/trace_kprobe.c and trace/trace_probe.h): listed on its own line, recording into the
 * event. As in Linux, enabling the event registers every probe on it; a probe appended to an
 * event already enabled waits for the next enable.
 *
 * The record: struct trace_entry, then __probe_ip (the probed address in the process), or for
 * a return probe __probe_func and __probe_ret_ip, then the arguments; printed as Linux prints
 * it: "EVENT: (0x4013c0) x=5", "EVENT: (0x401145 <- 0x4013c0) ret=16".
 */
#include "trace/trace_uprobe.h"
#include "trace/trace_probe.h"
#include "trace/trace_dynevent.h"
#include "trace/trace_events.h"
#include "trace/trace_output.h"
#include "trace/trace_fs.h"
#include "trace/trace.h"
#include "kernel/events/uprobes.h"
#include "kernel/fs/vfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"

#define UPROBE_EVENT_SYSTEM "uprobes"
#define UPROBE_WRITE_MAX 4096 /* one write's commands, as Linux's WRITE_BUFSIZE */
#define UPROBE_MAX_ARGV (MAX_TRACE_ARGS + 2) /* the probe, the file, the arguments */
#define UPROBE_PROFILE_NAME_WIDTH 44 /* uprobe_profile's event column, Linux's */
#define UPROBE_PROFILE_HITS_WIDTH 15

struct trace_uprobe {
	struct dyn_event devent; /* on dyn_event_list: the order uprobe_events lists them */
	struct uprobe_consumer consumer;
	struct path path; /* holds the file (and its inode) while the event exists */
	char *filename; /* as written */
	unsigned long offset;
	unsigned long ref_ctr_offset; /* the SDT semaphore's file offset, 0 if none */
	unsigned long nhit;
	bool is_return;
	bool has_strings; /* an argument is a string: each hit sizes them first */
	bool registered; /* its consumer is on the uprobe */
	struct trace_probe *tp; /* its own; tp->event's call records its hits */
	struct list_head sibling; /* on tp->event->probes */
};

/* The record's own part, after struct trace_entry: 1 or 2 addresses. */
#define UPROBE_ENTRY_WORDS(is_return) ((is_return) ? 2 : 1)

static struct dyn_event_operations trace_uprobe_ops;

static struct trace_uprobe *to_trace_uprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_uprobe, devent);
}

static struct inode *trace_uprobe_inode(const struct trace_uprobe *tu)
{
	return tu->path.dentry->d_inode;
}

/* --- a hit ------------------------------------------------------------------------------------ */

/* @+OFFS: the address of file offset offs in this task, as the probe's own (Linux's). */
static unsigned long translate_user_vaddr(const struct fetch_context *fc, unsigned long offs)
{
	const struct trace_uprobe *tu = fc->data;

	return fc->regs->rip - tu->offset + offs;
}

static void uprobe_record(struct trace_uprobe *tu, struct pt_regs *regs, unsigned long func)
{
	struct trace_probe *tp = tu->tp;
	struct fetch_context fc = {
		.regs = regs, .user = true, .foffs_to_vaddr = translate_user_vaddr, .data = tu};
	unsigned int esize =
		(unsigned int)(sizeof(struct trace_entry) +
			       sizeof(unsigned long) * UPROBE_ENTRY_WORDS(tu->is_return));
	int dsize = tu->has_strings ? traceprobe_get_data_size(tp, &fc) : 0;
	unsigned long len = esize + tp->size + (unsigned long)dsize;
	struct trace_event_call *call = &tp->event->call;
	uint8_t *rec = trace_event_buffer_reserve(call, len);

	if (!rec)
		return;
	unsigned long *vaddr = (unsigned long *)(rec + sizeof(struct trace_entry));

	if (tu->is_return) {
		vaddr[0] = func;
		vaddr[1] = regs->rip; /* where it returns to */
	} else {
		vaddr[0] = regs->rip;
	}
	store_trace_args(rec + esize, tp, &fc, (int)esize, dsize);
	trace_event_buffer_commit(call, rec, len);
}

/* At the probed instruction: a hit (a return probe counts its hits here too, as Linux's). */
static int uprobe_dispatcher(struct uprobe_consumer *con, struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(con, struct trace_uprobe, consumer);

	__atomic_add_fetch(&tu->nhit, 1, __ATOMIC_RELAXED);
	if (!tu->is_return && (tu->tp->event->flags & TP_FLAG_TRACE))
		uprobe_record(tu, regs, 0);
	return 0;
}

static int uretprobe_dispatcher(struct uprobe_consumer *con, unsigned long func,
				struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(con, struct trace_uprobe, consumer);

	if (tu->tp->event->flags & TP_FLAG_TRACE)
		uprobe_record(tu, regs, func);
	return 0;
}

/* --- the event -------------------------------------------------------------------------------- */

static enum print_line_t print_uprobe_event(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event)
{
	struct trace_event_call *call = container_of(event, struct trace_event_call, event);
	struct trace_probe *tp = trace_probe_from_call(call);
	struct trace_uprobe *tu = list_first_entry(&tp->probes, struct trace_uprobe, sibling);
	struct trace_seq *s = &iter->seq;
	uint8_t *ent = (uint8_t *)iter->ent;
	const unsigned long *vaddr = (const unsigned long *)(ent + sizeof(struct trace_entry));

	(void)flags;
	if (tu->is_return)
		trace_seq_printf(s, "%s: (0x%lx <- 0x%lx)", trace_probe_name(tp), vaddr[1],
				 vaddr[0]);
	else
		trace_seq_printf(s, "%s: (0x%lx)", trace_probe_name(tp), vaddr[0]);
	uint8_t *data = (uint8_t *)(vaddr + UPROBE_ENTRY_WORDS(tu->is_return));

	if (trace_probe_print_args(s, tp->args, (int)tp->nr_args, data, ent))
		return TRACE_TYPE_PARTIAL_LINE;
	trace_seq_putc(s, '\n');
	return TRACE_TYPE_HANDLED;
}

static void trace_uprobe_unregister(struct trace_uprobe *tu)
{
	if (!tu->registered)
		return;
	uprobe_unregister(trace_uprobe_inode(tu), (loff_t)tu->offset, &tu->consumer);
	tu->registered = false;
}

/*
 * The event's enable (trace_event_call.reg): the breakpoints of all its probes go in (all or
 * none) or out. event_mutex.
 */
static int uprobe_event_reg(struct trace_event_call *call, bool on)
{
	struct trace_probe *ev = trace_probe_from_call(call);
	struct trace_uprobe *tu;
	int err = 0;

	if (on) {
		__atomic_or_fetch(&ev->flags, TP_FLAG_TRACE, __ATOMIC_RELEASE);
		list_for_each_entry(tu, &ev->probes, sibling)
		{
			if (tu->registered)
				continue;
			err = uprobe_register_refctr(trace_uprobe_inode(tu), (loff_t)tu->offset,
						     (loff_t)tu->ref_ctr_offset, &tu->consumer);
			if (err)
				break;
			tu->registered = true;
		}
		if (!err)
			return 0;
	}
	list_for_each_entry(tu, &ev->probes, sibling) trace_uprobe_unregister(tu);
	__atomic_and_fetch(&ev->flags, ~TP_FLAG_TRACE, __ATOMIC_RELEASE);
	return err;
}

static void free_trace_uprobe(struct trace_uprobe *tu)
{
	if (!tu)
		return;
	if (tu->path.dentry)
		vfs_path_put_locked(&tu->path);
	trace_probe_unlink(tu->tp, &tu->sibling); /* its event too, if it was the last */
	kfree(tu->filename);
	kfree(tu);
}

static struct trace_uprobe *find_probe_event(const char *event, const char *group)
{
	struct dyn_event *pos;

	for_each_dyn_event(pos)
	{
		struct trace_uprobe *tu = to_trace_uprobe(pos);

		if (pos->ops == &trace_uprobe_ops && !strcmp(trace_probe_name(tu->tp), event) &&
		    (!group || !strcmp(trace_probe_group_name(tu->tp), group)))
			return tu;
	}
	return NULL;
}

/* Does b probe where a probe already on a's event does (file, offset), with the same arguments? */
static bool trace_uprobe_has_same_uprobe(const struct trace_uprobe *a, const struct trace_uprobe *b)
{
	const struct trace_uprobe *o;

	list_for_each_entry(o, &a->tp->event->probes, sibling)
	{
		if (trace_uprobe_inode(o) == trace_uprobe_inode(b) && o->offset == b->offset &&
		    trace_probe_same_fetchargs(o->tp, b->tp))
			return true;
	}
	return false;
}

/*
 * Linux's register_trace_uprobe() for a name in use: another kind is DIFF_PROBE_TYPE, other
 * arguments DIFF_ARG_TYPE (the caret on the first that differs), the same place with the same
 * arguments SAME_PROBE; each -EEXIST. Else tu becomes a probe of old's event (under
 * event_mutex, which enabling holds while it walks the event's probes).
 */
static int append_trace_uprobe(struct trace_uprobe *tu, struct trace_uprobe *old)
{
	int ret;

	if (tu->is_return != old->is_return) {
		trace_probe_log_set_index(0);
		trace_probe_log_err(0, DIFF_PROBE_TYPE);
		return -EEXIST;
	}
	ret = trace_probe_compare_arg_type(tu->tp, old->tp->event);
	if (ret) {
		trace_probe_log_set_index(ret + 1); /* the arguments' words start at 2 */
		trace_probe_log_err(0, DIFF_ARG_TYPE);
		return -EEXIST;
	}
	if (trace_uprobe_has_same_uprobe(old, tu)) {
		trace_probe_log_set_index(0);
		trace_probe_log_err(0, SAME_PROBE);
		return -EEXIST;
	}
	mutex_lock(&event_mutex);
	trace_probe_append(tu->tp, old->tp, &tu->sibling);
	mutex_unlock(&event_mutex);
	return 0;
}

/*
 * One place of a file, one semaphore: a probe at a place another probe (of any event) has with
 * another REF_CTR_OFFSET is refused, EINVAL with a warning and no error_log line (Linux's).
 */
static int validate_ref_ctr_offset(const struct trace_uprobe *tu)
{
	struct dyn_event *pos;

	for_each_dyn_event(pos)
	{
		const struct trace_uprobe *o = to_trace_uprobe(pos);

		if (pos->ops == &trace_uprobe_ops &&
		    trace_uprobe_inode(o) == trace_uprobe_inode(tu) && o->offset == tu->offset &&
		    o->ref_ctr_offset != tu->ref_ctr_offset) {
			pr_warn("Reference counter offset mismatch.\n");
			return -EINVAL;
		}
	}
	return 0;
}

/* --- uprobe_events ---------------------------------------------------------------------------- */

/* Linux's __trace_uprobe_create: argv as the line's words. -ECANCELED: not a uprobe line. */
static int __trace_uprobe_create(int argc, const char **argv)
{
	const char *event = NULL, *group = UPROBE_EVENT_SYSTEM;
	bool is_return = false;
	char gbuf[MAX_EVENT_NAME_LEN], buf[MAX_EVENT_NAME_LEN];
	struct trace_uprobe *tu = NULL;
	struct path path = {0};
	unsigned long offset, ref_ctr_offset = 0;
	int err;

	if (argv[0][0] == 'r')
		is_return = true;
	else if (argv[0][0] != 'p' || argc < 2)
		return -ECANCELED;
	if (argc < 2)
		return -ECANCELED;
	if (argv[0][1] == ':')
		event = &argv[0][2];
	if (!strchr(argv[1], '/'))
		return -ECANCELED;
	char *filename = kstrdup(argv[1]);

	if (!filename)
		return -ENOMEM;
	/* The last ':', in case the path has one too. */
	char *arg = strrchr(filename, ':');

	if (!arg || !isdigit((unsigned char)arg[1])) {
		kfree(filename);
		return -ECANCELED;
	}
	trace_probe_log_init("trace_uprobe", argc, argv);
	trace_probe_log_set_index(1); /* the file is the second word */
	*arg++ = '\0';
	err = vfs_path_get_locked(filename, &path);
	if (err) {
		trace_probe_log_err(0, FILE_NOT_FOUND);
		kfree(filename);
		trace_probe_log_clear();
		return err;
	}
	if (!S_ISREG(path.dentry->d_inode->i_mode)) {
		trace_probe_log_err(0, NO_REGULAR_FILE);
		err = -EINVAL;
		goto fail;
	}
	/* "(REF_CTR_OFFSET)", last (Linux's order: cut before %return and OFFSET are read). */
	char *rctr = strchr(arg, '(');

	if (rctr) {
		char *rctr_end = strchr(rctr, ')');

		if (!rctr_end) {
			trace_probe_log_err((int)(rctr + strlen(rctr) - filename),
					    REFCNT_OPEN_BRACE);
			err = -EINVAL;
			goto fail;
		}
		if (rctr_end[1] != '\0') {
			trace_probe_log_err((int)(rctr_end + 1 - filename), BAD_REFCNT_SUFFIX);
			err = -EINVAL;
			goto fail;
		}
		*rctr++ = '\0';
		*rctr_end = '\0';
		err = kstrtoul(rctr, 0, &ref_ctr_offset);
		if (err) {
			trace_probe_log_err((int)(rctr - filename), BAD_REFCNT);
			goto fail;
		}
	}
	/* The %return suffix. */
	char *tmp = strchr(arg, '%');

	if (tmp) {
		if (!strcmp(tmp, "%return")) {
			*tmp = '\0';
			is_return = true;
		} else {
			trace_probe_log_err((int)(tmp - filename), BAD_ADDR_SUFFIX);
			err = -EINVAL;
			goto fail;
		}
	}
	err = kstrtoul(arg, 0, &offset);
	if (err) {
		trace_probe_log_err((int)(arg - filename), BAD_UPROBE_OFFS);
		goto fail;
	}
	trace_probe_log_set_index(0);
	if (event) {
		err = traceprobe_parse_event_name(&event, &group, gbuf, (int)(event - argv[0]));
		if (err)
			goto fail;
		if (!group)
			group = UPROBE_EVENT_SYSTEM;
	}
	if (!event) {
		/*
		 * "p_FILE_0xOFFSET", FILE cut at its first '.', '-' or '_' (Linux's, 'p' either
		 * way).
		 */
		const char *base = strrchr(filename, '/') ? strrchr(filename, '/') + 1 : filename;
		size_t n = strcspn(base, ".-_");

		snprintf(buf, sizeof(buf), "%c_%.*s_0x%lx", 'p', (int)n, base, offset);
		event = buf;
	}
	tu = kzalloc(sizeof(*tu));
	if (!tu) {
		err = -ENOMEM;
		goto fail;
	}
	tu->tp = trace_probe_alloc(event, group, argc - 2);
	if (!tu->tp) {
		err = -ENOMEM;
		goto fail;
	}
	tu->offset = offset;
	tu->ref_ctr_offset = ref_ctr_offset;
	tu->is_return = is_return;
	tu->path = path;
	path.dentry = NULL; /* tu has it now */
	tu->filename = filename;
	filename = NULL;
	tu->consumer.handler = uprobe_dispatcher;
	if (is_return)
		tu->consumer.ret_handler = uretprobe_dispatcher;
	for (int i = 0; i < argc - 2; i++) {
		trace_probe_log_set_index(i + 2);
		err = traceprobe_parse_probe_arg(tu->tp, i, argv[i + 2],
						 is_return ? TPARG_FL_RETURN : 0);
		if (err)
			goto fail;
	}
	static const struct trace_event_field own_fields[] = {
		{.type = "unsigned long", .name = FIELD_STRING_IP, .offset = 8, .size = 8},
		TRACE_FIELD_END,
	};
	static const struct trace_event_field own_ret_fields[] = {
		{.type = "unsigned long", .name = FIELD_STRING_FUNC, .offset = 8, .size = 8},
		{.type = "unsigned long", .name = FIELD_STRING_RETIP, .offset = 16, .size = 8},
		TRACE_FIELD_END,
	};
	for (unsigned int i = 0; i < tu->tp->nr_args; i++)
		tu->has_strings |= tu->tp->args[i].dynamic;
	err = traceprobe_set_print_fmt(tu->tp, is_return ? PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL);
	if (!err)
		err = traceprobe_define_arg_fields(tu->tp, is_return ? own_ret_fields : own_fields,
						   (unsigned int)sizeof(unsigned long) *
							   UPROBE_ENTRY_WORDS(is_return));
	if (err)
		goto fail;
	err = validate_ref_ctr_offset(tu);
	if (err)
		goto fail;
	struct trace_uprobe *old = find_probe_event(event, group);

	if (old) {
		err = append_trace_uprobe(tu, old);
		if (err)
			goto fail;
		dyn_event_add(&tu->devent, &trace_uprobe_ops);
		trace_probe_log_clear();
		return 0;
	}
	err = trace_probe_register_event_call(tu->tp, print_uprobe_event, uprobe_event_reg);
	if (err) {
		trace_probe_log_set_index(0);
		__trace_probe_log_err(0,
				      err == -EEXIST ? TP_ERR_EVENT_EXIST : TP_ERR_FAIL_REG_PROBE);
		goto fail;
	}
	trace_probe_link(tu->tp, &tu->sibling);
	dyn_event_add(&tu->devent, &trace_uprobe_ops);
	trace_probe_log_clear();
	return 0;
fail:
	if (path.dentry)
		vfs_path_put_locked(&path);
	kfree(filename);
	free_trace_uprobe(tu);
	trace_probe_log_clear();
	return err;
}

/* A definition line, as dynamic_events offers it (-ECANCELED: not a uprobe's). */
static int trace_uprobe_create(const char *raw_command)
{
	int argc, ret;
	char **argv;

	argv = argv_split(raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	ret = argc ? __trace_uprobe_create(argc, (const char **)argv) : 0;
	argv_free(argv);
	return ret;
}

/* uprobe_events' own: "-:" removes, anything not a uprobe is EINVAL (Linux's). */
static int create_or_delete_trace_uprobe(const char *raw_command)
{
	if (raw_command[0] == '-')
		return dyn_event_release(raw_command, &trace_uprobe_ops);
	int ret = trace_uprobe_create(raw_command);

	return ret == -ECANCELED ? -EINVAL : ret;
}

static int trace_uprobe_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);

	seq_printf(m, "%c:%s/%s %s:0x%0*lx", tu->is_return ? 'r' : 'p',
		   trace_probe_group_name(tu->tp), trace_probe_name(tu->tp), tu->filename,
		   (int)(sizeof(void *) * 2), tu->offset);
	if (tu->ref_ctr_offset)
		seq_printf(m, "(0x%lx)", tu->ref_ctr_offset);
	trace_probe_show_args(m, tu->tp);
	seq_putc(m, '\n');
	return 0;
}

static bool trace_uprobe_is_busy(struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	struct trace_probe *event = tu->tp->event;

	return trace_probe_is_enabled(event) || tu->registered || event->call.file.enabled ||
	       event->call.registered || event->call.file.triggers;
}

/*
 * Linux's unregister_trace_uprobe(): a probe with siblings just leaves its event (its
 * breakpoint out if it was in); the last one takes the event with it, EBUSY while it is used.
 */
static int trace_uprobe_release(struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);

	if (!trace_probe_has_sibling(tu->tp)) {
		int err = trace_probe_unregister_event_call(tu->tp->event);

		if (err)
			return err;
	}
	mutex_lock(&event_mutex); /* off the list uprobe_event_reg walks */
	list_del_init(&tu->sibling);
	mutex_unlock(&event_mutex);
	trace_uprobe_unregister(tu);
	dyn_event_remove(ev);
	free_trace_uprobe(tu);
	return 0;
}

/* Does "-:[GRP/]EVENT [PATH:OFFSET [ARGS]]" name it (Linux's trace_uprobe_match)? */
static bool trace_uprobe_match(const char *system, const char *event, int argc, const char **argv,
			       struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	char head[PATH_MAX + 32];

	if (event[0] != '\0' && strcmp(trace_probe_name(tu->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(tu->tp), system))
		return false;
	if (argc < 1)
		return true;
	if (tu->ref_ctr_offset)
		snprintf(head, sizeof(head), "%s:0x%0*lx(0x%lx)", tu->filename,
			 (int)(sizeof(void *) * 2), tu->offset, tu->ref_ctr_offset);
	else
		snprintf(head, sizeof(head), "%s:0x%0*lx", tu->filename, (int)(sizeof(void *) * 2),
			 tu->offset);
	if (strcmp(head, argv[0]))
		return false;
	return trace_probe_match_command_args(tu->tp, argc - 1, argv + 1);
}

static struct dyn_event_operations trace_uprobe_ops = {
	.create = trace_uprobe_create,
	.show = trace_uprobe_show,
	.is_busy = trace_uprobe_is_busy,
	.free = trace_uprobe_release,
	.match = trace_uprobe_match,
};

static int uprobe_events_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return dyn_event_file_open(file, &trace_uprobe_ops);
}

static ssize_t uprobe_events_write(struct file *file, const char *buf, size_t count, loff_t *ppos)
{
	(void)file;
	return trace_parse_run_command(buf, count, ppos, create_or_delete_trace_uprobe);
}

static const struct file_operations uprobe_events_fops = {
	.open = uprobe_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = uprobe_events_write,
	.release = seq_release,
};

/* uprobe_profile: "  FILE EVENT HITS", Linux's columns. */
static int probes_profile_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *pos;

	(void)v;
	mutex_lock(&dyn_event_mutex);
	for_each_dyn_event(pos)
	{
		struct trace_uprobe *tu = to_trace_uprobe(pos);

		if (pos->ops != &trace_uprobe_ops)
			continue;
		seq_printf(m, "  %s %-*s %*lu\n", tu->filename, UPROBE_PROFILE_NAME_WIDTH,
			   trace_probe_name(tu->tp), UPROBE_PROFILE_HITS_WIDTH,
			   __atomic_load_n(&tu->nhit, __ATOMIC_RELAXED));
	}
	mutex_unlock(&dyn_event_mutex);
	return 0;
}

static int uprobe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, probes_profile_seq_show, inode->i_private);
}

static const struct file_operations uprobe_profile_fops = {
	.open = uprobe_profile_open,
	.read = seq_read,
	.release = single_release,
};

void init_uprobe_trace(void)
{
	if (dyn_event_register(&trace_uprobe_ops))
		pr_warn("Could not register uprobes\n");
	tracefs_create_file("uprobe_events", TRACE_MODE_WRITE, NULL, NULL, &uprobe_events_fops);
	tracefs_create_file("uprobe_profile", TRACE_MODE_READ, NULL, NULL, &uprobe_profile_fops);
}

/* The dynamic ftrace files: the call sites, and the tracers' function filters. */

/*
 * available_filter_functions lists every call site ftrace_init() found, enabled_functions the
 * ones that are live calls right now. set_ftrace_filter and set_ftrace_notrace show and edit
 * the function tracer's ftrace_ops (global_trace.ops); dynamic ftrace patches the sites as the
 * sets change, so "echo schedule > set_ftrace_filter" leaves every other site a NOP.
 * set_graph_function and set_graph_notrace are the same kind of file over the function_graph
 * tracer's two sets (graph_hash_ops), which its callbacks consult instead of patching sites.
 *
 * A write is a list of words separated by blanks, each a name, a glob or a line number of
 * available_filter_functions, with '!' before it to remove (Linux's trace_get_user; the graph
 * files take no numbers). Opening with O_TRUNC (">") means "replace the list", without it (">>")
 * "add to it". The words of a write edit a copy of the set, in order, and the copy is
 * installed whole (regex_apply): if one word matches no function (on the graph files, if a
 * "!word" removes none), the write fails with -EINVAL and nothing changes, not even the
 * O_TRUNC; if all do, the call sites are patched once for the whole write. A word cut
 * by the end of a write is kept and finished by the next write or by close (as Linux does).
 *
 * A word with a ':' is a function command, "glob:traceoff[:count]" (trace/ftrace_probe.h): it
 * attaches the command to the functions and leaves the filter alone -- except that ">" still
 * empties it, as on Linux. set_ftrace_filter lists the commands after the functions, and only
 * "!glob:command" removes one (the counted kind: "!glob:command:0"); "echo > ..." does not.
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace_fs.h"
#include "trace/trace_ctx.h"
#include "trace/ftrace_probe.h"
#include "trace/trace_stack.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"
#include "kernel/fs/proc/sysctl.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/printk.h"

#define WORD_MAX 128 /* longest function name or pattern */

/*
 * seq_file records here are call site indexes, stored as index + 2: NULL ends the walk and
 * SEQ_START_TOKEN (1) stands for the "#### all functions enabled ####" line. The position is
 * the index itself; a file that shows only some sites skips to the next one it wants (rather
 * than printing nothing for the others), so a read never ends on an empty record.
 */
static void *rec_seek(struct seq_file *m, loff_t *pos, bool (*want)(struct seq_file *, int))
{
	int n = ftrace_nr_records();

	for (loff_t i = *pos; i < n; i++) {
		if (!ftrace_rec_name((int)i))
			continue; /* a number no module has now */
		if (!want || want(m, (int)i)) {
			*pos = i;
			return (void *)(i + 2);
		}
	}
	*pos = n;
	return NULL;
}

static int rec_index(void *v)
{
	return (int)((long)v - 2);
}

/* A module's records and names may go while we read: ftrace_release_mod waits for this lock. */
static void rec_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	ftrace_records_unlock();
}

/* "name", or "name [module]" for a module's function, as Linux's %ps prints it. */
static void show_rec_name(struct seq_file *m, int rec)
{
	const char *mod = ftrace_rec_modname(rec);

	seq_printf(m, mod ? "%s [%s]" : "%s", ftrace_rec_name(rec), mod);
}

/* --- available_filter_functions, enabled_functions, dyn_ftrace_total_info -------------------- */

static int avail_show(struct seq_file *m, void *v)
{
	show_rec_name(m, rec_index(v));
	seq_puts(m, "\n");
	return 0;
}

static void *avail_start(struct seq_file *m, loff_t *pos)
{
	ftrace_records_lock();
	return rec_seek(m, pos, NULL);
}

static void *avail_next(struct seq_file *m, void *v, loff_t *pos)
{
	*pos = rec_index(v) + 1;
	return rec_seek(m, pos, NULL);
}

static const struct seq_operations avail_seq_ops = {
	.start = avail_start,
	.next = avail_next,
	.stop = rec_stop,
	.show = avail_show,
};

static int avail_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &avail_seq_ops);
}

const struct file_operations ftrace_avail_fops = {
	.open = avail_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/*
 * "name (refs)" and Linux's three flag columns: " R" (an ops wants the registers: the site
 * calls ftrace_regs_caller), " I" (modifies the ip), " D" (direct call), each "  " when not.
 * Lucid's ops never claim the last two.
 */
static int enabled_show(struct seq_file *m, void *v)
{
	int rec = rec_index(v);

	show_rec_name(m, rec);
	seq_printf(m, " (%d)%s    \n", ftrace_rec_refcount(rec),
		   ftrace_rec_regs(rec) ? " R" : "  ");
	return 0;
}

static bool rec_enabled(struct seq_file *m, int rec)
{
	(void)m;
	return ftrace_rec_enabled(rec);
}

static void *enabled_start(struct seq_file *m, loff_t *pos)
{
	ftrace_records_lock();
	return rec_seek(m, pos, rec_enabled);
}

static void *enabled_next(struct seq_file *m, void *v, loff_t *pos)
{
	*pos = rec_index(v) + 1;
	return rec_seek(m, pos, rec_enabled);
}

static const struct seq_operations enabled_seq_ops = {
	.start = enabled_start,
	.next = enabled_next,
	.stop = rec_stop,
	.show = enabled_show,
};

static int enabled_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &enabled_seq_ops);
}

const struct file_operations ftrace_enabled_fops = {
	.open = enabled_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* Linux's "sites pages:P groups: G": the kernel's records are one group, each module's one. */
static ssize_t dyn_info_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[64];
	int len;

	(void)file;
	len = snprintf(buf, sizeof(buf), "%d pages:%lu groups: %d\n", ftrace_nr_live_records(),
		       ftrace_nr_pages(), ftrace_nr_groups());
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, (size_t)len);
}

const struct file_operations tracing_dyn_info_fops = {
	.read = dyn_info_read,
};

/* --- set_ftrace_filter, set_ftrace_notrace ------------------------------------------------ */

struct regex_file {
	/* whose sets: a trace array's ops, graph_hash_ops, stack_trace_ops */
	struct ftrace_ops *ops;
	struct trace_array *tr; /* whose ops they are (its commands, its error_log), or NULL */
	bool is_notrace; /* its notrace set rather than its filter */
	bool commands; /* the function tracer's files: they run and list "glob:command" words */
	bool reset; /* opened with O_TRUNC, and no write applied it yet */
	char partial[WORD_MAX]; /* a word the last write cut off */
	size_t plen;
};

static struct ftrace_hash *regex_hash(struct regex_file *rf)
{
	return rf->is_notrace ? &rf->ops->notrace_hash : &rf->ops->filter_hash;
}

static bool rec_in_hash(struct seq_file *m, int rec)
{
	return ftrace_hash_contains(regex_hash(m->private), rec);
}

/*
 * Positions 0 .. n-1 are the call site records (or, for an empty set, position 0 is the "all
 * functions" line), positions from extras_base() on the ":mod:" words kept for modules not
 * loaded, then the function commands' lines (set_ftrace_filter only), Linux's order. A record
 * is its position + 2, as elsewhere in this file.
 */
static loff_t extras_base(void)
{
	return MAX((loff_t)ftrace_nr_records(),
		   1); /* after the "all functions" line, if no sites */
}

static int nr_kept_mods(struct regex_file *rf)
{
	char line[WORD_MAX * 2];
	int n = 0;

	if (!rf->commands)
		return 0;
	while (ftrace_mod_cache_show(rf->ops, rf->is_notrace, n, line, sizeof(line)))
		n++;
	return n;
}

static void *regex_seek(struct seq_file *m, loff_t *pos)
{
	struct regex_file *rf = m->private;

	if (regex_hash(rf)->count == 0) {
		if (*pos == 0)
			return SEQ_START_TOKEN;
		*pos = MAX(*pos, extras_base());
	} else if (*pos < extras_base()) {
		void *v = rec_seek(m, pos, rec_in_hash);

		if (v)
			return v;
	}
	int k = (int)(*pos - extras_base()), mods = nr_kept_mods(rf);

	if (k < mods)
		return (void *)(*pos + 2);
	if (!rf->commands || rf->is_notrace || !ftrace_probe_show(rf->tr, k - mods, NULL, 0))
		return NULL;
	return (void *)(*pos + 2);
}

/*
 * The list is read under trace_types_lock: a write frees the old set when it swaps; and the
 * records lock, as a module's records may go meanwhile.
 */
static void *regex_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&trace_types_lock);
	ftrace_records_lock();
	return regex_seek(m, pos);
}

static void *regex_next(struct seq_file *m, void *v, loff_t *pos)
{
	*pos = v == SEQ_START_TOKEN ? extras_base() : rec_index(v) + 1;
	return regex_seek(m, pos);
}

static void regex_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	ftrace_records_unlock();
	mutex_unlock(&trace_types_lock);
}

static int regex_show(struct seq_file *m, void *v)
{
	struct regex_file *rf = m->private;
	int idx = v == SEQ_START_TOKEN ? 0 : rec_index(v), base = (int)extras_base();
	char line[WORD_MAX * 2];

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, rf->is_notrace ? "#### no functions disabled ####\n"
					   : "#### all functions enabled ####\n");
	} else if (idx < ftrace_nr_records()) {
		show_rec_name(m, idx);
		seq_puts(m, "\n");
	} else if (idx - base < nr_kept_mods(rf)) {
		ftrace_mod_cache_show(rf->ops, rf->is_notrace, idx - base, line, sizeof(line));
		seq_puts(m, line);
	} else {
		ftrace_probe_show(rf->tr, idx - base - nr_kept_mods(rf), line, sizeof(line));
		seq_puts(m, line);
	}
	return 0;
}

static const struct seq_operations regex_seq_ops = {
	.start = regex_start,
	.next = regex_next,
	.stop = regex_stop,
	.show = regex_show,
};

static struct regex_file *regex_file(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int regex_open(struct file *file, struct trace_array *tr, struct ftrace_ops *ops,
		      bool is_notrace)
{
	struct regex_file *rf = kzalloc(sizeof(*rf));
	int ret;

	if (!rf)
		return -ENOMEM;
	rf->ops = ops;
	rf->tr = tr;
	rf->is_notrace = is_notrace;
	/* Every array's function tracer files run commands, each its own (Linux's). */
	rf->commands = tr && ops == &tr->ops;
	rf->reset = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = rf;
		return 0;
	}
	ret = seq_open(file, &regex_seq_ops);
	if (ret) {
		kfree(rf);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = rf;
	return 0;
}

static int filter_open(struct inode *inode, struct file *file)
{
	return regex_open(file, tracing_get_tr(inode), &tracing_get_tr(inode)->ops, false);
}

static int notrace_open(struct inode *inode, struct file *file)
{
	return regex_open(file, tracing_get_tr(inode), &tracing_get_tr(inode)->ops, true);
}

static int graph_filter_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return regex_open(file, NULL, &graph_hash_ops, false);
}

static int graph_notrace_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return regex_open(file, NULL, &graph_hash_ops, true);
}


/* A function command ("glob:cmd[:count]"): checked, or run. Cut on a copy: word stays. */
static int command_word(struct regex_file *rf, const char *word, bool apply)
{
	struct ftrace_cmd_err err = {FTRACE_CMD_ERR_ERRNO, NULL};
	struct ftrace_cmd_spec spec;
	char copy[WORD_MAX];
	int ret;

	if (strlcpy(copy, word, sizeof(copy)) >= sizeof(copy))
		return -EINVAL;
	ftrace_cmd_split(copy, &spec);
	/* stack_trace_filter's ops belong to no trace array: Linux's callbacks say -ENODEV. */
	ret = ftrace_run_command(rf->commands ? rf->tr : NULL, &spec, !rf->is_notrace, apply,
				 &err);
	/* error_log: the word as written, the caret under the part at fault (copy is cut). */
	if (ret && ret != -ENOMEM) {
		bool in_copy = err.where >= copy && err.where < copy + sizeof(copy);

		tracing_log_err(rf->tr, rf->is_notrace ? "set_ftrace_notrace" : "set_ftrace_filter",
				word, ftrace_cmd_err_text, err.type,
				in_copy ? (unsigned int)(err.where - copy)
					: (unsigned int)strlen(word));
	}
	return ret;
}

/*
 * Does the write mean a command by this word? In every file Linux reads with
 * ftrace_regex_write (not in the graph files, whose "f:cmd" is just a name that matches nothing).
 */
static bool is_command(struct regex_file *rf, const char *word)
{
	struct ftrace_mod_spec mod;

	/* "glob:mod:module" is a filter word (trace/ftrace.c), not a function command. */
	return rf->ops != &graph_hash_ops && strchr(word, ':') != NULL &&
	       !ftrace_mod_split(word + (word[0] == '!'), &mod);
}

/*
 * One write's words (or none: just the pending ">"). The set is edited as a whole
 * (ftrace_hash_edit_*, trace/ftrace.h) and installed once, after the commands have been checked
 * and run: a bad word, or a command that cannot be run, leaves the set as it was, and a write
 * that succeeds patches the call sites once. ">" empties the set even when the write holds only
 * commands, as on Linux. The commands are checked against the state before the write (one given
 * twice is refused), so the one case left where a failed write changes something is a command
 * that cannot run after earlier ones of the same write did (no memory, or globs that overlap):
 * those earlier ones stay, as on Linux, which applies a write word by word.
 * trace_types_lock held.
 */
static int regex_apply(struct regex_file *rf, char **words, int nr)
{
	lockdep_assert_held(&trace_types_lock);
	struct ftrace_hash_edit edit;
	bool edits = rf->reset;
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++) {
		if (!is_command(rf, words[i])) {
			edits = true;
			continue;
		}
		ret = command_word(rf, words[i], false);
		/* the second would find every function has it already */
		for (int j = 0; j < i && !ret; j++)
			if (!strcmp(words[j], words[i]))
				ret = -EINVAL;
	}
	if (!ret && edits)
		ret = ftrace_hash_edit_begin(&edit, rf->ops, rf->is_notrace, rf->reset);
	if (ret)
		return ret;
	for (int i = 0; i < nr && !ret && edits; i++)
		if (!is_command(rf, words[i]))
			ret = ftrace_hash_edit_word(&edit, words[i]);
	for (int i = 0; i < nr && !ret; i++)
		if (is_command(rf, words[i]))
			ret = command_word(rf, words[i], true);
	if (edits && ret)
		ftrace_hash_edit_abort(&edit);
	if (edits && !ret) {
		ftrace_hash_edit_commit(&edit);
		rf->reset = false;
	}
	return ret;
}

static ssize_t regex_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct regex_file *rf = regex_file(file);
	size_t len = rf->plen + cnt, tail = len, plen;
	char *text = kmalloc(len + 1), **words = NULL, *p, *w;
	char partial[WORD_MAX];
	int ret = 0, nr = 0;

	if (!text)
		return -ENOMEM;
	memcpy(text, rf->partial, rf->plen);
	memcpy(text + rf->plen, ubuf, cnt);
	text[len] = '\0';
	/* A last word not followed by a blank may go on in the next write: keep it aside. */
	while (tail > 0 && !isspace(text[tail - 1]))
		tail--;
	plen = len - tail;
	if (plen >= WORD_MAX) {
		ret = -EINVAL;
		goto fail;
	}
	memcpy(partial, text + tail, plen);
	text[tail] = '\0';
	words = kmalloc((tail / 2 + 1) * sizeof(*words)); /* a word and a blank at least */
	if (!words) {
		ret = -ENOMEM;
		goto fail;
	}
	for (p = text; (w = next_word(&p));)
		words[nr++] = w;

	/* A write of only a cut word waits for the rest; an empty one is "echo > file". */
	if (nr || !plen) {
		mutex_lock(&trace_types_lock);
		ret = regex_apply(rf, words, nr);
		mutex_unlock(&trace_types_lock);
	}
	if (ret)
		goto fail;
	memcpy(rf->partial, partial, plen);
	rf->plen = plen;
	kfree(words);
	kfree(text);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;

fail:
	/* Nothing changes, and closing the file must not apply the O_TRUNC either. */
	rf->reset = false;
	rf->plen = 0;
	kfree(words);
	kfree(text);
	return ret;
}

static int regex_release(struct inode *inode, struct file *file)
{
	struct regex_file *rf = regex_file(file);

	mutex_lock(&trace_types_lock);
	if (rf->plen) {
		/* The last word of "echo -n word": errors can no longer be reported (Linux too). */
		char *last = rf->partial;

		rf->partial[rf->plen] = '\0';
		regex_apply(rf, &last, 1);
	}
	regex_apply(rf, NULL, 0); /* ": > set_ftrace_filter" empties it too */
	mutex_unlock(&trace_types_lock);
	kfree(rf);
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

static loff_t regex_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

const struct file_operations ftrace_filter_fops = {
	.open = filter_open,
	.read = seq_read,
	.write = regex_write,
	.llseek = regex_lseek,
	.release = regex_release,
};

const struct file_operations ftrace_notrace_fops = {
	.open = notrace_open,
	.read = seq_read,
	.write = regex_write,
	.llseek = regex_lseek,
	.release = regex_release,
};

const struct file_operations ftrace_graph_fops = {
	.open = graph_filter_open,
	.read = seq_read,
	.write = regex_write,
	.llseek = regex_lseek,
	.release = regex_release,
};

static int stack_filter_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return regex_open(file, NULL, &stack_trace_ops, false);
}

/* stack_trace_filter: the functions the stack tracer checks the stack in (empty: all). */
const struct file_operations stack_trace_filter_fops = {
	.open = stack_filter_open,
	.read = seq_read,
	.write = regex_write,
	.llseek = regex_lseek,
	.release = regex_release,
};

const struct file_operations ftrace_graph_notrace_fops = {
	.open = graph_notrace_open,
	.read = seq_read,
	.write = regex_write,
	.llseek = regex_lseek,
	.release = regex_release,
};

/*
 * /proc/sys/kernel/ftrace_enabled: an int, as Linux's proc_dointvec takes it (-1 too); what
 * counts is zero or not. The int sysctl's own read and write, then the switch.
 */
static int ftrace_enabled = 1;

static ssize_t ftrace_enabled_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	return proc_dointvec_fops.read(file, ubuf, cnt, ppos);
}

static ssize_t ftrace_enabled_write(struct file *file, const char *ubuf, size_t cnt,
				    loff_t *ppos)
{
	ssize_t ret = proc_dointvec_fops.write(file, ubuf, cnt, ppos);

	if (ret > 0)
		ftrace_set_enabled(READ_ONCE(ftrace_enabled) != 0);
	return ret;
}

static const struct file_operations ftrace_enabled_sysctl_fops = {
	.read = ftrace_enabled_read,
	.write = ftrace_enabled_write,
};

void ftrace_init_sysctl(void)
{
	if (!proc_create_data("ftrace_enabled", 0644, proc_sys_kernel, &ftrace_enabled_sysctl_fops,
			      &ftrace_enabled))
		printk(KERN_ERR "ftrace: cannot create /proc/sys/kernel/ftrace_enabled\n");
}

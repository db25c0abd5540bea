/* The tracefs files: one table of name, mode and operations, and the small files themselves. */

/*
 * Everything the tracer offers a user is a file in /sys/kernel/tracing (also reachable as
 * /sys/kernel/debug/tracing). tracer_init_tracefs() makes them all at boot from trace_files[]
 * below: one line per file, with Linux's mode (0640 read-write, 0440 read-only). A line marked
 * PER_CPU is made again in every per_cpu/cpuN directory, where it acts on that CPU only; the
 * inode's data says which CPU (tracing_get_cpu).
 *
 * The rule for every write: bad input is refused with Linux's errno and changes nothing, so
 * "echo nosuch > current_tracer" prints "write error: Invalid argument" and the tracer stays.
 * Numbers go through kstrtoul, which accepts the newline echo adds and nothing else; as Linux's
 * kstrtoul_from_user, a number file reads only the first ULONG_WRITE_MAX bytes of a write.
 *
 * The bigger files live elsewhere: trace and trace_pipe in trace/trace_iter.c, the
 * function-filter files in trace/ftrace_fs.c. Not traced, as all of trace/.
 */
#include <limits.h>
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define TOP 0x1 /* in the tracing directory */
#define PER_CPU 0x2 /* in each per_cpu/cpuN */
#define INST 0x4 /* in each instance's directory too (per_cpu/ has every PER_CPU file) */
#define MAX_TRACER_SIZE 100
#define OPTION_MAX 64 /* trace_options writes: Linux refuses 64 bytes or more */
#define ULONG_WRITE_MAX (1 + 64 + 1) /* a sign, 64 binary digits, a newline: the rest is unread */
#define KB_SHIFT 10 /* buffer_size_kb: bytes = KB << KB_SHIFT */

static struct dentry *options_dir;

int tracing_copy_write(char *buf, size_t size, const char *ubuf, size_t cnt)
{
	if (cnt >= size)
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	return 0;
}

/* A read of a short text made at once: "1\n", "nop\n". */
static ssize_t read_text(loff_t *ppos, char *ubuf, size_t cnt, const char *text)
{
	return simple_read_from_buffer(ubuf, cnt, ppos, text, strlen(text));
}

ssize_t tracing_read_ulong(loff_t *ppos, char *ubuf, size_t cnt, unsigned long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu\n", val);
	return read_text(ppos, ubuf, cnt, buf);
}

ssize_t tracing_read_long(loff_t *ppos, char *ubuf, size_t cnt, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return read_text(ppos, ubuf, cnt, buf);
}

/*
 * Linux's kstrtoul_from_user: a longer write is cut, not refused, so 40 zeros and a 1 is 1, and
 * 4000 bytes of text fail as text (EINVAL), not as a length.
 */
int tracing_write_ulong(const char *ubuf, size_t cnt, unsigned long *val)
{
	char buf[ULONG_WRITE_MAX + 1];

	cnt = MIN(cnt, (size_t)ULONG_WRITE_MAX);
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	return kstrtoul(buf, 10, val);
}

/* --- available_tracers, current_tracer ----------------------------------------------------- */

/* An instance lists the tracers it may use (Linux 6.1: "function nop"). */
static int tracers_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = m->private;
	bool first = true;

	(void)v;
	mutex_lock(&trace_types_lock);
	for (struct tracer *t = trace_types; t; t = t->next) {
		if (tr != &global_trace && !t->allow_instances)
			continue;
		seq_printf(m, "%s%s", first ? "" : " ", t->name);
		first = false;
	}
	seq_putc(m, '\n');
	mutex_unlock(&trace_types_lock);
	return 0;
}

static int tracers_open(struct inode *inode, struct file *file)
{
	return single_open(file, tracers_show, tracing_get_tr(inode));
}

static const struct file_operations show_traces_fops = {
	.open = tracers_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t current_tracer_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[MAX_TRACER_SIZE + 2];

	mutex_lock(&trace_types_lock);
	snprintf(buf, sizeof(buf), "%s\n", tracing_get_tr(file_inode(file))->current_trace->name);
	mutex_unlock(&trace_types_lock);
	return read_text(ppos, ubuf, cnt, buf);
}

static ssize_t current_tracer_write(struct file *file, const char *ubuf, size_t cnt,
				    loff_t *ppos)
{
	char buf[MAX_TRACER_SIZE + 1];
	size_t len = MIN(cnt, (size_t)MAX_TRACER_SIZE);
	int ret;

	/*
	 * As Linux's tracing_set_trace_write: only the first 100 bytes count, the rest is unread.
	 */
	memcpy(buf, ubuf, len);
	buf[len] = '\0';
	ret = tracing_set_tracer(tracing_get_tr(file_inode(file)), strim(buf));
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations set_tracer_fops = {
	.read = current_tracer_read,
	.write = current_tracer_write,
};

/* --- tracing_on ---------------------------------------------------------------------------- */

static ssize_t tracing_on_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	return read_text(ppos, ubuf, cnt,
			 tracer_tracing_is_on(tracing_get_tr(file_inode(file))) ? "1\n" : "0\n");
}

/* Any number but 0 turns recording on; the tracer's start/stop run on a change only. */
static ssize_t tracing_on_write(struct file *file, const char *ubuf, size_t cnt,
				loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned long val;
	int ret;

	ret = tracing_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	if (!!val != tracer_tracing_is_on(tr)) {
		if (val) {
			tracer_tracing_on(tr);
			if (tr->current_trace->start)
				tr->current_trace->start(tr);
		} else {
			tracer_tracing_off(tr);
			if (tr->current_trace->stop)
				tr->current_trace->stop(tr);
		}
	}
	mutex_unlock(&trace_types_lock);
	trace_pipe_wake(); /* a reader waiting with tracing off may now see end of file */
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations rb_simple_fops = {
	.read = tracing_on_read,
	.write = tracing_on_write,
};

/* --- buffer_size_kb, buffer_total_size_kb -------------------------------------------------- */

static ssize_t buffer_size_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	int cpu = tracing_get_cpu(file_inode(file));
	unsigned long size;

	if (cpu != RING_BUFFER_ALL_CPUS)
		return tracing_read_ulong(ppos, ubuf, cnt, tr->buffer_size[cpu] >> KB_SHIFT);
	size = tr->buffer_size[0];
	for (int c = 1; c < tr->nr_cpus; c++)
		if (tr->buffer_size[c] != size)
			return read_text(ppos, ubuf, cnt, "X\n"); /* the CPUs differ */
	return tracing_read_ulong(ppos, ubuf, cnt, size >> KB_SHIFT);
}

static ssize_t buffer_size_write(struct file *file, const char *ubuf, size_t cnt,
				 loff_t *ppos)
{
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	if (!val)
		return -EINVAL; /* a buffer must hold something */
	/*
	 * Kilobytes whose byte count does not fit an unsigned long are refused. Linux shifts
	 * without looking (val <<= 10): 2^54 KB became 0 bytes and 2^54 - 1 wrapped in the
	 * rounding to pages, a two-page buffer either way, and the write said it worked.
	 */
	if (val > ULONG_MAX >> KB_SHIFT)
		return -EINVAL;
	ret = tracing_resize_ring_buffer(tracing_get_tr(file_inode(file)), val << KB_SHIFT,
					 tracing_get_cpu(file_inode(file)));
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations tracing_entries_fops = {
	.read = buffer_size_read,
	.write = buffer_size_write,
};

static ssize_t total_size_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned long kb = 0;

	for (int c = 0; c < tr->nr_cpus; c++)
		kb += tr->buffer_size[c] >> KB_SHIFT;
	return tracing_read_ulong(ppos, ubuf, cnt, kb);
}

static const struct file_operations tracing_total_entries_fops = {
	.read = total_size_read,
};

/* --- trace_clock --------------------------------------------------------------------------- */

static int clock_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = m->private;
	int cur = tr->clock_id;

	(void)v;
	for (int i = 0; i < nr_trace_clocks; i++)
		seq_printf(m, "%s%s%s%s", i ? " " : "", i == cur ? "[" : "", trace_clocks[i].name,
			   i == cur ? "]" : "");
	seq_putc(m, '\n');
	return 0;
}

static int clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, clock_show, tracing_get_tr(inode));
}

/* Linux's tracing_clock_write reads into 64 bytes: a name with blanks around it fits. */
#define CLOCK_WRITE_MAX 64

static ssize_t clock_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[CLOCK_WRITE_MAX];
	int ret = tracing_copy_write(buf, sizeof(buf), ubuf, cnt);

	if (!ret)
		ret = tracing_set_clock(tracing_get_tr(file_inode(file)), strim(buf));
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations trace_clock_fops = {
	.open = clock_open,
	.read = seq_read,
	.write = clock_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- trace_options and options/ ------------------------------------------------------------ */

static int options_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = m->private;
	struct tracer_flags *flags;

	(void)v;
	mutex_lock(&trace_types_lock);
	for (int i = 0; i < nr_trace_options; i++)
		seq_printf(m, "%s%s\n", tr->trace_flags & trace_options[i].bit ? "" : "no",
			   trace_options[i].name);
	/*
	 * then the current tracer's own: one value per tracer, the top level's (not an instance's)
	 */
	flags = tr == &global_trace ? tr->current_trace->flags : NULL;
	for (struct tracer_opt *o = flags ? flags->opts : NULL; o && o->name; o++)
		seq_printf(m, "%s%s\n", flags->val & o->bit ? "" : "no", o->name);
	mutex_unlock(&trace_types_lock);
	return 0;
}

static int options_open(struct inode *inode, struct file *file)
{
	return single_open(file, options_show, tracing_get_tr(inode));
}

/* "name" sets, "noname" clears: a core option, else one of the current tracer's. */
int trace_set_options(struct trace_array *tr, char *option)
{
	struct tracer_flags *flags;
	char *name = strim(option);
	int set = 1, ret = -EINVAL;

	if (strncmp(name, "no", 2) == 0) {
		set = 0;
		name += 2;
	}
	mutex_lock(&trace_types_lock);
	for (int i = 0; i < nr_trace_options; i++) {
		if (strcmp(name, trace_options[i].name) == 0) {
			set_tracer_flag(tr, trace_options[i].bit, set);
			ret = 0;
			goto out;
		}
	}
	flags = tr == &global_trace ? tr->current_trace->flags : NULL; /* as options_show */
	for (struct tracer_opt *o = flags ? flags->opts : NULL; o && o->name; o++) {
		if (strcmp(name, o->name) == 0) {
			ret = set_tracer_option(tr, flags, o, set);
			goto out;
		}
	}
out:
	mutex_unlock(&trace_types_lock);
	return ret;
}

static ssize_t options_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[OPTION_MAX];
	int ret = tracing_copy_write(buf, sizeof(buf), ubuf, cnt);

	if (!ret)
		ret = trace_set_options(tracing_get_tr(file_inode(file)), buf);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations tracing_iter_fops = {
	.open = options_open,
	.read = seq_read,
	.write = options_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* options/NAME: "0" or "1". A core option's inode points at its {array, option} pair. */
struct trace_option_file {
	struct trace_array *tr;
	const struct trace_option *opt;
};

static int write_bool(const char *ubuf, size_t cnt, unsigned long *val)
{
	int ret = tracing_write_ulong(ubuf, cnt, val);

	return ret ? ret : (*val > 1 ? -EINVAL : 0);
}

static ssize_t core_option_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct trace_option_file *of = file_inode(file)->i_private;

	return read_text(ppos, ubuf, cnt, of->tr->trace_flags & of->opt->bit ? "1\n" : "0\n");
}

static ssize_t core_option_write(struct file *file, const char *ubuf, size_t cnt,
				 loff_t *ppos)
{
	const struct trace_option_file *of = file_inode(file)->i_private;
	unsigned long val;
	int ret = write_bool(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	set_tracer_flag(of->tr, of->opt->bit, (int)val);
	mutex_unlock(&trace_types_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations trace_options_core_fops = {
	.read = core_option_read,
	.write = core_option_write,
};

/* A tracer's option file exists for every registered tracer, current or not, as on Linux. */
struct trace_option_dentry {
	struct tracer_flags *flags;
	struct tracer_opt *opt;
};

static ssize_t tracer_option_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_option_dentry *topt = file_inode(file)->i_private;

	return read_text(ppos, ubuf, cnt, topt->flags->val & topt->opt->bit ? "1\n" : "0\n");
}

static ssize_t tracer_option_write(struct file *file, const char *ubuf, size_t cnt,
				   loff_t *ppos)
{
	struct trace_option_dentry *topt = file_inode(file)->i_private;
	unsigned long val;
	int ret = write_bool(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	ret = set_tracer_option(&global_trace, topt->flags, topt->opt, (int)val);
	mutex_unlock(&trace_types_lock);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations trace_options_fops = {
	.read = tracer_option_read,
	.write = tracer_option_write,
};

struct dentry *tracing_options_dir(void)
{
	return options_dir;
}

/* Called by register_tracer (trace_types_lock held); before tracefs exists, by its init. */
void tracing_create_tracer_options(struct tracer *t)
{
	if (!options_dir || !t->flags)
		return;
	for (struct tracer_opt *o = t->flags->opts; o && o->name; o++) {
		struct trace_option_dentry *topt = kmalloc(sizeof(*topt));

		if (!topt)
			return;
		topt->flags = t->flags;
		topt->opt = o;
		if (!tracefs_create_file(o->name, TRACE_MODE_WRITE, options_dir, topt,
					 &trace_options_fops))
			kfree(topt); /* a name two tracers share: the first one's file stays */
	}
}

/* --- README -------------------------------------------------------------------------------- */

static const char readme_msg[] =
	"tracing mini-HOWTO:\n"
	"\n"
	"# echo 0 > tracing_on : stop recording (the tracer keeps running, nothing is kept)\n"
	"# echo 1 > tracing_on : record again\n"
	"\n"
	" Files in this directory:\n"
	"  trace\t\t\t- what the buffer holds, oldest first; reading does not empty it\n"
	"\t\t\t  echo > trace empties it\n"
	"  trace_pipe\t\t- the same lines, each one gone once read; waits for more\n"
	"  current_tracer\t- the tracer recording now: echo function > current_tracer\n"
	"  available_tracers\t- the tracers current_tracer accepts\n"
	"  tracing_on\t\t- 1 while events are recorded, 0 when recording is stopped\n"
	"  tracing_cpumask\t- Limit which CPUs to trace (hex: echo 1 > tracing_cpumask)\n"
	"  error_log\t- error log for failed commands (that support it)\n"
	"  instances\t\t- Make sub-buffers with: mkdir instances/foo\n"
	"\t\t\t  Remove sub-buffer with rmdir\n"
	"  buffer_size_kb\t- kilobytes of buffer per CPU (writing resizes and empties it)\n"
	"  buffer_total_size_kb\t- the same, summed over all CPUs\n"
	"  per_cpu/cpuN/\t\t- trace, trace_pipe, buffer_size_kb, snapshot and stats of one CPU\n"
	"  trace_options\t\t- every option, \"noname\" when off\n"
	"\t\t\t  echo nosym-offset > trace_options\n"
	"  options/\t\t- one file per option, 0 or 1\n"
	"  trace_clock\t\t- where timestamps come from; the one in use is in [brackets]\n"
	"       local:   nanoseconds since boot (the TSC)\n"
	"      global:   the same clock (Lucid's TSC agrees across CPUs)\n"
	"     counter:   not a clock: 1, 2, 3, ... across all CPUs\n"
	"      uptime:   timer ticks since boot\n"
	"     x86-tsc:   raw TSC cycles\n"
	"\n"
	"  available_filter_functions - the functions the function tracer can trace\n"
	"  enabled_functions\t- the functions whose call site is live now, with how many want it\n"
	"  dyn_ftrace_total_info\t- how many call sites were found at boot\n"
	"  set_ftrace_filter\t- trace only these functions (empty: all of them)\n"
	"\t     accepts: func_full_name or glob-matching-pattern\n"
	"\t     globs:   *end, begin*, *middle*, a*b, ?, [abc]\n"
	"\t     '!name' takes functions out again\n"
	"\t     '>' replaces the list, '>>' adds to it; echo > set_ftrace_filter empties it\n"
	"\t     (but leaves its triggers)\n"
	"\t    triggers: a command to perform when function is hit\n"
	"\t      Format: <function>:<trigger>[:count]\n"
	"\t     trigger: traceon, traceoff\n"
	"\t\t      enable_event:<system>:<event>\n"
	"\t\t      disable_event:<system>:<event>\n"
	"\t\t      stacktrace\n"
	"\t\t      snapshot\n"
	"\t\t      dump\n"
	"\t\t      cpudump\n"
	"\t     example: echo do_fault:traceoff > set_ftrace_filter\n"
	"\t              echo do_trap:traceoff:3 > set_ftrace_filter\n"
	"\t     a count only goes down when the trigger did something\n"
	"\t     To remove trigger without count:\n"
	"\t       echo '!<function>:<trigger>' > set_ftrace_filter\n"
	"\t     To remove trigger with a count:\n"
	"\t       echo '!<function>:<trigger>:0' > set_ftrace_filter\n"
	"  set_ftrace_notrace\t- never trace these functions (wins over set_ftrace_filter)\n"
	"\t     accepts: func_full_name or glob-matching-pattern\n"
	"  set_ftrace_pid\t- trace only these pids with the function tracer (empty: all)\n"
	"  set_ftrace_notrace_pid\t- never function trace these pids (wins over set_ftrace_pid)\n"
	"  set_graph_function\t- function_graph: trace these functions and what they call\n"
	"  set_graph_notrace\t- function_graph: trace neither these functions nor their calls\n"
	"  max_graph_depth\t- function_graph: trace this many levels of calls (0: all)\n"
	"  tracing_thresh\t- function_graph: record only calls of at least this many us;\n"
	"\t\t  latency tracers: record every section of at least this many us\n"
	"  tracing_max_latency\t- the worst latency a latency tracer saw, in us (0 resets)\n"
	/* Linux 6.1's lines for the dynamic events, word for word: tools parse them */
	"  dynamic_events\t\t- Create/append/remove/show the generic dynamic events\n"
	"\t\t\t  Write into this file to define/undefine new trace events.\n"
	"  kprobe_events\t\t- Create/append/remove/show the kernel dynamic events\n"
	"\t\t\t  Write into this file to define/undefine new trace events.\n"
	"  uprobe_events\t\t- Create/append/remove/show the userspace dynamic events\n"
	"\t\t\t  Write into this file to define/undefine new trace events.\n"
	"\t  accepts: event-definitions (one definition per line)\n"
	"\t   Format: p[:[<group>/][<event>]] <place> [<args>]\n"
	"\t           r[maxactive][:[<group>/][<event>]] <place> [<args>]\n"
	"\t           s:[synthetic/]<event> <field> [<field>]\n"
	"\t           e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>]"
	" [if <filter>]\n"
	"\t           -:[<group>/][<event>]\n"
	"\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
	"place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>\n"
	"   place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
	"\t     args: <name>=fetcharg[:type]\n"
	"\t fetcharg: (%<register>|$<efield>), @<address>, @<symbol>[+|-<offset>],\n"
	"\t           $stack<index>, $stack, $retval, $comm, $arg<N>,\n"
	"\t           +|-[u]<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
	"\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, string, symbol,\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>, ustring,\n"
	"\t           symstr, <type>\\[<array-size>\\]\n"
	"\t    field: <stype> <name>;\n"
	"\t    stype: u8/u16/u32/u64, s8/s16/s32/s64, pid_t,\n"
	"\t           [unsigned] char/int/long\n"
	"\t    efield: For event probes ('e' types), the field is on of the fields\n"
	"\t            of the <attached-group>/<attached-event>.\n"
	"  kprobe_profile\t- each kprobe event's hits and misses\n"
	"\n"
	"  trace_marker\t\t- Writes into this file writes into the kernel buffer\n"
	"  trace_marker_raw\t\t- Writes into this file writes binary data into the kernel buffer\n"
	"  printk_formats\t- the address of each trace_printk format, and the format\n"
	"  available_events\t- the trace events, system:event\n"
	"  set_event\t\t- the enabled events; echo words to enable, '!' before one disables\n"
	"\t     accepts: system:event, system:*, *:event, *:*, system, event\n"
	"  set_event_pid\t- record events only of these pids (empty: all)\n"
	"  set_event_notrace_pid\t- never record events of these pids\n"
	"  events/\t\t- a directory per system, and in it one per event:\n"
	"      enable\t\t- 0 or 1; a system's and events/enable say X when mixed\n"
	"      filter\t\t- If set, only events passing filter are traced (0 removes it)\n"
	"      format\t\t- the layout of the event's records, for tools\n"
	"      id\t\t- the event's type number, the first field of its records\n"
	"      trigger\t\t- If set, a command to perform when event is hit\n"
	"\t    Format: <trigger>[:count][if <filter>]\n"
	"\t   trigger: traceon, traceoff\n"
	"\t            enable_event:<system>:<event>\n"
	"\t            disable_event:<system>:<event>\n"
	"\t\t    stacktrace\n"
	"\t\t    snapshot\n"
	"\t   example: echo traceoff > events/sched/sched_switch/trigger\n"
	"\t            echo traceoff:3 > events/sched/sched_switch/trigger\n"
	"\t            echo 'enable_event:irq:irq_handler_entry:3 if prev_pid == 1' > \\\n"
	"\t                  events/sched/sched_switch/trigger\n"
	"\t   Like function triggers, the counter is only decremented if it\n"
	"\t    enabled or disabled tracing.\n"
	"\t   To remove a trigger without a count:\n"
	"\t     echo '!<trigger> > <system>/<event>/trigger\n"
	"\t   To remove a trigger with a count:\n"
	"\t     echo '!<trigger>:0 > <system>/<event>/trigger\n"
	"\t   Filters can be ignored when removing a trigger.\n"
	"  snapshot\t\t- like 'trace', for the snapshot buffer: echo 1 > snapshot takes one\n"
	"\t\t\t  (cat it while it is empty for the other commands)\n"
	"  function_profile_enabled - 1: count the calls and time of every function\n"
	"  trace_stat/functionN\t- what CPU N counted, longest total time first\n"
	/* Linux 6.1's, word for word (the end of its hist help, then synthetic_events) */
	"\t    Hist trigger handlers and actions are executed whenever a\n"
	"\t    a histogram entry is added or updated.  They take the form:\n"
	"\n"
	"\t        <handler>.<action>\n"
	"\n"
	"\t    The available handlers are:\n"
	"\n"
	"\t        onmatch(matching.event)  - invoke on addition or update\n"
	"\t        onmax(var)               - invoke if var exceeds current max\n"
	"\t        onchange(var)            - invoke action if var changes\n"
	"\n"
	"\t    The available actions are:\n"
	"\n"
	"\t        trace(<synthetic_event>,param list)  - generate synthetic event\n"
	"\t        save(field,...)                      - save current event fields\n"
	"\t        snapshot()                           - snapshot the trace buffer\n"
	"\n"
	"  events/synthetic_events\t- Create/append/remove/show synthetic events\n"
	"\t  Write into this file to define/undefine new synthetic events.\n"
	"\t     example: echo 'myevent u64 lat; char name[]' >> synthetic_events\n";

static ssize_t readme_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return simple_read_from_buffer(ubuf, cnt, ppos, readme_msg, sizeof(readme_msg) - 1);
}

static const struct file_operations tracing_readme_fops = {
	.read = readme_read,
};

/* --- saved_cmdlines, saved_cmdlines_size: the pid -> comm cache (trace/trace_cmdline.c) ---- */

static int saved_cmdlines_show(struct seq_file *m, void *v)
{
	char comm[TRACE_COMM_LEN];
	int pid;

	(void)v;
	/* Slot by slot, in slot order as Linux: the cache's lock is never held across output. */
	for (unsigned int slot = 0; trace_saved_cmdline(slot, &pid, comm); slot++)
		if (pid >= 0)
			seq_printf(m, "%d %s\n", pid, comm);
	return 0;
}

static int saved_cmdlines_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, saved_cmdlines_show, NULL);
}

static const struct file_operations tracing_saved_cmdlines_fops = {
	.open = saved_cmdlines_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t saved_cmdlines_size_read(struct file *file, char *ubuf, size_t cnt,
					loff_t *ppos)
{
	(void)file;
	return tracing_read_ulong(ppos, ubuf, cnt, trace_saved_cmdlines_size());
}

static ssize_t saved_cmdlines_size_write(struct file *file, const char *ubuf, size_t cnt,
					 loff_t *ppos)
{
	unsigned long val;
	int ret;

	(void)file;
	ret = tracing_write_ulong(ubuf, cnt, &val);
	if (!ret)
		ret = val > PID_MAX_DEFAULT ? -EINVAL : trace_resize_saved_cmdlines(val);
	if (ret)
		return ret;
	tracing_forget_cmdline_tasks(); /* running tasks save their names again */
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations tracing_saved_cmdlines_size_fops = {
	.read = saved_cmdlines_size_read,
	.write = saved_cmdlines_size_write,
};

/* --- the table ----------------------------------------------------------------------------- */

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	int where;
} trace_files[] = {
	{"README", TRACE_MODE_READ, &tracing_readme_fops, TOP},
	{"available_filter_functions", TRACE_MODE_READ, &ftrace_avail_fops, TOP},
	{"available_tracers", TRACE_MODE_READ, &show_traces_fops, TOP | INST},
	{"buffer_size_kb", TRACE_MODE_WRITE, &tracing_entries_fops, TOP | PER_CPU | INST},
	{"buffer_total_size_kb", TRACE_MODE_READ, &tracing_total_entries_fops, TOP | INST},
	{"current_tracer", TRACE_MODE_WRITE, &set_tracer_fops, TOP | INST},
	{"dyn_ftrace_total_info", TRACE_MODE_READ, &tracing_dyn_info_fops, TOP},
	{"enabled_functions", TRACE_MODE_READ, &ftrace_enabled_fops, TOP},
	{"error_log", TRACE_MODE_WRITE, &tracing_err_log_fops, TOP | INST},
	{"set_ftrace_filter", TRACE_MODE_WRITE, &ftrace_filter_fops, TOP | INST},
	{"set_ftrace_notrace", TRACE_MODE_WRITE, &ftrace_notrace_fops, TOP | INST},
	{"saved_cmdlines", TRACE_MODE_READ, &tracing_saved_cmdlines_fops, TOP},
	{"saved_cmdlines_size", TRACE_MODE_WRITE, &tracing_saved_cmdlines_size_fops, TOP},
	{"set_ftrace_pid", TRACE_MODE_WRITE, &ftrace_pid_fops, TOP | INST},
	{"set_ftrace_notrace_pid", TRACE_MODE_WRITE, &ftrace_no_pid_fops, TOP | INST},
	{"set_event_pid", TRACE_MODE_WRITE, &event_pid_fops, TOP | INST},
	{"set_event_notrace_pid", TRACE_MODE_WRITE, &event_no_pid_fops, TOP | INST},
	{"snapshot", TRACE_MODE_WRITE, &snapshot_fops, TOP | PER_CPU | INST},
	{"stats", TRACE_MODE_READ, &tracing_stats_fops, PER_CPU},
	{"trace", TRACE_MODE_WRITE, &tracing_fops, TOP | PER_CPU | INST},
	{"trace_clock", TRACE_MODE_WRITE, &trace_clock_fops, TOP | INST},
	{"trace_options", TRACE_MODE_WRITE, &tracing_iter_fops, TOP | INST},
	{"trace_pipe", TRACE_MODE_READ, &tracing_pipe_fops, TOP | PER_CPU | INST},
	{"trace_pipe_raw", TRACE_MODE_READ, &tracing_buffers_fops, PER_CPU},
	{"tracing_on", TRACE_MODE_WRITE, &rb_simple_fops, TOP | INST},
	{"tracing_cpumask", TRACE_MODE_WRITE, &tracing_cpumask_fops, TOP | INST},
	/* the options' files (trace/trace_options.c) */
	{"buffer_percent", TRACE_MODE_WRITE, &buffer_percent_fops, TOP | INST},
	{"free_buffer", TRACE_MODE_WRITE_ONLY_OWNER, &tracing_free_buffer_fops, TOP | INST},
	{"saved_tgids", TRACE_MODE_READ, &tracing_saved_tgids_fops, TOP},
	{"timestamp_mode", TRACE_MODE_READ, &trace_time_stamp_mode_fops, TOP | INST},
	/* trace_printk and trace_marker (trace/trace_printk.c, trace/trace_marker.c) */
	{"printk_formats", TRACE_MODE_READ, &ftrace_formats_fops, TOP},
	{"trace_marker", TRACE_MODE_WRITE_ONLY, &tracing_mark_fops, TOP | INST},
	{"trace_marker_raw", TRACE_MODE_WRITE_ONLY, &tracing_mark_raw_fops, TOP | INST},
	/* The function_graph tracer's. */
	{"max_graph_depth", TRACE_MODE_WRITE, &graph_depth_fops, TOP},
	{"set_graph_function", TRACE_MODE_WRITE, &ftrace_graph_fops, TOP},
	{"set_graph_notrace", TRACE_MODE_WRITE, &ftrace_graph_notrace_fops, TOP},
	{"stack_trace_filter", TRACE_MODE_WRITE, &stack_trace_filter_fops, TOP},
	{"tracing_thresh", TRACE_MODE_WRITE, &tracing_thresh_fops, TOP},
	/* The latency tracers' (trace/trace_max_latency.c). */
	{"tracing_max_latency", TRACE_MODE_WRITE, &tracing_max_lat_fops, TOP},
};

static int create_files(struct trace_array *tr, struct dentry *dir, int where, int cpu)
{
	void *data = &tr->cpu_files[cpu == RING_BUFFER_ALL_CPUS ? 0 : cpu + 1];

	for (size_t i = 0; i < ARRAY_SIZE(trace_files); i++) {
		if (!(trace_files[i].where & where))
			continue;
		if (!tracefs_create_file(trace_files[i].name, trace_files[i].mode, dir, data,
					 trace_files[i].fops))
			return -ENOMEM;
	}
	return 0;
}

/* The core options' files in dir: each points at its {tr, option} pair, kept in tr->options. */
static int create_core_options(struct trace_array *tr, struct dentry *dir)
{
	struct trace_option_file *of = kmalloc(sizeof(*of) * (size_t)nr_trace_options);

	if (!of)
		return -ENOMEM;
	tr->options = of;
	for (int i = 0; i < nr_trace_options; i++) {
		of[i].tr = tr;
		of[i].opt = &trace_options[i];
		if (!tracefs_create_file(trace_options[i].name, TRACE_MODE_WRITE, dir, &of[i],
					 &trace_options_core_fops))
			return -ENOMEM;
	}
	return 0;
}

/* tr's per_cpu/ and options/ in dir (NULL: the tracing directory). */
static int create_dirs(struct trace_array *tr, struct dentry *dir, struct dentry **options)
{
	struct dentry *per_cpu = tracefs_create_dir("per_cpu", dir);
	char name[16];
	int ret = per_cpu ? 0 : -ENOMEM;

	for (int cpu = 0; cpu < tr->nr_cpus && per_cpu; cpu++) {
		struct dentry *d;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = tracefs_create_dir(name, per_cpu);
		/* (a NULL parent would mean the tracing directory itself) */
		if (!d || create_files(tr, d, PER_CPU, cpu))
			ret = -ENOMEM;
	}
	*options = tracefs_create_dir("options", dir);
	if (!*options || create_core_options(tr, *options))
		ret = -ENOMEM;
	return ret;
}

static void init_cpu_files(struct trace_array *tr)
{
	tr->cpu_files[0] = (struct trace_cpu){tr, RING_BUFFER_ALL_CPUS};
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		tr->cpu_files[cpu + 1] = (struct trace_cpu){tr, cpu};
}

int tracer_init_tracefs(struct trace_array *tr)
{
	int ret;

	init_cpu_files(tr);
	ret = create_files(tr, NULL, TOP, RING_BUFFER_ALL_CPUS);
	if (create_dirs(tr, NULL, &options_dir))
		ret = -ENOMEM;
	if (ret)
		printk(KERN_WARNING "tracing: could not create every tracefs file\n");
	return ret;
}

/*
 * An instance's files, in tr->dir: the ones marked INST, per_cpu/ and options/ (core options:
 * the tracers' own options are global in Lucid, and stay in the top-level options/).
 */
int tracer_init_instance_files(struct trace_array *tr)
{
	struct dentry *options;

	init_cpu_files(tr);
	if (create_files(tr, tr->dir, INST, RING_BUFFER_ALL_CPUS))
		return -ENOMEM;
	return create_dirs(tr, tr->dir, &options);
}

/* What the files pointed at; their dentries are gone (tracefs_remove). */
void tracer_free_instance_files(struct trace_array *tr)
{
	kfree(tr->options);
	tr->options = NULL;
}

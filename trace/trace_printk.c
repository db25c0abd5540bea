/* trace_printk(): printk-style messages recorded in the trace buffer, and printk_formats. */

/*
 * The usual call, trace_printk("fmt", args) with a literal format, lands in __trace_bprintk(),
 * which records a TRACE_BPRINT: the caller's address, the format's address and the argument
 * values as 32-bit words, packed as vbin_printf() packs them (lib/bprintf.h; strings are copied
 * whole: they may be gone by the time the trace is read). Nothing is formatted: the trace
 * file's reader calls bstr_printf() (trace/trace_output.c).
 *
 * The record path. Every literal format has a pointer in the section __trace_printk_fmt, so
 * all of them are known at boot: trace_printk_init() parses each one once into its argument
 * layout (bprint_layout_parse: how many arguments, which take two words) and keeps the
 * layouts in a hash table keyed by the format's address, the very pointer the call passes and
 * the record stores. A call then looks its layout up, reserves a record of exactly the right
 * size in this CPU's ring buffer, and stores the arguments straight into it with a va_arg loop
 * over the layout's bits. No parse, no scratch buffer, no second copy: a call with a %d costs
 * well under a hundred instructions besides the ring buffer's own (vbin_printf's parse alone
 * cost several hundred), cheap enough for the timer interrupt, the scheduler or an NMI. The
 * table is built once, before tracing starts, and only read afterwards: the lookup needs no
 * lock, and nothing on the record path allocates.
 *
 * The general path keeps what a layout cannot express: a format with %s (its size depends on
 * the string), with more than BPRINT_LAYOUT_MAX_ARGS arguments, or not from the section
 * (trace_vbprintk() called with a format of its own). There vbin_printf() parses the format
 * into a per-CPU scratch buffer of words, and the words are copied into a record just big
 * enough. Any context may call it, the timer interrupt or an NMI included, and one call may
 * interrupt another on the same CPU. The scratch buffer must then not be shared between them,
 * and it is too big (1 KB) for an interrupt's stack: each CPU has TRACE_BUF_LEVELS of them,
 * and a call takes the next free level (nesting) for as long as it needs it. A call that
 * interrupted another finishes before the interrupted one goes on, so the levels are taken and
 * given back like a stack, and a plain counter is enough. The ring buffer nests the same way
 * (trace/ring_buffer.c): the interrupting record is placed after the interrupted one. Both
 * paths make the same bytes, so readers cannot tell them apart.
 *
 * A format with no arguments costs even less, a TRACE_BPUTS record with two addresses. Only a
 * format that is not a literal (it could change before the trace is read) is formatted at once
 * into a TRACE_PRINT record, as trace_marker's text is.
 *
 * The option trace_printk (options/trace_printk) turns all of this off: the calls return at
 * once. printk_formats lists every literal format in the kernel with its address.
 *
 * Not traced: trace_printk may be called from inside a tracer callback, where a traced
 * function would recurse into the tracer.
 */
#include "trace/trace_printk.h"
#include "trace/trace_printk_fmt.h"
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/mutex.h"
#include "kernel/fs/seq_file.h"
#include "lib/bprintf.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

#define TRACE_BUF_SIZE 1024 /* Linux's: the longest message, as text or as words */
#define TRACE_BUF_WORDS (TRACE_BUF_SIZE / sizeof(uint32_t))
#define TRACE_BUF_LEVELS 4 /* task, softirq, irq, NMI: how deeply calls can nest on a CPU */

struct trace_buffer_struct {
	int nesting; /* levels in use */
	union {
		char text[TRACE_BUF_SIZE];
		uint32_t words[TRACE_BUF_WORDS];
	} level[TRACE_BUF_LEVELS];
};

static struct trace_buffer_struct trace_percpu_buffer[NR_CPUS] __aligned(64);

/* Preemption disabled: the level belongs to this CPU until put_trace_buf(). */
static void *get_trace_buf(void)
{
	lockdep_assert_preemption_disabled();
	struct trace_buffer_struct *b = &trace_percpu_buffer[smp_processor_id()];

	if (b->nesting >= TRACE_BUF_LEVELS)
		return NULL;
	b->nesting++;
	barrier(); /* an interrupt from here on takes the next level */
	return &b->level[b->nesting - 1];
}

static void put_trace_buf(void)
{
	barrier(); /* done with the level before it is given back */
	trace_percpu_buffer[smp_processor_id()].nesting--;
}

static bool printk_enabled(void)
{
	return global_trace.buffer && (READ_ONCE(global_trace.trace_flags) & TRACE_ITER_PRINTK);
}

/* Preemption disabled. The record's data, or NULL if it cannot be recorded now. */
static void *printk_reserve(unsigned short type, unsigned long size, unsigned int trace_ctx)
{
	lockdep_assert_preemption_disabled();
	struct ring_buffer_event *event = ring_buffer_lock_reserve(global_trace.buffer, size);
	void *entry;

	if (!event)
		return NULL;
	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(entry, type, trace_ctx);
	return entry;
}

static void printk_commit(void)
{
	ring_buffer_unlock_commit(global_trace.buffer);
}

/* linker.ld: the pointers every trace_printk/trace_puts of a literal put in __trace_printk_fmt. */
extern const char *__start___trace_bprintk_fmt[], *__stop___trace_bprintk_fmt[];

/*
 * The layouts, by format address: open addressing in a fixed table, at most half full so that a
 * probe soon meets the format or an empty slot (NULL). Fixed, so that finding a slot is a
 * multiply and a shift, with no table pointer or size to load first; the keys apart from the
 * layouts, so that both are found by the one index. trace_printk_init() fills the table before
 * tracing_init() creates the buffer, and no call reads it before the buffer exists
 * (printk_enabled): no lock, and no ordering to get right.
 */
#define FMT_LAYOUT_BITS 9
#define FMT_LAYOUT_SLOTS (1UL << FMT_LAYOUT_BITS)
#define FMT_LAYOUT_MAX (FMT_LAYOUT_SLOTS / 2) /* formats beyond take the general path */
#define FMT_HASH_MULT 0x61c8864680b583ebUL /* Linux's GOLDEN_RATIO_64: mixes bits upward */

static const char *fmt_keys[FMT_LAYOUT_SLOTS];
static struct bprint_layout fmt_layouts[FMT_LAYOUT_SLOTS];

static __always_inline unsigned long fmt_hash(const char *fmt)
{
	return (unsigned long)fmt * FMT_HASH_MULT >> (64 - FMT_LAYOUT_BITS);
}

/* fmt's slot, or -1: a format the table does not know, or one without a layout. */
static __always_inline long fmt_layout_find(const char *fmt)
{
	for (unsigned long i = fmt_hash(fmt);; i = (i + 1) % FMT_LAYOUT_SLOTS) {
		if (likely(fmt_keys[i] == fmt))
			return (long)i;
		if (!fmt_keys[i])
			return -1;
	}
}

bool trace_bprintk_has_layout(const char *fmt)
{
	return fmt_layout_find(fmt) >= 0;
}

void trace_printk_init(void)
{
	unsigned long used = 0;

	for (const char **p = __start___trace_bprintk_fmt; p < __stop___trace_bprintk_fmt; p++) {
		struct bprint_layout layout;
		unsigned long i = fmt_hash(*p);

		if (!*p || !bprint_layout_parse(*p, &layout))
			continue; /* a variable format (NULL), or one with %s */
		while (fmt_keys[i] && fmt_keys[i] != *p)
			i = (i + 1) % FMT_LAYOUT_SLOTS;
		if (fmt_keys[i])
			continue; /* the same string twice: the linker merged two literals */
		if (used++ == FMT_LAYOUT_MAX)
			break;
		fmt_keys[i] = *p;
		fmt_layouts[i] = layout;
	}
}

/* The general path: vbin_printf into a scratch buffer, then a copy into the record. */
static noinline int trace_vbprintk_slow(unsigned long ip, const char *fmt, va_list args,
					unsigned int trace_ctx)
{
	struct bprint_entry *entry;
	uint32_t *words;
	int len = 0;

	preempt_disable();
	words = get_trace_buf();
	if (!words)
		goto out; /* nested deeper than any real context can be */
	len = vbin_printf(words, TRACE_BUF_WORDS, fmt, args);
	if (len < 0 || (size_t)len > TRACE_BUF_WORDS) {
		len = 0; /* the arguments do not fit: Linux drops the message too */
		goto out_put;
	}
	entry = printk_reserve(TRACE_BPRINT, sizeof(*entry) + sizeof(uint32_t) * (size_t)len,
			       trace_ctx);
	if (!entry) {
		len = 0;
		goto out_put;
	}
	entry->ip = ip;
	entry->fmt = fmt;
	memcpy(entry->buf, words, sizeof(uint32_t) * (size_t)len);
	printk_commit();
out_put:
	put_trace_buf();
out:
	preempt_enable();
	return len;
}

/*
 * The record path (see the top of the file); inline in both entry points. The record's
 * header is written last, with the context taken under our preempt_disable less that one
 * level (tracing_gen_ctx_dec): the same value tracing_gen_ctx() would have given before it,
 * without keeping it across the reserve.
 */
static __always_inline int bprintk(unsigned long ip, const char *fmt, va_list args)
{
	struct ring_buffer_event *event;
	struct bprint_layout layout;
	struct bprint_entry *entry;
	long slot;

	if (!printk_enabled())
		return 0;
	slot = fmt_layout_find(fmt);
	if (unlikely(slot < 0))
		return trace_vbprintk_slow(ip, fmt, args, tracing_gen_ctx());
	layout = fmt_layouts[slot];
	preempt_disable();
	event = ring_buffer_lock_reserve(global_trace.buffer,
					 sizeof(*entry) + sizeof(uint32_t) * layout.words);
	if (unlikely(!event)) {
		preempt_enable();
		return 0;
	}
	entry = ring_buffer_event_data(event);
	entry->ip = ip;
	entry->fmt = fmt;
	bprint_layout_save(entry->buf, &layout, args);
	tracing_entry_update(&entry->ent, TRACE_BPRINT, tracing_gen_ctx_dec_inline());
	ring_buffer_unlock_commit(global_trace.buffer);
	preempt_enable();
	return (int)layout.words;
}

int trace_vbprintk(unsigned long ip, const char *fmt, va_list args)
{
	return bprintk(ip, fmt, args);
}

/* No canary: the only local array is the va_list, which nothing writes through an index. */
__no_stack_protector int __trace_bprintk(unsigned long ip, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (unlikely(!fmt))
		return 0; /* a module's format that could not be kept (hold_module_...) */
	va_start(ap, fmt);
	ret = bprintk(ip, fmt, ap);
	va_end(ap);
	return ret;
}

/* A format that is not a literal: formatted now, the text saved (TRACE_PRINT). */
int trace_vprintk(unsigned long ip, const char *fmt, va_list args)
{
	unsigned int trace_ctx = tracing_gen_ctx();
	struct print_entry *entry;
	char *text;
	int len = 0;

	if (!printk_enabled())
		return 0;
	preempt_disable();
	text = get_trace_buf();
	if (!text)
		goto out;
	len = vscnprintf(text, TRACE_BUF_SIZE, fmt, args);
	entry = printk_reserve(TRACE_PRINT, sizeof(*entry) + (size_t)len + 1, trace_ctx);
	if (!entry) {
		len = 0;
		goto out_put;
	}
	entry->ip = ip;
	memcpy(entry->buf, text, (size_t)len + 1);
	printk_commit();
out_put:
	put_trace_buf();
out:
	preempt_enable();
	return len;
}

int __trace_printk(unsigned long ip, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = trace_vprintk(ip, fmt, ap);
	va_end(ap);
	return ret;
}

/* trace_puts("literal"): only the string's address. */
int __trace_bputs(unsigned long ip, const char *str)
{
	unsigned int trace_ctx = tracing_gen_ctx();
	struct bputs_entry *entry;
	int ret = 0;

	if (!printk_enabled() || unlikely(!str))
		return 0;
	preempt_disable();
	entry = printk_reserve(TRACE_BPUTS, sizeof(*entry), trace_ctx);
	if (entry) {
		entry->ip = ip;
		entry->str = str;
		printk_commit();
		ret = 1;
	}
	preempt_enable();
	return ret;
}

/* trace_puts(variable): the text copied, with a newline added if it has none (as Linux). */
int __trace_puts(unsigned long ip, const char *str, int size)
{
	unsigned int trace_ctx = tracing_gen_ctx();
	struct print_entry *entry;

	if (!printk_enabled() || size <= 0)
		return 0;
	if (size > TRACE_BUF_SIZE)
		size = TRACE_BUF_SIZE;
	preempt_disable();
	entry = printk_reserve(TRACE_PRINT, sizeof(*entry) + (size_t)size + 2, trace_ctx);
	if (entry) {
		entry->ip = ip;
		memcpy(entry->buf, str, (size_t)size);
		if (entry->buf[size - 1] != '\n')
			entry->buf[size++] = '\n';
		entry->buf[size] = '\0';
		printk_commit();
	} else {
		size = 0;
	}
	preempt_enable();
	return size;
}

/* --- modules' formats ------------------------------------------------------------------------ */

/*
 * A record keeps its format's address, and the trace is read long after: maybe after the module
 * that printed it was unloaded and its pages freed. So, as Linux does, the loader calls this
 * before a module's init runs, and each of the module's format pointers (its section
 * __trace_printk_fmt, which the trace_printk macro passes) is pointed at a copy the kernel
 * keeps for good: one per distinct string, shared by every module (and every load of one) that
 * prints it. A copy that cannot be made leaves the pointer NULL: that trace_printk records
 * nothing, as in Linux. The list is trace_bprintk_fmt_list, Linux's name.
 */
struct trace_bprintk_fmt {
	struct list_head list;
	const char *fmt;
};

static LIST_HEAD(trace_bprintk_fmt_list);
static DEFINE_MUTEX(btrace_mutex);

/* --- printk_formats ------------------------------------------------------------------------ */

/*
 * Records are positions: first in the kernel's section, then in the list of modules' formats
 * (below), as Linux lists them; a record is a pointer to the format's pointer. A NULL pointer (a
 * variable format) shows nothing. The list is walked under btrace_mutex, from start to stop.
 */
static void *fmt_start(struct seq_file *m, loff_t *pos)
{
	const char **p = __start___trace_bprintk_fmt + *pos;
	struct trace_bprintk_fmt *tb;
	loff_t i = *pos - (__stop___trace_bprintk_fmt - __start___trace_bprintk_fmt);

	(void)m;
	if (p < __stop___trace_bprintk_fmt)
		return (void *)p;
	list_for_each_entry(tb, &trace_bprintk_fmt_list, list)
		if (i-- == 0)
			return (void *)&tb->fmt;
	return NULL;
}

static void *fmt_start_locked(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&btrace_mutex);
	return fmt_start(m, pos);
}

static void *fmt_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return fmt_start(m, pos);
}

static void fmt_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	mutex_unlock(&btrace_mutex);
}

static int fmt_show(struct seq_file *m, void *v)
{
	const char *fmt = *(const char *const *)v;
	size_t len;
	char *line;

	if (!fmt)
		return SEQ_SKIP;
	len = trace_printk_fmt_line(NULL, 0, (unsigned long)fmt, fmt);
	line = kmalloc(len + 1);
	if (!line)
		return -ENOMEM;
	trace_printk_fmt_line(line, len + 1, (unsigned long)fmt, fmt);
	seq_puts(m, line);
	kfree(line);
	return 0;
}

static const struct seq_operations show_format_seq_ops = {
	.start = fmt_start_locked,
	.next = fmt_next,
	.stop = fmt_stop,
	.show = fmt_show,
};

static int printk_formats_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &show_format_seq_ops);
}

const struct file_operations ftrace_formats_fops = {
	.open = printk_formats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static struct trace_bprintk_fmt *lookup_format(const char *fmt)
{
	struct trace_bprintk_fmt *pos;

	list_for_each_entry(pos, &trace_bprintk_fmt_list, list)
		if (!strcmp(pos->fmt, fmt))
			return pos;
	return NULL;
}

void hold_module_trace_bprintk_format(const char **start, const char **end)
{
	mutex_lock(&btrace_mutex);
	for (const char **iter = start; iter < end; iter++) {
		struct trace_bprintk_fmt *tb;
		char *copy;

		if (!*iter)
			continue;
		tb = lookup_format(*iter);
		if (!tb) {
			tb = kmalloc(sizeof(*tb));
			copy = kstrdup(*iter);
			if (!tb || !copy) {
				kfree(tb);
				kfree(copy);
				*iter = NULL;
				continue;
			}
			tb->fmt = copy;
			list_add_tail(&tb->list, &trace_bprintk_fmt_list);
		}
		*iter = tb->fmt;
	}
	mutex_unlock(&btrace_mutex);
}

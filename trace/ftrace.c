/*
 * Dynamic ftrace: the table of call sites, and turning them on and off.
 *
 * At build time, gcc -pg -mfentry -mrecord-mcount puts "call __fentry__" at the start of every
 * traceable function and lists the address of each such call in the section __mcount_loc
 * (linker.ld gathers them between __start_mcount_loc and __stop_mcount_loc).
 *
 * At boot, ftrace_init() copies that list into a table of records sorted by address, checks
 * each site really is "call __fentry__", and overwrites it with a 5-byte NOP. From then on an
 * untraced function pays for one NOP, nothing more.
 *
 * A tracer registers a struct ftrace_ops. For every record we count the registered ops that want
 * the function (their filter includes it, or is empty; their notrace set does not include it).
 * A record with a count above zero must be a call to ftrace_caller, the others NOPs; whenever
 * the ops or their filters change, ftrace_update_sites() patches exactly the sites whose state
 * differs, all in one batch of text_poke_bp (arch/x86_64/text_poke.c).
 *
 * ftrace_caller calls ftrace_trace_function: with one ops registered, that ops's callback
 * directly (its sites are exactly the ones it wants); with several, ftrace_ops_list_func, which
 * asks each ops whether it wants this ip, newest first, function probes last.
 *
 * Not traced: this is the tracer.
 */
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "kernel/kallsyms.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/mutex.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/sched/time.h"
#include "lib/errno.h"
#include "lib/ctype.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "lib/bitops.h"
#include "lib/bsearch.h"
#include "lib/sort.h"
#include "lib/string.h"
#include "kernel/sched/lockdep.h"

#define REC_REF_MASK 0xffffu        /* how many ops want the function */
#define REC_ENABLED (1u << 31)      /* the site is a call to ftrace_caller now */
#define REC_FAILED (1u << 30)       /* the site held unexpected bytes: never touch it */

struct dyn_ftrace {
	unsigned long ip;
	const char *name;
	uint32_t flags;
};

extern const unsigned long __start_mcount_loc[], __stop_mcount_loc[];

static struct dyn_ftrace *records;
static int nr_records;
static unsigned long record_pages;
static struct ftrace_ops *ftrace_ops_list;
static DEFINE_MUTEX(ftrace_lock); /* the ops list, the filters and the sites */
uint64_t ftrace_init_tsc;
unsigned long ftrace_update_count;

static void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
				 struct ftrace_regs *fregs);

/* Read by ftrace_caller on every traced call (arch/x86_64/ftrace_64.S). */
ftrace_func_t ftrace_trace_function = (ftrace_func_t)ftrace_stub;
struct ftrace_ops *function_trace_op;

/* --- the record table --------------------------------------------------------------------- */

int ftrace_nr_records(void)
{
	return nr_records;
}

unsigned long ftrace_rec_ip(int rec)
{
	return records[rec].ip;
}

const char *ftrace_rec_name(int rec)
{
	return records[rec].name;
}

int ftrace_rec_refcount(int rec)
{
	return (int)(records[rec].flags & REC_REF_MASK);
}

bool ftrace_rec_enabled(int rec)
{
	return records[rec].flags & REC_ENABLED;
}

unsigned long ftrace_nr_pages(void)
{
	return record_pages;
}

/* Where ip lies against a record: the table is sorted by address (sort_records). */
static int rec_ip_cmp(const void *key, const void *elt)
{
	unsigned long ip = *(const unsigned long *)key;
	unsigned long rec_ip = ((const struct dyn_ftrace *)elt)->ip;

	if (ip < rec_ip)
		return -1;
	return ip > rec_ip; /* branches, not arithmetic: inlined, they merge with bsearch's */
}

int ftrace_find_rec(unsigned long ip)
{
	const struct dyn_ftrace *r =
		__inline_bsearch(&ip, records, (size_t)nr_records, sizeof(*records), rec_ip_cmp);

	return r ? (int)(r - records) : -1;
}

static int rec_sort_cmp(const void *a, const void *b)
{
	return rec_ip_cmp(&((const struct dyn_ftrace *)a)->ip, b);
}

/*
 * Once at boot: the sites in address order, so that ftrace_find_rec can search them. The linker
 * lays __mcount_loc out in link order, which is address order, so the table is normally sorted
 * already: a look costs one pass, and sort() runs only if some object broke the order.
 */
static void sort_records(void)
{
	for (int i = 1; i < nr_records; i++) {
		if (records[i - 1].ip > records[i].ip) {
			sort(records, (size_t)nr_records, sizeof(*records), rec_sort_cmp);
			return;
		}
	}
}

void ftrace_init(void)
{
	uint64_t start = rdtsc();
	long count = __stop_mcount_loc - __start_mcount_loc;
	if (count <= 0) {
		printk(KERN_INFO "ftrace: no call sites (kernel built with FTRACE=0)\n");
		return;
	}
	record_pages = ALIGN_UP(count * sizeof(struct dyn_ftrace), PAGE_SIZE) / PAGE_SIZE;
	records = alloc_pages(record_pages);
	if (!records) {
		printk(KERN_ERR "ftrace: no memory for %ld records: tracing disabled\n", count);
		return;
	}
	printk(KERN_INFO "ftrace: allocating %ld entries in %lu pages\n", count, record_pages);
	printk(KERN_INFO "ftrace: converting mcount calls to %02x %02x %02x %02x %02x\n",
	       ftrace_nop_insn[0], ftrace_nop_insn[1], ftrace_nop_insn[2], ftrace_nop_insn[3],
	       ftrace_nop_insn[4]);
	text_poke_set_site_insn(ftrace_is_site_insn);

	int bad = 0;
	for (long i = 0; i < count; i++) {
		unsigned long ip = __start_mcount_loc[i];
		unsigned long symstart;
		const char *name;
		/* A site must be the first instruction of a known function, holding the call. */
		if (!kallsyms_lookup(ip, &name, &symstart, NULL) || symstart != ip ||
		    ftrace_make_nop_early(ip)) {
			printk(KERN_ERR "ftrace: site %lx (%pS) is not a call to __fentry__: left alone\n",
			       ip, (void *)ip);
			bad++;
			continue;
		}
		records[nr_records++] = (struct dyn_ftrace){.ip = ip, .name = name};
	}
	sort_records();
	text_poke_sync();
	ftrace_init_tsc = rdtsc() - start;
	printk(KERN_INFO "ftrace: %d call sites converted to NOPs in %lu us%s\n", nr_records,
	       (unsigned long)(ftrace_init_tsc * 1000 / (tsc_khz ? tsc_khz : 1)),
	       bad ? " (some sites refused)" : "");
}

/* --- which functions each ops wants --------------------------------------------------------- */

bool ftrace_hash_contains(const struct ftrace_hash *hash, int rec)
{
	return hash->bits && test_bit((unsigned long)rec, hash->bits);
}

/*
 * For callbacks, which may run while a filter file replaces the set: the bits are read with
 * interrupts off, and ftrace_hash_edit_commit() frees the old bits only after every CPU has
 * taken an interrupt (sync_hash_readers), so a reader never reads freed memory.
 */
bool ftrace_lookup_ip(const struct ftrace_hash *hash, unsigned long ip)
{
	unsigned long flags = local_irq_save();
	unsigned long *bits = READ_ONCE(hash->bits);
	int rec = bits ? ftrace_find_rec(ip) : -1;
	bool found = rec >= 0 && test_bit((unsigned long)rec, bits);

	local_irq_restore(flags);
	return found;
}

static void sync_hash_reader(void *info)
{
	(void)info;
}

/* Every CPU took an interrupt since: none is still inside ftrace_lookup_ip() on old bits. */
static void sync_hash_readers(void)
{
	smp_call_function(sync_hash_reader, NULL);
}

static size_t hash_bytes(void)
{
	return BITS_TO_LONGS((size_t)nr_records) * sizeof(unsigned long);
}

static bool ops_wants(const struct ftrace_ops *ops, int rec)
{
	if (ops->filter_hash.count && !ftrace_hash_contains(&ops->filter_hash, rec))
		return false;
	return !ftrace_hash_contains(&ops->notrace_hash, rec);
}

/*
 * Recount every record and patch the sites whose state must change, in batches of
 * FTRACE_POKE_BATCH: each batch costs the three syncs of the int3 protocol whatever its size,
 * and a fixed array (under ftrace_lock) means patching never fails for want of memory, so a
 * tracer that was registered is always fully patched in. (Linux's text_poke queue has a fixed
 * size for the same reasons.) Sites that hold unexpected bytes are reported and left alone
 * (never patch blindly).
 */
#define FTRACE_POKE_BATCH 256
static struct text_poke_loc poke_batch[FTRACE_POKE_BATCH]; /* under ftrace_lock */

static void ftrace_update_sites(void)
{
	lockdep_assert_held(&ftrace_lock); /* poke_batch is shared */
	int n = 0;

	for (int i = 0; i < nr_records; i++) {
		struct dyn_ftrace *r = &records[i];
		int ref = 0;

		for (struct ftrace_ops *ops = ftrace_ops_list; ops; ops = ops->next)
			ref += ops_wants(ops, i);
		r->flags = (r->flags & ~REC_REF_MASK) | (uint32_t)ref;
		bool want = ref > 0, is = r->flags & REC_ENABLED;
		if (want == is || (r->flags & REC_FAILED))
			continue;
		if (ftrace_check_site(r->ip, is)) {
			printk(KERN_ERR "ftrace: %s: unexpected bytes at %lx: left alone\n", r->name,
			       r->ip);
			r->flags |= REC_FAILED;
			continue;
		}
		poke_batch[n].addr = r->ip;
		ftrace_new_insn(r->ip, want, poke_batch[n].new_insn);
		r->flags ^= REC_ENABLED;
		if (++n == FTRACE_POKE_BATCH) {
			text_poke_bp_batch(poke_batch, n); /* records are sorted, so the batch is */
			ftrace_update_count += n;
			n = 0;
		}
	}
	text_poke_bp_batch(poke_batch, n);
	ftrace_update_count += n;
}

/* Which callback ftrace_caller calls: one ops directly, several through the list. */
static void update_trace_function(void)
{
	struct ftrace_ops *only = ftrace_ops_list;
	if (!only) {
		function_trace_op = NULL;
		WRITE_ONCE(ftrace_trace_function, (ftrace_func_t)ftrace_stub);
	} else if (!only->next) {
		function_trace_op = only;
		WRITE_ONCE(ftrace_trace_function, only->func);
	} else {
		function_trace_op = NULL;
		WRITE_ONCE(ftrace_trace_function, ftrace_ops_list_func);
	}
	text_poke_sync(); /* every CPU sees the new pointer before sites change */
}

int register_ftrace_function(struct ftrace_ops *ops)
{
	if (!records)
		return -ENODEV;
	mutex_lock(&ftrace_lock);
	if (ops->enabled) {
		mutex_unlock(&ftrace_lock);
		return -EBUSY;
	}
	if (ops->flags & FTRACE_OPS_FL_PROBE) {
		/* At the end of the list, after the tracers (ftrace.h). Published complete. */
		struct ftrace_ops **pp = &ftrace_ops_list;
		while (*pp)
			pp = &(*pp)->next;
		ops->next = NULL;
		__atomic_store_n(pp, ops, __ATOMIC_RELEASE);
	} else {
		ops->next = ftrace_ops_list;
		__atomic_store_n(&ftrace_ops_list, ops, __ATOMIC_RELEASE);
	}
	ops->enabled = true;
	update_trace_function(); /* before any new site calls it */
	ftrace_update_sites();
	mutex_unlock(&ftrace_lock);
	return 0;
}

int unregister_ftrace_function(struct ftrace_ops *ops)
{
	mutex_lock(&ftrace_lock);
	struct ftrace_ops **pp = &ftrace_ops_list;
	while (*pp && *pp != ops)
		pp = &(*pp)->next;
	if (!*pp) {
		mutex_unlock(&ftrace_lock);
		return -EINVAL;
	}
	*pp = ops->next;
	ops->enabled = false;
	ftrace_update_sites(); /* its sites stop calling first */
	update_trace_function();
	mutex_unlock(&ftrace_lock);
	return 0;
}

static void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *unused, struct ftrace_regs *fregs)
{
	(void)unused;
	int rec = ftrace_find_rec(ip);
	if (rec < 0)
		return;
	for (struct ftrace_ops *ops = READ_ONCE(ftrace_ops_list); ops; ops = READ_ONCE(ops->next)) {
		/*
		 * A filter write may replace the sets meanwhile: read them with interrupts off, as
		 * ftrace_lookup_ip() does, so the old bits are not freed under us. The callback
		 * itself runs with the traced function's interrupt state (its "d" column).
		 */
		unsigned long flags = local_irq_save();
		bool wants = ops_wants(ops, rec);

		local_irq_restore(flags);
		if (wants)
			ops->func(ip, parent_ip, ops, fregs);
	}
}

/* --- filters ------------------------------------------------------------------------------- */

/*
 * What a word (its '!' taken off) selects, as Linux's match_records: a word that begins with a
 * digit is an index (filter_parse_regex's MATCH_INDEX), the line of available_filter_functions
 * counted from 1 and read leniently, so "12abc" is line 12; it selects that one site even where
 * two static functions share a name. Anything else is a glob over the names. The line is read
 * once per word, not once per record.
 */
struct selector {
	const char *glob; /* NULL: by line */
	unsigned long line;
};

static struct selector selector(const char *pattern)
{
	if (isdigit(pattern[0]))
		return (struct selector){NULL, simple_strtoul(pattern, NULL, 0)};
	return (struct selector){pattern, 0};
}

static bool selects(const struct selector *sel, int i)
{
	if (!sel->glob)
		return sel->line == (unsigned long)i + 1;
	return *sel->glob && glob_match(sel->glob, records[i].name);
}

int ftrace_hash_edit_begin(struct ftrace_hash_edit *edit, struct ftrace_ops *ops, bool is_notrace,
			   bool reset)
{
	struct ftrace_hash *hash = is_notrace ? &ops->notrace_hash : &ops->filter_hash;

	if (!records)
		return -ENODEV;
	edit->ops = ops;
	edit->hash = hash;
	edit->bits = kzalloc(hash_bytes());
	if (!edit->bits)
		return -ENOMEM;
	if (!reset && hash->bits)
		memcpy(edit->bits, hash->bits, hash_bytes());
	return 0;
}

int ftrace_hash_edit_word(struct ftrace_hash_edit *edit, const char *pattern)
{
	bool remove = pattern[0] == '!';
	bool graph = edit->ops->flags & FTRACE_OPS_FL_GRAPH_SET;
	struct selector sel = selector(pattern + remove);
	unsigned long *bits = edit->bits;
	int matched = 0, removed = 0;

	if (graph && !sel.glob)
		return -EINVAL; /* ftrace_graph_set_hash knows no MATCH_INDEX */
	for (int i = 0; i < nr_records; i++) {
		if (!selects(&sel, i))
			continue;
		matched++;
		if (remove) /* the edit's own copy: no one else reads it yet */
			removed += __test_and_clear_bit((unsigned long)i, bits);
		else
			__set_bit((unsigned long)i, bits);
	}
	/* Linux: a word that selects no function is -EINVAL (the graph sets: removes none). */
	if (!matched || (remove && !removed && graph))
		return -EINVAL;
	return 0;
}

/* Puts bits (NULL: the empty set) in place, patches the sites, frees the old bits. */
static void hash_install(struct ftrace_ops *ops, struct ftrace_hash *hash, unsigned long *bits,
			 unsigned long count)
{
	unsigned long *old;

	mutex_lock(&ftrace_lock);
	old = hash->bits;
	WRITE_ONCE(hash->bits, bits);
	hash->count = count;
	if (ops->enabled)
		ftrace_update_sites();
	mutex_unlock(&ftrace_lock);
	if (old)
		sync_hash_readers();
	kfree(old);
}

void ftrace_hash_edit_commit(struct ftrace_hash_edit *edit)
{
	unsigned long count = bitmap_weight(edit->bits, (unsigned long)nr_records);

	hash_install(edit->ops, edit->hash, edit->bits, count);
	edit->bits = NULL;
}

void ftrace_hash_edit_abort(struct ftrace_hash_edit *edit)
{
	kfree(edit->bits);
	edit->bits = NULL;
}

static int set_hash(struct ftrace_ops *ops, bool is_notrace, const char *pattern, bool reset)
{
	struct ftrace_hash_edit edit;
	int ret = ftrace_hash_edit_begin(&edit, ops, is_notrace, reset);

	if (!ret && *pattern)
		ret = ftrace_hash_edit_word(&edit, pattern);
	if (ret) {
		ftrace_hash_edit_abort(&edit);
		return ret;
	}
	ftrace_hash_edit_commit(&edit);
	return 0;
}

int ftrace_set_filter(struct ftrace_ops *ops, const char *pattern, bool reset)
{
	return set_hash(ops, false, pattern, reset);
}

int ftrace_set_notrace(struct ftrace_ops *ops, const char *pattern, bool reset)
{
	return set_hash(ops, true, pattern, reset);
}

void ftrace_reset_filters(struct ftrace_ops *ops)
{
	/* No copy to make: emptying a set cannot fail for want of memory. */
	hash_install(ops, &ops->filter_hash, NULL, 0);
	hash_install(ops, &ops->notrace_hash, NULL, 0);
}


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
 * differs, all in one batch of text_poke_bp (arch/x86_64/text_poke.c). A record that an ops with
 * FTRACE_OPS_FL_SAVE_REGS wants calls ftrace_regs_caller instead (Linux's FTRACE_FL_REGS): the
 * same callbacks, with a whole struct pt_regs saved first; the others never pay for it.
 *
 * ftrace_caller calls ftrace_trace_function: with one ops registered, that ops's callback
 * directly (its sites are exactly the ones it wants); with several, ftrace_ops_list_func, which
 * asks each ops whether it wants this ip, newest first, function probes last.
 *
 * Modules bring call sites that come and go (Linux's ftrace_module_init, ftrace_module_enable,
 * ftrace_release_mod; docs/design/modules-ftrace.md). The kernel's records are one array
 * fixed at boot; each module's are a group of their own (Linux's ftrace_page), holding a range
 * of record numbers in a space of FTRACE_MODULE_SITES reserved after the kernel's. Every set (a
 * bitmap by record number) is sized for that whole space, so a module coming never resizes a set
 * a callback may be reading. A group is published complete, and freed only after every CPU took
 * an interrupt: the readers that may run while it goes (ftrace_find_rec, from a callback) look
 * with interrupts off; the files take ftrace_lock.
 *
 * Not traced: this is the tracer.
 */
#include "kernel/kprobes.h"
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "kernel/kallsyms.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "lib/errno.h"
#include "lib/ctype.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "lib/bitops.h"
#include "lib/bsearch.h"
#include "lib/sort.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "kernel/locking/lockdep.h"

#define REC_REF_MASK 0xffffu        /* how many ops want the function */
#define REC_ENABLED (1u << 31)      /* the site is a call now (to ftrace_caller, or see REC_REGS) */
#define REC_FAILED (1u << 30)       /* the site held unexpected bytes: never touch it */
#define REC_DISABLED (1u << 29)     /* a module's, before ftrace_module_enable: stays a NOP */
#define REC_REGS (1u << 28)         /* with REC_ENABLED: the call is to ftrace_regs_caller */

struct dyn_ftrace {
	unsigned long ip;
	const char *name;
	uint32_t flags;
};

/*
 * A module's call sites: records start .. start + count - 1, sorted by address, and their names
 * (copied: the module's symbol table goes with it). On mod_groups, sorted by start.
 */
struct ftrace_mod_group {
	struct ftrace_mod_group *next;
	char modname[FTRACE_MODNAME_LEN];
	int start, count;
	unsigned long lo, hi; /* the first and last site's address */
	struct dyn_ftrace recs[];
};

extern const unsigned long __start_mcount_loc[], __stop_mcount_loc[];

static struct dyn_ftrace *records; /* the kernel's, sorted by address */
static int nr_kernel;              /* how many: records[0 .. nr_kernel - 1] */
static int nr_records;             /* live records, the kernel's and the modules' */
static struct ftrace_mod_group *mod_groups;
static unsigned long record_pages;
static struct ftrace_ops *ftrace_ops_list;
static DEFINE_MUTEX(ftrace_lock); /* the ops list, the filters and the sites */
static bool ftrace_on = true; /* /proc/sys/kernel/ftrace_enabled, under ftrace_lock */
uint64_t ftrace_init_tsc;
unsigned long ftrace_update_count;

static void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
				 struct ftrace_regs *fregs);

/* Read by ftrace_caller on every traced call (arch/x86_64/ftrace_64.S). */
ftrace_func_t ftrace_trace_function = (ftrace_func_t)ftrace_stub;
struct ftrace_ops *function_trace_op;

/* --- the record table --------------------------------------------------------------------- */

/* The record numbered i, or NULL if no live record has that number (a gap between modules). */
static struct dyn_ftrace *rec_at(int i, struct ftrace_mod_group **group)
{
	if (i < nr_kernel) {
		*group = NULL;
		return i >= 0 ? &records[i] : NULL;
	}
	for (struct ftrace_mod_group *g = mod_groups; g && g->start <= i; g = g->next) {
		if (i < g->start + g->count) {
			*group = g;
			return &g->recs[i - g->start];
		}
	}
	return NULL;
}

/*
 * The first live record numbered i or after (i moves to it), in number order: the kernel's
 * first, then each module's. NULL at the end.
 */
static struct dyn_ftrace *next_rec(int *i, struct ftrace_mod_group **group)
{
	if (*i < nr_kernel) {
		*group = NULL;
		return &records[*i];
	}
	for (struct ftrace_mod_group *g = mod_groups; g; g = g->next) {
		if (*i < g->start + g->count) {
			if (*i < g->start)
				*i = g->start;
			*group = g;
			return &g->recs[*i - g->start];
		}
	}
	return NULL;
}

#define for_each_rec(i, r, g) for (i = 0; (r = next_rec(&i, &g)); i++)

int ftrace_nr_records(void)
{
	return records ? nr_kernel + FTRACE_MODULE_SITES : 0;
}

int ftrace_nr_live_records(void)
{
	return nr_records;
}

unsigned long ftrace_rec_ip(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r ? r->ip : 0;
}

const char *ftrace_rec_name(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r ? r->name : NULL;
}

const char *ftrace_rec_modname(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r && g ? g->modname : NULL;
}

int ftrace_rec_refcount(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r ? (int)(r->flags & REC_REF_MASK) : 0;
}

bool ftrace_rec_enabled(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r && (r->flags & REC_ENABLED);
}

bool ftrace_rec_regs(int rec)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r = rec_at(rec, &g);

	return r && (r->flags & REC_REGS);
}

/* Where the site calls now (FTRACE_ADDR or FTRACE_REGS_ADDR), 0 for the NOP. */
static unsigned long rec_addr(uint32_t flags)
{
	if (!(flags & REC_ENABLED))
		return 0;
	return flags & REC_REGS ? FTRACE_REGS_ADDR : FTRACE_ADDR;
}

void ftrace_records_lock(void)
{
	mutex_lock(&ftrace_lock);
}

void ftrace_records_unlock(void)
{
	mutex_unlock(&ftrace_lock);
}

unsigned long ftrace_nr_pages(void)
{
	return record_pages;
}

int ftrace_nr_groups(void)
{
	int n = records ? 1 : 0;

	for (struct ftrace_mod_group *g = mod_groups; g; g = g->next)
		n++;
	return n;
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
		__inline_bsearch(&ip, records, (size_t)nr_kernel, sizeof(*records), rec_ip_cmp);

	if (r)
		return (int)(r - records);
	if (!READ_ONCE(mod_groups))
		return -1;
	/* A module's: its group is not freed while interrupts are off here (ftrace_release_mod). */
	unsigned long flags = raw_local_irq_save(); /* the tracer's own: no irqsoff hook */
	int found = -1;

	for (struct ftrace_mod_group *g = READ_ONCE(mod_groups); g; g = READ_ONCE(g->next)) {
		if (ip < g->lo || ip > g->hi)
			continue;
		r = __inline_bsearch(&ip, g->recs, (size_t)g->count, sizeof(*r), rec_ip_cmp);
		if (r)
			found = g->start + (int)(r - g->recs);
		break;
	}
	raw_local_irq_restore(flags);
	return found;
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
static void sort_records(struct dyn_ftrace *recs, int n)
{
	for (int i = 1; i < n; i++) {
		if (recs[i - 1].ip > recs[i].ip) {
			sort(recs, (size_t)n, sizeof(*recs), rec_sort_cmp);
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
			printk(KERN_ERR
			       "ftrace: site %lx (%pS) is not a call to __fentry__: left alone\n",
			       ip, (void *)ip);
			bad++;
			continue;
		}
		records[nr_records++] = (struct dyn_ftrace){.ip = ip, .name = name};
	}
	sort_records(records, nr_records);
	nr_kernel = nr_records;
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
	unsigned long flags = raw_local_irq_save(); /* the tracer's own: no irqsoff hook */
	unsigned long *bits = READ_ONCE(hash->bits);
	int rec = bits ? ftrace_find_rec(ip) : -1;
	bool found = rec >= 0 && test_bit((unsigned long)rec, bits);

	raw_local_irq_restore(flags);
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

/* Every set covers the kernel's records and the space reserved for modules'. */
static size_t hash_bytes(void)
{
	return BITS_TO_LONGS((size_t)ftrace_nr_records()) * sizeof(unsigned long);
}

static bool ops_wants_own(const struct ftrace_ops *ops, int rec)
{
	if (ops->filter_hash.count && !ftrace_hash_contains(&ops->filter_hash, rec))
		return false;
	return !ftrace_hash_contains(&ops->notrace_hash, rec);
}

/* A manager wants what any of its subops wants (a subops is never a manager itself). */
static bool ops_wants(const struct ftrace_ops *ops, int rec)
{
	if (!(ops->flags & FTRACE_OPS_FL_SUBOPS))
		return ops_wants_own(ops, rec);
	for (struct ftrace_ops *sub = READ_ONCE(ops->subop_list); sub;
	     sub = READ_ONCE(sub->subop_next))
		if (ops_wants_own(sub, rec))
			return true;
	return false;
}

bool ftrace_ops_test(const struct ftrace_ops *ops, unsigned long ip)
{
	unsigned long flags = local_irq_save(); /* as ftrace_lookup_ip: the bits stay */
	int rec = ftrace_find_rec(ip);
	bool wants = rec >= 0 && ops_wants(ops, rec);

	local_irq_restore(flags);
	return wants;
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

	struct ftrace_mod_group *g;
	struct dyn_ftrace *r;
	int i;

	for_each_rec(i, r, g) {
		uint32_t want = 0; /* REC_ENABLED and REC_REGS as they must be */
		int ref = 0;

		if (r->flags & REC_DISABLED)
			continue; /* a module's, whose sites are not yet anyone's to enable */
		for (struct ftrace_ops *ops = ftrace_ops_list; ops; ops = ops->next) {
			if (!ops_wants(ops, i))
				continue;
			ref++;
			if (ops->flags & FTRACE_OPS_FL_SAVE_REGS)
				want |= REC_REGS;
		}
		r->flags = (r->flags & ~REC_REF_MASK) | (uint32_t)ref;
		want = ref > 0 && ftrace_on ? want | REC_ENABLED : 0;
		uint32_t is = r->flags & (REC_ENABLED | REC_REGS);
		if (want == is || (r->flags & REC_FAILED))
			continue;
		/* Off to on, on to off, or one trampoline for the other: one 5-byte change. */
		if (ftrace_check_site(r->ip, rec_addr(is))) {
			printk(KERN_ERR "ftrace: %s: unexpected bytes at %lx: left alone\n",
			       r->name, r->ip);
			r->flags |= REC_FAILED;
			continue;
		}
		poke_batch[n].addr = r->ip;
		ftrace_new_insn(r->ip, rec_addr(want), poke_batch[n].new_insn);
		r->flags ^= is ^ want;
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
	struct ftrace_ops *only = ftrace_on ? ftrace_ops_list : NULL;
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

static int __register_ftrace_function(struct ftrace_ops *ops)
{
	lockdep_assert_held(&ftrace_lock);
	if (ops->enabled)
		return -EBUSY;
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
	return 0;
}

static int __unregister_ftrace_function(struct ftrace_ops *ops)
{
	lockdep_assert_held(&ftrace_lock);
	struct ftrace_ops **pp = &ftrace_ops_list;
	while (*pp && *pp != ops)
		pp = &(*pp)->next;
	if (!*pp)
		return -EINVAL;
	*pp = ops->next;
	ops->enabled = false;
	ftrace_update_sites(); /* its sites stop calling first */
	update_trace_function();
	return 0;
}

int register_ftrace_function(struct ftrace_ops *ops)
{
	if (!records)
		return -ENODEV;
	mutex_lock(&ftrace_lock);
	int ret = __register_ftrace_function(ops);
	mutex_unlock(&ftrace_lock);
	return ret;
}

int unregister_ftrace_function(struct ftrace_ops *ops)
{
	mutex_lock(&ftrace_lock);
	int ret = __unregister_ftrace_function(ops);
	mutex_unlock(&ftrace_lock);
	return ret;
}

int ftrace_startup_subops(struct ftrace_ops *manager, struct ftrace_ops *subops)
{
	int ret = 0;

	if (!records)
		return -ENODEV;
	if (!(manager->flags & FTRACE_OPS_FL_SUBOPS) || (subops->flags & FTRACE_OPS_FL_SUBOPS))
		return -EINVAL;
	mutex_lock(&ftrace_lock);
	if (subops->enabled) {
		mutex_unlock(&ftrace_lock);
		return -EBUSY;
	}
	/* enabled: a write to its filter updates the sites (hash_install). Published complete. */
	subops->enabled = true;
	subops->subop_next = manager->subop_list;
	__atomic_store_n(&manager->subop_list, subops, __ATOMIC_RELEASE);
	if (manager->enabled)
		ftrace_update_sites();
	else
		ret = __register_ftrace_function(manager);
	if (ret) {
		manager->subop_list = subops->subop_next;
		subops->enabled = false;
	}
	mutex_unlock(&ftrace_lock);
	return ret;
}

int ftrace_shutdown_subops(struct ftrace_ops *manager, struct ftrace_ops *subops)
{
	mutex_lock(&ftrace_lock);
	struct ftrace_ops **pp = &manager->subop_list;
	while (*pp && *pp != subops)
		pp = &(*pp)->subop_next;
	if (!*pp) {
		mutex_unlock(&ftrace_lock);
		return -EINVAL;
	}
	WRITE_ONCE(*pp, subops->subop_next);
	subops->enabled = false;
	if (manager->subop_list)
		ftrace_update_sites();
	else
		__unregister_ftrace_function(manager);
	mutex_unlock(&ftrace_lock);
	/* ops_wants() walks the list with interrupts off: none is still on subops after this. */
	sync_hash_readers();
	return 0;
}

/*
 * /proc/sys/kernel/ftrace_enabled (Linux's ftrace_enable_sysctl): off, every call site is a NOP
 * again and ftrace_caller calls the stub, whatever ops are registered; they stay registered
 * (their filters and counts too), and on brings their sites back. trace-cmd turns it on before
 * it records a function tracer.
 */
void ftrace_set_enabled(bool on)
{
	mutex_lock(&ftrace_lock);
	if (on != ftrace_on) {
		ftrace_on = on;
		if (on) {
			update_trace_function(); /* before any site calls it */
			ftrace_update_sites();
		} else {
			ftrace_update_sites(); /* the sites stop calling first */
			update_trace_function();
		}
	}
	mutex_unlock(&ftrace_lock);
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
		unsigned long flags = raw_local_irq_save();
		bool wants = ops_wants(ops, rec);

		raw_local_irq_restore(flags);
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

/* ":mod:" words kept until their module loads (Linux's ftrace_mod_load), for ops's set. */
struct mod_cache {
	struct mod_cache *next;
	struct ftrace_ops *ops;
	bool is_notrace;
	char func[FTRACE_MOD_FUNC_LEN];
	char module[FTRACE_MODNAME_LEN];
};
static struct mod_cache *mod_cache; /* under ftrace_lock; in the order written */

static struct selector selector(const char *pattern)
{
	if (isdigit(pattern[0]))
		return (struct selector){NULL, simple_strtoul(pattern, NULL, 0)};
	return (struct selector){pattern, 0};
}

/* line: r's line in available_filter_functions; modname: r's module, NULL for the kernel's. */
static bool selects(const struct selector *sel, const struct dyn_ftrace *r, unsigned long line)
{
	if (!sel->glob)
		return sel->line == line;
	return *sel->glob && glob_match(sel->glob, r->name);
}

int ftrace_hash_edit_begin(struct ftrace_hash_edit *edit, struct ftrace_ops *ops, bool is_notrace,
			   bool reset)
{
	struct ftrace_hash *hash = is_notrace ? &ops->notrace_hash : &ops->filter_hash;

	if (!records)
		return -ENODEV;
	edit->ops = ops;
	edit->hash = hash;
	edit->reset = reset;
	edit->mods = NULL;
	edit->bits = kzalloc(hash_bytes());
	if (!edit->bits)
		return -ENOMEM;
	if (!reset && hash->bits)
		memcpy(edit->bits, hash->bits, hash_bytes());
	return 0;
}

/*
 * Marks what sel selects in bits (or clears it: remove); modname, when not NULL, limits it to
 * that module's functions. How many it selected, and in *removed how many it cleared.
 */
static int select_records(unsigned long *bits, const struct selector *sel, const char *modname,
			  bool remove, int *removed)
{
	struct ftrace_mod_group *g;
	struct dyn_ftrace *r;
	unsigned long line = 0;
	int i, matched = 0;

	lockdep_assert_held(&ftrace_lock); /* a module's names go with it */
	for_each_rec(i, r, g) {
		line++;
		if (modname && (!g || strcmp(g->modname, modname)))
			continue;
		if (!selects(sel, r, line))
			continue;
		matched++;
		if (remove) /* the edit's own copy: no one else reads it yet */
			*removed += __test_and_clear_bit((unsigned long)i, bits);
		else
			__set_bit((unsigned long)i, bits);
	}
	return matched;
}

/* Is a module of that name's code in the tables? */
static bool module_loaded(const char *modname)
{
	for (struct ftrace_mod_group *g = mod_groups; g; g = g->next)
		if (!strcmp(g->modname, modname))
			return true;
	return false;
}

static struct ftrace_mod_load *mod_load_new(const struct ftrace_mod_spec *spec, bool remove)
{
	struct ftrace_mod_load *ml = kzalloc(sizeof(*ml));

	if (ml) {
		strlcpy(ml->func, spec->func, sizeof(ml->func));
		strlcpy(ml->module, spec->module, sizeof(ml->module));
		ml->remove = remove;
	}
	return ml;
}

/*
 * "glob:mod:name" (Linux's ftrace_mod_callback): the module's functions the glob selects, if it
 * is loaded and has some; if it is not loaded, the word is kept (cache_mod), to be applied when
 * it loads (process_cached_mods), and set_ftrace_filter lists it meanwhile. "!glob:mod:name"
 * takes the module's functions out, or forgets kept words for it ("!*" all of them). The kept
 * words change only at commit, with the set.
 */
static int edit_mod_word(struct ftrace_hash_edit *edit, struct ftrace_mod_spec *spec, bool remove)
{
	struct selector sel = selector(spec->func);
	int removed = 0, matched;

	if (!spec->func[0]) /* ":mod:foo": Linux's blank glob, every function of the module */
		strcpy(spec->func, "*");
	if (!sel.glob || !*sel.glob) /* "12:mod:foo": a number here is read as a name */
		sel = (struct selector){spec->func, 0};
	mutex_lock(&ftrace_lock);
	matched = select_records(edit->bits, &sel, spec->module, remove, &removed);
	bool loaded = module_loaded(spec->module), kept = false;
	bool is_notrace = edit->hash == &edit->ops->notrace_hash;

	for (struct mod_cache *c = mod_cache; c && remove && !kept; c = c->next)
		kept = c->ops == edit->ops && c->is_notrace == is_notrace &&
		       !strcmp(c->module, spec->module) &&
		       (!strcmp(spec->func, "*") || !strcmp(c->func, spec->func));
	mutex_unlock(&ftrace_lock);
	if (matched)
		return 0;
	for (struct ftrace_mod_load *p = edit->mods; p && remove && !kept; p = p->next)
		kept = !p->remove && !strcmp(p->module, spec->module) &&
		       (!strcmp(spec->func, "*") || !strcmp(p->func, spec->func));
	/* Linux: a word kept only while its module is not loaded; a "!" must forget one. */
	if ((loaded && !remove) || (remove && !kept))
		return -EINVAL;
	struct ftrace_mod_load *ml = mod_load_new(spec, remove);

	if (!ml)
		return -ENOMEM;
	ml->next = edit->mods;
	edit->mods = ml;
	return 0;
}

int ftrace_hash_edit_word(struct ftrace_hash_edit *edit, const char *pattern)
{
	bool remove = pattern[0] == '!';
	bool graph = edit->ops->flags & FTRACE_OPS_FL_GRAPH_SET;
	struct selector sel = selector(pattern + remove);
	struct ftrace_mod_spec mod;
	int matched, removed = 0;

	int is_mod = graph ? 0 : ftrace_mod_split(pattern + remove, &mod);

	if (is_mod)
		return is_mod < 0 ? is_mod : edit_mod_word(edit, &mod, remove);
	if (graph && !sel.glob)
		return -EINVAL; /* ftrace_graph_set_hash knows no MATCH_INDEX */
	mutex_lock(&ftrace_lock);
	matched = select_records(edit->bits, &sel, NULL, remove, &removed);
	mutex_unlock(&ftrace_lock);
	/* Linux: a word that selects no function is -EINVAL (the graph sets: removes none). */
	if (!matched || (remove && !removed && graph))
		return -EINVAL;
	return 0;
}

/*
 * The sets that hold bits, so that a module leaving can take its records out of each (and the
 * next module given the same numbers finds them clear). Under ftrace_lock.
 */
static struct ftrace_hash *hash_list;

static void hash_list_update(struct ftrace_hash *hash)
{
	struct ftrace_hash **pp = &hash_list;

	while (*pp && *pp != hash)
		pp = &(*pp)->next_hash;
	if (hash->bits && !*pp) {
		hash->next_hash = hash_list;
		hash_list = hash;
	} else if (!hash->bits && *pp) {
		*pp = hash->next_hash;
	}
}

/* The live records' bits: an edit begun before a module left may still hold its records. */
static void keep_live_bits(unsigned long *bits)
{
	struct ftrace_mod_group *g = mod_groups;

	for (int i = nr_kernel; i < ftrace_nr_records(); i++) {
		while (g && i >= g->start + g->count)
			g = g->next;
		if (!g || i < g->start)
			__clear_bit((unsigned long)i, bits);
	}
}

/* Puts bits (NULL: the empty set) in place, patches the sites, frees the old bits. */
static void hash_install(struct ftrace_ops *ops, struct ftrace_hash *hash, unsigned long *bits)
{
	unsigned long *old;

	mutex_lock(&ftrace_lock);
	if (bits)
		keep_live_bits(bits);
	old = hash->bits;
	WRITE_ONCE(hash->bits, bits);
	hash->count = bits ? bitmap_weight(bits, (unsigned long)ftrace_nr_records()) : 0;
	hash_list_update(hash);
	if (ops->enabled)
		ftrace_update_sites();
	mutex_unlock(&ftrace_lock);
	if (old)
		sync_hash_readers();
	kfree(old);
}

/* --- ":mod:" words kept until their module loads (Linux's ftrace_mod_load) ----------------- */


static void mod_cache_forget(struct ftrace_ops *ops, bool is_notrace, const char *module,
			     const char *func)
{
	for (struct mod_cache **pp = &mod_cache, *c; (c = *pp);) {
		bool match = c->ops == ops && c->is_notrace == is_notrace &&
			     (!module || (!strcmp(c->module, module) &&
					  (!strcmp(func, "*") || !strcmp(c->func, func))));
		if (match) {
			*pp = c->next;
			kfree(c);
		} else {
			pp = &c->next;
		}
	}
}

/* The edit's kept words: ">" forgets the old ones, "!" ones forget, the others are kept. */
static void mod_cache_commit(struct ftrace_hash_edit *edit, bool is_notrace)
{
	struct ftrace_mod_load *ml, *rev = NULL;

	while ((ml = edit->mods)) { /* in the order they were written */
		edit->mods = ml->next;
		ml->next = rev;
		rev = ml;
	}
	mutex_lock(&ftrace_lock);
	if (edit->reset)
		mod_cache_forget(edit->ops, is_notrace, NULL, NULL);
	while ((ml = rev)) {
		rev = ml->next;
		struct mod_cache *c = ml->remove ? NULL : kzalloc(sizeof(*c));

		if (ml->remove)
			mod_cache_forget(edit->ops, is_notrace, ml->module, ml->func);
		if (c) {
			/* Appended: set_ftrace_filter lists them in the order they were written. */
			struct mod_cache **pp = &mod_cache;

			c->ops = edit->ops;
			c->is_notrace = is_notrace;
			strlcpy(c->func, ml->func, sizeof(c->func));
			strlcpy(c->module, ml->module, sizeof(c->module));
			while (*pp)
				pp = &(*pp)->next;
			*pp = c;
		}
		kfree(ml);
	}
	mutex_unlock(&ftrace_lock);
}

static void mod_loads_free(struct ftrace_hash_edit *edit)
{
	for (struct ftrace_mod_load *ml; (ml = edit->mods);) {
		edit->mods = ml->next;
		kfree(ml);
	}
}

size_t ftrace_mod_cache_show(struct ftrace_ops *ops, bool is_notrace, int n, char *buf,
			     size_t size)
{
	size_t len = 0;

	lockdep_assert_held(&ftrace_lock); /* the caller's ftrace_records_lock() */
	for (struct mod_cache *c = mod_cache; c; c = c->next) {
		if (c->ops != ops || c->is_notrace != is_notrace || n-- > 0)
			continue;
		len = snprintf(buf, size, "%s:mod:%s\n", c->func, c->module);
		break;
	}
	return len;
}

void ftrace_hash_edit_commit(struct ftrace_hash_edit *edit)
{
	bool is_notrace = edit->hash == &edit->ops->notrace_hash;

	mod_cache_commit(edit, is_notrace);
	hash_install(edit->ops, edit->hash, edit->bits);
	edit->bits = NULL;
}

void ftrace_hash_edit_abort(struct ftrace_hash_edit *edit)
{
	mod_loads_free(edit);
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

int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove, int reset)
{
	struct ftrace_hash_edit edit;
	int rec = ftrace_find_rec(ip);
	int ret;

	if (rec < 0)
		return -ENOENT;
	ret = ftrace_hash_edit_begin(&edit, ops, false, reset);
	if (ret)
		return ret;
	if (remove) /* the edit's own copy: no one else reads it yet */
		__clear_bit((unsigned long)rec, edit.bits);
	else
		__set_bit((unsigned long)rec, edit.bits);
	ftrace_hash_edit_commit(&edit);
	return 0;
}

void ftrace_reset_filters(struct ftrace_ops *ops)
{
	/* No copy to make: emptying a set cannot fail for want of memory. */
	hash_install(ops, &ops->filter_hash, NULL);
	hash_install(ops, &ops->notrace_hash, NULL);
	mutex_lock(&ftrace_lock);
	mod_cache_forget(ops, false, NULL, NULL);
	mod_cache_forget(ops, true, NULL, NULL);
	mutex_unlock(&ftrace_lock);
}


/* --- modules: code that comes and goes ----------------------------------------------------- */

uint64_t ftrace_module_init_tsc;
int ftrace_module_init_sites;

/* The maps of unloaded modules' functions (ftrace_mod_map.c), newest first; under ftrace_lock. */
static struct ftrace_mod_map *mod_maps;
/* Each group's map, from its load until it joins mod_maps at unload: by group, same order. */
struct group_map {
	struct group_map *next;
	struct ftrace_mod_group *group;
	struct ftrace_mod_map *map;
};
static struct group_map *group_maps;

static struct ftrace_mod_group *find_group(const char *modname)
{
	for (struct ftrace_mod_group *g = mod_groups; g; g = g->next)
		if (!strcmp(g->modname, modname))
			return g;
	return NULL;
}

/*
 * The first n free numbers after the kernel's: between two groups, or after the last. *link is
 * where the group goes in mod_groups (sorted by start). -1 when the reserved space is full.
 */
static int find_free_range(int n, struct ftrace_mod_group ***link)
{
	struct ftrace_mod_group **pp = &mod_groups;
	int start = nr_kernel;

	for (; *pp; pp = &(*pp)->next) {
		if ((*pp)->start - start >= n)
			break;
		start = (*pp)->start + (*pp)->count;
	}
	if (start + n > nr_kernel + FTRACE_MODULE_SITES)
		return -1;
	*link = pp;
	return start;
}

/* Frees what an earlier module of that name left (its map): a new one has the name now. */
static struct ftrace_mod_map *take_old_map(const char *modname)
{
	for (struct ftrace_mod_map **pp = &mod_maps, *m; (m = *pp); pp = &m->next) {
		if (!strcmp(m->modname, modname)) {
			WRITE_ONCE(*pp, m->next);
			return m;
		}
	}
	return NULL;
}

void ftrace_module_sites_add(const char *modname, const struct ftrace_mod_site *sites, int n)
{
	struct ftrace_mod_group *g, **link;
	struct ftrace_mod_map *old;
	struct group_map *gm;
	size_t names = 0;
	int k = 0;

	if (!records || n <= 0)
		return;
	for (int i = 0; i < n; i++)
		names += strlen(sites[i].name) + 1;
	g = kzalloc(sizeof(*g) + (size_t)n * sizeof(g->recs[0]) + names);
	gm = kzalloc(sizeof(*gm));
	if (g && gm)
		gm->map = ftrace_mod_map_alloc(modname, sites, n);
	if (!g || !gm || !gm->map) {
		/* Its sites stay calls to __fentry__, a plain ret: it runs, untraceable. */
		printk(KERN_ERR "ftrace: no memory for %s's %d call sites: not traceable\n",
		       modname, n);
		goto fail;
	}
	strlcpy(g->modname, modname, sizeof(g->modname));
	char *p = (char *)&g->recs[n];
	for (int i = 0; i < n; i++) {
		size_t len = strlen(sites[i].name) + 1;

		if (ftrace_make_nop_module(sites[i].ip)) {
			printk(KERN_ERR "ftrace: %s: site %lx (%s) is not a call to __fentry__: "
					"left alone\n",
			       modname, sites[i].ip, sites[i].name);
			continue;
		}
		memcpy(p, sites[i].name, len);
		g->recs[k++] = (struct dyn_ftrace){
			.ip = sites[i].ip, .name = p, .flags = REC_DISABLED};
		p += len;
	}
	g->count = k;
	if (!k)
		goto fail;
	sort_records(g->recs, k);
	g->lo = g->recs[0].ip;
	g->hi = g->recs[k - 1].ip;

	mutex_lock(&ftrace_lock);
	g->start = find_free_range(k, &link);
	if (g->start < 0) {
		mutex_unlock(&ftrace_lock);
		printk(KERN_ERR "ftrace: no room for %s's %d call sites (%d for all modules): "
				"not traceable\n",
		       modname, k, FTRACE_MODULE_SITES);
		goto fail; /* its sites are NOPs: it runs, untraceable */
	}
	g->next = *link;
	__atomic_store_n(link, g, __ATOMIC_RELEASE); /* published complete */
	nr_records += k;
	gm->group = g;
	gm->next = group_maps;
	group_maps = gm;
	old = take_old_map(modname);
	mutex_unlock(&ftrace_lock);
	if (old) {
		sync_hash_readers(); /* no CPU is still reading it (ftrace_mod_address_lookup) */
		kfree(old);
	}
	return;
fail:
	if (gm)
		kfree(gm->map);
	kfree(gm);
	kfree(g);
}

/*
 * The ":mod:" words kept for this module (Linux's process_cached_mods): each set they were
 * written to gets the module's functions they select, and the words are used up. One set at a
 * time: installing it takes ftrace_lock.
 */
static void process_cached_mods(const char *modname)
{
	for (;;) {
		struct ftrace_hash *hash = NULL;
		struct ftrace_ops *ops = NULL;
		unsigned long *bits = NULL;
		bool is_notrace = false;

		mutex_lock(&ftrace_lock);
		for (struct mod_cache *c = mod_cache; c && !ops; c = c->next) {
			if (!strcmp(c->module, modname)) {
				ops = c->ops;
				is_notrace = c->is_notrace;
			}
		}
		if (!ops) {
			mutex_unlock(&ftrace_lock);
			return;
		}
		hash = is_notrace ? &ops->notrace_hash : &ops->filter_hash;
		bits = kzalloc(hash_bytes());
		if (bits && hash->bits)
			memcpy(bits, hash->bits, hash_bytes());
		for (struct mod_cache **pp = &mod_cache, *c; (c = *pp);) {
			if (c->ops != ops || c->is_notrace != is_notrace ||
			    strcmp(c->module, modname)) {
				pp = &c->next;
				continue;
			}
			struct selector sel = {c->func, 0};
			int removed = 0;

			if (bits)
				select_records(bits, &sel, modname, false, &removed);
			*pp = c->next;
			kfree(c);
		}
		mutex_unlock(&ftrace_lock);
		if (!bits) {
			printk(KERN_ERR "ftrace: no memory to apply the filters kept for %s\n",
			       modname);
			continue; /* the words are gone: the next set, if any */
		}
		hash_install(ops, hash, bits);
	}
}

void ftrace_module_sites_enable(const char *modname)
{
	struct ftrace_mod_group *g;

	mutex_lock(&ftrace_lock);
	g = find_group(modname);
	for (int i = 0; g && i < g->count; i++)
		g->recs[i].flags &= ~REC_DISABLED;
	mutex_unlock(&ftrace_lock);
	if (!g)
		return;
	process_cached_mods(modname);
	/* The filters as they are now reach its functions: a tracer on traces its init. */
	mutex_lock(&ftrace_lock);
	ftrace_update_sites();
	mutex_unlock(&ftrace_lock);
}

void ftrace_module_sites_release(const char *modname)
{
	struct ftrace_mod_group *g, **pp;
	struct ftrace_mod_map *map = NULL;

	mutex_lock(&ftrace_lock);
	for (pp = &mod_groups; (g = *pp) && strcmp(g->modname, modname); pp = &g->next)
		;
	if (!g) {
		mutex_unlock(&ftrace_lock);
		return;
	}
	WRITE_ONCE(*pp, g->next);
	nr_records -= g->count;
	/*
	 * Out of every set. The count stays, as Linux's clear_mod_from_hash leaves its entries:
	 * a filter that held only the module's functions must not become "every function".
	 */
	for (struct ftrace_hash *h = hash_list; h; h = h->next_hash)
		for (int i = g->start; i < g->start + g->count; i++)
			clear_bit((unsigned long)i, h->bits);
	for (struct group_map **gp = &group_maps, *gm; (gm = *gp); gp = &gm->next) {
		if (gm->group == g) {
			*gp = gm->next;
			map = gm->map;
			kfree(gm);
			break;
		}
	}
	if (map) {
		map->next = mod_maps;
		__atomic_store_n(&mod_maps, map, __ATOMIC_RELEASE);
	}
	mutex_unlock(&ftrace_lock);
	sync_hash_readers(); /* no CPU is still in ftrace_find_rec on the group */
	kfree(g);
}

bool ftrace_mod_address_lookup(unsigned long addr, const char **name, unsigned long *start,
			       unsigned long *size, const char **modname)
{
	unsigned long flags = raw_local_irq_save(); /* a map is freed only after a sync */
	bool found = false;

	for (struct ftrace_mod_map *m = READ_ONCE(mod_maps); m && !found; m = READ_ONCE(m->next)) {
		const struct ftrace_mod_func *f = ftrace_mod_map_find(m, addr);

		if (!f)
			continue;
		if (name)
			*name = f->name;
		if (start)
			*start = f->ip;
		if (size)
			*size = f->size;
		if (modname)
			*modname = m->modname;
		found = true;
	}
	raw_local_irq_restore(flags);
	return found;
}

int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value, char *type, char *name,
			   char *module_name)
{
	unsigned long flags = raw_local_irq_save(); /* a map is freed only after a sync */
	int ret = -ERANGE;

	for (struct ftrace_mod_map *m = READ_ONCE(mod_maps); m; m = READ_ONCE(m->next)) {
		if (symnum >= (unsigned int)m->nr) {
			symnum -= (unsigned int)m->nr;
			continue;
		}
		*value = m->funcs[symnum].ip;
		*type = 't';
		strlcpy(name, m->funcs[symnum].name, FTRACE_MOD_FUNC_LEN);
		strlcpy(module_name, m->modname, FTRACE_MODNAME_LEN);
		ret = 0;
		break;
	}
	raw_local_irq_restore(flags);
	return ret;
}

/* Never probed: kprobes on ftrace run inside these (kernel/kprobes.h). */
NOKPROBE_SYMBOL(ftrace_ops_list_func);
NOKPROBE_SYMBOL(ftrace_find_rec);

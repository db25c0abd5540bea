/*
 * Static keys: finding a key's sites and patching them (Linux: kernel/jump_label.c).
 *
 * Every static_branch_*() test left an entry {code, target, key} in __jump_table
 * (kernel/jump_label.h, arch/x86_64/jump_label.h); linker.ld gathers the kernel's between
 * __start___jump_table and __stop___jump_table, and each module brings its own section.
 *
 * At boot, jump_label_init() sorts the kernel's table by key, then by address, so that a key's
 * sites are one run of entries found by binary search, and checks that every site holds what the
 * key's state says (the compiler wrote it so: a _FALSE key's unlikely branch is a NOP). A module's
 * table is checked and sorted the same way when it loads, and patched to the state its keys
 * have by then; loaded tables hang on jump_label_modules.
 *
 * Changing a key's state rewrites each of its sites, in the kernel and in every loaded module,
 * from NOP5 to JMP32 or back, in batches of text_poke_bp_batch (arch/x86_64/text_poke.c): the
 * int3 protocol that dynamic ftrace uses, so that no CPU ever runs half an instruction, with
 * every CPU serialized between the steps. A CPU that meets a site while it changes takes the
 * jump if the new instruction is one, or goes past it if it is the NOP: either way it runs a
 * branch the key had just before or has just after, which is all a static key promises during
 * the change. Once static_key_enable() returns, every CPU runs the new code.
 *
 * jump_label_mutex serializes the changes, the module list, and the count of each key (Linux
 * makes the common slow_inc of an already-on key lock-free; here every change takes the mutex:
 * changes are rare, and the mutex makes "count, then patch" one step for everyone).
 *
 * Not traced and never probed (the Makefile's NOTRACE_SRCS, NOKPROBE_SRCS): it rewrites code that
 * the tracer's own hooks run.
 */
#include "kernel/jump_label.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/mmu.h"
#include "kernel/module/module.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/lockdep.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/sort.h"

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

/* An entry's key field keeps `branch` in the address's low bit (kernel/jump_label.h). */
_Static_assert(_Alignof(struct static_key) > JUMP_ENTRY_BRANCH,
	       "a static_key's address must leave its low bit free");

static DEFINE_MUTEX(jump_label_mutex);

/*
 * A module's table, on jump_label_modules while it is loaded. Linux keeps, per key, a list of
 * the modules that use it (static_key_mod); a module has a few dozen sites at most, so here a
 * change looks up the key in each module's sorted table instead.
 */
static struct module *jump_label_modules; /* linked by mod->jump_next, under jump_label_mutex */

/* Which instruction a site must hold now: a jump while the key's state differs from branch. */
static enum jump_label_type jump_label_type(const struct jump_entry *e)
{
	bool on = static_key_count(jump_entry_key(e)) > 0;

	return on != jump_entry_is_branch(e) ? JUMP_LABEL_JMP : JUMP_LABEL_NOP;
}

/* By key, then by address: a key's sites are one run, and a batch is sorted as text_poke wants. */
static int jump_entry_cmp(const void *a, const void *b)
{
	const struct jump_entry *x = a, *y = b;
	unsigned long kx = (unsigned long)jump_entry_key(x), ky = (unsigned long)jump_entry_key(y);

	if (kx != ky)
		return kx < ky ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return 0;
}

/* The first of key's entries in a sorted table (or where they would be). */
static struct jump_entry *first_entry(struct jump_entry *start, struct jump_entry *stop,
				      const struct static_key *key)
{
	while (start < stop) {
		struct jump_entry *mid = start + (stop - start) / 2;

		if ((unsigned long)jump_entry_key(mid) < (unsigned long)key)
			start = mid + 1;
		else
			stop = mid;
	}
	return start;
}

/* --- patching --------------------------------------------------------------------------------- */

/*
 * Sites are written in batches of JUMP_LABEL_POKE_BATCH: each batch costs the int3 protocol's
 * rounds of IPIs whatever its size, and a fixed array (under jump_label_mutex) means a change
 * never fails for want of memory. One key has fewer than a hundred sites today (the most:
 * preemptirq_hook_key, 79), one batch.
 */
#define JUMP_LABEL_POKE_BATCH 128
static struct text_poke_loc poke_batch[JUMP_LABEL_POKE_BATCH]; /* under jump_label_mutex */
static int poke_count;

static int loc_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct text_poke_loc *)a)->addr;
	unsigned long y = ((const struct text_poke_loc *)b)->addr;

	return x < y ? -1 : x > y;
}

static void poke_flush(void)
{
	/* The kernel's sites and a module's are each sorted; together they may not be. */
	sort(poke_batch, (size_t)poke_count, sizeof(poke_batch[0]), loc_cmp);
	text_poke_bp_batch(poke_batch, poke_count);
	poke_count = 0;
}

/* Queue e's site to hold type; a site holding anything but the other state is left alone. */
static void poke_queue(const struct jump_entry *e, enum jump_label_type type)
{
	enum jump_label_type old = type == JUMP_LABEL_JMP ? JUMP_LABEL_NOP : JUMP_LABEL_JMP;

	if (arch_jump_label_site_is(e, type))
		return; /* already so (a module patched at load, before the key changed back) */
	if (!arch_jump_label_site_is(e, old)) {
		printk(KERN_ERR "jump_label: unexpected bytes at %pS (%lx): left alone\n",
		       (void *)e->code, e->code);
		return;
	}
	poke_batch[poke_count].addr = e->code;
	arch_jump_label_make_insn(e, type, poke_batch[poke_count].new_insn);
	if (++poke_count == JUMP_LABEL_POKE_BATCH)
		poke_flush();
}

/* Every site of key in one sorted table made to hold what the key's state says. */
static void update_table(struct jump_entry *start, struct jump_entry *stop,
			 const struct static_key *key)
{
	for (struct jump_entry *e = first_entry(start, stop, key);
	     e < stop && jump_entry_key(e) == key; e++)
		poke_queue(e, jump_label_type(e));
}

static void jump_label_update(struct static_key *key)
{
	lockdep_assert_held(&jump_label_mutex); /* poke_batch, and the module list */
	update_table(__start___jump_table, __stop___jump_table, key);
	for (struct module *mod = jump_label_modules; mod; mod = mod->jump_next)
		update_table(mod->jump_entries, mod->jump_entries + mod->num_jump_entries, key);
	poke_flush();
}

/* --- the key API ---------------------------------------------------------------------------- */

/*
 * The count changes before the sites do, under the mutex: a reader of static_key_enabled() may
 * see the new state a moment before every site has it, as in Linux.
 */
void static_key_slow_inc(struct static_key *key)
{
	mutex_lock(&jump_label_mutex);
	if (__atomic_fetch_add(&key->enabled, 1, __ATOMIC_SEQ_CST) == 0)
		jump_label_update(key);
	mutex_unlock(&jump_label_mutex);
}

void static_key_slow_dec(struct static_key *key)
{
	mutex_lock(&jump_label_mutex);
	int was = static_key_count(key);

	if (WARN_ON(was <= 0)) { /* more decrements than increments: a caller's bug */
		mutex_unlock(&jump_label_mutex);
		return;
	}
	__atomic_store_n(&key->enabled, was - 1, __ATOMIC_SEQ_CST);
	if (was == 1)
		jump_label_update(key);
	mutex_unlock(&jump_label_mutex);
}

/* On, whatever it was; a counted key (above 1) is left as it is, as Linux warns and does. */
void static_key_enable(struct static_key *key)
{
	mutex_lock(&jump_label_mutex);
	int was = static_key_count(key);

	WARN_ON(was > 1);
	if (was == 0) {
		__atomic_store_n(&key->enabled, 1, __ATOMIC_SEQ_CST);
		jump_label_update(key);
	}
	mutex_unlock(&jump_label_mutex);
}

void static_key_disable(struct static_key *key)
{
	mutex_lock(&jump_label_mutex);
	int was = static_key_count(key);

	WARN_ON(was > 1);
	if (was > 0) {
		__atomic_store_n(&key->enabled, 0, __ATOMIC_SEQ_CST);
		jump_label_update(key);
	}
	mutex_unlock(&jump_label_mutex);
}

/* --- the kernel's table, and the modules' ----------------------------------------------------- */

void jump_label_init(void)
{
	size_t n = (size_t)(__stop___jump_table - __start___jump_table);

	sort(__start___jump_table, n, sizeof(struct jump_entry), jump_entry_cmp);
	/* The compiler wrote each site for its key's boot state: anything else is a build bug. */
	for (struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++)
		if (!arch_jump_label_site_is(e, jump_label_type(e)))
			panic("jump_label: site %lx (%pS) does not hold its key's instruction",
			      e->code, (void *)e->code);
	printk(KERN_INFO "jump_label: %zu static branch sites\n", n);
}

static bool overlaps(const struct jump_entry *start, const struct jump_entry *stop,
		     unsigned long lo, unsigned long hi)
{
	for (const struct jump_entry *e = start; e < stop; e++)
		if (lo < e->code + JUMP_LABEL_NOP_SIZE && hi >= e->code)
			return true;
	return false;
}

bool jump_label_text_reserved(unsigned long start, unsigned long end)
{
	mutex_lock(&jump_label_mutex);
	bool hit = overlaps(__start___jump_table, __stop___jump_table, start, end);

	for (struct module *mod = jump_label_modules; mod && !hit; mod = mod->jump_next)
		hit = overlaps(mod->jump_entries, mod->jump_entries + mod->num_jump_entries, start,
			       end);
	mutex_unlock(&jump_label_mutex);
	return hit;
}

static void count_table(const struct jump_entry *start, const struct jump_entry *stop,
			const struct static_key *key, int *n, int *wrong, unsigned long *first)
{
	for (const struct jump_entry *e = start; e < stop; e++) {
		if (jump_entry_key(e) != key)
			continue;
		(*n)++;
		*wrong += !arch_jump_label_site_is(e, jump_label_type(e));
		if (!*first || e->code < *first)
			*first = e->code;
	}
}

int jump_label_count_sites(const struct static_key *key, int *wrong, unsigned long *first)
{
	unsigned long lowest = 0;
	int n = 0;

	*wrong = 0;
	mutex_lock(&jump_label_mutex); /* no change half done: every site agrees, or it is a bug */
	count_table(__start___jump_table, __stop___jump_table, key, &n, wrong, &lowest);
	for (struct module *mod = jump_label_modules; mod; mod = mod->jump_next)
		count_table(mod->jump_entries, mod->jump_entries + mod->num_jump_entries, key, &n,
			    wrong, &lowest);
	mutex_unlock(&jump_label_mutex);
	if (first)
		*first = lowest;
	return n;
}

/* Is [addr, addr + len) inside [base, base + size)? */
static bool within(unsigned long addr, unsigned long len, unsigned long base, unsigned long size)
{
	return addr >= base && addr - base <= size && len <= size - (addr - base);
}

/* Is addr a whole static_key in the writable part (data) of a module's layout? */
static bool key_in_module_data(unsigned long addr, const struct module_layout *l)
{
	unsigned long data = (unsigned long)l->base + l->ro_size;

	return within(addr, sizeof(struct static_key), data, l->size - l->ro_size);
}

/*
 * A module's table, relocated, before anything of it runs: every site and target in its text,
 * every key a writable int (in its own data, the kernel's, or an earlier module's: its exports),
 * every site holding a NOP5 or the jump to its target. A file that says otherwise is refused,
 * as Linux refuses a bad section. Under module_mutex: no other module comes or goes meanwhile.
 */
int jump_label_check_module(struct module *mod)
{
	unsigned long base = (unsigned long)mod->core_layout.base;
	unsigned long text = mod->core_layout.text_size;
	unsigned long kdata = (unsigned long)_erodata;
	unsigned long kdata_size = (unsigned long)(_end - _erodata);

	for (unsigned int i = 0; i < mod->num_jump_entries; i++) {
		const struct jump_entry *e = &mod->jump_entries[i];
		unsigned long key = (unsigned long)jump_entry_key(e);
		struct module *owner = __module_address(key);
		bool key_ok = !(key % _Alignof(struct static_key)) &&
			      (key_in_module_data(key, &mod->core_layout) ||
			       within(key, sizeof(struct static_key), kdata, kdata_size) ||
			       (owner && key_in_module_data(key, &owner->core_layout)));

		if (!within(e->code, JUMP_LABEL_NOP_SIZE, base, text) ||
		    !within(e->target, 1, base, text) || !key_ok) {
			printk(KERN_ERR "%s: __jump_table entry %u out of bounds\n", mod->name, i);
			return -ENOEXEC;
		}
		/*
		 * One of the two instructions (which one, the key's type says: not checked here).
		 */
		if (!arch_jump_label_site_is(e, JUMP_LABEL_NOP) &&
		    !arch_jump_label_site_is(e, JUMP_LABEL_JMP)) {
			printk(KERN_ERR "%s: __jump_table entry %u: unexpected bytes at its site\n",
			       mod->name, i);
			return -ENOEXEC;
		}
	}
	return 0;
}

void jump_label_add_module(struct module *mod)
{
	if (!mod->num_jump_entries)
		return;
	mutex_lock(&jump_label_mutex);
	sort(mod->jump_entries, mod->num_jump_entries, sizeof(struct jump_entry), jump_entry_cmp);
	/* Its keys' state now: a kernel key may be on (a latency tracer running). */
	for (unsigned int i = 0; i < mod->num_jump_entries; i++)
		poke_queue(&mod->jump_entries[i], jump_label_type(&mod->jump_entries[i]));
	poke_flush();
	mod->jump_next = jump_label_modules;
	jump_label_modules = mod;
	mutex_unlock(&jump_label_mutex);
}

void jump_label_del_module(struct module *mod)
{
	if (!mod->num_jump_entries)
		return;
	mutex_lock(&jump_label_mutex);
	for (struct module **pp = &jump_label_modules; *pp; pp = &(*pp)->jump_next) {
		if (*pp == mod) {
			*pp = mod->jump_next;
			break;
		}
	}
	mutex_unlock(&jump_label_mutex);
}

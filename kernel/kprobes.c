/*
 * Kprobes: the generic half (the API of kernel/kprobes.h; Linux: kernel/kprobes.c).
 *
 * Every probed address has one aggregate kprobe, made here, that owns what the architecture
 * keeps (the copied instruction, the saved byte) and is what is armed; the callers' probes hang
 * on its list and its handlers call theirs in turn. So two users of one address share one int3
 * (or one ftrace filter entry), and either may leave without disturbing the other. The
 * aggregates live in a small hash table by address: the int3 handler, the #DB handler and the
 * ftrace handler look them up with interrupts or preemption off, and writers (under
 * kprobe_mutex) publish with a release store and wait out every reader (synchronize_sched)
 * before anything they unlinked is freed or reused.
 *
 * Where a probe goes (check_kprobe_address_safe): kernel or module text; not blacklisted
 * (-EINVAL); not a static branch's site (-EINVAL too, kernel/jump_label.c); on an instruction
 * boundary of its function (-EILSEQ). A function's ftrace call site takes the ftrace path
 * (arch/x86_64/kprobes/ftrace.c), anything else int3 (arch/x86_64/kprobes/core.c).
 *
 * Kretprobes: an entry probe whose handler swaps the function's return address for the
 * trampoline's (arch/x86_64/kprobes/kretprobe_64.S), remembering the real one in an instance
 * taken from the kretprobe's maxactive preallocated ones (a lock-free free list). Instances in
 * flight are on their task's list, newest first, as Linux 6.1 keeps them: calls nest, so the
 * returning call's are on top, and only the task itself pushes and pops, so neither side takes
 * a lock. The trampoline's C half (kretprobe_trampoline_handler) runs the handler and sends the
 * function home. An unregistered kretprobe's instances still in flight return normally, the
 * handler no longer called (get_kretprobe() is NULL), and their memory goes with the last of
 * them; a task that dies inside a probed call gives its instances back when it is freed.
 *
 * The blacklist: NOKPROBE_SYMBOL()s (the exception dispatch do_interrupt, the fault and NMI
 * handlers, ...), and whole sections: .kprobes.text (the files listed in the Makefile's
 * NOKPROBE_SRCS: this one, arch/x86_64/kprobes/, text_poke, ftrace's patching and
 * trampolines, the ring buffer) and .text.entry (the entry code).
 * /sys/kernel/debug/kprobes/blacklist lists each function of them.
 *
 * This file is itself blacklisted and not traced (the Makefile's NOKPROBE_SRCS, NOTRACE_SRCS).
 */
#include "kernel/kprobes.h"
#include "kernel/jump_label.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/kprobes/kprobes.h"
#include "arch/x86_64/mmu.h"
#include "kernel/cmdline.h"
#include "kernel/fs/debugfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/kallsyms.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/module/module.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/lockdep.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/fgraph.h"

#define KPROBE_HASH_BITS 6
#define KPROBE_TABLE_SIZE (1 << KPROBE_HASH_BITS)

static struct kprobe *kprobe_table[KPROBE_TABLE_SIZE]; /* aggregates, chained by hnext */
static DEFINE_MUTEX(kprobe_mutex); /* registration, arming, the lists */
static struct kprobe *kprobe_list; /* every registered caller's probe, by next, oldest first */

static notrace unsigned int hash_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return (unsigned int)((a ^ (a >> KPROBE_HASH_BITS) ^ (a >> 12)) & (KPROBE_TABLE_SIZE - 1));
}

/* The live (not gone) aggregate probe at addr. Readers: interrupts or preemption off. */
notrace struct kprobe *get_kprobe(void *addr)
{
	for (struct kprobe *p = READ_ONCE(kprobe_table[hash_addr(addr)]); p;
	     p = READ_ONCE(p->hnext))
		if (p->addr == addr && !kprobe_gone(p))
			return p;
	return NULL;
}

/*
 * The aggregate kp hangs on (gone or not), or NULL if kp is not registered. By the pointer,
 * every chain: a caller may have changed kp->addr since. Under kprobe_mutex.
 */
static struct kprobe *find_aggr(struct kprobe *kp)
{
	for (int h = 0; h < KPROBE_TABLE_SIZE; h++)
		for (struct kprobe *ap = kprobe_table[h]; ap; ap = ap->hnext)
			for (struct kprobe *c = ap->list; c; c = c->list)
				if (c == kp)
					return ap;
	return NULL;
}

notrace void kprobes_inc_nmissed_count(struct kprobe *ap)
{
	for (struct kprobe *c = READ_ONCE(ap->list); c; c = READ_ONCE(c->list))
		c->nmissed++;
}

/* The aggregate's handlers: each enabled caller's, in the order they registered. */
static notrace int aggr_pre_handler(struct kprobe *ap, struct pt_regs *regs)
{
	for (struct kprobe *c = READ_ONCE(ap->list); c; c = READ_ONCE(c->list))
		if (!kprobe_disabled(c) && c->pre_handler && c->pre_handler(c, regs))
			return 1;
	return 0;
}

static notrace void aggr_post_handler(struct kprobe *ap, struct pt_regs *regs, unsigned long flags)
{
	for (struct kprobe *c = READ_ONCE(ap->list); c; c = READ_ONCE(c->list))
		if (!kprobe_disabled(c) && c->post_handler)
			c->post_handler(c, regs, flags);
}

/*
 * The same for an aggregate with one caller, the usual case: no loop, a tail call. The list
 * is never empty here: the last caller's unregister_kprobe disarms and waits for every CPU in a
 * handler (synchronize_sched) before it unlinks. The caller may have changed meanwhile (one
 * left, another came), and the new one may have no pre_handler: that is checked.
 */
static notrace int aggr_pre_one(struct kprobe *ap, struct pt_regs *regs)
{
	struct kprobe *c = READ_ONCE(ap->list);

	if (kprobe_disabled(c) || !c->pre_handler)
		return 0;
	return c->pre_handler(c, regs);
}

/*
 * The aggregate's handlers as its callers need them, after each change of its list (under
 * kprobe_mutex): aggr_pre_one while it has one caller; a post_handler only while some caller
 * has one, as Linux's aggregate takes aggr_post_handler only then, so that a hit of a probe
 * without one makes no call after its step or its ftrace hit. A CPU that read the handler
 * before the change runs either: each works for any list.
 */
static void aggr_update_handlers(struct kprobe *ap)
{
	bool post = false;

	for (struct kprobe *c = ap->list; c; c = c->list)
		post |= c->post_handler != NULL;
	WRITE_ONCE(ap->pre_handler, ap->list && !ap->list->list && ap->list->pre_handler
					    ? aggr_pre_one
					    : aggr_pre_handler);
	WRITE_ONCE(ap->post_handler, post ? aggr_post_handler : NULL);
}

/* --- the blacklist ------------------------------------------------------------------------ */

struct kprobe_blacklist_entry {
	unsigned long start_addr, end_addr;
};
static struct kprobe_blacklist_entry *blacklist;
static int blacklist_len;

extern char __kprobes_text_start[], __kprobes_text_end[];
extern char __entry_text_start[], __entry_text_end[];
extern const unsigned long __start_kprobe_blacklist[], __stop_kprobe_blacklist[];

notrace bool within_kprobe_blacklist(unsigned long addr)
{
	if ((addr >= (unsigned long)__kprobes_text_start &&
	     addr < (unsigned long)__kprobes_text_end) ||
	    (addr >= (unsigned long)__entry_text_start && addr < (unsigned long)__entry_text_end))
		return true;
	for (int i = 0; i < blacklist_len; i++)
		if (addr >= blacklist[i].start_addr && addr < blacklist[i].end_addr)
			return true;
	return arch_within_kprobe_area(addr);
}

struct area_walk {
	unsigned long start, end;
	int n; /* entries found (count pass) or filled */
	bool fill;
};

static int add_area_symbol(void *data, const char *name, unsigned long addr)
{
	struct area_walk *w = data;
	unsigned long start, size;

	(void)name;
	if (addr < w->start || addr >= w->end)
		return 0;
	if (!kallsyms_lookup(addr, NULL, &start, &size) || start != addr || !size)
		return 0;
	if (w->n > 0 && blacklist && w->fill && blacklist[blacklist_len - 1].start_addr == start)
		return 0; /* aliases of one function */
	if (w->fill) {
		blacklist[blacklist_len++] =
			(struct kprobe_blacklist_entry){start, MIN(start + size, w->end)};
	}
	w->n++;
	return 0;
}

/* Each function of the sections and each NOKPROBE_SYMBOL, for the debugfs list (Linux's). */
static void populate_kprobe_blacklist(void)
{
	const unsigned long areas[][2] = {
		{(unsigned long)__entry_text_start, (unsigned long)__entry_text_end},
		{(unsigned long)__kprobes_text_start, (unsigned long)__kprobes_text_end},
	};
	int syms = (int)(__stop_kprobe_blacklist - __start_kprobe_blacklist), total = syms;

	for (size_t i = 0; i < ARRAY_SIZE(areas); i++) {
		struct area_walk w = {areas[i][0], areas[i][1], 0, false};

		kallsyms_for_each(add_area_symbol, &w);
		total += w.n;
	}
	blacklist = kzalloc(sizeof(*blacklist) * (size_t)(total ? total : 1));
	if (!blacklist)
		panic("kprobes: no memory for the blacklist");
	/* NOKPROBE_SYMBOLs first, so within_kprobe_blacklist's loop sees them whole. */
	for (int i = 0; i < syms; i++) {
		unsigned long start, size;

		if (kallsyms_lookup(__start_kprobe_blacklist[i], NULL, &start, &size))
			blacklist[blacklist_len++] =
				(struct kprobe_blacklist_entry){start, start + size};
	}
	for (size_t i = 0; i < ARRAY_SIZE(areas); i++) {
		struct area_walk w = {areas[i][0], areas[i][1], 0, true};

		kallsyms_for_each(add_area_symbol, &w);
	}
}

/* --- registration ------------------------------------------------------------------------- */

notrace kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset)
{
	const char *colon = strchr(name, ':');

	(void)offset;
	if (!colon)
		return (kprobe_opcode_t *)kallsyms_lookup_name(name);
	/* "MOD:sym": sym among that module's functions only. */
	char sym[KSYM_NAME_LEN], mod[MODULE_NAME_LEN];
	unsigned long value;
	char type;
	size_t modlen = (size_t)(colon - name);

	if (modlen >= sizeof(mod))
		return NULL;
	for (unsigned int i = 0; !module_get_kallsym(i, &value, &type, sym, mod); i++)
		if ((type == 't' || type == 'T') && strlen(mod) == modlen &&
		    !strncmp(mod, name, modlen) && !strcmp(sym, colon + 1))
			return (kprobe_opcode_t *)value;
	return NULL;
}

/* The address a probe means: addr, or symbol_name + offset (Linux's _kprobe_addr). */
static kprobe_opcode_t *kprobe_addr(kprobe_opcode_t *addr, const char *symbol_name,
				    unsigned long offset, int *err)
{
	if ((symbol_name && addr) || (!symbol_name && !addr)) {
		*err = -EINVAL;
		return NULL;
	}
	if (symbol_name) {
		addr = kprobe_lookup_name(symbol_name, (unsigned int)offset);
		if (!addr) {
			*err = -ENOENT;
			return NULL;
		}
	}
	*err = 0;
	return addr + offset;
}

notrace int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym, unsigned long offset)
{
	int err;
	unsigned long start, a = (unsigned long)kprobe_addr(addr, sym, offset, &err);

	if (err)
		return err;
	if (!kallsyms_lookup(a, NULL, &start, NULL) || a != start)
		return -EINVAL;
	return 0;
}

static int check_kprobe_address_safe(unsigned long addr)
{
	if (!kernel_text_address(addr) || within_kprobe_blacklist(addr))
		return -EINVAL;
	/*
	 * A static branch's site: its patching would overwrite the int3. Linux refuses it in the
	 * same test as the blacklist, so with the same -EINVAL.
	 */
	if (jump_label_text_reserved(addr, addr))
		return -EINVAL;
	/* A module that is going: its probes would be killed in a moment. */
	if (addr >= MODULES_VADDR && addr < MODULES_END) {
		struct module *mod = __module_address(addr);

		if (!mod || READ_ONCE(mod->state) == MODULE_STATE_GOING)
			return -ENOENT;
	}
	return arch_check_insn_boundary(addr);
}

static bool kprobe_registered(struct kprobe *p)
{
	for (struct kprobe *q = kprobe_list; q; q = q->next)
		if (q == p)
			return true;
	return false;
}

/* Arm or disarm the aggregate: int3, or ftrace's filter. Under kprobe_mutex. */
static int arm_kprobe(struct kprobe *ap)
{
	int ret = 0;

	if (kprobe_ftrace(ap))
		ret = arm_kprobe_ftrace(ap);
	else
		arch_arm_kprobe(ap);
	if (!ret)
		ap->flags &= ~KPROBE_FLAG_DISABLED;
	return ret;
}

static void disarm_kprobe(struct kprobe *ap)
{
	if (kprobe_disabled(ap))
		return;
	if (kprobe_ftrace(ap))
		disarm_kprobe_ftrace(ap);
	else
		arch_disarm_kprobe(ap);
	ap->flags |= KPROBE_FLAG_DISABLED;
}

/* Does any caller's probe on ap want it armed? */
static bool aggr_wanted(struct kprobe *ap)
{
	for (struct kprobe *c = ap->list; c; c = c->list)
		if (!kprobe_disabled(c))
			return true;
	return false;
}

static void list_append(struct kprobe *p)
{
	struct kprobe **pp = &kprobe_list;

	while (*pp)
		pp = &(*pp)->next;
	p->next = NULL;
	*pp = p;
}

static void list_remove(struct kprobe *p)
{
	for (struct kprobe **pp = &kprobe_list; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			return;
		}
}

int register_kprobe(struct kprobe *p)
{
	int ret;
	kprobe_opcode_t *addr = kprobe_addr(p->addr, p->symbol_name, p->offset, &ret);

	if (ret)
		return ret;
	mutex_lock(&kprobe_mutex);
	if (kprobe_registered(p)) {
		ret = -EINVAL; /* as Linux's warn_kprobe_rereg */
		goto out;
	}
	p->addr = addr; /* Linux keeps the resolved address too, and symbol_name as given */
	p->flags &= KPROBE_FLAG_DISABLED;
	p->nmissed = 0;
	p->list = NULL;
	ret = check_kprobe_address_safe((unsigned long)addr);
	if (ret)
		goto out;
	if (kprobe_ftrace_location((unsigned long)addr))
		p->flags |= KPROBE_FLAG_FTRACE;

	struct kprobe *ap = get_kprobe(addr);
	if (ap) {
		/* Another user's address: join its aggregate (at the end: handlers in order). */
		struct kprobe **pp = &ap->list;

		while (*pp)
			pp = &(*pp)->list;
		p->opcode = ap->opcode;
		p->ainsn = ap->ainsn;
		__atomic_store_n(pp, p, __ATOMIC_RELEASE);
		aggr_update_handlers(ap);
		if (kprobe_disabled(ap) && !kprobe_disabled(p))
			ret = arm_kprobe(ap);
		if (ret) {
			*pp = NULL;
			aggr_update_handlers(ap);
			synchronize_sched();
			goto out;
		}
		list_append(p);
		goto out;
	}

	ap = kzalloc(sizeof(*ap));
	if (!ap) {
		ret = -ENOMEM;
		goto out;
	}
	ap->addr = addr;
	ap->flags = KPROBE_FLAG_DISABLED | (p->flags & KPROBE_FLAG_FTRACE);
	ap->list = p;
	aggr_update_handlers(ap);
	if (!kprobe_ftrace(ap)) {
		ret = arch_prepare_kprobe(ap);
		if (ret) {
			kfree(ap);
			goto out;
		}
	}
	p->opcode = ap->opcode;
	p->ainsn = ap->ainsn;
	/* Published complete, then armed: a CPU that hits the int3 always finds it. */
	unsigned int h = hash_addr(addr);
	ap->hnext = kprobe_table[h];
	__atomic_store_n(&kprobe_table[h], ap, __ATOMIC_RELEASE);
	if (!kprobe_disabled(p)) {
		ret = arm_kprobe(ap);
		if (ret) {
			kprobe_table[h] = ap->hnext;
			synchronize_sched();
			arch_remove_kprobe(ap);
			kfree(ap);
			goto out;
		}
	}
	list_append(p);
out:
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/* Takes the aggregate out of the table and frees it, once no CPU can be using it. */
static void free_aggr(struct kprobe *ap)
{
	for (struct kprobe **pp = &kprobe_table[hash_addr(ap->addr)]; *pp; pp = &(*pp)->hnext)
		if (*pp == ap) {
			WRITE_ONCE(*pp, ap->hnext);
			break;
		}
	synchronize_sched(); /* no handler, int3 or ftrace, still looks at it */
	arch_remove_kprobe(ap);
	kfree(ap);
}

void unregister_kprobe(struct kprobe *p)
{
	mutex_lock(&kprobe_mutex);
	struct kprobe *ap = find_aggr(p);
	if (!ap) {
		mutex_unlock(&kprobe_mutex);
		return;
	}
	/*
	 * The last user of the address: disarm first and wait, so that a CPU that hit the probe
	 * is done with it, post_handler included, before p leaves the list (as Linux disarms a
	 * lone probe before it unlinks it). With other users the probe stays armed: a CPU between
	 * p's pre_handler and its post_handler may then miss the post (Linux's race too).
	 */
	bool last = ap->list == p && !p->list;
	if (last) {
		disarm_kprobe(ap);
		synchronize_sched();
	}
	for (struct kprobe **pp = &ap->list; *pp; pp = &(*pp)->list)
		if (*pp == p) {
			WRITE_ONCE(*pp, p->list);
			break;
		}
	if (!last)
		aggr_update_handlers(ap);
	list_remove(p);
	if (last) {
		free_aggr(ap);
	} else {
		if (!aggr_wanted(ap))
			disarm_kprobe(ap);
		synchronize_sched(); /* p's handlers are not running anywhere after this */
	}
	p->list = NULL;
	mutex_unlock(&kprobe_mutex);
}

int register_kprobes(struct kprobe **kps, int num)
{
	if (num <= 0)
		return -EINVAL;
	for (int i = 0; i < num; i++) {
		int ret = register_kprobe(kps[i]);

		if (ret) {
			if (i)
				unregister_kprobes(kps, i);
			return ret;
		}
	}
	return 0;
}

void unregister_kprobes(struct kprobe **kps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_kprobe(kps[i]);
}

int disable_kprobe(struct kprobe *kp)
{
	int ret = 0;

	mutex_lock(&kprobe_mutex);
	struct kprobe *ap = find_aggr(kp);
	if (!ap) {
		ret = -EINVAL;
	} else if (!kprobe_disabled(kp)) {
		kp->flags |= KPROBE_FLAG_DISABLED;
		if (!kprobe_gone(ap) && !aggr_wanted(ap))
			disarm_kprobe(ap);
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}

int enable_kprobe(struct kprobe *kp)
{
	int ret = 0;

	mutex_lock(&kprobe_mutex);
	struct kprobe *ap = find_aggr(kp);
	if (!ap || kprobe_gone(kp)) {
		ret = -EINVAL;
	} else if (kprobe_disabled(kp)) {
		kp->flags &= ~KPROBE_FLAG_DISABLED;
		if (kprobe_disabled(ap)) {
			ret = arm_kprobe(ap);
			if (ret)
				kp->flags |= KPROBE_FLAG_DISABLED;
		}
	}
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/* A module is going (kernel/module/main.c, before ftrace forgets its sites). */
void kprobes_module_going(unsigned long start, unsigned long end)
{
	mutex_lock(&kprobe_mutex);
	for (int h = 0; h < KPROBE_TABLE_SIZE; h++)
		for (struct kprobe *ap = kprobe_table[h]; ap; ap = ap->hnext) {
			unsigned long a = (unsigned long)ap->addr;

			if (a < start || a >= end || kprobe_gone(ap))
				continue;
			/* As Linux's kill_kprobe: still registered, never fires again. */
			disarm_kprobe(ap);
			ap->flags |= KPROBE_FLAG_GONE;
			for (struct kprobe *c = ap->list; c; c = c->list)
				c->flags |= KPROBE_FLAG_GONE;
		}
	synchronize_sched();
	/* The slots of the gone ones: their text is going, nothing will step them again. */
	for (int h = 0; h < KPROBE_TABLE_SIZE; h++)
		for (struct kprobe *ap = kprobe_table[h]; ap; ap = ap->hnext)
			if (kprobe_gone(ap))
				arch_remove_kprobe(ap);
	mutex_unlock(&kprobe_mutex);
}

/* --- kretprobes --------------------------------------------------------------------------- */

/*
 * Holders whose kretprobe is gone and whose last instance came back, pushed without a lock
 * (a compare-and-swap; taken all at once by an exchange). They are freed later, in task
 * context (free_dead_kretprobe_holders), never where the last instance comes back: that is the
 * trampoline, maybe inside kmalloc, and kfree may itself carry a kretprobe (Linux frees them
 * through RCU for the same reasons).
 */
static struct kretprobe_holder *kretprobe_dead;

static notrace void kretprobe_holder_put(struct kretprobe_holder *rph)
{
	if (__atomic_sub_fetch(&rph->refs, 1, __ATOMIC_ACQ_REL))
		return;
	struct kretprobe_holder *old = __atomic_load_n(&kretprobe_dead, __ATOMIC_RELAXED);

	do
		rph->next_dead = old;
	while (!__atomic_compare_exchange_n(&kretprobe_dead, &old, rph, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
}

/*
 * Back to its kretprobe's free list, or retired if the kretprobe is gone. Preemption is off
 * (or interrupts): unregister_kretprobe's synchronize_sched, after it cleared rph->rp, waits for
 * any recycle that still saw the kretprobe, so none pushes onto a list it has emptied.
 */
static notrace void recycle_rp_inst(struct kretprobe_instance *ri)
{
	struct kretprobe_holder *rph = ri->rph;

	if (likely(READ_ONCE(rph->rp)))
		freelist_add(&ri->freelist, &rph->freelist);
	else
		kretprobe_holder_put(rph);
}

/* Task context, no lock held: frees the holders kretprobe_holder_put set aside. */
static void free_dead_kretprobe_holders(void)
{
	struct kretprobe_holder *dead =
		__atomic_exchange_n(&kretprobe_dead, NULL, __ATOMIC_ACQUIRE);

	while (dead) {
		struct kretprobe_holder *next = dead->next_dead;

		kfree(dead->mem);
		kfree(dead);
		dead = next;
	}
}

/*
 * At the entry (preemption or interrupts off): an instance from the free list, onto this
 * task's list, and the return address swapped. No lock: the free list is lock-free, and only
 * the task itself changes its list. An interrupt that comes in the middle pushes and pops its
 * own instances before it returns, so the list is the same after it as before (LIFO, as the
 * calls nest).
 */
static notrace int pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	unsigned long *sp = (unsigned long *)regs->rsp; /* the return address, at the entry */
	struct freelist_node *fn = freelist_try_get(&rp->rph->freelist);

	if (!fn) {
		rp->nmissed++;
		return 0;
	}
	struct kretprobe_instance *ri = container_of(fn, struct kretprobe_instance, freelist);
	ri->fp = sp;
	ri->ret_addr = (kprobe_opcode_t *)*sp;
	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		recycle_rp_inst(ri);
		return 0;
	}
	struct task *t = current;
	ri->llist = t->kretprobe_instances;
	/* Listed before the swap: an unwinder that finds the trampoline finds the instance. */
	WRITE_ONCE(t->kretprobe_instances, ri);
	barrier();
	*sp = (unsigned long)__kretprobe_trampoline;
	return 0;
}

/* ri's handler, if its kretprobe is still there; preemption is off. */
static __always_inline void kretprobe_call_handler(struct kretprobe_instance *ri,
						   struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kprobe_ctlblk *kcb;

	if (!rp || !rp->handler)
		return;
	kcb = get_kprobe_ctlblk();
	if (kcb->current_kprobe) {
		rp->nmissed++; /* returned inside a handler on this CPU */
		return;
	}
	/* interrupts are on: see kprobe_ftrace_handler's status */
	WRITE_ONCE(kcb->kprobe_status, KPROBE_HIT_ACTIVE);
	barrier();
	WRITE_ONCE(kcb->current_kprobe, &rp->kp);
	barrier();
	WRITE_ONCE(kcb->kprobe_status, KPROBE_HIT_ACTIVE);
	rp->handler(ri, regs);
	WRITE_ONCE(kcb->current_kprobe, NULL);
}

/* The general case: several instances on the slot, or stale ones above them. */
static noinline unsigned long kretprobe_trampoline_handler_slow(struct pt_regs *regs)
{
	unsigned long *fp = (unsigned long *)regs->rsp - 1;
	struct task *t = current;
	struct kretprobe_instance *first = t->kretprobe_instances, *last, *ri;

	for (last = first; last; last = last->llist)
		if (last->fp == fp &&
		    (unsigned long)last->ret_addr != (unsigned long)__kretprobe_trampoline)
			break;
	if (!last)
		panic("kretprobe: no instance for the return through slot %px", fp);
	unsigned long real = (unsigned long)last->ret_addr;

	*fp = real; /* the trampoline's frame now returns there: backtraces in handlers are right */
	regs->rip = real;
	regs->cs = GDT_KERNEL_CS;
	for (ri = first;; ri = ri->llist) {
		if (ri->fp == fp)
			kretprobe_call_handler(ri, regs);
		if (ri == last)
			break;
	}
	/* Off the task's list (after the handlers, as Linux: an unwinder in one finds them). */
	WRITE_ONCE(t->kretprobe_instances, last->llist);
	for (ri = first;;) {
		struct kretprobe_instance *next = ri->llist;

		recycle_rp_inst(ri);
		if (ri == last)
			break;
		ri = next;
	}
	return real;
}

/*
 * Called from __kretprobe_trampoline: see its comment. Returns the real return address.
 *
 * This task's newest instances are the returning call's (calls nest): those whose fp is the
 * slot, down to the one that holds the real address (several kretprobes on one function each
 * took the slot in turn, each later one saving the trampoline's address). Instances above them
 * with another fp are of calls that never returned (none in Lucid: no longjmp in the kernel);
 * they are dropped as Linux 6.1 would warn and drop them. The usual case, one instance, the
 * newest, is taken without the walk.
 *
 * Interrupts stay as the function returned with them (on, mostly), as Linux 6.1's rethook
 * trampoline leaves them: only preemption is off, which keeps this CPU's kprobe_ctlblk ours
 * while a handler runs. So a handler's record says what the probed code's context was (no
 * irqs-off 'd' where Linux has none). An interrupt that hits a probe meanwhile finds
 * current_kprobe set and is a miss (ftrace path) or a one-level reentry (int3 path), as it is
 * under kprobe_ftrace_handler, which runs with interrupts on too; one that hits a kretprobe
 * (the miss aside) pushes and pops its instance before we go on.
 */
notrace unsigned long kretprobe_trampoline_handler(struct pt_regs *regs)
{
	unsigned long *fp = (unsigned long *)regs->rsp - 1;
	struct task *t = current;
	struct kretprobe_instance *ri = t->kretprobe_instances;
	unsigned long real;

	preempt_count_add(1);
	if (unlikely(!ri || ri->fp != fp ||
		     (unsigned long)ri->ret_addr == (unsigned long)__kretprobe_trampoline)) {
		real = kretprobe_trampoline_handler_slow(regs);
	} else {
		real = (unsigned long)ri->ret_addr;
		*fp = real; /* as the slow path's */
		regs->rip = real;
		regs->cs = GDT_KERNEL_CS;
		kretprobe_call_handler(ri, regs);
		WRITE_ONCE(t->kretprobe_instances, ri->llist);
		recycle_rp_inst(ri);
	}
	preempt_count_sub(1);
	return real;
}

void kprobe_flush_task(struct task *t)
{
	struct kretprobe_instance *ri = t->kretprobe_instances;

	t->kretprobe_instances = NULL;
	preempt_disable(); /* recycle_rp_inst's rule */
	while (ri) {
		struct kretprobe_instance *next = ri->llist;

		recycle_rp_inst(ri);
		ri = next;
	}
	preempt_enable();
}

/*
 * For unwinders: the real return address of the slot, from t's instances (no lock: they may
 * run in an oops; instances are never freed while in flight, so a racing walk of another
 * task's list reads stale but valid memory, and the guard ends it).
 */
notrace unsigned long kretprobe_find_ret_addr(struct task *t, unsigned long ret,
					      unsigned long *slot)
{
	int guard = KRETPROBE_MAXACTIVE_MAX;

	if (ret != (unsigned long)__kretprobe_trampoline || !t)
		return ret;
	for (struct kretprobe_instance *ri = READ_ONCE(t->kretprobe_instances); ri && guard--;
	     ri = READ_ONCE(ri->llist))
		if (ri->fp == slot &&
		    (unsigned long)ri->ret_addr != (unsigned long)__kretprobe_trampoline)
			return (unsigned long)ri->ret_addr;
	return ret;
}

notrace unsigned long unwind_recover_ret_addr(struct task *t, unsigned long ret,
					      unsigned long *slot)
{
	/* Either may have borrowed the slot first: undo both, in whichever order. */
	ret = ftrace_graph_ret_addr(t, ret, slot);
	ret = kretprobe_find_ret_addr(t, ret, slot);
	return ftrace_graph_ret_addr(t, ret, slot);
}

int register_kretprobe(struct kretprobe *rp)
{
	free_dead_kretprobe_holders();
	int ret = kprobe_on_func_entry(rp->kp.addr, rp->kp.symbol_name, rp->kp.offset);

	if (ret)
		return ret;
	if (rp->maxactive > KRETPROBE_MAXACTIVE_MAX)
		return -E2BIG;
	if (rp->maxactive <= 0)
		rp->maxactive = KRETPROBE_DEFAULT_MAXACTIVE;
	size_t isize = ALIGN_UP(sizeof(struct kretprobe_instance) + rp->data_size, 8);
	struct kretprobe_holder *rph = kzalloc(sizeof(*rph));
	char *mem = kzalloc(isize * (size_t)rp->maxactive);

	if (!rph || !mem) {
		kfree(rph);
		kfree(mem);
		return -ENOMEM;
	}
	rph->mem = mem;
	rph->rp = rp;
	rph->refs = rp->maxactive + 1; /* each instance, and the registration */
	for (int i = 0; i < rp->maxactive; i++) {
		struct kretprobe_instance *ri = (void *)(mem + (size_t)i * isize);

		ri->rph = rph;
		freelist_add(&ri->freelist, &rph->freelist);
	}
	struct kretprobe_holder *old = rp->rph; /* a registered rp's: register_kprobe refuses it */

	rp->rph = rph;
	rp->nmissed = 0;
	rp->kp.pre_handler = pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	ret = register_kprobe(&rp->kp);
	if (ret) {
		rp->rph = old;
		kfree(mem);
		kfree(rph);
	}
	return ret;
}

void unregister_kretprobe(struct kretprobe *rp)
{
	struct kretprobe_holder *rph = rp->rph;

	if (!rph)
		return;
	unregister_kprobe(&rp->kp); /* no pre_handler_kretprobe of rp runs after this */
	WRITE_ONCE(rph->rp, NULL);
	/* No trampoline handler still runs rp's handler, nor recycles onto the free list. */
	synchronize_sched();
	/* Retire the free instances; those in flight retire as they come back. */
	while (freelist_try_get(&rph->freelist))
		kretprobe_holder_put(rph);
	kretprobe_holder_put(rph); /* the registration's */
	rp->rph = NULL;
	free_dead_kretprobe_holders();
}

/* --- /sys/kernel/debug/kprobes ------------------------------------------------------------ */

/* One line of list, as Linux's report_probe. */
static void report_probe(struct seq_file *m, struct kprobe *p, struct kprobe *ap)
{
	const char *name, *modname;
	unsigned long start;
	const char *type = p->pre_handler == pre_handler_kretprobe ? "r" : "k";

	if (kallsyms_lookup_mod((unsigned long)p->addr, &name, &start, NULL, &modname))
		seq_printf(m, "%px  %s  %s+0x%lx  %s ", (void *)p->addr, type, name,
			   (unsigned long)p->addr - start, modname ? modname : " ");
	else
		seq_printf(m, "%px  %s  %pS ", (void *)p->addr, type, (void *)p->addr);
	seq_printf(m, "%s%s%s%s\n", kprobe_gone(p) ? "[GONE]" : "",
		   kprobe_disabled(p) && !kprobe_gone(p) ? "[DISABLED]" : "",
		   ap->flags & KPROBE_FLAG_OPTIMIZED ? "[OPTIMIZED]" : "",
		   kprobe_ftrace(ap) ? "[FTRACE]" : "");
}

static int kprobes_list_show(struct seq_file *m, void *v)
{
	(void)v;
	mutex_lock(&kprobe_mutex);
	for (int h = 0; h < KPROBE_TABLE_SIZE; h++)
		for (struct kprobe *ap = kprobe_table[h]; ap; ap = ap->hnext)
			for (struct kprobe *c = ap->list; c; c = c->list)
				report_probe(m, c, ap);
	mutex_unlock(&kprobe_mutex);
	return 0;
}

static int kprobes_blacklist_show(struct seq_file *m, void *v)
{
	(void)v;
	for (int i = 0; i < blacklist_len; i++)
		seq_printf(m, "0x%px-0x%px\t%ps\n", (void *)blacklist[i].start_addr,
			   (void *)blacklist[i].end_addr, (void *)blacklist[i].start_addr);
	return 0;
}

static int kprobes_list_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, kprobes_list_show, NULL);
}

static int kprobes_blacklist_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, kprobes_blacklist_show, NULL);
}

static const struct file_operations kprobes_list_fops = {
	.open = kprobes_list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations kprobes_blacklist_fops = {
	.open = kprobes_blacklist_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

void debugfs_kprobe_init(void)
{
	struct dentry *dir = debugfs_create_dir("kprobes", NULL);

	if (!dir || !debugfs_create_file("list", 0400, dir, NULL, &kprobes_list_fops) ||
	    !debugfs_create_file("blacklist", 0400, dir, NULL, &kprobes_blacklist_fops))
		printk(KERN_WARNING "kprobes: cannot create /sys/kernel/debug/kprobes\n");
}

void init_kprobes(void)
{
	populate_kprobe_blacklist();
	arch_init_kprobes();
}

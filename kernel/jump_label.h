/*
 * Static keys (jump labels): a branch that costs one NOP while it is off (Linux's
 * include/linux/jump_label.h, same names; docs/design/static-keys.md explains the mechanism).
 *
 * Some checks sit on the hottest paths and are nearly always false: "is a latency tracer
 * listening to this interrupt toggle?", "is a probe attached to this tracepoint?". Even a
 * compare with memory and a branch predicted not taken costs two instructions each time. A
 * static key makes the test part of the code instead: the site is a 5-byte NOP, and turning
 * the key on rewrites it, at every place that tests the key, into a jump to the rare path.
 *
 *     DEFINE_STATIC_KEY_FALSE(my_key);          // off at boot
 *
 *     if (static_branch_unlikely(&my_key))      // a NOP while off
 *             do_rare_thing();
 *
 *     static_branch_enable(&my_key);            // every site becomes a JMP; may sleep
 *     static_branch_inc(&my_key);               // counted: on while the count is above 0
 *
 * static_branch_likely() lays the code out for the key being on (its true path falls through);
 * with a _FALSE key its site starts as a jump, and enabling the key turns it into a NOP. Either
 * way the test returns the key's state, once every site has been patched.
 *
 * Changing a key is slow (it patches code on every CPU, kernel/jump_label.c) and sleeps: only
 * from task context, never with a spin lock held or interrupts off. Reading one is free.
 */
#ifndef KERNEL_JUMP_LABEL_H
#define KERNEL_JUMP_LABEL_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/compiler.h"

struct static_key {
	int enabled; /* 0 off, above 0 on (the count of static_key_slow_inc) */
};

/* The typed keys: what the key is at boot decides how static_branch_*() lays out the code. */
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};

#define DEFINE_STATIC_KEY_TRUE(name) struct static_key_true name = {.key = {.enabled = 1}}
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = {.key = {.enabled = 0}}
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name

/*
 * One entry of __jump_table: the site (code), where its jump goes (target), and the key, whose
 * address's low bit (`branch`) says which way the site was written: it must jump while
 * (key enabled) != branch. So a static_branch_unlikely() site (branch 0) jumps while the key is
 * on, a static_branch_likely() site (branch 1) while it is off.
 */
struct jump_entry {
	unsigned long code;
	unsigned long target;
	unsigned long key; /* struct static_key *, | 1 for branch */
};

#define JUMP_ENTRY_BRANCH 1UL

static inline struct static_key *jump_entry_key(const struct jump_entry *e)
{
	return (struct static_key *)(e->key & ~JUMP_ENTRY_BRANCH);
}

static inline bool jump_entry_is_branch(const struct jump_entry *e)
{
	return e->key & JUMP_ENTRY_BRANCH;
}

enum jump_label_type {
	JUMP_LABEL_NOP = 0,
	JUMP_LABEL_JMP,
};

static inline int static_key_count(const struct static_key *key)
{
	return __atomic_load_n(&key->enabled, __ATOMIC_RELAXED);
}

/* Any of the three key types: is it on? A plain read, for the slow paths. */
#define static_key_enabled(x) (static_key_count((const struct static_key *)(x)) > 0)

#ifdef LUCID_HOST
/* Host unit tests: no patched code, just the state (the same semantics, tested as C). */
#define static_branch_likely(x) likely(static_key_enabled(&(x)->key))
#define static_branch_unlikely(x) unlikely(static_key_enabled(&(x)->key))
#define static_key_false(k) unlikely(static_key_enabled(k))
static inline void static_key_slow_inc(struct static_key *key)
{
	__atomic_add_fetch(&key->enabled, 1, __ATOMIC_SEQ_CST);
}
static inline void static_key_slow_dec(struct static_key *key)
{
	__atomic_sub_fetch(&key->enabled, 1, __ATOMIC_SEQ_CST);
}
static inline void static_key_enable(struct static_key *key)
{
	__atomic_store_n(&key->enabled, 1, __ATOMIC_SEQ_CST);
}
static inline void static_key_disable(struct static_key *key)
{
	__atomic_store_n(&key->enabled, 0, __ATOMIC_SEQ_CST);
}
#else
#include "arch/x86_64/jump_label.h"

/*
 * The typed tests, as Linux's: which instruction a site starts as follows from the key's type
 * (its state at boot) and the branch's expected direction, so that nothing has to be patched at
 * boot. A key of any other type does not compile (the __builtin_types_compatible_p chain ends
 * in a call to a function that does not exist).
 */
extern bool ____wrong_branch_error(void);

#define static_branch_likely(x)                                                                   \
	({                                                                                        \
		bool branch;                                                                      \
		if (__builtin_types_compatible_p(__typeof__(*(x)), struct static_key_true))       \
			branch = !arch_static_branch(&(x)->key, true);                            \
		else if (__builtin_types_compatible_p(__typeof__(*(x)), struct static_key_false)) \
			branch = !arch_static_branch_jump(&(x)->key, true);                       \
		else                                                                              \
			branch = ____wrong_branch_error();                                        \
		likely(branch);                                                                   \
	})

#define static_branch_unlikely(x)                                                                 \
	({                                                                                        \
		bool branch;                                                                      \
		if (__builtin_types_compatible_p(__typeof__(*(x)), struct static_key_true))       \
			branch = arch_static_branch_jump(&(x)->key, false);                       \
		else if (__builtin_types_compatible_p(__typeof__(*(x)), struct static_key_false)) \
			branch = arch_static_branch(&(x)->key, false);                            \
		else                                                                              \
			branch = ____wrong_branch_error();                                        \
		unlikely(branch);                                                                 \
	})

/* The untyped test of a key off at boot (Linux's older API, which its tracepoints use). */
static __always_inline bool static_key_false(struct static_key *key)
{
	return arch_static_branch(key, false);
}

/*
 * Changing a key (kernel/jump_label.c): task context, may sleep. enable/disable set it on or
 * off; slow_inc/slow_dec count users, the sites changing only on 0 -> 1 and 1 -> 0.
 */
void static_key_enable(struct static_key *key);
void static_key_disable(struct static_key *key);
void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);

/* The architecture's part (arch/x86_64/jump_label.c): the bytes of each state, and a check. */
void arch_jump_label_make_insn(const struct jump_entry *e, enum jump_label_type type,
			       uint8_t insn[JUMP_LABEL_NOP_SIZE]);
bool arch_jump_label_site_is(const struct jump_entry *e, enum jump_label_type type);

/* Boot: sorts the kernel's table and checks every site holds what its entry says. */
void jump_label_init(void);
/* Does [start, end] overlap a site? Kprobes refuse those (-EBUSY), as Linux's. */
bool jump_label_text_reserved(unsigned long start, unsigned long end);
/*
 * How many sites a key has, in the kernel and the loaded modules; *wrong: how many of them do
 * not hold what the key's state says; *first (if not NULL): the lowest site's address. For the
 * self-tests (kernel/debug/test_static_keys.c, tests/modules/test_static_keys.c).
 */
int jump_label_count_sites(const struct static_key *key, int *wrong, unsigned long *first);

struct module;
/*
 * A module's sites: checked (before it is formed: a bad table fails the load), added once its
 * text is executable and before any of it runs (patched to its keys' state), deleted when it
 * goes (its sites are no longer patched).
 */
int jump_label_check_module(struct module *mod);
void jump_label_add_module(struct module *mod);
void jump_label_del_module(struct module *mod);
#endif

#define static_branch_enable(x) static_key_enable(&(x)->key)
#define static_branch_disable(x) static_key_disable(&(x)->key)
#define static_branch_inc(x) static_key_slow_inc(&(x)->key)
#define static_branch_dec(x) static_key_slow_dec(&(x)->key)

#endif

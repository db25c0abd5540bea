/*
 * test_static_keys: the static key API tested from a module, as Linux's lib/test_static_keys.c
 * (tools/testing/selftests/static_keys runs it the same way):
 *
 *     [~]# insmod test_static_key_base; insmod test_static_keys && echo static_key: ok
 *     static_key: ok
 *
 * Its init checks keys of its own, the base module's (exported), with branches both here and
 * there: each branch says its key's state, and every site of the key, in the kernel and in
 * each module, holds the instruction that state needs (jump_label_count_sites). Then it turns
 * every key the other way and checks again, and back. Any difference fails the load (-EINVAL)
 * and dmesg says which key.
 */
#include "kernel/jump_label.h"
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "lib/errno.h"

DECLARE_STATIC_KEY_TRUE(base_true_key);
DECLARE_STATIC_KEY_FALSE(base_false_key);
bool base_true_key_likely(void);
bool base_false_key_unlikely(void);

static DEFINE_STATIC_KEY_TRUE(own_true_key);
static DEFINE_STATIC_KEY_FALSE(own_false_key);

static noinline bool own_true_likely(void)
{
	return static_branch_likely(&own_true_key);
}
static noinline bool own_true_unlikely(void)
{
	return static_branch_unlikely(&own_true_key);
}
static noinline bool own_false_likely(void)
{
	return static_branch_likely(&own_false_key);
}
static noinline bool own_false_unlikely(void)
{
	return static_branch_unlikely(&own_false_key);
}
static noinline bool base_true_unlikely_here(void)
{
	return static_branch_unlikely(&base_true_key);
}
static noinline bool base_false_likely_here(void)
{
	return static_branch_likely(&base_false_key);
}

struct test_key {
	const char *name;
	struct static_key *key;
	bool init_state; /* as defined */
	bool (*branch)(void);
	int sites; /* how many sites the key has, here and in the base module */
};

static struct test_key keys[] = {
	{"own_true_key (likely)", &own_true_key.key, true, own_true_likely, 2},
	{"own_true_key (unlikely)", &own_true_key.key, true, own_true_unlikely, 2},
	{"own_false_key (likely)", &own_false_key.key, false, own_false_likely, 2},
	{"own_false_key (unlikely)", &own_false_key.key, false, own_false_unlikely, 2},
	{"base_true_key (in base)", &base_true_key.key, true, base_true_key_likely, 2},
	{"base_true_key (here)", &base_true_key.key, true, base_true_unlikely_here, 2},
	{"base_false_key (in base)", &base_false_key.key, false, base_false_key_unlikely, 2},
	{"base_false_key (here)", &base_false_key.key, false, base_false_likely_here, 2},
};

/* Every key in the state its definition gave it, or the other (flipped). */
static int check_keys(bool flipped)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct test_key *t = &keys[i];
		bool want = t->init_state != flipped;
		int wrong = -1;
		int sites = jump_label_count_sites(t->key, &wrong, NULL);

		if (static_key_enabled(t->key) != want || t->branch() != want ||
		    sites != t->sites || wrong != 0) {
			printk(KERN_ERR "test_static_keys: %s: enabled %d, branch %d, want %d; "
					"%d sites (want %d), %d not patched as the key is\n",
			       t->name, static_key_enabled(t->key), t->branch(), want, sites,
			       t->sites, wrong);
			return -EINVAL;
		}
	}
	return 0;
}

/* Each key once, whichever entries of the table share it. */
static void flip_keys(bool to_flipped)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(keys); i += 2) {
		bool on = keys[i].init_state != to_flipped;

		if (on)
			static_key_enable(keys[i].key);
		else
			static_key_disable(keys[i].key);
	}
}

static int test_static_keys_init(void)
{
	int ret = check_keys(false);

	if (!ret) {
		flip_keys(true);
		ret = check_keys(true);
	}
	flip_keys(false);
	if (!ret)
		ret = check_keys(false);
	if (!ret)
		printk(KERN_INFO "test_static_keys: %zu branches on 4 keys in 2 modules: passed\n",
		       ARRAY_SIZE(keys));
	return ret;
}

static void test_static_keys_exit(void)
{
}

module_init(test_static_keys_init);
module_exit(test_static_keys_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static keys test, as Linux's lib/test_static_keys.c");

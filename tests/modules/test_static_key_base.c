/*
 * test_static_key_base: keys for tests/modules/test_static_keys.c to use from another module
 * (Linux's lib/test_static_key_base.c has the same part).
 *
 * It defines and exports one key of each type, and one branch on each, here. The other module
 * changes the keys: the sites in this module, loaded earlier, must follow (kernel/jump_label.c
 * patches every loaded module's sites of a key), and so must the other module's own sites on
 * these keys, which were patched to the keys' state when it loaded.
 */
#include "kernel/jump_label.h"
#include "kernel/module/module.h"

DEFINE_STATIC_KEY_TRUE(base_true_key);
EXPORT_SYMBOL(base_true_key);
DEFINE_STATIC_KEY_FALSE(base_false_key);
EXPORT_SYMBOL(base_false_key);

/* The branches in this module: what each key's sites here say now. */
noinline bool base_true_key_likely(void)
{
	return static_branch_likely(&base_true_key);
}
EXPORT_SYMBOL(base_true_key_likely);

noinline bool base_false_key_unlikely(void)
{
	return static_branch_unlikely(&base_false_key);
}
EXPORT_SYMBOL(base_false_key_unlikely);

static int base_init(void)
{
	return 0;
}

static void base_exit(void)
{
}

module_init(base_init);
module_exit(base_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static keys exported for test_static_keys");

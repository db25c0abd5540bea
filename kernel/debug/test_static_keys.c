/*
 * The static keys boot self-test (boot option `static_keys_selftest`; Linux tests the same API
 * from a module, lib/test_static_keys.c, as tests/modules/test_static_keys.c does here). It prints
 * "Testing static keys: PASSED" or says what failed.
 *
 * What it checks, on two keys of its own (one of each type) and the two tests of each:
 *   - the branch returns the key's state, before and after every change, and each site holds
 *     exactly the instruction that state needs (NOP or JMP, kernel/jump_label.c);
 *   - enable/disable, and the counted inc/dec (on from the first inc to the last dec);
 *   - a kprobe on a site is refused (-EINVAL): its int3 would be overwritten by the patching;
 *   - SMP: while the key flips, a thread on every other CPU runs the branch without pause and
 *     checks that, whenever it ran the branch wholly between two changes, it got the state of
 *     the key then: static_key_enable() returns only once every CPU runs the new code.
 */
#include "kernel/debug/test_static_keys.h"
#include "kernel/jump_label.h"
#include "kernel/kprobes.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

static DEFINE_STATIC_KEY_FALSE(selftest_false_key);
static DEFINE_STATIC_KEY_TRUE(selftest_true_key);

/* Out of line, so each is one site whose bytes are exactly what runs. */
static noinline bool false_unlikely(void)
{
	return static_branch_unlikely(&selftest_false_key);
}
static noinline bool false_likely(void)
{
	return static_branch_likely(&selftest_false_key);
}
static noinline bool true_unlikely(void)
{
	return static_branch_unlikely(&selftest_true_key);
}
static noinline bool true_likely(void)
{
	return static_branch_likely(&selftest_true_key);
}

#define SITES_PER_KEY 2 /* the two functions above, for each key */
#define SMP_FLIPS 40 /* changes of the key while the other CPUs run its branch */

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			printk(KERN_ERR "static keys selftest: %s:%d: %s\n", __FILE__, __LINE__, \
			       #cond);                                                           \
			return false;                                                            \
		}                                                                                \
	} while (0)

/* Both branches of both keys say what the keys are, and every site agrees. */
static bool check_state(bool false_key_on, bool true_key_on)
{
	int wrong = -1;

	CHECK(static_key_enabled(&selftest_false_key) == false_key_on);
	CHECK(false_unlikely() == false_key_on);
	CHECK(false_likely() == false_key_on);
	CHECK(jump_label_count_sites(&selftest_false_key.key, &wrong, NULL) == SITES_PER_KEY);
	CHECK(wrong == 0);
	CHECK(static_key_enabled(&selftest_true_key) == true_key_on);
	CHECK(true_unlikely() == true_key_on);
	CHECK(true_likely() == true_key_on);
	CHECK(jump_label_count_sites(&selftest_true_key.key, &wrong, NULL) == SITES_PER_KEY);
	CHECK(wrong == 0);
	return true;
}

static bool api_selftest(void)
{
	CHECK(check_state(false, true)); /* as defined */
	static_branch_enable(&selftest_false_key);
	CHECK(check_state(true, true));
	static_branch_enable(&selftest_false_key); /* already on: stays on */
	CHECK(check_state(true, true));
	static_branch_disable(&selftest_false_key);
	CHECK(check_state(false, true));
	static_branch_disable(&selftest_true_key);
	CHECK(check_state(false, false));
	static_branch_enable(&selftest_true_key);
	CHECK(check_state(false, true));
	/* Counted: on from the first inc to the last dec. */
	static_branch_inc(&selftest_false_key);
	static_branch_inc(&selftest_false_key);
	CHECK(check_state(true, true));
	static_branch_dec(&selftest_false_key);
	CHECK(check_state(true, true));
	static_branch_dec(&selftest_false_key);
	CHECK(check_state(false, true));
	return true;
}

static bool kprobe_selftest_refused(void)
{
	unsigned long site = 0;
	int wrong;

	CHECK(jump_label_count_sites(&selftest_false_key.key, &wrong, &site) == SITES_PER_KEY);
	struct kprobe kp = {.addr = (kprobe_opcode_t *)site};
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	CHECK(ret == -EINVAL);
	return true;
}

/*
 * The SMP check. smp_seq is odd while the key is stable, even while it changes: 1 before the
 * first change, 2i + 3 once change i is done (change i turns the key on for an even i, off for
 * an odd one). A reader that saw the same odd seq before and after running the branch ran it
 * wholly inside that stable time, so it must have got the key's state then.
 */
static unsigned long smp_seq = 1;
static bool smp_stop;
static unsigned long smp_errors, smp_checks;

static bool smp_state(unsigned long seq)
{
	return seq >= 3 && ((seq - 3) / 2) % 2 == 0;
}

static int smp_reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&smp_stop, __ATOMIC_ACQUIRE)) {
		unsigned long s = __atomic_load_n(&smp_seq, __ATOMIC_ACQUIRE);
		bool got = false_unlikely();
		unsigned long s2 = __atomic_load_n(&smp_seq, __ATOMIC_ACQUIRE);

		if (s != s2 || !(s & 1))
			continue;
		__atomic_add_fetch(&smp_checks, 1, __ATOMIC_RELAXED);
		if (got != smp_state(s))
			__atomic_add_fetch(&smp_errors, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static bool smp_selftest(void)
{
	struct task *readers[NR_CPUS] = {0};
	int me = smp_processor_id();

	for (int cpu = 0; cpu < num_possible_cpus() && cpu < NR_CPUS; cpu++) {
		if (cpu == me)
			continue;
		readers[cpu] = kthread_create_on_cpu(smp_reader, NULL, cpu, "static_keys_test");
		if (readers[cpu])
			wake_up_new_task(readers[cpu]);
	}
	for (int i = 0; i < SMP_FLIPS; i++) {
		__atomic_add_fetch(&smp_seq, 1, __ATOMIC_RELEASE); /* even: changing */
		if (i % 2 == 0)
			static_branch_enable(&selftest_false_key);
		else
			static_branch_disable(&selftest_false_key);
		__atomic_add_fetch(&smp_seq, 1, __ATOMIC_RELEASE); /* 2i + 3: stable */
		yield(); /* the readers may share this CPU's time too */
	}
	__atomic_store_n(&smp_stop, true, __ATOMIC_RELEASE);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (readers[cpu])
			kthread_join(readers[cpu]);
	printk(KERN_INFO "static keys selftest: %d changes, %lu reads checked on other CPUs\n",
	       SMP_FLIPS, smp_checks);
	CHECK(smp_errors == 0);
	CHECK(check_state(false, true)); /* an even number of changes: off again */
	return true;
}

bool static_keys_selftest(void)
{
	bool ok = api_selftest() && kprobe_selftest_refused() && smp_selftest();

	printk(KERN_INFO "Testing static keys: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}

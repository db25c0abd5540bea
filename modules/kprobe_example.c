/*
 * kprobe_example: Linux's samples/kprobes (kprobe_example.c and kretprobe_example.c) in one
 * module. At load it plants, on sys_getpid (what getpid(2) runs):
 *
 *   - a kprobe on its entry, which rides on ftrace ("[FTRACE]" in the list),
 *   - a kprobe on its second instruction, an int3 stepped out of line: the offset is found
 *     the way a user would, by trying offsets until register_kprobe stops saying -EILSEQ,
 *   - a kretprobe, whose handler checks the value getpid returns,
 *
 * and, if the module foo is loaded, a kprobe on foo's foo_exit ("foo:foo_exit"): unload foo
 * first, and that probe stays registered but gone ("[GONE]"), as on Linux. At unload it says
 * how often each fired:
 *
 *     [~]# insmod kprobe_example; cat /sys/kernel/debug/kprobes/list
 *     ffffffff8012a5e0  k  sys_getpid+0x0    [FTRACE]
 *     ffffffff8012a5e0  r  sys_getpid+0x0    [FTRACE]
 *     ffffffff8012a5e5  k  sys_getpid+0x5
 *     [~]# rmmod kprobe_example; dmesg | tail -1
 *     kprobe_example: sys_getpid: entry 3, inner 3, returned 3 (pid right 3), missed 0
 */
#include "kernel/kprobes.h"
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

#define SYMBOL "sys_getpid"
#define MAX_TRY_OFFSET 16 /* longer than any x86 instruction */

static unsigned long entry_hits, inner_hits, post_hits, ret_hits, ret_right;

static int entry_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	entry_hits++;
	return 0;
}

static int inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	inner_hits++;
	return 0;
}

static void inner_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
	post_hits++;
}

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	ret_hits++;
	if ((long)regs_return_value(regs) == current->pid)
		ret_right++;
	return 0;
}

static int foo_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

static struct kprobe kp_entry = {.symbol_name = SYMBOL, .pre_handler = entry_pre};
static struct kprobe kp_inner = {.symbol_name = SYMBOL,
				 .pre_handler = inner_pre,
				 .post_handler = inner_post};
static struct kretprobe rp = {.kp.symbol_name = SYMBOL, .handler = ret_handler, .maxactive = 20};
static struct kprobe kp_foo = {.symbol_name = "foo:foo_exit", .pre_handler = foo_pre};
static bool foo_planted;

static int kprobe_example_init(void)
{
	int ret = register_kprobe(&kp_entry);

	if (ret < 0) {
		printk(KERN_ERR "kprobe_example: register_kprobe(%s) returned %d\n", SYMBOL, ret);
		return ret;
	}
	/* The second instruction: the first offset past the entry that is a boundary. */
	ret = -EILSEQ;
	for (unsigned int off = 1; off < MAX_TRY_OFFSET && ret == -EILSEQ; off++) {
		kp_inner.addr = NULL;
		kp_inner.symbol_name = SYMBOL;
		kp_inner.offset = off;
		ret = register_kprobe(&kp_inner);
	}
	if (ret < 0) {
		printk(KERN_ERR "kprobe_example: no inner instruction of %s: %d\n", SYMBOL, ret);
		unregister_kprobe(&kp_entry);
		return ret;
	}
	ret = register_kretprobe(&rp);
	if (ret < 0) {
		printk(KERN_ERR "kprobe_example: register_kretprobe(%s) returned %d\n", SYMBOL, ret);
		unregister_kprobe(&kp_inner);
		unregister_kprobe(&kp_entry);
		return ret;
	}
	foo_planted = register_kprobe(&kp_foo) == 0;
	printk(KERN_INFO "kprobe_example: planted kprobes at %pS and %pS, a kretprobe on %s%s\n",
	       (void *)kp_entry.addr, (void *)kp_inner.addr, SYMBOL,
	       foo_planted ? ", and a kprobe on foo:foo_exit" : "");
	return 0;
}

static void kprobe_example_exit(void)
{
	if (foo_planted)
		unregister_kprobe(&kp_foo);
	unregister_kretprobe(&rp);
	unregister_kprobe(&kp_inner);
	unregister_kprobe(&kp_entry);
	printk(KERN_INFO
	       "kprobe_example: %s: entry %lu, inner %lu (post %lu), returned %lu (pid right %lu), "
	       "missed %lu\n",
	       SYMBOL, entry_hits, inner_hits, post_hits, ret_hits, ret_right,
	       kp_entry.nmissed + kp_inner.nmissed + rp.kp.nmissed + (unsigned long)rp.nmissed);
}

module_init(kprobe_example_init);
module_exit(kprobe_example_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Linux's kprobe and kretprobe samples: probes on sys_getpid");

/*
 * Kprobes: run a handler when the CPU reaches (almost) any kernel instruction, and kretprobes:
 * when a function returns (kernel/kprobes.c, arch/x86_64/kprobes/). The API is the subset of
 * Linux 6.1's include/linux/kprobes.h that Lucid implements, with the same names, signatures
 * and rules, so code written against one reads the same against the other:
 *
 *	static int pre(struct kprobe *p, struct pt_regs *regs) { ...; return 0; }
 *	static struct kprobe kp = { .symbol_name = "do_sys_openat2", .pre_handler = pre };
 *	register_kprobe(&kp);	  0, or -EINVAL (blacklisted, not text, registered already, an
 *				  instruction that cannot be stepped, a static branch's site:
 *				  kernel/jump_label.h), -EILSEQ (not on an instruction
 *				  boundary), -ENOENT (no such symbol), -ENOMEM
 *	...
 *	unregister_kprobe(&kp);	  after it returns no handler of kp runs any more
 *
 * Handlers must not sleep. On the int3 path they run in the #BP/#DB handlers, interrupts off,
 * in NMI context as Linux's (in_nmi()); on the ftrace path and in a kretprobe's handler,
 * preemption is off. A probe hit while a handler runs on the same CPU is not reported: its
 * nmissed counts it. A pre_handler that returns nonzero says it changed regs->ip: the probed
 * instruction is then not run, and the CPU goes on where regs->ip says.
 *
 * A probe on a function's first instruction (its ftrace call site) rides on ftrace, as Linux's
 * KPROBES_ON_FTRACE, through ftrace_regs_caller: regs->ip is then the probed address + 1 in the
 * pre_handler (as after an int3), and every register and the flags are the function's, RSP
 * pointing at its return address (arch/x86_64/kprobes/ftrace.c).
 */
#ifndef KERNEL_KPROBES_H
#define KERNEL_KPROBES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "arch/x86_64/ptrace.h"
#include "kernel/percpu.h" /* NR_CPUS */
#include "lib/compiler.h"
#include "lib/freelist.h"

struct kprobe;
struct kretprobe_holder;
struct task;
struct kretprobe;
struct kretprobe_instance;

typedef uint8_t kprobe_opcode_t;

/* The longest x86 instruction: what an out-of-line slot holds (arch/x86_64/kprobes/core.c). */
#define MAX_INSN_SIZE 16

typedef int (*kprobe_pre_handler_t)(struct kprobe *, struct pt_regs *);
typedef void (*kprobe_post_handler_t)(struct kprobe *, struct pt_regs *, unsigned long flags);
typedef int (*kretprobe_handler_t)(struct kretprobe_instance *, struct pt_regs *);

/* What the architecture keeps about the probed instruction (Linux's arch_specific_insn). */
struct arch_specific_insn {
	kprobe_opcode_t *insn; /* the copy, in an executable out-of-line slot; NULL on ftrace */
	uint8_t len; /* the probed instruction's length */
	bool if_modifier; /* (unused: such instructions are refused) */
	uint8_t fixups; /* KPROBE_FIX_* (arch/x86_64/kprobes/core.c) */
};

struct kprobe {
	struct kprobe *hnext; /* on the hash chain of its address (kernel/kprobes.c) */
	struct kprobe *list; /* further probes on the same address (an aggregate's) */
	struct kprobe *next; /* on the list of every registered probe, for debugfs */

	/* Hits not reported: the probe fired while a handler was running on this CPU. */
	unsigned long nmissed;

	/* Where: addr, or symbol_name + offset (one of the two ways, not both). */
	kprobe_opcode_t *addr;
	const char *symbol_name;
	unsigned int offset;

	/* Called before the probed instruction runs; return 0 (1: "I changed regs->ip"). */
	kprobe_pre_handler_t pre_handler;
	/* Called after it ran (the single step), with regs as the instruction left them. */
	kprobe_post_handler_t post_handler;

	kprobe_opcode_t opcode; /* the probed instruction's first byte, under the int3 */
	struct arch_specific_insn ainsn;

	uint32_t flags; /* KPROBE_FLAG_* */
};

/* The probe's function was removed (its module unloaded): it stays registered but never fires. */
#define KPROBE_FLAG_GONE 1
/* Registered but not armed: disable_kprobe(), or created with this flag set. */
#define KPROBE_FLAG_DISABLED 2
#define KPROBE_FLAG_OPTIMIZED 4 /* Linux's jump optimisation; never set by Lucid */
/* On a function's ftrace call site: it rides on ftrace, no int3 (set by register_kprobe). */
#define KPROBE_FLAG_FTRACE 8

static inline bool kprobe_gone(const struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_GONE;
}

static inline bool kprobe_disabled(const struct kprobe *p)
{
	return p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE);
}

static inline bool kprobe_ftrace(const struct kprobe *p)
{
	return p->flags & KPROBE_FLAG_FTRACE;
}

/*
 * A kretprobe: kp sits on the function's entry; each call takes a free instance (maxactive of
 * them, default max(10, 2 * NR_CPUS)), records the real return address there and puts the
 * trampoline's in its place. When the function returns, handler runs with regs->ax the return
 * value and regs->ip the real return address. entry_handler (if set) runs at the entry; a
 * nonzero return from it gives the instance back, and handler does not run for that call.
 * No free instance at the entry: nmissed counts the call.
 */
struct kretprobe {
	struct kprobe kp;
	kretprobe_handler_t handler;
	kretprobe_handler_t entry_handler;
	int maxactive;
	int nmissed;
	size_t data_size; /* bytes of private data each instance carries (ri->data) */
	struct kretprobe_holder *rph; /* the instances (kernel/kprobes.c) */
};

/* The default maxactive when the caller gives 0 or less (Linux: max(10, 2 * NR_CPUS)). */
#define KRETPROBE_DEFAULT_MAXACTIVE MAX(10, 2 * NR_CPUS)
#define KRETPROBE_MAXACTIVE_MAX 4096 /* as Linux's trace_kprobe limit */

/*
 * One call in flight: where it returns to, and the kretprobe's private data. Free, it is on
 * its kretprobe's free list (freelist); in flight, on its task's list (llist, from
 * task->kretprobe_instances, newest first), as Linux 6.1's.
 */
struct kretprobe_instance {
	struct freelist_node freelist;
	struct kretprobe_instance *llist; /* the task's next older instance in flight */
	struct kretprobe_holder *rph;
	kprobe_opcode_t *ret_addr; /* the real return address */
	void *fp; /* the stack slot that held it: identifies the frame */
	char data[];
};

/*
 * A kretprobe's instances, and whether the kretprobe is still there to use them. refs counts
 * what keeps the holder alive: the registration, and each instance until it is retired (taken
 * off the free list at unregister, or back from flight after it). The last put hands the holder
 * to kretprobe_dead (kernel/kprobes.c).
 */
struct kretprobe_holder {
	struct kretprobe *rp; /* NULL once unregistered */
	struct freelist_head freelist; /* the free instances (lib/freelist.h: no lock) */
	int refs;
	void *mem; /* the instances, one allocation */
	struct kretprobe_holder *next_dead; /* on kretprobe_dead, waiting to be freed */
};

/*
 * Whose instance ri is. NULL once the kretprobe was unregistered (an instance still in flight
 * then returns through the trampoline, finds no kretprobe, and just goes home).
 */
static __always_inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return READ_ONCE(ri->rph->rp);
}

static inline unsigned long get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return (unsigned long)ri->ret_addr;
}

int register_kprobe(struct kprobe *p);
void unregister_kprobe(struct kprobe *p);
int register_kprobes(struct kprobe **kps, int num);
void unregister_kprobes(struct kprobe **kps, int num);
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);

/* Disarm and re-arm a registered probe without unregistering it: 0, or -EINVAL. */
int disable_kprobe(struct kprobe *kp);
int enable_kprobe(struct kprobe *kp);

static inline int disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}

static inline int enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}

/* The probe registered at addr (the first, if several share it), or NULL. */
struct kprobe *get_kprobe(void *addr);

/* The probe whose handler this CPU is running now, or NULL. */
struct kprobe *kprobe_running(void);

/*
 * Is addr in code that must never be probed (the int3 and debug handlers, entry code, the
 * kprobe machinery, the tracer's recording path, text_poke, the NMI path)? register_kprobe
 * refuses it with -EINVAL; /sys/kernel/debug/kprobes/blacklist lists it.
 */
bool within_kprobe_blacklist(unsigned long addr);

/* The address of the symbol name ("MOD:sym" too; offset is not added), or NULL, as Linux's. */
kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset);
/*
 * 0 if sym + offset (or addr) is a function's entry as a kretprobe needs it, -ENOENT if the
 * symbol is unknown, -EINVAL otherwise (Linux's kprobe_on_func_entry).
 */
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym, unsigned long offset);

/*
 * NOKPROBE_SYMBOL(fn): fn joins the blacklist (kept in the section _kprobe_blacklist, read at
 * boot, as Linux's). Whole sections are blacklisted too (kernel/kprobes.c says which).
 */
#define NOKPROBE_SYMBOL(fname)                                                         \
	static unsigned long __used __section("_kprobe_blacklist") _kbl_addr_##fname = \
		(unsigned long)fname

/* Boot: find the blacklist and install the handlers; then make the debugfs files. */
void init_kprobes(void);
void debugfs_kprobe_init(void);

/* The loader, as a module goes (kernel/module/): its probes are marked gone and disarmed. */
void kprobes_module_going(unsigned long start, unsigned long end);

/*
 * A task is freed (kernel/kthread.c): the kretprobe instances of calls it never returned
 * from (it died inside them) go back to their free lists, as Linux's kprobe_flush_task.
 */
void kprobe_flush_task(struct task *t);

#endif

/*
 * The kprobes boot self-test (boot option `kprobe_selftest`; Linux: lib/test_kprobes.c, whose
 * cases it starts from). It prints "Kprobe smoke test: passed successfully" or what failed.
 *
 * Linux's cases: a kprobe with pre and post handlers on a function, several at once
 * (register_kprobes), a kretprobe that sees the return value, and one with an entry_handler
 * and private data; a stack trace taken in a kretprobe handler walks through the trampoline to
 * the real caller. Lucid's own: a probe on every instruction of an assembly function built to
 * contain each kind the single step must fix up (RIP-relative operands, call, jcc, jmp, ret,
 * pushf) and of a C function, each run and checked against its unprobed result; -EILSEQ
 * inside an instruction, -EINVAL on the blacklist; a probe hit inside a handler counted in
 * nmissed; disable/enable; two probes on one address; the ftrace path beside the function
 * tracer's ops on the same function, and a pre_handler there that moves regs->ip (IPMODIFY);
 * the instruction decoder walking every kernel function.
 */
#include "kernel/debug/test_kprobes.h"
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/insn_decoder.h"
#include "arch/x86_64/kprobes/kprobes.h"
#include "arch/x86_64/cpu.h"
#include "kernel/fs/seq_file.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/kallsyms.h"
#include "kernel/module/module.h"
#include "kernel/time/timer.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "kernel/syscalls.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/ftrace.h"

/* The targets: never inlined, cloned, or their calls dropped as pure (noipa). */
#define KT_TARGET __attribute__((noipa))

static int errors;

#define KT_CHECK(cond, ...)                                                 \
	do {                                                                \
		if (!(cond)) {                                              \
			printk(KERN_ERR "Kprobe smoke test: " __VA_ARGS__); \
			errors++;                                           \
		}                                                           \
	} while (0)

/*
 * An assembly function with the instructions whose single step needs a fix-up. f(x): x == 0
 * gives kt_data + 1 + 7, anything else kt_data + 7 (kt_callee adds 7); the jcc, the jmp, the
 * call, both RIP-relative forms, pushf and ret all run on the way.
 */
unsigned long kprobe_test_insns(unsigned long x);
unsigned long kt_callee(unsigned long v);
unsigned long kt_data = 1000;

__asm__(".text\n"
	".globl kprobe_test_insns\n"
	".type kprobe_test_insns, @function\n"
	"kprobe_test_insns:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	push %rbx\n"
	"	lea kt_data(%rip), %rax\n" /* RIP-relative lea */
	"	mov kt_data(%rip), %rbx\n" /* RIP-relative load */
	"	cmpq $0, (%rax)\n"
	"	test %rdi, %rdi\n"
	"	jne 1f\n" /* jcc rel8 */
	"	add $1, %rbx\n"
	"1:	pushfq\n" /* pushf: TF must not leak onto the stack */
	"	pop %rcx\n"
	"	and $0x100, %rcx\n"
	"	add %rcx, %rbx\n" /* a leaked TF would add 0x100 */
	"	mov %rbx, %rdi\n"
	"	call kt_callee\n" /* call rel32 */
	"	jmp 2f\n" /* jmp rel8 */
	"	ud2\n"
	"2:	pop %rbx\n"
	"	pop %rbp\n"
	"	ret\n"
	".size kprobe_test_insns, .-kprobe_test_insns\n");

KT_TARGET unsigned long kt_callee(unsigned long v)
{
	barrier();
	return v + 7;
}

/* A C function: whatever gcc makes of it, each instruction is probed in turn. */
KT_TARGET unsigned long kprobe_target(unsigned long a, unsigned long b)
{
	unsigned long r = a;

	for (unsigned long i = 0; i < b; i++)
		r = r * 3 + i;
	return r ^ (a << 2);
}

/* The same value, by a function nobody probes. */
static unsigned long kprobe_target_ref(unsigned long a, unsigned long b)
{
	unsigned long r = a;

	for (unsigned long i = 0; i < b; i++)
		r = r * 3 + i;
	return r ^ (a << 2);
}

KT_TARGET unsigned long kprobe_target2(unsigned long a)
{
	return kt_callee(a) + 1;
}

static int pre_hits, post_hits;
static unsigned long pre_ip, seen_arg;

static int kt_pre(struct kprobe *p, struct pt_regs *regs)
{
	pre_hits++;
	pre_ip = regs->rip;
	if (p->addr == (kprobe_opcode_t *)kprobe_target)
		seen_arg = regs_get_kernel_argument(regs, 0);
	return 0;
}

static void kt_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
	post_hits++;
}

/* The instruction boundaries of fn, by the decoder: how many, into offs[]. */
static int insn_offsets(void *fn, unsigned int *offs, int max)
{
	unsigned long start, size;
	int n = 0;

	if (!kallsyms_lookup((unsigned long)fn, NULL, &start, &size))
		return 0;
	for (unsigned long a = start; a < start + size && n < max;) {
		struct insn insn;

		offs[n++] = (unsigned int)(a - start);
		if (a == start && ftrace_find_rec(a) >= 0) {
			a += MCOUNT_INSN_SIZE;
			continue;
		}
		if (insn_decode(&insn, (void *)a, (int)MIN(15UL, start + size - a)))
			break;
		a += insn.length;
	}
	return n;
}

/* A probe on every instruction of fn, one at a time; run() must give the same, hit once. */
static void probe_every_insn(const char *name, void *fn, unsigned long (*run)(void),
			     unsigned long want)
{
	unsigned int offs[256];
	int n = insn_offsets(fn, offs, ARRAY_SIZE(offs)), probed = 0;

	KT_CHECK(n > 3, "%s: cannot walk it\n", name);
	for (int i = 0; i < n; i++) {
		struct kprobe kp = {.symbol_name = name,
				    .offset = offs[i],
				    .pre_handler = kt_pre,
				    .post_handler = kt_post};
		int ret = register_kprobe(&kp);

		if (ret == -EINVAL)
			continue; /* an instruction that cannot be stepped (ud2 here) */
		KT_CHECK(!ret, "%s+0x%x: register_kprobe: %d\n", name, offs[i], ret);
		if (ret)
			continue;
		pre_hits = post_hits = 0;
		unsigned long got = run();
		bool runs = true;
		/* The instruction may not run on this path (the jcc's fall-through, the ud2). */
		if (!pre_hits)
			runs = false;
		unregister_kprobe(&kp);
		KT_CHECK(got == want, "%s+0x%x: returned %lx, want %lx\n", name, offs[i], got,
			 want);
		KT_CHECK(pre_hits == post_hits && pre_hits <= 1 + (int)runs * 64,
			 "%s+0x%x: pre %d post %d\n", name, offs[i], pre_hits, post_hits);
		probed += runs;
	}
	KT_CHECK(probed >= n / 2, "%s: only %d of %d instructions ran probed\n", name, probed, n);
}

static unsigned long run_insns0(void)
{
	return kprobe_test_insns(0);
}

static unsigned long run_target(void)
{
	return kprobe_target(5, 4);
}

/* Linux's test_kprobe: pre and post handlers, on a function's entry (the ftrace path). */
static void test_entry(void)
{
	struct kprobe kp = {
		.symbol_name = "kprobe_target", .pre_handler = kt_pre, .post_handler = kt_post};

	pre_hits = post_hits = 0;
	KT_CHECK(!register_kprobe(&kp), "register_kprobe(kprobe_target) failed\n");
	KT_CHECK(kprobe_ftrace(&kp), "kprobe_target+0 is not on ftrace\n");
	kprobe_target(11, 2);
	KT_CHECK(pre_hits == 1 && post_hits == 1, "entry: pre %d post %d\n", pre_hits, post_hits);
	KT_CHECK(pre_ip == (unsigned long)kprobe_target + 1, "entry: regs->ip %lx\n", pre_ip);
	KT_CHECK(seen_arg == 11, "entry: $arg1 read %lu\n", seen_arg);

	/* Disabled, it is quiet; enabled again, it fires. */
	disable_kprobe(&kp);
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 1, "a disabled probe fired\n");
	enable_kprobe(&kp);
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 2, "an enabled-again probe did not fire\n");

	/* A second probe on the same address: both fire, and either may leave. */
	struct kprobe kp2 = {.symbol_name = "kprobe_target", .pre_handler = kt_pre};
	KT_CHECK(!register_kprobe(&kp2), "second probe on kprobe_target failed\n");
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 4, "two probes on one address: %d hits\n", pre_hits);
	unregister_kprobe(&kp);
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 5, "after one left: %d hits\n", pre_hits);
	unregister_kprobe(&kp2);
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 5, "an unregistered probe fired\n");
	/* Registering the same probe twice is refused. */
	struct kprobe kp3 = {.symbol_name = "kprobe_target2", .pre_handler = kt_pre};
	KT_CHECK(!register_kprobe(&kp3), "register kprobe_target2\n");
	KT_CHECK(register_kprobe(&kp3) == -EINVAL, "a probe registered twice was accepted\n");
	unregister_kprobe(&kp3);
}

/*
 * On the ftrace path, a pre_handler that returns nonzero has moved regs->ip, and the call goes
 * there (Linux's IPMODIFY through ftrace_regs_caller): kprobe_target2(5) runs kt_callee(5)
 * instead, 12 where it gives 13, and the post_handler is skipped.
 */
static int redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	regs->rip = (unsigned long)kt_callee;
	return 1;
}

static void test_entry_ipmodify(void)
{
	struct kprobe kp = {.symbol_name = "kprobe_target2",
			    .pre_handler = redirect_pre,
			    .post_handler = kt_post};
	unsigned long got;

	post_hits = 0;
	KT_CHECK(!register_kprobe(&kp), "register_kprobe(kprobe_target2) failed\n");
	KT_CHECK(kprobe_ftrace(&kp), "kprobe_target2+0 is not on ftrace\n");
	got = kprobe_target2(5);
	unregister_kprobe(&kp);
	KT_CHECK(got == 12 && post_hits == 0, "entry: a new regs->ip gave %lu, post %d\n", got,
		 post_hits);
	KT_CHECK(kprobe_target2(5) == 13, "kprobe_target2 redirected after unregister\n");
}

/* Where probes are refused, with Linux's errors. */
static void test_refused(void)
{
	unsigned int offs[64];
	int n = insn_offsets(kprobe_test_insns, offs, ARRAY_SIZE(offs));

	/* The first instruction longer than a byte: its second byte is no boundary. */
	for (int i = 0; i + 1 < n; i++)
		if (offs[i + 1] - offs[i] > 1) {
			struct kprobe kp = {.symbol_name = "kprobe_test_insns",
					    .offset = offs[i] + 1,
					    .pre_handler = kt_pre};
			KT_CHECK(register_kprobe(&kp) == -EILSEQ, "mid-instruction: not EILSEQ\n");
			break;
		}
	struct kprobe fentry1 = {.symbol_name = "kprobe_target", .offset = 1};
	KT_CHECK(register_kprobe(&fentry1) == -EILSEQ, "inside the ftrace site: not EILSEQ\n");
	struct kprobe bl = {.symbol_name = "within_kprobe_blacklist"};
	KT_CHECK(register_kprobe(&bl) == -EINVAL, "blacklisted: not EINVAL\n");
	struct kprobe bl2 = {.symbol_name = "do_interrupt"};
	KT_CHECK(register_kprobe(&bl2) == -EINVAL, "do_interrupt: not EINVAL\n");
	struct kprobe none = {.symbol_name = "no_such_function_anywhere"};
	KT_CHECK(register_kprobe(&none) == -ENOENT, "unknown symbol: not ENOENT\n");
	struct kprobe data = {.addr = (kprobe_opcode_t *)&kt_data};
	KT_CHECK(register_kprobe(&data) == -EINVAL, "data address: not EINVAL\n");
	struct kprobe both = {.addr = (kprobe_opcode_t *)kprobe_target, .symbol_name = "x"};
	KT_CHECK(register_kprobe(&both) == -EINVAL, "addr and symbol: not EINVAL\n");
}

/* A probe hit inside a handler is not reported, only counted (Linux: nmissed). */
static struct kprobe inner_kp = {.symbol_name = "kt_callee", .pre_handler = kt_pre};

static int outer_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	kt_callee(1); /* probed by inner_kp: this hit is a miss */
	return 0;
}

static void test_recursion(void)
{
	struct kprobe outer = {.symbol_name = "kprobe_target2", .pre_handler = outer_pre};

	pre_hits = 0;
	KT_CHECK(!register_kprobe(&inner_kp), "register kt_callee\n");
	KT_CHECK(!register_kprobe(&outer), "register kprobe_target2\n");
	KT_CHECK(kprobe_target2(1) == 9, "kprobe_target2 went wrong\n");
	/* kprobe_target2 calls kt_callee itself (a hit), and outer_pre's call is a miss. */
	KT_CHECK(pre_hits == 1 && inner_kp.nmissed == 1, "recursion: hits %d nmissed %lu\n",
		 pre_hits, inner_kp.nmissed);
	unregister_kprobe(&outer);
	unregister_kprobe(&inner_kp);

	/* The same through an int3 probe (inside the function, not on ftrace). */
	unsigned int offs[64];
	int n = insn_offsets(kt_callee, offs, ARRAY_SIZE(offs));
	struct kprobe inner2 = {
		.symbol_name = "kt_callee", .offset = n > 1 ? offs[1] : 0, .pre_handler = kt_pre};
	struct kprobe outer2 = {.symbol_name = "kprobe_target2", .pre_handler = outer_pre};
	pre_hits = 0;
	KT_CHECK(!register_kprobe(&inner2) && !kprobe_ftrace(&inner2), "register kt_callee+x\n");
	KT_CHECK(!register_kprobe(&outer2), "register kprobe_target2\n");
	KT_CHECK(kprobe_target2(1) == 9, "kprobe_target2 went wrong (int3)\n");
	KT_CHECK(pre_hits == 1 && inner2.nmissed == 1, "int3 recursion: hits %d nmissed %lu\n",
		 pre_hits, inner2.nmissed);
	unregister_kprobe(&outer2);
	unregister_kprobe(&inner2);
}

/* Linux's test_kprobes (the array form). */
static void test_kprobes_array(void)
{
	struct kprobe a = {.symbol_name = "kprobe_target", .pre_handler = kt_pre};
	struct kprobe b = {.symbol_name = "kprobe_target2", .pre_handler = kt_pre};
	struct kprobe *kps[] = {&a, &b};

	pre_hits = 0;
	KT_CHECK(!register_kprobes(kps, 2), "register_kprobes failed\n");
	kprobe_target(1, 1);
	kprobe_target2(1);
	KT_CHECK(pre_hits == 2, "register_kprobes: %d hits\n", pre_hits);
	unregister_kprobes(kps, 2);
}

/* Linux's test_kretprobe and test_kretprobes: the return value, entry_handler and data. */
static unsigned long ret_seen;
static int ret_hits, entry_hits;
static bool stack_sane;

noinline void kt_check_stack(void);

static int kt_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ret_hits++;
	ret_seen = regs_return_value(regs);
	if (ri->rph && get_kretprobe(ri) && get_kretprobe(ri)->data_size)
		KT_CHECK(*(unsigned long *)ri->data == 0xfeedULL, "kretprobe data lost\n");
	KT_CHECK(regs->rip == get_kretprobe_retaddr(ri), "kretprobe regs->ip %lx\n", regs->rip);
	kt_check_stack();
	return 0;
}

static int kt_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)regs;
	entry_hits++;
	*(unsigned long *)ri->data = 0xfeed;
	return 0;
}

/* Called from the kretprobe handler: do the frames reach test_kretprobe, not the trampoline? */
noinline void kt_check_stack(void)
{
	unsigned long *fp = __builtin_frame_address(0);
	bool found = false, tramp = false;

	for (int depth = 0; depth < 16 && fp; depth++) {
		unsigned long ret = unwind_recover_ret_addr(current, fp[1], &fp[1]);
		const char *name = NULL;

		if (ret == (unsigned long)__kretprobe_trampoline)
			tramp = true;
		if (kallsyms_lookup(ret - 1, &name, NULL, NULL) && !strcmp(name, "test_kretprobe"))
			found = true;
		if ((unsigned long *)fp[0] <= fp)
			break;
		fp = (unsigned long *)fp[0];
	}
	stack_sane = found && !tramp;
}

KT_TARGET void test_kretprobe(void)
{
	struct kretprobe rp = {.kp.symbol_name = "kprobe_target", .handler = kt_ret_handler};
	struct kretprobe rp2 = {.kp.symbol_name = "kprobe_target2",
				.handler = kt_ret_handler,
				.entry_handler = kt_entry_handler,
				.data_size = sizeof(unsigned long),
				.maxactive = 2};

	ret_hits = entry_hits = 0;
	stack_sane = false;
	KT_CHECK(!register_kretprobe(&rp), "register_kretprobe failed\n");
	KT_CHECK(rp.maxactive == KRETPROBE_DEFAULT_MAXACTIVE, "maxactive default %d\n",
		 rp.maxactive);
	unsigned long r = kprobe_target(3, 3);
	KT_CHECK(r == kprobe_target_ref(3, 3), "kretprobed function returned %lx\n", r);
	KT_CHECK(ret_hits == 1 && ret_seen == r, "kretprobe: hits %d saw %lx want %lx\n", ret_hits,
		 ret_seen, r);
	KT_CHECK(stack_sane, "a stack trace in the kretprobe handler is not sane\n");
	unregister_kretprobe(&rp);

	KT_CHECK(!register_kretprobe(&rp2), "register_kretprobe(entry_handler) failed\n");
	r = kprobe_target2(5);
	KT_CHECK(entry_hits == 1 && ret_hits == 2 && ret_seen == 13,
		 "kretprobe entry: entry %d hits %d saw %lu\n", entry_hits, ret_hits, ret_seen);
	unregister_kretprobe(&rp2);
	kprobe_target2(5);
	KT_CHECK(ret_hits == 2, "an unregistered kretprobe fired\n");

	/* Not a function's entry: refused. */
	struct kretprobe bad = {.kp.symbol_name = "kprobe_target", .kp.offset = 1};
	KT_CHECK(register_kretprobe(&bad) == -EINVAL, "kretprobe off the entry: not EINVAL\n");
	struct kretprobe big = {.kp.symbol_name = "kprobe_target", .maxactive = 100000};
	KT_CHECK(register_kretprobe(&big) == -E2BIG, "maxactive too big: not E2BIG\n");
}

/* The ftrace path beside another ftrace_ops on the same function: both are called. */
static int ops_hits;
static void kt_ops_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			struct ftrace_regs *fregs)
{
	(void)ip;
	(void)parent_ip;
	(void)op;
	(void)fregs;
	ops_hits++;
}

static struct ftrace_ops kt_ops = {.func = kt_ops_func};

static void test_with_ftrace_ops(void)
{
	struct kprobe kp = {.symbol_name = "kprobe_target", .pre_handler = kt_pre};

	pre_hits = ops_hits = 0;
	KT_CHECK(!ftrace_set_filter(&kt_ops, "kprobe_target", true), "ftrace filter\n");
	KT_CHECK(!register_ftrace_function(&kt_ops), "register_ftrace_function\n");
	KT_CHECK(!register_kprobe(&kp), "register_kprobe beside ftrace\n");
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 1 && ops_hits == 1, "beside ftrace: kprobe %d ops %d\n", pre_hits,
		 ops_hits);
	unregister_kprobe(&kp);
	kprobe_target(1, 1);
	KT_CHECK(pre_hits == 1 && ops_hits == 2, "after the kprobe left: kprobe %d ops %d\n",
		 pre_hits, ops_hits);
	unregister_ftrace_function(&kt_ops);
	ftrace_reset_filters(&kt_ops);
}

/*
 * make bench's lines (kernel/debug/bench.c): what an empty pre_handler costs on a getpid,
 * its probe on the entry (ftrace), on the second instruction (int3 and a single step), and a
 * kretprobe with an empty handler; guest instructions per call above the unprobed call.
 */
#define BENCH_ROUNDS 2000

static int bench_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

static int bench_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	return 0;
}

static noinline uint64_t getpid_rounds(void)
{
	uint64_t start = rdtsc();

	for (int i = 0; i < BENCH_ROUNDS; i++)
		sys_getpid();
	return rdtsc() - start;
}

void bench_kprobes(struct seq_file *m)
{
	unsigned int offs[8];
	int n = insn_offsets(sys_getpid, offs, ARRAY_SIZE(offs));
	struct kprobe entry = {.symbol_name = "sys_getpid", .pre_handler = bench_pre};
	struct kprobe inner = {.symbol_name = "sys_getpid",
			       .offset = n > 1 ? offs[1] : 0,
			       .pre_handler = bench_pre};
	struct kretprobe rp = {.kp.symbol_name = "sys_getpid", .handler = bench_ret};
	uint64_t base, probed;

	getpid_rounds(); /* warm up */
	base = getpid_rounds();
	if (!register_kprobe(&entry)) {
		probed = getpid_rounds();
		unregister_kprobe(&entry);
		seq_printf(m, "kprobe_entry_insns: %lu insns\n",
			   (unsigned long)((probed - base) / BENCH_ROUNDS));
	}
	if (n > 1 && !register_kprobe(&inner)) {
		probed = getpid_rounds();
		unregister_kprobe(&inner);
		seq_printf(m, "kprobe_int3_insns: %lu insns\n",
			   (unsigned long)((probed - base) / BENCH_ROUNDS));
	}
	if (!register_kretprobe(&rp)) {
		probed = getpid_rounds();
		unregister_kretprobe(&rp);
		seq_printf(m, "kretprobe_insns: %lu insns\n",
			   (unsigned long)((probed - base) / BENCH_ROUNDS));
	}
}

/*
 * /sys/kernel/debug/kprobe_stress [GLOB [STEP]]: the "hard to break" run. For every function
 * of available_filter_functions (that GLOB matches; every STEP-th of those) in turn: a kprobe
 * on its entry (ftrace), one on its second instruction (int3), a kretprobe; a moment for
 * whatever runs meanwhile (the tests run a workload on the other CPUs) to hit them; then all
 * three go. Refusals (-EINVAL:
 * the blacklist, an instruction that cannot be stepped) are counted; any other failure, or a
 * handler count that does not add up, is an error: each inner pre_handler call is followed by
 * its post_handler, but for a step that faulted (the pre_handler then runs again).
 */
#define STRESS_DWELL_MS 1
#define STRESS_ERRORS_SHOWN 4

static unsigned long stress_entry, stress_inner, stress_post, stress_ret;

static int stress_entry_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	__atomic_add_fetch(&stress_entry, 1, __ATOMIC_RELAXED);
	return 0;
}

static int stress_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	__atomic_add_fetch(&stress_inner, 1, __ATOMIC_RELAXED);
	return 0;
}

static void stress_inner_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
	__atomic_add_fetch(&stress_post, 1, __ATOMIC_RELAXED);
}

static int stress_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	__atomic_add_fetch(&stress_ret, 1, __ATOMIC_RELAXED);
	return 0;
}

static int cmd_kprobe_stress(int argc, char **argv, struct debugfs_cmd_output *out)
{
	const char *glob = argc > 1 ? argv[1] : "*";
	int funcs = 0, planted = 0, refused = 0, failed = 0, matched = 0;
	unsigned long missed = 0, faults = kprobe_step_faults, step = 1;

	if (argc > 3 || (argc == 3 && (kstrtoul(argv[2], 10, &step) || !step))) {
		cmd_printf(out, "usage: kprobe_stress [GLOB [STEP]]\n");
		return -EINVAL;
	}
	stress_entry = stress_inner = stress_post = stress_ret = 0;
	for (int rec = 0; rec < ftrace_nr_records(); rec++) {
		char name[KSYM_NAME_LEN];
		unsigned long ip;

		ftrace_records_lock(); /* a module's records may go meanwhile: copy, then let go */
		const char *n = ftrace_rec_name(rec);
		ip = ftrace_rec_ip(rec);
		if (n)
			strlcpy(name, n, sizeof(name));
		ftrace_records_unlock();
		if (!n || !glob_match(glob, name) || matched++ % step)
			continue;
		funcs++;
		unsigned int offs[2];
		int ni = insn_offsets((void *)ip, offs, ARRAY_SIZE(offs));
		struct kprobe entry = {.addr = (kprobe_opcode_t *)ip,
				       .pre_handler = stress_entry_pre};
		struct kprobe inner = {.addr = (kprobe_opcode_t *)ip + (ni > 1 ? offs[1] : 0),
				       .pre_handler = stress_inner_pre,
				       .post_handler = stress_inner_post};
		struct kretprobe rp = {.kp.addr = (kprobe_opcode_t *)ip,
				       .handler = stress_ret_handler};
		struct kprobe *kps[] = {&entry, &inner, &rp.kp};
		int rets[3] = {register_kprobe(&entry), ni > 1 ? register_kprobe(&inner) : -EINVAL,
			       register_kretprobe(&rp)};

		msleep(STRESS_DWELL_MS);
		for (int i = 0; i < 3; i++) {
			if (!rets[i]) {
				planted++;
				continue;
			}
			/*
			 * Refused by the rules (kernel/kprobes.c): -EINVAL where no probe may go,
			 * a static branch's site among them (switch_mm's debug_vm key, for one).
			 */
			if (rets[i] == -EINVAL) {
				refused++;
				continue;
			}
			if (failed++ < STRESS_ERRORS_SHOWN)
				cmd_printf(out, "kprobe_stress: %s+0x%lx: %d\n", name,
					   (unsigned long)kps[i]->addr - ip, rets[i]);
		}
		if (!rets[2]) {
			missed += (unsigned long)rp.nmissed + rp.kp.nmissed;
			unregister_kretprobe(&rp);
		}
		if (!rets[1]) {
			missed += inner.nmissed;
			unregister_kprobe(&inner);
		}
		if (!rets[0]) {
			missed += entry.nmissed;
			unregister_kprobe(&entry);
		}
	}
	faults = kprobe_step_faults - faults;
	if (stress_inner != stress_post + faults) {
		cmd_printf(out,
			   "kprobe_stress: %lu inner hits but %lu post_handler calls and %lu "
			   "faulted steps\n",
			   stress_inner, stress_post, faults);
		failed++;
	}
	cmd_printf(out,
		   "kprobe_stress: %d functions, %d probes planted, %d refused, %d failed; hits: "
		   "entry %lu, inner %lu (%lu faulted), returns %lu, missed %lu\n",
		   funcs, planted, refused, failed, stress_entry, stress_inner, faults, stress_ret,
		   missed);
	return failed ? -EIO : 0;
}

static const struct debugfs_cmd kprobe_stress_cmd = {"kprobe_stress", cmd_kprobe_stress};

void kprobe_stress_init(void)
{
	debugfs_create_cmd(&kprobe_stress_cmd);
}

/*
 * The decoder against what gcc emitted for this kernel: every function of kernel text,
 * walked from its start, lands exactly on its end (the next symbol), each instruction
 * decoding. (The host unit test checks the decoder against the assembler; this checks that
 * nothing the kernel's compiler uses is missing.)
 */
struct walk_stats {
	int walked, failed;
};

static int walk_one(void *data, const char *name, unsigned long addr)
{
	struct walk_stats *w = data;
	unsigned long start, size;
	extern char _text[], _etext[];

	if (addr < (unsigned long)_text || addr >= (unsigned long)_etext ||
	    !kallsyms_lookup(addr, NULL, &start, &size) || start != addr)
		return 0;
	unsigned long a = start, end = start + size;
	while (a < end) {
		struct insn insn;

		if (insn_decode(&insn, (void *)a, (int)MIN((unsigned long)MAX_INSN_LEN, end - a)))
			break;
		a += insn.length;
	}
	w->walked++;
	if (a != end && w->failed++ < 3)
		printk(KERN_ERR "Kprobe smoke test: decoder: %s+0x%lx/0x%lx does not decode\n",
		       name, a - start, size);
	return 0;
}

static void test_decoder_walks_kernel(void)
{
	struct walk_stats w = {0, 0};

	kallsyms_for_each(walk_one, &w);
	KT_CHECK(w.walked > 500 && !w.failed, "decoder: %d of %d functions did not decode\n",
		 w.failed, w.walked);
}

void kprobes_selftest(void)
{
	printk(KERN_INFO "Kprobe smoke test: started\n");
	errors = 0;
	test_entry();
	test_entry_ipmodify();
	test_kprobes_array();
	test_refused();
	test_recursion();
	test_kretprobe();
	test_with_ftrace_ops();
	test_decoder_walks_kernel();
	probe_every_insn("kprobe_test_insns", kprobe_test_insns, run_insns0, kt_data + 1 + 7);
	probe_every_insn("kprobe_target", kprobe_target, run_target, kprobe_target_ref(5, 4));
	if (errors)
		printk(KERN_ERR "Kprobe smoke test: %d errors\n", errors);
	else
		printk(KERN_INFO "Kprobe smoke test: passed successfully\n");
}

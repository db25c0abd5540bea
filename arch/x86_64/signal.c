/*
 * Running a signal handler in user space and coming back from it: Linux's
 * arch/x86/kernel/signal.c, for 64-bit programs. docs/design/signals.md draws the frame.
 *
 * On the way back to user mode (exit_to_user_mode), a signal with a handler is delivered by
 * rewriting the saved user registers: below the user's stack pointer (past the 128-byte red
 * zone the ABI gives leaf functions) the kernel writes
 *	- the FPU/SSE state (FXSAVE's 512 bytes, 64-byte aligned),
 *	- a struct rt_sigframe: the address of the C library's restorer (sa_restorer), then a
 *	  ucontext whose sigcontext holds every register the program had, and the mask to go back
 *	  to, then the siginfo,
 * and points RIP at the handler, RSP at the frame (so pretcode is the handler's return address,
 * RSP 16-byte aligned minus 8 as after a call), RDI at the signal number, RSI at the siginfo and
 * RDX at the ucontext. The handler's `ret` enters the restorer, whose one job is the system call
 * rt_sigreturn: it reads the frame back (RSP - 8 is where it starts) and restores what it saved,
 * including a mask and registers the handler may have changed, as Linux does.
 *
 * A system call that a signal interrupted asks, through its return value, what should happen
 * next (ERESTARTSYS and friends, lib/errno.h): with a handler, -EINTR or (SA_RESTART) the call
 * again; without one (the signal stopped the process, or was ignored), the call again. "Again"
 * is RIP back over the two bytes of `syscall` with RAX its number.
 *
 * A handler with SA_ONSTACK runs on the alternate signal stack (sigaltstack, kernel/signal.c),
 * when the thread has one and is not on it already: the frame then goes at that stack's top
 * (no red zone: nothing of the program's is there) and, for a signal nested on the stack, below
 * the current frame as usual. A frame that would overflow the alternate stack is not written.
 * uc_stack records the stack as it was, and rt_sigreturn sets it back from there.
 *
 * A frame that cannot be written gets SIGSEGV instead (its handler runs, if it can); one that
 * cannot be read back in rt_sigreturn too, as Linux's signal_fault().
 *
 * The registers a handler's rt_sigreturn restores are the program's to choose, RIP and RSP
 * too. A non-canonical one cannot be IRET to (Intel CPUs fault in ring 0): the program gets the
 * SIGSEGV that Linux gives after the #GP its IRET takes (fixed up as a fault from ring 3):
 * SI_KERNEL, trapno 13, the bad RIP in the handler's sigcontext. Where else a user RIP comes
 * from user data, the same check: a handler's address (after its frame is built), and a
 * uretprobe's return address (kernel/events/uprobes.c's handle_trampoline).
 */
#include <stddef.h>
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/syscall.h" /* bad_user_return */
#include "arch/x86_64/uaccess.h"
#include "kernel/mm/kstack.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/compiler.h"
#include <stddef.h>

#define RED_ZONE 128 /* below RSP, the ABI's leaf functions' scratch: left alone */
#define FPSTATE_ALIGN 64 /* as Linux aligns the math frame */
#define FRAME_ALIGN 16
#define SYSCALL_INSN_LEN 2 /* `syscall` is 0f 05 */
#define __NR_restart_syscall 219
#define UC_SIGCONTEXT_SS 0x2 /* uc_flags: the sigcontext has SS, and rt_sigreturn honours it */
#define UC_STRICT_RESTORE_SS 0x4
#define SI_MAX_SIZE 128
/* The flags rt_sigreturn takes from the frame (Linux's FIX_EFLAGS): arithmetic, DF, TF, AC, RF. */
#define X86_EFLAGS_CF 0x00000001
#define X86_EFLAGS_PF 0x00000004
#define X86_EFLAGS_AF 0x00000010
#define X86_EFLAGS_ZF 0x00000040
#define X86_EFLAGS_SF 0x00000080
#define X86_EFLAGS_TF 0x00000100
#define X86_EFLAGS_DF 0x00000400
#define X86_EFLAGS_OF 0x00000800
#define X86_EFLAGS_RF 0x00010000
#define X86_EFLAGS_AC 0x00040000
#define FIX_EFLAGS                                                                       \
	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | X86_EFLAGS_SF | \
	 X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | X86_EFLAGS_CF | X86_EFLAGS_RF)

/* Linux's struct sigcontext (uapi/asm/sigcontext.h, 64-bit): 256 bytes. */
struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate; /* user address of the FXSAVE area, or 0: the FPU starts afresh */
	uint64_t reserved1[8];
};

struct ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;
};

/* siginfo_t: three ints, then a union (8-aligned) whose layout depends on the signal. */
struct user_siginfo {
	int32_t si_signo, si_errno, si_code, pad;
	union {
		struct {
			int32_t pid;
			uint32_t uid;
			int32_t status; /* SIGCHLD */
			int32_t pad;
			int64_t utime, stime;
		} kill;
		struct {
			uint64_t addr;
		} fault;
		struct {
			int32_t tid; /* the timer's id */
			int32_t overrun;
			uint64_t sigval;
		} timer; /* SI_TIMER */
		struct {
			int32_t pid;
			uint32_t uid;
			uint64_t sigval;
		} rt; /* SI_QUEUE and the other codes below 0 a program sends */
		uint8_t pad[SI_MAX_SIZE - 16];
	} u;
};

struct rt_sigframe {
	uint64_t pretcode; /* the handler returns here: the restorer */
	struct ucontext uc;
	struct user_siginfo info;
};

_Static_assert(sizeof(struct sigcontext) == 256, "Linux's sigcontext");
_Static_assert(sizeof(struct ucontext) == 304, "Linux's ucontext");
_Static_assert(sizeof(struct user_siginfo) == SI_MAX_SIZE, "Linux's siginfo_t");
_Static_assert(offsetof(struct user_siginfo, u) + SI_FIELDS_SIZE <= SI_MAX_SIZE,
	       "kernel_siginfo's union in siginfo_t");
_Static_assert(sizeof(struct rt_sigframe) == 440, "Linux's rt_sigframe");

static struct pt_regs *current_pt_regs(void)
{
	return (struct pt_regs *)((char *)current->stack + KSTACK_SIZE) - 1;
}

static void siginfo_to_user(struct user_siginfo *u, const struct ksiginfo *info)
{
	memset(u, 0, sizeof(*u));
	u->si_signo = info->signo;
	u->si_code = info->code;
	if (info->raw) { /* a program's: as it was given, as Linux's copy_siginfo_to_user */
		u->si_errno = info->errnum;
		memcpy(&u->u, info->fields, SI_FIELDS_SIZE);
		return;
	}
	switch (info->signo) {
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		if (info->code > 0 && info->code < SI_KERNEL) { /* from a fault */
			u->u.fault.addr = info->addr;
			return;
		}
		break;
	default:
		break;
	}
	if (info->code == SI_TIMER) {
		u->u.timer.tid = info->timer_id;
		u->u.timer.overrun = info->overrun;
		u->u.timer.sigval = info->value;
		return;
	}
	u->u.kill.pid = info->pid; /* uid 0: everything runs as root */
	if (info->signo == SIGCHLD)
		u->u.kill.status = info->status;
}

int copy_siginfo_to_user(void __user *to, const struct ksiginfo *info)
{
	struct user_siginfo u;

	siginfo_to_user(&u, info);
	return copy_to_user(to, &u, sizeof(u)) ? -EFAULT : 0;
}

int copy_siginfo_from_user(struct ksiginfo *info, const void __user *from)
{
	struct user_siginfo u;

	/* Linux reads only its kernel_siginfo (48 bytes); the rest of the 128 may be unmapped. */
	if (copy_from_user(&u, from, offsetof(struct user_siginfo, u) + SI_FIELDS_SIZE))
		return -EFAULT;
	memset(info, 0, sizeof(*info));
	info->signo = u.si_signo;
	info->errnum = u.si_errno;
	info->code = u.si_code;
	info->raw = true;
	memcpy(info->fields, &u.u, SI_FIELDS_SIZE);
	info->pid = u.u.rt.pid; /* the sender it claims: what the signal_generate event shows */
	return 0;
}

void siginfo_raw_sender(const struct ksiginfo *info, uint32_t *pid, uint32_t *uid)
{
	struct user_siginfo u;

	memcpy(&u.u, info->fields, SI_FIELDS_SIZE);
	*pid = (uint32_t)u.u.rt.pid;
	*uid = u.u.rt.uid;
}

uint64_t siginfo_raw_value(const struct ksiginfo *info)
{
	struct user_siginfo u;

	memcpy(&u.u, info->fields, SI_FIELDS_SIZE);
	return u.u.rt.sigval;
}

/* The FPU state now in the registers, into buf (the registers are the task's until it leaves). */
static void fpu_snapshot(struct fpu *buf)
{
	unsigned long flags = local_irq_save();

	fpu_save(buf);
	local_irq_restore(flags);
}

/* Makes fpu the task's FPU state: its saved copy and, at once, the registers. */
static void fpu_load(const struct fpu *fpu)
{
	struct task *t = current;
	unsigned long flags = local_irq_save();

	memcpy(t->fpu, fpu, sizeof(*fpu));
	fpu_restore(t->fpu);
	local_irq_restore(flags);
}

/*
 * Where the frame goes (Linux's get_sigframe): below the red zone, or at the top of the
 * alternate stack; the FPU state first, then the frame, RSP 16-byte aligned minus 8 as after a
 * call. 0 if it would not fit on the alternate stack it is for.
 */
static unsigned long get_sigframe(const struct k_sigaction *ka, const struct pt_regs *regs,
				  unsigned long *fx)
{
	struct task *t = current;
	bool nested = on_sig_stack(regs->rsp), entering = false;
	unsigned long sp = regs->rsp - RED_ZONE;
	unsigned long fp;

	if ((ka->flags & SA_ONSTACK) && sas_ss_flags(sp) == 0) {
		sp = t->sas_ss_sp + t->sas_ss_size;
		entering = true;
	}
	*fx = ALIGN_DOWN(sp - sizeof(struct fpu), FPSTATE_ALIGN);
	fp = ALIGN_DOWN(*fx - sizeof(struct rt_sigframe), FRAME_ALIGN) - sizeof(uint64_t);
	if ((nested || entering) && !__on_sig_stack(fp)) {
		printk(KERN_INFO "%s[%d] overflowed sigaltstack\n", t->comm, t->pid);
		return 0;
	}
	return fp;
}

static int setup_rt_frame(int sig, const struct ksiginfo *info, const struct k_sigaction *ka,
			  struct pt_regs *regs)
{
	struct task *t = current;
	struct fpu fpu; /* aligned(16), as FXSAVE wants */
	struct rt_sigframe frame;
	unsigned long fx;
	unsigned long fp = get_sigframe(ka, regs, &fx);
	struct sigcontext *sc = &frame.uc.uc_mcontext;

	if (!fp)
		return -EFAULT;
	if (!(ka->flags & SA_RESTORER))
		return -EFAULT; /* no way back: Linux x86_64 has no fallback trampoline either */
	memset(&frame, 0, sizeof(frame));
	frame.pretcode = ka->restorer;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	/* The stack as it is (before SS_AUTODISARM's disarming): rt_sigreturn sets it back. */
	frame.uc.uc_stack.ss_sp = t->sas_ss_sp;
	frame.uc.uc_stack.ss_flags = (int)t->sas_ss_flags;
	frame.uc.uc_stack.ss_size = t->sas_ss_size;
	frame.uc.uc_sigmask = t->restore_sigmask ? t->saved_sigmask : t->blocked;
	sc->r8 = regs->r8;
	sc->r9 = regs->r9;
	sc->r10 = regs->r10;
	sc->r11 = regs->r11;
	sc->r12 = regs->r12;
	sc->r13 = regs->r13;
	sc->r14 = regs->r14;
	sc->r15 = regs->r15;
	sc->rdi = regs->rdi;
	sc->rsi = regs->rsi;
	sc->rbp = regs->rbp;
	sc->rbx = regs->rbx;
	sc->rdx = regs->rdx;
	sc->rax = regs->rax;
	sc->rcx = regs->rcx;
	sc->rsp = regs->rsp;
	sc->rip = regs->rip;
	sc->eflags = regs->rflags;
	sc->cs = __USER_CS;
	sc->ss = __USER_DS;
	/* The last fault's, whatever the signal, as Linux's (force_sig_trap records them). */
	sc->trapno = t->trap_nr;
	sc->err = t->error_code;
	sc->cr2 = t->cr2;
	sc->oldmask = frame.uc.uc_sigmask;
	sc->fpstate = fx;
	siginfo_to_user(&frame.info, info);

	fpu_snapshot(&fpu);
	if (copy_to_user((void __user *)fx, &fpu, sizeof(fpu)) ||
	    copy_to_user((void __user *)fp, &frame, sizeof(frame)))
		return -EFAULT;

	regs->rdi = (uint64_t)sig;
	regs->rax = 0; /* for handlers declared without a prototype, as Linux */
	regs->rsi = fp + offsetof(struct rt_sigframe, info);
	regs->rdx = fp + offsetof(struct rt_sigframe, uc);
	/*
	 * Not checked here: a non-canonical one is SIGSEGV once the frame is built, as Linux's #GP
	 */
	regs->rip = ka->handler;
	regs->rsp = fp;
	regs->rflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	/* The handler starts with a clean FPU, as Linux's fpu__clear_user_states(). */
	fpu_init_state(&fpu);
	fpu_load(&fpu);
	return 0;
}

/*
 * A return to a non-canonical RIP asked for: the #GP that IRET would raise, as a fault of the
 * program's (Linux fixes the kernel's fault up into exactly that, bad_iret): SIGSEGV, SI_KERNEL,
 * no address; its handler's sigcontext has the bad RIP, trapno 13 and err 0.
 * A non-canonical RSP: who made the CPU decides. AMD's IRET refuses it, a #GP Linux fixes up as
 * above (SIGSEGV, trapno 13); Intel's takes it, and the program's first use of its stack faults
 * (#SS: SIGBUS, SI_KERNEL, trapno 12). Lucid gives the fault Linux would give on the CPU it runs
 * on (QEMU's default qemu64 calls itself AuthenticAMD), at once, at the RIP returned to.
 */
static bool cpu_vendor_amd(void)
{
	static const char amd[12] = "AuthenticAMD", hygon[12] = "HygonGenuine"; /* AMD's licensee */
	uint32_t leaf, id[3];

	cpuid(0, 0, &leaf, &id[0], &id[2], &id[1]); /* the maker's name: EBX, EDX, ECX */
	return !memcmp(id, amd, sizeof(amd)) || !memcmp(id, hygon, sizeof(hygon));
}

bool __bad_user_return(struct pt_regs *regs)
{
	struct ksiginfo info = {.signo = SIGSEGV, .code = SI_KERNEL};

	if (!is_canonical_address(regs->rip) || cpu_vendor_amd()) {
		force_sig_trap(regs, &info, VEC_GENERAL_PROTECTION, 0);
		return true;
	}
	info.signo = SIGBUS;
	force_sig_trap(regs, &info, VEC_STACK_SEGMENT, 0);
	return true;
}

long sys_rt_sigreturn(void)
{
	struct task *t = current;
	struct pt_regs *regs = current_pt_regs();
	unsigned long fp = regs->rsp - sizeof(uint64_t); /* the handler's ret popped pretcode */
	struct rt_sigframe frame;
	struct sigcontext *sc = &frame.uc.uc_mcontext;
	struct fpu fpu;

	if (copy_from_user(&frame, (const void __user *)fp, sizeof(frame)))
		goto badframe;
	if (sc->fpstate) {
		uint32_t mxcsr;

		if (copy_from_user(&fpu, (const void __user *)sc->fpstate, sizeof(fpu)))
			goto badframe;
		/* A bit FXRSTOR refuses would fault in the kernel: drop it, as Linux sanitizes. */
		memcpy(&mxcsr, fpu.fxsave + FXSAVE_MXCSR_OFFSET, sizeof(mxcsr));
		mxcsr &= fpu_mxcsr_mask();
		memcpy(fpu.fxsave + FXSAVE_MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
	} else {
		fpu_init_state(&fpu);
	}
	set_current_blocked(frame.uc.uc_sigmask);
	/*
	 * The alternate stack the frame says, before the registers, as Linux's: RSP is still the
	 * frame's, so a handler that ran on that stack cannot change it (EPERM, ignored as every
	 * error here), and one that ran elsewhere can.
	 */
	(void)do_sigaltstack(&frame.uc.uc_stack, NULL, regs->rsp);
	regs->r8 = sc->r8;
	regs->r9 = sc->r9;
	regs->r10 = sc->r10;
	regs->r11 = sc->r11;
	regs->r12 = sc->r12;
	regs->r13 = sc->r13;
	regs->r14 = sc->r14;
	regs->r15 = sc->r15;
	regs->rdi = sc->rdi;
	regs->rsi = sc->rsi;
	regs->rbp = sc->rbp;
	regs->rbx = sc->rbx;
	regs->rdx = sc->rdx;
	regs->rax = sc->rax;
	regs->rcx = sc->rcx;
	regs->rsp = sc->rsp;
	regs->rip = sc->rip; /* a bad user address faults in user mode: only the process sees it */
	regs->rflags = (regs->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	regs->cs = __USER_CS; /* a program cannot make itself ring 0 */
	regs->ss = __USER_DS;
	regs->orig_rax = (uint64_t)-1; /* not a system call to restart */
	t->restart_end = 0; /* nor one interrupted before: restart_syscall is EINTR now */
	fpu_load(&fpu);
	bad_user_return(regs); /* a non-canonical RIP: SIGSEGV before any IRET there */
	return (long)regs->rax; /* do_syscall_64 stores it back: RAX as it was */

badframe:
	printk(KERN_INFO "%s[%d] bad frame in rt_sigreturn frame:%lx ip:%lx sp:%lx orax:%lx\n",
	       t->comm, t->pid, fp, regs->rip, regs->rsp, regs->orig_rax);
	force_sig(SIGSEGV);
	return 0;
}

/*
 * The syscall frame of a call that can still be restarted (not after rt_sigreturn, which sets
 * orig_rax to -1): any other number, high bits and all, is put back whole, as Linux's.
 */
static bool in_syscall(const struct pt_regs *regs)
{
	return regs->vector == VEC_SYSCALL && regs->orig_rax != (uint64_t)-1;
}

static void restart_syscall(struct pt_regs *regs, unsigned long nr)
{
	regs->rax = nr;
	regs->rip -= SYSCALL_INSN_LEN;
}

void arch_do_signal_or_restart(struct pt_regs *regs)
{
	struct ksiginfo info;
	struct k_sigaction ka;

	int sig = get_signal(&info, &ka);
	long ret = (long)regs->rax;

	if (sig) {
		if (in_syscall(regs)) {
			switch (ret) {
			case -ERESTART_RESTARTBLOCK:
			case -ERESTARTNOHAND:
				regs->rax = (uint64_t)-EINTR;
				break;
			case -ERESTARTSYS:
				if (!(ka.flags & SA_RESTART)) {
					regs->rax = (uint64_t)-EINTR;
					break;
				}
				restart_syscall(regs, regs->orig_rax);
				break;
			case -ERESTARTNOINTR:
				restart_syscall(regs, regs->orig_rax);
				break;
			default:
				break;
			}
			regs->orig_rax = (uint64_t)-1;
		}
		if (setup_rt_frame(sig, &info, &ka, regs)) {
			force_sigsegv(sig);
			return;
		}
		signal_delivered(sig, &ka);
		/* A handler at a non-canonical address: its SIGSEGV, on the loop's next pass. */
		bad_user_return(regs);
		return;
	}
	if (in_syscall(regs)) { /* no handler ran: the call goes on as if nothing happened */
		switch (ret) {
		case -ERESTARTNOHAND:
		case -ERESTARTSYS:
		case -ERESTARTNOINTR:
			restart_syscall(regs, regs->orig_rax);
			break;
		case -ERESTART_RESTARTBLOCK:
			restart_syscall(regs, __NR_restart_syscall);
			break;
		default:
			break;
		}
		regs->orig_rax = (uint64_t)-1;
	}
	restore_saved_sigmask();
	/*
	 * rt_sigreturn's SIGSEGV for a non-canonical RIP found no handler to run after all (another
	 * thread made it SIG_IGN meanwhile): the process dies of it here, never IRET there.
	 */
	bad_user_return(regs);
}

/* What Linux 6.1's core trace options do beyond the output formats (trace/trace_output.c). */

/*
 * The options are bits of trace_array.trace_flags (trace/trace.h, listed in trace/trace.c in
 * Linux's order). Most only change how the trace prints; those here change what is recorded
 * or how the files behave:
 *
 *   stacktrace       after every trace event, a TRACE_STACK record of the kernel stack
 *   userstacktrace   ... and a TRACE_USER_STACK record of the program's (sym-userobj prints it)
 *   record-tgid      remember each recorded task's thread group (saved_tgids, a column)
 *   pause-on-trace   recording pauses while the trace file is open
 *   block            poll of trace_pipe always says readable (trace/trace_iter.c)
 *   disable_on_free  closing free_buffer turns tracing off as well
 *
 * and the files that go with them: saved_tgids, buffer_percent, timestamp_mode, free_buffer.
 * The user stack's printer is here too, as it looks up the program (sym-userobj).
 *
 * Options whose effect belongs to what Lucid does not have (function-trace and display-graph:
 * the latency tracers') are kept and listed, so that scripts and tools that set them work.
 * hash-ptr acts where events print (trace_event_printf, trace/trace_output.c).
 *
 * Not traced: the event path calls in here.
 */
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/trace_output.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

/* --- stacktrace and userstacktrace ---------------------------------------------------------- */

/*
 * A word of the user program's memory, read through its page tables rather than by touching
 * the address: an event may come in any context (an interrupt, with the page-fault path's own
 * locks held), where a fault must not happen. A page that is not present ends the walk, as
 * Linux's copy_from_user_nofault does. addr is 8-byte aligned, so the word is in one page.
 */
static bool user_word(struct mm_struct *mm, unsigned long addr, unsigned long *val)
{
	char *page;

	if ((addr & (sizeof(long) - 1)) || !access_ok((void *)addr, sizeof(long)))
		return false;
	page = mmu_user_page(mm->pgd, addr & ~(PAGE_SIZE - 1), NULL);
	if (!page)
		return false;
	*val = *(unsigned long *)(page + (addr & (PAGE_SIZE - 1)));
	return true;
}

/*
 * The user stack of the current program (Linux's ftrace_trace_userstack): where it entered the
 * kernel (the pt_regs at the top of its kernel stack), then the return addresses its frame
 * pointers lead to, for a program built with them; without, the walk stops after one or two.
 * Not in an NMI (Linux's rule) nor for a kernel thread, which has no user stack.
 */
static void ftrace_trace_userstack(struct trace_array *tr, unsigned int trace_ctx)
{
	struct task *t = current;
	const struct pt_regs *regs;
	struct ring_buffer_event *event;
	struct userstack_entry *entry;
	unsigned long fp;
	int n = 0;

	if (in_nmi() || !t || !t->mm || !t->stack)
		return;
	regs = (const struct pt_regs *)((char *)t->stack + KSTACK_SIZE) - 1;
	if (!user_mode(regs))
		return;
	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry));
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(&entry->ent, TRACE_USER_STACK, trace_ctx);
	entry->tgid = (unsigned int)(t->tgid ? t->tgid : t->pid);
	memset(entry->caller, 0, sizeof(entry->caller));
	entry->caller[n++] = regs->rip;
	fp = regs->rbp;
	while (n < FTRACE_USER_STACK_ENTRIES) {
		unsigned long next, ret;

		/* a frame lies above the stack pointer: anything else is not a frame */
		if (fp < regs->rsp || !user_word(t->mm, fp, &next) ||
		    !user_word(t->mm, fp + sizeof(long), &ret) || !ret)
			break;
		entry->caller[n++] = ret;
		fp = next;
	}
	ring_buffer_unlock_commit(tr->buffer);
}

/*
 * After an event is committed (trace_event_buffer_commit): its kernel stack and the program's
 * user stack as records of their own, as Linux's ftrace_trace_stack and ftrace_trace_userstack.
 * from is the return into the code that fired the event, so the kernel stack starts there.
 * Only called when one of the options is on: the event path tests the bits.
 */
void ftrace_trace_stacks(struct trace_array *tr, unsigned long from)
{
	unsigned int flags = READ_ONCE(tr->trace_flags);

	if (flags & TRACE_ITER_STACKTRACE)
		__trace_stack(tr, tracing_gen_ctx_dec(), from);
	if (flags & TRACE_ITER_USERSTACKTRACE)
		ftrace_trace_userstack(tr, tracing_gen_ctx_dec());
}

/*
 * sym-userobj: the file an address of program tgid lies in, and the offset from the start of
 * its area ("/bin/prog[+0x11d6]", Linux's seq_print_user_ip). False if the program is gone or
 * the address is in no file (its stack, its heap, an anonymous mapping). Task context.
 */
bool trace_user_obj(int tgid, unsigned long ip, char *path, size_t size, unsigned long *offset)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	const char *name = NULL;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		struct vm_area_struct *vma;

		if (t->pid != tgid || t->reaped || !t->mm)
			continue;
		spin_lock(&t->mm->mmap_lock);
		vma = find_vma(t->mm, ip);
		if (vma && ip >= vma->vm_start) {
			if (vma->kind == VMA_ELF)
				name = t->mm->exe_path;
			else if (vma->kind == VMA_FILE && vma->vm_name)
				name = vma->vm_name->path;
			*offset = ip - vma->vm_start;
		}
		if (name)
			strlcpy(path, name, size);
		spin_unlock(&t->mm->mmap_lock);
		break;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return name != NULL;
}

/*
 * A user program's stack: " =>  <addr>" per frame, or with sym-userobj the file and offset
 * " => /bin/prog[+0x11d6]" (and the address too with sym-addr, or where it is in no file), as
 * Linux's seq_print_user_ip. The program is looked up when the trace is read: gone, it shows
 * addresses only.
 */
#define USER_OBJ_PATH_LEN 128

static enum print_line_t trace_user_stack_print(struct trace_iterator *iter, unsigned int flags,
						struct trace_event *event)
{
	struct userstack_entry *field = (struct userstack_entry *)iter->ent;
	bool userobj = iter->tr->trace_flags & TRACE_ITER_SYM_USEROBJ;
	struct trace_seq *s = &iter->seq;
	char path[USER_OBJ_PATH_LEN];

	(void)event;
	trace_seq_puts(s, "<user stack trace>\n");
	for (int i = 0; i < FTRACE_USER_STACK_ENTRIES && !trace_seq_has_overflowed(s); i++) {
		unsigned long ip = field->caller[i], offset = 0;
		bool file = false;

		if (!ip)
			break;
		trace_seq_puts(s, " => ");
		if (userobj && !(iter->iter_flags & TRACE_FILE_DUMP))
			file = trace_user_obj((int)field->tgid, ip, path, sizeof(path), &offset);
		if (file)
			trace_seq_printf(s, "%s[+0x%lx]", path, offset);
		if ((flags & TRACE_ITER_SYM_ADDR) || !file)
			trace_seq_printf(s, " <%016lx>", ip);
		trace_seq_putc(s, '\n');
	}
	return trace_handle_return(s);
}

struct trace_event trace_user_stack_event = {.type = TRACE_USER_STACK,
					     .trace = trace_user_stack_print};

/* --- record-tgid and saved_tgids ------------------------------------------------------------ */

/* The map itself is beside the comm cache's (trace/trace_cmdline.c). */

/* saved_tgids: "pid tgid" for every pid whose tgid is known, as Linux's. */
static int saved_tgids_show(struct seq_file *m, void *v)
{
	(void)v;
	for (int pid = 1; pid <= PID_MAX_DEFAULT; pid++) {
		int tgid = trace_find_tgid(pid);

		if (tgid)
			seq_printf(m, "%d %d\n", pid, tgid);
	}
	return 0;
}

static int saved_tgids_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, saved_tgids_show, NULL);
}

const struct file_operations tracing_saved_tgids_fops = {
	.open = saved_tgids_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- pause-on-trace ------------------------------------------------------------------------- */

/*
 * Opening trace with the option on stops recording until the file is closed (Linux's
 * tracing_stop_tr: a nesting count, apart from tracing_on). The snapshot file does not pause.
 */
void trace_pause_on_open(struct trace_iterator *iter)
{
	if (iter->snapshot || !(READ_ONCE(iter->tr->trace_flags) & TRACE_ITER_PAUSE_ON_TRACE))
		return;
	ring_buffer_record_disable(iter->tr->buffer);
	iter->paused = true;
}

void trace_pause_on_release(struct trace_iterator *iter)
{
	if (iter->paused)
		ring_buffer_record_enable(iter->tr->buffer);
	iter->paused = false;
}

/* --- buffer_percent ------------------------------------------------------------------------- */

/*
 * How full a CPU's buffer must be before a blocked reader of its trace_pipe_raw wakes (Linux's
 * watermark; 50 by default), 0 to 100: poll and a blocking splice of trace_pipe_raw wait for it
 * (trace/trace_iter.c).
 */
#define BUFFER_PERCENT_MAX 100

/* Each trace array's own: an instance's starts at the default (trace/trace_instances.c). */
static ssize_t buffer_percent_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));

	return tracing_read_ulong(ppos, ubuf, cnt, READ_ONCE(tr->buffer_percent));
}

static ssize_t buffer_percent_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	if (val > BUFFER_PERCENT_MAX)
		return -EINVAL;
	WRITE_ONCE(tracing_get_tr(file_inode(file))->buffer_percent, val);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations buffer_percent_fops = {
	.read = buffer_percent_read,
	.write = buffer_percent_write,
};

/* --- timestamp_mode ------------------------------------------------------------------------- */

/*
 * Linux stores a time delta in each record and a full time stamp only now and then ("delta");
 * histogram triggers switch a buffer to "absolute". Lucid's records carry deltas too and
 * nothing asks for absolute, so the mode is always delta. Read-only, as Linux's.
 */
static ssize_t timestamp_mode_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	static const char text[] = "[delta] absolute\n";

	(void)file;
	return simple_read_from_buffer(ubuf, cnt, ppos, text, sizeof(text) - 1);
}

const struct file_operations trace_time_stamp_mode_fops = {
	.read = timestamp_mode_read,
};

/* --- free_buffer and disable_on_free -------------------------------------------------------- */

/*
 * free_buffer: writes are accepted and ignored; closing the file shrinks the buffer to its
 * smallest (Linux frees it to 0 pages; Lucid keeps the ring's minimum), and with
 * disable_on_free first turns tracing off. A program opens it at start and holds it: when the
 * program dies, however, the buffer goes back to the kernel.
 */
static ssize_t free_buffer_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file, (void)ubuf;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static int free_buffer_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = tracing_get_tr(inode); /* the top level's, or an instance's */

	(void)file;
	if (READ_ONCE(tr->trace_flags) & TRACE_ITER_DISABLE_ON_FREE)
		tracer_tracing_off(tr);
	tracing_resize_ring_buffer(tr, 0, RING_BUFFER_ALL_CPUS);
	return 0;
}

const struct file_operations tracing_free_buffer_fops = {
	.write = free_buffer_write,
	.release = free_buffer_release,
};

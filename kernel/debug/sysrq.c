/*
 * The magic SysRq key: one key, one emergency action, run at once from wherever the request
 * arrives, as Linux's drivers/tty/sysrq.c. Three ways in, all ending in handle_sysrq():
 *
 *   echo z > /proc/sysrq-trigger   Linux's file: the first character written is the key
 *   sysrq z                        a shell command doing the same
 *   Ctrl-O, then z                 on the console, straight from the serial interrupt: Linux
 *                                  takes a serial BREAK then a key, which QEMU's -serial stdio
 *                                  cannot send; it works even when the shell is stuck
 *
 * Each action says what it does first ("sysrq: Dump ftrace buffer"), as Linux prints it. An
 * unknown key prints the list, Linux's "HELP" line. Lucid has the two actions a tracer needs:
 * z dumps the trace buffer (ftrace_dump, with Linux's consequence: tracing is off afterwards
 * and what was printed is consumed), c crashes the kernel on purpose (panic: with
 * ftrace_dump_on_oops set, the trace is dumped on the way down). t shows every task's state
 * and, for one that sleeps, where: the first question about a hang ("who waits for what?").
 * And one of its own: x turns fault injection off (kernel/debug/fault_inject.c), the way out
 * when allocations fail everywhere; Linux leaves x to a few other architectures, none of them
 * x86.
 *
 * Actions run in interrupt context when the key comes from the console, so they must be safe
 * there: ftrace_dump and panic are.
 */
#include "kernel/debug/sysrq.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/traps.h"
#include "trace/trace_dump.h"
#include "lib/errno.h"
#include "lib/string.h"

struct sysrq_key_op {
	int key;
	void (*handler)(int key);
	const char *help_msg; /* in the HELP line */
	const char *action_msg; /* printed before the action runs */
};

static void sysrq_handle_crash(int key)
{
	(void)key;
	panic("sysrq triggered crash");
}

static void sysrq_fault_inject_off(int key)
{
	(void)key;
	fault_inject_off();
}

static void sysrq_ftrace_dump(int key)
{
	(void)key;
	ftrace_dump(DUMP_ALL);
}

/*
 * A task off its CPU stopped in __switch_to (arch/x86_64/switch.S), which left on its stack
 * the six registers it saves and, above them, the return into schedule(): enough to walk its
 * frames. One running elsewhere has a stack in use under our feet: its line only.
 */
#define SWITCH_FRAME_RBP 5 /* words from saved_rsp: r15 r14 r13 r12 rbx rbp, then the return */
#define SWITCH_FRAME_RET 6

static void sched_show_task(struct task *t)
{
	printk(KERN_INFO "task:%-15.15s state:%c pid:%-5d ppid:%-6d\n", t->comm,
	       t->state & TASK_DEAD ? 'Z' : task_state_char(t->state), t->pid, t->ppid);
	if (t == current || READ_ONCE(t->on_cpu))
		return;
	const unsigned long *frame = (const unsigned long *)t->saved_rsp;

	show_stack(t, frame[SWITCH_FRAME_RET], 0, frame[SWITCH_FRAME_RBP], KERN_INFO);
}

/*
 * Interrupt context, perhaps on a CPU that holds the task list's lock (the interrupted code
 * does): so only a try, as Linux's show_state takes no lock that could deadlock there.
 */
static void sysrq_handle_showstate(int key)
{
	struct task *t;
	unsigned long flags = local_irq_save();

	(void)key;
	if (!spin_trylock(&task_list_lock)) {
		printk(KERN_INFO "sysrq: the task list is busy, try again\n");
		local_irq_restore(flags);
		return;
	}
	list_for_each_entry(t, &task_list, tasks)
		sched_show_task(t);
	spin_unlock(&task_list_lock);
	local_irq_restore(flags);
}

/*
 * Where every CPU is: this one from here, the others by NMI (arch/x86_64/traps.c), a CPU that
 * stopped answering too. As Linux's trigger_all_cpu_backtrace().
 */
static void sysrq_handle_showallcpus(int key)
{
	unsigned long all = 0;

	(void)key;
	for (int c = 0; c < num_online_cpus(); c++)
		all |= 1UL << c;
	trigger_cpumask_backtrace(all);
}

/* In key order, as Linux's table (its HELP line follows the table). */
static const struct sysrq_key_op sysrq_key_table[] = {
	{'c', sysrq_handle_crash, "crash(c)", "Trigger a crash"},
	{'l', sysrq_handle_showallcpus, "show-backtrace-all-active-cpus(l)",
	 "Show backtrace of all active CPUs"},
	{'t', sysrq_handle_showstate, "show-task-states(t)", "Show State"},
	{'x', sysrq_fault_inject_off, "fault-injection-off(x)", "Turn fault injection off"},
	{'z', sysrq_ftrace_dump, "dump-ftrace-buffer(z)", "Dump ftrace buffer"},
};

/*
 * As Linux's __handle_sysrq: the header (the action, or the HELP line) is KERN_INFO but printed
 * with the console level raised to default_console_loglevel, so that whoever pressed the key
 * sees that it did something; the action's own output then has the level the user chose
 * (sysrq t's task list is KERN_INFO: in dmesg, on the console only with loglevel=7 or more).
 */
void handle_sysrq(int key)
{
	int orig_log_level = console_loglevel;

	console_loglevel = default_console_loglevel;
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_key_table); i++) {
		if (sysrq_key_table[i].key == key) {
			printk(KERN_INFO "sysrq: %s\n", sysrq_key_table[i].action_msg);
			console_loglevel = orig_log_level;
			sysrq_key_table[i].handler(key);
			return;
		}
	}
	printk(KERN_INFO "sysrq: HELP : ");
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_key_table); i++)
		printk(KERN_CONT "%s ", sysrq_key_table[i].help_msg);
	printk(KERN_CONT "\n");
	console_loglevel = orig_log_level;
}

/* --- /proc/sysrq-trigger ----------------------------------------------------------------- */

static ssize_t sysrq_trigger_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	if (cnt)
		handle_sysrq((unsigned char)ubuf[0]);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations sysrq_trigger_fops = {
	.write = sysrq_trigger_write,
};

void sysrq_init(void)
{
	if (!proc_create("sysrq-trigger", 0200, NULL, &sysrq_trigger_fops))
		printk(KERN_WARNING "sysrq: cannot create /proc/sysrq-trigger\n");
}

/* --- the shell command ------------------------------------------------------------------- */

static int cmd_sysrq(int argc, char **argv)
{
	if (argc != 2 || strlen(argv[1]) != 1) {
		dprintf(STDERR_FILENO, "usage: sysrq KEY (z: dump the trace buffer, t: tasks, c: "
				       "crash, x: fault injection off)\n");
		return 2;
	}
	handle_sysrq((unsigned char)argv[1][0]);
	return 0;
}
SHELL_CMD("sysrq", "the magic SysRq key: sysrq z dumps the trace buffer", cmd_sysrq);

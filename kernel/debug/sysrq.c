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
 * ftrace_dump_on_oops set, the trace is dumped on the way down). And one of its own: x turns
 * fault injection off (kernel/debug/fault_inject.c), the way out when allocations fail everywhere;
 * Linux leaves x to a few other architectures, none of them x86.
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

/* In key order, as Linux's table (its HELP line follows the table). */
static const struct sysrq_key_op sysrq_key_table[] = {
	{'c', sysrq_handle_crash, "crash(c)", "Trigger a crash"},
	{'x', sysrq_fault_inject_off, "fault-injection-off(x)", "Turn fault injection off"},
	{'z', sysrq_ftrace_dump, "dump-ftrace-buffer(z)", "Dump ftrace buffer"},
};

void handle_sysrq(int key)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_key_table); i++) {
		if (sysrq_key_table[i].key == key) {
			printk(KERN_INFO "sysrq: %s\n", sysrq_key_table[i].action_msg);
			sysrq_key_table[i].handler(key);
			return;
		}
	}
	printk(KERN_INFO "sysrq: HELP : ");
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_key_table); i++)
		printk(KERN_CONT "%s ", sysrq_key_table[i].help_msg);
	printk(KERN_CONT "\n");
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
		dprintf(STDERR_FILENO, "usage: sysrq KEY (z: dump the trace buffer, c: crash, x: "
				       "fault injection off)\n");
		return 2;
	}
	handle_sysrq((unsigned char)argv[1][0]);
	return 0;
}
SHELL_CMD("sysrq", "the magic SysRq key: sysrq z dumps the trace buffer", cmd_sysrq);

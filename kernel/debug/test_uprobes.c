/*
 * /sys/kernel/debug/uprobe_signal: a uprobe consumer whose handler sends a signal to the task
 * that hit the probe, as a BPF program's bpf_send_signal() does on Linux. The signal is then
 * pending at the very moment the task goes back to ring 3 to step the probed instruction's
 * copy, which is what Linux's uprobe_deny_signal is for (kernel/events/uprobes.c): a test can
 * count on it happening on every hit, where a timer's signal lands in that window only now and
 * then (tests/qemu/trace/test_uprobes.py).
 *
 *	echo 'on PATH OFFSET SIGNUM' > uprobe_signal	the consumer on PATH:OFFSET
 *	echo off > uprobe_signal; cat uprobe_signal	taken off: "uprobe_signal: N hits"
 *
 * One consumer at a time; its hits are counted whatever they do.
 */
#include "kernel/debug/test_uprobes.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/events/uprobes.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

static struct path sig_path;
static unsigned long sig_offset;
static int sig_signo;
static unsigned long sig_hits;

static int sig_handler(struct uprobe_consumer *self, struct pt_regs *regs)
{
	(void)self;
	(void)regs;
	__atomic_fetch_add(&sig_hits, 1, __ATOMIC_RELAXED);
	send_sig(sig_signo, current);
	return 0;
}

static struct uprobe_consumer sig_consumer = {.handler = sig_handler};

static int cmd_uprobe_signal(int argc, char **argv, struct debugfs_cmd_output *out)
{
	unsigned long off, signo;
	int err;

	if (argc == 2 && !strcmp(argv[1], "off")) {
		if (!sig_path.dentry)
			return -ENOENT;
		uprobe_unregister(sig_path.dentry->d_inode, (loff_t)sig_offset, &sig_consumer);
		vfs_path_put_locked(&sig_path);
		sig_path.dentry = NULL;
		cmd_printf(out, "uprobe_signal: %lu hits\n", sig_hits);
		return 0;
	}
	if (argc != 5 || strcmp(argv[1], "on") || kstrtoul(argv[3], 0, &off) ||
	    kstrtoul(argv[4], 0, &signo) || signo < 1 || signo > _NSIG)
		return -EINVAL;
	if (sig_path.dentry)
		return -EBUSY;
	err = vfs_path_get_locked(argv[2], &sig_path);
	if (err)
		return err;
	sig_offset = off;
	sig_signo = (int)signo;
	sig_hits = 0;
	err = uprobe_register(sig_path.dentry->d_inode, (loff_t)off, &sig_consumer);
	if (err) {
		vfs_path_put_locked(&sig_path);
		sig_path.dentry = NULL;
	}
	return err;
}

static const struct debugfs_cmd uprobe_signal_cmd = {"uprobe_signal", cmd_uprobe_signal};

void uprobe_signal_init(void)
{
	debugfs_create_cmd(&uprobe_signal_cmd);
}

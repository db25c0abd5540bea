/*
 * /sys/kernel/debug/uprobe_test: the uprobe mechanism (kernel/events/uprobes.c) without the
 * event layer above it, as a test drives it. Write "PATH OFFSET" to put a probe with a handler
 * and a ret_handler on that byte of the file, "-" to take it off; read back one line:
 * "hits=N returns=M retval=R" (R: rax at the last return, as a uretprobe's $retval).
 * One probe at a time (-EBUSY for a second); -ENOENT, -EINVAL as uprobe_register answers.
 */
#include "kernel/debug/uprobe_test.h"
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/events/uprobes.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

static struct path probe_path;
static loff_t probe_offset;
static bool armed;
static unsigned long hits, returns, last_retval;

static int test_handler(struct uprobe_consumer *self, struct pt_regs *regs)
{
	(void)self;
	(void)regs;
	__atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
	return 0;
}

static int test_ret_handler(struct uprobe_consumer *self, unsigned long func, struct pt_regs *regs)
{
	(void)self;
	(void)func;
	last_retval = regs->rax;
	__atomic_add_fetch(&returns, 1, __ATOMIC_RELAXED);
	return 0;
}

static struct uprobe_consumer test_consumer = {
	.handler = test_handler,
	.ret_handler = test_ret_handler,
};

static int cmd_uprobe_test(int argc, char **argv, struct debugfs_cmd_output *out)
{
	if (argc == 2 && !strcmp(argv[1], "-")) {
		if (!armed)
			return -ENOENT;
		uprobe_unregister(probe_path.dentry->d_inode, probe_offset, &test_consumer);
		vfs_path_put(&probe_path);
		armed = false;
	} else if (argc == 3) {
		unsigned long off;

		if (armed)
			return -EBUSY;
		if (kstrtoul(argv[2], 0, &off))
			return -EINVAL;
		int err = vfs_path_get(argv[1], &probe_path);

		if (err)
			return err;
		hits = returns = last_retval = 0;
		probe_offset = (loff_t)off;
		err = uprobe_register(probe_path.dentry->d_inode, probe_offset, &test_consumer);
		if (err) {
			vfs_path_put(&probe_path);
			return err;
		}
		armed = true;
	} else if (argc != 1) {
		cmd_printf(out, "usage: uprobe_test PATH OFFSET | uprobe_test -\n");
		return -EINVAL;
	}
	cmd_printf(out, "hits=%lu returns=%lu retval=%lu\n", hits, returns, last_retval);
	return 0;
}

static const struct debugfs_cmd uprobe_test_debugfs = {"uprobe_test", cmd_uprobe_test};

void uprobe_test_init(void)
{
	debugfs_create_cmd(&uprobe_test_debugfs);
}

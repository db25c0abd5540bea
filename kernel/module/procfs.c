/*
 * /proc/modules, in Linux's format (kernel/module/procfs.c), one line a module, newest first:
 *
 *     foo 12288 0 - Live 0xffffffffc0000000
 *
 * name, size in bytes (its pages), references, the modules using it ("-": none; Lucid's modules
 * do not depend on each other's references), its state (Live, Loading while its init runs,
 * Unloading while its exit runs), and where it is. lsmod prints the same from the same walk.
 */
#include "kernel/module/module.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"

static const char *module_state_name(const struct module *mod)
{
	switch (mod->state) {
	case MODULE_STATE_GOING:
		return "Unloading";
	case MODULE_STATE_COMING:
		return "Loading";
	default:
		return "Live";
	}
}

static void m_show(struct module *mod, void *data)
{
	struct seq_file *m = data;

	seq_printf(m, "%s %u %d ", mod->name, mod->core_layout.size, module_refcount(mod));
	/* An init without an exit: the module can never be unloaded, as Linux says. */
	seq_puts(m, mod->init && !mod->exit ? "[permanent]," : "-");
	seq_printf(m, " %s 0x%016lx\n", module_state_name(mod),
		   (unsigned long)mod->core_layout.base);
}

static int modules_show(struct seq_file *m, void *v)
{
	(void)v;
	module_for_each(m_show, m);
	return 0;
}

static int modules_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, modules_show, NULL);
}

static const struct file_operations modules_fops = {
	.open = modules_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

int module_init_files(void)
{
	return proc_create("modules", 0444, NULL, &modules_fops) ? 0 : -ENOMEM;
}

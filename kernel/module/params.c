/*
 * Module parameters: `insmod NAME a=1 b=x` sets the module's variables before its init, and
 * /sys/module/NAME/parameters/ shows them (and changes them, where their mode allows).
 */

/*
 * Linux's kernel/params.c, the part a module needs. The words are read as Linux's parse_args
 * reads them: separated by white space (busybox's insmod ends each with a space), a
 * double-quoted part may hold spaces (a="x y"), the quotes themselves are not part of the value.
 * A word that names no parameter of the module is ignored with a warning (Linux's
 * unknown_module_param_cb); a value its parameter cannot take refuses the whole load.
 */
#include "kernel/module/module.h"
#include "kernel/fs/sysfs.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define PARAM_WORD_MAX 256 /* one name=value, as long as a module line may sensibly be */

static int param_set_int(const char *val, const struct kernel_param *kp)
{
	return val ? kstrtoint(val, 0, kp->arg) : -EINVAL;
}

int param_set_uint(const char *val, const struct kernel_param *kp)
{
	return val ? kstrtouint(val, 0, kp->arg) : -EINVAL;
}

static int param_set_ulong(const char *val, const struct kernel_param *kp)
{
	return val ? kstrtoul(val, 0, kp->arg) : -EINVAL;
}

/* Linux's kstrtobool, the common spellings: 1/0, y/n, on/off; "name" alone is true. */
static int param_set_bool(const char *val, const struct kernel_param *kp)
{
	bool *b = kp->arg;

	if (!val || !strcmp(val, "1") || !strcmp(val, "y") || !strcmp(val, "Y") ||
	    !strcmp(val, "on")) {
		*b = true;
		return 0;
	}
	if (!strcmp(val, "0") || !strcmp(val, "n") || !strcmp(val, "N") || !strcmp(val, "off")) {
		*b = false;
		return 0;
	}
	return -EINVAL;
}

/* What the files show: Linux's param_get_*, the value and a newline; a bool is Y or N. */
static int param_get_int(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PARAM_VALUE_MAX, "%d\n", READ_ONCE(*(int *)kp->arg));
}

int param_get_uint(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PARAM_VALUE_MAX, "%u\n", READ_ONCE(*(unsigned int *)kp->arg));
}

static int param_get_ulong(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PARAM_VALUE_MAX, "%lu\n", READ_ONCE(*(unsigned long *)kp->arg));
}

static int param_get_bool(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PARAM_VALUE_MAX, "%c\n", READ_ONCE(*(bool *)kp->arg) ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_int = {.set = param_set_int, .get = param_get_int};
const struct kernel_param_ops param_ops_uint = {.set = param_set_uint, .get = param_get_uint};
const struct kernel_param_ops param_ops_ulong = {.set = param_set_ulong, .get = param_get_ulong};
const struct kernel_param_ops param_ops_bool = {.set = param_set_bool, .get = param_get_bool};

static bool param_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int parse_args(const char *modname, const char *args, const struct kernel_param *params,
	       unsigned int num)
{
	char word[PARAM_WORD_MAX];

	for (;;) {
		bool quoted = false;
		char *val = NULL;
		size_t n = 0;
		unsigned int i;

		while (param_space(*args))
			args++;
		if (!*args)
			return 0;
		for (; *args && (quoted || !param_space(*args)); args++) {
			if (*args == '"') {
				quoted = !quoted;
				continue;
			}
			/* longer than any parameter: cut (then refused or unknown) */
			if (n >= sizeof(word) - 1)
				continue;
			if (*args == '=' && !quoted && !val) {
				word[n++] = '\0';
				val = &word[n];
				continue;
			}
			word[n++] = *args;
		}
		word[n] = '\0';
		for (i = 0; i < num; i++)
			if (!strcmp(params[i].name, word))
				break;
		if (i == num) {
			pr_warn("%s: unknown parameter '%s' ignored\n", modname, word);
			continue;
		}
		if (params[i].ops->set(val, &params[i])) {
			pr_err("%s: '%s' invalid for parameter '%s'\n", modname, val ? val : "",
			       word);
			return -EINVAL;
		}
	}
}

/* --- /sys/module/NAME/parameters/ --------------------------------------------------------- */

/*
 * Linux's module_param_sysfs_setup: a directory per loaded module, and in its parameters/ a file
 * per parameter with a mode (perm), the file's inode pointing at the struct kernel_param. A
 * read formats the value afresh (ops->get); a write hands the text to ops->set, the same as
 * insmod's word, and a value it refuses changes nothing (its errno: EINVAL, or ERANGE for a
 * number too big). As Linux's sysfs, a mode without w bits refuses the open for writing, even
 * root's (EACCES), and one without r bits the open for reading.
 *
 * The files live from before the module's init until after its exit: the loader removes them
 * (sysfs_remove, under the VFS lock) before it frees the module, and reads and writes run under
 * the VFS lock too, so none can be inside the module's variables when they go.
 */
#define PARAM_WRITE_MAX 4096 /* Linux's sysfs takes a page at most from one write */
#define PARAM_S_IRUGO 0444
#define PARAM_S_IWUGO 0222

static int param_open(struct inode *inode, struct file *file)
{
	const struct kernel_param *kp = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && (!(kp->perm & PARAM_S_IWUGO) || !kp->ops->set))
		return -EACCES;
	if ((file->f_mode & FMODE_READ) && (!(kp->perm & PARAM_S_IRUGO) || !kp->ops->get))
		return -EACCES;
	return 0;
}

static ssize_t param_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct kernel_param *kp = file->f_inode->i_private;
	char buf[PARAM_VALUE_MAX];
	int len = kp->ops->get(buf, kp);

	if (len < 0)
		return len;
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, (size_t)len);
}

static ssize_t param_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct kernel_param *kp = file->f_inode->i_private;
	static char buf[PARAM_WRITE_MAX + 1]; /* the VFS lock makes it one writer's at a time */
	size_t len = MIN(cnt, (size_t)PARAM_WRITE_MAX);
	int err;

	memcpy(buf, ubuf, len);
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0'; /* echo's newline is not part of the value */
	err = kp->ops->set(buf, kp);
	if (err)
		return err;
	*ppos += (loff_t)len;
	return (ssize_t)len;
}

static const struct file_operations param_fops = {
	.open = param_open,
	.read = param_read,
	.write = param_write,
};

int mod_sysfs_setup(struct module *mod)
{
	struct dentry *params = NULL;

	mod->sysfs_dir = sysfs_create_dir(mod->name, sysfs_module_dir());
	if (!mod->sysfs_dir)
		return -ENOMEM;
	for (unsigned int i = 0; i < mod->num_kp; i++) {
		const struct kernel_param *kp = &mod->kp[i];

		if (!kp->perm)
			continue; /* no file, as Linux's */
		if (!params)
			params = sysfs_create_dir("parameters", mod->sysfs_dir);
		if (!params ||
		    !sysfs_create_file(kp->name, kp->perm, params, (void *)kp, &param_fops)) {
			mod_sysfs_teardown(mod);
			return -ENOMEM;
		}
	}
	return 0;
}

void mod_sysfs_teardown(struct module *mod)
{
	sysfs_remove(mod->sysfs_dir);
	mod->sysfs_dir = NULL;
}

/* Module parameters: `insmod NAME a=1 b=x` sets the module's variables before its init. */

/*
 * Linux's kernel/params.c, the part a module needs. The words are read as Linux's parse_args
 * reads them: separated by white space (busybox's insmod ends each with a space), a
 * double-quoted part may hold spaces (a="x y"), the quotes themselves are not part of the value.
 * A word that names no parameter of the module is ignored with a warning (Linux's
 * unknown_module_param_cb); a value its parameter cannot take refuses the whole load.
 */
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

#define PARAM_WORD_MAX 256 /* one name=value, as long as a module line may sensibly be */

static int param_set_int(const char *val, const struct kernel_param *kp)
{
	return val ? kstrtoint(val, 0, kp->arg) : -EINVAL;
}

static int param_set_uint(const char *val, const struct kernel_param *kp)
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

const struct kernel_param_ops param_ops_int = {.set = param_set_int};
const struct kernel_param_ops param_ops_uint = {.set = param_set_uint};
const struct kernel_param_ops param_ops_ulong = {.set = param_set_ulong};
const struct kernel_param_ops param_ops_bool = {.set = param_set_bool};

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
			if (n >= sizeof(word) - 1)
				continue; /* longer than any parameter: cut (then refused or unknown) */
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

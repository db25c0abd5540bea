/* Function commands in set_ftrace_filter: cutting "glob:command[:count]", and their listing. */

/*
 * "echo 'do_trap:traceoff:3' > set_ftrace_filter" does not filter: it attaches the command
 * traceoff to do_trap, to fire at most 3 times. A word is a command if it has a ':'. The
 * rules are Linux's (kernel/trace/ftrace.c ftrace_process_regex, trace_functions.c
 * ftrace_trace_probe_callback, ftrace_probe_print), kept apart here as pure functions so that
 * the host tests them (tests/unit/test_ftrace_cmd_parse.c).
 *
 * Not traced, as all of trace/.
 */
#include "trace/ftrace_cmd_parse.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

bool ftrace_cmd_split(char *word, struct ftrace_cmd_spec *spec)
{
	char *next = word, *func = strsep(&next, ":");

	if (!next)
		return false;
	spec->remove = func[0] == '!';
	spec->glob = spec->remove ? func + 1 : func;
	spec->cmd = strsep(&next, ":");
	spec->param = next; /* NULL when there was no second ':' */
	return true;
}

int ftrace_mod_split(const char *word, struct ftrace_mod_spec *spec)
{
	const char *cmd = strchr(word, ':'), *module;
	size_t flen;

	if (!cmd || strncmp(cmd + 1, "mod:", 4)) /* ftrace_process_regex: the word between */
		return !!cmd && !strcmp(cmd + 1, "mod") ? -EINVAL : 0;
	module = cmd + 5; /* Linux passes the rest, ':'s and all, as the module's name */
	flen = (size_t)(cmd - word);
	if (!*module || flen >= sizeof(spec->func) || strlen(module) >= sizeof(spec->module))
		return -EINVAL;
	memcpy(spec->func, word, flen);
	spec->func[flen] = '\0';
	strcpy(spec->module, module);
	return 1;
}

int ftrace_cmd_count(const char *param, bool *counted, long *count)
{
	char number[32];
	const char *end;
	unsigned long n;
	size_t len;
	int ret;

	*counted = param != NULL;
	*count = -1;
	if (!param)
		return 0;
	end = strchr(param, ':');
	len = end ? (size_t)(end - param) : strlen(param);
	if (len == 0)
		return 0; /* "glob:cmd:" -- counted, with Linux's -1 */
	if (len >= sizeof(number))
		return -EINVAL;
	memcpy(number, param, len);
	number[len] = '\0';
	ret = kstrtoul(number, 0, &n);
	if (ret)
		return ret;
	*count = (long)n; /* Linux keeps it in a pointer and prints it with %ld: so do we */
	return 0;
}

size_t ftrace_probe_line(char *buf, size_t size, const char *func, const char *cmd,
			 bool counted, long count)
{
	int n = counted ? snprintf(buf, size, "%s:%s:count=%ld\n", func, cmd, count)
			: snprintf(buf, size, "%s:%s:unlimited\n", func, cmd);

	return n < 0 ? 0 : (size_t)n;
}

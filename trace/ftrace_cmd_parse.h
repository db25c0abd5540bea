/*
 * Function commands in set_ftrace_filter, "glob:command[:count]": the text side
 * (trace/ftrace_cmd_parse.c). The commands themselves are in trace/trace_func_cmds.c.
 */
#ifndef TRACE_FTRACE_CMD_PARSE_H
#define TRACE_FTRACE_CMD_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* A word of a set_ftrace_filter write that names a command, cut into its parts. */
struct ftrace_cmd_spec {
	bool remove; /* "!glob:command": take the command off these functions */
	char *glob; /* the functions (without the '!'); "" */
	char *cmd; /* "traceoff" */
	char *param; /* what follows the second ':' (the count), or NULL if there is none */
};

/*
 * Cuts word in place, at its first two ':' (Linux's strsep in ftrace_process_regex). false if
 * it has no ':' at all: then it is a function name or glob, not a command.
 */
bool ftrace_cmd_split(char *word, struct ftrace_cmd_spec *spec);

/*
 * The count of "glob:cmd:count", Linux's rules: no param, the unlimited form of the command
 * (*counted false); a param, the counted form, its count the number before any further ':'
 * (0x.. and 0.. too, as kstrtoul with base 0), and an empty number meaning -1 (which Linux
 * accepts and then never fires). 0, or -EINVAL / -ERANGE for a bad number.
 */
int ftrace_cmd_count(const char *param, bool *counted, long *count);

/*
 * The line set_ftrace_filter shows for a command on a function: "func:cmd:unlimited\n" or
 * "func:cmd:count=N\n", N being what is left. Returns the length it needs, as snprintf.
 */
size_t ftrace_probe_line(char *buf, size_t size, const char *func, const char *cmd, bool counted,
			 long count);

/*
 * The "mod" command, "glob:mod:module" (Linux's ftrace_mod_cmd): not a function command but a
 * filter word limited to one module's functions (trace/ftrace.c). The '!' of "!glob:mod:module"
 * is the caller's, as for plain words.
 */
#define FTRACE_MODNAME_LEN 56 /* Linux's MODULE_NAME_LEN: 64 - sizeof(unsigned long), NUL too */
#define FTRACE_MOD_FUNC_LEN 128
struct ftrace_mod_spec {
	char func[FTRACE_MOD_FUNC_LEN]; /* the glob, "*" for every function of the module */
	char module[FTRACE_MODNAME_LEN];
};

/*
 * 1 if word is "glob:mod:module" (filled in spec), 0 if it is not the mod command (a plain word
 * or another command), -EINVAL if it is but cannot name one: no module, or a part too long.
 */
int ftrace_mod_split(const char *word, struct ftrace_mod_spec *spec);

#endif

/*
 * The shell's command table. Each command registers itself with SHELL_CMD() in the file that
 * implements it; the linker gathers them into one table (section .shell_cmds, linker.ld), so
 * adding a command touches one place.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include <stdbool.h>
#include "lib/compiler.h"

struct shell_cmd {
	const char *name;
	const char *help; /* one line, shown by `help` */
	int (*fn)(int argc, char **argv); /* returns the exit status, as $? shows it */
	bool builtin; /* runs in the shell's own thread, so it can change the shell (cd) */
};

/*
 * A command runs in a thread of its own, with its own copy of the shell's cwd and fds, as a
 * program runs in a child process; a builtin runs inside the shell when it is alone on its
 * pipeline, as bash's cd must.
 */
#define SHELL_CMD(cname, chelp, cfn)                                                               \
	static const struct shell_cmd __shell_cmd_##cfn __used __section(".shell_cmds")            \
		__aligned(8) = {.name = cname, .help = chelp, .fn = cfn}
#define SHELL_BUILTIN(cname, chelp, cfn)                                                           \
	static const struct shell_cmd __shell_cmd_##cfn __used __section(".shell_cmds")            \
		__aligned(8) = {.name = cname, .help = chelp, .fn = cfn, .builtin = true}

const struct shell_cmd *shell_find_cmd(const char *name);
int shell_main(void *arg);
/* Runs one line as typed (kernel/shell/sh_exec.c); status is $? before it. Returns $? after it. */
int sh_run_line(const char *text, int status);
/* Gives the terminal back the settings it had before the prompt read the line in raw mode. */
void sh_tty_restore(void);
/* Iterates over the table in name order. */
const struct shell_cmd *shell_cmd_first(void);
const struct shell_cmd *shell_cmd_next(const struct shell_cmd *c);

#endif

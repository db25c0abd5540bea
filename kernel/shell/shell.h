/*
 * The rescue console's command table. Each command registers itself with SHELL_CMD() in the
 * file that implements it; the linker gathers them into one table (section .shell_cmds,
 * linker.ld), so adding a command touches one place.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "lib/compiler.h"

struct shell_cmd {
	const char *name;
	const char *help; /* one line, shown by `help` */
	int (*fn)(int argc, char **argv); /* returns the exit status: 0 for success */
};

/* A command runs in the console's own kernel thread, with the console as fds 0, 1 and 2. */
#define SHELL_CMD(cname, chelp, cfn)                                                               \
	static const struct shell_cmd __shell_cmd_##cfn __used __section(".shell_cmds")            \
		__aligned(8) = {.name = cname, .help = chelp, .fn = cfn}

extern const struct shell_cmd __start_shell_cmds[], __stop_shell_cmds[]; /* linker.ld */
const struct shell_cmd *shell_find_cmd(const char *name);

/*
 * The rescue console (kernel/shell/shell.c), run by pid 1 in place of init: never returns.
 * rescue_console() sets the task up as a fresh kernel thread on the console first.
 */
int __noreturn rescue_console(void *arg);
/* Runs path as the kernel runs init (kernel/main.c); returns only the error if it cannot. */
int run_init_process(const char *path, char *const argv[]);

#endif

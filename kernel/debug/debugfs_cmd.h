/*
 * A debugfs file that runs a command (kernel/debug/debugfs_cmd.c): /sys/kernel/debug/ftest,
 * run_test and callsite. Write the arguments, the command runs in the write(2), in the writer's
 * context; read the same open file for what it printed.
 */
#ifndef KERNEL_DEBUGFS_CMD_H
#define KERNEL_DEBUGFS_CMD_H

#include "lib/compiler.h"
#include <stdbool.h>
#include <stddef.h>

#define DEBUGFS_CMD_OUTPUT_MAX 1024 /* bytes a command prints: a few lines */

struct debugfs_cmd_output {
	char text[DEBUGFS_CMD_OUTPUT_MAX];
	size_t len;
};

/* Appends to what the command printed; text past DEBUGFS_CMD_OUTPUT_MAX is cut. */
void cmd_printf(struct debugfs_cmd_output *out, const char *fmt, ...) __printf(2, 3);

/*
 * fn gets the written words (argv[0] is the file's name, as a program's) and returns 0 or a
 * negative errno, which the write returns: -EINVAL for arguments it does not take (before doing
 * anything), another errno for a run that failed. Whatever it printed is read back either way.
 */
typedef int (*debugfs_cmd_fn)(int argc, char **argv, struct debugfs_cmd_output *out);

struct debugfs_cmd {
	const char *name; /* the file's, /sys/kernel/debug/NAME, and argv[0] */
	debugfs_cmd_fn fn;
};

/* Makes the file of cmd, which must live as long; false if it could not be made. */
bool debugfs_create_cmd(const struct debugfs_cmd *cmd);

#endif

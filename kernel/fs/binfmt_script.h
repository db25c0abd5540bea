/*
 * `#!` scripts (kernel/fs/binfmt_script.c): reading the first line of a file exec was given,
 * pure over a buffer, so the unit tests run the kernel's code. kernel/fs/exec.c does the rest.
 */
#ifndef KERNEL_BINFMT_SCRIPT_H
#define KERNEL_BINFMT_SCRIPT_H

#define BINPRM_BUF_SIZE 256 /* the bytes of a file exec looks at first, as Linux 6.1 */
#define BINPRM_MAX_SCRIPTS 5 /* scripts that may name scripts: the 6th is ELOOP, as Linux */

/*
 * buf holds the file's first BINPRM_BUF_SIZE bytes, zero-padded past a shorter file's end.
 * A `#!` line gives its interpreter's path (*name) and the one optional argument (*arg, NULL
 * without one), both NUL-terminated inside buf, and 0; anything else is -ENOEXEC.
 */
int script_parse(char *buf, const char **name, const char **arg);

#endif

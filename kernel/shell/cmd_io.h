/* What the debugging commands still share with the console's (kernel/shell/stdio.c). */
#ifndef KERNEL_CMD_IO_H
#define KERNEL_CMD_IO_H

/* "who: Cannot allocate memory" on stderr; returns status. */
int cmd_nomem(const char *who, int status);

#endif

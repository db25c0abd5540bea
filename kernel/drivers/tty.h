/* The console as a file: /dev/console (kernel/drivers/tty.c). */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

/* Boot: makes /dev/console in the existing /dev. */
int tty_init(void);
/* Forgets a half-typed line of console input (after a Ctrl-C ended the command reading it). */
void tty_flush_input(void);

#endif

/* The console as a terminal: /dev/console and /dev/tty, with termios (kernel/drivers/tty.c). */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include <stdbool.h>

struct termios;
struct task;

/* Boot: makes /dev/console and /dev/tty in the existing /dev. */
int tty_init(void);
/* Forgets a half-typed line of console input (after a Ctrl-C ended the command reading it). */
void tty_flush_input(void);
/* From the UART interrupt: true if c was a signal character (ISIG) and is used up. */
bool tty_receive_signal_char(unsigned char c);
/* At exit: a session leader's terminal is free again, its foreground hears SIGHUP. */
void tty_exit(struct task *t);

/*
 * For the kernel shell (kernel/shell/): it leads the console's session (tty_claim_console), gives
 * the foreground to the job it runs (tty_set_fg_pgrp, as bash's tcsetpgrp) and takes the signal
 * characters itself while it runs a line (hook, from the interrupt; NULL: no more). It reads in
 * raw mode at its prompt and gives back the settings it found (tty_get/set_termios).
 */
void tty_claim_console(void);
/* After a job: the console is session sid's again, with the shell in the foreground. */
void tty_take_back(int sid);
void tty_set_intr_hook(void (*hook)(int sig));
void tty_set_fg_pgrp(int pgrp);
int tty_get_fg_pgrp(void);
void tty_get_termios(struct termios *t);
void tty_set_termios(const struct termios *t);

#endif

/* The console as a terminal: /dev/console and /dev/tty, with termios (kernel/drivers/tty.c). */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include <stdbool.h>

struct termios;
struct task;

/* Boot: makes /dev/console and /dev/tty in the existing /dev. */
int tty_init(void);
/* From the UART interrupt: true if c was a signal character (ISIG) and is used up. */
bool tty_receive_signal_char(unsigned char c);
/* At exit: a session leader's terminal is free again, its foreground hears SIGHUP. */
void tty_exit(struct task *t);
/*
 * /proc/PID/stat's tpgid: the foreground group of the terminal that session sid controls, 0 if
 * it has none in the foreground, -1 if the session has no controlling terminal (Linux's).
 */
int tty_foreground_pgrp(int sid);

/*
 * For pid 1, init or the rescue console: it leads the console's session (tty_claim_console).
 * The rescue console reads in raw mode at its prompt and gives back the settings it found
 * (tty_get/set_termios).
 */
void tty_claim_console(void);
void tty_get_termios(struct termios *t);
void tty_set_termios(const struct termios *t);

#endif

/*
 * The terminal's settings as user space sees them: Linux's struct termios and struct winsize for
 * x86_64, their flags and the tty ioctls (include/uapi/asm-generic/termbits.h, ioctls.h), so that
 * a C library's tcgetattr() and cfmakeraw() work unchanged (kernel/drivers/tty.c).
 */
#ifndef KERNEL_TERMIOS_H
#define KERNEL_TERMIOS_H

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;

#define NCCS 19
struct termios {
	tcflag_t c_iflag; /* input: what happens to a byte typed before anyone sees it */
	tcflag_t c_oflag; /* output: what happens to a byte written */
	tcflag_t c_cflag; /* the line: speed, bits per character (recorded only) */
	tcflag_t c_lflag; /* the line discipline: lines, echo, signals */
	cc_t c_line;
	cc_t c_cc[NCCS]; /* the special characters, and VMIN/VTIME */
};
_Static_assert(sizeof(struct termios) == 36, "Linux's struct termios is 36 bytes");

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* c_cc */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5 /* non-canonical read: the timer, in tenths of a second */
#define VMIN 6 /* non-canonical read: the bytes it waits for */
#define VSWTC 7
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE 14
#define VLNEXT 15
#define VEOL2 16

/* c_iflag */
#define IGNBRK 0x001
#define BRKINT 0x002
#define ISTRIP 0x020
#define INLCR 0x040 /* NL typed becomes CR */
#define IGNCR 0x080 /* CR typed is dropped */
#define ICRNL 0x100 /* CR typed (Enter) becomes NL */
#define IXON 0x400
#define IMAXBEL 0x2000
#define IUTF8 0x4000

/* c_oflag */
#define OPOST 0x01 /* output processing at all */
#define ONLCR 0x04 /* NL written goes out as CR NL */

/* c_cflag */
#define CS8 0x030
#define CREAD 0x080
#define HUPCL 0x400
#define CLOCAL 0x800
#define B115200 0x1002

/* c_lflag */
#define ISIG 0x00001 /* INTR, QUIT and SUSP send signals */
#define ICANON 0x00002 /* lines, with ERASE and KILL */
#define ECHO 0x00008
#define ECHOE 0x00010 /* ERASE rubs the character out */
#define ECHOK 0x00020 /* KILL ends the echoed line */
#define ECHONL 0x00040 /* NL echoes even without ECHO */
#define NOFLSH 0x00080 /* a signal character does not throw the input away */
#define TOSTOP 0x00100 /* a background write stops its job (SIGTTOU) */
#define ECHOCTL 0x00200 /* control characters echo as ^X */
#define ECHOKE 0x00800 /* KILL rubs the line out */
#define IEXTEN 0x08000 /* WERASE and LNEXT */

/* ioctls */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403 /* after output drains: at once here, the UART write is synchronous */
#define TCSETSF 0x5404 /* ... and the unread input is thrown away */
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429

#endif

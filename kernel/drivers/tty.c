/*
 * /dev/console and /dev/tty: the serial console as a terminal, with Linux's termios.
 *
 * Between the UART and a program's read() sits the line discipline (Linux's n_tty), which the
 * program sets with TCSETS (tcsetattr):
 *   - ICANON (canonical, "cooked"): what is typed is collected into a line, ERASE (Backspace)
 *     and KILL (Ctrl-U) edit it, and only NL (Enter, through ICRNL) or EOF (Ctrl-D) hands it to
 *     read(); Ctrl-D on an empty line is end of file.
 *   - non-canonical ("raw", as an editor or a shell's line editor sets it): every byte goes to
 *     the reader as it comes; VMIN and VTIME say how long read() waits for them.
 *   - ECHO: what is typed is written back, so the user sees it; ECHOCTL shows Ctrl-X as "^X".
 *   - ISIG: INTR (Ctrl-C), QUIT (Ctrl-\) and SUSP (Ctrl-Z) are not input but SIGINT, SIGQUIT
 *     and SIGTSTP to the terminal's foreground process group.
 *   - OPOST and ONLCR: a "\n" written goes out as "\r\n".
 *
 * Where it happens. The signal characters are acted on in the UART interrupt, as they arrive
 * (console_rx calls tty_receive_signal_char), so that Ctrl-C reaches a program that never
 * reads. Every other byte waits in the console's ring and is processed, echoed and edited when
 * a reader asks for it (Linux does that in the interrupt's work; here a reader's read() does
 * it): the rescue console, which reads the ring itself through its own line editor, then sees
 * exactly the bytes typed, and a line typed ahead while a command runs is kept whole.
 *
 * Sessions and job control. The tty is the controlling terminal of at most one session
 * (tty.session), and one process group of it is in the foreground (tty.pgrp): the group that
 * ^C signals and that may read. A process of that session outside that group which reads gets
 * SIGTTIN, and one that changes the settings SIGTTOU, unless it blocks or ignores the signal
 * (then EIO for a read), as Linux's tty_check_change. The session leader gets the terminal by
 * opening /dev/console without one (unless O_NOCTTY) or by TIOCSCTTY; /dev/tty is the caller's
 * controlling terminal, ENXIO without one. pid 1 (init, or the rescue console) leads the
 * console's session from the start (tty_claim_console).
 *
 * Locking: tty_lock (taken from the interrupt too) guards the settings, the ids and the line
 * being collected; it is never held while sleeping. read() sleeps on the console's input wait
 * queue with the VFS lock let go, as vfs_block() does.
 */
#include "kernel/drivers/tty.h"
#include "kernel/drivers/termios.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/drivers/console.h"
#include "kernel/sched/sched.h"
#include "kernel/session.h"
#include "kernel/signal.h"
#include "kernel/time/time.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define N_TTY_BUF_SIZE 4096 /* Linux's: a canonical line is at most this, its NL included */
#define CTRL(c) ((c)&0x1f)
#define DEL 0x7f
#define ECHOCTL_BIT 0x40 /* ^X shows the control character X ^ 0x40: ^C for 0x03, ^? for DEL */
#define MS_PER_VTIME 100 /* VTIME counts tenths of a second */

/* Linux's tty_std_termios, at the serial console's 115200 baud. */
static const struct termios tty_std_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B115200 | CS8 | CREAD | HUPCL | CLOCAL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_cc = {[VINTR] = CTRL('C'),
		 [VQUIT] = CTRL('\\'),
		 [VERASE] = DEL,
		 [VKILL] = CTRL('U'),
		 [VEOF] = CTRL('D'),
		 [VTIME] = 0,
		 [VMIN] = 1,
		 [VSTART] = CTRL('Q'),
		 [VSTOP] = CTRL('S'),
		 [VSUSP] = CTRL('Z'),
		 [VREPRINT] = CTRL('R'),
		 [VDISCARD] = CTRL('O'),
		 [VWERASE] = CTRL('W'),
		 [VLNEXT] = CTRL('V')},
};

static DEFINE_SPINLOCK(tty_lock);
static struct {
	struct termios termios;
	struct winsize winsize; /* 0 x 0 until set: a serial line does not know its screen */
	int session; /* the session it is the controlling terminal of; 0: none */
	int pgrp; /* its foreground process group; 0: none */
	/* The line being collected in canonical mode. */
	char buf[N_TTY_BUF_SIZE];
	size_t len; /* bytes in buf */
	size_t off; /* of a finished line, bytes already read */
	bool done; /* NL or EOF ended the line: it is being read */
} tty = {.termios = tty_std_termios};

/* A special character: c_cc[i], unless 0, which disables it (_POSIX_VDISABLE). */
static bool is_char(const struct termios *t, int i, int c)
{
	return t->c_cc[i] && c == t->c_cc[i];
}

/* Writes as the settings say: "\n" as "\r\n" with OPOST and ONLCR. */
static void tty_output(const struct termios *t, const char *s, size_t n)
{
	if ((t->c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR))
		console_write(s, n);
	else
		console_write_raw(s, n);
}

/* Echoes one byte typed: a control character as ^X with ECHOCTL (but TAB and NL as they are). */
static void echo_char(const struct termios *t, int c)
{
	char s[2] = {(char)c};

	if (!(t->c_lflag & ECHO))
		return;
	if ((t->c_lflag & ECHOCTL) && (c < ' ' || c == DEL) && c != '\t' && c != '\n') {
		s[0] = '^';
		s[1] = (char)(c ^ ECHOCTL_BIT);
		tty_output(t, s, 2);
	} else {
		tty_output(t, s, 1);
	}
}

/* Rubs out the last n bytes of the line, and from the screen with ECHOE. */
static void erase(const struct termios *t, size_t n)
{
	for (; n && tty.len; n--) {
		char c = tty.buf[--tty.len];
		bool two = (t->c_lflag & ECHOCTL) && (c < ' ' || c == DEL) && c != '\t';

		if ((t->c_lflag & (ECHO | ECHOE)) != (ECHO | ECHOE))
			continue;
		tty_output(t, "\b \b", 3);
		if (two) /* its "^X" took two columns */
			tty_output(t, "\b \b", 3);
	}
}

/* IGNCR, ICRNL and INLCR on a byte typed; -1: it is dropped. */
static int input_map(const struct termios *t, int c)
{
	if (t->c_iflag & ISTRIP)
		c &= 0x7f;
	if (c == '\r') {
		if (t->c_iflag & IGNCR)
			return -1;
		if (t->c_iflag & ICRNL)
			return '\n';
	} else if (c == '\n' && (t->c_iflag & INLCR)) {
		return '\r';
	}
	return c;
}

/* Canonical mode: takes the bytes typed so far into the line; true once it is finished. */
static bool canon_collect(const struct termios *t)
{
	int c;

	while (!tty.done && (c = console_getc_nowait()) >= 0) {
		c = input_map(t, c);
		if (c < 0)
			continue;
		if (is_char(t, VERASE, c)) {
			if (t->c_lflag & ECHOE)
				erase(t, 1);
			else if (tty.len) { /* the erase character itself shows */
				tty.len--;
				echo_char(t, c);
			}
		} else if ((t->c_lflag & IEXTEN) && is_char(t, VWERASE, c)) {
			while (tty.len && tty.buf[tty.len - 1] == ' ')
				erase(t, 1);
			while (tty.len && tty.buf[tty.len - 1] != ' ')
				erase(t, 1);
		} else if (is_char(t, VKILL, c)) {
			if ((t->c_lflag & (ECHOK | ECHOKE | ECHOE)) == (ECHOK | ECHOKE | ECHOE)) {
				erase(t, tty.len);
			} else {
				tty.len = 0;
				echo_char(t, c);
				if (t->c_lflag & ECHOK)
					tty_output(t, "\n", 1);
			}
		} else if (is_char(t, VEOF, c)) {
			tty.done = true; /* on an empty line: a read of 0 bytes, end of file */
		} else if (c == '\n' || is_char(t, VEOL, c) ||
			   ((t->c_lflag & IEXTEN) && is_char(t, VEOL2, c))) {
			tty.buf[tty.len++] = (char)c; /* the last byte is kept free for it */
			if (c == '\n' && (t->c_lflag & (ECHO | ECHONL)))
				tty_output(t, "\n", 1);
			else if (c != '\n')
				echo_char(t, c);
			tty.done = true;
		} else if (tty.len < N_TTY_BUF_SIZE - 1) {
			tty.buf[tty.len++] = (char)c;
			echo_char(t, c);
		}
	}
	return tty.done;
}

/* Non-canonical mode: up to count bytes as typed (a line left half-typed in canonical mode
 * first). */
static size_t raw_take(const struct termios *t, char *buf, size_t count)
{
	size_t got = 0;
	int c;

	while (got < count && tty.off < tty.len)
		buf[got++] = tty.buf[tty.off++];
	if (tty.off == tty.len)
		tty.len = tty.off = 0;
	while (got < count && (c = console_getc_nowait()) >= 0) {
		c = input_map(t, c);
		if (c < 0)
			continue;
		if (c == '\n' && !(t->c_lflag & ECHO) && (t->c_lflag & ECHONL))
			tty_output(t, "\n", 1);
		else
			echo_char(t, c);
		buf[got++] = (char)c;
	}
	return got;
}

/* Bytes a read would find now (FIONREAD, poll): a finished line, or anything typed when raw. */
static size_t tty_available(void)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);
	size_t n;

	if (tty.termios.c_lflag & ICANON)
		n = canon_collect(&tty.termios) ? MAX(tty.len - tty.off, (size_t)1) : 0;
	else
		n = tty.len - tty.off + console_rx_count();
	spin_unlock_irqrestore(&tty_lock, flags);
	return n;
}

/* Whether current has this terminal as its controlling terminal. */
static bool is_ctty(void)
{
	int session = READ_ONCE(tty.session);

	return session && current->sid == session;
}

int tty_foreground_pgrp(int sid)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);
	int pgrp = sid && tty.session == sid ? tty.pgrp : -1;

	spin_unlock_irqrestore(&tty_lock, flags);
	return pgrp;
}

/*
 * Linux's tty_check_change: may current, a process, use the terminal as the foreground does?
 * A process of the terminal's session outside its foreground group may not: its whole group
 * gets sig (SIGTTIN to stop a reader, SIGTTOU a writer) and the call ends, unless it blocks or
 * ignores sig, when a write or settings change goes ahead and a read fails with EIO. Kernel
 * threads (the rescue console) are not checked: they have no job control.
 */
static int tty_check_change(int sig)
{
	int pgrp = READ_ONCE(tty.pgrp);

	if (!current->mm || !is_ctty() || !pgrp || current->pgrp == pgrp)
		return 0;
	if (sig_ignored_or_blocked(sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (is_current_pgrp_orphaned())
		return -EIO; /* nobody would continue it: Linux's __tty_check_change */
	kill_pgrp(current->pgrp, sig);
	set_tsk_thread_flag(current, TIF_SIGPENDING); /* the way out restarts it (syscall_64.c) */
	return -ERESTARTSYS; /* once continued, the call starts again (or EINTR: a handler) */
}

/*
 * From the UART interrupt, each byte typed: with ISIG, INTR, QUIT and SUSP become signals to
 * the foreground group (true: the byte is used up). The unread input goes unless NOFLSH, and
 * the character shows as ^C with ECHOCTL, at once, as Linux's n_tty does.
 */
bool tty_receive_signal_char(unsigned char c)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);
	const struct termios *t = &tty.termios;
	int sig = 0, pgrp = tty.pgrp;

	if (t->c_lflag & ISIG) {
		if (is_char(t, VINTR, c))
			sig = SIGINT;
		else if (is_char(t, VQUIT, c))
			sig = SIGQUIT;
		else if (is_char(t, VSUSP, c))
			sig = SIGTSTP;
	}
	if (sig) { /* n_tty's isig() */
		if (!(t->c_lflag & NOFLSH)) {
			tty.len = tty.off = 0;
			tty.done = false;
			console_rx_flush();
		}
		echo_char(t, c);
	}
	spin_unlock_irqrestore(&tty_lock, flags);
	if (!sig)
		return false;
	if (pgrp > 0)
		kill_pgrp(pgrp, sig);
	return true;
}

/*
 * read(): a line in canonical mode; otherwise as VMIN and VTIME say (termios(3)):
 *	VMIN 0, VTIME 0: what is there, maybe nothing;
 *	VMIN n, VTIME 0: waits for n bytes (or count);
 *	VMIN 0, VTIME t: waits up to t tenths of a second for a byte, 0 if none came;
 *	VMIN n, VTIME t: waits for a first byte, then until n bytes, or t tenths pass with none.
 * It sleeps on the console's input queue with the VFS lock let go; a signal ends the wait.
 */
static ssize_t tty_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct wait_queue_entry w = {0};
	uint64_t deadline = 0; /* ns; 0: no timer running */
	size_t got = 0;
	ssize_t ret;
	int err = tty_check_change(SIGTTIN);

	(void)pos;
	if (err)
		return err;
	boot_note_prompt(); /* bash (or whatever init runs) at its first prompt */
	for (;;) {
		unsigned long flags;
		struct termios t;
		bool done = false;
		size_t before = got;

		prepare_to_wait(console_rx_wait_queue(), &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&tty_lock);
		t = tty.termios;
		if (t.c_lflag & ICANON) {
			if (canon_collect(&t)) {
				size_t n = MIN(count, tty.len - tty.off);

				memcpy(buf, tty.buf + tty.off, n);
				tty.off += n;
				if (tty.off == tty.len) { /* all read: start the next line */
					tty.len = tty.off = 0;
					tty.done = false;
				}
				got = n;
				done = true;
			}
		} else {
			unsigned int vmin = t.c_cc[VMIN], vtime = t.c_cc[VTIME];
			uint64_t now = ktime_get_ns();

			got += raw_take(&t, buf + got, count - got);
			if (vtime && (!vmin ? !deadline : got > before))
				deadline = now + (uint64_t)vtime * MS_PER_VTIME * NSEC_PER_MSEC;
			if (got == count || (vmin && got >= vmin) || (!vmin && got) ||
			    (!vmin && !vtime) || (deadline && now >= deadline && (got || !vmin)))
				done = true;
		}
		spin_unlock_irqrestore(&tty_lock, flags);
		ret = (ssize_t)got;
		if (done)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = got ? (ssize_t)got : -EAGAIN;
			break;
		}
		if (signal_pending_current()) {
			ret = got ? (ssize_t)got : current->sighand ? -ERESTARTSYS : -EINTR;
			break;
		}
		vfs_unlock();
		if (deadline && (!(t.c_cc[VMIN]) || got)) {
			uint64_t now = ktime_get_ns();

			if (now < deadline)
				schedule_timeout((long)((deadline - now + NSEC_PER_MSEC - 1) /
							NSEC_PER_MSEC));
		} else {
			schedule();
		}
		vfs_lock();
	}
	finish_wait(console_rx_wait_queue(), &w);
	return ret;
}

static ssize_t tty_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct termios t;
	unsigned long flags;

	(void)file;
	(void)pos;
	flags = spin_lock_irqsave(&tty_lock);
	t = tty.termios;
	spin_unlock_irqrestore(&tty_lock, flags);
	if (t.c_lflag & TOSTOP) {
		int err = tty_check_change(SIGTTOU);

		if (err)
			return err;
	}
	tty_output(&t, buf, count);
	return (ssize_t)count;
}

static struct wait_queue_head *tty_wait_queue(struct file *file)
{
	(void)file;
	return console_rx_wait_queue();
}

static unsigned int tty_poll(struct file *file)
{
	(void)file;
	return (tty_available() ? POLLIN | POLLRDNORM : 0) | POLLOUT | POLLWRNORM;
}

/* Ends the session's hold on the terminal: its foreground group hears SIGHUP and SIGCONT. */
static void disassociate_ctty(void)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);
	int pgrp = tty.pgrp;

	tty.session = tty.pgrp = 0;
	spin_unlock_irqrestore(&tty_lock, flags);
	if (pgrp > 0) {
		kill_pgrp(pgrp, SIGHUP);
		kill_pgrp(pgrp, SIGCONT);
	}
}

/* Linux's tiocsctty: a session leader with no terminal takes this one (arg 1: even from
 * another session, as root may). */
static long tiocsctty(unsigned long arg)
{
	struct task *p = current;
	unsigned long flags;
	long err = 0;

	if (p->sid == p->pid && is_ctty())
		return 0; /* already ours */
	if (p->sid != p->pid)
		return -EPERM;
	flags = spin_lock_irqsave(&tty_lock);
	if (tty.session && arg != 1) {
		err = -EPERM;
	} else {
		tty.session = p->sid;
		tty.pgrp = p->pgrp;
	}
	spin_unlock_irqrestore(&tty_lock, flags);
	return err;
}

/* Linux's tiocspgrp: the foreground goes to group pgid, which must be of the caller's session. */
static long tiocspgrp(const int __user *argp)
{
	int pgid, sid, err;

	err = tty_check_change(SIGTTOU);
	if (err)
		return err;
	if (copy_from_user(&pgid, argp, sizeof(pgid)))
		return -EFAULT;
	if (pgid < 0)
		return -EINVAL;
	if (!is_ctty())
		return -ENOTTY;
	sid = session_of_pgrp(pgid);
	if (sid < 0)
		return sid;
	if (sid != current->sid)
		return -EPERM;
	WRITE_ONCE(tty.pgrp, pgid);
	return 0;
}

static long set_termios(unsigned int cmd, const void __user *argp)
{
	struct termios t;
	unsigned long flags;
	int err = tty_check_change(SIGTTOU);

	if (err)
		return err;
	if (copy_from_user(&t, argp, sizeof(t)))
		return -EFAULT;
	flags = spin_lock_irqsave(&tty_lock);
	if (cmd == TCSETSF) { /* TCSAFLUSH: what was typed and not read goes */
		tty.len = tty.off = 0;
		tty.done = false;
		console_rx_flush();
	}
	tty.termios = t;
	spin_unlock_irqrestore(&tty_lock, flags);
	wake_up(console_rx_wait_queue()); /* a reader may be satisfied now (VMIN 0, raw) */
	return 0;
}

static long put_int(void __user *argp, int v)
{
	return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
}

static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct termios t;
	struct winsize ws;
	unsigned long flags;

	(void)file;
	switch (cmd) {
	case TCGETS:
		flags = spin_lock_irqsave(&tty_lock);
		t = tty.termios;
		spin_unlock_irqrestore(&tty_lock, flags);
		return copy_to_user(argp, &t, sizeof(t)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW: /* output drains at once: the UART write waits for each byte */
	case TCSETSF:
		return set_termios(cmd, argp);
	case TIOCGWINSZ:
		flags = spin_lock_irqsave(&tty_lock);
		ws = tty.winsize;
		spin_unlock_irqrestore(&tty_lock, flags);
		return copy_to_user(argp, &ws, sizeof(ws)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		if (copy_from_user(&ws, argp, sizeof(ws)))
			return -EFAULT;
		flags = spin_lock_irqsave(&tty_lock);
		bool changed = memcmp(&ws, &tty.winsize, sizeof(ws)) != 0;
		int pgrp = tty.pgrp;

		tty.winsize = ws;
		spin_unlock_irqrestore(&tty_lock, flags);
		/* Linux's tty_do_resize: the foreground hears of it (default: ignored) */
		if (changed)
			kill_pgrp(pgrp, SIGWINCH);
		return 0;
	case TIOCGPGRP:
		if (!is_ctty())
			return -ENOTTY;
		return put_int(argp, READ_ONCE(tty.pgrp));
	case TIOCSPGRP:
		return tiocspgrp(argp);
	case TIOCGSID:
		if (!is_ctty())
			return -ENOTTY;
		return put_int(argp, READ_ONCE(tty.session));
	case TIOCSCTTY:
		return tiocsctty(arg);
	case TIOCNOTTY:
		if (!is_ctty())
			return -ENOTTY;
		if (current->sid == current->pid) /* the leader gives it up for the session */
			disassociate_ctty();
		return 0;
	case FIONREAD:
		return put_int(argp, (int)tty_available());
	case TIOCOUTQ:
		return put_int(argp, 0); /* nothing queued: the UART write is synchronous */
	default:
		return -ENOTTY;
	}
}

/* Linux's tty_open_proc_set_tty: a session leader with no terminal that opens one gets it. */
static int console_open(struct inode *inode, struct file *file)
{
	struct task *p = current;
	unsigned long flags;

	(void)inode;
	if ((file->f_flags & O_NOCTTY) || !p->mm || p->sid != p->pid)
		return 0;
	flags = spin_lock_irqsave(&tty_lock);
	if (!tty.session) {
		tty.session = p->sid;
		tty.pgrp = p->pgrp;
	}
	spin_unlock_irqrestore(&tty_lock, flags);
	return 0;
}

/* /dev/tty: the caller's controlling terminal, which can only be the console. */
static int devtty_open(struct inode *inode, struct file *file)
{
	(void)inode;
	(void)file;
	return is_ctty() ? 0 : -ENXIO;
}

static const struct file_operations console_fops = {
	.open = console_open,
	.read = tty_read,
	.write = tty_write,
	.wait_queue = tty_wait_queue,
	.unlocked_ioctl = tty_ioctl,
	.poll = tty_poll,
};

static const struct file_operations devtty_fops = {
	.open = devtty_open,
	.read = tty_read,
	.write = tty_write,
	.wait_queue = tty_wait_queue,
	.unlocked_ioctl = tty_ioctl,
	.poll = tty_poll,
};

void tty_claim_console(void)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);

	current->sid = current->pid;
	tty.session = current->sid;
	tty.pgrp = current->sid; /* its own group in the foreground */
	spin_unlock_irqrestore(&tty_lock, flags);
}

void tty_get_termios(struct termios *t)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);

	*t = tty.termios;
	spin_unlock_irqrestore(&tty_lock, flags);
}

void tty_set_termios(const struct termios *t)
{
	unsigned long flags = spin_lock_irqsave(&tty_lock);

	tty.termios = *t;
	spin_unlock_irqrestore(&tty_lock, flags);
	wake_up(console_rx_wait_queue());
}

void tty_exit(struct task *t)
{
	if (t->sid == t->pid && READ_ONCE(tty.session) == t->sid)
		disassociate_ctty(); /* a session leader exits, as on Linux */
}

int tty_init(void)
{
	int err = vfs_mknod("/dev/console", S_IFCHR | 0600, &console_fops);

	if (!err)
		err = vfs_mknod("/dev/tty", S_IFCHR | 0666, &devtty_fops);
	return err;
}

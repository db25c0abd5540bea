"""The console as a terminal (kernel/drivers/tty.c): Linux's termios, typed at over the serial
line. tests/user/ttytest.c sets the modes and prints what its reads return; here we type at it.

Each expected setting or result is what Linux gives on a serial console (ttyS0) with the same
program: its tty_std_termios at 115200 baud, a window size of 0 x 0 until set, canonical lines
with ERASE (DEL), KILL (^U), WERASE (^W) and EOF (^D), non-canonical reads by VMIN and VTIME.
"""
import re
import time

from lucid import PARENT, Lucid


TTY_STD_ATTRS = ("iflag 0x500 oflag 0x5 lflag 0x8a3b cflag-speed 115200\n"
                 "intr 3 quit 28 erase 127 kill 21 eof 4 susp 26 min 1 time 0\n")


def start(lucid, line, ready="ready"):
    """Types line, waits for the program to say it is ready (after the shell's echo)."""
    lucid.send_line(line)
    lucid.expect(re.escape(line) + "\r\n", timeout=10)
    lucid.expect(ready + "\r\n", timeout=20)


def test_settings_window_size_and_ids(lucid):
    out = lucid.run("ttytest attrs")
    assert out == (TTY_STD_ATTRS + "winsize 0 0\nwinsize set 24 80\nisatty 0: 1\n"
                   "foreground is my group: yes\ntty session is mine: yes\n"
                   "open /dev/tty: ok\n"), out
    assert lucid.status() == 0
    # Not a terminal: isatty() says no, as on Linux (ENOTTY).
    assert lucid.run("ttytest attrs < /dev/null").startswith("iflag 0 oflag 0 lflag 0")


def test_canonical_lines_echo_erase_kill(lucid):
    start(lucid, "ttytest canon")
    lucid.p.send("abc\x7fd\r")  # DEL rubs out the c, on the screen too
    lucid.expect(re.escape('line 4 "abd\\x0a"') + "\r\n")
    lucid.p.send("xyz\x15hi\r")  # ^U: the whole line
    lucid.expect(re.escape('line 3 "hi\\x0a"'))
    lucid.p.send("foo bar\x17baz\r")  # ^W: the last word
    lucid.expect(re.escape('line 8 "foo baz\\x0a"'))
    lucid.p.send("tab\there\x01\r")  # a control character is kept, echoed as ^A
    lucid.expect(re.escape('line 10 "tab\\x09here\\x01\\x0a"'))
    lucid.p.send("partial\x04")  # ^D ends a line without its newline...
    lucid.expect(re.escape('line 7 "partial"'))
    lucid.p.send("\x04")  # ... and on an empty line is end of file
    out = lucid.expect_prompt(20)
    assert "eof 0\n" in out, out
    assert lucid.status() == 0


def test_echo_of_typed_line(lucid):
    lucid.send_line("ttytest canon")
    lucid.expect("ready\r\n", timeout=20)
    lucid.p.send("ab\x7fc\x01\r")
    echo = lucid.expect(re.compile(r"(.*)line 4", re.S))
    assert echo.group(1) == "ab\b \bc^A\r\n", echo.group(1)
    lucid.p.send("\x04")
    lucid.expect_prompt(20)


def test_raw_mode_bytes_as_typed(lucid):
    start(lucid, "ttytest raw", "ready")
    lucid.p.send("a\r\x03\x7f")  # no ICRNL, no ISIG, no line: each byte as it is
    for code in ["61", "0d", "03", "7f"]:
        lucid.expect(code + "\r\n")
    lucid.p.send("q")
    lucid.expect("restored\r\n")
    lucid.expect_prompt(10)
    assert lucid.status() == 0
    # The shell reads and edits lines as before: the program put the settings back.
    assert lucid.run("echo still cooked") == "still cooked\n"


def test_vmin_vtime(lucid):
    start(lucid, "ttytest vtime", "type")
    time.sleep(0.2)  # pacing: it said "type" while reading (VTIME 10 s)
    lucid.p.send("x")
    lucid.expect(re.escape('VMIN 0 VTIME 100 1 "x"'))
    lucid.expect("type one\r\n")
    lucid.p.send("y")
    lucid.expect(re.escape('VMIN 2 VTIME 3 1 "y"'))
    out = lucid.expect_prompt(20)
    assert "VMIN 0 VTIME 0, nothing typed: 0\n" in out, out
    log = lucid.tail(2000)
    assert "VMIN 0 VTIME 5, nothing typed: 0 after >= 450 ms: yes" in log, log
    start(lucid, "ttytest vmin")
    lucid.p.send("a")
    time.sleep(0.5)  # pacing: VMIN 3 waits for all three however they come
    lucid.p.send("bc")
    lucid.expect(re.escape('VMIN 3 3 "abc"'))
    lucid.expect_prompt(10)


def test_poll_the_console(lucid):
    start(lucid, "ttytest poll", "type")
    lucid.p.send("hello\r")
    out = lucid.expect_prompt(20)
    assert "a line: poll 1 revents IN, FIONREAD 6\n" in out, out
    assert 'read 6 "hello\\x0a"\n' in out, out
    assert "nothing typed: poll 0 revents 0" in lucid.tail(1000)


def test_poll_trace_pipe(lucid):
    """trace_pipe is readable once there is an event, and not before (the timeout passes)."""
    pipe = "/sys/kernel/tracing/trace_pipe"
    lucid.run("echo > /sys/kernel/tracing/trace")
    assert lucid.run("ttytest pollpath %s 300" % pipe) == "poll 0 revents -\n"
    lucid.run("echo hello > /sys/kernel/tracing/trace_marker")
    assert lucid.run("ttytest pollpath %s -1" % pipe) == "poll 1 revents IN\n"
    lucid.run("echo > /sys/kernel/tracing/trace")


def test_job_control_ioctls_and_sessions(lucid):
    start(lucid, "ttytest jobs", "type")
    lucid.p.send("fgline\r")
    lucid.expect_prompt(20)
    assert lucid.status() == 0
    want = [
        "background: foreground is mine: no",
        "background read, SIGTTIN blocked: -1 I/O error",  # musl's strerror(EIO)
        "background takes the terminal: ok",
        "foreground is mine: yes",
        'foreground read 7 "fgline\\x0a"',
        "gives it back: ok",
        "child exited 0, foreground is mine again: yes",
        "background reader got SIGTTIN",
        "new session: open /dev/tty: -1 No such device or address",
        "new session: tcgetpgrp: -1 Not a tty",  # musl's ENOTTY
        "new session: TIOCSCTTY of a terminal another session has: -1 Operation not permitted",
    ]
    log = lucid.tail(3000).replace("\r\n", "\n")
    for line in want:
        assert line + "\n" in log, (line, log)
    for line in ["TIOCSPGRP to no such group: -1 No such process",
                 "TIOCSPGRP negative: -1 Invalid argument",
                 "TIOCSCTTY, not a session leader: -1 Operation not permitted",
                 "TCGETS on /dev/null: -1 Not a tty",
                 "TIOCGPGRP on /dev/null: -1 Not a tty",
                 "an unknown ioctl on the console: -1 Not a tty"]:
        assert line + "\n" in log, (line, log)


def test_signal_keys_reach_the_foreground_program(lucid):
    """^C, ^\\ and ^Z reach a program through the line discipline: SIGINT, SIGQUIT (130, 131),
    and SIGTSTP, which stops it: the shell keeps the job (148) for fg, as bash."""
    for key, status in [("\x03", 130), ("\x1c", 131)]:
        start(lucid, "ttytest wait")
        time.sleep(0.3)
        lucid.p.send(key)
        lucid.expect_prompt(20)
        assert lucid.status() == status, key
    start(lucid, "ttytest wait")
    time.sleep(0.3)  # pacing: "ready" came after it took the terminal
    lucid.p.send("\x1a")
    out = lucid.expect_prompt(20)
    assert "[1]+  Stopped                 ttytest wait\n" in out, out
    assert lucid.status() == 148
    assert lucid.run("jobs") == "[1]+  Stopped                 ttytest wait\n"
    with lucid.showing_tasks():
        lucid.send_line("fg")
        lucid.expect("ttytest wait\r\n", timeout=10)
        lucid.until_job_started("ttytest")  # bash hands it the terminal, then waits
        lucid.p.send("\x03")
        lucid.expect_prompt(20)
    assert lucid.status() == 130
    assert lucid.run("jobs") == ""
    # The shell has the terminal back: its own Ctrl-C and lines work as before.
    assert lucid.run("echo back") == "back\n"
    assert lucid.run("ttytest attrs").startswith(TTY_STD_ATTRS)


def test_controlling_terminal_acquired_as_linux():
    """A session leader gets the console by TIOCSCTTY 1 or by opening it once free. The session
    it was taken from, the console's bash, has lost it for good, as on Linux (nothing gives a
    terminal back): so on a kernel of its own, not the one the other tests share."""
    lucid = Lucid()
    try:
        out = lucid.run("ttytest ctty")
        assert out == (
            "leader opens the console another session has: tcgetsid: -1 Not a tty\n"
            "TIOCSCTTY 0: -1 Operation not permitted\n"
            "TIOCSCTTY 1: ok\n"
            "now mine: yes\n"
            "open /dev/tty: ok\n"
            "the old session lost it: tcgetpgrp: -1 Not a tty\n"
            "leader opens the free console O_NOCTTY: tcgetsid: -1 Not a tty\n"
            "leader opens the free console: mine: yes\n"), out
        out = lucid.run("ttytest attrs")
        assert "foreground is my group: no\ntty session is mine: no\n" \
            "open /dev/tty: -1 No such device or address\n" in out, out
    finally:
        lucid.close()


def test_debian_shells_interactive_job_control(lucid):
    """Debian's busybox sh and bash, unmodified, run interactively from the console's bash over the
    console: their line editing (raw mode, pselect6 or poll), a job in the foreground that ^C
    ends (status 130) while the shell lives on, and job control on (setpgid, tcsetpgrp). The
    binaries are the initramfs's /bin/sh and /bin/bash (test_interactive.py compares a longer
    session with the host's)."""
    lucid.run("bash -c true")  # bash's start-up lines in the log, out of the way
    with lucid.showing_tasks():  # sysrq t's task list: until_job_started
        for shell in ["sh -i", "bash -i"]:
            lucid.send_line(shell)
            lucid.expect("# ", timeout=30)
            lucid.p.send("echo hi $((1+2))\r")
            lucid.expect("hi 3\r\n")
            lucid.p.send("case $- in *m*) echo job control on;; esac\r")
            lucid.expect("job control on\r\n")
            lucid.p.send("sleep 30\r")
            lucid.expect("sleep 30\r\n")
            lucid.until_job_started("sleep", shell=PARENT)  # the inner shell's job
            lucid.p.send("\x03")
            lucid.expect("\\^C")  # the tty's echo
            lucid.p.send("echo status $?\r")
            lucid.expect("status 130\r\n", timeout=30)
            lucid.p.send("exit\r")
            lucid.expect_prompt(30)
            assert lucid.status() == 0, shell

"""make run and make debug at a terminal, typed at as a person types, through a pty.

Their console is QEMU's stdio shared with its monitor through a multiplexer, with signals off
(tools/qemu-cmd --console interactive). So Ctrl-C is a byte for Lucid's bash, and QEMU survives
it (with plain -serial stdio the terminal turned it into SIGINT: "terminating on signal 2", and
the session was gone); Ctrl-A C switches to QEMU's monitor and back; Ctrl-A X quits QEMU, and
make then exits 0. These tests run `make` itself under pexpect.spawn, a pty, because none of this
happens on the pipes the other tests talk to QEMU through.
"""
import os
import re
import signal
import subprocess
import termios
import time

import pexpect

from lucid import PROMPT, ROOT, free_port, job_started, until_bash_sleeps, until_tasks

CTRL_A = "\x01"  # QEMU's escape character, when stdio is multiplexed
CTRL_C = "\x03"
ENTER = "\r"  # what a terminal's Enter key sends: raw mode turns nothing into anything
BOOT_TIMEOUT = 300  # covers a make that has to build first, on a busy host
TIMEOUT = 60
# The variables a parent make (`make test`) hands its children: a make started here is the
# user's own, not one of its jobs.
MAKE_VARS = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")


def make_env():
    return {k: v for k, v in os.environ.items() if k not in MAKE_VARS}


def build_is_current():
    """True if build/lucid.elf is up to date: then make run must build nothing."""
    return subprocess.run(["make", "-q", "build/lucid.elf"], cwd=ROOT, env=make_env(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


class Terminal:
    """`make TARGET` on a pty of its own; its output as a terminal would show it."""

    def __init__(self, *args):
        # CMDLINE= on make's command line: the ISO `make iso` built, whatever the environment.
        self.p = pexpect.spawn("make", ["--no-print-directory", "CMDLINE="] + list(args),
                               cwd=ROOT, env=make_env(), encoding="utf-8",
                               codec_errors="replace", timeout=TIMEOUT)
        self.seen = ""

    def expect(self, pattern, timeout=TIMEOUT):
        i = self.p.expect([pattern, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        self.seen += self.p.before + (self.p.after if i == 0 else "")
        if i != 0:
            raise AssertionError("%s waiting for %r; the terminal showed:\n%s" % (
                ["", "make exited", "timeout"][i], pattern, self.seen[-3000:]))
        return self.p.before

    def match(self, pattern, timeout=TIMEOUT):
        """As expect, but returns the match (its groups)."""
        self.expect(pattern, timeout)
        return self.p.match

    def type(self, text):
        self.p.send(text)

    def command(self, line):
        """Types line and Enter; returns what it printed before the next prompt."""
        self.type(line + ENTER)
        out = self.expect(PROMPT)
        return out.replace("\r", "").partition("\n")[2]

    def wait_raw_mode(self, timeout=TIMEOUT):
        """Waits for the terminal as QEMU sets it: no signals (Ctrl-C is a byte), no line
        editing, no echo (Lucid echoes). Until then, keys would be the terminal's, not QEMU's."""
        deadline = time.monotonic() + timeout
        while True:
            lflag = termios.tcgetattr(self.p.child_fd)[3]  # a pty master reads its slave's modes
            cooked = [f for f in ("ISIG", "ICANON", "ECHO") if lflag & getattr(termios, f)]
            if not cooked:
                return
            if time.monotonic() > deadline or not self.p.isalive():
                raise AssertionError("%s still on: the terminal is not raw; it showed:\n%s" %
                                     (", ".join(cooked), self.seen[-3000:]))
            time.sleep(0.1)

    def monitor(self, line, answer):
        """Ctrl-A C, a command at QEMU's monitor, its answer, then Ctrl-A C back."""
        self.type(CTRL_A + "c")
        self.expect(r"\(qemu\) ")
        self.type(line + ENTER)
        self.expect(answer)
        self.expect(r"\(qemu\) ")
        self.type(CTRL_A + "c")
        self.expect(r"\r+\n")  # the monitor ends its line as it hands the terminal back

    def quit(self):
        """Ctrl-A X: QEMU says it was terminated, and make's exit status."""
        self.type(CTRL_A + "x")
        self.expect("QEMU: Terminated")
        if self.p.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=TIMEOUT) != 0:
            raise AssertionError("make still runs after Ctrl-A X:\n" + self.seen[-3000:])
        self.p.close()
        return self.p.exitstatus

    def close(self):
        if self.p.isalive():  # a failed test: end make and the QEMU it started (its group)
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.p.close(force=True)


def test_make_run_ctrl_c_reaches_lucid_and_ctrl_a_x_quits():
    current = build_is_current()
    t = Terminal("run")
    try:
        boot = t.expect(PROMPT, timeout=BOOT_TIMEOUT)
        if current:
            # Nothing built, no package installed (tools/deps.sh is silent when all is there),
            # no new ISO, and the kernel's info lines go to its log, not the console: bash's
            # prompt is the first thing on the terminal.
            assert not boot.strip(), "make run printed:\n" + boot[:2000]
        t.wait_raw_mode(timeout=0)

        # The reader blocks in trace_pipe: Ctrl-C must stop it, not QEMU. Pressed once cat
        # waits there, as a person presses it after a moment (sysrq t's task list on the
        # console says when: lucid.job_started).
        level = t.command("cat /proc/sys/kernel/printk").split()[0]
        t.command("dmesg -n 7")
        t.type("cat /sys/kernel/tracing/trace_pipe" + ENTER)
        t.expect(r"trace_pipe\r+\n")
        until_tasks(t.type, t.match, job_started(program="cat"), "cat in the foreground")
        t.type(CTRL_C)
        out = t.expect(PROMPT)
        assert "terminating on signal" not in out, out
        assert "^C" in out, "Ctrl-C was not echoed: %r" % out
        assert t.command("echo $?").strip() == "130"
        t.command("dmesg -n " + level)
        assert t.command("echo still here") == "still here\n"

        t.monitor("info status", "VM status: running")
        assert t.command("echo back from the monitor") == "back from the monitor\n"

        assert t.quit() == 0, "make run's exit status after Ctrl-A X"
    finally:
        t.close()


def test_make_debug_at_a_terminal():
    """make debug: QEMU waits (for gdb, or the monitor's `cont`), then the same keys work."""
    t = Terminal("debug", "GDBPORT=%d" % free_port())
    try:
        t.expect(r"Ctrl-A X here quits QEMU", timeout=BOOT_TIMEOUT)
        t.wait_raw_mode()  # QEMU has started: the guest prints nothing before `cont`
        t.monitor("info status", r"VM status: paused \(prelaunch\)")
        t.monitor("cont", "cont")  # what gdb's `continue` would do
        t.expect(PROMPT, timeout=BOOT_TIMEOUT)
        # Ctrl-C in the middle of a line drops it, as bash does: $? is 130, not echo's 0.
        # Pressed once the line shows and bash sleeps again, as a person presses it: a ^C
        # that reaches bash still in the write of its prompt or echo is only recorded, and
        # bash prompts anew at the next key (lucid.until_bash_sleeps; two CI runs met it).
        t.command("dmesg -n 7")  # sysrq t's task list on the console: until_bash_sleeps
        t.type("echo never run")
        t.expect("echo never run")
        until_bash_sleeps(t.type, t.match)
        t.type(CTRL_C)
        t.expect(PROMPT)
        assert t.command("echo $?").strip() == "130"
        assert t.quit() == 0, "make debug's exit status after Ctrl-A X"
    finally:
        t.close()


# --- bash at make run's terminal, as a person uses it ----------------------

UP = "\x1b[A"  # the arrow keys as a terminal in normal cursor mode sends them
LEFT = "\x1b[D"
CTRL_D = "\x04"
CTRL_R = "\x12"
CTRL_Z = "\x1a"
ROWS, COLS = 24, 80  # pexpect's pty, and busybox's size for a terminal that reports 0 x 0
CSI = re.compile(r"\x1b\[([?>=]?)([0-9;]*)([@-~])")


class Screen:
    """What a VT100-like terminal of ROWS x COLS shows after the bytes it was sent: enough of
    one (cursor moves, erasing, scrolling) to see what a full-screen program drew. A program
    that writes past the screen's edge, or sends a control sequence a terminal does not know,
    would show here as a wrong cell. Asked where its cursor is (ESC[6n), it answers as a
    terminal does (ESC[row;colR), through answer."""

    def __init__(self, answer=None):
        self.cells = [[" "] * COLS for _ in range(ROWS)]
        self.row = self.col = 0
        self.answer = answer
        self.pending = ""

    def scroll(self):
        self.cells.pop(0)
        self.cells.append([" "] * COLS)

    def newline(self):
        if self.row == ROWS - 1:
            self.scroll()
        else:
            self.row += 1

    def feed(self, text):
        text = self.pending + text
        self.pending = ""
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\x1b":
                m = CSI.match(text, i)
                if not m:
                    if re.fullmatch(r"\x1b(\[[?>=]?[0-9;]*)?", text[i:]):
                        self.pending = text[i:]  # a sequence cut between two reads
                        return
                    i += 2 if i + 1 < len(text) else 1  # ESC 7, ESC 8, ESC =...: no cells
                    continue
                self.csi(m.group(1), [int(n) if n else 0 for n in m.group(2).split(";")],
                         m.group(3))
                i = m.end()
                continue
            i += 1
            if c == "\r":
                self.col = 0
            elif c == "\n":
                self.newline()
            elif c == "\b":
                self.col = max(self.col - 1, 0)
            elif c in "\x07\x00":
                pass
            elif c == "\t":
                self.col = min((self.col // 8 + 1) * 8, COLS - 1)
            else:
                if self.col >= COLS:  # autowrap
                    self.col = 0
                    self.newline()
                self.cells[self.row][self.col] = c
                self.col += 1

    def csi(self, private, args, final):
        n = args[0] or 1
        if final in "Hf":
            self.row = min(max((args[0] or 1) - 1, 0), ROWS - 1)
            self.col = min(max((args[1] if len(args) > 1 and args[1] else 1) - 1, 0), COLS - 1)
        elif final == "A":
            self.row = max(self.row - n, 0)
        elif final == "B":
            self.row = min(self.row + n, ROWS - 1)
        elif final == "C":
            self.col = min(self.col + n, COLS - 1)
        elif final == "D":
            self.col = max(self.col - n, 0)
        elif final == "J":
            rows = range(self.row + 1, ROWS) if args[0] == 0 else range(ROWS)
            if args[0] == 0:
                self.cells[self.row][self.col:] = [" "] * (COLS - self.col)
            for r in rows:
                self.cells[r] = [" "] * COLS
        elif final == "K":
            if args[0] == 0:
                self.cells[self.row][self.col:] = [" "] * (COLS - self.col)
            elif args[0] == 1:
                self.cells[self.row][:self.col + 1] = [" "] * (self.col + 1)
            else:
                self.cells[self.row] = [" "] * COLS
        elif final == "n" and args[0] == 6 and self.answer:
            self.answer("\x1b[%d;%dR" % (self.row + 1, self.col + 1))
        # m (colours), h and l (modes), r (scroll region: full screen here): no cells change

    def lines(self):
        return ["".join(r).rstrip() for r in self.cells]

    def text(self):
        return "\n".join(self.lines())


class ScreenTerminal(Terminal):
    """make run on a pty, its output also drawn on a Screen."""

    def __init__(self, *args):
        super().__init__(*args)
        self.screen = Screen(self.type)
        # Every byte as soon as it is read, so the screen answers a question at once, as a
        # terminal does (busybox vi waits 100 ms for the answer to its ESC[6n).
        self.p.logfile_read = self

    def write(self, data):  # pexpect's logfile_read
        self.screen.feed(data)

    def flush(self):
        pass

    def expect(self, pattern, timeout=TIMEOUT):
        i = self.p.expect([pattern, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        self.seen += self.p.before + (self.p.after if i == 0 else "")
        if i != 0:
            raise AssertionError("%s waiting for %r; the terminal showed:\n%s\nthe screen:\n%s" %
                                 (["", "make exited", "timeout"][i], pattern, self.seen[-3000:],
                                  self.screen.text()))
        return self.p.before

    def settle(self, seconds=2):
        """Whatever the program draws in the next seconds (a full screen has no prompt)."""
        try:
            self.expect(r"\x00NEVER", timeout=seconds)
        except AssertionError:
            pass


def same(t, line, want, strip=False):
    """Types line at bash; what it printed must be want."""
    out = t.command(line)
    assert (out.strip() if strip else out) == want, (line, out, t.seen[-2000:])


def test_bash_at_make_run_as_a_linux_terminal():
    """make run's console is bash on a terminal: readline's editing, history (the up arrow and
    Ctrl-R), tab completion of a command and of a file name, Ctrl-C, Ctrl-Z with bg and fg, the
    terminal size programs see, busybox's full-screen vi, less and top drawn right and left
    cleanly, and Ctrl-D ending bash: init powers off, QEMU and make exit 0."""
    t = ScreenTerminal("run")
    try:  # (the host's pty adds a \r to each \r\n QEMU writes: ONLCR, as on any terminal)
        t.expect(PROMPT, timeout=BOOT_TIMEOUT)
        t.wait_raw_mode(timeout=0)
        # Editing: the left arrow moves back into the line, a letter is inserted there; DEL
        # rubs out the character before the cursor, at the end.
        t.type("echo helo wordx" + "\x7f" + LEFT * 6 + "l" + ENTER)
        t.expect(r"hello word\r+\n")
        t.expect(PROMPT)
        # History: the up arrow brings the line back as it ran, Ctrl-R finds it by a part.
        t.type(UP + ENTER)
        t.expect(r"hello word\r+\n")
        t.expect(PROMPT)
        same(t, "echo other", "other\n")
        t.type(CTRL_R + "llo w")
        t.expect(r"w': echo hello word")  # readline redraws the line a key at a time
        assert t.screen.lines()[t.screen.row] == "(reverse-i-search)`llo w': echo hello word", \
            t.screen.text()
        t.type(ENTER)
        t.expect(r"hello word\r+\n")
        t.expect(PROMPT)
        # Tab completion: a command found in PATH, then a file name.
        t.type("unam\t")
        t.expect("e ")  # "unam" became "uname "
        t.type("-s" + ENTER)
        t.expect(r"Linux\r+\n")
        t.expect(PROMPT)
        t.type("cat /etc/pass\t")
        t.expect("wd ")
        t.type(ENTER)
        t.expect(r"root:x:0:0:")
        t.expect(PROMPT)
        # Ctrl-C ends the job in the foreground; the shell lives on. Each key for a job is
        # pressed once the job runs (sysrq t's task list on the console: lucid.job_started).
        level = t.command("cat /proc/sys/kernel/printk").split()[0]
        t.command("dmesg -n 7")
        t.type("sleep 30" + ENTER)
        t.expect(r"sleep 30\r+\n")
        until_tasks(t.type, t.match, job_started(program="sleep"), "sleep in the foreground")
        t.type(CTRL_C)
        t.expect(r"\^C")
        t.expect(PROMPT)
        same(t, "echo $?", "130", strip=True)
        # Ctrl-Z stops it; bg runs it on in the background, fg brings it back.
        t.type("sleep 60" + ENTER)
        t.expect(r"sleep 60\r+\n")
        until_tasks(t.type, t.match, job_started(program="sleep"), "sleep in the foreground")
        t.type(CTRL_Z)
        t.expect(r"\[1\]\+  Stopped +sleep 60")
        t.expect(PROMPT)
        same(t, "echo $?", "148", strip=True)
        same(t, "bg", "[1]+ sleep 60 &\n")
        assert re.match(r"\[1\]\+  Running +sleep 60 &\n$", t.command("jobs")), t.seen[-500:]
        t.type("fg" + ENTER)
        t.expect(r"fg\r+\nsleep 60\r+\n")
        until_tasks(t.type, t.match, job_started(program="sleep"), "sleep back in the foreground")
        t.type(CTRL_C)
        t.expect(PROMPT)
        same(t, "echo $?; jobs", "130", strip=True)
        t.command("dmesg -n " + level)
        # The size: a serial line does not know the screen, so TIOCGWINSZ is 0 x 0, as on
        # Linux's ttyS0 (busybox's stty then says only its device, as on Linux), and busybox's
        # programs take 24 x 80 (or ask the terminal, below).
        same(t, "ttytest attrs | grep '^winsize '", "winsize 0 0\nwinsize set 24 80\n")
        same(t, "stty size", "stty: standard input\n")
        same(t, "printf 'line one\\nline two\\n' > /tmp/f; echo $TERM", "linux\n")

        # vi: the file at the top, ~ for the lines past its end, its name on the status line.
        t.type("vi /tmp/f" + ENTER)
        t.expect(r"line two")
        t.settle()
        lines = t.screen.lines()
        assert lines[0] == "line one" and lines[1] == "line two", t.screen.text()
        assert all(l == "~" for l in lines[2:ROWS - 1]), t.screen.text()
        assert "/tmp/f" in lines[ROWS - 1], t.screen.text()
        t.type("ddZZ")  # an edit, then save and quit
        t.expect(PROMPT)
        same(t, "cat /tmp/f", "line two\n")

        # less: the first screenful, then its status line; q leaves.
        t.command("seq 100 > /tmp/n")
        t.type("less /tmp/n" + ENTER)
        t.expect(r"23")
        t.settle()
        lines = t.screen.lines()
        assert lines[:ROWS - 1] == [str(n) for n in range(1, ROWS)], t.screen.text()
        assert lines[ROWS - 1].startswith(("/tmp/n", ":")), t.screen.text()
        t.type(" ")  # the next page
        t.expect(r"46")
        t.settle(1)
        assert t.screen.lines()[:ROWS - 1] == [str(n) for n in range(24, 24 + ROWS - 1)], \
            t.screen.text()
        t.type("q")
        t.expect(PROMPT)

        # top: its header lines and a line for each task, top itself among them; q leaves.
        t.type("top" + ENTER)
        t.expect(r"PID")
        t.settle(3)
        text = t.screen.text()
        assert re.search(r"^Mem: \d+K used, \d+K free", text, re.M), text
        assert re.search(r"^CPU: ", text, re.M), text
        assert re.search(r"^Load average: ", text, re.M), text
        assert re.search(r"^\s+PID\s+PPID\s+USER\s+STAT", text, re.M), text
        assert re.search(r"^\s*1\s+0\s+root\s+S.*/sbin/init", text, re.M), text
        assert re.search(r"\btop\s*$", text, re.M), text
        t.type("q")
        t.expect(PROMPT)
        same(t, "echo $?", "0", strip=True)
        same(t, "echo back", "back\n")

        # Ctrl-D at an empty prompt: bash leaves ("logout"), init powers off, QEMU exits 0.
        t.type(CTRL_D)
        t.expect("logout")
        if t.p.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=TIMEOUT) != 0:
            raise AssertionError("still running after Ctrl-D:\n" + t.seen[-3000:])
        t.p.close()
        assert t.p.exitstatus == 0, (t.p.exitstatus, t.seen[-2000:])
    finally:
        t.close()

"""make run and make debug at a terminal, typed at as a person types, through a pty.

Their console is QEMU's stdio shared with its monitor through a multiplexer, with signals off
(tools/qemu-cmd --console interactive). So Ctrl-C is a byte for Lucid's shell, and QEMU survives
it (with plain -serial stdio the terminal turned it into SIGINT: "terminating on signal 2", and
the session was gone); Ctrl-A C switches to QEMU's monitor and back; Ctrl-A X quits QEMU, and
make then exits 0. These tests run `make` itself under pexpect.spawn, a pty, because none of this
happens on the pipes the other tests talk to QEMU through.
"""
import os
import re
import signal
import socket
import subprocess
import termios
import time

import pexpect

from lucid import PROMPT, ROOT

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


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


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
            # no new ISO: the kernel's first line is the first thing on the terminal.
            assert re.match(r"\[ *\d+\.\d+\] Lucid ", boot), "make run printed:\n" + boot[:2000]
        t.wait_raw_mode(timeout=0)

        # The reader blocks in trace_pipe: Ctrl-C must stop it, not QEMU.
        t.type("cat /sys/kernel/tracing/trace_pipe" + ENTER)
        t.expect(r"trace_pipe\r+\n")
        time.sleep(2)  # a person waits a moment before giving up on it
        t.type(CTRL_C)
        out = t.expect(PROMPT)
        assert "terminating on signal" not in out, out
        assert "^C" in out, "Ctrl-C was not echoed: %r" % out
        assert t.command("echo $?").strip() == "130"
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
        t.type("echo never run")
        t.type(CTRL_C)
        t.expect(PROMPT)
        assert t.command("echo $?").strip() == "130"
        assert t.quit() == 0, "make debug's exit status after Ctrl-A X"
    finally:
        t.close()

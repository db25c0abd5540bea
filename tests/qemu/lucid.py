"""Boot Lucid in QEMU and talk to its shell over the serial console (pexpect).

Every wait has a timeout, and QEMU leaves through the isa-debug-exit device on a panic, so a hung
or crashed kernel fails a test instead of hanging the run.
"""
import contextlib
import ctypes
import os
import re
import signal
import socket
import subprocess
import tempfile
import time

from queue import Empty

import pexpect
from pexpect.popen_spawn import PopenSpawn as _PopenSpawn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")


def user_source(prog):
    """The C file of the program at /bin/PROG: tests/user/ holds the tests' own, user/ the rest."""
    for folder in ("tests/user", "user"):
        path = os.path.join(ROOT, folder, prog + ".c")
        if os.path.exists(path):
            return path
    raise FileNotFoundError("no %s.c in tests/user/ or user/" % prog)


class PopenSpawn(_PopenSpawn):
    """pexpect's PopenSpawn, waiting for QEMU's output instead of polling for it.

    pexpect's expect() asks read_nonblocking() again and again, 0.1 ms apart (delayafterread),
    while nothing comes: a test waiting on a long command kept an eighth of a host core busy,
    taken from the QEMUs on a machine of two. Here the first read blocks on the queue the reader
    thread fills (woken as soon as a byte comes), at most READ_WAIT, so that expect() still sees
    its own timeout. It uses PopenSpawn's own fields (pexpect 4.8, Debian 12's)."""
    READ_WAIT = 0.1  # seconds: how late expect() may notice that its timeout has passed

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.delayafterread = None

    def read_nonblocking(self, size, timeout):
        if not self._buf and not self._read_reached_eof:
            wait = self.timeout if timeout == -1 else timeout  # None: no timeout at all
            wait = self.READ_WAIT if wait is None else max(0, min(wait, self.READ_WAIT))
            try:
                incoming = self._read_queue.get(timeout=wait)
            except Empty:
                incoming = b""
            if incoming is None:
                self._read_reached_eof = True
            else:
                self._buf += self._decoder.decode(incoming, final=False)
        return super().read_nonblocking(size, timeout)


QEMU_CMD = os.path.join(ROOT, "tools", "qemu-cmd")
PROMPT = r"\[[^\]\r\n]*\]# "
OOPS_MARK = "Kernel panic - not syncing"


class LucidError(AssertionError):
    pass


# A report no test means to provoke, unless it says so (Lucid(allow_sleep_bugs=True)): the
# runner fails the test during which a kernel printed one (tests/run_tests.py), whatever the
# test itself checked. might_sleep()'s, kernel/sched/sched.c: a bug that sleeps only once in
# thousands of runs is named on every run.
KERNEL_BUG = re.compile(r"BUG: sleeping function called from invalid context at .*")
# What the kernels this process closed reported, for the runner to take (take_kernel_bugs).
_closed_bugs = []


def take_kernel_bugs(*alive):
    """The reports printed since the last call: by the kernels closed since, and by alive ones
    (a file's shared kernel), each with the console around it."""
    bugs = _closed_bugs[:]
    del _closed_bugs[:]
    for k in alive:
        if k is not None and k.alive():
            bugs += k.new_kernel_bugs()
    return bugs


SYSRQ = "\x0f"  # Ctrl-O: the console's SysRq prefix (kernel/debug/sysrq.c)


# sysrq t's list, from its first line to the HELP line that `?` (no key) prints after it. \r+:
# a pty adds its own (ONLCR). (?s) is pexpect's DOTALL made explicit: "(?:.|\n)*?" under it
# would backtrack 2^lines on every look that does not match yet.
TASK_LIST = r"(?s)(?:\[[ \d.]+\] )?sysrq: Show State\r+\n(.*?)sysrq: HELP : [^\n]*\n"
TASK_LINE = re.compile(r"task:(.*?) +state:(\S) pid:(\d+) +ppid:(\d+)")
FRAME = re.compile(r"\] +(?:\? )?([A-Za-z_][\w.]*)\+0x")


class Task:
    """One task as sysrq t shows it: comm, state letter, pid, ppid and the functions of its
    stack, innermost first (empty for one on a CPU)."""

    def __init__(self, comm, state, pid, ppid):
        self.comm, self.state, self.pid, self.ppid = comm, state, int(pid), int(ppid)
        self.stack = []

    def __repr__(self):
        return "%s/%d %s %s" % (self.comm, self.pid, self.state, ",".join(self.stack[2:4]))


def task_list(send, expect):
    """Every task, its state and where it sleeps: Ctrl-O t (sysrq, straight from the console's
    interrupt: the console's program sees nothing of it) lists them on the console, at loglevel
    7 (the caller's `dmesg -n 7`). send(keys) types; expect(pattern, timeout) returns the match
    (what came before the list is the caller's). Empty when the list was busy."""
    send(SYSRQ + "t" + SYSRQ + "?")  # ? is no key: sysrq's HELP line marks the list's end
    tasks = []
    for line in expect(TASK_LIST, timeout=30).group(1).split("\n"):
        if m := TASK_LINE.search(line):
            tasks.append(Task(*m.groups()))
        elif tasks and (m := FRAME.search(line)):
            tasks[-1].stack.append(m.group(1))
    return tasks


def until_tasks(send, expect, ready, what, timeout=120):
    """Looks at the task list (task_list) until ready(tasks) says the guest has got where the
    test needs it (a program started, a shell asleep), for at most timeout seconds: a state to
    wait for, where a fixed pause would be a guess at how fast a loaded host is."""
    deadline, tasks = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        tasks = task_list(send, expect)
        if ready(tasks):
            return tasks
        time.sleep(0.05)
    raise AssertionError("%s: not in %d s of looks at the task list; last %r" %
                         (what, timeout, tasks))


def until_bash_sleeps(send, expect):
    """Waits until bash sleeps: once its prompt (or the echo of a key) is out, in readline's
    pselect. Before a ^C, and after a key the test saw echoed: keys and a ^C sent before bash
    gets there can find readline between two reads, where a SIGINT is only recorded (readline's
    handler), printed as "^C" at its next RL_CHECK_SIGNALS, and bash's event hook, which
    prompts anew, runs only when a read ends with EINTR: pselect then sleeps until Enter. The
    console writes as the UART sends, so the last byte of a prompt is on the host's screen
    while bash is still in write(). Linux's readline has the same window, microseconds long
    there; under TCG on a loaded host the prompt's vCPU can stop in it for milliseconds."""
    def asleep(tasks):
        bash = [t for t in tasks if t.comm == "bash"]
        return bool(bash) and bash[0].state == "S"
    until_tasks(send, expect, asleep, "bash asleep")


PARENT = "parent"  # job_started's shell: the program's own parent, whoever it is (not init)


def job_started(shell=None, program=None, states="S", forks_done=True):
    """A ready() for until_tasks: the job a shell runs in the foreground has started, so that a
    ^C or ^Z typed now is the job's, not the shell's (which would drop it, or end only itself).
    The shell (a pid; None: the console's bash, the oldest; PARENT: program's parent) waits for
    its job in do_wait, and none of its children is still a copy of it: each has run exec, and
    a job control shell's child makes its group the terminal's foreground before its exec
    (bash's make_child, ash's forkchild; after `fg` the shell itself does, before it waits).
    With forks_done False, only program (then to be named: the group's leader) must have run
    exec. program, when named, is in one of states (S: asleep in its work, R: running)."""
    def ready(tasks):
        by_pid = {t.pid: t for t in tasks}
        mine = [t for t in tasks if t.comm == program and t.state in states]
        if shell is None:
            bashes = [t.pid for t in tasks if t.comm == "bash"]
            shells = [by_pid[min(bashes)]] if bashes else []
        elif shell == PARENT:  # init waits in do_wait for good: an orphan's parent is none
            shells = [by_pid[t.ppid] for t in mine if t.ppid in by_pid and t.ppid != 1]
        else:
            shells = [by_pid[shell]] if shell in by_pid else []
        for sh in shells:
            if sh.state != "S" or "do_wait" not in sh.stack:
                continue
            if forks_done and any(t.ppid == sh.pid and t.comm == sh.comm for t in tasks):
                continue
            if program is None or mine:  # (PARENT's shells are parents of mine already)
                return True
        return False
    return ready


SYS_RT_SIGACTION = 13  # x86_64
KERNEL_SIGACTION_SIZE = 32  # handler, flags, restorer, mask: the kernel's struct sigaction
NSIG = 65


def default_signals():
    """For a host program a test compares with Lucid (subprocess's preexec_fn): every signal at
    its default and unblocked, as a program Lucid's shell starts has them. Whatever ran the tests
    may have ignored some, and a program, or a shell, inherits that. Through the system call
    itself: glibc (and so Python's signal module) refuses 32 and 33, which it keeps for its
    threads, and those may be ignored too."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    libc = ctypes.CDLL(None, use_errno=True)
    sig_dfl = ctypes.create_string_buffer(KERNEL_SIGACTION_SIZE)  # handler 0: SIG_DFL
    for sig in range(1, NSIG):
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            libc.syscall(SYS_RT_SIGACTION, sig, sig_dfl, None, 8)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now (for QEMU's gdb or serial socket)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def iso_for(cmdline="", build=None):
    """The ISO for a kernel command line (build/lucid.iso for the default, else a cached one).

    build selects another build directory; LUCID_BUILD in the environment does the same for all.
    """
    build = build or os.environ.get("LUCID_BUILD") or BUILD
    if not cmdline:
        return os.path.join(build, "lucid.iso")
    safe = re.sub(r"[^A-Za-z0-9_.=-]", "_", cmdline)[:80]
    iso = os.path.join(build, "iso-cache", safe + ".iso")
    os.makedirs(os.path.dirname(iso), exist_ok=True)
    initramfs = os.path.join(build, "initramfs.cpio.lz4")  # user/'s programs, when built
    subprocess.run([os.path.join(ROOT, "scripts", "mkiso.sh"), os.path.join(build, "lucid.elf"),
                    iso, cmdline] + ([initramfs] if os.path.exists(initramfs) else []),
                   check=True, stdout=subprocess.DEVNULL)
    return iso


def qemu_cmd(iso, smp=None, mem=None, console="pipe", extra=(), share=None):
    """The command that boots iso: tools/qemu-cmd, the one QEMU command line make run uses too.

    smp and mem default to qemu-cmd's (4 CPUs, 256 MiB); console is "pipe" (the console's bytes
    on stdin and stdout, exactly), "interactive" (a terminal, as make run) or "none"; extra are
    more QEMU arguments; share is a host directory Lucid mounts at /mnt/host (virtio-9p). The
    process it starts is QEMU itself.
    """
    cmd = [QEMU_CMD, "--iso", iso, "--console", console]
    if share is not None:
        cmd += ["--share", share]
    if smp is not None:
        cmd += ["--smp", str(smp)]
    if mem is not None:
        cmd += ["--mem", str(mem)]
    return cmd + ["--"] + list(extra)


# A file the runner names: every boot appends its seconds to the prompt, so that the suite can
# say how much of its time went to booting kernels.
BOOT_LOG = "LUCID_BOOT_LOG"


# The MiB of a fork bomb's kernel: its process limit (Linux's default RLIMIT_NPROC for the RAM,
# some 460) is half the default 256 MiB's. What a bomb shows is the same at any limit; half the
# processes is half the forks and execs, the longest part of a long test.
FORK_BOMB_MEM = 128


class Lucid:
    """One booted kernel. `run(cmd)` types a command line and returns what it printed."""

    allow_sleep_bugs = False  # KERNEL_BUG reports are this test's purpose
    bugs_seen = 0  # the log's length already looked at for KERNEL_BUG

    def __init__(self, smp=None, mem=None, cmdline="", timeout=60, extra=(), icount=False,
                 build=None, share=None, allow_sleep_bugs=False):
        self.allow_sleep_bugs = allow_sleep_bugs
        self.iso = iso_for(cmdline, build)
        extra = list(extra) + (["-icount", "shift=0"] if icount else [])
        self.log = tempfile.NamedTemporaryFile("w+", prefix="lucid-", suffix=".log", delete=False)
        self.started = time.monotonic()
        # Pipes, not a pty: the console's bytes arrive exactly as the kernel sent them.
        self.p = PopenSpawn(qemu_cmd(self.iso, smp, mem, "pipe", extra, share), encoding="utf-8",
                            codec_errors="replace", timeout=timeout)
        self.p.logfile_read = self.log
        self.p.delaybeforesend = None
        try:
            self.boot_output = self.expect_prompt(timeout)
        except BaseException:
            self.close()  # a kernel that never reached the prompt must not outlive the test
            raise
        self.boot_seconds = time.monotonic() - self.started
        log = os.environ.get(BOOT_LOG)
        if log:  # one line, appended: the runner's processes share the file (run_tests.py)
            with open(log, "a") as f:
                f.write("%.2f\n" % self.boot_seconds)

    @classmethod
    def without_prompt(cls, cmdline):
        """A kernel booted with cmdline whose console is not the kernel shell's (init=/bin/sh:
        busybox's prompt), or may show prompts __init__ does not wait for: nothing is waited
        for. expect(), wait_exit() and close() work on it as on any."""
        k = cls.__new__(cls)
        k.iso = iso_for(cmdline)
        k.log = tempfile.NamedTemporaryFile("w+", prefix="lucid-", suffix=".log", delete=False)
        k.p = PopenSpawn(qemu_cmd(k.iso), encoding="utf-8", codec_errors="replace", timeout=120)
        k.p.logfile_read = k.log
        k.p.delaybeforesend = None
        return k

    def expect_prompt(self, timeout=30):
        i = self.p.expect([PROMPT, OOPS_MARK, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        if i != 0:
            what = ["", "kernel panic", "QEMU exited", "timeout"][i]
            raise LucidError("%s waiting for the prompt; console so far:\n%s" %
                             (what, self.tail()))
        return self.p.before.replace("\r\n", "\n")

    def tail(self, n=3000):
        self.log.flush()
        with open(self.log.name, errors="replace") as f:
            return f.read()[-n:]

    def send_line(self, line):
        # Type in chunks: a real terminal never delivers kilobytes at once either.
        for i in range(0, len(line), 256):
            self.p.send(line[i:i + 256])
        self.p.send("\r")

    def run(self, line, timeout=30):
        """Types line, waits for the next prompt, returns the output without the echoed line."""
        self.send_line(line)
        out = self.expect_prompt(timeout)
        # The kernel echoes what we typed, then "\n": drop that echo.
        first, _, rest = out.partition("\n")
        return rest

    def dmesg(self, timeout=60):
        """The kernel log, as busybox dmesg prints it (syslog(2)): where the boot's messages are,
        as on Linux, since those below warning level do not reach the console."""
        return self.run("dmesg", timeout)

    def status(self):
        return int(self.run("echo $?").strip())

    def wait_exit(self, timeout=30):
        self.p.expect(pexpect.EOF, timeout=timeout)
        return self.p.wait()

    def alive(self):
        return self.p.proc.poll() is None

    def expect(self, pattern, timeout=30):
        i = self.p.expect([pattern, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        if i != 0:
            raise LucidError("did not see %r; console so far:\n%s" % (pattern, self.tail()))
        return self.p.match

    @contextlib.contextmanager
    def showing_tasks(self):
        """Within it, sysrq t's task list reaches the console (loglevel 7): until_job_started,
        until_tasks. The level is set back after, and $? kept for the test to read."""
        level = self.run("cat /proc/sys/kernel/printk").split()[0]
        self.run("dmesg -n 7")
        yield
        self.run("status=$?; dmesg -n %s; (exit $status)" % level)

    def until_job_started(self, program=None, states="S", forks_done=True, shell=None):
        """Waits until a shell (the console's bash) runs its foreground job (job_started), in
        showing_tasks(): before a ^C or ^Z meant for the job."""
        until_tasks(self.p.send, self.expect, job_started(shell, program, states, forks_done),
                    "the job (%s) started" % (program or "any"))

    def new_kernel_bugs(self):
        """KERNEL_BUG reports in the console since the last look, each with what followed."""
        if self.allow_sleep_bugs or self.log.closed:
            return []
        self.log.flush()
        with open(self.log.name, "rb") as f:
            f.seek(self.bugs_seen)
            raw = f.read()
        self.bugs_seen += len(raw)
        text = raw.decode("utf-8", errors="replace")
        return [text[m.start():m.start() + 1500] for m in KERNEL_BUG.finditer(text)]

    def close(self):
        """Idempotent: a test's finally may close what a failed step closed already, and must
        not hide that step's error behind its own (a kernel's report waits for the runner)."""
        if self.alive():
            self.p.kill(9)
            self.p.wait()
        if not self.log.closed:
            _closed_bugs.extend(self.new_kernel_bugs())
        self.log.close()
        if os.path.exists(self.log.name):
            os.unlink(self.log.name)

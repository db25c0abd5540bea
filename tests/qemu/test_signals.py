"""Signals as Linux x86_64 has them (issue 16 item 1): the programs user/sig*.c, built with
musl-gcc, print the same on the host's Linux and in Lucid; then the kernel shell's side of it:
Ctrl-C reaching a program's handler, kill -STOP and -CONT of a job.
"""
import difflib
import os
import subprocess
import tempfile

import test_syscalls
from lucid import ROOT


def on_linux(prog):
    """user/PROG.c's output on the host, run as the leader of a process group of its own, as
    Lucid's shell runs a command: its kill(0) must not reach the test. In the test's session,
    so that the group is not orphaned (SIGTSTP would be discarded there, as Linux does)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, prog)
        subprocess.run(["musl-gcc"] + test_syscalls.MUSL_CFLAGS +
                       [os.path.join(ROOT, "user", prog + ".c"), "-o", exe], check=True)
        out = subprocess.run([exe], cwd=tmp, capture_output=True, text=True, timeout=120,
                             preexec_fn=os.setpgrp)
        assert out.returncode == 0, out.stderr
        return out.stdout


def same_as_linux(lucid, prog):
    want = on_linux(prog)
    got = test_syscalls.on_lucid(lucid, prog)
    # A child killed by a real fault has the kernel's one-line report on the console.
    reports = len(test_syscalls.SEGFAULT_LINE.findall(got))
    got = test_syscalls.SEGFAULT_LINE.sub("", got)
    assert reports == got.count("killed by Segmentation fault"), got
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "linux", "lucid", lineterm="")
    assert got == want, "Lucid differs from Linux:\n" + "\n".join(diff)


def test_handlers_masks_and_the_signal_frame(lucid):
    # SA_SIGINFO/NODEFER/RESETHAND, sa_mask, sigprocmask/sigpending/sigsuspend, real-time
    # signals queued, standard ones merged, tkill/tgkill, rt_sigreturn's registers and FPU.
    same_as_linux(lucid, "sigbasic")


def test_sigchld_stop_continue_wait4_fork_exec(lucid):
    # Every default action, SIGSTOP/SIGTSTP/SIGCONT with WUNTRACED/WCONTINUED and SIGCHLD's
    # codes, SIGCHLD ignored, kill(0) and kill(-pgrp), what fork and exec keep.
    same_as_linux(lucid, "sigchld")


def test_interrupted_calls_sigpipe_and_bad_frames(lucid):
    # EINTR or restart with SA_RESTART, nanosleep's time left and its restart after a stop,
    # SIGPIPE/EPIPE, a handler returning into garbage and a frame on a bad stack.
    same_as_linux(lucid, "sigintr")

"""Threads and futexes (issue 33 items 1 and 2), judged by Linux.

user/threads.c, built with musl (its pthreads use clone and futex directly) and static with
glibc (whose pthread_create tries clone3 first, and whose robust mutexes count on the kernel's
walk of the robust list at a thread's exit), prints facts about a process of several threads:
getpid and gettid, /proc/PID/task, join (CLONE_CHILD_CLEARTID's futex wake), tgkill and kill,
exit of one thread against exit_group and a fatal signal, robust mutexes, futex(2)'s operations
and errors, and execve from a thread. Each build must print in Lucid what it prints on the host.
"""
import difflib
import os
import subprocess
import tempfile

from lucid import ROOT
from test_spawn import on_host
from test_syscalls import same_as_linux


def test_threads_musl(lucid):
    same_as_linux(lucid, "threads")


def same_as_linux_glibc(lucid, prog, timeout=120):
    """user/PROG.c built static with glibc (/opt/dyn/PROG-glibc in Lucid) prints what it prints
    on the host, and asks for no system call Lucid lacks."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, prog + "-glibc")
        subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
                        os.path.join(ROOT, "user", prog + ".c"), "-o", exe], check=True)
        want = on_host([exe])
    got = lucid.run("/opt/dyn/%s-glibc" % prog, timeout)
    assert lucid.status() == 0, got
    enosys = lucid.run("dmesg | grep '%s-glibc.*not implemented'" % prog)
    assert enosys == "", enosys
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "linux", "lucid", lineterm="")
    assert got == want, "Lucid differs from Linux:\n" + "\n".join(diff)


def test_threads_glibc(lucid):
    same_as_linux_glibc(lucid, "threads")


def test_futex_no_lost_wakeup(lucid):
    """4 threads, one per CPU, x 1M lock/unlock of a futex mutex that yields while held (the
    issue's figure: about 2.5 s under TCG), then five runs of 100000: each count is exact, and
    nobody sleeps for good (the run's timeout)."""
    for rounds, runs in ((1000000, 1), (100000, 5)):
        for _ in range(runs):
            out = lucid.run("futexstress %d" % rounds, 120)
            assert lucid.status() == 0, out
            assert out == "4 threads x %d lock/unlock: count %d, exact\n" \
                          "slept in FUTEX_WAIT: yes\n" % (rounds, 4 * rounds), out


def test_pthread_programs_musl(lucid):
    """Mutexes, condition variables, barriers, TLS, pthread_cancel and pthread_join (item 3)."""
    same_as_linux(lucid, "pthreads")


def test_pthread_programs_glibc(lucid):
    same_as_linux_glibc(lucid, "pthreads")

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


def test_threads_glibc(lucid):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "threads-glibc")
        subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
                        os.path.join(ROOT, "user", "threads.c"), "-o", exe], check=True)
        want = on_host([exe])
    got = lucid.run("/opt/dyn/threads-glibc", 120)
    assert lucid.status() == 0, got
    assert "not implemented" not in lucid.run("dmesg | grep threads-glibc"), got
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "linux", "lucid", lineterm="")
    assert got == want, "Lucid differs from Linux:\n" + "\n".join(diff)

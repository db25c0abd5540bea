"""POSIX timers and clocks, judged by Linux.

tests/user/posixtimers.c, built with musl and static with glibc (whose SIGEV_THREAD is a helper
thread woken by SIGEV_THREAD_ID, in rt_sigtimedwait), prints invariants of timer_create,
timer_settime, timer_gettime, timer_getoverrun and timer_delete on every clock that takes timers,
their errors, the siginfo of a timer's signal, fork and exec: each build must print in Lucid what
it prints on the host.
"""
from test_syscalls import same_as_linux
from test_threads import same_as_linux_glibc


def test_posix_timers_musl(lucid):
    same_as_linux(lucid, "posixtimers")


def test_posix_timers_glibc(lucid):
    same_as_linux_glibc(lucid, "posixtimers")


def test_getrusage_and_times(lucid):
    # Which fields getrusage fills (RUSAGE_SELF, THREAD, CHILDREN) and which it leaves 0, page
    # faults in ru_minflt, a process's times and CPU clock keeping an exited thread's time,
    # a reaped child's (and its thread's) in wait4, RUSAGE_CHILDREN and times().
    same_as_linux(lucid, "rusage")

"""Signals between threads and queued with a value, judged by Linux: tests/user/sigretarget.c
(Linux's retarget_shared_pending: a process's signal its chosen thread blocks goes to a sibling
that takes it) and tests/user/sigqueueinfo.c (rt_sigqueueinfo, rt_tgsigqueueinfo, sigqueue(3)
with musl and with glibc) print the same on the host's Linux and in Lucid.
"""
from test_signals import same_as_linux
from test_threads import same_as_linux_glibc


def test_shared_signal_handed_to_a_thread_that_takes_it(lucid):
    same_as_linux(lucid, "sigretarget")


def test_sigqueueinfo_musl(lucid):
    same_as_linux(lucid, "sigqueueinfo")


def test_sigqueueinfo_glibc(lucid):
    same_as_linux_glibc(lucid, "sigqueueinfo")


def test_exec_by_a_thread_keeps_the_alarm(lucid):
    # Linux's de_thread keeps the process's ITIMER_REAL: an execve by a thread other than the
    # leader, then by the leader, finds it armed with its interval.
    same_as_linux(lucid, "execalarm")


def test_setpgid_moves_every_thread(lucid):
    # setpgid of a threaded child, by its parent and by one of its threads: every thread
    # reports the new group (getpgrp, getpgid, /proc/self/task/TID/stat); EINVAL for a
    # thread's id, EACCES for a child after its execve, ESRCH for one that is no child.
    same_as_linux(lucid, "pgrpthreads")


def test_orphaned_process_groups(lucid):
    # Job-control stops are discarded in an orphaned group (SIGSTOP is not), and a group
    # orphaned with a stopped process gets SIGHUP then SIGCONT (Linux's kill_orphaned_pgrp).
    same_as_linux(lucid, "orphanpgrp")


def test_cpu_itimers_count_the_whole_process(lucid):
    # ITIMER_VIRTUAL and ITIMER_PROF are the process's: another thread sees them, and they fire
    # on a sibling's CPU time while the thread that set them sleeps.
    same_as_linux(lucid, "cpuitimer")

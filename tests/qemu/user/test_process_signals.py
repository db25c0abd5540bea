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


def test_orphaned_group_reads_the_terminal_eio(lucid):
    # A background job whose parent has gone (its group is orphaned: its parent is init now)
    # reads the terminal: EIO, where a watched job would get SIGTTIN, as Linux's
    # __tty_check_change. The host has no terminal here to judge; the waits for it are bounded:
    # sh reads once its parent, the subshell, has gone (its ppid is 1) and bash has taken the
    # terminal back (its foreground group, field 8, is no longer sh's, field 5): before that
    # sh would read as the foreground. bash waits until sh has written its status.
    orphaned = "i=0; until [ $(cut -d\" \" -f4 /proc/$$/stat) = 1 ] && " \
               "[ $(cut -d\" \" -f8 /proc/$$/stat) != $(cut -d\" \" -f5 /proc/$$/stat) ] || " \
               "[ $i -ge 300 ]; do sleep 0.1; i=$((i+1)); done"
    out = lucid.run("rm -f /tmp/orph; (sh -c '%s; cat < /dev/tty; echo status $? > /tmp/orph'"
                    " 2>/tmp/orph.err &); for i in $(seq 300); do [ -s /tmp/orph ] && break; "
                    "sleep 0.2; done; cat /tmp/orph.err /tmp/orph; rm -f /tmp/orph /tmp/orph.err"
                    % orphaned, 120)
    assert out == "cat: read error: Input/output error\nstatus 1\n", out

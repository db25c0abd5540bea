"""POSIX timers, clocks and what a process has used, judged by Linux.

tests/user/posixtimers.c, built with musl and static with glibc (whose SIGEV_THREAD is a helper
thread woken by SIGEV_THREAD_ID, in rt_sigtimedwait), prints invariants of timer_create,
timer_settime, timer_gettime, timer_getoverrun and timer_delete on every clock that takes timers,
their errors, the siginfo of a timer's signal, /proc/self/timers, fork and exec; allclocks.c
every clock id in clock_gettime, clock_getres and clock_nanosleep; rusage.c getrusage and times.
Each must print in Lucid what it prints on the host. What the host cannot judge (the alarm
clocks, which need an RTC; where kernels after 6.1 changed) is asserted as Linux 6.1 answers.
"""
import re

from test_syscalls import same_as_linux
from test_threads import same_as_linux_glibc
from tracefs import T, reset_tracing


def test_posix_timers_musl(lucid):
    same_as_linux(lucid, "posixtimers")


def test_posix_timers_glibc(lucid):
    same_as_linux_glibc(lucid, "posixtimers")


def test_getrusage_and_times(lucid):
    # Which fields getrusage fills (RUSAGE_SELF, THREAD, CHILDREN) and which it leaves 0, page
    # faults in ru_minflt, a process's times and CPU clock keeping an exited thread's time,
    # a reaped child's (and its thread's) in wait4, RUSAGE_CHILDREN and times().
    same_as_linux(lucid, "rusage")


def test_every_clock(lucid):
    # clock_gettime, clock_getres and clock_nanosleep on every clock id: the named ones, ids
    # of none, a dynamic clock's, CPU clocks of this process, a child and threads (and of no
    # task, or a reaped one); which clocks can be slept on and Linux's error and order of checks
    # for the rest; sleeps on CPU clocks; EINTR with the time left; a stopped sleep that ends
    # no earlier than asked.
    same_as_linux(lucid, "allclocks")


# What Linux 6.1 answers on the alarm clocks with an RTC (alarmtimer's rtcdev) and
# CAP_WAKE_ALARM: Lucid has the CMOS clock and runs everything as root. The host may have no
# RTC (then every call is EINVAL or EOPNOTSUPP), so this is asserted here, not compared.
ALARM_CLOCKS = """\
REALTIME_ALARM               gettime ok, getres ok 0.000000001
  reads as REALTIME: yes
  sleep 20 ms: ok, not early: yes
  flags 2: Invalid argument
  timer_create: ok
BOOTTIME_ALARM               gettime ok, getres ok 0.000000001
  reads as BOOTTIME: yes
  sleep 20 ms: ok, not early: yes
  flags 2: Invalid argument
  timer_create: ok
"""


def test_alarm_clocks(lucid):
    out = lucid.run("allclocks alarm")
    assert out == ALARM_CLOCKS, out


def test_posix_timers_as_linux_6_1(lucid):
    # Where later kernels changed what 6.1 does (6.13 drops a deleted timer's pending signal;
    # Linux counts RLIMIT_SIGPENDING over all the user's signals, Lucid over the process's
    # timers, which is the same for a process alone): 6.1's answers, asserted here.
    out = lucid.run("posixtimers linux61")
    assert out == ("deleted with its signal pending: still delivered: yes, SI_TIMER from it: yes\n"
                   "RLIMIT_SIGPENDING 3: 3 timers, then Resource temporarily unavailable\n"), out


def test_posix_timers_stress(lucid):
    # Four threads each take their own 1 ms timer's signals (SIGEV_THREAD_ID) while a 100 us
    # timer and a CPU-time one signal the process; it exits with them all armed. Five times,
    # then no WARNING in the log.
    last = lucid.run("dmesg | tail -n 1")
    for _ in range(5):
        out = lucid.run("posixtimers stress", 60)
        assert out == "4 threads, each had its own timer's 20 signals: yes\n", out
    log = lucid.run("dmesg")
    assert "WARNING" not in log[log.rfind(last) + len(last):], log


def test_timer_signal_traced(lucid):
    # A timer's signal is generated as Linux's is: signal_generate with si_code SI_TIMER (-2),
    # to the process (grp=1), delivered (res=0); in the trace, and in trace-cmd's report of it.
    reset_tracing(lucid)
    lucid.run("echo 1 > %s/events/signal/signal_generate/enable" % T)
    lucid.run("posixtimers linux61 > /dev/null")
    lucid.run("echo 0 > %s/events/signal/signal_generate/enable" % T)
    line = re.compile(r"signal_generate: sig=37 errno=0 code=-2 comm=posixtimers pid=\d+ grp=1 "
                      r"res=0")
    trace = lucid.run("cat %s/trace" % T)
    assert line.search(trace), trace
    report = lucid.run("cd /tmp && trace-cmd extract > /dev/null 2>&1 && "
                       "trace-cmd report 2>/dev/null | grep -c 'code=-2'; rm -f trace.dat", 120)
    assert int(report.split()[-1]) >= 1, report
    reset_tracing(lucid)

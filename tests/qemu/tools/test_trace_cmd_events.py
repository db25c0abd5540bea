"""Debian's trace-cmd recording trace events in Lucid: -e, -f, -F.

trace-cmd record -e finds events through their filter files (events/*/filter), and -f and -F
write filters into them (trace/trace_events_filter.c). Each trace.dat is read by trace-cmd
report in Lucid and, copied out through the share, by the host's trace-cmd report, which must
print the same lines; what the lines say is checked too: the events asked for and no others,
each kept by the filter, and tracing left as trace-cmd found it.
"""
import os
import re
import tempfile

from lucid import until_tasks
from test_dynamic import (PRINTK_LINE, T, assert_same_report, check, host_report,
                          recorders_reading)

# Heavy, trace-cmd records run_test on every CPU: run_tests.py starts no other heavy file beside it.
HEAVY = True

SHARE = tempfile.mkdtemp(prefix="lucid-tcmd-events-")
BOOT = {"timeout": 120, "share": SHARE}
IN_FILE = "in.bin"  # read through the share: virtio interrupts, so irq events
with open(os.path.join(SHARE, IN_FILE), "wb") as f:
    f.write(os.urandom(64 << 10))

# trace-cmd report's event line: comm-pid, [cpu], time, event name and its text.
LINE = re.compile(r"^ *(?P<comm>.+)-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] +\d+\.\d{6}: "
                  r"(?P<event>\w+): +(?P<body>.*)$")


def report_of(lucid, name):
    """trace-cmd report in Lucid of /tmp/trace.dat, checked against the host's on a copy."""
    report = PRINTK_LINE.sub("", lucid.run("cd /tmp; trace-cmd report", 180))
    assert lucid.status() == 0, report[-2000:]
    assert report.startswith("cpus=4\n"), report[:2000]
    check(lucid, "cp /tmp/trace.dat /mnt/host/%s; rm /tmp/trace.dat" % name, "", 0)
    host, squeezed = host_report(os.path.join(SHARE, name))
    assert_same_report(host, report, squeezed)
    lines = []
    for line in report.splitlines()[1:]:
        m = LINE.match(line)
        assert m, "not an event line: %r" % line
        lines.append(m)
    return lines


def record(lucid, args, timeout=240):
    """trace-cmd record ARGS in /tmp. Where the command is short and the test needs its events,
    ARGS runs it through recwait (user/recwait.c): trace-cmd stops its recorders when the
    command ends, and one stopped before it had set itself up reads nothing."""
    out = PRINTK_LINE.sub("", lucid.run("cd /tmp; trace-cmd record %s" % args, timeout))
    assert lucid.status() == 0, out
    assert re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", out), out
    return out


def filters_left_none(lucid, events):
    for e in events:
        check(lucid, "cat %s/events/%s/filter" % (T, e), "none\n", 0)
    check(lucid, "cat %s/set_event" % T, "", 0)


def test_record_sched_and_irq_around_run_test(lucid):
    # trace-cmd in the background until Ctrl-C (SIGINT from kill), while the shell's run_test
    # runs and a file is read through the share (virtio interrupts): trace-cmd record -e sched
    # -e irq, as a Linux user types it.
    lucid.run("cd /tmp; rm -f trace.dat rec.log")
    out = lucid.run("trace-cmd record -e sched -e irq > /tmp/rec.log 2>&1 &")
    assert re.match(r"\[1\] \d+\n$", out), out
    # Its output goes to a file, so stdio holds "Hit Ctrl^C" back: wait for its events instead.
    for _ in range(60):
        if "sched:sched_switch\n" in lucid.run("cat %s/set_event" % T):
            break
        lucid.run("sleep 1")
    with lucid.showing_tasks():  # and its recorders, each reading (test_dynamic says how)
        until_tasks(lucid.p.send, lucid.expect, recorders_reading, "recorders reading")
    lucid.run("run_test", 300)
    lucid.run("cat /mnt/host/%s > /dev/null" % IN_FILE, 120)
    out = PRINTK_LINE.sub("", lucid.run("kill -INT %1; wait %1", 180))
    assert lucid.status() == 0, out
    log = lucid.run("cat /tmp/rec.log")
    assert re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", log), log
    filters_left_none(lucid, ["sched/sched_switch", "irq/irq_handler_entry"])
    lines = report_of(lucid, "sched_irq.dat")
    events = {m.group("event") for m in lines}
    assert {"sched_switch", "sched_wakeup", "irq_handler_entry", "irq_handler_exit"} <= events, \
        events
    assert events <= {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
                      "sched_migrate_task", "sched_process_exit", "sched_process_free",
                      "sched_process_fork", "sched_process_exec", "sched_process_wait",
                      "irq_handler_entry", "irq_handler_exit"}, events
    assert any(m.group("comm").startswith("run_test") for m in lines), "no run_test thread"
    assert any(re.match(r"irq=\d+ name=virtio", m.group("body")) for m in lines
               if m.group("event") == "irq_handler_entry"), "no virtio interrupt"


def test_recwait_waits_for_the_recorders(lucid):
    """recwait CMD runs CMD once every other child of its parent sleeps or has gone, as
    trace-cmd's recorders do once they read: a sibling still busy holds it back (A is printed
    first whatever the timing), and one still running after -t SECONDS stops it with status 1
    without running CMD."""
    out = lucid.run("sh -c '(i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; echo A) & "
                    "recwait echo B; wait'", 120)
    assert out == "A\nB\n", out
    out = lucid.run("sh -c 'spin & recwait -t 1 echo B; echo status $?; kill $!'", 120)
    assert re.match(r"recwait: pid \d+ still runs after 1 s; not running echo\nstatus 1\n$",
                    out), out
    assert lucid.run("recwait -t 0 echo B; echo $?") == \
        "usage: recwait [-t SECONDS] CMD [ARG...]\n2\n"


def test_record_one_event(lucid):
    record(lucid, "-e sched_switch recwait /opt/dyn/hello")
    lines = report_of(lucid, "switch.dat")
    assert lines
    for m in lines:
        assert m.group("event") == "sched_switch", m.group(0)


def test_record_syscalls(lucid):
    out = record(lucid, "-e syscalls recwait /opt/dyn/hello")
    assert "hello, dynamic world" in out, out
    lines = report_of(lucid, "syscalls.dat")
    hello = [m for m in lines if m.group("comm") == "hello"]
    assert any(m.group("event") == "sys_enter_write" and re.match(r"fd: 0x0*1,", m.group("body"))
               for m in hello), [m.group(0) for m in hello][:20]
    for m in lines:
        assert m.group("event").startswith(("sys_enter_", "sys_exit_")), m.group(0)


def test_record_with_a_filter(lucid):
    # -f: the filter of the event before it, written into its filter file by trace-cmd. The
    # sleep makes a switch the filter keeps (its CPU idles, then switches to sleep); the
    # recorders, asleep already (recwait), may make none.
    record(lucid, "-e sched_switch -f 'prev_pid == 0 && next_comm != \"hello\"' "
           "recwait sh -c 'sleep 0.1; /opt/dyn/hello'")
    filters_left_none(lucid, ["sched/sched_switch"])
    lines = report_of(lucid, "filtered.dat")
    assert lines
    for m in lines:
        assert m.group("event") == "sched_switch", m.group(0)
        assert " prev_pid=0 " in m.group("body") and "next_comm=hello " not in m.group("body"), \
            m.group(0)


def test_record_events_of_one_command(lucid):
    # -F: trace-cmd writes the command's pid into set_event_pid, which keeps its events and the
    # switches to it and its wakeups (next_pid, pid), as Linux's sched probes of the filter do.
    # (recwait execs hello in the same process: its exec is the command's too, and only
    # hello's is counted)
    out = record(lucid, "-e sched -F recwait /opt/dyn/hello")
    assert "hello, dynamic world" in out, out
    filters_left_none(lucid, ["sched/sched_switch", "sched/sched_wakeup"])
    lines = report_of(lucid, "pid.dat")
    execs = [m for m in lines if m.group("event") == "sched_process_exec" and
             "filename=/opt/dyn/hello " in m.group("body")]
    assert len(execs) == 1, [m.group(0) for m in lines if m.group("event") ==
                             "sched_process_exec"]
    pid = re.search(r" pid=(\d+) ", execs[0].group("body")).group(1)
    for m in lines:
        assert m.group("pid") == pid or re.search(r"\b(next_pid|pid)=%s\b" % pid,
                                                  m.group("body")), m.group(0)

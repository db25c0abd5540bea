"""The pid filters (trace/trace_pid.c): set_ftrace_pid, set_ftrace_notrace_pid, set_event_pid,
set_event_notrace_pid, and the function-fork and event-fork options, as Linux 6.1 has them.

set_ftrace_pid's own file tests are in test_ftrace_files.py and test_proc.py; here the same
checks run on the three others, then what each does to a trace, and what Debian's trace-cmd
record makes of them: with set_event_pid there, -F filters events through it.
"""
import re

from test_dynamic import PRINTK_LINE, T
from test_proc import job_pid
from test_trace_cmd_events import SHARE, report_of
from tracefs import reset_tracing

BOOT = {"timeout": 120, "share": SHARE}
WRITE_ERROR = "-bash: echo: write error: %s\n"
FILES = {"set_ftrace_pid": "no pid\n", "set_ftrace_notrace_pid": "no pid\n",
         "set_event_pid": "", "set_event_notrace_pid": ""}  # what each reads with no list


def ok_amid_printk(lucid, line, timeout=60):
    out = PRINTK_LINE.sub("", lucid.run(line, timeout))
    assert out == "" and lucid.status() == 0, (line, out)


def fails(lucid, line, error="Invalid argument"):
    out = lucid.run(line)
    assert out == WRITE_ERROR % error and lucid.status() == 1, (line, out)


def cat(lucid, name):
    return lucid.run("cat %s/%s" % (T, name))


def test_each_file_reads_writes_appends_and_refuses(lucid):
    reset_tracing(lucid)
    assert "noevent-fork\n" in cat(lucid, "trace_options")
    assert cat(lucid, "options/event-fork") == "0\n"
    for name, none in FILES.items():
        path = "%s/%s" % (T, name)
        assert cat(lucid, name) == none, name
        fails(lucid, "echo abc > %s" % path)
        fails(lucid, "echo -1 > %s" % path)
        fails(lucid, "echo 5 1073741824 > %s" % path, "Operation not permitted")
        assert cat(lucid, name) == none, name  # a refused write changes nothing, O_TRUNC too
        ok_amid_printk(lucid, "echo 1 2 > %s" % path)
        ok_amid_printk(lucid, "echo 3 0x10 >> %s" % path)
        ok_amid_printk(lucid, "echo 2 >> %s" % path)  # already there: once
        assert cat(lucid, name) == "1\n2\n3\n16\n", name
        fails(lucid, "echo 4 x >> %s" % path)
        ok_amid_printk(lucid, "echo 7 > %s" % path)
        assert cat(lucid, name) == "7\n", name
        ok_amid_printk(lucid, "cat /dev/null > %s" % path)  # O_TRUNC and close, no write: no list
        assert cat(lucid, name) == none, name
        ok_amid_printk(lucid, "echo 8 > %s" % path)
        ok_amid_printk(lucid, "echo > %s" % path)
        assert cat(lucid, name) == none, name
    # The files are independent of each other.
    ok_amid_printk(lucid, "echo 11 > %s/set_event_pid" % T)
    assert [cat(lucid, n) for n in FILES] == ["no pid\n", "no pid\n", "11\n", ""]
    reset_tracing(lucid)


def traced_lines(trace):
    """(comm, pid, body) of each line of a trace."""
    lines = []
    for l in trace.splitlines():
        if l.startswith("#") or not l.strip():
            continue
        m = re.match(r"^\s*(.+)-(\d+)\s+\[\d+\] \S+ +[\d.]+: (.*)$", l)
        assert m, l
        lines.append((m.group(1), int(m.group(2)), m.group(3)))
    return lines


def run_forkchild(lucid, setup, tracer="nop", events=""):
    """forkchild (sleeps, forks, waits) under a tracer, the files set by setup(pid) before it
    forks. Returns its pid, the trace and the four files read afterwards."""
    reset_tracing(lucid)
    ok_amid_printk(lucid, "echo 0 > %s/tracing_on" % T)
    pid = job_pid(lucid.run("forkchild 2 &"))
    try:
        for line in setup(pid):
            ok_amid_printk(lucid, line)
        if events:
            ok_amid_printk(lucid, "echo %s > %s/set_event" % (events, T))
        ok_amid_printk(lucid, "echo %s > %s/current_tracer" % (tracer, T))
        ok_amid_printk(lucid, "echo 1 > %s/tracing_on" % T)
        lucid.run("wait", timeout=60)
        ok_amid_printk(lucid, "echo 0 > %s/tracing_on" % T)
        if tracer == "function_graph":
            ok_amid_printk(lucid, "echo 1 > %s/options/funcgraph-proc" % T)
        trace = lucid.run("cat %s/trace" % T, timeout=120)
        if tracer == "function_graph":
            ok_amid_printk(lucid, "echo 0 > %s/options/funcgraph-proc" % T)
        return pid, trace, [cat(lucid, n) for n in FILES]
    finally:
        reset_tracing(lucid)


def test_set_ftrace_notrace_pid_leaves_out_its_task_and_wins(lucid):
    pid, trace, after = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_ftrace_notrace_pid" % (p, T)], "function")
    lines = traced_lines(trace)
    pids = {p for _, p, _ in lines}
    assert lines and pid not in pids, pids
    assert any(c == "forkchild" for c, _, _ in lines), "its child is traced"
    assert after[1] == "%d\n" % pid, after
    # In both lists: not traced, as Linux's trace_ignore_this_task.
    pid, trace, _ = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_ftrace_pid" % (p, T),
                          "echo %d > %s/set_ftrace_notrace_pid" % (p, T)], "function")
    lines = traced_lines(trace)
    assert lines == [], lines[:20]


def test_set_ftrace_notrace_pid_applies_to_function_graph(lucid):
    pid, trace, _ = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_ftrace_notrace_pid" % (p, T)], "function_graph")
    # funcgraph-proc: each line names its task. The child's are there, the parent's not.
    # (Linux's print_graph_proc cuts the name to 7 characters.)
    assert re.search(r"forkchi-\d+ ", trace), trace[-3000:]
    assert "forkchi-%d " % pid not in trace, trace[-3000:]


def only_pid_or_about_it(lines, pid):
    """Every event is the task's, or a switch to it, or a wakeup of it (Linux's probes)."""
    for comm, p, body in lines:
        assert p == pid or re.search(r"\b(next_pid|pid)=%d\b" % pid, body), (comm, p, body)


def test_set_event_pid_records_only_its_tasks_events(lucid):
    pid, trace, after = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_event_pid" % (p, T)], events="'sched:* syscalls:*'")
    lines = traced_lines(trace)
    assert any(p == pid and b.startswith("sys_fork()") for _, p, b in lines), lines[:40]
    assert any("sched_switch" in b and "next_pid=%d " % pid in b for _, p, b in lines), lines
    only_pid_or_about_it(lines, pid)
    assert after[2] == "%d\n" % pid, after  # event-fork off: the list stays as written
    # set_event_notrace_pid: none of its events, but the switches between it and others.
    pid, trace, after = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_event_notrace_pid" % (p, T)], events="'sched:*'")
    lines = traced_lines(trace)
    assert any(c == "forkchild" and p != pid for c, p, _ in lines), "its child is recorded"
    # (Its wakeups of others are theirs too: a waking or wakeup is kept if either task is.)
    for comm, p, body in lines:
        assert p != pid or body.startswith(("sched_switch:", "sched_wakeup", "sched_waking")), \
            (comm, p, body)
    assert after[3] == "%d\n" % pid, after


def test_event_fork_follows_the_child_and_lets_go_at_exit(lucid):
    pid, trace, after = run_forkchild(
        lucid, lambda p: ["echo 1 > %s/options/event-fork" % T,
                          "echo %d > %s/set_event_pid" % (p, T)], events="'syscalls:*'")
    lines = traced_lines(trace)
    pids = {p for _, p, _ in lines}
    assert pid in pids and len(pids) == 2 and max(pids) > pid, (pid, pids)
    child = max(pids)
    assert any(p == child and "sys_exit_group" in b for _, p, b in lines), lines[-20:]
    # Both exited: set_event_pid is empty and in force; function-fork's lists are untouched.
    assert after == ["no pid\n", "no pid\n", "", ""], after
    # Without event-fork, the child is not followed.
    pid, trace, _ = run_forkchild(
        lucid, lambda p: ["echo %d > %s/set_event_pid" % (p, T)], events="'syscalls:*'")
    lines = traced_lines(trace)
    assert {p for _, p, _ in lines} == {pid}, lines[-20:]


def test_trace_cmd_record_F_uses_set_event_pid(lucid):
    """With set_event_pid there, trace-cmd record -F filters events by it rather than by a
    common_pid filter in each event (Linux's trace-cmd does: have_set_event_pid), and puts it
    back afterwards; the host's trace-cmd report reads the trace.dat the same."""
    reset_tracing(lucid)
    lucid.run("cd /tmp; rm -f trace.dat rec.log")
    out = lucid.run("trace-cmd record -e sched -e syscalls -F /bin/sleep 4 > /tmp/rec.log 2>&1 &")
    job_pid(out)
    during = ""
    for _ in range(30):
        during = cat(lucid, "set_event_pid")
        if during:
            break
        lucid.run("sleep 0.5")
    pid = int(during)
    assert cat(lucid, "set_ftrace_pid") == during, during
    assert cat(lucid, "events/sched/sched_switch/filter") == "none\n"
    out = PRINTK_LINE.sub("", lucid.run("wait %1", 180))
    log = lucid.run("cat /tmp/rec.log")
    assert re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", log), log
    lines = report_of(lucid, "event_pid.dat")
    assert any(m.group("event") == "sched_process_exec" and int(m.group("pid")) == pid
               for m in lines), [m.group(0) for m in lines][:40]
    for m in lines:
        assert int(m.group("pid")) == pid or re.search(r"\b(next_pid|pid)=%d\b" % pid,
                                                       m.group("body")), m.group(0)
    # trace-cmd put things back as it found them.
    assert [cat(lucid, n) for n in FILES] == list(FILES.values())

"""user/marker.c, the article's part 2 example: a user program writes its own lines into the trace
through trace_marker, and they show in `cat trace` in order with the kernel's lines, as Linux
prints a trace_marker write: `marker-PID [CPU] FLAGS TIME: tracing_mark_write: TEXT`.
"""
import re

from tracefs import ok, reset_tracing

T = "/sys/kernel/tracing"
# Linux's line for a marker (default options): task-pid, [cpu], the irqs-off/need-resched/
# hardirq/preempt(/migrate) flags, timestamp, then the caller and the text.
MARK = re.compile(r"^ +marker-(\d+) +\[\d{3}\] [.dDnNhHsz0-9]{4,5} +\d+\.\d{6}: "
                  r"tracing_mark_write: (.*)$")
FUNC = re.compile(r"^ +marker-(\d+) +\[\d{3}\] [.dDnNhHsz0-9]{4,5} +\d+\.\d{6}: (\S+) <-(\S+)$")


def marker_lines(lucid):
    """The trace's lines from marker processes, as (kind, pid, text) in the order printed."""
    trace = lucid.run("cat %s/trace" % T, timeout=60)
    lines = []
    for line in trace.splitlines():
        m = MARK.match(line)
        if m:
            lines.append(("mark", int(m.group(1)), m.group(2)))
            continue
        m = FUNC.match(line)
        if m:
            lines.append(("func", int(m.group(1)), m.group(2) + " <-" + m.group(3)))
    return lines, trace


def test_markers_between_the_kernels_lines(lucid):
    """The program's three markers, with the kernel's sys_getpid (the function tracer, filtered
    to it) between the first and second: the process's own getpid() call."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > %s/tracing_on" % T)
    ok(lucid, "echo sys_getpid > %s/set_ftrace_filter" % T)
    ok(lucid, "echo function > %s/current_tracer" % T)
    ok(lucid, "echo > %s/trace; echo 1 > %s/tracing_on" % (T, T))
    ok(lucid, "marker")
    ok(lucid, "echo 0 > %s/tracing_on" % T)
    lines, trace = marker_lines(lucid)
    reset_tracing(lucid)
    # bash's child asks for its pid between fork and exec: traced under the same pid, which the
    # trace names after the program it became (saved_cmdlines). The program's own lines follow.
    if lines and lines[0] == ("func", lines[-1][1], "sys_getpid <-do_syscall_64"):
        lines.pop(0)
    assert len(lines) == 4, trace[-3000:]
    pid = lines[0][1]
    assert lines == [("mark", pid, "entering critical area"),
                     ("func", pid, "sys_getpid <-do_syscall_64"),
                     ("mark", pid, "getpid() = %d" % pid),
                     ("mark", pid, "leaving critical area")], trace[-3000:]


def test_marker_messages_and_stopping_the_trace(lucid):
    """marker -o MSG...: each message a line, then tracing_on 0 from the program itself (the
    article's "bug discovered"), so nothing after it is recorded."""
    reset_tracing(lucid)
    ok(lucid, "marker -o 'first message' second")
    assert lucid.run("cat %s/tracing_on" % T) == "0\n"
    out = lucid.run("echo not recorded > %s/trace_marker" % T)
    assert out == "-bash: echo: write error: Bad file descriptor\n", out
    lines, trace = marker_lines(lucid)
    reset_tracing(lucid)
    assert [(k, text) for k, _, text in lines] == [("mark", "first message"),
                                                  ("mark", "second")], trace[-3000:]
    assert "not recorded" not in trace


def test_marker_with_tracing_off_fails_like_linux(lucid):
    """With tracing_on 0, a trace_marker write fails with EBADF, as Linux's does: the program
    says so and the trace stays empty."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > %s/tracing_on" % T)
    out = lucid.run("marker one")
    assert out == "marker: write: Bad file descriptor\n", out
    lines, trace = marker_lines(lucid)
    reset_tracing(lucid)
    assert lines == [], trace[-3000:]

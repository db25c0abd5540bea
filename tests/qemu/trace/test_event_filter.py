"""Event filters from the shell (trace/trace_events_filter.c): Linux's files, texts and errors.

Each event that can be enabled has events/SYSTEM/EVENT/filter ("none", or the filter), each
system but ftrace events/SYSTEM/filter (Linux's help text; a write gives the filter to each of
its events that has the fields). A filter is written and read back as Linux keeps it (leading
blanks kept, trailing ones cut), a bad one is refused with Linux's errno and the file then
shows Linux's report, the caret in Linux's column, while the filter in force stays. And the
trace holds only what the filters keep, for sched, syscalls and the generic cpu field.
"""
import re

from tracefs import (EINVAL, ENOENT, EPERM, ESRCH, TRACE_EVENT_LINE, TRACE_PREFIX, cat, fails,
                     modes, ok, reset_tracing, sh)

BOOT = {"timeout": 120}

SYS_HELP = ("### global filter ###\n"
            "# Use this to set filters for multiple events.\n"
            "# Only events with the given fields will be affected.\n"
            "# If no events are modified, an error message will be displayed here\n")
SW = "events/sched/sched_switch/filter"


# A syscalls:* event's line has no "name: " before its text: "sys_write(fd: 2, ...)".
SYSCALL_LINE = re.compile("^" + TRACE_PREFIX + r"(?P<body>(?P<event>sys_\w+)\(.*\))$")


def report(text, col, why):
    """What Linux 6.1's filter file shows after a refused filter: the text, a caret, why."""
    return "%s\n%s^\nparse_error: %s\n\n" % (text, " " * col, why)


def lines_of(k):
    """The trace's event lines as (event, body, cpu); pids[] gets each line's pid."""
    out = cat(k, "trace", timeout=60)
    got = []
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        m = TRACE_EVENT_LINE.match(line) or SYSCALL_LINE.match(line)
        assert m, "not an event line: %r" % line
        got.append((m.group("event"), m.group("body"), int(m.group("cpu"))))
        pids.append(int(m.group("pid")))
    return got


pids = []


def record(k, what, enable, timeout=120):
    """Enables the events (enable files), runs what, disables them: the lines recorded."""
    ok(k, "echo > trace")
    for e in enable:
        ok(k, "echo 1 > events/%s/enable" % e)
    sh(k, what, timeout)
    for e in enable:
        ok(k, "echo 0 > events/%s/enable" % e)
    return lines_of(k)


def test_filter_files_as_linux(lucid):
    reset_tracing(lucid)
    for ev in cat(lucid, "available_events").splitlines():
        d = "events/" + ev.replace(":", "/")
        assert cat(lucid, d + "/filter") == "none\n", d
    for system in ["sched", "irq", "syscalls", "raw_syscalls", "exceptions"]:
        assert cat(lucid, "events/%s/filter" % system) == SYS_HELP, system
    sched = modes(lucid, "events/sched")
    assert sched["filter"] == "-rw-r-----", sched
    # As in Linux: none at the top of events/, none for events/ftrace/ and its formats.
    assert "filter" not in sh(lucid, "ls events").split()
    assert "filter" not in sh(lucid, "ls events/ftrace").split()
    assert sh(lucid, "ls -1 events/ftrace/function").split() == ["format", "hist", "id"]


def test_filters_written_and_read_back(lucid):
    reset_tracing(lucid)
    for text, reads in [
            ("prev_pid == 0", "prev_pid == 0\n"),
            ('  prev_pid == 0 && next_comm ~ "sh*"   ', '  prev_pid == 0 && next_comm ~ "sh*"\n'),
            ("(prev_pid != 0 || !(next_pid > 0)) && prev_state & 1",
             "(prev_pid != 0 || !(next_pid > 0)) && prev_state & 1\n"),
            ("prev_pid==0&&next_pid<=0x10", "prev_pid==0&&next_pid<=0x10\n"),
            ("0", "none\n"),
            (" 0 ", "none\n")]:
        ok(lucid, "echo '%s' > %s" % (text, SW))
        assert cat(lucid, SW) == reads, text
    ok(lucid, "echo \"common_pid >= 1 || cpu == 0 || COMM == 'sh'\" > %s" % SW)
    assert cat(lucid, SW) == "common_pid >= 1 || cpu == 0 || COMM == 'sh'\n"
    ok(lucid, "echo 0 > %s" % SW)
    ok(lucid, "echo 'fd == 1' > events/syscalls/sys_enter_write/filter")
    assert cat(lucid, "events/syscalls/sys_enter_write/filter") == "fd == 1\n"
    ok(lucid, "echo 'name ~ \"tty*\"' > events/irq/irq_handler_entry/filter")
    assert cat(lucid, "events/irq/irq_handler_entry/filter") == 'name ~ "tty*"\n'
    for f in ["events/syscalls/sys_enter_write/filter", "events/irq/irq_handler_entry/filter"]:
        ok(lucid, "echo 0 > " + f)
        assert cat(lucid, f) == "none\n"


# Bad filters for sched_switch: the errno (Linux's own, odd ones included) and Linux's report.
BAD = [
    ("foo == 1", EINVAL, 4, "Field not found"),
    ("prev_pid = 1", EINVAL, 10, "Invalid operator"),
    ("prev_comm == sh", EINVAL, 14, "Invalid value (did you forget quotes)?"),
    ('prev_pid == "1"', EINVAL, 13, "Expecting numeric field"),
    ("prev_comm == 1", EINVAL, 14, "Expecting string field"),
    ('prev_comm < "a"', EINVAL, 13, "Illegal operation for field type"),
    ("prev_pid ~ 1", EINVAL, 12, "Illegal operation for field type"),
    ("prev_pid == 1x", EINVAL, 13, "Illegal integer value"),
    ("(prev_pid == 1", ENOENT, 0, "Too many '('"),
    ("prev_pid == 1)", EPERM, 13, "Too few '('"),
    ('prev_comm == "sh', ESRCH, 13, "Missing matching quote"),
    ("prev_pid == 1 next_pid == 2", EPERM, 14, "Too many terms in predicate expression"),
    ("!", EINVAL, 1, "No filter found"),
    # Unfinished: the text ends where an operand is due (a fuzzer's find: the last read out of the
    # program before; Linux 6.1 accepts these). The caret is under the end.
]
UNFINISHED = ["common_pid == 1 &&", "prev_pid == 0 || next_pid == 1 && prev_pid != 2 ||",
              'comm ~ "ba*" && prev_comm != "x" || COMM == "fuza*" &&', "prev_pid == 0 && !",
              "(prev_pid == 0) || (next_pid == 1) ||"]
BAD += [(t, EINVAL, len(t), "Meaningless filter expression") for t in UNFINISHED]


def test_bad_filters_refused(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'prev_pid == 0' > %s" % SW)
    for text, err, col, why in BAD:
        fails(lucid, "echo '%s' > %s" % (text, SW), err)
        assert cat(lucid, SW) == report(text, col, why), text
    # Errors Linux reports by number only.
    fails(lucid, "echo '== 1' > %s" % SW, EPERM)
    assert cat(lucid, SW) == "== 1\nError: (0)\n\n"
    fails(lucid, "echo > %s" % SW)
    assert cat(lucid, SW) == "\nError: (0)\n\n"
    # A page or more: EINVAL, as Linux. bash's echo writes the 4096 bytes at once (its buffer
    # is the file's st_blksize, a page); busybox head hid the errno behind "I/O error".
    fails(lucid, "x=$(yes prev_pid | head -c 4096); echo -n \"$x\" > %s" % SW)
    # Refused, the filter in force stays: only the idle tasks' switches are recorded.
    got = record(lucid, "run_test", ["sched/sched_switch"])
    assert got, "no switch recorded"
    for event, body, _ in got:
        assert event == "sched_switch" and " prev_pid=0 " in body, body
    # A good write replaces the report.
    ok(lucid, "echo 'prev_pid != 0' > %s" % SW)
    assert cat(lucid, SW) == "prev_pid != 0\n"
    ok(lucid, "echo 0 > %s" % SW)


def test_events_filtered(lucid):
    reset_tracing(lucid)
    # Strings, a glob and ||: the switches to and from busybox's sleep only.
    ok(lucid, "echo 'next_comm == \"sleep\" || prev_comm ~ \"sl*p\"' > %s" % SW)
    got = record(lucid, "sleep 1", ["sched/sched_switch"])
    assert len(got) >= 2, got
    for _, body, _ in got:
        assert "next_comm=sleep " in body or "prev_comm=sleep " in body, body
    # The generic cpu: run_test switches on every CPU, the filter keeps CPU 1's.
    ok(lucid, "echo 'cpu == 1 && !(next_pid == 0)' > %s" % SW)
    got = record(lucid, "run_test", ["sched/sched_switch"])
    assert got, "nothing recorded on CPU 1"
    for _, body, cpu in got:
        assert cpu == 1 and " next_pid=0 " not in body, (cpu, body)
    ok(lucid, "echo 0 > %s" % SW)
    # A system call's argument: hello writes to fd 1, busybox cat's error goes to fd 2 (the
    # shell's own cat is a builtin: no system call).
    f = "events/syscalls/sys_enter_write/filter"
    ok(lucid, "echo 'fd == 2' > %s" % f)
    got = record(lucid, "hello > /dev/null; busybox cat /no/such/file",
                 ["syscalls/sys_enter_write"])
    assert got, "cat's error not recorded"
    for event, body, _ in got:
        assert event == "sys_write" and body.startswith("sys_write(fd: 2, "), body
    ok(lucid, "echo 0 > %s" % f)


def test_system_filter(lucid):
    reset_tracing(lucid)
    # Only sched_switch has prev_pid: it gets the filter, the others Linux's report, and the
    # write succeeds, as in Linux. The system's file keeps its help text.
    ok(lucid, "echo 'prev_pid == 0' > events/sched/filter")
    assert cat(lucid, SW) == "prev_pid == 0\n"
    for ev in ["sched_wakeup", "sched_process_exit", "sched_wakeup_new"]:
        assert cat(lucid, "events/sched/%s/filter" % ev) == report(
            "prev_pid == 0", 0,
            "Couldn't find or set field in one of a subsystem's events"), ev
    assert cat(lucid, "events/sched/filter") == SYS_HELP
    got = record(lucid, "run_test", ["sched"])
    assert any(e == "sched_wakeup" for e, _, _ in got), "wakeups were filtered out"
    for event, body, _ in got:
        assert event != "sched_switch" or " prev_pid=0 " in body, body
    # A field every event has: all get it; 0 clears them all.
    ok(lucid, "echo 'common_pid != 0' > events/sched/filter")
    for ev in ["sched_switch", "sched_wakeup", "sched_process_exit"]:
        assert cat(lucid, "events/sched/%s/filter" % ev) == "common_pid != 0\n", ev
    del pids[:]
    got = record(lucid, "run_test", ["sched"])
    assert got and len(pids) == len(got)
    assert 0 not in pids, "an idle task's event passed common_pid != 0"
    ok(lucid, "echo 0 > events/sched/filter")
    for ev in ["sched_switch", "sched_wakeup", "sched_process_exit"]:
        assert cat(lucid, "events/sched/%s/filter" % ev) == "none\n", ev


def test_kept_records_have_their_header(lucid):
    """A filter on an event's own field rejects without the record's header (trace_events.c
    writes it only once the filter passed); a record it keeps has it all the same: the task's
    name and pid, as without a filter. A filter on a common_* field reads the header, so it is
    written first: its records are the shell's own."""
    reset_tracing(lucid)
    shell = int(sh(lucid, "echo $$").strip())
    f = "events/syscalls/sys_enter_write/filter"
    for flt in ("fd == 2", "common_pid == %d" % shell):
        ok(lucid, "echo '%s' > %s" % (flt, f))
        ok(lucid, "echo > trace; echo 1 > events/syscalls/sys_enter_write/enable")
        sh(lucid, "echo to-stderr >&2")
        ok(lucid, "echo 0 > events/syscalls/sys_enter_write/enable")
        got = [SYSCALL_LINE.match(l) for l in cat(lucid, "trace").splitlines()
               if not l.startswith("#")]
        assert got and all(got), (flt, got)
        for m in got:
            assert (m.group("comm").strip(), int(m.group("pid"))) == ("bash", shell), m.group(0)
        if flt == "fd == 2":
            assert all(m.group("body").startswith("sys_write(fd: 2, ") for m in got), flt
    ok(lucid, "echo 0 > %s" % f)

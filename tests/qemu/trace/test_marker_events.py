"""trace_marker as the event ftrace:print, and trace_marker_raw.

On Linux 6.1 a trace_marker write is the event ftrace/print: events/ftrace/print has format, id
and trigger (the one ftrace/* event with a trigger file, created by init_tracer_tracefs; no
enable or filter file, so it is always recorded), and its triggers run on every marker, with
filters over its fields (`buf`, the text as written, without the newline the trace adds).
trace_marker_raw takes a 4-byte id and bytes, recorded as ftrace/raw_data and shown as Linux's
trace_raw_data() prints it: "# ID buf: XX XX ...", every byte the record holds after the id.
Linux's sizes: fewer than 4 bytes or more than 3 KiB is EINVAL, more than 1 KiB a short write.
trace-cmd reads both, in Lucid and on the host (the same report).
"""
from tracefs import COMMON_FIELDS, TRACE_LINE, reset_tracing, until_reads
import os
import re
import tempfile

from test_dynamic import PRINTK_LINE, assert_same_report, check, host_report

T = "/sys/kernel/tracing"
SHARE = tempfile.mkdtemp(prefix="lucid-marker-events-")
BOOT = {"timeout": 120, "share": SHARE}
EINVAL = "-bash: printf: write error: Invalid argument\n"
EBADF = "-bash: printf: write error: Bad file descriptor\n"
HELP = ("# Available triggers:\n# traceon traceoff snapshot stacktrace enable_event disable_event"
        " enable_hist disable_hist hist\n")
# A trace line: task-pid, [cpu], flags, timestamp, then the event's text.

PRINT_FORMAT = """name: print
ID: 5
format:
""" + COMMON_FIELDS + """
\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;
\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;

print fmt: "%ps: %s", (void *)REC->ip, REC->buf
"""
RAW_DATA_FORMAT = """name: raw_data
ID: 18
format:
""" + COMMON_FIELDS + """
\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;
\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:1;

print fmt: "id:%04x %08x", REC->id, (int)REC->buf[0]
"""


def sh(lucid, line, want="", timeout=60):
    out = PRINTK_LINE.sub("", lucid.run(line, timeout))
    assert out == want, (line, out)


def trace_lines(lucid, name="trace"):
    """The event lines of trace (or snapshot) as (comm, body), and the stack lines after them."""
    out = lucid.run("cat " + name, 60)
    lines = []
    for line in out.splitlines():
        m = TRACE_LINE.match(line)
        if m:
            lines.append((m.group("comm"), m.group("body")))
        elif line.startswith(" => "):
            lines.append(("", line))
        else:
            assert line.startswith("#"), (line, out)
    return lines


def marks(lines):
    return [b[len("tracing_mark_write: "):] for c, b in lines
            if b.startswith("tracing_mark_write: ")]


def modes(lucid, d):
    return {l.split()[-1]: l.split()[0] for l in lucid.run("ls -l " + d).splitlines()[1:]}


# --- the files -----------------------------------------------------------------------------------

def test_print_and_raw_data_files_as_linux(lucid):
    reset_tracing(lucid)
    # Linux 6.1: format, id, hist (every event has one), and the trigger file
    # init_tracer_tracefs adds for print alone.
    assert modes(lucid, "events/ftrace/print") == {
        "format": "-r--r-----", "hist": "-r--r-----", "id": "-r--r-----",
        "trigger": "-rw-r-----"}
    assert modes(lucid, "events/ftrace/raw_data") == {
        "format": "-r--r-----", "hist": "-r--r-----", "id": "-r--r-----"}
    assert modes(lucid, ".")["trace_marker_raw"] == "--w--w----"
    sh(lucid, "cat events/ftrace/print/format", PRINT_FORMAT)
    sh(lucid, "cat events/ftrace/raw_data/format", RAW_DATA_FORMAT)
    sh(lucid, "cat events/ftrace/print/id", "5\n")
    sh(lucid, "cat events/ftrace/raw_data/id", "18\n")
    assert "  trace_marker_raw\t\t- Writes into this file writes binary data into the kernel " \
        "buffer\n" in lucid.run("cat README")  # Linux's line
    # Not an event one enables: set_event and events/enable do not know it, and a marker is
    # recorded whatever they say (Linux's print cannot be disabled).
    sh(lucid, "echo ftrace:print > set_event",
       "-bash: echo: write error: Invalid argument\n")
    sh(lucid, "echo 0 > events/enable; echo kept > trace_marker")
    assert marks(trace_lines(lucid)) == ["kept"]
    assert "ftrace" not in lucid.run("cat available_events")
    # enable_event cannot switch it either: no such target (Linux's find_event_file)
    sh(lucid, "echo 'enable_event:ftrace:print' > events/sched/sched_switch/trigger",
       "-bash: echo: write error: Invalid argument\n")


# --- triggers --------------------------------------------------------------------------------

def test_traceoff_on_the_marker_whose_buf_matches(lucid):
    """traceoff if buf ~ "*stop*": the markers before it and the one that matched are in the
    trace (traceoff runs after the record), and the next write finds tracing off (EBADF)."""
    reset_tracing(lucid)
    sh(lucid, "echo 'traceoff if buf ~ \"*stop*\"' > events/ftrace/print/trigger")
    sh(lucid, "cat events/ftrace/print/trigger", 'traceoff:unlimited if buf ~ "*stop*"\n')
    sh(lucid, "echo one > trace_marker; echo two > trace_marker; cat tracing_on", "1\n")
    sh(lucid, "echo please stop here > trace_marker; cat tracing_on", "0\n")
    sh(lucid, "echo three > trace_marker",
       "-bash: echo: write error: Bad file descriptor\n")
    assert marks(trace_lines(lucid)) == ["one", "two", "please stop here"]
    # buf is the text as written: echo's newline is in it, the one the trace adds is not
    sh(lucid, "echo '!traceoff' > events/ftrace/print/trigger; cat events/ftrace/print/trigger",
       HELP)
    sh(lucid, "echo > trace; echo 1 > tracing_on")
    sh(lucid, "echo 'traceoff:1 if buf == \"exact\"' > events/ftrace/print/trigger")
    sh(lucid, "echo exact > trace_marker; cat tracing_on", "1\n")  # "exact\n": no match
    sh(lucid, "echo -n exact > trace_marker; cat tracing_on", "0\n")
    sh(lucid, "cat events/ftrace/print/trigger", 'traceoff:count=0 if buf == "exact"\n')
    assert marks(trace_lines(lucid)) == ["exact", "exact"]
    # a filter on the common fields works too, and a bad one is refused (Linux's EINVAL)
    sh(lucid, "echo '!traceoff' > events/ftrace/print/trigger; echo 1 > tracing_on")
    sh(lucid, "echo 'traceoff if nosuchfield == 1' > events/ftrace/print/trigger",
       "-bash: echo: write error: Invalid argument\n")
    sh(lucid, "echo 'traceoff if common_pid == 1' > events/ftrace/print/trigger")
    sh(lucid, "echo still on > trace_marker; cat tracing_on", "1\n")  # bash is not pid 1
    reset_tracing(lucid)


def test_stacktrace_after_the_marker(lucid):
    """stacktrace if buf == "x": a kernel stack after that marker alone, from the writer's
    tracing_mark_write down to the system call's entry."""
    reset_tracing(lucid)
    sh(lucid, "echo 'stacktrace if buf == \"x\"' > events/ftrace/print/trigger")
    sh(lucid, "echo -n x > trace_marker; echo y > trace_marker")
    lines = trace_lines(lucid)
    bodies = [b for c, b in lines]
    assert bodies[0] == "tracing_mark_write: x", lines
    assert bodies[1] == "<stack trace>", lines
    stack = [b[len(" => "):] for b in bodies[2:] if b.startswith(" => ")]
    assert stack[0] == "tracing_mark_write", stack
    assert "ksys_write" in stack and stack[-1].startswith("entry_SYSCALL_64"), stack
    assert bodies[2 + len(stack):] == ["tracing_mark_write: y"], lines
    reset_tracing(lucid)


def test_snapshot_and_enable_event_on_markers(lucid):
    """snapshot:1 takes the buffer as it is at the marker (the marker in it); enable_event
    switches a sched event on at a marker: its records start after it."""
    reset_tracing(lucid)
    sh(lucid, "echo 'snapshot:1 if buf ~ \"snap*\"' > events/ftrace/print/trigger")
    sh(lucid, "echo before > trace_marker; echo snap now > trace_marker")
    assert until_reads(lucid, "tracing_on") == "1\n"  # snapshotd swapped: "after" is the new's
    sh(lucid, "echo after > trace_marker")
    assert marks(trace_lines(lucid, "snapshot")) == ["before", "snap now"]
    assert marks(trace_lines(lucid)) == ["after"]
    sh(lucid, "cat events/ftrace/print/trigger", 'snapshot:count=0 if buf ~ "snap*"\n')
    reset_tracing(lucid)
    sh(lucid, "echo 'enable_event:sched:sched_process_exit:1 if buf ~ \"go*\"' > "
              "events/ftrace/print/trigger")
    sh(lucid, "cat events/sched/sched_process_exit/enable", "0*\n")  # held, soft-disabled
    sh(lucid, "/bin/true; echo go > trace_marker; /bin/true")
    bodies = [b for c, b in trace_lines(lucid)]
    assert bodies[0] == "tracing_mark_write: go", bodies
    assert bodies[1:] and all(b.startswith("sched_process_exit: ") for b in bodies[1:]), bodies
    reset_tracing(lucid)
    sh(lucid, "cat events/sched/sched_process_exit/enable", "0\n")


def test_triggers_need_a_recorded_marker(lucid):
    """As on Linux, triggers run on a marker that is recorded: with tracing off the write fails
    (EBADF) before them, so a traceon on print cannot restart tracing."""
    reset_tracing(lucid)
    sh(lucid, "echo traceon > events/ftrace/print/trigger; echo 0 > tracing_on")
    sh(lucid, "echo wake > trace_marker", "-bash: echo: write error: Bad file descriptor\n")
    sh(lucid, "cat tracing_on", "0\n")
    reset_tracing(lucid)


# --- trace_marker_raw ----------------------------------------------------------------------------

def raw_lines(lucid):
    return [b for c, b in trace_lines(lucid) if b.startswith("# ")]


def parse_raw(body):
    """(id, [bytes]) of "# ID buf: XX XX ..."."""
    m = re.match(r"^# ([0-9a-f]+) buf:((?: [0-9a-f]{2})*)$", body)
    assert m, body
    return int(m.group(1), 16), [int(x, 16) for x in m.group(2).split()]


def test_raw_marker_records(lucid):
    reset_tracing(lucid)
    sh(lucid, "printf '\\x2a\\x00\\x00\\x00hello' > trace_marker_raw")
    sh(lucid, "printf '\\xef\\xbe\\xad\\xde' > trace_marker_raw")  # an id alone
    recs = [parse_raw(b) for b in raw_lines(lucid)]
    assert len(recs) == 2, recs
    # The bytes, then zeros: the rest of the record (Linux's minimum size, the ring's rounding)
    ident, data = recs[0]
    assert ident == 0x2a and data[:5] == list(b"hello") and set(data[5:]) <= {0}, recs
    assert len(data) >= 9, recs  # Linux's record holds room for "<faulted>" at least
    ident, data = recs[1]
    assert ident == 0xdeadbeef and set(data) == {0}, recs
    # The line as Linux prints it, from the task that wrote it
    assert re.match(r"^# 2a buf: 68 65 6c 6c 6f( 00)+$", raw_lines(lucid)[0])


def test_raw_marker_sizes_and_errors(lucid):
    reset_tracing(lucid)
    sh(lucid, "printf 'abc' > trace_marker_raw", EINVAL)  # no whole id
    sh(lucid, "x=$(printf '%03073d' 0); printf '%s' \"$x\" > trace_marker_raw", EINVAL)  # > 3 KiB
    sh(lucid, "x=$(printf '%06000d' 0); printf '%s' \"$x\" > trace_marker_raw", EINVAL)
    assert raw_lines(lucid) == []
    # 3 KiB is taken, 1 KiB a record: bash writes the rest, each 1 KiB a record of its own
    sh(lucid, "x=$(printf '%03072d' 7); printf '%s' \"$x\" > trace_marker_raw")
    recs = [parse_raw(b) for b in raw_lines(lucid)]
    assert len(recs) == 3, recs
    assert [r[0] for r in recs] == [int.from_bytes(b"0000", "little")] * 3, recs
    assert [r[1][:1020] for r in recs] == [list(b"0" * 1020)] * 2 + [list(b"0" * 1019 + b"7")]
    # markers off: EINVAL; tracing off: EBADF; nothing recorded either way
    sh(lucid, "echo > trace; echo 0 > options/markers")
    sh(lucid, "printf 'abcdefgh' > trace_marker_raw", EINVAL)
    sh(lucid, "echo 1 > options/markers; echo 0 > tracing_on")
    sh(lucid, "printf 'abcdefgh' > trace_marker_raw", EBADF)
    sh(lucid, "echo 1 > tracing_on")
    assert raw_lines(lucid) == []


# --- trace-cmd ------------------------------------------------------------------------------------

def test_trace_cmd_reads_print_and_raw_data(lucid):
    """trace-cmd record in Lucid around a marker and a raw marker; trace-cmd report in Lucid and
    the host's over the same trace.dat print the same lines: print's text and raw_data's."""
    reset_tracing(lucid)
    sh(lucid, "cd /tmp; rm -f trace.dat")
    out = PRINTK_LINE.sub("", lucid.run(
        "trace-cmd record -e sched:sched_process_exit recwait bash -c \"echo hello marker > "
        "%s/trace_marker; printf '\\x2a\\x00\\x00\\x00hi' > %s/trace_marker_raw\"" % (T, T),
        240))
    assert lucid.status() == 0, out
    report = PRINTK_LINE.sub("", lucid.run("trace-cmd report", 180))
    assert lucid.status() == 0, report[-2000:]
    check(lucid, "cp /tmp/trace.dat /mnt/host/marker.dat; rm /tmp/trace.dat", "", 0)
    host, squeezed = host_report(os.path.join(SHARE, "marker.dat"))
    assert_same_report(host, report, squeezed)
    assert re.search(r"\bprint: +tracing_mark_write: hello marker$", report, re.M), report
    # libtraceevent prints raw_data by its print fmt: "id:%04x %08x", the id and buf[0]
    assert re.search(r"\braw_data: +id:002a 00000068$", report, re.M), report
    sh(lucid, "cd " + T)

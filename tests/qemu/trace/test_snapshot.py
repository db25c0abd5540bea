"""Snapshots: the snapshot file keeps a moment while the trace goes on.

"echo 1 > snapshot" swaps a spare buffer with the trace buffer: the snapshot then reads what the
trace held, and keeps it while new events go to the trace. Linux's semantics throughout: its
help text when empty, 2 clears, 0 frees, a second snapshot swaps the old one back into the
trace, anything but a number is refused. Last, snapshots taken over and over while every CPU
records every function leave both buffers whole.
"""
import re

from tracefs import EINVAL, TRACE_LINE, ok, until_reads

BOOT = {"cmdline": ""}
T = "/sys/kernel/tracing"
HELP = """# tracer: {tracer}
#
#
# * Snapshot is {state} *
#
# Snapshot commands:
# echo 0 > snapshot : Clears and frees snapshot buffer
# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.
#                      Takes a snapshot of the main buffer.
# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)
#                      (Doesn't have to be '2' works with any number that
#                       is not a '0' or '1')
"""
CALL = ["ftest_outer <-cmd_ftest", "ftest_mid <-ftest_outer", "ftest_leaf <-ftest_mid"] * 3


def sh(k, cmd, timeout=30):
    return k.run(cmd, timeout=timeout)


def fails(k, cmd):
    assert sh(k, cmd) == EINVAL, cmd
    assert k.status() == 1, cmd


def bodies(text):
    """The event lines' bodies; every other line must be the header."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or re.match(r"^##### CPU \d+ buffer started ####$", line):
            continue
        m = TRACE_LINE.match(line)
        assert m, "malformed line %r" % line
        out.append(m.group("body"))
    return out


def entries(text):
    return re.search(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)", text, re.M).groups()


def test_empty_and_bad_writes(lucid):
    ok(lucid, "cd %s" % T)
    assert sh(lucid, "ls -l snapshot").split()[0] == "-rw-r-----"
    assert sh(lucid, "cat snapshot") == HELP.format(tracer="nop", state="freed")
    for bad in ["x", "-1", "1x", "''"]:
        fails(lucid, "echo %s > snapshot" % bad)
    ok(lucid, "echo 2 > snapshot")  # clearing a freed snapshot: nothing to do
    assert sh(lucid, "cat snapshot") == HELP.format(tracer="nop", state="freed")


def test_snapshot_keeps_its_moment(lucid):
    for cmd in ["cd %s" % T, "echo 'ftest_*' > set_ftrace_filter",
                "echo function > current_tracer", "ftest call"]:
        ok(lucid, cmd)
    before = sh(lucid, "cat trace")
    assert bodies(before) == CALL
    ok(lucid, "echo 1 > snapshot")
    snap = sh(lucid, "cat snapshot")
    assert snap.startswith("# tracer: function\n#\n# entries-in-buffer/entries-written: 9/9")
    assert snap.splitlines()[-9:] == before.splitlines()[-9:]  # the same lines, to the byte
    assert bodies(sh(lucid, "cat trace")) == []
    # the trace moves on; the snapshot does not
    ok(lucid, "ftest delay 1")
    assert bodies(sh(lucid, "cat trace")) == ["ftest_delay <-cmd_ftest"]
    assert sh(lucid, "cat snapshot") == snap
    # the sizes are the trace's own still
    assert sh(lucid, "cat buffer_size_kb") == "1408\n"
    # a second snapshot swaps again: the first one comes back into the trace, as in Linux
    ok(lucid, "echo 1 > snapshot")
    assert bodies(sh(lucid, "cat snapshot")) == ["ftest_delay <-cmd_ftest"]
    assert bodies(sh(lucid, "cat trace")) == CALL
    # 2 clears it (still allocated), 0 frees it
    ok(lucid, "echo 2 > snapshot")
    assert sh(lucid, "cat snapshot") == HELP.format(tracer="function", state="allocated")
    ok(lucid, "echo 0 > snapshot")
    assert sh(lucid, "cat snapshot") == HELP.format(tracer="function", state="freed")
    assert bodies(sh(lucid, "cat trace")) == CALL  # the trace is not touched


def test_snapshot_after_resize(lucid):
    for cmd in ["cd %s" % T, "echo 64 > buffer_size_kb", "echo > trace", "ftest call",
                "echo 1 > snapshot"]:
        ok(lucid, cmd)
    assert sh(lucid, "cat buffer_size_kb") == "64\n"
    assert bodies(sh(lucid, "cat snapshot")) == CALL
    ok(lucid, "echo 1408 > buffer_size_kb")
    ok(lucid, "echo 1 > snapshot")  # the spare grows back to match
    assert sh(lucid, "cat buffer_size_kb") == "1408\n"
    ok(lucid, "echo 0 > snapshot")


def test_snapshots_while_every_cpu_records(lucid):
    for cmd in ["cd %s" % T, "echo 32 > buffer_size_kb", "echo > set_ftrace_filter",
                "echo function > current_tracer"]:
        ok(lucid, cmd)
    for i in range(20):
        ok(lucid, "run_test -t 4 -r 20 > /dev/null")
        ok(lucid, "echo 1 > snapshot")
    ok(lucid, "echo 0 > tracing_on")
    for name in ["snapshot", "trace"]:
        text = sh(lucid, "cat %s" % name, timeout=120)
        n, _ = entries(text)
        assert int(n) > 0 and len(bodies(text)) > 0, name
    ok(lucid, "echo 0 > snapshot")
    ok(lucid, "echo nop > current_tracer")
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "echo 1408 > buffer_size_kb")


def test_func_snapshot_trigger(lucid):
    """'ftest_mid:snapshot:1': the snapshot ends with ftest_mid's own event, the trace goes on
    afterwards, and the count is used up once."""
    ok(lucid, "cd %s" % T)
    ok(lucid, "echo 0 > snapshot")
    ok(lucid, "echo 'ftest_mid:snapshot:1' > set_ftrace_filter")
    assert sh(lucid, "cat set_ftrace_filter") == ("#### all functions enabled ####\n"
                                                "ftest_mid:snapshot:count=1\n")
    ok(lucid, "echo 'ftest_*' >> set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ftest call")
    assert until_reads(lucid, "tracing_on") == "1\n"  # a tick wakes the thread that swaps
    assert bodies(sh(lucid, "cat snapshot")) == CALL[:2]  # up to the trigger, nothing after
    assert sh(lucid, "cat set_ftrace_filter").endswith("ftest_mid:snapshot:count=0\n")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")
    assert bodies(sh(lucid, "cat trace")) == CALL  # the count is spent: tracing goes on
    assert bodies(sh(lucid, "cat snapshot")) == CALL[:2]
    ok(lucid, "echo '!ftest_mid:snapshot:0' >> set_ftrace_filter")
    ok(lucid, "echo nop > current_tracer")
    ok(lucid, "echo > set_ftrace_filter")
    ok(lucid, "echo 0 > snapshot")


def test_func_snapshot_without_memory(lucid):
    """'func:snapshot' needs the spare buffer: when it cannot be allocated the write fails with
    ENOMEM and no probe is made (the failure was once lost, and the write said it worked)."""
    enomem = "bash: line 1: echo: write error: Cannot allocate memory\n"
    ok(lucid, "cd %s" % T)
    ok(lucid, "echo 0 > snapshot")
    for _ in range(10):
        # Every 500th kmalloc fails: the spare buffer's pages alone are more than that. Only a
        # task marked in /proc/PID/make-it-fail fails (Linux's task-filter): a bash of its own
        # marks itself, then its echo writes the probe.
        out = sh(lucid, "echo 500 > /proc/sys/kernel/fail_kmalloc; bash -c 'echo 1 > "
                        "/proc/self/make-it-fail; echo ftest_mid:snapshot >> set_ftrace_filter'")
        for _ in range(10):
            sh(lucid, "echo 0 > /proc/sys/kernel/fail_kmalloc")
            if sh(lucid, "cat /proc/sys/kernel/fail_kmalloc") == "0\n":
                break
        assert sh(lucid, "cat /proc/sys/kernel/fail_kmalloc") == "0\n"
        if "Cannot allocate memory" not in out or out == enomem:
            break
        # The shell's own allocation failed first: undo whatever got through, and again.
        sh(lucid, "echo '!ftest_mid:snapshot' >> set_ftrace_filter; echo 0 > snapshot")
    assert out == enomem
    assert sh(lucid, "cat set_ftrace_filter") == "#### all functions enabled ####\n"
    assert sh(lucid, "cat snapshot") == HELP.format(tracer="nop", state="freed")

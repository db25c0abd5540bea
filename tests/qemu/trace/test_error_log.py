"""error_log: why a write was refused, in Linux's format (trace/trace_error_log.c).

Each parser that refuses a line (event filters, triggers, set_ftrace_filter's commands) leaves
an entry: "[   SEC.USEC] LOCATION: error: SENTENCE", "  Command: " and the line as written,
then a caret under the column where the parser gave up. The write itself still fails with the
errno it always had. "echo > error_log" empties the log; it keeps the last 8 entries (Linux's
TRACING_LOG_ERRS_MAX). Also tracing_cpumask: a hex mask as Linux's "%*pb", and a CPU it clears
records nothing.
"""
import re

from lucid import Lucid
from tracefs import EOVERFLOW, T, cat, fails, ncpus, ok, reset_tracing, sh

ENTRY = re.compile(r"\[ *(\d+)\.(\d{6})\] (.*): error: (.*)\n  Command: (.*)\n( *)\^\n")
PREFIX = len("  Command: ")


def entries(k):
    """[(location, sentence, command, caret column)] of error_log, checking its whole text."""
    text = cat(k, "error_log")
    found = list(ENTRY.finditer(text))
    assert "".join(m.group(0) for m in found) == text, text
    stamps = [(int(m.group(1)), int(m.group(2))) for m in found]
    assert stamps == sorted(stamps), text  # oldest first
    return [(m.group(3), m.group(4), m.group(5), len(m.group(6)) - PREFIX) for m in found]


def test_file_and_clearing(lucid):
    reset_tracing(lucid)
    assert "-rw-r-----" in sh(lucid, "ls -l error_log")
    fails(lucid, "echo 'prev_pidd == 1' > events/sched/sched_switch/filter")
    assert entries(lucid) == [("event filter parse error", "Field not found", "prev_pidd == 1",
                               10)]
    ok(lucid, "echo whatever >> error_log")  # taken and ignored: no O_TRUNC, nothing cleared
    assert len(entries(lucid)) == 1
    ok(lucid, "echo > error_log")
    assert cat(lucid, "error_log") == ""


def test_event_filter_errors(lucid):
    """Linux's location, sentences and columns (the filter file's caret's column)."""
    reset_tracing(lucid)
    f = "events/sched/sched_switch/filter"
    fails(lucid, "echo 'prev_pid == 1 && next_comm ~ \"a' > %s" % f,
          "-bash: echo: write error: No such process\n")  # Linux's internal code for it
    fails(lucid, "echo 'prev_pid == abc' > %s" % f)
    fails(lucid, "echo 'next_comm > 1' > %s" % f)
    assert entries(lucid) == [
        ("event filter parse error", "Missing matching quote",
         'prev_pid == 1 && next_comm ~ "a', 29),
        ("event filter parse error", "Invalid value (did you forget quotes)?",
         "prev_pid == abc", 13),
        ("event filter parse error", "Expecting string field", "next_comm > 1", 13),
    ]
    # The filter file still shows its own report, the caret in the same column.
    assert cat(lucid, f) == "next_comm > 1\n%s^\nparse_error: Expecting string field\n\n" \
        % (" " * 13)
    ok(lucid, "echo 0 > %s" % f)
    # A subsystem's filter logs for each event it could not set, with Linux's sentence (the
    # write itself is taken, as test_event_filter.py checks).
    ok(lucid, "echo > error_log")
    sh(lucid, "echo 'nosuchfield == 1' > events/sched/filter")
    logged = entries(lucid)
    assert logged and set(e[:4] for e in logged) == {
        ("event filter parse error",
         "Couldn't find or set field in one of a subsystem's events", "nosuchfield == 1", 0)}
    ok(lucid, "echo 0 > events/sched/filter")


def test_trigger_errors(lucid):
    reset_tracing(lucid)
    t = "events/sched/sched_switch/trigger"
    for line in ["bogus", "enable_event:sched:nosuch", "enable_event:sched",
                 "traceon junk", "stacktrace:5x if prev_pid == 1"]:
        fails(lucid, "echo '%s' > %s" % (line, t))
    fails(lucid, "echo 'traceon if prev_pidd == 1' > %s" % t)
    ok(lucid, "echo traceoff > %s" % t)
    fails(lucid, "echo traceoff > %s" % t, "-bash: echo: write error: File exists\n")
    ok(lucid, "echo '!traceoff' > %s" % t)
    loc = "trigger:sched:sched_switch"
    assert entries(lucid) == [
        (loc, "Command not found", "bogus", 0),
        (loc, "Event not found", "enable_event:sched:nosuch", 13),
        (loc, "Missing system:event", "enable_event:sched", 13),
        (loc, "Expecting 'if' before the filter", "traceon junk", 8),
        (loc, "Invalid count", "stacktrace:5x if prev_pid == 1", 11),
        ("event filter parse error", "Field not found", "prev_pidd == 1", 10),
        (loc, "Trigger already exists", "traceoff", 0),
    ], entries(lucid)


def test_ftrace_command_errors(lucid):
    reset_tracing(lucid)
    for word in ["ftest_leaf:nosuchcmd", "nosuchfunc:traceoff", "ftest_leaf:traceoff:abc",
                 "ftest_leaf:enable_event:sched:nosuch", "ftest_leaf:enable_event:sched"]:
        fails(lucid, "echo '%s' > set_ftrace_filter" % word)
    fails(lucid, "echo '!ftest_leaf:traceon' > set_ftrace_filter",
          "-bash: echo: write error: No such device\n")
    fails(lucid, "echo 'ftest_leaf:traceon' > set_ftrace_notrace")
    assert entries(lucid) == [
        ("set_ftrace_filter", "Command not found", "ftest_leaf:nosuchcmd", 11),
        ("set_ftrace_filter", "No function matches, or each has the command already",
         "nosuchfunc:traceoff", 0),
        ("set_ftrace_filter", "Invalid count", "ftest_leaf:traceoff:abc", 20),
        ("set_ftrace_filter", "Event not found", "ftest_leaf:enable_event:sched:nosuch", 24),
        ("set_ftrace_filter", "Missing system:event", "ftest_leaf:enable_event:sched", 24),
        ("set_ftrace_filter", "Command is on no function", "!ftest_leaf:traceon", 12),
        ("set_ftrace_notrace", "set_ftrace_notrace does not accept commands",
         "ftest_leaf:traceon", 11),
    ]
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n"


def test_keeps_the_last_eight(lucid):
    reset_tracing(lucid)
    for i in range(11):
        fails(lucid, "echo 'nosuch%d == 1' > events/sched/sched_switch/filter" % i)
    assert [e[2] for e in entries(lucid)] == ["nosuch%d == 1" % i for i in range(3, 11)]
    ok(lucid, "echo 0 > events/sched/sched_switch/filter")
    reset_tracing(lucid)


# --- tracing_cpumask ----------------------------------------------------------------------------

def mask_text(bits, n):
    """Linux's %*pb for an n-bit mask (n <= 32 here): hex, zero-padded to the digits n needs."""
    return "%0*x\n" % ((n + 3) // 4, bits)


def cpus_in_trace(k):
    return set(int(c) for c in re.findall(r"^\s+\S+-\d+\s+\[(\d{3})\]", cat(k, "trace"), re.M))


def test_tracing_cpumask(lucid):
    reset_tracing(lucid)
    n = ncpus(lucid)
    full = (1 << n) - 1
    assert cat(lucid, "tracing_cpumask") == mask_text(full, n), (n, cat(lucid, "tracing_cpumask"))
    assert "-rw-r-----" in sh(lucid, "ls -l tracing_cpumask")
    # A sleep pinned to each CPU: a sched_switch on every one of them.
    on_each_cpu = "for c in $(seq 0 %d); do taskset -c $c sleep 0.01; done" % (n - 1)
    ok(lucid, "echo 1 > events/sched/sched_switch/enable")
    ok(lucid, "echo > trace")
    ok(lucid, on_each_cpu)
    assert cpus_in_trace(lucid) == set(range(n)), cat(lucid, "trace")
    # Only CPU 0.
    ok(lucid, "echo 1 > tracing_cpumask")
    assert cat(lucid, "tracing_cpumask") == mask_text(1, n)
    ok(lucid, "echo > trace")
    ok(lucid, on_each_cpu)
    assert cpus_in_trace(lucid) == {0}, cat(lucid, "trace")
    for cpu in range(1, n):
        lines = [l for l in cat(lucid, "per_cpu/cpu%d/trace" % cpu).splitlines()
                 if not l.startswith("#")]
        assert lines == [], (cpu, lines)
    # Bad masks change nothing, with Linux's errnos.
    fails(lucid, "echo 0x1 > tracing_cpumask")  # no "0x": 'x' is no hex digit
    fails(lucid, "echo 1g > tracing_cpumask")
    fails(lucid, "echo 100000000 > tracing_cpumask", EOVERFLOW)  # 9 digits in a group
    fails(lucid, "echo 1,0 > tracing_cpumask", EOVERFLOW)  # two groups of 32 bits
    fails(lucid, "echo %x > tracing_cpumask" % (1 << n), EOVERFLOW)  # no such CPU
    assert cat(lucid, "tracing_cpumask") == mask_text(1, n)
    # The empty mask: nothing records.
    ok(lucid, "echo > tracing_cpumask")
    assert cat(lucid, "tracing_cpumask") == mask_text(0, n)
    ok(lucid, "echo > trace")
    ok(lucid, on_each_cpu)
    assert cpus_in_trace(lucid) == set()
    ok(lucid, "echo %x > tracing_cpumask" % full)
    assert cat(lucid, "tracing_cpumask") == mask_text(full, n)
    ok(lucid, on_each_cpu)
    assert cpus_in_trace(lucid) == set(range(n))
    ok(lucid, "echo 0 > events/sched/sched_switch/enable")
    ok(lucid, "echo > trace")


def test_trace_cmd_cpumask(lucid):
    """trace-cmd record -M MASK writes tracing_cpumask: its report holds only those CPUs, and
    it puts the mask back when done."""
    reset_tracing(lucid)
    n = ncpus(lucid)
    sh(lucid, "cd /tmp")
    out = sh(lucid, "trace-cmd record -M 1 -e sched:sched_switch recwait "
             "sh -c 'for c in $(seq 0 %d); "
             "do taskset -c $c sleep 0.01; done' > /dev/null 2>&1; echo $?" % (n - 1), 300)
    assert out == "0\n", out
    report = sh(lucid, "trace-cmd report 2>/dev/null", 300)
    cpus = set(re.findall(r"\[(\d{3})\]", report))
    assert cpus == {"000"}, report[-2000:]
    ok(lucid, "cd %s" % T)
    assert cat(lucid, "tracing_cpumask") == mask_text((1 << n) - 1, n)


def test_cpumask_zero_padded_on_5_cpus():
    """Linux's %*pb pads the mask to the digits its bits need: 5 CPUs print two digits."""
    k = Lucid(smp=5)
    try:
        ok(k, "cd %s" % T)
        assert cat(k, "tracing_cpumask") == "1f\n"
        ok(k, "echo 1 > tracing_cpumask")
        assert cat(k, "tracing_cpumask") == "01\n"
        ok(k, "echo ' 0010 ' > tracing_cpumask")  # blanks around a group are separators
        assert cat(k, "tracing_cpumask") == "10\n"
        fails(k, "echo 20 > tracing_cpumask", EOVERFLOW)  # CPU 5 is past the last
        assert cat(k, "tracing_cpumask") == "10\n"
    finally:
        k.close()

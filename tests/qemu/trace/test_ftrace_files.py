"""The tracefs files from the shell: formats (profile PA of the reference), errors, semantics.

Every test starts from the boot state (reset_tracing()), so a failure does not cascade. Output
formats are checked by regex against ../shared/reference/ftrace-formats.md; the header is
checked byte for byte.
"""
import re

import pexpect
from lucid import PROMPT
from tracefs import (CORE_OPTIONS, EINVAL, ENOMEM, T, TRACE_LINE, cat, fails,  # noqa: F401
                     modes, ncpus, ok, reset_tracing, sh)

BOOT = {"cmdline": "ftrace_selftest"}

HEADER_IRQ = """# tracer: {tracer}
#
# entries-in-buffer/entries-written: {entries}/{written}   #P:{cpus}
#
#                              _-----=> irqs-off
#                             / _----=> need-resched
#                            | / _---=> hardirq/softirq
#                            || / _--=> preempt-depth
#                            ||| /     delay
#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |       |   ||||       |         |
"""
HEADER_NOIRQ = """# tracer: {tracer}
#
# entries-in-buffer/entries-written: {entries}/{written}   #P:{cpus}
#
#           TASK-PID   CPU#      TIMESTAMP  FUNCTION
#              | |       |          |         |
"""
# "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + body
FUNC_BODY = re.compile(r"^[\w.]+( <-[\w.]+)?$")
STACK_FRAME = re.compile(r"^ => ([\w.]+|0x[0-9a-f]+)$")
HEADER_LINES = 11

def trace_leaf_calls(k):
    """function tracer on ftest_leaf only, `ftest call` (three calls), tracing off."""
    ok(k, "echo ftest_leaf > set_ftrace_filter")
    ok(k, "echo function > current_tracer")
    ok(k, "ftest call")
    ok(k, "echo 0 > tracing_on")


def events(text):
    return [l for l in text.splitlines() if not l.startswith("#")]


def check_lines(lines):
    """Every line is an event line (or a stack frame / annotation); times never go back."""
    last = -1
    for line in lines:
        if STACK_FRAME.match(line) or re.match(r"^##### CPU \d+ buffer started ####$", line):
            continue
        if re.match(r"^CPU:\d+ \[LOST (\d+ )?EVENTS\]$", line):
            continue
        m = TRACE_LINE.match(line)
        assert m, "malformed line %r" % line
        assert m.group("body") == "<stack trace>" or FUNC_BODY.match(m.group("body")), line
        t = int(m.group("sec")) * 1000000 + int(m.group("usec"))
        assert t >= last, "time went backwards at %r" % line
        last = t


# --- boot -------------------------------------------------------------------------------------


def test_selftests_pass(lucid):
    out = lucid.dmesg()
    for name in ["tracer function", "tracer function (func_stack_trace)",
                 "tracer switch nop/function/nop", "trace buffer resize",
                 "tracer function_graph"]:
        assert "Testing %s: PASSED" % name in out, out[-3000:]
    assert "FAILED" not in out


def test_files_and_modes(lucid):
    reset_tracing(lucid)
    listing = modes(lucid, T)
    want = {
        "README": "-r--r-----", "available_filter_functions": "-r--r-----",
        "available_tracers": "-r--r-----", "buffer_size_kb": "-rw-r-----",
        "buffer_total_size_kb": "-r--r-----", "current_tracer": "-rw-r-----",
        "dyn_ftrace_total_info": "-r--r-----", "enabled_functions": "-r--r-----",
        "set_ftrace_filter": "-rw-r-----", "set_ftrace_notrace": "-rw-r-----",
        "set_ftrace_pid": "-rw-r-----", "set_ftrace_notrace_pid": "-rw-r-----",
        "set_event_pid": "-rw-r-----", "set_event_notrace_pid": "-rw-r-----",
        "saved_cmdlines": "-r--r-----",
        "saved_cmdlines_size": "-rw-r-----", "trace": "-rw-r-----", "trace_clock": "-rw-r-----",
        "trace_options": "-rw-r-----", "trace_pipe": "-r--r-----", "tracing_on": "-rw-r-----",
    }
    for name, mode in want.items():
        assert listing.get(name) == mode, (name, listing)
    assert listing.get("options", "").startswith("d") and listing.get("per_cpu", "").startswith("d")
    per_cpu = modes(lucid, "%s/per_cpu/cpu0" % T)
    assert per_cpu == {"buffer_size_kb": "-rw-r-----", "snapshot": "-rw-r-----",
                     "stats": "-r--r-----", "trace": "-rw-r-----", "trace_pipe": "-r--r-----",
                     "trace_pipe_raw": "-r--r-----"}, per_cpu
    assert sh(lucid, "ls -1 %s/per_cpu" % T).split() == ["cpu%d" % i for i in range(ncpus(lucid))]
    opts = sh(lucid, "ls %s/options" % T).split()
    names = [re.sub(r"^no", "", o) for o in CORE_OPTIONS] + ["func_stack_trace"]
    assert set(names) <= set(opts), opts
    # The same files under debugfs; read-only files refuse writes (root opens them, as on
    # Linux, and their missing write operation says EINVAL).
    assert sh(lucid, "cat /sys/kernel/debug/tracing/current_tracer") == "nop\n"
    assert "write error: Invalid argument" in sh(lucid, "echo 1 > available_tracers")
    assert sh(lucid, "head -1 README") == "tracing mini-HOWTO:\n"
    assert re.search(r"accepts: func_full_name or glob-matching-pattern", cat(lucid, "README"))


def test_tracers(lucid):
    reset_tracing(lucid)
    avail = cat(lucid, "available_tracers")
    assert re.match(r"^([\w]+ )*function nop\n$", avail), avail
    assert cat(lucid, "current_tracer") == "nop\n"
    fails(lucid, "echo nosuch > current_tracer")
    fails(lucid, "echo > current_tracer")
    assert cat(lucid, "current_tracer") == "nop\n"
    # Writing the current tracer's name changes nothing, not even the buffer.
    trace_leaf_calls(lucid)
    ok(lucid, "echo function >> current_tracer")
    assert "entries-written: 3/3 " in cat(lucid, "trace")
    # Switching clears the buffer.
    ok(lucid, "echo nop > current_tracer")
    assert "entries-written: 0/0 " in cat(lucid, "trace")
    # Linux reads the first 100 bytes of a write (tracing_set_trace_write) and strips blanks
    # around the name: blanks past them do not make it a bad name.
    ok(lucid, "echo ' function%s' > current_tracer" % (" " * 150))
    assert cat(lucid, "current_tracer") == "function\n"
    fails(lucid, "echo %s > current_tracer" % ("x" * 200))
    assert cat(lucid, "current_tracer") == "function\n"
    ok(lucid, "echo 'nop%s' > current_tracer" % (" " * 150))
    assert cat(lucid, "current_tracer") == "nop\n"


def test_article_sequence(lucid):
    """The seed article, line by line."""
    reset_tracing(lucid)
    ok(lucid, "cd /sys/kernel/debug/tracing")
    assert sh(lucid, "cat available_tracers").endswith("function nop\n")
    ok(lucid, "echo function > current_tracer")
    assert sh(lucid, "cat current_tracer") == "function\n"
    head = sh(lucid, "cat trace | head -10").splitlines()
    assert len(head) == 10 and head[0] == "# tracer: function" and head[1] == "#"
    assert re.match(r"^# entries-in-buffer/entries-written: \d+/\d+   #P:\d+$", head[2]), head
    assert head[4] == "#                              _-----=> irqs-off", head
    ok(lucid, "echo 0 > tracing_on")
    ok(lucid, "echo 1 > tracing_on")
    assert "ok" in sh(lucid, "run_test", timeout=60)
    ok(lucid, "echo 0 > tracing_on")
    text = sh(lucid, "cat trace | head -300")
    lines = events(text)
    assert len(lines) > 100, text[-2000:]
    check_lines(lines)
    # run_test's threads are in the trace
    assert int(sh(lucid, "cat trace | grep -c ' run_test/[0-9]*-'", timeout=60)) > 0
    reset_tracing(lucid)


def test_header_and_lines(lucid):
    reset_tracing(lucid)
    trace_leaf_calls(lucid)
    text = cat(lucid, "trace")
    header = HEADER_IRQ.format(tracer="function", entries=3, written=3, cpus=ncpus(lucid))
    assert text.startswith(header), text
    lines = events(text)
    assert len(lines) == 3, text
    for line in lines:
        m = TRACE_LINE.match(line)
        assert m and m.group("comm").strip() == "ftest", line
        assert m.group("flags") == "....", line
        assert m.group("body") == "ftest_leaf <-ftest_mid", line
    # The same twice: reading does not consume.
    assert cat(lucid, "trace") == text
    # per_cpu/cpuN/trace: one CPU's share, with that CPU's counts.
    cpu = int(TRACE_LINE.match(lines[0]).group("cpu"))
    per = sh(lucid, "cat per_cpu/cpu%d/trace" % cpu)
    assert events(per) == [l for l in lines if int(TRACE_LINE.match(l).group("cpu")) == cpu]


def test_options_change_lines(lucid):
    reset_tracing(lucid)
    trace_leaf_calls(lucid)
    opts = cat(lucid, "trace_options").splitlines()
    assert opts[:len(CORE_OPTIONS)] == CORE_OPTIONS
    assert opts[-2:] == ["nofunc_stack_trace", "nofunc-args"]  # the function tracer's

    def body():
        return TRACE_LINE.match(events(cat(lucid, "trace"))[0]).group("body")

    ok(lucid, "echo sym-offset > trace_options")
    assert re.match(r"^ftest_leaf\+0x0/0x[0-9a-f]+ <-ftest_mid\+0x[0-9a-f]+/0x[0-9a-f]+$",
                    body()), body()
    assert cat(lucid, "options/sym-offset") == "1\n"
    ok(lucid, "echo 0 > options/sym-offset")
    ok(lucid, "echo sym-addr > trace_options")
    assert re.match(r"^ftest_leaf <ffffffff8[0-9a-f]{7}> <-ftest_mid <ffffffff8[0-9a-f]{7}>$",
                    body()), body()
    ok(lucid, "echo nosym-addr > trace_options")
    ok(lucid, "echo noprint-parent > trace_options")
    assert body() == "ftest_leaf"
    ok(lucid, "echo print-parent > trace_options")
    # irq-info off: the short header, no flag columns.
    ok(lucid, "echo 0 > options/irq-info")
    text = cat(lucid, "trace")
    assert text.startswith(HEADER_NOIRQ.format(tracer="function", entries=3, written=3,
                                               cpus=ncpus(lucid))), text
    assert re.match(r"^ {11}ftest-\d+ +\[\d{3}\]  +\d+\.\d{6}: ftest_leaf <-ftest_mid$",
                    events(text)[0]), text
    ok(lucid, "echo 1 > options/irq-info")
    # context-info off: no header beyond the tracer's name, bare bodies.
    ok(lucid, "echo nocontext-info > trace_options")
    assert cat(lucid, "trace") == "# tracer: function\n#\n" + "ftest_leaf <-ftest_mid\n" * 3
    ok(lucid, "echo context-info > trace_options")
    # Errors change nothing.
    fails(lucid, "echo bogus > trace_options")
    fails(lucid, "echo nobogus > trace_options")
    fails(lucid, "echo 2 > options/print-parent")
    fails(lucid, "echo x > options/print-parent")
    fails(lucid, "echo %s > trace_options" % ("x" * 70))
    assert cat(lucid, "trace_options").splitlines()[:len(CORE_OPTIONS)] == CORE_OPTIONS


def test_func_stack_trace(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > options/func_stack_trace")
    assert cat(lucid, "options/func_stack_trace") == "1\n"
    trace_leaf_calls(lucid)
    # trace_options lists the current tracer's options after the core ones
    assert cat(lucid, "trace_options").splitlines()[-2:] == ["func_stack_trace", "nofunc-args"]
    text = cat(lucid, "trace")
    lines = events(text)
    check_lines(lines)
    i = lines.index(next(l for l in lines if l.endswith(": <stack trace>")))
    assert lines[i - 1].endswith(": ftest_leaf <-ftest_mid"), text
    assert lines[i + 1:i + 4] == [" => ftest_leaf", " => ftest_mid", " => ftest_outer"], text
    assert "entries-written: 6/6 " in text  # three function events, three stacks
    ok(lucid, "echo 0 > options/func_stack_trace")


def test_echo_trace_clears(lucid):
    reset_tracing(lucid)
    trace_leaf_calls(lucid)
    cpu = int(TRACE_LINE.match(events(cat(lucid, "trace"))[0]).group("cpu"))
    other = (cpu + 1) % ncpus(lucid)
    ok(lucid, "echo > per_cpu/cpu%d/trace" % other)  # another CPU's: ours stay
    assert "entries-written: 3/3 " in cat(lucid, "trace")
    ok(lucid, "echo > per_cpu/cpu%d/trace" % cpu)
    assert "entries-written: 0/0 " in cat(lucid, "trace")
    trace_leaf_calls(lucid)
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "echo > trace")
    assert "entries-written: 0/0 " in cat(lucid, "trace")


def test_tracing_on(lucid):
    reset_tracing(lucid)
    assert cat(lucid, "tracing_on") == "1\n"
    fails(lucid, "echo abc > tracing_on")
    fails(lucid, "echo > tracing_on")
    ok(lucid, "echo 2 > tracing_on")
    assert cat(lucid, "tracing_on") == "1\n"
    # Linux's kstrtoul_from_user reads the first 66 bytes of a number and ignores the rest:
    # a long number is not refused for its length, and a cut one is taken as what is left.
    ok(lucid, "echo %s1 > tracing_on" % ("0" * 36))
    assert cat(lucid, "tracing_on") == "1\n"
    fails(lucid, "echo %sx > tracing_on" % ("0" * 36))
    assert cat(lucid, "tracing_on") == "1\n"
    ok(lucid, "echo %s1 > tracing_on" % ("0" * 70))  # "1" is past byte 66: this is 0
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo 1 > tracing_on")
    trace_leaf_calls(lucid)  # ends with tracing off
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "ftest call")  # not recorded
    assert "entries-written: 3/3 " in cat(lucid, "trace")
    # 0 -> 1 under the function tracer starts a fresh trace, as Linux's function tracer does.
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    assert "entries-written: 3/3 " in cat(lucid, "trace")


def test_trace_pipe_consumes(lucid):
    reset_tracing(lucid)
    trace_leaf_calls(lucid)
    # With tracing off, trace_pipe gives what there is, then end of file.
    out = cat(lucid, "trace_pipe")
    lines = out.splitlines()
    assert len(lines) == 3 and not out.startswith("#"), out
    assert all(TRACE_LINE.match(l).group("body") == "ftest_leaf <-ftest_mid" for l in lines), out
    assert "entries-written: 0/0 " in cat(lucid, "trace")
    read = sum(int(re.search(r"read events: (\d+)", cat(lucid, "per_cpu/cpu%d/stats" % c))
                   .group(1)) for c in range(ncpus(lucid)))
    assert read == 3


def test_trace_pipe_waits(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo ftest_leaf > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    # Empty: the reader waits until Ctrl-C.
    lucid.send_line("cat %s/trace_pipe" % T)
    assert lucid.p.expect([PROMPT, pexpect.TIMEOUT], timeout=2) == 1, "returned while empty"
    lucid.p.send("\x03")
    lucid.expect_prompt(10)
    # Events arriving while it waits are delivered: the tick calls a traced function.
    for fn in ["scheduler_tick", "run_timers"]:
        if fn in sh(lucid, "grep '^%s$' available_filter_functions" % fn):
            ok(lucid, "echo %s > set_ftrace_filter" % fn)
            out = sh(lucid, "cat trace_pipe | head -5", timeout=20)
            assert len(out.splitlines()) == 5, out
            assert all(TRACE_LINE.match(l) for l in out.splitlines()), out
            break
    ok(lucid, "echo nop > current_tracer")


def test_buffer_size(lucid):
    reset_tracing(lucid)
    n = ncpus(lucid)
    assert cat(lucid, "buffer_size_kb") == "1408\n"
    assert cat(lucid, "buffer_total_size_kb") == "%d\n" % (1408 * n)
    assert cat(lucid, "per_cpu/cpu0/buffer_size_kb") == "1408\n"
    for bad in ["0", "-1", "abc", ""]:
        fails(lucid, "echo %s > buffer_size_kb" % bad)
    fails(lucid, "echo 99999999999 > buffer_size_kb", ENOMEM)
    assert cat(lucid, "buffer_size_kb") == "1408\n"
    ok(lucid, "echo 100 > per_cpu/cpu1/buffer_size_kb")
    assert cat(lucid, "buffer_size_kb") == "X\n"
    assert cat(lucid, "per_cpu/cpu1/buffer_size_kb") == "100\n"
    assert cat(lucid, "buffer_total_size_kb") == "%d\n" % (1408 * (n - 1) + 100)
    ok(lucid, "echo 64 > buffer_size_kb")
    assert cat(lucid, "buffer_size_kb") == "64\n"
    trace_leaf_calls(lucid)  # recording works in the new buffers
    assert "entries-written: 3/3 " in cat(lucid, "trace")
    ok(lucid, "echo 1408 > buffer_size_kb")


def test_stats_format(lucid):
    reset_tracing(lucid)
    trace_leaf_calls(lucid)
    total = 0
    for c in range(ncpus(lucid)):
        s = cat(lucid, "per_cpu/cpu%d/stats" % c)
        assert re.match(r"^entries: (\d+)\noverrun: \d+\ncommit overrun: \d+\nbytes: \d+\n"
                        r"oldest event ts: +\d+\.\d{6}\nnow ts: +\d+\.\d{6}\n"
                        r"dropped events: \d+\nread events: \d+\n$", s), s
        total += int(re.match(r"entries: (\d+)", s).group(1))
    assert total == 3


def test_overwrite_and_drop(lucid):
    """A tiny buffer: overwrite loses the oldest events (overrun), nooverwrite the newest."""
    reset_tracing(lucid)
    n = ncpus(lucid)

    def stats(what):
        return [int(re.search(what + r": (\d+)", cat(lucid, "per_cpu/cpu%d/stats" % c))
                    .group(1)) for c in range(n)]

    ok(lucid, "echo 4 > buffer_size_kb")
    ok(lucid, "echo function > current_tracer")
    assert "ok" in sh(lucid, "run_test", timeout=60)
    ok(lucid, "echo 0 > tracing_on")
    assert sum(stats("overrun")) > 0 and sum(stats("dropped events")) == 0
    text = cat(lucid, "trace")
    m = re.search(r"entries-written: (\d+)/(\d+) ", text)
    assert int(m.group(2)) > int(m.group(1)), m.group(0)  # written counts the overwritten
    assert int(m.group(1)) == sum(1 for l in events(text) if TRACE_LINE.match(l))
    check_lines(events(text))
    assert "##### CPU " in text  # annotate: each CPU's events begin after an overrun
    # trace_pipe says how many events were lost before what it shows
    lost = sh(lucid, "cat trace_pipe | grep LOST")
    assert lost and all(re.match(r"^CPU:\d+ \[LOST \d+ EVENTS\]$", l)
                        for l in lost.splitlines()), lost

    ok(lucid, "echo > trace")
    ok(lucid, "echo 0 > options/overwrite")
    ok(lucid, "echo 1 > tracing_on")
    assert "ok" in sh(lucid, "run_test", timeout=60)
    ok(lucid, "echo 0 > tracing_on")
    assert sum(stats("dropped events")) > 0 and sum(stats("overrun")) == 0
    text = cat(lucid, "trace")
    m = re.search(r"entries-written: (\d+)/(\d+) ", text)
    assert m.group(1) == m.group(2)  # nothing overwritten
    check_lines(events(text))
    ok(lucid, "echo 1 > options/overwrite")
    ok(lucid, "echo 1408 > buffer_size_kb")


def test_trace_clock(lucid):
    reset_tracing(lucid)
    assert cat(lucid, "trace_clock") == "[local] global counter uptime x86-tsc\n"
    fails(lucid, "echo bogus > trace_clock")
    ok(lucid, "echo counter > trace_clock")
    assert cat(lucid, "trace_clock") == "local global [counter] uptime x86-tsc\n"
    trace_leaf_calls(lucid)
    lines = events(cat(lucid, "trace"))
    assert len(lines) == 3
    for l in lines:
        assert re.match(r"^ +ftest-\d+ +\[\d{3}\] \.\.\.\. +\d+: ftest_leaf <-ftest_mid$", l), l
    ok(lucid, "echo x86-tsc > trace_clock")
    ok(lucid, "echo global > trace_clock")
    ok(lucid, "echo local > trace_clock")
    # Linux's tracing_clock_write takes up to 63 bytes and strips the blanks around the name;
    # 64 bytes or more are refused whatever they hold, and change nothing.
    ok(lucid, "echo '  global%s' > trace_clock" % (" " * 40))
    assert cat(lucid, "trace_clock") == "local [global] counter uptime x86-tsc\n"
    fails(lucid, "echo 'counter%s' > trace_clock" % (" " * 60))
    assert cat(lucid, "trace_clock") == "local [global] counter uptime x86-tsc\n"
    ok(lucid, "echo local > trace_clock")


def test_filter_files(lucid):
    reset_tracing(lucid)
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n"
    assert cat(lucid, "set_ftrace_notrace") == "#### no functions disabled ####\n"
    ok(lucid, "echo ftest_leaf > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "ftest_leaf\n"
    ok(lucid, "echo 'ftest_m*' 'ftest_?uter' >> set_ftrace_filter")
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == [
        "ftest_leaf", "ftest_mid", "ftest_outer"]
    # A word that matches nothing fails the whole write and changes nothing.
    fails(lucid, "echo ftest_delay nosuch >> set_ftrace_filter")
    fails(lucid, "echo 'bogus*' > set_ftrace_filter")
    assert len(cat(lucid, "set_ftrace_filter").split()) == 3
    ok(lucid, "echo '!ftest_mid' >> set_ftrace_filter")
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == ["ftest_leaf", "ftest_outer"]
    # "!" alone names no function (Linux's match_records finds none): EINVAL, nothing changes.
    fails(lucid, "echo '!' >> set_ftrace_filter")
    fails(lucid, "echo ftest_mid '!' >> set_ftrace_filter")
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == ["ftest_leaf", "ftest_outer"]
    ok(lucid, "echo 'ftest_[lm]*' > set_ftrace_filter")
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == ["ftest_leaf", "ftest_mid"]
    ok(lucid, "echo ftest_mid > set_ftrace_notrace")
    assert cat(lucid, "set_ftrace_notrace") == "ftest_mid\n"
    fails(lucid, "echo bogus > set_ftrace_notrace")
    # Only the chosen call sites are patched (/bin/callsite: /sys/kernel/debug/callsite).
    ok(lucid, "echo function > current_tracer")
    assert re.search(r"call ftrace_caller", sh(lucid, "callsite ftest_leaf")), \
        sh(lucid, "callsite ftest_leaf")
    assert re.search(r" nop ", sh(lucid, "callsite ftest_mid"))
    assert re.search(r" nop ", sh(lucid, "callsite ftest_outer"))
    assert cat(lucid, "enabled_functions") == "ftest_leaf (1)      \n"
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    bodies = {TRACE_LINE.match(l).group("body") for l in events(cat(lucid, "trace"))}
    assert bodies == {"ftest_leaf <-ftest_mid"}, bodies
    ok(lucid, "echo nop > current_tracer")
    assert re.search(r" nop ", sh(lucid, "callsite ftest_leaf"))
    assert cat(lucid, "enabled_functions") == ""
    ok(lucid, "echo > set_ftrace_filter")
    ok(lucid, "echo > set_ftrace_notrace")
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n"


def test_filter_by_index(lucid):
    """A number is a line of available_filter_functions, from 1 (Linux's MATCH_INDEX)."""
    reset_tracing(lucid)
    names = cat(lucid, "available_filter_functions").split("\n")[:-1]
    leaf, mid = names.index("ftest_leaf") + 1, names.index("ftest_mid") + 1
    ok(lucid, "echo %d > set_ftrace_filter" % leaf)
    assert cat(lucid, "set_ftrace_filter") == "ftest_leaf\n"
    # Read as simple_strtoul reads it: base from the prefix, and it stops at the first non-digit.
    ok(lucid, "echo %#x >> set_ftrace_filter" % mid)
    ok(lucid, "echo %dabc >> set_ftrace_filter" % mid)
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == ["ftest_leaf", "ftest_mid"]
    ok(lucid, "echo '!%d' >> set_ftrace_filter" % mid)
    assert cat(lucid, "set_ftrace_filter") == "ftest_leaf\n"
    # Line 0 and lines past the end select nothing: EINVAL, and nothing changes.
    for bad in ["0", str(len(names) + 1), "%d 0" % mid]:
        fails(lucid, "echo %s >> set_ftrace_filter" % bad)
        fails(lucid, "echo %s > set_ftrace_filter" % bad)
    assert cat(lucid, "set_ftrace_filter") == "ftest_leaf\n"
    ok(lucid, "echo 1 > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == names[0] + "\n"
    ok(lucid, "echo %d > set_ftrace_notrace" % len(names))
    assert cat(lucid, "set_ftrace_notrace") == names[-1] + "\n"
    ok(lucid, "echo %d > stack_trace_filter" % leaf)
    assert cat(lucid, "stack_trace_filter") == "ftest_leaf\n"
    ok(lucid, "echo > stack_trace_filter")
    # The graph files take names only: Linux's ftrace_graph_set_hash knows no index.
    fails(lucid, "echo %d > set_graph_function" % leaf)
    fails(lucid, "echo %d > set_graph_notrace" % leaf)
    assert cat(lucid, "set_graph_function") == "#### all functions enabled ####\n"
    reset_tracing(lucid)


def test_set_ftrace_pid(lucid):
    reset_tracing(lucid)
    assert cat(lucid, "set_ftrace_pid") == "no pid\n"
    fails(lucid, "echo abc > set_ftrace_pid")
    fails(lucid, "echo -1 > set_ftrace_pid")
    ok(lucid, "echo 1 2 > set_ftrace_pid")
    ok(lucid, "echo 3 >> set_ftrace_pid")
    assert cat(lucid, "set_ftrace_pid") == "1\n2\n3\n"
    fails(lucid, "echo 4 x >> set_ftrace_pid")
    assert cat(lucid, "set_ftrace_pid") == "1\n2\n3\n"
    # Linux's trace_pid_write: kstrtoul in base 0, so hex and octal are pids; no number at all
    # (an overflow, a word of 128 bytes) is EINVAL, and a pid the list cannot hold (2^30 and
    # up) fails with the -1 Linux returns, EPERM. A refused write changes nothing.
    ok(lucid, "echo 0x10 010 >> set_ftrace_pid")
    assert cat(lucid, "set_ftrace_pid") == "1\n2\n3\n16\n8\n"
    fails(lucid, "echo 5 99999999999999999999999 >> set_ftrace_pid")
    fails(lucid, "echo %s5 >> set_ftrace_pid" % ("0" * 127))
    fails(lucid, "echo 5 1073741824 >> set_ftrace_pid",
          "-bash: echo: write error: Operation not permitted\n")
    assert cat(lucid, "set_ftrace_pid") == "1\n2\n3\n16\n8\n"
    ok(lucid, "echo %s5 1073741823 > set_ftrace_pid" % ("0" * 126))
    assert cat(lucid, "set_ftrace_pid") == "5\n1073741823\n"
    trace_leaf_calls(lucid)  # ftest runs as a new task: not one of those pids
    assert "entries-written: 0/0 " in cat(lucid, "trace")
    ok(lucid, "echo > set_ftrace_pid")
    assert cat(lucid, "set_ftrace_pid") == "no pid\n"
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    assert "entries-written: 3/3 " in cat(lucid, "trace")


def test_saved_cmdlines(lucid):
    """pid -> comm for every task the trace names; resizing forgets them all; bad sizes refused."""
    reset_tracing(lucid)
    assert cat(lucid, "saved_cmdlines_size") == "128\n"
    trace_leaf_calls(lucid)
    pid = int(re.search(r"ftest-(\d+) ", cat(lucid, "trace")).group(1))
    saved = cat(lucid, "saved_cmdlines")
    assert re.match(r"^(\d+ [^\n]+\n)+$", saved), saved
    assert "%d ftest\n" % pid in saved, saved
    for bad in ["0", "32769", "-1", "abc", ""]:
        fails(lucid, "echo %s > saved_cmdlines_size" % bad)
    assert cat(lucid, "saved_cmdlines_size") == "128\n"
    ok(lucid, "echo 1 > saved_cmdlines_size")
    assert cat(lucid, "saved_cmdlines_size") == "1\n"
    assert cat(lucid, "saved_cmdlines") == ""
    assert "<...>-%d " % pid in cat(lucid, "trace")  # a resize forgets every name, as Linux's
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    pid = int(re.search(r"ftest-(\d+) ", cat(lucid, "trace")).group(1))
    assert cat(lucid, "saved_cmdlines") == "%d ftest\n" % pid  # the one slot
    ok(lucid, "echo 128 > saved_cmdlines_size")


def test_call_site_files(lucid):
    reset_tracing(lucid)
    total = int(cat(lucid, "dyn_ftrace_total_info").split()[0])
    assert re.match(r"^\d+ pages:\d+ groups: \d+\n$", cat(lucid, "dyn_ftrace_total_info"))
    assert sh(lucid, "cat available_filter_functions | wc -l").strip() == str(total)
    for name in ["ftest_leaf", "ftest_mid", "ftest_outer"]:
        assert sh(lucid, "grep '^%s$' available_filter_functions" % name) == name + "\n"
    # The tracer itself is never traceable.
    for name in ["trace_function", "ring_buffer_lock_reserve", "function_trace_call"]:
        assert sh(lucid, "grep '^%s$' available_filter_functions" % name) == ""
    assert cat(lucid, "enabled_functions") == ""
    ok(lucid, "echo function > current_tracer")
    assert sh(lucid, "cat enabled_functions | wc -l").strip() == str(total)
    assert re.match(r"^[\w.]+ \(1\)      $", sh(lucid, "head -1 enabled_functions").rstrip("\n"))
    ok(lucid, "echo nop > current_tracer")


def test_all_functions_under_load(lucid):
    """Every function traced while run_test runs on every CPU: no crash, no bad line."""
    reset_tracing(lucid)
    ok(lucid, "echo 64 > buffer_size_kb")
    ok(lucid, "echo function > current_tracer")
    for _ in range(5):
        assert "ok" in sh(lucid, "run_test", timeout=120)
    ok(lucid, "echo 0 > tracing_on")
    text = cat(lucid, "trace", timeout=120)
    assert cat(lucid, "trace", timeout=120) == text  # the same twice when tracing is off
    lines = events(text)
    check_lines(lines)
    cpus = {TRACE_LINE.match(l).group("cpu") for l in lines if TRACE_LINE.match(l)}
    assert len(cpus) == ncpus(lucid), cpus
    # entries-in-buffer is the number of events shown
    m = re.search(r"entries-written: (\d+)/(\d+) ", text)
    assert int(m.group(1)) == sum(1 for l in lines if TRACE_LINE.match(l)), m.group(0)
    assert "<idle>-0" in text
    reset_tracing(lucid)

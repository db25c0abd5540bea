"""The function_graph tracer from the shell: nesting, marks, filters, options, files, errors,
interrupts, and every function traced while run_test runs on 4 CPUs.

Each test starts from the boot state (reset_tracing()). Lines are parsed with GRAPH_LINE, Linux's format
(profile PA of ../shared/reference/ftrace-formats.md, samples in linux-6.1/trace_function_graph_*),
and what they say is checked exactly: which functions, in which order, at which depth.
"""
import re
import time

from tracefs import (CORE_OPTIONS, EINVAL, GRAPH_OPTIONS, T, cat, fails, modes,  # noqa: F401
                     least_of, ncpus, ok, reset_tracing, sh)

# Heavy, every function graphed while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

BOOT = {"cmdline": ""}

HEADER = ("# tracer: function_graph\n"
          "#\n"
          "# CPU  DURATION                  FUNCTION CALLS\n"
          "# |     |   |                     |   |   |   |\n")
# Linux 6.15's list: 6.1's, with the return values (6.5), address (6.13) and arguments (6.15)
# (test_fgraph_retval.py) after funcgraph-tail.
# [abstime "%5lu.%06lu |  "] [cpu " %d) "] [proc, 14 wide, " | "] [duration column] indent body
DURATION = r"(?:(?P<mark>[ +!#*@$]) (?P<num>\d+(?:\.\d+)?) us +|              )\|  "
GRAPH_LINE = re.compile(r"^(?P<abs> *\d+\.\d{6} \|  )?(?: (?P<cpu>\d)\) )?(?P<proc>.{14} \| )?"
                        + DURATION + r"(?P<indent> *)(?P<body>\S.*)$")
BODY = re.compile(r"^(?:(?P<open>[\w.]+)\(\) \{|(?P<leaf>[\w.]+)\(\);"
                  r"|\}(?: /\* (?P<close>[\w.]+) \*/)?|(?P<comment>/\* .* \*/))$")
ARROW = re.compile(r"^ (?P<cpu>\d)\) (?:.{14} \| )?  (?P<dir>==========>|<==========) \|$")
DASHES = " " + "-" * 42
BANNER = re.compile(r"^ (?P<cpu>\d)\) (?P<prev>.{14}) => (?P<next>.{14})$")
MARKS = [(1000000000, "$"), (100000000, "@"), (10000000, "*"), (1000000, "#"), (100000, "!"),
         (10000, "+")]


def ftest_functions(k):
    """The ftest_* functions, in call site order (as the filter files list them)."""
    return sh(k, "grep '^ftest_' %s/available_filter_functions" % T).splitlines()


def expected_marks(num):
    """The marks a printed duration may carry (it is truncated: look at both ends)."""
    us, _, frac = num.partition(".")
    low = int(us) * 1000 + (int(frac.ljust(3, "0")[:3]) if frac else 0)
    high = low + (10 ** (3 - len(frac)) if len(frac) < 3 else 1)
    return {next((m for t, m in MARKS if ns > t), " ") for ns in (low, high - 1)}


class Line:
    """One function line: its columns and what it says."""

    def __init__(self, m, overhead=True):
        b = BODY.match(m.group("body"))
        assert b, "bad body %r" % m.group(0)
        self.text = m.group(0)
        self.cpu = m.group("cpu")
        self.proc = m.group("proc")
        self.abs = m.group("abs")
        self.mark, self.num = m.group("mark"), m.group("num")
        self.depth = len(m.group("indent")) // 2
        assert len(m.group("indent")) % 2 == 0, self.text
        self.kind = ("open" if b.group("open") else "leaf" if b.group("leaf") else
                     "comment" if b.group("comment") else "close")
        self.func = b.group("open") or b.group("leaf") or b.group("close")
        self.comment = b.group("comment")
        if self.num is not None:
            assert self.mark in (expected_marks(self.num) if overhead else " "), self.text
            self.us = float(self.num)
        # an opening line or a comment has no duration; a leaf or a closing one has
        assert (self.num is None) == (self.kind in ("open", "comment")), self.text

    def shape(self):
        """The line as its nesting reads: "  ftest_mid() {", "    ftest_leaf();", "  }"."""
        if self.kind == "comment":
            return "  " * self.depth + self.comment
        body = {"open": "%s() {", "leaf": "%s();"}.get(self.kind, "}")
        if self.kind == "close" and self.func:
            body = "} /* %s */"
        return "  " * self.depth + (body % self.func if "%s" in body else body)


def parse(text, overhead=True):
    """Every line of a trace, checked against the format: [Line | ("arrow", dir) | banner].
    overhead: funcgraph-overhead is on, so each duration has the mark it deserves."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            i += 1
        elif line == DASHES:
            if i + 3 >= len(lines):
                break  # the text was cut (head) in the middle of a banner
            m = BANNER.match(lines[i + 1])
            assert m and lines[i + 2] == DASHES and lines[i + 3] == "", lines[i:i + 4]
            out.append(("banner", m.group("cpu"), m.group("prev"), m.group("next")))
            i += 4
        elif ARROW.match(line):
            out.append(("arrow", ARROW.match(line).group("dir"), ARROW.match(line).group("cpu")))
            i += 1
        else:
            m = GRAPH_LINE.match(line)
            assert m, "malformed line %r" % line
            out.append(Line(m, overhead))
            i += 1
    return out


def graph_lines(text, overhead=True):
    """The function lines (not the comments)."""
    return [e for e in parse(text, overhead) if isinstance(e, Line) and e.kind != "comment"]


CALL_SHAPE = ["ftest_outer() {", "  ftest_mid() {", "    ftest_leaf();", "  }", "}"]


def check_call(text, times=3):
    """`ftest call` as the graph shows it: outer { mid { leaf(); } } three times, on one CPU,
    each enclosing duration at least the enclosed one."""
    assert text.startswith(HEADER), text
    lines = graph_lines(text)
    assert [l.shape() for l in lines] == CALL_SHAPE * times, text
    assert len({l.cpu for l in lines}) == 1, text
    for i in range(0, len(lines), 5):
        leaf, mid, outer = lines[i + 2], lines[i + 3], lines[i + 4]
        assert 0 < leaf.us <= mid.us <= outer.us, text


# --- files ---------------------------------------------------------------------------------------


def test_files(lucid):
    reset_tracing(lucid)
    tracers = cat(lucid, "available_tracers")
    assert "function_graph" in tracers.split() and tracers.endswith(" function nop\n"), tracers
    listing = modes(lucid, T)
    for name in ["max_graph_depth", "set_graph_function", "set_graph_notrace", "tracing_thresh"]:
        assert listing.get(name) == "-rw-r-----", (name, listing)
    assert cat(lucid, "max_graph_depth") == "0\n"
    assert cat(lucid, "tracing_thresh") == "0\n"
    assert cat(lucid, "set_graph_function") == "#### all functions enabled ####\n"
    assert cat(lucid, "set_graph_notrace") == "#### no functions disabled ####\n"
    # Globs, appending, removing, as set_ftrace_filter.
    ok(lucid, "echo 'ftest_*' > set_graph_function")
    ftests = ftest_functions(lucid)
    assert {"ftest_leaf", "ftest_mid", "ftest_outer", "ftest_delay"} <= set(ftests), ftests
    assert cat(lucid, "set_graph_function").splitlines() == ftests
    ok(lucid, "echo '!ftest_*' >> set_graph_function")
    ok(lucid, "echo ftest_leaf ftest_mid >> set_graph_function")
    ok(lucid, "echo 'ftest_out*' >> set_graph_function")
    assert cat(lucid, "set_graph_function") == "ftest_leaf\nftest_mid\nftest_outer\n"
    ok(lucid, "echo ftest_mid > set_graph_function")
    ok(lucid, "echo ftest_leaf >> set_graph_notrace")
    assert cat(lucid, "set_graph_function") == "ftest_mid\n"
    assert cat(lucid, "set_graph_notrace") == "ftest_leaf\n"
    # The function tracer's filter is another set.
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n"
    ok(lucid, "echo > set_graph_function")
    ok(lucid, "echo > set_graph_notrace")
    assert cat(lucid, "set_graph_function") == "#### all functions enabled ####\n"
    ok(lucid, "echo 7 > max_graph_depth")
    assert cat(lucid, "max_graph_depth") == "7\n"
    ok(lucid, "echo 250 > tracing_thresh")
    assert cat(lucid, "tracing_thresh") == "250\n"
    reset_tracing(lucid)


def test_bad_writes_change_nothing(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 3 > max_graph_depth")
    fails(lucid, "echo abc > max_graph_depth")
    fails(lucid, "echo -1 > max_graph_depth")
    fails(lucid, "echo > max_graph_depth")
    assert cat(lucid, "max_graph_depth") == "3\n"
    # Read back with %d, as Linux: so a depth %d cannot print is refused. Linux took them,
    # 4294967295 to read -1 and 4294967296 to become 0, no limit at all.
    fails(lucid, "echo 4294967295 > max_graph_depth")
    fails(lucid, "echo 4294967296 > max_graph_depth")
    fails(lucid, "echo 2147483648 > max_graph_depth")
    assert cat(lucid, "max_graph_depth") == "3\n"
    ok(lucid, "echo 2147483647 > max_graph_depth")
    assert cat(lucid, "max_graph_depth") == "2147483647\n"
    ok(lucid, "echo 3 > max_graph_depth")
    ok(lucid, "echo ftest_outer > set_graph_function")
    fails(lucid, "echo nosuch > set_graph_function")
    fails(lucid, "echo ftest_mid nosuch >> set_graph_function")  # all or nothing
    assert cat(lucid, "set_graph_function") == "ftest_outer\n"
    fails(lucid, "echo nosuch > set_graph_notrace")
    assert cat(lucid, "set_graph_notrace") == "#### no functions disabled ####\n"
    # Linux's ftrace_graph_set_hash: "!f" must remove f from the set (set_ftrace_filter's
    # only has to name a function), and the words of a write apply in order.
    fails(lucid, "echo '!ftest_mid' >> set_graph_function")
    fails(lucid, "echo '!ftest_outer' '!ftest_outer' >> set_graph_function")
    assert cat(lucid, "set_graph_function") == "ftest_outer\n"
    ok(lucid, "echo ftest_mid '!ftest_mid' '!ftest_outer' >> set_graph_function")
    assert cat(lucid, "set_graph_function") == "#### all functions enabled ####\n"
    ok(lucid, "echo ftest_outer > set_graph_function")
    ok(lucid, "echo '!ftest_mid' >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n"
    ok(lucid, "echo 20 > tracing_thresh")
    fails(lucid, "echo 1.5 > tracing_thresh")
    fails(lucid, "echo -5 > tracing_thresh")
    assert cat(lucid, "tracing_thresh") == "20\n"
    fails(lucid, "echo 2 > options/funcgraph-cpu")
    fails(lucid, "echo nofuncgraph-bogus > trace_options")
    # A tracer's options are set through trace_options only while it is the current tracer.
    fails(lucid, "echo funcgraph-proc > trace_options")
    assert cat(lucid, "options/funcgraph-proc") == "0\n"
    reset_tracing(lucid)


def test_options_listed(lucid):
    reset_tracing(lucid)
    opts = sh(lucid, "ls %s/options" % T).split()
    assert set(re.sub(r"^no", "", o) for o in GRAPH_OPTIONS) <= set(opts), opts
    ok(lucid, "echo function_graph > current_tracer")
    assert cat(lucid, "trace_options").splitlines() == CORE_OPTIONS + GRAPH_OPTIONS
    ok(lucid, "echo funcgraph-proc > trace_options")
    assert cat(lucid, "options/funcgraph-proc") == "1\n"
    ok(lucid, "echo nofuncgraph-proc > trace_options")
    assert cat(lucid, "trace_options").splitlines() == CORE_OPTIONS + GRAPH_OPTIONS
    reset_tracing(lucid)


# --- what the trace shows ------------------------------------------------------------------------


def test_call_nesting_with_set_graph_function(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")  # no interrupt in the middle, by chance
    ok(lucid, "echo ftest_outer > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    assert cat(lucid, "current_tracer") == "function_graph\n"
    ok(lucid, "ftest call")
    text = cat(lucid, "trace")
    check_call(text)
    assert cat(lucid, "trace") == text  # reading does not consume
    # trace_pipe prints the same lines (no header), and consumes them.
    ok(lucid, "echo 0 > tracing_on")
    assert cat(lucid, "trace_pipe") == text[len(HEADER):]
    assert cat(lucid, "trace") == HEADER
    reset_tracing(lucid)


def test_call_nesting_with_set_ftrace_filter(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest call")
    check_call(cat(lucid, "trace"))
    # Only the filtered sites are live.
    enabled = cat(lucid, "enabled_functions").splitlines()
    assert sorted(l.split()[0] for l in enabled) == sorted(ftest_functions(lucid)), enabled
    reset_tracing(lucid)


def test_marks(lucid):
    """Every duration carries the mark of its range (Line checks it on every line of every
    test); here a delay of each range. A busy host may stretch a call into the next range
    (time is the TSC, and QEMU's threads share the host), never shorten it."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo ftest_delay > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest delay 1")  # the first traced call runs code QEMU has not translated yet
    ok(lucid, "echo > trace")
    delays = [(15, "+"), (150, "!"), (1100, "#"), (12000, "*")]
    for us, _ in delays:
        ok(lucid, "ftest delay %d" % us)
    text = cat(lucid, "trace")
    lines = graph_lines(text)
    assert [l.shape() for l in lines] == ["ftest_delay();"] * len(delays), text
    order = " +!#*@$"
    for line, (us, mark) in zip(lines, delays):
        assert us <= line.us < us + 1000000, line.text
        assert order.index(line.mark) >= order.index(mark), line.text
    # The longest lands in its own range unless the host stalls QEMU for 88 ms.
    assert lines[-1].mark in "*@", text
    reset_tracing(lucid)


def test_max_graph_depth(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo ftest_outer > set_graph_function")
    ok(lucid, "echo 1 > max_graph_depth")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest call")
    assert [l.shape() for l in graph_lines(cat(lucid, "trace"))] == ["ftest_outer();"] * 3
    ok(lucid, "echo 2 > max_graph_depth")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")
    assert [l.shape() for l in graph_lines(cat(lucid, "trace"))] == \
        ["ftest_outer() {", "  ftest_mid();", "}"] * 3
    ok(lucid, "echo 0 > max_graph_depth")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")
    check_call(cat(lucid, "trace"))
    reset_tracing(lucid)


RETURN_STACK = 50  # FTRACE_RETFUNC_DEPTH (trace/fgraph.h): calls a task's return stack holds
OVERRUN = re.compile(r"^ \(Overruns: (\d+)\)$")


def test_return_stack_overrun(lucid):
    """A chain deeper than the return stack: the first RETURN_STACK calls are hooked (the last
    one shows as a leaf, its callees being unhooked), the rest are counted as overruns, which
    funcgraph-overrun prints after each return, as Linux does."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo ftest_deep > set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "echo 1 > options/funcgraph-overrun")
    for calls in (RETURN_STACK - 10, RETURN_STACK + 10):
        ok(lucid, "echo > trace")
        ok(lucid, "ftest deep %d" % calls)
        text = cat(lucid, "trace").splitlines(keepends=True)
        # Each return's line is followed by its overrun line; the leaf (entry and return in
        # one line) has none.
        overruns = [int(OVERRUN.match(l).group(1)) for l in text if OVERRUN.match(l)]
        lines = graph_lines("".join(l for l in text if not OVERRUN.match(l)))
        hooked = min(calls, RETURN_STACK)
        assert [l.shape() for l in lines] == (
            ["  " * d + "ftest_deep() {" for d in range(hooked - 1)]
            + ["  " * (hooked - 1) + "ftest_deep();"]
            + ["  " * d + "}" for d in reversed(range(hooked - 1))]), text
        assert overruns == [calls - hooked] * (hooked - 1), text
        closes = [i for i, l in enumerate(text) if l.rstrip("\n").endswith("}")]
        assert all(OVERRUN.match(text[i + 1]) for i in closes), text
    # Off (the default): no overrun lines.
    ok(lucid, "echo 0 > options/funcgraph-overrun")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest deep %d" % (RETURN_STACK + 10))
    assert "Overruns" not in cat(lucid, "trace")
    # Depths it does not take: the usage, status 2, and nothing called.
    ok(lucid, "echo > trace")
    for bad in ("0", "201", "x", "1 2"):
        assert sh(lucid, "ftest deep " + bad).startswith("usage: ftest call |"), bad
        assert lucid.status() == 2, bad
    assert graph_lines(cat(lucid, "trace")) == []
    reset_tracing(lucid)


def test_settings_changed_while_tracing(lucid):
    """With no set_graph_* filter and no option set, the callbacks take a fast path that just
    records; each setting, written while the tracer runs, must take it off that path at once
    (and back when cleared). set_ftrace_filter alone keeps the calls on the fast path."""
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer")
    NANOSLEEP = "do_nanosleep();"

    def call(cmd="ftest call"):
        ok(lucid, "echo > trace")
        ok(lucid, cmd)
        return cat(lucid, "trace")

    check_call(call())
    for setting, clear, shape in [
            ("echo 1 > max_graph_depth", "echo 0 > max_graph_depth", ["ftest_outer();"]),
            ("echo ftest_mid > set_graph_notrace", "echo > set_graph_notrace",
             ["ftest_outer();"]),
            # outer is not hooked, so mid is the outermost: depth 0
            ("echo ftest_mid > set_graph_function", "echo > set_graph_function",
             ["ftest_mid() {", "  ftest_leaf();", "}"]),
            ("echo 5000 > tracing_thresh", "echo 0 > tracing_thresh", []),
            ("echo 1 > set_ftrace_pid", "echo > set_ftrace_pid", [])]:
        ok(lucid, setting)
        text = call()
        assert [l.shape() for l in graph_lines(text)] == shape * 3, (setting, text)
        ok(lucid, clear)
        check_call(call())
    # sleep-time off: the time busybox's `sleep` spends asleep in do_nanosleep (its
    # nanosleep(2)) leaves its duration, and comes back with it on.
    ok(lucid, "echo do_nanosleep > set_ftrace_filter")

    def nanosleep_us():
        lines = graph_lines(call("sleep 0.1"))
        assert [l.shape() for l in lines] == [NANOSLEEP], lines
        return lines[0].us
    assert nanosleep_us() >= 100000
    ok(lucid, "echo 0 > options/sleep-time")
    assert least_of(nanosleep_us, 50000) < 50000
    ok(lucid, "echo 1 > options/sleep-time")
    assert nanosleep_us() >= 100000
    reset_tracing(lucid)


def test_set_graph_notrace(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo ftest_outer > set_graph_function")
    ok(lucid, "echo ftest_mid > set_graph_notrace")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest call")
    assert [l.shape() for l in graph_lines(cat(lucid, "trace"))] == ["ftest_outer();"] * 3
    # notrace on the leaf only: mid stays, and is a leaf now
    ok(lucid, "echo ftest_leaf > set_graph_notrace")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")
    assert [l.shape() for l in graph_lines(cat(lucid, "trace"))] == \
        ["ftest_outer() {", "  ftest_mid();", "}"] * 3
    reset_tracing(lucid)


def test_option_columns(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo ftest_outer > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest call")
    check_call(cat(lucid, "trace"))
    # funcgraph-proc: the task in a column of its own
    ok(lucid, "echo 1 > options/funcgraph-proc")
    text = cat(lucid, "trace")
    assert text.startswith("# tracer: function_graph\n#\n"
                           "# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
                           "# |     |    |           |   |                     |   |   |   |\n")
    lines = graph_lines(text)
    assert all(re.match(r"^ *ftest-\d+ *\| $", l.proc) for l in lines), text
    assert [l.shape() for l in lines] == CALL_SHAPE * 3
    ok(lucid, "echo 1 > options/funcgraph-abstime")
    text = cat(lucid, "trace")
    assert text.splitlines()[2] == \
        "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS"
    lines = graph_lines(text)
    times = [float(l.abs.split("|")[0]) for l in lines]
    assert [l.shape() for l in lines] == CALL_SHAPE * 3
    assert times == sorted(times) and times[0] > 0, text
    ok(lucid, "echo 0 > options/funcgraph-proc")
    ok(lucid, "echo 0 > options/funcgraph-abstime")
    # no CPU column
    ok(lucid, "echo 0 > options/funcgraph-cpu")
    text = cat(lucid, "trace")
    assert text.splitlines()[2:4] == ["#  DURATION                  FUNCTION CALLS",
                                      "#   |   |                     |   |   |   |"], text
    assert all(l.cpu is None for l in graph_lines(text)), text
    assert text.splitlines()[4] == "              |  ftest_outer() {", text
    # no duration column either: just the graph
    ok(lucid, "echo 0 > options/funcgraph-duration")
    text = cat(lucid, "trace")
    assert text == "# tracer: function_graph\n#\n#               FUNCTION CALLS\n" \
                   "#               |   |   |   |\n" + \
        "".join(s + "\n" for s in CALL_SHAPE * 3), text
    ok(lucid, "echo 1 > options/funcgraph-cpu")
    ok(lucid, "echo 1 > options/funcgraph-duration")
    # funcgraph-tail names every closing brace
    ok(lucid, "echo 1 > options/funcgraph-tail")
    lines = graph_lines(cat(lucid, "trace"))
    assert [l.shape() for l in lines] == [
        "ftest_outer() {", "  ftest_mid() {", "    ftest_leaf();", "  } /* ftest_mid */",
        "} /* ftest_outer */"] * 3
    ok(lucid, "echo 0 > options/funcgraph-tail")
    # funcgraph-overhead off: no marks, even for a long call
    ok(lucid, "echo 0 > options/funcgraph-overhead")
    ok(lucid, "echo ftest_delay > set_graph_function")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest delay 150")
    text = cat(lucid, "trace")
    lines = graph_lines(text, overhead=False)
    assert len(lines) == 1 and lines[0].us >= 150, text
    ok(lucid, "echo 1 > options/funcgraph-overhead")
    reset_tracing(lucid)


def test_tracing_thresh(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo 'ftest_*' > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest call")  # once, so that the next calls take their usual few microseconds
    # Milliseconds, so that a busy host does not push the short calls over it.
    ok(lucid, "echo 5000 > tracing_thresh")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")  # not recorded
    ok(lucid, "ftest delay 6000")
    ok(lucid, "ftest delay 20")
    text = cat(lucid, "trace")
    # Only the slow return, without its entry: the brace says whose it is.
    lines = graph_lines(text)
    assert len(lines) == 1, text
    assert lines[0].shape() == "} /* ftest_delay */" and lines[0].us >= 6000, text
    ok(lucid, "echo 0 > tracing_thresh")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest delay 20")
    assert [l.shape() for l in graph_lines(cat(lucid, "trace"))] == ["ftest_delay();"]
    reset_tracing(lucid)


def test_interrupt_nests_in_traced_function(lucid):
    """Timer interrupts arrive while ftest_delay busy-waits: each shows between arrows, one
    level deeper than ftest_delay, on its CPU; with funcgraph-irqs off they are not recorded."""
    reset_tracing(lucid)
    ok(lucid, "echo ftest_delay > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest delay 50000")  # 50 ms: about five ticks
    text = cat(lucid, "trace")
    ev = parse(text)
    assert isinstance(ev[0], Line) and ev[0].shape() == "ftest_delay() {", text
    assert isinstance(ev[-1], Line) and ev[-1].shape() == "}" and ev[-1].us >= 50000, text
    assert ev[-1].mark in "*@", text  # over 10 ms (and over 100 ms on a very busy host)
    cpu, inside, irqs = ev[0].cpu, False, 0
    for e in ev[1:-1]:
        if isinstance(e, Line):
            assert e.cpu == cpu and inside and e.depth >= 1, (e.text, text)
            if e.depth == 1:
                assert e.func in (None, "timer_interrupt"), (e.text, text)
        else:
            assert e[0] == "arrow" and e[2] == cpu, (e, text)
            assert inside == (e[1] == "<=========="), text
            inside = not inside
            irqs += e[1] == "==========>"
    assert not inside and irqs >= 2, text
    # Each interrupt is timer_interrupt() { ... } (or a leaf) at depth 1.
    shapes = [e.shape() for e in ev if isinstance(e, Line) and e.depth == 1]
    assert shapes.count("  timer_interrupt() {") + shapes.count("  timer_interrupt();") == irqs
    # funcgraph-irqs off: nothing of the interrupts, so ftest_delay is a leaf
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest delay 50000")
    text = cat(lucid, "trace")
    lines = graph_lines(text)
    assert len(lines) == 1 and lines[0].shape() == "ftest_delay();", text
    assert lines[0].us >= 50000 and lines[0].mark in "*@", text
    # ... and what was recorded with it on is hidden when it is turned off before reading
    ok(lucid, "echo 1 > options/funcgraph-irqs")
    ok(lucid, "echo > trace")
    ok(lucid, "ftest delay 50000")
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    lines = graph_lines(cat(lucid, "trace"))
    assert [l.shape() for l in lines] == ["ftest_delay() {", "}"], lines
    reset_tracing(lucid)


def test_trace_printk_and_marker_as_comments(lucid):
    """trace_printk and trace_marker messages print as C comments, one level deeper than the
    function open at that point (at top level, unindented, as Linux does)."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo cmd_ftest > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "ftest printk")
    ok(lucid, "echo hello > trace_marker")
    text = cat(lucid, "trace")
    ev = parse(text)
    lines = [e for e in ev if isinstance(e, Line)]
    assert [l.shape() for l in lines] == [
        "cmd_ftest() {", "  ftest_printk() {", "    /* ftrace test 42 */", "  }", "}",
        "/* hello */"], text
    # The marker comes from bash (echo is its builtin): on ftest's CPU, after a banner that
    # says so.
    banners = [e for e in ev if not isinstance(e, Line) and e[0] == "banner"]
    if lines[-1].cpu == lines[0].cpu:
        assert len(banners) == 1 and "ftest-" in banners[0][2] and "bash-" in banners[0][3]
    else:
        assert not banners, text
    reset_tracing(lucid)


# --- every function, on every CPU ----------------------------------------------------------------


def task_key(line):
    """The task of a line (funcgraph-proc): the idle tasks all have pid 0, one per CPU."""
    pid = line.proc.split("|")[0].strip().rsplit("-", 1)[1]
    return pid if pid != "0" else "0/" + line.cpu


def check_balanced(events):
    """Per task, in trace order: each "{" opens one level deeper than the open function, each
    leaf sits one deeper, and each "}" closes the innermost open function (named, with
    funcgraph-tail). A task's first lines may close functions entered before the trace began.
    Returns the number of pairs matched."""
    stacks, pairs = {}, 0
    for e in events:
        if not isinstance(e, Line):
            continue
        st = stacks.setdefault(task_key(e), [])
        if e.kind in ("open", "leaf") and st:
            assert e.depth == st[-1][0] + 1, (e.text, st[-3:])
        if e.kind == "open":
            st.append((e.depth, e.func))
        elif e.kind == "close" and st:
            assert st[-1] == (e.depth, e.func), (e.text, st[-3:])
            st.pop()
            pairs += 1
    return pairs


def stats(k, cpu):
    text = cat(k, "per_cpu/cpu%d/stats" % cpu)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^([a-z ]+): (\d+)$", text, re.M)}


def test_every_function_while_run_test_runs(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo function_graph > current_tracer")
    # Five seconds of the whole kernel traced, on 4 CPUs, the buffers overrunning.
    end, rounds = time.monotonic() + 5, 0
    while time.monotonic() < end or rounds < 3:
        out = sh(lucid, "run_test", timeout=300)
        assert out.endswith("ok\n"), out
        rounds += 1
    ok(lucid, "echo 0 > tracing_on")
    overruns = [stats(lucid, c)["overrun"] for c in range(ncpus(lucid))]
    assert sum(overruns) > 0, overruns
    text = sh(lucid, "cat %s/trace | head -4000" % T, timeout=300)
    assert text.startswith(HEADER), text[:1000]
    lines = graph_lines(text)
    assert len(lines) > 3000, text[-2000:]
    # Now a shorter run_test that fits in (bigger) buffers: every line of it, with tasks
    # and names.
    ok(lucid, "echo 1 > options/funcgraph-proc")
    ok(lucid, "echo 1 > options/funcgraph-tail")
    ok(lucid, "echo 2816 > buffer_size_kb")
    ok(lucid, "echo 1 > tracing_on")
    out = sh(lucid, "run_test -r 10", timeout=300)
    assert out.endswith("ok\n"), out
    ok(lucid, "echo 0 > tracing_on")
    for c in range(ncpus(lucid)):
        s = stats(lucid, c)
        assert s["overrun"] == 0 and s["dropped events"] == 0 and s["commit overrun"] == 0, s
    text = sh(lucid, "cat %s/trace" % T, timeout=600)
    events = parse(text)
    lines = [e for e in events if isinstance(e, Line)]
    assert len(lines) > 5000, text[-3000:]
    assert any(e[0] == "banner" for e in events if not isinstance(e, Line))
    assert any(e[0] == "arrow" for e in events if not isinstance(e, Line))
    assert {"rt_worker_main", "schedule", "timer_interrupt"} <= {l.func for l in lines}
    assert any(re.match(r"^ *run_tes-\d+ *\| $", l.proc) for l in lines)
    assert check_balanced(events) > 1000
    assert "Kernel panic" not in sh(lucid, "dmesg") and "Oops" not in sh(lucid, "dmesg")
    reset_tracing(lucid)


def test_set_graph_function_entered_with_tracing_off(lucid):
    """tests/user/graphon: a vfs_write entered while tracing is off records nothing and is not
    hooked for its return; what the task calls after it, outside any vfs_write, must not be
    traced as if inside one (every top-level call is vfs_write), and the next vfs_write is."""
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo vfs_write > set_graph_function")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "graphon")
    ok(lucid, "echo 0 > tracing_on")
    text = cat(lucid, "trace")
    top = re.findall(r"\|  (\w+)\(\)", text)  # depth 0: two blanks after the bar
    assert top and set(top) == {"vfs_write"}, text[:3000]
    reset_tracing(lucid)

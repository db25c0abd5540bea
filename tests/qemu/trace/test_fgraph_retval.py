"""function_graph beyond Linux 6.1: return values (funcgraph-retval, funcgraph-retval-hex, Linux
6.5's format), return addresses (funcgraph-retaddr, 6.13) and arguments (funcgraph-args, and the
function tracer's func-args, 6.15's format, with the names and types of the build's table).

ftest's functions return known values of their one argument (kernel/debug/ftest.c):
ftest_outer(x) = ftest_mid(2x) + 2, ftest_mid(x) = ftest_leaf(x + 1) + 1, ftest_leaf(x) = 3x + 1,
and `ftest call` calls ftest_outer(0), (1), (2). So every value on every line is checked exactly.
A failing open from bash shows -ENOENT climbing back up the graph.
"""
import os
import re
import tempfile

from tracefs import T, cat, ok, reset_tracing, sh
from test_function_graph import ARROW, BANNER, DASHES, GRAPH_LINE
from test_dynamic import PRINTK_LINE, assert_same_report, host_report

SHARE = tempfile.mkdtemp(prefix="lucid-fgraph-")
BOOT = {"timeout": 120, "share": SHARE}

# The openat system call's function (Linux's __x64_sys_openat, then do_sys_openat2).
OPENAT = "sys_openat"
MISSING = "/nonexistent/file"
ENOENT = 2


def bodies(text):
    """(depth, body) of each function line of a function_graph trace (banners and arrows are
    checked against their format and left out)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip() or line == DASHES:
            continue
        if BANNER.match(line) or ARROW.match(line):
            continue
        m = GRAPH_LINE.match(line)
        assert m, "malformed line %r" % line
        assert len(m.group("indent")) % 2 == 0, line
        out.append((len(m.group("indent")) // 2, m.group("body")))
    return out


def ftest_values():
    """(x, mid's x, leaf's x, leaf, mid, outer) for each of `ftest call`'s three calls."""
    out = []
    for x in range(3):
        leaf_x = 2 * x + 1
        leaf = 3 * leaf_x + 1
        out.append((x, 2 * x, leaf_x, leaf, leaf + 1, leaf + 3))
    return out


def ftest_graph(k, options):
    """`ftest call` under function_graph on ftest_outer, with these options on."""
    reset_tracing(k)
    ok(k, "echo 0 > options/funcgraph-irqs")  # no interrupt in the middle, by chance
    ok(k, "echo ftest_outer > set_graph_function")
    ok(k, "echo function_graph > current_tracer")
    for opt in options:
        ok(k, "echo 1 > options/%s" % opt)
    ok(k, "ftest call")
    ok(k, "echo 0 > tracing_on")
    return cat(k, "trace")


def test_options_exist_off(lucid):
    reset_tracing(lucid)
    for opt in ["funcgraph-retval", "funcgraph-retval-hex", "funcgraph-retaddr",
                "funcgraph-args", "func-args"]:
        assert cat(lucid, "options/%s" % opt) == "0\n", opt
    ok(lucid, "echo function > current_tracer")
    assert cat(lucid, "trace_options").splitlines()[-2:] == ["nofunc_stack_trace",
                                                             "nofunc-args"]
    reset_tracing(lucid)


def test_return_values(lucid):
    text = ftest_graph(lucid, ["funcgraph-retval"])
    want = []
    for x, mid_x, leaf_x, leaf, mid, outer in ftest_values():
        want += [(0, "ftest_outer() {"), (1, "ftest_mid() {"),
                 (2, "ftest_leaf(); /* = 0x%x */" % leaf), (1, "} /* ftest_mid = 0x%x */" % mid),
                 (0, "} /* ftest_outer = 0x%x */" % outer)]
    assert bodies(text) == want, text
    # How values print is chosen when the trace is read: hex is the same for these, and
    # without funcgraph-retval the lines are 6.1's again (funcgraph-retval-hex alone adds none).
    ok(lucid, "echo 1 > options/funcgraph-retval-hex")
    assert cat(lucid, "trace") == text
    ok(lucid, "echo 0 > options/funcgraph-retval")
    plain = [(d, re.sub(r" /\* .* \*/$", "", b)) for d, b in want]
    assert bodies(cat(lucid, "trace")) == plain
    reset_tracing(lucid)


def openat_calls(text):
    """Each sys_openat call of the trace: its lines, from "sys_openat() {" to its brace."""
    calls, cur = [], None
    for depth, body in bodies(text):
        if depth == 0 and body.startswith(OPENAT + "("):
            cur = []
        if cur is not None:
            cur.append((depth, body))
            if depth == 0 and body.startswith("}"):
                calls.append(cur)
                cur = None
    return calls


def test_enoent_climbs_back_from_bash(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo %s > set_graph_function" % OPENAT)
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "echo 1 > options/funcgraph-retval")
    ok(lucid, "echo 1 > options/funcgraph-proc")
    out = lucid.run("bash -c ': < %s'; echo status=$?" % MISSING)
    assert "No such file or directory" in out and "status=1" in out, out
    ok(lucid, "echo 0 > tracing_on")
    text = cat(lucid, "trace")
    failed = [c for c in openat_calls(text) if c[-1][1] == "} /* %s = -%d */" % (OPENAT, ENOENT)]
    assert failed, text
    # bash's own open: the task column names it.
    lines = [l for l in text.splitlines() if ("} /* %s = -%d */" % (OPENAT, ENOENT)) in l]
    assert any(re.search(r"\) +bash-\d+ +\|", l) for l in lines), lines
    # The error comes from deep down and climbs: a brace returning -2 at every depth from the
    # one where it starts to sys_openat's, each shallower one after the deeper one.
    call = failed[0]
    errs = [(i, d) for i, (d, b) in enumerate(call)
            if re.fullmatch(r"\} /\* \w+ = -%d \*/" % ENOENT, b)]
    deepest = max(d for _, d in errs)
    assert deepest >= 3, call
    last = -1
    for depth in range(deepest, -1, -1):
        at = [i for i, d in errs if d == depth and i > last]
        assert at, (depth, call)
        last = at[0]
    # funcgraph-retval-hex: the same value as the register held it (sys_openat returns long).
    ok(lucid, "echo 1 > options/funcgraph-retval-hex")
    assert "} /* %s = 0xfffffffffffffffe */" % OPENAT in cat(lucid, "trace")
    reset_tracing(lucid)


RETADDR = r"<-(?P<caller>\w+)\+0x(?P<off>[0-9a-f]+)/0x(?P<size>[0-9a-f]+)"


def check_retaddr(b, caller=None):
    m = re.search(RETADDR, b)
    assert m, b
    assert 0 < int(m.group("off"), 16) < int(m.group("size"), 16), b
    if caller:
        assert m.group("caller") == caller, b
    return m.group("caller")


def test_return_addresses(lucid):
    text = ftest_graph(lucid, ["funcgraph-retaddr"])
    got = bodies(text)
    assert len(got) == 15, text
    outer_callers = set()
    for i in range(0, 15, 5):
        (d0, outer), (d1, mid), (d2, leaf), (d3, mid_end), (d4, outer_end) = got[i:i + 5]
        assert (d0, d1, d2, d3, d4) == (0, 1, 2, 1, 0), text
        assert re.fullmatch(r"ftest_outer\(\) \{ /\* %s \*/" % RETADDR, outer), outer
        outer_callers.add(check_retaddr(outer))
        assert re.fullmatch(r"ftest_mid\(\) \{ /\* %s \*/" % RETADDR, mid), mid
        check_retaddr(mid, "ftest_outer")
        assert re.fullmatch(r"ftest_leaf\(\); /\* %s \*/" % RETADDR, leaf), leaf
        check_retaddr(leaf, "ftest_mid")
        # As Linux 6.13: with funcgraph-retaddr every brace names its function.
        assert (mid_end, outer_end) == ("} /* ftest_mid */", "} /* ftest_outer */"), text
    assert len(outer_callers) == 1 and "ftest_" not in outer_callers.pop(), text
    # Recorded with the entry: turned off, the address is no longer printed.
    ok(lucid, "echo 0 > options/funcgraph-retaddr")
    assert "<-" not in cat(lucid, "trace")
    reset_tracing(lucid)


def test_arguments(lucid):
    text = ftest_graph(lucid, ["funcgraph-args"])
    want = []
    for x, mid_x, leaf_x, leaf, mid, outer in ftest_values():
        want += [(0, "ftest_outer(x=%d) {" % x), (1, "ftest_mid(x=%d) {" % mid_x),
                 (2, "ftest_leaf(x=%d);" % leaf_x), (1, "}"), (0, "}")]
    assert bodies(text) == want, text


def test_arguments_return_values_and_addresses_together(lucid):
    text = ftest_graph(lucid, ["funcgraph-args", "funcgraph-retval", "funcgraph-retaddr"])
    got = bodies(text)
    assert len(got) == 15, text
    for i, (x, mid_x, leaf_x, leaf, mid, outer) in enumerate(ftest_values()):
        o, m, l, me, oe = [b for _, b in got[5 * i:5 * i + 5]]
        assert re.fullmatch(r"ftest_outer\(x=%d\) \{ /\* %s \*/" % (x, RETADDR), o), o
        assert re.fullmatch(r"ftest_mid\(x=%d\) \{ /\* %s \*/" % (mid_x, RETADDR), m), m
        assert re.fullmatch(r"ftest_leaf\(x=%d\); /\* %s = 0x%x \*/" % (leaf_x, RETADDR, leaf),
                            l), l
        check_retaddr(l, "ftest_mid")
        assert (me, oe) == ("} /* ftest_mid = 0x%x */" % mid, "} /* ftest_outer = 0x%x */" % outer)
    reset_tracing(lucid)


def test_openat_arguments_from_bash(lucid):
    # sys_openat(int dfd, const char __user *filename, int flags, umode_t mode): the int -100
    # (AT_FDCWD) prints as -100, the pointer in hex, the rest in decimal.
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/funcgraph-irqs")
    ok(lucid, "echo %s > set_graph_function" % OPENAT)
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "echo 1 > options/funcgraph-args")
    ok(lucid, "echo 1 > options/funcgraph-retval")
    lucid.run("bash -c ': < %s'" % MISSING)
    ok(lucid, "echo 0 > tracing_on")
    calls = openat_calls(cat(lucid, "trace"))
    heads = [c[0][1] for c in calls if c[-1][1] == "} /* %s = -%d */" % (OPENAT, ENOENT)]
    assert heads, calls
    assert re.fullmatch(r"%s\(dfd=-100, filename=0x[0-9a-f]+, flags=\d+, mode=\d+\) \{"
                        % OPENAT, heads[0]), heads
    reset_tracing(lucid)


def test_function_tracer_func_args(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo ftest_leaf > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "echo 1 > options/func-args")
    ok(lucid, "ftest call")
    # Off while the tracer runs: the callback changes, later calls carry no arguments.
    ok(lucid, "echo 0 > options/func-args")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    lines = [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    calls = [re.search(r": (ftest_leaf.*)$", l).group(1) for l in lines]
    leaf_xs = [v[2] for v in ftest_values()]
    assert calls == (["ftest_leaf(x=%d) <-ftest_mid" % x for x in leaf_xs]
                     + ["ftest_leaf <-ftest_mid"] * 3), lines
    # The file's readers print what was recorded whatever the option says now.
    ok(lucid, "echo nop > current_tracer")
    reset_tracing(lucid)


def test_trace_cmd_reads_recordings_with_the_new_options(lucid):
    # Recorded in Lucid with every new option on: trace-cmd report (in Lucid and on the host)
    # reads the longer entries and the return values' field, and pairs the graph as before.
    out = PRINTK_LINE.sub("", lucid.run(
        "cd /tmp; trace-cmd record -p function_graph -g ftest_outer -O funcgraph-retval "
        "-O funcgraph-args -O funcgraph-retaddr -F recwait ftest call", 180))
    assert lucid.status() == 0, out
    report = PRINTK_LINE.sub("", lucid.run("trace-cmd report", 120))
    assert lucid.status() == 0, report
    for name in ["ftest_outer", "ftest_mid"]:
        assert re.search(r"funcgraph_entry: +\| +%s\(\) \{$" % name, report, re.M), report
    assert re.search(r"funcgraph_entry: .*\| +ftest_leaf\(\);$", report, re.M), report
    ok(lucid, "cp /tmp/trace.dat /mnt/host/fgraph.dat; rm /tmp/trace.dat; trace-cmd reset; cd /")
    host, squeezed = host_report(os.path.join(SHARE, "fgraph.dat"))
    assert_same_report(host, report, squeezed)
    ok(lucid, "echo 1408 > %s/buffer_size_kb" % T)
    assert sh(lucid, "cat %s/current_tracer" % T) == "nop\n"

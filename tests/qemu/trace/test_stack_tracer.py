"""The stack tracer's files: stack_trace, stack_max_size, stack_trace_filter."""
import re

ROW = re.compile(r"^ *(\d+)\) +(\d+) +(\d+)   (\S+)\+0x[0-9a-f]+/0x[0-9a-f]+$")


def test_disabled_help_and_errors(lucid):
    lucid.run("cd /sys/kernel/debug/tracing")
    assert lucid.run("cat /proc/sys/kernel/stack_tracer_enabled") == "0\n"
    assert lucid.run("cat stack_max_size") == "0\n"
    out = lucid.run("cat stack_trace")
    assert out.startswith("        Depth    Size   Location    (0 entries)\n"
                          "        -----    ----   --------\n#\n#  Stack tracer disabled\n"), out
    assert "write error: Invalid argument" in lucid.run("echo x > stack_max_size")
    assert lucid.run("cat stack_max_size") == "0\n"


def test_deep_chain_is_recorded(lucid):
    lucid.run("cd /sys/kernel/debug/tracing")
    lucid.run("echo 1 > /proc/sys/kernel/stack_tracer_enabled")
    lucid.run("ftest stack")
    lucid.run("echo 0 > /proc/sys/kernel/stack_tracer_enabled")
    size = int(lucid.run("cat stack_max_size"))
    out = lucid.run("cat stack_trace").splitlines()
    m = re.match(r"^        Depth    Size   Location    \((\d+) entries\)$", out[0])
    assert m and out[1] == "        -----    ----   --------", out[:2]
    rows = [ROW.match(l) for l in out[2:]]
    assert all(rows) and len(rows) == int(m.group(1)), out
    depths = [int(r.group(2)) for r in rows]
    sizes = [int(r.group(3)) for r in rows]
    assert depths[0] == size > 12 * 256
    assert all(a > b for a, b in zip(depths, depths[1:]))
    assert sizes == [a - b for a, b in zip(depths, depths[1:])] + [depths[-1]]
    # With every function traced, the deepest stack may be anywhere: it must be at least
    # as deep as ftest's chain, which is in this run.
    lucid.run("echo 0 > stack_max_size")
    assert lucid.run("cat stack_max_size") == "0\n"


def test_stack_trace_filter(lucid):
    """stack_trace_filter: the stack is checked only in those functions, so the deepest stack
    is the one seen on entering ftest_stack_deep; empty again means every function."""
    lucid.run("cd /sys/kernel/debug/tracing")
    assert lucid.run("cat stack_trace_filter") == "#### all functions enabled ####\n"
    assert lucid.run("echo 'ftest_stack*' > stack_trace_filter") == ""
    assert lucid.run("cat stack_trace_filter") == "ftest_stack_deep\nftest_stack\n"
    assert "write error: Invalid argument" in lucid.run("echo nosuch > stack_trace_filter")
    # Commands are parsed here too, but the stack tracer's ops have no trace array: Linux's
    # callbacks (ftrace_trace_onoff_callback ...) answer ENODEV; an unknown command is EINVAL.
    for cmd in ["ftest_leaf:traceoff", "ftest_leaf:stacktrace:2", "!ftest_leaf:traceon"]:
        assert lucid.run("echo '%s' > stack_trace_filter" % cmd) == \
            "-bash: echo: write error: No such device\n", cmd
    assert "write error: Invalid argument" in lucid.run(
        "echo 'ftest_leaf:nosuch' > stack_trace_filter")
    assert lucid.run("cat stack_trace_filter") == "ftest_stack_deep\nftest_stack\n"
    assert lucid.run("echo 0 > stack_max_size") == ""
    lucid.run("echo 1 > /proc/sys/kernel/stack_tracer_enabled")
    lucid.run("ftest call")
    assert lucid.run("cat stack_max_size") == "0\n"  # ftest_leaf and co. are not checked
    lucid.run("ftest stack")
    lucid.run("echo 0 > /proc/sys/kernel/stack_tracer_enabled")
    out = lucid.run("cat stack_trace").splitlines()
    rows = [ROW.match(l) for l in out[2:]]
    assert all(rows) and rows, out
    assert rows[0].group(4) == "ftest_stack_deep", out[:4]  # where the deepest check was
    assert int(lucid.run("cat stack_max_size")) == int(rows[0].group(2))
    assert lucid.run("echo > stack_trace_filter") == ""
    assert lucid.run("cat stack_trace_filter") == "#### all functions enabled ####\n"

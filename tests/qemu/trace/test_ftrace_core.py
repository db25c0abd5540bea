"""Dynamic ftrace's patching layer: boot conversion, the self-test, and `callsite`."""
import re

BOOT = {"cmdline": "ftrace_selftest"}


def log(lucid):
    """The kernel's log (dmesg): info lines no longer reach the console."""
    return lucid.run("dmesg")


def test_boot_converts_sites(lucid):
    out = lucid.dmesg()
    m = re.search(r"ftrace: allocating (\d+) entries in (\d+) pages", out)
    assert m and int(m.group(1)) > 50, out
    assert "ftrace: converting mcount calls to 0f 1f 44 00 00" in out
    assert re.search(r"ftrace: \d+ call sites converted to NOPs in \d+ us", out), out
    assert "is not a call to __fentry__" not in out


def test_selftest_passes(lucid):
    log = lucid.dmesg()
    assert "Testing dynamic ftrace: PASSED" in log, log
    assert "Testing ftrace regs: PASSED" in log, log
    assert "Testing function graph hook: PASSED" in log, log
    assert "Testing stack tracer: PASSED" in log, log
    assert "Testing function profiler: PASSED" in log, log


def test_callsite_shows_nop(lucid):
    out = lucid.run("callsite ftest_leaf")
    assert re.match(r"ftest_leaf at ffffffff8[0-9a-f]{7}: 0f 1f 44 00 00  nop \(refcount 0\)\n$",
                    out), out
    assert "not a call site" in lucid.run("callsite ftrace_init")  # the tracer is notrace
    assert "no such function" in lucid.run("callsite no_such_fn")
    assert lucid.status() == 1

"""Fault injection (fail_kmalloc=N, fail_page_alloc=N): failing allocations never oops, never
leak, and a tracing file whose write fails for want of memory reads as it did before.

Each test boots a kernel of its own. With every Nth allocation failing, any command may fail:
the shell says `sh: Cannot allocate memory` when it cannot start one, a command reports
`cat: ...: Cannot allocate memory`, a write `sh: echo: write error: Cannot allocate memory`.
Reads are retried until they succeed, so every failed write is checked against the file's value
before it.
"""
import re

from lucid import Lucid

T = "/sys/kernel/debug/tracing"
ENOMEM = "Cannot allocate memory"
RETRIES = 60

# (file, value written): state-changing writes, each followed by a read of the file.
WRITES = [
    ("current_tracer", "function"),
    ("set_ftrace_filter", "'ftest_*'"),
    ("set_ftrace_notrace", "ftest_leaf"),
    ("buffer_size_kb", "2048"),
    ("trace_clock", "global"),
    ("trace_options", "nosym-offset"),
    ("set_ftrace_pid", "1"),
    ("saved_cmdlines_size", "64"),
    ("tracing_on", "0"),
    ("current_tracer", "nop"),
    ("set_ftrace_filter", ""),
    ("set_ftrace_notrace", ""),
    ("buffer_size_kb", "1408"),
    ("trace_clock", "local"),
    ("trace_options", "sym-offset"),
    ("set_ftrace_pid", ""),
    ("saved_cmdlines_size", "128"),
    ("tracing_on", "1"),
]
ALLOWED_FAILURES = re.compile(r"^(sh: )?(\S+: |echo: write error: )?%s\n$" % ENOMEM)


def run_rc(lucid, cmd):
    """(output, status) of cmd; status None when the shell could not even run the line.

    A command that fails must say why: a non-zero status with no message is a silent failure,
    the kind of bug fault injection is here to find."""
    out = lucid.run("%s; echo rc=$?" % cmd, timeout=60)
    m = re.search(r"(?:^|\n)rc=(\d+)\n$", out)
    if not m:  # the shell could not run `echo rc=$?`: it must say so
        last = out.splitlines(True)[-1] if out else ""
        assert ALLOWED_FAILURES.match(last), "%r: %r" % (cmd, out)
        return out, None
    out, rc = out[:m.start() + (1 if out[m.start()] == "\n" else 0)], int(m.group(1))
    assert rc == 0 or ENOMEM in out, "%r failed silently (status %d): %r" % (cmd, rc, out)
    return out, rc


def until_ok(lucid, cmd):
    """Runs cmd until it succeeds (the injection hits some other allocation next time)."""
    for attempt in range(RETRIES):
        out, rc = run_rc(lucid, cmd)
        if rc == 0:
            return out
        # The interval is exact: a line making as many allocations as the interval would
        # fail at the same one every time. Something in between shifts the phase.
        lucid.run("true" + " x" * (attempt % 4), timeout=60)
    raise AssertionError("%r never got through: %r" % (cmd, out))


def read(lucid, name):
    return until_ok(lucid, "cat %s/%s" % (T, name))


def write_round(lucid, counts, tries=RETRIES):
    """Each write of WRITES until it succeeds or tries run out (a buffer resize makes hundreds
    of allocations: under injection it may never get through); each failure must leave the
    file as it was."""
    for name, value in WRITES:
        for _ in range(tries):
            before = read(lucid, name)
            out, rc = run_rc(lucid, "echo %s > %s/%s" % (value, T, name))
            if rc == 0:
                assert out == "", out
                counts["ok"] += 1
                break
            if rc is None:
                continue  # the write's own status is unknown: start again
            assert ALLOWED_FAILURES.match(out), "echo %s > %s: %r" % (value, name, out)
            counts["enomem"] += 1
            after = read(lucid, name)
            assert after == before, "failed write to %s changed it: %r -> %r" % (
                name, before, after)
        else:
            assert tries < RETRIES, "echo %s > %s never succeeded" % (value, name)
        # Some life in the buffer: the tracer runs while allocations fail.
        run_rc(lucid, "ftest call")


def settle_and_measure(lucid):
    """32 distinct lines fill the shell's history the same way each time; then MemFree."""
    for i in range(32):
        out = lucid.run("true %d" % i)
        assert out == "", "true: %r" % out
    out = lucid.run("cat /proc/meminfo")
    return int(re.search(r"^MemFree:\s+(\d+) kB$", out, re.M).group(1))


def set_interval(lucid, name, n):
    until_ok(lucid, "echo %d > /proc/sys/kernel/%s" % (n, name))
    assert until_ok(lucid, "cat /proc/sys/kernel/%s" % name) == "%d\n" % n


def run_under_injection(cmdline, name, interval):
    lucid = Lucid(cmdline=cmdline, timeout=90)
    counts = {"ok": 0, "enomem": 0}
    try:
        assert re.search(r"fault injection: fail_kmalloc=\d+ fail_page_alloc=\d+ from now on",
                         lucid.boot_output), lucid.boot_output[-2000:]
        set_interval(lucid, name, 0)
        write_round(lucid, counts)  # warm up: whatever is made once is made now
        free_before = settle_and_measure(lucid)
        set_interval(lucid, name, interval)
        for _ in range(3):
            write_round(lucid, counts, tries=8)
        set_interval(lucid, name, 0)
        write_round(lucid, counts)  # and back to where the warm-up left things
        free_after = settle_and_measure(lucid)
        assert lucid.alive() and "Kernel panic" not in lucid.tail(100000), lucid.tail()
    finally:
        lucid.close()
    print("  %s=%d: %d writes, %d refused with ENOMEM, MemFree %d -> %d kB" % (
        name, interval, counts["ok"] + counts["enomem"], counts["enomem"], free_before,
        free_after))
    assert counts["enomem"] > 0, "the injection never hit a tracing write"
    assert counts["ok"] > 2 * len(WRITES), "too few writes got through"
    assert free_after == free_before, (free_before, free_after)


def test_fail_kmalloc():
    run_under_injection("fail_kmalloc=60", "fail_kmalloc", 60)


def test_fail_page_alloc():
    run_under_injection("fail_page_alloc=23", "fail_page_alloc", 23)


def test_sysctl_refuses_garbage():
    lucid = Lucid()
    try:
        for bad in ["abc", "-1", "1000000001", ""]:
            out = lucid.run("echo %s > /proc/sys/kernel/fail_kmalloc" % bad)
            assert out == "sh: echo: write error: Invalid argument\n", (bad, out)
        assert lucid.run("cat /proc/sys/kernel/fail_kmalloc") == "0\n"
        assert lucid.run("cat /proc/sys/kernel/fail_page_alloc") == "0\n"
    finally:
        lucid.close()

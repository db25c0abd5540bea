"""Every CPU online, tasks and the scheduler."""
import re
import time

from lucid import Lucid

# Run with no other test file beside it (tests/run_tests.py --jobs):
# lock stress on every CPU, and a sleep timed against the host's clock.
ALONE = True

RUN_TEST_LINE = (r"run_test: (\d+) threads x (\d+) rounds on (\d+) CPUs: counter (\d+)/(\d+), "
                 r"(\d+) wakeups, rounds per CPU:([\d ]+), (\d+) CPUs used, ok")


def boot_count(n):
    k = Lucid(smp=n)
    try:
        log = k.dmesg()
        assert "smp: Brought up %d CPU" % n in log, log
        assert re.search(r"\(x86_64\): %d CPUs?," % n, log), log
        ps = k.run("ps")
        idle = re.findall(r"^\s*0\s+(\d+)\s+kernel\s+\w\s+swapper/(\d+)$", ps, re.M)
        assert sorted(int(c) for c, _ in idle) == list(range(n)), ps
        assert all(c == name for c, name in idle), ps
        assert re.search(r"^\s*\d+\s+\d+\s+kernel\s+\w\s+sh$", ps, re.M), ps
    finally:
        k.close()


def test_boot_1_cpu():
    boot_count(1)


def test_boot_2_cpus():
    boot_count(2)


def test_boot_8_cpus():
    boot_count(8)


def test_ps_has_idle_per_cpu(lucid):
    ps = lucid.run("ps")
    assert ps.splitlines()[0].split() == ["PID", "CPU", "TYPE", "STATE", "COMM"], ps
    for c in range(4):
        assert re.search(r"^\s*0\s+%d\s+kernel\s+R\s+swapper/%d$" % (c, c), ps, re.M), ps


def test_run_test_50_times(lucid):
    used = set()
    for i in range(50):
        out = lucid.run("run_test", timeout=30)
        m = re.match(RUN_TEST_LINE, out)
        assert m, "round %d: %r" % (i, out)
        assert m.group(4) == m.group(5)
        per_cpu = [int(x) for x in m.group(7).split()]
        assert len(per_cpu) == 4 and sum(per_cpu) == int(m.group(1)) * int(m.group(2))
        used.update(c for c, n in enumerate(per_cpu) if n)
        assert lucid.status() == 0
    assert len(used) >= 3, "run_test's threads should spread over the CPUs: %s" % used


def test_lock_stress(lucid):
    out = lucid.run("run_test -t 32 -r 40", timeout=120)
    m = re.match(RUN_TEST_LINE, out)
    assert m, out
    assert int(m.group(4)) == 1280 == int(m.group(5))


def test_no_warning_after_stress(lucid):
    """The scheduler's and the locks' invariant checks (kernel/sched/lockdep.h) held through the
    wakeups, migrations and lock handoffs above."""
    out = lucid.run("dmesg")
    assert "WARNING:" not in out, out


def test_taskset(lucid):
    for c in range(4):
        assert lucid.run("taskset -c %d whichcpu" % c) == "%d\n" % c
    assert lucid.run("taskset 8 whichcpu") == "3\n"
    out = lucid.run("taskset -c 9 whichcpu")
    assert "usage" in out and lucid.status() == 1


def test_sleep_duration(lucid):
    t0 = time.monotonic()
    lucid.run("sleep 0.5")
    elapsed = time.monotonic() - t0
    assert 0.5 <= elapsed < 5, elapsed
    a = float(lucid.run("uptime"))
    lucid.run("sleep 1")
    b = float(lucid.run("uptime"))
    assert 1.0 <= b - a < 3, (a, b)
    assert "usage" in lucid.run("sleep x")


def test_crash_stack_hits_guard_page():
    k = Lucid()
    try:
        k.send_line("crash stack")
        assert k.wait_exit(60) == 3
        out = k.tail(20000)
        assert re.search(r"BUG: stack guard page was hit at ffffc9", out), out
        assert "kernel stack overflow (double-fault)" in out
        assert re.search(r" crash_stack\+0x", out)
    finally:
        k.close()

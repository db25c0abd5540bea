"""Every CPU online, tasks and the scheduler."""
import re
import time

from lucid import Lucid


RUN_TEST_LINE = (r"run_test: (\d+) threads x (\d+) rounds on (\d+) CPUs: counter (\d+)/(\d+), "
                 r"(\d+) wakeups, rounds per CPU:([\d ]+), (\d+) CPUs used, ok")


def boot_count(n):
    k = Lucid(smp=n)
    try:
        log = k.dmesg()
        assert "smp: Brought up %d CPU" % n in log, log
        assert re.search(r"\(x86_64\): %d CPUs?," % n, log), log
        ps = k.run("ps")
        # An idle task on each CPU (the trace's, busybox's ps lists no pid 0), and the shell
        idle = idle_tasks(k, n)
        assert idle == {c: "swapper/%d" % c for c in range(n)}, idle
        assert re.search(r"^\s*\d+\s+root\s+-bash$", ps, re.M), ps
    finally:
        k.close()


def test_boot_1_cpu():
    boot_count(1)


def test_boot_2_cpus():
    boot_count(2)


def test_boot_8_cpus():
    boot_count(8)


T = "/sys/kernel/tracing"
IDLE_TRIES = 20  # run_test runs at most this often until every CPU was seen going idle
SWITCH = re.compile(r"^ *\S.*-\d+ +\[(\d{3})\] .* sched_switch: prev_comm=(\S+) prev_pid=(\d+) "
                    r".* next_comm=(\S+) next_pid=(\d+) ", re.M)


def idle_tasks(k, ncpus):
    """{cpu: the name of pid 0 there}, each CPU's idle task as sched_switch sees it: Linux's ps
    (busybox's here) never lists pid 0, the trace does. run_test's threads spread over the CPUs
    and sleep, so the CPUs switch to and from their idle tasks; it runs until every CPU has."""
    seen = {}
    k.run("echo 1 > %s/events/sched/sched_switch/enable" % T)
    try:
        for _ in range(IDLE_TRIES):
            # and a task on each CPU by name: how run_test's threads spread is the
            # scheduler's (and a loaded host's) choice, this switch to and from idle is not
            k.run("echo > %s/trace; run_test -t 8 -r 4 > /dev/null; for c in $(seq 0 %d); do "
                  "taskset -c $c true; done" % (T, ncpus - 1), timeout=60)
            for m in SWITCH.finditer(k.run("cat %s/trace" % T, timeout=60)):
                cpu = int(m.group(1))
                for comm, pid in ((m.group(2), m.group(3)), (m.group(4), m.group(5))):
                    if pid == "0":
                        assert seen.setdefault(cpu, comm) == comm, (cpu, seen[cpu], comm)
            if len(seen) == ncpus:
                break
    finally:
        k.run("echo 0 > %s/events/sched/sched_switch/enable; echo > %s/trace" % (T, T))
    return seen


def test_ps_has_idle_per_cpu(lucid):
    # One idle task per CPU, pid 0, named swapper/N after its CPU, as Linux's are.
    assert idle_tasks(lucid, 4) == {c: "swapper/%d" % c for c in range(4)}
    # And ps lists the processes: init, and the shell typed at (bash's login shell is "-bash").
    ps = lucid.run("ps")
    assert ps.splitlines()[0].split() == ["PID", "USER", "COMMAND"], ps
    assert re.search(r"^\s*1\s+root\s+/sbin/init$", ps, re.M), ps
    assert re.search(r"^\s*\d+\s+root\s+-bash$", ps, re.M), ps


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


def lock_stress(k):
    out = k.run("run_test -t 32 -r 40", timeout=120)
    m = re.match(RUN_TEST_LINE, out)
    assert m, out
    assert int(m.group(4)) == 1280 == int(m.group(5))


def test_lock_stress(lucid):
    # Under QEMU the spin locks are test-and-set, as Linux's virt_spin_lock() in a guest
    # (kernel/locking/spinlock.h says why).
    assert "spinlock: test-and-set, under a hypervisor (virt_spin_lock)\n" in lucid.dmesg()
    lock_stress(lucid)


def test_lock_stress_with_ticket_locks():
    """nopvspin keeps the fair ticket lock in a guest, as on real hardware: the same stress,
    and the checks of the locks and the scheduler hold with it too."""
    k = Lucid(cmdline="nopvspin")
    try:
        assert 'spinlock: ticket lock, forced by "nopvspin"\n' in k.dmesg()
        lock_stress(k)
        out = k.run("run_test", timeout=60)
        assert re.match(RUN_TEST_LINE, out), out
        out = k.dmesg()
        assert "WARNING:" not in out, out
    finally:
        k.close()


def test_no_warning_after_stress(lucid):
    """The scheduler's and the locks' invariant checks (kernel/locking/lockdep.h) held through the
    wakeups, migrations and lock handoffs above."""
    out = lucid.run("dmesg")
    assert "WARNING:" not in out, out


# The CPU a process last ran on: field 39 of /proc/PID/stat (proc(5)), read by cut itself.
WHICHCPU = "cut -d' ' -f39 /proc/self/stat"


def test_taskset(lucid):
    """busybox's taskset: sched_setaffinity pins what it execs (and that one's children)."""
    for c in range(4):
        assert lucid.run("taskset -c %d %s" % (c, WHICHCPU)) == "%d\n" % c
    assert lucid.run("taskset 8 %s" % WHICHCPU) == "3\n"
    assert lucid.run("taskset -c 2 sh -c \"%s\"" % WHICHCPU) == "2\n"  # fork keeps the mask
    assert lucid.run("taskset -c 1,3 grep Cpus_allowed_list /proc/self/status") == \
        "Cpus_allowed_list:\t1,3\n"
    # No such CPU: Linux's EINVAL, in busybox's words
    assert lucid.run("taskset -c 9 %s" % WHICHCPU) == \
        "taskset: can't set pid 0's affinity: Invalid argument\n"
    assert lucid.status() == 1


def test_taskset_pid(lucid):
    """taskset -p: another process's mask read and changed; a running one moves at once."""
    pid = lucid.run("yes > /dev/null & echo $!").splitlines()[-1]
    try:
        assert lucid.run("taskset -p %s" % pid) == "pid %s's current affinity mask: f\n" % pid
        assert lucid.run("taskset -p 4 %s" % pid) == (
            "pid %s's current affinity mask: f\npid %s's new affinity mask: 4\n" % (pid, pid))
        cpus = set()
        for _ in range(20):  # it was somewhere, running: now only CPU 2 ever runs it
            cpus.add(lucid.run("cut -d' ' -f39 /proc/%s/stat" % pid).strip())
        assert cpus == {"2"}, cpus
        assert lucid.run("taskset -p 99999") == \
            "taskset: can't get pid 99999's affinity: No such process\n"
    finally:
        lucid.run("kill %s; wait" % pid)


def test_sleep_duration(lucid):
    t0 = time.monotonic()
    lucid.run("sleep 0.5")
    elapsed = time.monotonic() - t0
    assert elapsed >= 0.5, elapsed  # a sleep that never ends is run's timeout
    # The guest's own clock: /proc/uptime, read before and after, in hundredths as it prints
    # them (integers: as floats, 4.14 - 3.14 is 0.99999...). Both readings are truncated the
    # same way, so a sleep of at least a second moves it by at least 100.
    def uptime_centis():
        whole, frac = lucid.run("cut -d' ' -f1 /proc/uptime").strip().split(".")
        return int(whole) * 100 + int(frac)

    # At least the second asked for, and no more than the host saw pass around it (plus the
    # hundredth each reading truncates): the guest's clock neither lags nor races, however
    # slow a loaded host makes the commands between.
    t0 = time.monotonic()
    a = uptime_centis()
    lucid.run("sleep 1")
    b = uptime_centis()
    host_centis = (time.monotonic() - t0) * 100
    assert 100 <= b - a <= host_centis + 2, (a, b, host_centis)
    assert lucid.run("sleep x") == "sleep: invalid number 'x'\n"  # busybox's words
    assert lucid.status() == 1


def test_crash_stack_hits_guard_page():
    k = Lucid()
    try:
        k.send_line("echo EXHAUST_STACK > /sys/kernel/debug/provoke-crash/DIRECT")
        assert k.wait_exit(60) == 3
        out = k.tail(20000)
        assert re.search(r"BUG: stack guard page was hit at ffffc9", out), out
        assert "kernel stack overflow (double-fault)" in out
        assert re.search(r" lkdtm_recursive_loop\+0x", out)
    finally:
        k.close()

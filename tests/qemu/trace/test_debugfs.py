"""kernel/debug/'s debugfs files, the Linux way to ask the kernel for debugging work from bash.

lkdtm's /sys/kernel/debug/provoke-crash/DIRECT lists its crash types and runs the one written
(the crashes themselves: test_protection, test_boot, test_sanitizers, test_dump_on_oops); a
name it does not know is EINVAL and does nothing. /sys/kernel/debug/ftest, run_test and
callsite run their command in the writer's write(2) and give back what it printed on the same
open file; /bin/ftest, /bin/run_test and /bin/callsite (user/debugfs_cmd.c) are the programs
over them, with the commands' statuses: 0, 1 (failed), 2 (usage), 130 (Ctrl-C). rbstat and bench
are files to read.
"""
import re

from lucid import Lucid
from tracefs import EINVAL

DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"
D = "/sys/kernel/debug"
# lkdtm's names where lkdtm has the crash (drivers/misc/lkdtm), then Lucid's own four.
CRASH_TYPES = ["PANIC", "BUG", "WARNING", "EXHAUST_STACK", "CORRUPT_STACK", "SOFTLOCKUP",
               "HARDLOCKUP", "ATOMIC_SLEEP",
               "OVERFLOW_SIGNED", "WRITE_KERN", "EXEC_DATA", "ACCESS_NULL", "DIVIDE_ERROR",
               "WRITE_KERN_DIRECT", "LOCKDEP", "PREEMPT_LEAK"]
PRINTK = re.compile(r"^\[ *\d+\.\d{6}\] .*\n", re.M)


def run(k, line, timeout=60):
    """What line printed, without kernel log lines, and its status."""
    out = PRINTK.sub("", k.run(line, timeout))
    return out, k.status()


def test_direct_lists_the_crash_types(lucid):
    assert run(lucid, "cat " + DIRECT) == \
        ("Available crash types:\n" + "".join(t + "\n" for t in CRASH_TYPES), 0)
    assert run(lucid, "ls -l " + DIRECT)[0].split()[0] == "-rw-------"


def test_direct_refuses_what_it_does_not_know(lucid):
    # A name lkdtm does not have, another case, a prefix, an alias's list entry, too long:
    # EINVAL, and nothing happens (the log says nothing was performed, the kernel goes on).
    lucid.run("dmesg -c > /dev/null")
    for bad in ["NOSUCH", "null", "PANI", "PANICX", "''", "X" * 100]:
        assert run(lucid, "echo %s > %s" % (bad, DIRECT)) == (EINVAL, 1), bad
    assert "Performing direct entry" not in lucid.run("dmesg")
    assert run(lucid, "echo still alive") == ("still alive\n", 0)
    # Blanks around a name are trimmed, as Linux's strim: WARNING warns and the kernel goes on.
    out, status = run(lucid, "echo '  WARNING ' > " + DIRECT)
    assert status == 0
    assert "lkdtm: Performing direct entry WARNING" in lucid.run("dmesg")


def test_ftest_statuses(lucid):
    assert run(lucid, "ftest call") == ("", 0)
    assert run(lucid, "ftest printk 2") == ("", 0)
    out, status = run(lucid, "ftest nosuch")
    assert status == 2 and out.startswith("usage: ftest call | "), out
    # the usage goes to stderr, as a command's
    assert run(lucid, "ftest 2>/dev/null; echo $?") == ("2\n", 0)
    assert run(lucid, "ftest delay 99999999")[1] == 2  # past the 10 s it allows
    assert run(lucid, "ftest deep 0")[1] == 2
    # the file itself, as bash writes it: no program between
    assert run(lucid, "echo call > %s/ftest" % D) == ("", 0)
    assert run(lucid, "echo 'tick x' > %s/ftest" % D) == (EINVAL, 1)
    # what a command printed is read back from the same open file
    assert run(lucid, "exec 3<> %s/ftest; echo bad >&3; cat <&3; exec 3>&-" % D)[0] == \
        "-bash: echo: write error: Invalid argument\nusage: ftest call | ftest delay " \
        "MICROSECONDS | ftest stack | ftest deep N | ftest printk [N] | ftest off | ftest tick N\n"


def test_run_test_statuses(lucid):
    out, status = run(lucid, "run_test -t 4 -r 10")
    assert status == 0 and re.match(r"^run_test: 4 threads x 10 rounds on \d+ CPUs: counter "
                                     r"40/40, 40 wakeups, rounds per CPU:( \d+)+, \d+ CPUs? "
                                     r"used, ok\n$", out), out
    for bad in ["-t", "-t 0", "-t 65", "-r x", "-x 1"]:
        out, status = run(lucid, "run_test " + bad)
        assert (out, status) == ("usage: run_test [-t THREADS (max 64)] [-r ROUNDS]\n", 2), bad
    # the file gives the line to whoever wrote on it, and to nobody else
    out = run(lucid, "exec 3<> %s/run_test; echo -t 2 -r 1 >&3; cat <&3; cat %s/run_test; "
                     "exec 3>&-" % (D, D))[0]
    assert re.match(r"^run_test: 2 threads x 1 rounds .* ok\n$", out), out


def test_ctrl_c_interrupts(lucid):
    # Ctrl-C reaches a command running in the program's write(2): a pending signal, which the
    # long ones check. The program ends by SIGINT, as any (bash: 130), and the kernel goes on.
    with lucid.showing_tasks():
        for line in ["run_test -t 8 -r 100000", "ftest tick 10000"]:
            lucid.send_line(line)
            lucid.until_job_started(line.split()[0], states="RSD")
            lucid.p.send("\x03")
            lucid.expect_prompt(60)
            assert lucid.status() == 130, line
    out, status = run(lucid, "run_test -t 2 -r 2")
    assert status == 0 and out.endswith(", ok\n"), out


def test_callsite_statuses(lucid):
    out, status = run(lucid, "callsite ftest_leaf")
    assert status == 0 and re.match(r"^ftest_leaf at ffffffff8[0-9a-f]{7}: 0f 1f 44 00 00  nop "
                                    r"\(refcount 0\)\n$", out), out
    assert run(lucid, "callsite no_such_fn") == ("callsite: no_such_fn: no such function\n", 1)
    assert run(lucid, "callsite ftrace_init")[1] == 1  # notrace: not a call site
    assert run(lucid, "callsite") == ("usage: callsite FUNCTION\n", 2)
    assert run(lucid, "callsite a b") == ("usage: callsite FUNCTION\n", 2)


def test_rbstat(lucid):
    cpus = int(lucid.run("nproc"))
    out, status = run(lucid, "cat %s/rbstat" % D)
    lines = out.splitlines()
    assert status == 0 and len(lines) == cpus, out
    for cpu, line in enumerate(lines):
        m = re.match(r"^cpu%d: written (\d+) = entries (\d+) \+ read (\d+) \+ overrun (\d+) \+ "
                     r"dropped (\d+) \+ commit overrun (\d+)$" % cpu, line)
        assert m and int(m.group(1)) == sum(int(g) for g in m.groups()[1:]), line
    assert run(lucid, "echo x > %s/rbstat" % D)[1] == 1  # read-only


def test_bench_figures():
    # Each read runs the benchmarks afresh: one figure a line, as tools/bench.py parses them.
    k = Lucid()
    try:
        out, status = run(k, "cat %s/bench" % D, timeout=300)
        assert status == 0, out
        names = re.findall(r"^(\w+): (?:\d+(?:\.\d+)?|none) ", out, re.M)
        for name in ["callsites", "workload_insns", "fs_workload_insns", "ctx_switch_insns",
                     "module_load_insns", "trace_event_insns"]:
            assert name in names, out
        assert run(k, "echo still alive") == ("still alive\n", 0)
    finally:
        k.close()

"""ftrace_dump_on_oops and sysrq-z: the trace buffer printed on the console.

Each crash boots its own kernel, with the function tracer on from boot (ftrace=function, every
function) and a small buffer so the dump stays short, crashes it one way, and checks what the
console shows after the oops: "Dumping ftrace buffer:", a line of dashes, events in Linux's
latency format (each line behind printk's timestamp) among which the crashing task's own calls
on its CPU, in order, up to the function that crashed, the closing dashes, then QEMU's exit with
status 3 (a panic). The shared kernel checks the /proc file and sysrq-z, which dumps without a
crash.
"""
import re
import time

from lucid import Lucid
from tracefs import EINVAL, ok

BOOT = {"cmdline": ""}
T = "/sys/kernel/tracing"
DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"  # lkdtm's (kernel/debug/lkdtm.c)
# lkdtm runs the crash in the write(2) of bash's echo: these are the crashing task's last calls.
ACTION = "lkdtm_do_action <-direct_entry"
SMALL = "trace_buf_size=16K"
DASHES = "-" * 33
PRINTK = re.compile(r"^\[ *\d+\.\d{6}\] (?P<text>.*)$")
# "%8.8s-%-5d %3d" + 4 flag columns + " %4lluus%c: " + body (profile PA's latency format)
LAT = re.compile(r"^(?P<comm>.{8})-(?P<pidf>\d+ *) (?P<cpu>[ \d]{2}\d)"
                 r"(?P<flags>[dX.][Nnp.][ZzHhs.][0-9a-f.]) (?P<us> *\d+)us(?P<mark>[ +!#*@$]): "
                 r"(?P<body>\S.*)$")
STACK_FRAME = re.compile(r"^ => \S+$")
LOST = re.compile(r"^CPU:\d+ \[LOST (\d+ )?EVENTS\]$")


def console_text(out):
    """The console's lines, without printk's timestamps (lines printk did not make stay)."""
    lines = []
    for line in out.replace("\r", "").rstrip("\n").split("\n"):
        m = PRINTK.match(line)
        lines.append(m.group("text") if m else line)
    return lines


def dump_of(lines, start=0):
    """The events of the first dump at or after line start: [(comm, pid, cpu, us, body, flags)]."""
    i = lines.index("Dumping ftrace buffer:", start)
    assert lines[i + 1] == DASHES, lines[i:i + 3]
    events = []
    for j in range(i + 2, len(lines)):
        line = lines[j]
        if line == DASHES:
            return events, j
        if STACK_FRAME.match(line) or LOST.match(line):
            continue
        m = LAT.match(line)
        assert m, "not a dump line: %r" % line
        pid = m.group("pidf").strip()
        assert len(m.group("pidf")) == max(5, len(pid)), line  # %-5d
        assert len(m.group("us")) >= 4 and m.group("mark") == " ", line  # %4llu, next event: 0
        events.append((m.group("comm").strip(), int(pid), int(m.group("cpu")),
                       int(m.group("us")), m.group("body"), m.group("flags")))
    raise AssertionError("no closing dashes after the dump")


def crash(cmdline, kind, timeout=180, before=None):
    """Boots with cmdline, types `before` (if any) and writes crash type kind to lkdtm's
    DIRECT; the console once QEMU exited with status 3."""
    k = Lucid(cmdline=cmdline)
    try:
        if before:
            k.run(before)
        k.send_line("echo %s > %s" % (kind, DIRECT))
        status = k.wait_exit(timeout)
        out = k.tail(2000000)
        assert status == 3, "QEMU exit status %r (3 is a panic), console:\n%s" % (status,
                                                                                  out[-5000:])
        return out
    finally:
        k.close()


def crashing_task(lines):
    """(pid, cpu) of the task that wrote to DIRECT (bash), from the oops report's CPU/PID line."""
    for line in lines:
        m = re.match(r"^CPU: (\d+) PID: (\d+) Comm: bash$", line)
        if m:
            return int(m.group(2)), int(m.group(1))
    raise AssertionError("no 'CPU: N PID: N Comm: bash' line")


def own_calls(events, pid):
    """The task's calls. An interrupt may come in between (a timer tick): its events carry the
    task's pid but an h, s or z in the hardirq/softirq column, and are not the task's calls."""
    return [e[4] for e in events if e[1] == pid and e[5][2] not in "hHsZz"]


def assert_path(events, pid, cpu, path):
    """The task's own events on its CPU end with these bodies, in this order, as the last ones.
    The task may have run on another CPU before (a wakeup may move it: the dump is merged by
    time); from its last event elsewhere on, it ran on the crash's CPU, and its crash there."""
    moved = [i for i, e in enumerate(events) if e[1] == pid and e[2] != cpu]
    since = events[moved[-1] + 1:] if moved else events
    mine = own_calls(since, pid)
    assert len(mine) >= len(path), "the task moved during its crash: %r" % (events[-10:],)
    assert mine[-len(path):] == path, "the crash's last events were\n%s" % "\n".join(mine[-10:])


def assert_times_ordered(events):
    for a, b in zip(events, events[1:]):
        assert a[3] <= b[3], "the dump is not merged by time: %r then %r" % (a, b)


# --- crashes ----------------------------------------------------------------------------------


def test_null_pointer():
    # A few ticks first, so that every CPU, idle ones too, has recorded something.
    out = crash("ftrace=function ftrace_dump_on_oops " + SMALL, "NULL", before="sleep 0.1")
    lines = console_text(out)
    oops = lines.index("Kernel panic - not syncing: Fatal exception")
    assert lines.index("Oops: 0002 [#1] SMP") < oops
    events, end = dump_of(lines, oops)
    assert lines[end + 1] == "---[ end Kernel panic - not syncing: Fatal exception ]---"
    pid, cpu = crashing_task(lines)
    assert_path(events, pid, cpu, [ACTION, "lkdtm_ACCESS_NULL <-lkdtm_do_action"])
    assert_times_ordered(events)
    # every CPU is in the dump (idle CPUs record their timer ticks), each with comm and pid
    assert {e[2] for e in events} == set(range(4)), sorted({e[2] for e in events})
    assert any(e[0] == "<idle>" and e[1] == 0 for e in events)
    assert lines.count("Dumping ftrace buffer:") == 1


def test_divide_error():
    out = crash("ftrace=function ftrace_dump_on_oops " + SMALL, "DIVIDE_ERROR")
    lines = console_text(out)
    assert "divide error: 0000 [#1] SMP" in lines
    events, _ = dump_of(lines, lines.index("Kernel panic - not syncing: Fatal exception"))
    pid, cpu = crashing_task(lines)
    assert_path(events, pid, cpu, [ACTION, "lkdtm_DIVIDE_ERROR <-lkdtm_do_action"])


def test_panic():
    out = crash("ftrace=function ftrace_dump_on_oops " + SMALL, "PANIC")
    lines = console_text(out)
    msg = "Kernel panic - not syncing: dumptest"
    events, end = dump_of(lines, lines.index(msg))
    assert lines[end + 1] == "---[ end %s ]---" % msg
    crashed = [e for e in events if e[4] == "lkdtm_PANIC <-lkdtm_do_action"]
    assert len(crashed) == 1, events[-10:]
    pid, cpu = crashed[0][1], crashed[0][2]
    assert_path(events, pid, cpu, [ACTION, "lkdtm_PANIC <-lkdtm_do_action"])


def test_stack_overflow():
    # The frame that hits the guard page is the tracer's own (RIP in ftrace_caller: the traced
    # function calls it before anything else): the dump must work from inside the tracer.
    out = crash("ftrace=function ftrace_dump_on_oops " + SMALL, "EXHAUST_STACK")
    lines = console_text(out)
    assert "kernel stack overflow (double-fault): 0000 [#1] SMP" in lines
    events, _ = dump_of(lines, lines.index("Kernel panic - not syncing: Fatal exception"))
    pid, cpu = crashing_task(lines)
    mine = own_calls(events, pid)
    assert mine[-3:] == ["lkdtm_recursive_loop <-lkdtm_recursive_loop"] * 3, mine[-5:]


def test_lockup_orig_cpu():
    # The watchdog's panic dumps only the stuck CPU (=orig_cpu), whose ticks went on being traced.
    out = crash("ftrace=function ftrace_dump_on_oops=orig_cpu watchdog_thresh=1 softlockup_panic=1 "
                "trace_buf_size=256K", "SOFTLOCKUP", timeout=300)
    lines = console_text(out)
    bug = [l for l in lines if l.startswith("BUG: soft lockup - CPU#")]
    assert bug, lines[-40:]
    cpu = int(re.match(r"BUG: soft lockup - CPU#(\d+)", bug[0]).group(1))
    events, _ = dump_of(lines, lines.index("Kernel panic - not syncing: softlockup: hung tasks"))
    assert {e[2] for e in events} == {cpu}
    lockup = [e for e in events if e[4] == "lkdtm_SOFTLOCKUP <-lkdtm_do_action"]
    assert len(lockup) == 1 and lockup[0][0] == "bash", events[:5]
    # after it, only interrupts of that task's CPU: the tick that found it stuck, hard irq
    # (the tick is a high-resolution timer: its function, tick_sched_timer, calls the watchdog)
    after = events[events.index(lockup[0]) + 1:]
    assert after and "watchdog_tick <-tick_sched_timer" in [e[4] for e in after]
    assert_times_ordered(events)


def test_lockup_reported_without_panic():
    # Without softlockup_panic the watchdog's report itself dumps, and the kernel goes on.
    k = Lucid(cmdline="ftrace=function ftrace_filter=direct_entry,lkdtm_do_action,"
                      "lkdtm_SOFTLOCKUP ftrace_dump_on_oops watchdog_thresh=1")
    try:
        k.send_line("echo SOFTLOCKUP > " + DIRECT)
        k.expect(r"BUG: soft lockup - CPU#\d+ stuck", timeout=120)
        k.expect("Dumping ftrace buffer:", timeout=60)
        k.expect("-{33}", timeout=60)
        k.expect("-{33}", timeout=60)
        lines = console_text(k.tail(200000))
        events, _ = dump_of(lines, lines.index("Call Trace:"))
        assert [e[4] for e in events] == ["direct_entry <-ksys_write", ACTION,
                                          "lkdtm_SOFTLOCKUP <-lkdtm_do_action"]
        assert k.alive()
        assert not any("Kernel panic" in l for l in lines)
    finally:
        k.close()


def test_empty_buffer():
    out = crash("ftrace_dump_on_oops", "NULL")
    lines = console_text(out)
    i = lines.index("Dumping ftrace buffer:")
    assert lines[i + 1] == "   (ftrace buffer empty)"
    assert lines[i + 2] == "---[ end Kernel panic - not syncing: Fatal exception ]---"


def test_off_by_default():
    out = crash("ftrace=function " + SMALL, "NULL")
    assert "Dumping ftrace buffer:" not in out
    assert "---[ end Kernel panic - not syncing: Fatal exception ]---" in out


# --- the /proc file and sysrq-z on one kernel ---------------------------------------------------


def run(k, cmd):
    return k.run(cmd)


def test_proc_file(lucid):
    f = "/proc/sys/kernel/ftrace_dump_on_oops"
    assert run(lucid, "cat " + f) == "0\n"
    assert run(lucid, "ls -l " + f).split()[0] == "-rw-r--r--"
    ok(lucid, "echo 1 > " + f)
    assert run(lucid, "cat " + f) == "1\n"
    for bad in ["abc", "1x", "0x1", "''"]:
        assert run(lucid, "echo %s > %s" % (bad, f)) == EINVAL, bad
        assert lucid.status() == 1
        assert run(lucid, "cat " + f) == "1\n", bad
    ok(lucid, "echo 2 > " + f)  # orig_cpu
    assert run(lucid, "cat " + f) == "2\n"
    ok(lucid, "echo 0 > " + f)
    assert run(lucid, "cat " + f) == "0\n"


SYSRQ = "echo %s > /proc/sysrq-trigger"  # Linux's file: the first character is the key


def sysrq_dump(k, cmd):
    """Runs cmd, which dumps; returns (printk lines of its output, the dump's events)."""
    out = k.run(cmd, timeout=60)
    lines = console_text(out)
    if "Dumping ftrace buffer:" in lines and "   (ftrace buffer empty)" not in lines:
        return lines, dump_of(lines)[0]
    return lines, []


def test_sysrq_z(lucid):
    for cmd in ["cd %s" % T, "echo nop > current_tracer", "echo 'ftest_*' > set_ftrace_filter",
                "echo function > current_tracer", "echo 1 > tracing_on", "ftest call"]:
        ok(lucid, cmd)
    lines, events = sysrq_dump(lucid, SYSRQ % "z")
    assert lines[0] == "sysrq: Dump ftrace buffer"
    assert lines[1] == "Dumping ftrace buffer:"
    assert [e[4] for e in events] == ["ftest_outer <-cmd_ftest", "ftest_mid <-ftest_outer",
                                      "ftest_leaf <-ftest_mid"] * 3
    assert len({(e[0], e[1], e[2]) for e in events}) == 1 and events[0][0] == "ftest"
    assert_times_ordered(events)
    assert lines[-1] == DASHES
    # tracing is off afterwards, what was printed is consumed, the shell goes on
    assert run(lucid, "cat tracing_on") == "0\n"
    trace = run(lucid, "cat trace")
    assert "entries-in-buffer/entries-written: 0/0" in trace
    assert [l for l in trace.splitlines() if not l.startswith("#")] == []
    assert run(lucid, "echo still here") == "still here\n"
    ok(lucid, "echo 1 > tracing_on")
    lines, _ = sysrq_dump(lucid, SYSRQ % "z")
    assert lines == ["sysrq: Dump ftrace buffer", "Dumping ftrace buffer:",
                     "   (ftrace buffer empty)"], lines
    # Ctrl-O z straight from the console's interrupt
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "ftest call")
    lucid.send_line("\x0fz")
    out = lucid.expect_prompt(60)
    events = dump_of(console_text(out))[0]
    assert len(events) == 9, out
    assert "sysrq: Dump ftrace buffer" in out
    # an unknown key lists the keys, as Linux's HELP line (h: its key for that)
    lines, _ = sysrq_dump(lucid, SYSRQ % "h")
    assert lines == ["sysrq: HELP : crash(c) show-backtrace-all-active-cpus(l) show-task-states(t) "
                     "fault-injection-off(x) dump-ftrace-buffer(z) "], lines
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "echo nop > current_tracer")
    ok(lucid, "echo > set_ftrace_filter")


# --- every tracer, every way to dump --------------------------------------------------------------
#
# A dump is a reader of its own: each tracer's printer must work on it as on the trace file.
# function_graph's printer looks at the event after an entry (to print a leaf on one line),
# which once dereferenced a NULL buffer in the dump and oopsed. So every tracer is dumped, with
# an event on, in every way: /proc/sysrq-trigger and Ctrl-O z on a live kernel, then an
# oops; the soft-lockup report; a panic (with =orig_cpu, only the panicking CPU).

TRACERS = ["function_graph", "function", "sched_switch", "irqsoff", "preemptoff", "preemptirqsoff",
           "wakeup", "wakeup_rt", "osnoise", "timerlat", "hwlat", "nop"]
DUMP_BOOT = "ftrace_dump_on_oops " + SMALL
FILTER = "ftest_* lkdtm_*"
EVENT = "sched:sched_switch"
FTEST_CALL = ["ftest_outer", "ftest_mid", "ftest_leaf"] * 3
# function_graph's lines: " 0)  duration or blanks |  body", with a 14-column duration
GRAPH = re.compile(r"^ *(?P<cpu>\d+)\) (?P<col>.{14})\|(?P<body>.*)$")
GRAPH_BANNER = re.compile(r"^( -{42}| *\d+\) +\S+-\d+ +=> +\S+-\d+ *|)$")
FUNC_LINE = re.compile(r"^(?P<func>\w+) <-\w+$")


def test_every_tracer_is_dumped(lucid):
    """The tests below cover each tracer the kernel offers: a new one must be added to them."""
    assert sorted(run(lucid, "cat %s/available_tracers" % T).split()) == sorted(TRACERS)


def tracer_dump(lines, tracer, start=0):
    """The first dump at or after line start, as [(cpu, body)]; every line must be in the
    tracer's format (the latency format, or function_graph's own)."""
    i = lines.index("Dumping ftrace buffer:", start)
    assert lines[i + 1] == DASHES, lines[i:i + 3]
    events = []
    for line in lines[i + 2:]:
        if line == DASHES:
            assert events, "an empty dump"
            return events
        if LOST.match(line):
            continue
        if tracer == "function_graph":
            if GRAPH_BANNER.match(line):
                continue
            m = GRAPH.match(line)
            assert m, "not a function_graph line: %r" % line
            events.append((int(m.group("cpu")), m.group("body").strip()))
        else:
            if STACK_FRAME.match(line):
                continue
            m = LAT.match(line)
            assert m, "not a dump line: %r" % line
            events.append((int(m.group("cpu")), m.group("body")))
    raise AssertionError("no closing dashes after the dump")


def functions(tracer, events):
    """The traced functions the dump shows entered, in order."""
    if tracer == "function_graph":
        return [f for _, b in events if not b.startswith("/*")
                for f in re.findall(r"(\w+)\(\)", b)]
    return [m.group("func") for m in (FUNC_LINE.match(b) for _, b in events) if m]


def assert_ftest_dumped(tracer, events):
    """`ftest call; ftest printk` and the event are in the dump, as this tracer prints them."""
    bodies = [b for _, b in events]
    if tracer == "function_graph":
        assert "/* ftrace test 42 */" in bodies, bodies[-20:]
        assert any(b.startswith("/* sched_switch: prev_comm=") for b in bodies), bodies[-20:]
    else:
        assert "ftest_printk: ftrace test 42" in bodies, bodies[-20:]
        assert any(b.startswith("sched_switch: prev_comm=") for b in bodies), bodies[-20:]
    if tracer in ("function", "function_graph"):
        calls = [f for f in functions(tracer, events) if f.startswith("ftest_")]
        assert calls == FTEST_CALL + ["ftest_printk"], calls


def assert_crash_dumped(tracer, events, kind):
    """The crashing command is the dump's story: its calls, or its task switched in."""
    if tracer in ("function", "function_graph"):
        calls = functions(tracer, events)
        assert calls[-2:] == ["lkdtm_do_action", "lkdtm_" + kind], calls[-10:]
    else:
        assert any("next_comm=bash " in b for _, b in events), [b for _, b in events][-10:]


def trace_setup(k, tracer):
    """The tracer, its filter and an event, from the shell as a user sets them."""
    for cmd in ["cd " + T, "echo '%s' > set_ftrace_filter" % FILTER, "echo %s > set_event" % EVENT,
                "echo %s > current_tracer" % tracer]:
        ok(k, cmd)
    assert run(k, "cat current_tracer") == tracer + "\n"


def traced_ftest(k):
    ok(k, "echo 1 > tracing_on")  # each dump leaves tracing off, as Linux's
    ok(k, "ftest call")
    ok(k, "ftest printk")


def live_dumps_then_oops(tracer):
    k = Lucid(cmdline=DUMP_BOOT)
    try:
        trace_setup(k, tracer)
        hows = [SYSRQ % "z", "ctrl-o z"]
        for how in hows:
            traced_ftest(k)
            if how == "ctrl-o z":
                k.send_line("\x0fz")  # straight from the console's interrupt
                out = k.expect_prompt(60)
            else:
                out = k.run(how, timeout=60)
            lines = console_text(out)
            assert "sysrq: Dump ftrace buffer" in lines, (how, lines[:5])
            assert_ftest_dumped(tracer, tracer_dump(lines, tracer))
            assert lines[-1] == DASHES, (how, lines[-3:])
            assert run(k, "echo still here") == "still here\n"
        traced_ftest(k)
        k.send_line("echo NULL > " + DIRECT)
        status = k.wait_exit(180)
        lines = console_text(k.tail(2000000))
        assert status == 3, lines[-40:]
        oops = lines.index("Kernel panic - not syncing: Fatal exception")
        events = tracer_dump(lines, tracer, oops)
        assert_ftest_dumped(tracer, events)
        assert_crash_dumped(tracer, events, "ACCESS_NULL")
        # no second oops in the oops's dump
        assert lines.count("Dumping ftrace buffer:") == len(hows) + 1
        assert lines[-1] == "---[ end Kernel panic - not syncing: Fatal exception ]---"
    finally:
        k.close()


def lockup_report(tracer):
    """The soft-lockup report dumps (without softlockup_panic), and the kernel goes on."""
    k = Lucid(cmdline=DUMP_BOOT + " watchdog_thresh=1")
    try:
        trace_setup(k, tracer)
        traced_ftest(k)
        k.send_line("echo SOFTLOCKUP > " + DIRECT)
        k.expect(r"BUG: soft lockup - CPU#\d+ stuck", timeout=120)
        k.expect("Dumping ftrace buffer:", timeout=60)
        # the dump's own dashes, whole lines (function_graph's banners have 42, behind a blank)
        k.expect(r"\] -{33}\r?\n", timeout=60)
        k.expect(r"\] -{33}\r?\n", timeout=120)
        lines = console_text(k.tail(2000000))
        events = tracer_dump(lines, tracer, lines.index("Call Trace:"))
        assert_ftest_dumped(tracer, events)
        assert_crash_dumped(tracer, events, "SOFTLOCKUP")
        assert k.alive()
        assert not any("Kernel panic" in l or "Oops" in l for l in lines)
    finally:
        k.close()


def panic_orig_cpu(tracer):
    """A panic with =orig_cpu: the panicking CPU's events only, the panic's path among them."""
    k = Lucid(cmdline=DUMP_BOOT.replace("ftrace_dump_on_oops", "ftrace_dump_on_oops=orig_cpu"))
    try:
        trace_setup(k, tracer)
        traced_ftest(k)
        k.send_line("echo PANIC > " + DIRECT)
        status = k.wait_exit(180)
        lines = console_text(k.tail(2000000))
        assert status == 3, lines[-40:]
        msg = "Kernel panic - not syncing: dumptest"
        events = tracer_dump(lines, tracer, lines.index(msg))
        # one CPU, and the panic's path is on it: the panicking one
        assert len({c for c, _ in events}) == 1, sorted({c for c, _ in events})
        assert_crash_dumped(tracer, events, "PANIC")
        assert lines[-1] == "---[ end %s ]---" % msg
    finally:
        k.close()


def test_function_graph_dumps():
    live_dumps_then_oops("function_graph")


def test_function_graph_lockup_dump():
    lockup_report("function_graph")


def test_function_graph_panic_dump():
    panic_orig_cpu("function_graph")


def test_function_dumps():
    live_dumps_then_oops("function")


def test_function_lockup_dump():
    lockup_report("function")


def test_function_panic_dump():
    panic_orig_cpu("function")


def test_sched_switch_dumps():
    live_dumps_then_oops("sched_switch")


def test_sched_switch_lockup_dump():
    lockup_report("sched_switch")


def test_sched_switch_panic_dump():
    panic_orig_cpu("sched_switch")


def test_osnoise_dumps():
    live_dumps_then_oops("osnoise")


def test_timerlat_dumps():
    live_dumps_then_oops("timerlat")


def test_hwlat_dumps():
    live_dumps_then_oops("hwlat")


def test_nop_dumps():
    live_dumps_then_oops("nop")


def test_nop_lockup_dump():
    lockup_report("nop")


def test_nop_panic_dump():
    panic_orig_cpu("nop")


def test_sysrq_t(lucid):
    # Show State: a line per task, Linux's "task:COMM state:S pid:N ppid:N", and where each
    # task off its CPU sleeps: the background `sleep` in schedule; init (pid 1) waits for its
    # children; the one that asked (bash, in its echo's write) runs, no trace.
    # The sleep must be asleep when sysrq asks: just started, it may still be running exec.
    pid = int(re.match(r"\[1\] (\d+)$", lucid.run("sleep 30 &").strip()).group(1))
    deadline = time.monotonic() + 30
    while not re.match(r"%d \(sleep\) S " % pid, lucid.run("cat /proc/%d/stat" % pid)):
        assert time.monotonic() < deadline, lucid.run("cat /proc/%d/stat" % pid)
        time.sleep(0.1)
    # The header reaches the console (sysrq raises the level for it, as Linux's); the task
    # list is KERN_INFO, in the log.
    assert console_text(lucid.run(SYSRQ % "t", timeout=60)) == ["sysrq: Show State"]
    lines = console_text(lucid.run("kill %1; wait; dmesg", timeout=60))
    lines = lines[len(lines) - 1 - lines[::-1].index("sysrq: Show State"):]
    tasks = [l for l in lines if l.startswith("task:")]
    assert any(re.match(r"task:init +state:[RSD] pid:1 +ppid:0 *$", l) for l in tasks), tasks
    sleeper = next((i for i, l in enumerate(lines) if re.match(r"task:sleep +state:S ", l)), None)
    assert sleeper is not None, "no sleeping sleep among the tasks:\n" + "\n".join(lines)
    trace = lines[sleeper + 1:lines.index(tasks[tasks.index(lines[sleeper]) + 1])] \
        if lines[sleeper] != tasks[-1] else lines[sleeper + 1:]
    assert trace[0] == "Call Trace:" and any("schedule+" in l for l in trace), trace
    assert any(re.match(r"task:bash +state:R ", l) for l in tasks), tasks
    # Ctrl-O t straight from the console's interrupt, while the shell waits for its job.
    lucid.send_line("sleep 3")
    time.sleep(1)  # pacing: the list shows init, during the sleep or after it
    lucid.p.send("\x0ft")
    out = lucid.expect_prompt(60)
    assert "sysrq: Show State" in console_text(out), out
    out = lucid.dmesg()
    lines = console_text(out)
    lines = lines[len(lines) - 1 - lines[::-1].index("sysrq: Show State"):]
    assert any(re.match(r"task:init +state:[RSD] pid:1 ", l) for l in lines), out

#!/usr/bin/python3
"""make bench: Lucid's figures, one a line as `name: value unit`.

Counts come from a boot under `qemu -icount shift=0`, where the guest TSC counts executed
instructions exactly, so they repeat from run to run. The wall-clock boot time is measured
without icount (median of several boots). Figures, not pass/fail.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "qemu"))
from lucid import Lucid  # noqa: E402

FIGURE = re.compile(r"^([a-z_0-9]+): ([0-9.]+) (\S+)$", re.M)


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def guest_figures(build=None):
    """Boots the ISO of a build directory under -icount shift=0 and reads /sys/kernel/debug/bench."""
    k = Lucid(icount=True, timeout=300, build=build)
    try:
        out = k.run("cat /sys/kernel/debug/bench", timeout=600)
    finally:
        k.close()
    figures = {name: (value, unit) for name, value, unit in FIGURE.findall(out)}
    if not figures:
        raise SystemExit("bench: no figures in:\n" + out)
    return figures


HOSTSHARE_MIB = 64  # the file moved each way through the shared folder


def elapsed(k, line, timeout=600):
    """Guest wall time of line, in seconds: /proc/uptime just before and just after it."""
    out = k.run("cat /proc/uptime; %s; cat /proc/uptime" % line, timeout=timeout).split("\n")
    return float(out[-2].split()[0]) - float(out[0].split()[0])


def hostshare_figures():
    """MiB/s through the shared folder (virtio-9p) each way, and through COM2 for comparison.

    Guest wall time without icount (the device's work happens outside the guest's instruction
    count), 64 MiB each way with cp, which moves 128 KiB a call (full-size 9p requests, several
    in flight): read from the host into /dev/null, written from a file in ramfs. (cat moves
    4 KiB a call: one small request each, several times slower.)
    """
    share = tempfile.mkdtemp(prefix="lucid-bench-share-")
    com2 = os.path.join(share, "com2.out")
    size = HOSTSHARE_MIB << 20
    try:
        with open(os.path.join(share, "big"), "wb") as f:
            f.write(os.urandom(size))
        k = Lucid(share=share, timeout=300, extra=["-serial", "file:" + com2])
        try:
            read_s = elapsed(k, "cp /mnt/host/big /dev/null")
            k.run("head -c %d /dev/zero > /tmp/z" % size, timeout=600)
            write_s = elapsed(k, "cp /tmp/z /mnt/host/w")
            k.run("rm /tmp/z")
            # COM2 (lucid-record's channel) is far slower: a smaller amount, scaled.
            com2_mib = 4
            com2_s = elapsed(k, "head -c %d /dev/zero > /dev/ttyS1" % (com2_mib << 20))
        finally:
            k.close()
        if os.path.getsize(os.path.join(share, "w")) != size:
            raise SystemExit("bench: the shared folder lost bytes")
    finally:
        shutil.rmtree(share, ignore_errors=True)
    print("hostshare_read_mib_s: %.1f MiB/s" % (HOSTSHARE_MIB / read_s))
    print("hostshare_write_mib_s: %.1f MiB/s" % (HOSTSHARE_MIB / write_s))
    print("com2_write_mib_s: %.1f MiB/s" % (com2_mib / com2_s))
    print("hostshare_read_insns_per_kib: %d insns" % hostshare_read_insns_per_kib())


INSNS_MIB = 8  # under icount every instruction is counted: a smaller file is enough


def hostshare_read_insns_per_kib():
    """Guest instructions of v9fs_read and all it calls, per KiB read with cp (128 KiB calls).

    Under -icount shift=0 the guest clock counts instructions, so the function profiler's time
    is instructions; with sleep-time off it leaves out the time the reader slept waiting for
    the device, so what remains is the guest's own work: building requests, the ring, the
    interrupt, checking replies, and copying the data (most of it).
    """
    share = tempfile.mkdtemp(prefix="lucid-bench-share-")
    try:
        with open(os.path.join(share, "big"), "wb") as f:
            f.write(os.urandom(INSNS_MIB << 20))
        k = Lucid(share=share, icount=True, timeout=300)
        try:
            # The boot's info lines are in the log, not on the console (printk's loglevel).
            mhz = int(re.search(r"TSC (\d+) MHz", k.dmesg()).group(1))
            for line in ["cd /sys/kernel/tracing", "echo 0 > options/sleep-time",
                         "echo 1 > function_profile_enabled", "cp /mnt/host/big /dev/null",
                         "echo 0 > function_profile_enabled"]:
                k.run(line, timeout=300)
            stats = k.run("cat " + " ".join("trace_stat/function%d" % c for c in range(4)),
                          timeout=120)
        finally:
            k.close()
    finally:
        shutil.rmtree(share, ignore_errors=True)
    us = sum(float(m) for m in re.findall(r"^\s*v9fs_read\s+\d+\s+([0-9.]+) us", stats, re.M))
    if not us:
        raise SystemExit("bench: no v9fs_read in the function profile:\n" + stats[:2000])
    return int(us * mhz / (INSNS_MIB << 10))


TRACE_CMD_ROUNDS = 500  # run_test -r: about half a second of guest time alone
TRACE_CMD_STAT = re.compile(r"^CPU: \d+\nentries: (\d+)\noverrun: (\d+)\n", re.M)
# The markers around the workload, and the trace's timestamps (trace-cmd report -t: ns).
BENCH_MARKS = "echo bench-start > {t}/trace_marker; {line}; echo bench-end > {t}/trace_marker"
MARK_TS = re.compile(r"\s(\d+)\.(\d+): +(?:print: +)?tracing_mark_write: bench-(start|end)$",
                     re.M)
EVENT_TS = re.compile(r"^ *\S.*?-\d+ +\[\d{3}\] +(\d+)\.(\d{9}): ", re.M)


def mark_times(text):
    """{"start": s, "end": s} of the bench markers in a trace's text (report -t or `trace`)."""
    return {what: int(sec) + int(frac) / 10 ** len(frac) for sec, frac, what in
            MARK_TS.findall(text)}


def trace_cmd_figures():
    """run_test under Debian's trace-cmd record -p function, in Lucid, against run_test alone.

    Guest time, not instructions: the recorders (one process per CPU, splicing pages into the
    shared folder) run beside run_test on the other CPUs, and what a user feels is how much
    longer the workload takes, naps and waits for each other included. Under -icount shift=0
    the guest clock is the count of instructions executed (plus idle time skipped forward),
    so the figure does not depend on the host's load. Both runs are timed by trace_marker
    writes around them, read back from the trace (microseconds alone, nanoseconds from
    trace.dat). The throughput is the events trace.dat holds between the two markers, per
    second of guest time between them; events the buffer overwrote are printed beside it.
    """
    share = tempfile.mkdtemp(prefix="lucid-bench-tcmd-")
    line = BENCH_MARKS.format(t="/sys/kernel/tracing", line="run_test -r %d > /dev/null" %
                              TRACE_CMD_ROUNDS)
    try:
        k = Lucid(icount=True, share=share, timeout=300)
        try:
            k.run("run_test -r %d > /dev/null" % TRACE_CMD_ROUNDS, timeout=1800)  # warm up
            k.run("echo > /sys/kernel/tracing/trace; " + line, timeout=1800)
            alone = mark_times(k.run("grep bench- /sys/kernel/tracing/trace", timeout=60))
            k.run("echo > /sys/kernel/tracing/trace; cd /tmp")
            k.send_line("trace-cmd record -p function -o /mnt/host/bench.dat &")
            k.expect(r"Hit Ctrl\^C to stop recording", timeout=1800)
            k.send_line("echo lucid-synced")  # past the & line's prompt, wherever it came
            k.expect(r"(?m)^lucid-synced\r?$", timeout=600)
            k.expect_prompt(600)
            k.run(line, timeout=3600)
            k.run("kill -INT %1; wait", timeout=3600)
        finally:
            k.close()
        dat = os.path.join(share, "bench.dat")
        stat = subprocess.run(["trace-cmd", "report", "--stat", dat], capture_output=True,
                              text=True, timeout=600)
        report = subprocess.run(["trace-cmd", "report", "-t", dat], capture_output=True,
                                text=True, timeout=600)
    finally:
        shutil.rmtree(share, ignore_errors=True)
    traced = mark_times(report.stdout)
    cpus = TRACE_CMD_STAT.findall(stat.stdout)
    if len(alone) != 2 or len(traced) != 2 or not cpus:
        print("trace_cmd_record_overhead_ratio: none: no markers or no stats (%s)" %
              (report.stderr or stat.stderr)[-300:].strip())
        return
    t_alone, t_traced = alone["end"] - alone["start"], traced["end"] - traced["start"]
    events = sum(1 for sec, ns in EVENT_TS.findall(report.stdout)
                 if traced["start"] <= int(sec) + int(ns) / 1e9 <= traced["end"])
    lost = sum(int(o) for _, o in cpus)
    print("trace_cmd_record_overhead_ratio: %.3f ratio (run_test -r %d: %.6f s of guest time "
          "under trace-cmd record -p function, %.6f s alone)" %
          (t_traced / t_alone, TRACE_CMD_ROUNDS, t_traced, t_alone))
    print("trace_cmd_record_events_per_s: %d events/s (%d events in trace.dat in %.6f s of guest "
          "time; %d overwritten in the whole recording)" %
          (events / t_traced, events, t_traced, lost))


# lbench (../shared/bench/lbench.c, built into /bin/lbench by the Makefile): the same program
# measured Linux 6.1 on the same QEMU, whose figures are the README's table beside it.
LBENCH_README = os.path.join(ROOT, "..", "shared", "bench", "README.md")
LBENCH_ROW = re.compile(r"^\|[^|]*\(`([^`]+)`\) \| ([0-9,]+)", re.M)
LBENCH_RESULT = re.compile(r"^@@@R round=\d+ test=(\S+) n=\d+ .* med=(\d+) .* errs=(\d+)", re.M)
LBENCH_GOAL = 3  # at most a third of Linux's instructions on every line, but:
# the vDSO's clock, threads, futexes and sockets: at most half (issues #34 item 2, #33 item 5)
LBENCH_HALF_GOAL = {"clock_gettime_mono_vdso", "thread_create_join", "futex_wake_uncontended_raw",
                    "mutex_handoff_contended", "socketpair_rt_raw"}
LBENCH_SKIP = re.compile(r"^@@@SKIP (\S+): (.*)$", re.M)
LBENCH_EVENT_GOAL = 250  # and at most this many more per event under the function tracer
LBENCH_EXTRA = ["pagefault_anon_write_touch", "mmap_anon_1page_libc"]
ENOSYS_LINE = re.compile(r"^.*system call \d+ \(\S+\) is not implemented: ENOSYS$", re.M)


def linux_figures():
    """The README's table: lbench test name -> Linux 6.1's median, in instructions. Only its
    first section's: the probes table below it names uprobetest's targets and filters in the
    same (`...`) form, and those are no lbench tests."""
    with open(LBENCH_README) as f:
        text = f.read().split("\n## Probes", 1)[0]
    return {name: int(value.replace(",", "")) for name, value in LBENCH_ROW.findall(text)}


NO_FAULT_BELOW = 100  # instructions: less than any fault's entry and return


def lbench_figures():
    """Runs `lbench suite 1` and `lbench trace` in Lucid under icount; prints Lucid beside Linux.

    Every line is `lbench_NAME: LUCID insns (linux LINUX, ratio R)`, or says why there is no
    figure: a test whose system calls failed (errs) or that lbench could not set up. Figures,
    not pass/fail: the goal (a third of Linux's; half for LBENCH_HALF_GOAL's) is printed beside
    each so the gap is plain. A test lbench skipped (@@@SKIP: socketpair missing) says why.
    """
    if not os.path.exists(LBENCH_README):
        print("lbench: no %s: skipped" % LBENCH_README)
        return
    linux = linux_figures()
    # One CPU, as the README's Linux ran (and lbench counts events in per_cpu/cpu0 alone).
    k = Lucid(icount=True, smp=1, timeout=300)
    try:
        # Linux's initramfs has /init (busybox), which lbench opens and closes; Lucid's root is
        # a ramfs too, so the same file in it is the same measurement.
        k.run("ls /init > /dev/null 2>&1 || echo lbench > /init", timeout=60)
        out = k.run("/bin/lbench suite 1", timeout=1800)
        out += k.run("/bin/lbench trace", timeout=1800)
        dmesg = k.run("dmesg", timeout=60)
    finally:
        k.close()
    med, errs = {}, {}
    for name, m, e in LBENCH_RESULT.findall(out):
        med[name], errs[name] = int(m), int(e)
    skipped = dict(LBENCH_SKIP.findall(out))
    for name, theirs in linux.items():
        key = "lbench_" + re.sub(r"[^a-z0-9_]", "_", name.lower())
        goal = 2 if name in LBENCH_HALF_GOAL else LBENCH_GOAL
        if name in skipped:
            print("%s: none (linux %d): skipped: %s" % (key, theirs, skipped[name]))
        elif name not in med:
            print("%s: none (linux %d): lbench did not run it; see its @@@ERR lines" %
                  (key, theirs))
        elif errs[name]:
            print("%s: none (linux %d): %d calls failed" % (key, theirs, errs[name]))
        elif "pagefault" in name and med[name] < NO_FAULT_BELOW:
            # A page fault costs at least the exception's entry and exit: a few instructions
            # mean the write found its page there, which is no figure for a fault at all.
            print("%s: none (linux %d): no fault taken: anonymous mmap maps its pages at once "
                  "(%d insns: the write alone; the cost is in lbench_mmap_anon_1page_libc)" %
                  (key, theirs, med[name]))
        else:
            ratio = med[name] / theirs
            print("%s: %d insns (linux %d, ratio %.3f, goal %.3f%s)" %
                  (key, med[name], theirs, ratio, 1 / goal, "" if ratio <= 1 / goal else ", over"))
    # Lines Linux's table lacks that explain one of its lines: where mmap maps its page at once
    # (no fault to measure), the cost is in mmap's own figure.
    for name in LBENCH_EXTRA:
        if name in med:
            print("lbench_%s: %d insns (no Linux figure)" % (name, med[name]))
    events = re.findall(r"events per raw getpid = ([0-9.]+)", out)
    base = med.get("getpid_raw_before_tracing")
    traced = med.get("getpid_raw_functracer_on")
    if events and base and traced and float(events[-1]) > 0:
        per_event = (traced - base) / float(events[-1])
        print("lbench_functracer_insns_per_event: %.0f insns (%s events a getpid, goal %d%s)" %
              (per_event, events[-1], LBENCH_EVENT_GOAL,
               "" if per_event <= LBENCH_EVENT_GOAL else ", over"))
    for line in out.splitlines():
        if line.startswith("@@@ERR"):
            print("lbench_error: " + line[len("@@@ERR "):])
    for line in ENOSYS_LINE.findall(dmesg):
        print("lbench_enosys: " + line.strip())


# uprobes: uprobetest (../shared/bench/uprobetest.c, built into /bin/uprobetest) times
# one call of each of its targets, plain and with a uprobe on its first instruction, as Linux 6.1
# was measured on the same QEMU (the README's "Probes" table, matched here by the row's start).
# Each line: the probe, the README row, the probed target's test. Goal: half of Linux's.
UPROBE_BENCH = [
    ("uprobe_lea_target_c", "uprobe on a function starting with `lea`",
     "p:b /bin/uprobetest:0x13c0", "ucall_target_c"),
    ("uprobe_push_rbp_target_push", "uprobe on `push %rbp`",
     "p:b /bin/uprobetest:0x13a0", "ucall_target_push"),
    ("uprobe_nop_target_nop", "uprobe on `nop`", "p:b /bin/uprobetest:0x13b0", "ucall_target_nop"),
    ("uprobe_args_target_c", "uprobe with `x=%di:s32`",
     "p:b /bin/uprobetest:0x13c0 x=%di:s32", "ucall_target_c"),
    ("uretprobe_retval_target_c", "uretprobe `ret=$retval:s32`",
     "r:b /bin/uprobetest:0x13c0 ret=$retval:s32", "ucall_target_c"),
]
UPROBE_GOAL = 2
UPROBE_ROW = re.compile(r"^\| (.+?) \| ([0-9,]+)", re.M)


def uprobe_figures():
    """`uprobe_NAME: LUCID insns (linux LINUX, ratio R, goal 0.5)`: one call of the target with
    the probe's event enabled, the median of uprobetest's 5000."""
    if not os.path.exists(LBENCH_README):
        print("uprobe: no %s: skipped" % LBENCH_README)
        return
    with open(LBENCH_README) as f:
        rows = UPROBE_ROW.findall(f.read())
    k = Lucid(icount=True, smp=1, timeout=300)  # one CPU, as Linux's figures
    try:
        plain = k.run("uprobetest", timeout=1800)
        print("uprobe_plain_calls: %s insns (target_c, target_push, target_nop unprobed)" %
              ", ".join(uprobetest_median(plain, t) or "none" for t in
                        ("ucall_target_c", "ucall_target_push", "ucall_target_nop")))
        for name, row, probe, test in UPROBE_BENCH:
            theirs = next((int(v.replace(",", "")) for r, v in rows if r.startswith(row)), None)
            k.run("cd /sys/kernel/tracing; echo '%s' > uprobe_events; "
                  "echo 1 > events/uprobes/b/enable" % probe)
            out = k.run("uprobetest", timeout=1800)
            k.run("echo 0 > events/uprobes/b/enable; echo > uprobe_events; echo > trace")
            med = uprobetest_median(out, test)
            if not med or not theirs:
                print("%s: none (linux %s): %s" % (name, theirs, out.strip()[-200:]))
                continue
            ratio = int(med) / theirs
            print("%s: %s insns (linux %d, ratio %.3f, goal %.3f%s)" %
                  (name, med, theirs, ratio, 1 / UPROBE_GOAL,
                   "" if ratio <= 1 / UPROBE_GOAL else ", over"))
    finally:
        k.close()


# Probes and filters on a system call: pidbench (tests/user/pidbench.c, lbench's
# getpid_raw method) with each set up as Linux 6.1 was measured on the same QEMU (the README's
# "Probes" table, matched by the row's start; Linux's function is __x64_sys_getpid, Lucid's
# sys_getpid, whose +5 is its first instruction after the fentry site). Goal: half of Linux's.
PROBE_BENCH = [
    ("kprobe_entry", "kprobe on `__x64_sys_getpid` (its entry",
     "echo 'p:b sys_getpid' > kprobe_events; echo 1 > events/kprobes/b/enable"),
    ("kprobe_inner_int3", "the same as a plain int3",
     "echo 'p:b sys_getpid+5' > kprobe_events; echo 1 > events/kprobes/b/enable"),
    ("kprobe_entry_args", "entry kprobe with `regs=%di comm=$comm`",
     "echo 'p:b sys_getpid regs=%di comm=$comm' > kprobe_events; "
     "echo 1 > events/kprobes/b/enable"),
    ("kretprobe_retval", "kretprobe `ret=$retval`",
     "echo 'r:b sys_getpid ret=$retval' > kprobe_events; echo 1 > events/kprobes/b/enable"),
    ("sys_enter_filter_rejects_all", "raw_syscalls:sys_enter with a filter that rejects all",
     "echo 'id == 99999' > events/raw_syscalls/sys_enter/filter; "
     "echo 1 > events/raw_syscalls/sys_enter/enable"),
    ("sys_enter_no_filter", "raw_syscalls:sys_enter, no filter",
     "echo 1 > events/raw_syscalls/sys_enter/enable"),
    ("sys_enter_hist_keys_id", "`hist:keys=id` on raw_syscalls:sys_enter (trigger only)",
     "echo 'hist:keys=id' > events/raw_syscalls/sys_enter/trigger"),
]
PROBE_UNDO = ("echo 0 > events/enable; echo 0 > events/raw_syscalls/sys_enter/filter; "
              ": > events/raw_syscalls/sys_enter/trigger; echo > kprobe_events; echo > trace")
PIDBENCH = re.compile(r"^pidbench: med=(\d+)", re.M)


def probe_figures():
    """`probe_NAME: LUCID insns (linux LINUX, ratio R, goal 0.5; added A vs B)`: a raw getpid
    with the probe or filter set up, the median of 5000, beside Linux's total and added cost."""
    if not os.path.exists(LBENCH_README):
        print("probe: no %s: skipped" % LBENCH_README)
        return
    with open(LBENCH_README) as f:
        rows = UPROBE_ROW.findall(f.read())
    linux_plain = linux_figures().get("getpid_raw")
    k = Lucid(icount=True, smp=1, timeout=300)  # one CPU, as Linux's figures
    try:
        k.run("cd /sys/kernel/tracing")
        m = PIDBENCH.search(k.run("pidbench", timeout=600))
        plain = int(m.group(1)) if m else None
        print("probe_plain_getpid: %s insns (linux %s)" % (plain, linux_plain))
        for name, row, setup in PROBE_BENCH:
            theirs = next((int(v.replace(",", "")) for r, v in rows if r.startswith(row)), None)
            k.run(setup)
            out = k.run("pidbench", timeout=600)
            k.run(PROBE_UNDO)
            m = PIDBENCH.search(out)
            if not m or not theirs or not plain or not linux_plain:
                print("probe_%s: none (linux %s): %s" % (name, theirs, out.strip()[-200:]))
                continue
            ours = int(m.group(1))
            ratio = ours / theirs
            print("probe_%s: %d insns (linux %d, ratio %.3f, goal %.3f%s; added %d vs %d)" %
                  (name, ours, theirs, ratio, 1 / UPROBE_GOAL,
                   "" if ratio <= 1 / UPROBE_GOAL else ", over", ours - plain,
                   theirs - linux_plain))
    finally:
        k.close()


def uprobetest_median(out, test):
    """The median of test in uprobetest's @@@R lines (errs=0 only), as text, or None."""
    m = re.search(r"^@@@R round=\d+ test=%s n=\d+ .* med=(\d+) .* errs=0$" % test, out, re.M)
    return m.group(1) if m else None


# Debian's busybox sh (the initramfs's /bin/sh) running two loops, as Linux 6.1 ran them on the
# same QEMU (../shared/bench/README.md): the whole `sh -c`, its fork and exec included, counted
# by tests/user/insns.c from the TSC, which counts instructions under -icount shift=0. The goal
# is at most half of Linux's.
BUSYBOX_LOOPS = [
    ("busybox_while_1000", "i=0; while [ $i -lt 1000 ]; do i=$((i+1)); done", 15_500_000),
    ("busybox_fork_exec_200", "for i in $(seq 200); do /bin/true; done", 175_000_000),
]
BUSYBOX_GOAL = 2
INSNS_LINE = re.compile(r"^insns: (\d+)$", re.M)


# The while loop less its start-up: the same `sh -c` with no iteration (fork and exec of sh, its
# start-up and exit). What is left is the 1,000 iterations, busybox's own code nearly all
# (docs/design/busybox-cost.md).
BUSYBOX_EMPTY_LOOP = "i=0; while [ $i -lt 0 ]; do i=$((i+1)); done"


def busybox_figures():
    """`busybox_NAME: LUCID insns (linux LINUX, ratio R, goal 0.5)` for each loop."""
    k = Lucid(icount=True, smp=1, timeout=300)  # one CPU, as Linux's figures
    try:
        counts = {}
        for name, loop, theirs in BUSYBOX_LOOPS:
            out = k.run("insns /bin/sh -c '%s'" % loop, timeout=3600)
            m = INSNS_LINE.search(out)
            if not m:
                print("%s: none (linux %d): %s" % (name, theirs, out.strip()[-200:]))
                continue
            counts[name] = int(m.group(1))
            ratio = int(m.group(1)) / theirs
            print("%s: %s insns (linux %d, ratio %.3f, goal %.3f%s)" %
                  (name, m.group(1), theirs, ratio, 1 / BUSYBOX_GOAL,
                   "" if ratio <= 1 / BUSYBOX_GOAL else ", over"))
        m = INSNS_LINE.search(k.run("insns /bin/sh -c '%s'" % BUSYBOX_EMPTY_LOOP, timeout=600))
        if m and "busybox_while_1000" in counts:
            print("busybox_while_1000_iterations_only: %d insns (the line less sh -c's start-up "
                  "and exit, %s)" % (counts["busybox_while_1000"] - int(m.group(1)), m.group(1)))
    finally:
        k.close()


def main():
    if sys.argv[1:] == ["uprobes"]:
        uprobe_figures()  # tools/bench.py uprobes: only those lines
        probe_figures()
        return 0
    lbench_figures()
    busybox_figures()
    uprobe_figures()
    probe_figures()
    if sys.argv[1:] == ["lbench"]:
        return 0  # tools/bench.py lbench: only the lbench and busybox lines
    hostshare_figures()
    trace_cmd_figures()
    figures = guest_figures()
    for name, (value, unit) in figures.items():
        print("%s: %s %s" % (name, value, unit))
    # The same workload on a kernel built without -pg: what do the NOPs cost?
    base_dir = os.path.join(ROOT, "build", "ftrace0")
    subprocess.run(["make", "-s", "-C", ROOT, "B=" + base_dir, "FTRACE=0", "iso"], check=True,
                   stdout=subprocess.DEVNULL)
    base = guest_figures(base_dir)
    ratio = int(figures["workload_insns"][0]) / int(base["workload_insns"][0])
    print("nop_overhead_ratio: %.4f ratio" % ratio)
    # The same for a file-system workload, whose functions are bigger (kernel/debug/bench.c).
    if int(base["fs_workload_insns"][0]):
        ratio = int(figures["fs_workload_insns"][0]) / int(base["fs_workload_insns"][0])
        print("nop_overhead_ratio_fs: %.4f ratio" % ratio)
    walls = []
    for _ in range(5):
        k = Lucid()
        walls.append(k.boot_seconds)
        k.close()
    print("boot_to_prompt_wall_s: %.3f s" % statistics.median(walls))
    return 0


if __name__ == "__main__":
    sys.exit(main())

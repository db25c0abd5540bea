"""lbench (../shared/bench/lbench.c, /bin/lbench): the system calls `make bench` measures all work.

Not a speed test (this boot has no icount and other work shares the machine): every timed call
of the lines tools/bench.py compares with Linux must succeed (lbench counts failures in `errs`),
and every trace_marker write must be recorded.
"""
import os
import re

from lucid import ROOT

# One CPU, as `make bench` runs it: lbench counts trace events in per_cpu/cpu0 alone.
BOOT = {"smp": 1}
SOURCE = os.path.join(ROOT, "..", "shared", "bench", "lbench.c")
RESULT = re.compile(r"^@@@R round=\d+ test=(\S+) n=(\d+) .* med=(\d+) .* errs=(\d+)", re.M)
# The README's lines.
SUITE = ["getpid_raw", "write1_devnull_raw", "read1_devzero_raw", "openclose_/init_raw",
         "pipe_rt_raw", "pagefault_anon_write_touch_pt_present", "fork_exit_wait_raw",
         "fork_exec_wait_raw"]
# A fault costs at least the exception's entry and exit: fewer cycles than this means the write
# found its page mapped, and there was no fault to measure (anonymous mmap is demand-paged).
FAULT_AT_LEAST = 100
TRACE = ["marker_write1_tracing_on_nop_raw", "getpid_raw_functracer_on",
         "getpid_raw_functracer_tracing_off"]


def results(out):
    return {name: (int(n), int(med), int(errs)) for name, n, med, errs in RESULT.findall(out)}


def test_lbench_runs_its_system_calls(lucid):
    if not os.path.exists(SOURCE):
        return  # built only where the shared benchmark is beside the repository
    assert lucid.run("/bin/lbench -x; echo $?") == "0\n"
    lucid.run("echo lbench > /init")  # Linux's initramfs has /init; lbench opens it
    out = lucid.run("/bin/lbench suite 1", timeout=600)
    assert "@@@END lbench suite\n" in out, out[-3000:]
    got = results(out)
    for name in SUITE:
        assert name in got, (name, out[-3000:])
        n, med, errs = got[name]
        assert n > 0 and med > 0 and errs == 0, (name, got[name])
    assert got["pagefault_anon_write_touch_pt_present"][1] >= FAULT_AT_LEAST, got
    assert "@@@ERR setup" not in out, out
    lucid.run("rm /init")


def test_lbench_trace_records_every_marker(lucid):
    if not os.path.exists(SOURCE):
        return
    out = lucid.run("/bin/lbench trace", timeout=600)
    assert "@@@END lbench trace\n" in out, out[-3000:]
    got = results(out)
    for name in TRACE:
        assert name in got and got[name][2] == 0, (name, out[-3000:])
    m = re.search(r"marker_write1_tracing_on_nop_raw \((\d+) writes\): (\d+)", out)
    assert m and m.group(1) == m.group(2), out[-3000:]
    m = re.search(r"marker write with tracing_on=0 returns (-?\d+) \((.*)\)", out)
    assert m and m.group(2) == "Bad file descriptor", out
    per_call = [float(x) for x in re.findall(r"events per raw getpid = ([0-9.]+)", out)]
    assert per_call and all(x >= 1 for x in per_call), out[-3000:]
    # lbench leaves the nop tracer on; the kernel still answers
    T = "/sys/kernel/tracing"
    assert lucid.run("cat %s/current_tracer" % T) == "nop\n"
    lucid.run("echo > %s/trace" % T)

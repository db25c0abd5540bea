#!/usr/bin/python3
"""Stress Lucid's tracer on 4 CPUs: switch everything while a workload runs, then check.

  tests/stress.py [--minutes M] [--smp N]     (make stress: 10 minutes; make soak MINUTES=M)

Each round starts `run_test` in the background and, while it runs, types lines that switch
the tracer through every one in available_tracers many times, change the function filters,
resize the buffer, flip tracing_on, overwrite and the trace events, and drain trace_pipe with
the function tracer on every function (function_graph too, when Lucid has it: interrupts then
nest inside traced functions on every CPU). After each round, with recording off:
  - no oops, and the shell still answers;
  - /sys/kernel/debug/rbstat: on every CPU, events written = entries + read + overrun + dropped
    + commit overrun;
  - every line of `trace` parses as one of the reference formats, and with the function
    tracer the event lines are exactly the header's entries-in-buffer;
  - hist triggers on sched_switch, sys_enter and kmalloc, in an instance of their own made
    afresh each round: each histogram's lines add up to its Totals, and the hits of the three
    are exactly the events that instance's buffer was given (entries + overrun + dropped +
    read). The instance's set_event_pid is the gate: it names no task while the triggers and
    events are set up, then (one write) the round's workload, whose children event-fork adds
    as they are made; the check runs once it has exited. The shell's own events, those of
    the other tasks, and any before or after, pass neither the histograms nor the buffer: the
    one pid test decides both (instances_commit()), so the two counts must be equal.
The last line is the figures: rounds, tracer switches, events written, minutes.
tests/qemu/trace/test_stress.py runs a short version in `make test`.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "qemu"))
from lucid import Lucid  # noqa: E402

T = "/sys/kernel/debug/tracing"
PREFIX = r"^ {0,16}\S.{0,15}-\d+ +\[\d{3}\] [dX.][Nnp.][hsHzZ.][0-9a-f.] +\d+\.\d{6}: "
FORMATS = [
    re.compile(PREFIX + r"\S+( <-\S+)?$"),                      # function
    re.compile(PREFIX + r"<stack trace>$"),                     # func_stack_trace
    re.compile(PREFIX + r"[\w:]+: .*$"),                        # events, printk, markers
    re.compile(PREFIX + r"sys_\w+\((\w+: [0-9a-f]+(, )?)*\)$"),  # syscalls:sys_enter_NAME
    re.compile(PREFIX + r"sys_\w+ -> 0x[0-9a-f]+$"),             # syscalls:sys_exit_NAME
    re.compile(r"^ => \S+$"),                                   # stack frames
    re.compile(r"^ ?\d+\)"),                                    # function_graph, CPU column
    re.compile(r"^ *(\S.{0,15}-\d+ +)?(\d+\.\d+ \| )?[ +!#*@$]? *[\d.]* (us|ms|s)? *\|"),  # graph
    re.compile(r"^ *\|"),                                       # graph, no duration column
    re.compile(r"^ -{6,}$|^ \d+\) .*=>.*$"),                    # graph task-switch banner
    re.compile(r"^CPU:\d+ \[LOST (\d+ )?EVENTS\]$"),
    re.compile(r"^##### CPU \d+ buffer started ####$"),
    # the latency tracers' format: "%8.8s-%-5d %3d", the flags, " %4lluus%c: "
    re.compile(r"^.{8}-\d+ +\d+[dX.][Nnp.][hsHzZ.][0-9a-f.] +\d+us[ +!#*@$]: .*$"),
]
SWITCHES_PER_LINE = 12
# The hist triggers of each round: the events each fires on, and its definition.
HIST_TRIGGERS = [("sched/sched_switch", "hist:keys=common_pid"),
                 ("raw_syscalls/sys_enter", "hist:keys=id.syscall"),
                 ("kmem/kmalloc", "hist:keys=call_site.sym:vals=bytes_req")]
# set_event_pid while the round's histograms are set up: a pid no task has (pids are handed
# out in order, and a run makes far fewer)
NO_TASK_PID = 999999999
HIST_TOTALS = re.compile(r"^Totals:\n    Hits: (\d+)\n    Entries: (\d+)\n    Dropped: (\d+)$", re.M)
STATS_WRITTEN = ("entries", "overrun", "commit overrun", "dropped events", "read events")


def ok(lucid, line, timeout=120):
    out = lucid.run(line, timeout=timeout)
    if "Kernel panic" in out or "Oops" in out:
        raise AssertionError("oops after %r:\n%s" % (line, out))
    return out


def quiet(lucid, line, timeout=120):
    """A line of tracing writes: every one must succeed silently (a background job may finish
    meanwhile: its Done line is fine)."""
    out = ok(lucid, line, timeout)
    out = re.sub(r"^\[\d+\][+ ]  Done .*\n", "", out, flags=re.M)
    assert out == "", "%r printed %r" % (line[:200], out[-2000:])


def malformed(lines):
    return [l for l in lines if l and not l.startswith("#") and
            not any(f.match(l) for f in FORMATS)]


class Stress:
    def __init__(self, smp):
        self.lucid = Lucid(smp=smp, timeout=90)
        self.switches = self.written = self.rounds = self.lines_checked = self.hist_hits = 0
        ok(self.lucid, "cd %s" % T)
        self.tracers = ok(self.lucid, "cat available_tracers").split()
        self.has_events = ok(self.lucid, "ls events/enable 2>/dev/null") != ""
        self.has_hist = ok(self.lucid, "ls events/sched/sched_switch/hist 2>/dev/null") != ""
        # A round's workload: run_test, then system calls of the background shell itself
        # (reads of a proc file by redirection), so that all three events are the gated
        # tasks' own. A function: its job's Done line is one line.
        quiet(self.lucid, "workload() { run_test -r 40; "
                          "for i in $(seq 100); do : < /proc/loadavg; done; }")

    def switch_line(self, i):
        """One line of SWITCHES_PER_LINE tracer switches mixed with other changes."""
        cmds = []
        for k in range(SWITCHES_PER_LINE):
            cmds.append("echo %s > current_tracer" % self.tracers[(i + k) % len(self.tracers)])
        extra = [
            "echo 'ftest_*' > set_ftrace_filter", "echo '*lock*' >> set_ftrace_filter",
            "echo '!*unlock*' >> set_ftrace_filter", "echo > set_ftrace_filter",
            "echo 'rt_*' > set_ftrace_notrace", "echo > set_ftrace_notrace",
            "echo 64 > buffer_size_kb", "echo 1408 > buffer_size_kb",
            "echo 0 > tracing_on", "echo 1 > tracing_on",
            "echo 0 > options/overwrite", "echo 1 > options/overwrite",
            "echo global > trace_clock", "echo local > trace_clock",
        ]
        if self.has_events:
            extra += ["echo 1 > events/enable", "echo 0 > events/enable"]
        mixed = []
        for k, c in enumerate(cmds):
            mixed.append(c)
            mixed.append(extra[(i + k) % len(extra)])
        self.switches += SWITCHES_PER_LINE
        return "; ".join(mixed)

    def check(self, tracer):
        """Recording off: the counters add up and every line parses."""
        lucid = self.lucid
        quiet(lucid, "echo 0 > tracing_on")
        out = ok(lucid, "cat /sys/kernel/debug/rbstat")
        assert "MISMATCH" not in out, out
        self.written += sum(int(w) for w in re.findall(r"written (\d+)", out))
        text = ok(lucid, "cat trace", timeout=600)
        lines = text.splitlines()
        bad = malformed(lines)
        assert not bad, "malformed lines under %s: %r" % (tracer, bad[:5])
        if tracer == "function":
            m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", text)
            events = [l for l in lines if l and not l.startswith("#") and
                      not l.startswith(" =>") and "<stack trace>" not in l and
                      not l.startswith("CPU:") and not l.startswith("#####")]
            assert m and int(m.group(1)) == len(events), (m and m.group(0), len(events))
        self.lines_checked += len(lines)
        quiet(lucid, "echo 1 > tracing_on")

    def hist_start(self):
        """The round's histograms, counting while everything below switches."""
        cmds = ["mkdir instances/hist", "cd instances/hist",
                "echo %d > set_event_pid" % NO_TASK_PID, "echo 1 > options/event-fork"]
        cmds += ["echo '%s' > events/%s/trigger" % (t, e) for e, t in HIST_TRIGGERS]
        cmds += ["echo 1 > events/%s/enable" % e for e, _ in HIST_TRIGGERS]
        quiet(self.lucid, "; ".join(cmds + ["cd ../.."]))

    def hist_check(self):
        """Every hit counted: the histograms against themselves and against the buffer (the
        workload has exited: nothing passes the gate any more)."""
        lucid = self.lucid
        hits = 0
        for e, _ in HIST_TRIGGERS:
            text = ok(lucid, "cat instances/hist/events/%s/hist" % e)
            m = HIST_TOTALS.search(text)
            assert m, text[-1000:]
            lines = sum(int(c) for c in re.findall(r"hitcount: +(\d+)", text))
            assert lines + int(m.group(3)) == int(m.group(1)), (e, lines, m.group(0))
            hits += int(m.group(1))
        stats = ok(lucid, "cat instances/hist/per_cpu/cpu*/stats")
        written = sum(int(n) for k in STATS_WRITTEN
                      for n in re.findall(r"^%s: (\d+)$" % k, stats, re.M))
        assert 0 < written == hits, (hits, written, stats)
        quiet(lucid, "rmdir instances/hist")
        self.hist_hits += hits

    def round(self):
        lucid = self.lucid
        i = self.rounds
        if self.has_hist:
            self.hist_start()
        # Its output goes to a file: the console carries only what the checks read.
        out = ok(lucid, "workload > /tmp/stress.out &")
        assert re.match(r"^\[\d+\] \d+\n$", out), out
        if self.has_hist:  # the gate opens: from now on its events are the histograms'
            quiet(lucid, "echo $! > instances/hist/set_event_pid")
        for k in range(3):
            quiet(lucid, self.switch_line(i * 3 + k))
        # Drain trace_pipe with every function traced, while run_test still runs. Recording
        # on: a round's switch lines may end with it off (rounds 9, 25, ...), and if the
        # switch to function emptied the buffer, trace_pipe would wait for events for ever.
        quiet(lucid, "echo > set_ftrace_filter; echo function > current_tracer; "
                     "echo 1 > tracing_on")
        ok(lucid, "head -c 200000 trace_pipe > /dev/null")
        if "function_graph" in self.tracers:
            quiet(lucid, "echo function_graph > current_tracer")
            ok(lucid, "sleep 1")
        out = ok(lucid, "wait", timeout=600)
        assert "Exit" not in out, out
        out = ok(lucid, "cat /tmp/stress.out")
        assert out.endswith(" ok\n"), out
        if self.has_hist:
            self.hist_check()
        # A bounded trace to check: function on everything, a small buffer, run_test again.
        quiet(lucid, "echo 128 > buffer_size_kb; echo function > current_tracer")
        assert ok(lucid, "run_test -r 4").endswith("ok\n")
        self.check("function")
        if "function_graph" in self.tracers:
            quiet(lucid, "echo function_graph > current_tracer")
            assert ok(lucid, "run_test -r 4").endswith("ok\n")
            self.check("function_graph")
        quiet(lucid, "echo nop > current_tracer; echo 1408 > buffer_size_kb")
        self.rounds += 1

    def finish(self):
        out = ok(self.lucid, "dmesg")
        assert "Oops" not in out and "BUG" not in out, out[-3000:]
        assert ok(self.lucid, "echo alive") == "alive\n"
        self.lucid.close()


def run(minutes, smp=4, out=sys.stdout):
    t0 = time.monotonic()
    s = Stress(smp)
    try:
        while time.monotonic() - t0 < minutes * 60:
            s.round()
        s.finish()
    except BaseException:
        print(s.lucid.tail(4000), file=out)
        s.lucid.close()
        raise
    figures = ("stress: %d rounds, %d tracer switches, %d events written and accounted for, "
               "%d trace lines parsed, %d hist hits accounted for, %.1f minutes, tracers %s" %
               (s.rounds, s.switches, s.written, s.lines_checked, s.hist_hits,
                (time.monotonic() - t0) / 60, " ".join(s.tracers)))
    print(figures, file=out, flush=True)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=5)
    ap.add_argument("--smp", type=int, default=4)
    a = ap.parse_args()
    run(a.minutes, a.smp)


if __name__ == "__main__":
    main()

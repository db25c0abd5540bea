#!/usr/bin/python3
"""Lucid's raw trace as the Trace Event Format (JSON), for Perfetto and chrome://tracing.

    tools/lucid-record --json trace.json -- run_test       # records and converts
    tools/trace_json.py MIRROR -o trace.json               # converts a `lucid-record --keep`

The input is what lucid-record copies out of the guest: each CPU's ring-buffer pages
(trace.dat.cpuN) and the files that describe them (the format files, kallsyms,
printk_formats, saved_cmdlines). Records are decoded with the format files
(tools/ftrace_format.py), merged across CPUs by time, and become:

  function_graph   one complete slice ("ph": "X") per function that returned, from its
                   funcgraph_exit record: calltime to rettime, on the task's track, so the
                   UI stacks them into a flame chart
  function         an instant event ("ph": "i") per call, named by the function
  trace_printk,    an instant event named by the message (print, bprint, bputs)
  trace_marker
  sched_switch     who ran on each CPU: one slice per stretch a task ran, on the CPU's track
                   (process "CPUs"), ending with the state it left in ("S", "R+", ...);
                   JSON has no thread states of its own
  lost events      a global instant "CPU:N [M EVENTS DROPPED]" where a CPU's pages say
                   events were overwritten before the copy
  anything else    an instant event with the record's fields as args (sched_wakeup, irq_*)

Tasks appear under their comm (saved_cmdlines and sched_switch): each pid is a process with
one thread, as Lucid's tasks are. The idle task is pid 0 on every CPU, so each CPU's gets a
thread of its own (swapper/N). Times are microseconds (floats, to the nanosecond).
"""
import argparse
import heapq
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftrace_format  # noqa: E402
import ftrace_raw  # noqa: E402

# Pseudo ids for tracks that are no task: above any pid Linux can give (PID_MAX_LIMIT).
PID_LIMIT = 1 << 22
IDLE_TID = PID_LIMIT  # + cpu: the idle task (pid 0) of each CPU
CPUS_PID = 2 * PID_LIMIT  # the "CPUs" process; its thread CPUS_PID + cpu is CPU cpu
NS_PER_US = 1000.0


def us(ns):
    return round(ns / NS_PER_US, 3)


class Trace:
    """The decoded records of a mirror directory, oldest first."""

    def __init__(self, mirror):
        tracing = os.path.join(mirror, "tracing")
        self.events = ftrace_format.load_events(tracing)
        with open(os.path.join(mirror, "kallsyms")) as f:
            self.symbols = ftrace_format.Symbols(f.read())
        with open(os.path.join(tracing, "printk_formats")) as f:
            self.printk = ftrace_format.load_printk_formats(f.read())
        self.comms = {}
        with open(os.path.join(tracing, "saved_cmdlines")) as f:
            for line in f:
                pid, _, comm = line.rstrip("\n").partition(" ")
                if pid.isdigit():
                    self.comms[int(pid)] = comm
        self.cpus = {}
        for name in sorted(os.listdir(mirror)):
            if name.startswith("trace.dat.cpu"):
                with open(os.path.join(mirror, name), "rb") as f:
                    self.cpus[int(name[len("trace.dat.cpu"):])] = ftrace_raw.pages(f.read())

    def records(self):
        """(ts, cpu, event or None, fields, lost) merged by time; lost: events dropped
        just before this record (-1: some, how many unknown)."""
        def one_cpu(cpu, pages):
            for page in pages:
                lost = (page.lost if page.lost is not None else -1) if page.missed else 0
                for ts, payload in page.records:
                    etype = ftrace_raw.common(payload)[0]
                    ev = self.events.get(etype)
                    fields = ev.decode(payload) if ev else {"common_type": etype}
                    yield ts, cpu, ev, fields, lost
                    lost = 0
        streams = [one_cpu(cpu, pages) for cpu, pages in sorted(self.cpus.items())]
        # Ties keep CPU order (heapq.merge is stable), as trace-cmd's merge does.
        return heapq.merge(*streams, key=lambda r: (r[0], r[1]))

    def message(self, name, f):
        """The text of a trace_printk or trace_marker record."""
        if name == "print":
            return f["buf"].split(b"\0")[0].decode("utf-8", "replace")
        if name == "bputs":
            return self.printk.get(f["str"], "0x%x" % f["str"])
        fmt = self.printk.get(f["fmt"])
        if fmt is None:
            return "[unknown format 0x%x]" % f["fmt"]
        return ftrace_format.bprint(fmt, f["buf"], self.symbols)


def convert(trace):
    """The JSON object of a Trace."""
    out = []
    threads = {}  # (pid, tid) -> name
    running = {}  # cpu -> (since, pid, comm)
    first = {}  # cpu -> the time of its first record
    last_ts = 0

    def thread(pid, cpu):
        if pid == 0:
            key = (0, IDLE_TID + cpu)
            threads[key] = "swapper/%d" % cpu
            return key
        key = (pid, pid)
        threads.setdefault(key, trace.comms.get(pid, "<...>"))
        return key

    def cpu_slice(cpu, end, state):
        since, pid, comm = running.pop(cpu)
        out.append({"name": comm, "cat": "sched", "ph": "X", "ts": us(since),
                    "dur": us(end - since), "pid": CPUS_PID, "tid": CPUS_PID + cpu,
                    "args": {"pid": pid, "prev_state": state}})

    for ts, cpu, ev, f, lost in trace.records():
        last_ts = max(last_ts, ts)
        first.setdefault(cpu, ts)
        if lost:  # trace-cmd report's words
            text = "CPU:%d [%d EVENTS DROPPED]" % (cpu, lost) if lost > 0 else \
                "CPU:%d [EVENTS DROPPED]" % cpu
            out.append({"name": text, "cat": "lost", "ph": "i", "s": "g", "ts": us(ts),
                        "pid": CPUS_PID, "tid": CPUS_PID + cpu})
        if ev is None:
            continue
        pid, tid = thread(f["common_pid"], cpu)
        base = {"ts": us(ts), "pid": pid, "tid": tid}
        name = ev.name
        if name == "function":
            out.append(dict(base, name=trace.symbols.name(f["ip"]), cat="function", ph="i",
                            s="t", args={"parent": trace.symbols.name(f["parent_ip"]),
                                         "cpu": cpu}))
        elif name == "funcgraph_exit":
            out.append(dict(base, name=trace.symbols.name(f["func"]), cat="function_graph",
                            ph="X", ts=us(f["calltime"]), dur=us(f["rettime"] - f["calltime"]),
                            args={"depth": f["depth"], "cpu": cpu}))
        elif name == "funcgraph_entry":
            pass  # its exit makes the slice
        elif name in ("print", "bprint", "bputs"):
            out.append(dict(base, name=trace.message(name, f).strip(),
                            cat="marker" if name == "print" else "trace_printk", ph="i", s="t",
                            args={"caller": trace.symbols.name(f["ip"]), "cpu": cpu}))
        elif name == "kernel_stack":
            words = f["caller"]
            frames = [int.from_bytes(words[i:i + 8], "little")
                      for i in range(0, min(len(words), 8 * f["size"]), 8)]
            out.append(dict(base, name="<stack trace>", cat="stack", ph="i", s="t",
                            args={"stack": [trace.symbols.name(a) for a in frames]}))
        elif name == "sched_switch":
            trace.comms[f["prev_pid"]] = f["prev_comm"]
            trace.comms[f["next_pid"]] = f["next_comm"]
            if f["prev_pid"] == 0:
                threads[(0, IDLE_TID + cpu)] = f["prev_comm"]
            if cpu not in running:  # it ran since the CPU's first record
                running[cpu] = (first[cpu], f["prev_pid"], f["prev_comm"])
            cpu_slice(cpu, ts, prev_state(f["prev_state"]))
            running[cpu] = (ts, f["next_pid"], f["next_comm"])
            out.append(dict(base, name="sched_switch", cat="sched", ph="i", s="t",
                            args=event_args(f)))
        else:
            out.append(dict(base, name=name, cat=ev.system, ph="i", s="t", args=event_args(f)))
    for cpu in list(running):
        cpu_slice(cpu, last_ts, "")
    meta = []
    if any(e["pid"] == CPUS_PID for e in out):  # sched_switch or lost events: CPU tracks
        meta.append({"name": "process_name", "ph": "M", "pid": CPUS_PID, "tid": CPUS_PID,
                     "args": {"name": "CPUs"}})
        for cpu in sorted(trace.cpus):
            meta.append({"name": "thread_name", "ph": "M", "pid": CPUS_PID,
                         "tid": CPUS_PID + cpu, "args": {"name": "CPU %d" % cpu}})
    for (pid, tid), name in sorted(threads.items()):
        comm = trace.comms.get(pid, name) if pid else "swapper"
        name = comm if pid else name  # the last comm a task had; swapper/N per CPU
        meta.append({"name": "process_name", "ph": "M", "pid": pid, "tid": tid,
                     "args": {"name": comm}})
        meta.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                     "args": {"name": name}})
    out.sort(key=lambda e: e["ts"])
    return {"traceEvents": meta + out, "displayTimeUnit": "ns",
            "otherData": {"source": "Lucid (tools/lucid-record)"}}


STATE_LETTERS = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"), (0x20, "Z"),
                 (0x40, "P"), (0x80, "I")]
TASK_REPORT_MAX = 0x100


def prev_state(state):
    """sched_switch's prev_state as Linux prints it: R, S, D, ..., and + when preempted."""
    letters = "|".join(l for bit, l in STATE_LETTERS if state & (TASK_REPORT_MAX - 1) & bit)
    return (letters or "R") + ("+" if state & TASK_REPORT_MAX else "")


def event_args(f):
    return {k: (v.hex() if isinstance(v, bytes) else v)
            for k, v in f.items() if not k.startswith("common_")}


def from_mirror(mirror):
    return convert(Trace(mirror))


def write(obj, path):
    """One event a line: valid JSON that diff and grep can still read."""
    rest = {k: v for k, v in obj.items() if k != "traceEvents"}
    with open(path, "w") as f:
        f.write('{"traceEvents": [\n')
        f.write(",\n".join(json.dumps(e) for e in obj["traceEvents"]))
        f.write("\n],\n%s\n" % json.dumps(rest)[1:])


PHASES = {"X", "B", "E", "i", "I", "M", "C"}


def validate(obj):
    """Problems with obj as a Trace Event Format file (the rules chrome://tracing and
    Perfetto's JSON importer apply); empty if none."""
    problems = []
    events = obj.get("traceEvents") if isinstance(obj, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"]
    open_slices = {}
    for i, e in enumerate(events):
        where = "event %d (%s)" % (i, e.get("name"))
        ph = e.get("ph")
        if ph not in PHASES:
            problems.append("%s: phase %r" % (where, ph))
            continue
        if not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int):
            problems.append("%s: needs a name and an integer pid" % where)
        if ph == "M":
            if not isinstance(e.get("args", {}).get("name"), str):
                problems.append("%s: metadata without args.name" % where)
            continue
        if not isinstance(e.get("tid"), int):
            problems.append("%s: needs an integer tid" % where)
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            problems.append("%s: ts %r is not microseconds" % (where, ts))
            continue
        if ph == "X" and (not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0):
            problems.append("%s: complete event without a duration" % where)
        if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
            problems.append("%s: instant scope %r" % (where, e.get("s")))
        if ph in ("B", "E"):
            stack = open_slices.setdefault((e["pid"], e["tid"]), [])
            if ph == "B":
                stack.append(e)
            elif not stack:
                problems.append("%s: E without B" % where)
            else:
                stack.pop()
    for key, stack in open_slices.items():
        if stack:
            problems.append("thread %s: %d B without E" % (key, len(stack)))
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mirror", help="a directory lucid-record --keep wrote")
    p.add_argument("-o", dest="output", default="trace.json")
    opts = p.parse_args()
    obj = from_mirror(opts.mirror)
    problems = validate(obj)
    if problems:
        sys.exit("trace_json: %s" % "; ".join(problems[:5]))
    write(obj, opts.output)


if __name__ == "__main__":
    main()

"""Traces out of the machine: tools/lucid-record, trace-cmd report, and the Trace Event Format.

Most recordings here take lucid-record's tracefs route (--route tracefs), the one that can
keep the guest's own text of the same records; the last tests take its default route, Debian's
trace-cmd record inside Lucid, and the 60-second record of run_test that must lose no event
trace-cmd does not report as lost.

Each recording boots its own kernel through the tool, as a user runs it, and keeps the guest's
own `cat trace` (taken just before the copy). trace-cmd must then list the same records: same
CPUs, pids, comms, timestamps and order, and for every event the very text Linux prints, which
`trace-cmd report -N` makes from the format files' print fmt alone; trace-cmd's own handlers
(function, kernel_stack) must agree too. Its exit status says little (it stays 0 on most
errors), so the text is checked for "[FAILED TO PARSE]" and "[UNKNOWN EVENT]". KernelShark's
library (libkshark, headless, through ctypes) must load the same records. The JSON must be a
valid Trace Event Format file that says the same things, in microseconds.

The shared kernel (the `lucid` tests) checks the files trace-cmd reads, in the guest.
"""
from tracefs import EINVAL, TRACE_LINE
import ctypes
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader

from lucid import BUILD, ROOT, Lucid, iso_for

sys.path.insert(0, os.path.join(ROOT, "tools"))
import ftrace_format  # noqa: E402
import trace_dat  # noqa: E402
import trace_json  # noqa: E402
from test_events import TraceEvent  # noqa: E402 - libtraceevent through ctypes

# Heavy, a minute of trace-cmd record while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True


T = "/sys/kernel/tracing"
LUCID_RECORD = os.path.join(ROOT, "tools", "lucid-record")
RECORD_TIMEOUT = 180
TASK_COMM_LEN = 16  # Linux's: a comm is 15 characters at most

# The guest's trace file: "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + the event's text.
# trace-cmd report -t: "comm-pid [cpu] sec.nsec: event: text".
REPORT = re.compile(r"^ *(?P<comm>.+?)-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] +(?P<sec>\d+)\."
                    r"(?P<nsec>\d{9}): (?P<event>\w+): +(?P<body>.*)$")
DROPPED = re.compile(r"^CPU:(?P<cpu>\d+) \[(?:(?P<n>\d+) )?EVENTS DROPPED\]$")
BROKEN = ("[FAILED TO PARSE]", "[UNKNOWN EVENT]", "ug! no event found")
# Perfetto's ftrace text importer (systrace_line_tokenizer.cc), the part after the task name.
PERFETTO_LINE = re.compile(r"-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*"
                           r"([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):")


# --- running the tool ----------------------------------------------------------------------------

class Recording:
    """One run of tools/lucid-record, with everything it wrote."""

    def __init__(self, args, command):
        tmp = tempfile.mkdtemp(prefix="lucid-test-record-")
        try:
            self.dat = os.path.join(tmp, "trace.dat")
            guest, js = os.path.join(tmp, "guest.txt"), os.path.join(tmp, "trace.json")
            build = os.environ.get("LUCID_BUILD", BUILD)
            # The tracefs route: it alone leaves the buffer unread, for the guest's own text.
            cmd = ["/usr/bin/python3", LUCID_RECORD, "--route", "tracefs", "--iso",
                   iso_for("", build), "-o", self.dat, "--guest-trace", guest, "--json",
                   js] + args + ["--", command]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=RECORD_TIMEOUT)
            assert r.returncode == 0, "lucid-record failed:\n%s\n%s" % (r.stdout, r.stderr)
            self.stdout, self.log = r.stdout, r.stderr
            with open(guest) as f:
                self.guest_text = f.read()
            with open(js) as f:
                self.json = json.load(f)
            self.plain = self.report("-N", "-t")  # print fmts only, full timestamps
            self.handled = self.report("-t")  # trace-cmd's handlers and plugins
            self.kshark = kshark_entries(self.dat)
        finally:
            shutil.rmtree(tmp)

    def report(self, *opts):
        """trace-cmd report's text; it must have parsed every record."""
        r = subprocess.run(["trace-cmd", "report"] + list(opts) + [self.dat],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stderr == "", (r.returncode, r.stderr)
        for bad in BROKEN:
            assert bad not in r.stdout, "%s in trace-cmd report %s:\n%s" % (bad, opts, r.stdout)
        return r.stdout

    def overruns(self):
        """{cpu: events overwritten before the copy}, as lucid-record printed them."""
        got = {}
        for m in re.finditer(r"^  cpu(\d+): \d+ pages, \d+ events(?:, (\d+) overwritten)?",
                             self.log, re.M):
            got[int(m.group(1))] = int(m.group(2) or 0)
        return got


class KsharkEntry(ctypes.Structure):
    pass


# struct kshark_entry (libkshark.h, KernelShark 2.x)
KsharkEntry._fields_ = [("next", ctypes.POINTER(KsharkEntry)), ("visible", ctypes.c_uint16),
                        ("stream_id", ctypes.c_int16), ("event_id", ctypes.c_int16),
                        ("cpu", ctypes.c_int16), ("pid", ctypes.c_int32),
                        ("offset", ctypes.c_int64), ("ts", ctypes.c_int64)]


def kshark_entries(path):
    """KernelShark's own loading of trace.dat (libkshark, headless): (ts, cpu, pid,
    system/event, info) of each entry, in KernelShark's order."""
    try:
        lib = ctypes.CDLL("libkshark.so.2")
    except OSError as e:
        raise AssertionError("libkshark is missing (make deps installs it): %s" % e)
    lib.kshark_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.kshark_load_entries.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    lib.kshark_load_entries.restype = ctypes.c_ssize_t
    for f in ("kshark_get_event_name", "kshark_get_info"):
        getattr(lib, f).argtypes = [ctypes.POINTER(KsharkEntry)]
        getattr(lib, f).restype = ctypes.c_char_p
    ctx = ctypes.c_void_p()
    assert lib.kshark_instance(ctypes.byref(ctx))
    sd = lib.kshark_open(ctx, path.encode())
    assert sd >= 0, sd
    rows = ctypes.POINTER(ctypes.POINTER(KsharkEntry))()
    n = lib.kshark_load_entries(ctx, sd, ctypes.byref(rows))
    assert n >= 0, n
    out = []
    for i in range(n):
        e = rows[i].contents
        # An empty info is NULL (an event without fields, sys_enter_getpid's "print fmt: \"\"")
        info = lib.kshark_get_info(rows[i]) or b""
        out.append((e.ts, e.cpu, e.pid, lib.kshark_get_event_name(rows[i]).decode(),
                    info.decode(errors="replace")))
    lib.kshark_close(ctx, sd)
    return out


def check_kshark(rec, pairs):
    """KernelShark loads every record: same times, CPUs, pids, events, and texts."""
    want = sorted((int(p["sec"]) * 10**9 + int(p["nsec"]), int(p["cpu"]), int(p["pid"]),
                   ("ftrace/" if p["event"] in FTRACE_RECORDS else "") + p["event"], p["body"])
                  for g, p in pairs)
    got = sorted(rec.kshark)
    assert len(got) == len(want), (len(got), len(want))
    for k, w in zip(got, want):
        assert k[:3] == w[:3] and k[3].split("/")[-1] == w[3].split("/")[-1], (k, w)
        if w[3] != "ftrace/kernel_stack":  # its info is the print fmt's 8 frames
            assert k[4].rstrip() == w[4].rstrip(), (k, w)


def guest_records(text):
    """The guest trace's records: dicts with the prefix's fields, body and continuation lines."""
    recs = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith(" => "):  # a stack trace's frames
            recs[-1]["more"].append(line[len(" => "):])
            continue
        m = TRACE_LINE.match(line)
        assert m, "not a trace line: %r" % line
        recs.append(dict(m.groupdict(), more=[], line=line))
    return recs


def report_records(text):
    """trace-cmd report -t's records, and {cpu: events dropped} from its DROPPED lines."""
    recs, dropped = [], {}
    for line in text.splitlines():
        if line.startswith("cpus="):
            continue
        d = DROPPED.match(line)
        if d:
            dropped[int(d.group("cpu"))] = int(d.group("n") or -1)
            continue
        m = REPORT.match(line)
        if not m:
            assert recs and line[:1] in ("\t", "="), "not a report line: %r" % line
            recs[-1]["more"].append(line.strip())
            continue
        recs.append(dict(m.groupdict(), more=[], line=line))
    return recs, dropped


def usecs(rec):
    """The report's nanoseconds as the guest prints them: rounded to microseconds (ns2usecs)."""
    t = (int(rec["sec"]) * 10**9 + int(rec["nsec"]) + 500) // 1000
    return "%d.%06d" % (t // 10**6, t % 10**6)


FTRACE_RECORDS = {"function", "kernel_stack", "print", "bprint", "bputs", "raw_data"}
RAW_DATA = re.compile(r"^# (?P<id>[0-9a-f]+) buf:(?P<bytes>(?: [0-9a-f]{2})*)$")


def linux_text(g, event):
    """The guest's text of a record as `trace-cmd report -N` prints it, from the print fmt."""
    body = g["body"]
    if event == "function":  # Linux's print fmt is " %ps <-- %ps"; the trace omits a parent 0
        m = re.match(r"^(\S+)(?: <-(\S+))?$", body)
        return "%s <-- %s" % (m.group(1), m.group(2) or "0x0")
    if event not in FTRACE_RECORDS:  # a trace event's line: "name: text"
        assert body.startswith(event + ": "), body
        return body[len(event) + 2:]
    if event == "raw_data":  # trace_marker_raw's "# ID buf: XX ...": print fmt "id:%04x %08x"
        m = RAW_DATA.match(body)
        data = m.group("bytes").split()
        return "id:%04x %08x" % (int(m.group("id"), 16), int(data[0], 16) if data else 0)
    if event == "bprint":
        # The one place the two printfs differ: the kernel's %p is 16 digits without 0x (Linux's
        # pointer_string), libtraceevent's is "0x%lx", as glibc's.
        body = re.sub(r"\b([0-9a-f]{16})\b", lambda m: "0x%x" % int(m.group(1), 16), body)
    return body  # trace_printk, trace_marker: "caller: text", as "%ps: %s"


def compare(rec, events_seen):
    """The guest's records and trace-cmd's, one for one; returns the pairs."""
    guest = guest_records(rec.guest_text)
    plain, _ = report_records(rec.plain)
    handled, _ = report_records(rec.handled)
    assert guest, rec.guest_text
    assert len(plain) == len(guest) == len(handled), (len(plain), len(guest), len(handled))
    for g, p, h in zip(guest, plain, handled):
        where = "\n guest: %s\n trace-cmd: %s" % (g["line"], p["line"])
        assert (g["comm"].strip(), g["pid"], g["cpu"], g["ts"]) == \
            (p["comm"], p["pid"], p["cpu"], usecs(p)), where
        assert (p["event"], p["pid"], p["cpu"], p["nsec"]) == \
            (h["event"], h["pid"], h["cpu"], h["nsec"]), where
        events_seen.add(p["event"])
        if p["event"] == "kernel_stack":
            assert g["body"] == "<stack trace>", where
            # trace-cmd's handler walks the record to its end: "=> func (address)".
            frames = [re.match(r"^=> (\S+) \([0-9a-f]+\)$", f).group(1) for f in h["more"]]
            assert frames == g["more"], where
        else:
            assert p["body"].rstrip() == linux_text(g, p["event"]).rstrip(), where
        if p["event"] == "function":  # trace-cmd's handler: the name, indented by depth
            assert h["body"].strip() == g["body"].split()[0], where
        if p["event"] == "raw_data":  # trace-cmd's handler: the id and every byte, as Linux's
            assert h["body"].strip() == g["body"].replace(" buf:", ""), where
    return list(zip(guest, plain))


# --- the JSON -------------------------------------------------------------------------------------

def json_events(obj):
    problems = trace_json.validate(obj)
    assert not problems, problems[:10]
    return [e for e in obj["traceEvents"] if e["ph"] != "M"]


def names_of(obj):
    """{(pid, tid): name} from the metadata."""
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in obj["traceEvents"]
            if e["ph"] == "M" and e["name"] == "thread_name"}


def ts_us(p):
    return round((int(p["sec"]) * 10**9 + int(p["nsec"])) / 1000.0, 3)


# --- the files trace-cmd reads, in the guest ------------------------------------------------------

def test_ftrace_formats_parse(lucid):
    """events/ftrace/: Linux's names and ids, format, hist and id only (print has Linux's trigger
    file too: test_marker_events.py); libtraceevent parses them."""
    tep = TraceEvent()
    assert lucid.run("cd " + T) == ""
    names = lucid.run("ls -1 events/ftrace").split()
    assert names == ["bprint", "bputs", "funcgraph_entry", "funcgraph_exit", "function", "hwlat",
                     "kernel_stack", "osnoise", "print", "raw_data", "timerlat", "user_stack"], names
    ids = {"function": 1, "kernel_stack": 4, "print": 5, "bprint": 6, "funcgraph_exit": 10,
           "funcgraph_entry": 11, "user_stack": 12, "bputs": 14, "hwlat": 15, "osnoise": 16,
           "timerlat": 17, "raw_data": 18}
    for name, ident in ids.items():
        modes = {l.split()[-1]: l.split()[0] for l in  # ls -l's "total" line left out
                 lucid.run("ls -l events/ftrace/" + name).splitlines()[1:]}
        if name == "print":
            assert modes.pop("trigger") == "-rw-r-----", (name, modes)
        assert modes == {"format": "-r--r-----", "hist": "-r--r-----", "id": "-r--r-----"}, \
            (name, modes)
        assert lucid.run("cat events/ftrace/%s/id" % name) == "%d\n" % ident
        text = lucid.run("cat events/ftrace/%s/format" % name)
        assert text.startswith("name: %s\nID: %d\nformat:\n" % (name, ident)), text
        assert tep.parse("ftrace", text) == 0, text
    # Formats only: nothing enables them, and the event lists do not know them.
    assert lucid.run("echo ftrace:function > set_event") == EINVAL
    assert lucid.run("echo function > set_event") == EINVAL
    assert "ftrace" not in lucid.run("cat available_events")
    assert lucid.run("echo 1 > events/enable") == ""
    assert "ftrace" not in lucid.run("cat set_event")
    assert lucid.run("echo 0 > events/enable") == ""


def test_header_files(lucid):
    assert lucid.run("cat %s/events/header_page" % T) == (
        "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
        "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
        "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
        "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
    assert lucid.run("cat %s/events/header_event" % T) == (
        "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
        "\tarray       :   32 bits\n\n\tpadding     : type == 29\n"
        "\ttime_extend : type == 30\n\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")


def test_proc_kallsyms(lucid):
    """Linux's format, and the addresses of the kernel that runs (build/kernel.sym)."""
    text = lucid.run("cat /proc/kallsyms", timeout=60)
    lines = text.splitlines()
    syms = {}
    last = 0
    for line in lines:
        m = re.match(r"^([0-9a-f]{16}) ([tTwW]) (\S+)$", line)
        assert m, line
        addr = int(m.group(1), 16)
        assert addr >= last, line  # in address order
        last = addr
        syms[m.group(3)] = (addr, m.group(2))
    assert len(lines) > 500, len(lines)
    with open(os.path.join(os.environ.get("LUCID_BUILD", BUILD), "kernel.sym")) as f:
        nm = {p[2]: (int(p[0], 16), p[1]) for p in (l.split() for l in f) if len(p) == 3}
    for name in ["ftest_leaf", "ftest_mid", "schedule", "kmain", "trace_vbprintk"]:
        assert syms[name] == nm[name], (name, syms[name], nm[name])
    assert lucid.run("ls -l /proc/kallsyms").split()[0] == "-r--r--r--"


def load_lucid_record():
    loader = SourceFileLoader("lucid_record", LUCID_RECORD)
    mod = module_from_spec(spec_from_loader("lucid_record", loader))
    loader.exec_module(mod)
    return mod


def record_bytes(event, values, size):
    """A record laid out as event's format file says, size bytes (the C struct's sizeof)."""
    rec = bytearray(size)
    for f in event.fields:
        if f.name in values:
            rec[f.offset:f.offset + f.size] = values[f.name].to_bytes(f.size, "little",
                                                                      signed=bool(f.signed))
    return bytes(rec)


def ring_buffer_page(time_stamp, records):
    """One page in Linux's format: data records of type_len 0 (array[0]: length + 4)."""
    body, prev = b"", time_stamp
    for ts, payload in records:
        body += struct.pack("<II", (ts - prev) << 5, len(payload) + 4) + payload
        prev = ts
    return struct.pack("<QQ", time_stamp, len(body)) + body.ljust(4096 - 16, b"\0")


def test_function_graph_records_read_by_trace_cmd(lucid):
    """funcgraph_entry/exit records laid out by their format files: trace-cmd pairs them into
    the graph with durations, and the JSON into nested slices. (The records are made here, so
    this holds whatever tracer is built; test_record_function_graph records real ones.)"""
    mirror = tempfile.mkdtemp(prefix="lucid-test-graph-")
    try:
        events = os.path.join(mirror, "tracing", "events")
        fmts = {}
        for name in ["funcgraph_entry", "funcgraph_exit"]:
            os.makedirs(os.path.join(events, "ftrace", name))
            text = lucid.run("cat %s/events/ftrace/%s/format" % (T, name))
            with open(os.path.join(events, "ftrace", name, "format"), "w") as f:
                f.write(text)
            fmts[name] = ftrace_format.Event("ftrace", text)
        for name in ["header_page", "header_event"]:
            with open(os.path.join(events, name), "w") as f:
                f.write(lucid.run("cat %s/events/%s" % (T, name)))
        kallsyms = lucid.run("cat /proc/kallsyms", timeout=60)
        files = {"tracing/printk_formats": "", "tracing/saved_cmdlines": "7 ftest\n",
                 "tracing/trace_clock": "[local] global counter uptime x86-tsc\n",
                 "kallsyms": kallsyms}
        for rel, text in files.items():
            with open(os.path.join(mirror, rel), "w") as f:
                f.write(text)
        addr = {n: int(a, 16) for a, _, n in (l.split() for l in kallsyms.splitlines())}
        t0 = 5 * 10**9
        calls = [("ftest_outer", 0, 0, 5000), ("ftest_mid", 1, 1000, 2600),
                 ("ftest_leaf", 2, 1500, 1800)]  # name, depth, entry, return (ns after t0)
        recs = []
        common = {"common_pid": 7, "common_flags": 1}
        for name, depth, call, ret in calls:
            recs.append((t0 + call, record_bytes(fmts["funcgraph_entry"], dict(
                common, common_type=11, func=addr[name], depth=depth), 24)))
            recs.append((t0 + ret, record_bytes(fmts["funcgraph_exit"], dict(
                common, common_type=10, func=addr[name], depth=depth, overrun=0,
                calltime=t0 + call, rettime=t0 + ret), 40)))
        recs.sort(key=lambda r: r[0])
        cpu0 = os.path.join(mirror, "trace.dat.cpu0")
        with open(cpu0, "wb") as f:
            f.write(ring_buffer_page(t0, recs))
        dat = os.path.join(mirror, "trace.dat")
        load_lucid_record().trace_cmd_restore(mirror, [cpu0], dat, "trace-cmd")
        r = subprocess.run(["trace-cmd", "report", dat], capture_output=True, text=True)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        lines = [re.sub(r"^ *ftest-7 +\[000\] +5\.\d{6}: ", "", l) for l in
                 r.stdout.splitlines()[1:]]
        assert [re.sub(r" +", " ", l) for l in lines] == [
            "funcgraph_entry: | ftest_outer() {",
            "funcgraph_entry: | ftest_mid() {",
            "funcgraph_entry: 0.300 us | ftest_leaf();",
            "funcgraph_exit: 1.600 us | }",
            "funcgraph_exit: 5.000 us | }"], r.stdout

        slices = [e for e in json_events(trace_json.from_mirror(mirror)) if e["ph"] == "X"]
        got = sorted((e["name"], e["ts"], e["dur"], e["pid"], e["tid"]) for e in slices)
        assert got == sorted((name, (t0 + call) / 1000.0, (ret - call) / 1000.0, 7, 7)
                             for name, _, call, ret in calls), got
    finally:
        shutil.rmtree(mirror)


# --- recordings -----------------------------------------------------------------------------------

def test_record_function_and_printk():
    """-p function, with trace_printk (bprint, bputs), trace_marker (print), trace_marker_raw
    (raw_data) and stack traces."""
    # foo is loaded later: its functions are named with :mod:, kept until it loads
    rec = Recording(["-p", "function", "-l", "ftest_*", "-l", "foo_*:mod:foo", "-O",
                     "func_stack_trace"],
                    "ftest call; ftest printk; echo hello marker > %s/trace_marker; "
                    "printf '\\x2a\\x00\\x00\\x00hi' > %s/trace_marker_raw; "
                    "modprobe foo; modprobe ticktock; rmmod foo" % (T, T))
    # (ticktock stays, above foo: libtraceevent never resolves the highest symbol of kallsyms,
    # and with nothing above it, that would be foo's foo_exit, which ftrace keeps for the trace)
    seen = set()
    pairs = compare(rec, seen)
    assert seen == {"function", "kernel_stack", "bprint", "bputs", "print", "raw_data"}, seen
    raws = [(g["body"], p["body"]) for g, p in pairs if p["event"] == "raw_data"]
    assert len(raws) == 1 and raws[0][1] == "id:002a 00000068", raws
    assert re.match(r"^# 2a buf: 68 69( 00)+$", raws[0][0]), raws
    check_kshark(rec, pairs)
    funcs = [p["body"] for g, p in pairs if p["event"] == "function"]
    assert funcs[:3] == ["ftest_outer <-- cmd_ftest", "ftest_mid <-- ftest_outer",
                         "ftest_leaf <-- ftest_mid"], funcs
    assert funcs.count("ftest_leaf <-- ftest_mid") == 3, funcs
    texts = [p["body"] for g, p in pairs if p["event"] in ("print", "bprint", "bputs")
             and not p["body"].startswith("ticktock_")]  # its timer's lines, any time
    assert texts[0] == "ftest_printk: ftrace test 42", texts
    assert texts[1] == "tracing_mark_write: hello marker", texts
    assert re.match(r"^foo_init: read foo 10 out of bar (0x)?ffffffffc[0-9a-f]{7}$", texts[2]), \
        texts
    assert texts[3] == "foo_exit: foo says goodbye", texts

    # The JSON: the same calls as instants on the same threads, and the messages.
    events = json_events(rec.json)
    names = names_of(rec.json)
    calls = [e for e in events if e["cat"] == "function"]
    want = [p for g, p in pairs if p["event"] == "function"]
    assert len(calls) == len(want)
    for e, p in zip(calls, want):
        assert (e["ph"], e["name"], e["pid"], e["args"]["cpu"]) == \
            ("i", p["body"].split()[0], int(p["pid"]), int(p["cpu"])), (e, p["line"])
        assert e["ts"] == ts_us(p), (e, p["line"])
        assert names[(e["pid"], e["tid"])] == p["comm"], (e, p["line"])
    # every message, ticktock's too (its timer may tick before the recording ends)
    msgs = [e["name"] for e in events if e["cat"] in ("trace_printk", "marker")]
    assert msgs == [p["body"].split(": ", 1)[1] for g, p in pairs
                    if p["event"] in ("print", "bprint", "bputs")], msgs
    stacks = [e["args"]["stack"] for e in events if e["cat"] == "stack"]
    assert stacks and stacks == [g["more"] for g, p in pairs if p["event"] == "kernel_stack"]


def test_record_sched_events():
    """-e sched -e irq around run_test: every line as Linux prints it, and Perfetto's parser."""
    rec = Recording(["-e", "sched", "-e", "irq"], "run_test -t 2 -r 2")
    seen = set()
    pairs = compare(rec, seen)
    assert {"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_exit"} <= seen
    check_kshark(rec, pairs)
    assert len({g["cpu"] for g, p in pairs}) > 1  # run_test's threads spread over the CPUs
    # The guest's text also parses as Perfetto's ftrace text importer expects.
    assert rec.guest_text.startswith("# tracer: nop\n")
    for g, p in pairs:
        m = PERFETTO_LINE.search(g["line"])
        assert m, g["line"]
        assert (m.group(1), m.group(3), m.group(5), m.group(6)) == \
            (g["pid"], g["cpu"], g["ts"], p["event"]), g["line"]
        assert g["line"][:m.start()].strip() == g["comm"].strip()

    # The JSON: on each CPU, one slice per stretch a task ran, from switch to switch, named as
    # the task was when it began. run_test is a program now: bash's child ran as "bash" until
    # its exec renamed it, so a stretch with an exec in it ends under the name exec gave.
    events = json_events(rec.json)
    names = names_of(rec.json)
    switches = [p for g, p in pairs if p["event"] == "sched_switch"]
    execs = []  # (cpu, time, pid, comm): exec names a task after its file (__set_task_comm)
    for g, p in pairs:
        if p["event"] == "sched_process_exec":
            f = dict(re.findall(r"(\w+)=(\S+)", p["body"]))
            execs.append((int(p["cpu"]), ts_us(p), int(f["pid"]),
                          f["filename"].rsplit("/", 1)[-1][:TASK_COMM_LEN - 1]))
    assert any(e[3] == "run_test" for e in execs), execs
    for cpu in sorted({int(p["cpu"]) for p in switches}):
        track = (trace_json.CPUS_PID, trace_json.CPUS_PID + cpu)
        assert names[track] == "CPU %d" % cpu
        slices = [e for e in events if (e["pid"], e["tid"]) == track and e["ph"] == "X"]
        mine = [p for p in switches if int(p["cpu"]) == cpu]
        assert len(slices) == len(mine) + 1, cpu  # the last one runs to the end of the trace
        for s, p, nxt in zip(slices, mine, slices[1:]):
            assert round(s["ts"] + s["dur"], 3) == nxt["ts"] == ts_us(p), (s, p["line"])
            fields = dict(re.findall(r"(\w+)=(\S+)", p["body"]))
            renamed = [comm for c, t, pid, comm in execs if c == cpu and s["ts"] <= t <= nxt["ts"]
                       and pid == s["args"]["pid"]]
            name_at_end = renamed[-1] if renamed else s["name"]
            assert (name_at_end, s["args"]["pid"], s["args"]["prev_state"]) == \
                (fields["prev_comm"], int(fields["prev_pid"]), fields["prev_state"]), p["line"]
            assert nxt["name"] == fields["next_comm"], p["line"]
    wakeups = [e for e in events if e["name"] == "sched_wakeup"]
    assert len(wakeups) == sum(1 for g, p in pairs if p["event"] == "sched_wakeup")


def test_record_lost_events_are_visible():
    """A 4 KB buffer overwritten before the copy: trace-cmd says how many, CPU by CPU."""
    rec = Recording(["-b", "4", "-p", "function"], "run_test -t 2 -r 20 > /dev/null")
    overrun = rec.overruns()
    assert len(overrun) == 4 and sum(overrun.values()) > 0, rec.log
    _, dropped = report_records(rec.handled)
    # Exactly what the kernel counted as overrun, on the CPUs that lost events, and nowhere else.
    assert dropped == {cpu: n for cpu, n in overrun.items() if n}, (dropped, overrun)
    seen = set()
    compare(rec, seen)  # what survived is the same on both sides
    lost = [e["name"] for e in json_events(rec.json) if e["cat"] == "lost"]
    assert sorted(lost) == sorted("CPU:%d [%d EVENTS DROPPED]" % (c, n)
                                  for c, n in dropped.items()), lost


# function_graph with funcgraph-proc: " 1)    ftest-19    |   0.636 us    |    ftest_leaf();"
GUEST_GRAPH = re.compile(r"^ *(?P<cpu>\d+)\) +(?P<comm>.+?)-(?P<pid>\d+) +\| +"
                         r"(?:[ +!#*@$] )?(?:(?P<dur>\d+(?:\.\d+)?) us +)?\|  (?P<indent> *)"
                         r"(?P<body>\S.*)$")
# trace-cmd's: "ftest-19 [001] 0.123456: funcgraph_entry:   0.636 us   |    ftest_leaf();"
REPORT_GRAPH = re.compile(r"^ *(?P<comm>.+?)-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] +[\d.]+: "
                          r"funcgraph_(?:entry|exit): +(?:[+!#*@$] )?(?:(?P<dur>\d+(?:\.\d+)?) us"
                          r" +)?\|  (?P<indent> *)(?P<body>\S.*)$")


def graph_lines(text, regex):
    """(cpu, pid, duration, depth, text) of each call line; banners and arrows skipped."""
    out = []
    for line in text.splitlines():
        m = regex.match(line)
        if m and re.match(r"^(?:[\w.]+\(\)(?: \{|;)|\})$", m.group("body")):
            out.append((int(m.group("cpu")), m.group("pid"), m.group("dur"),
                        len(m.group("indent")) // 2, m.group("body")))
    return out


def built_with_function_graph():
    with open(os.path.join(os.environ.get("LUCID_BUILD", BUILD), "kernel.sym")) as f:
        return any(line.split()[-1] == "graph_trace_init" for line in f)


def test_record_function_graph():
    """-p function_graph: trace-cmd draws the guest's graph, durations included, and the JSON
    has one slice per call with the same duration. (Needs the function_graph tracer: with a
    kernel built without it there is nothing to record, and the formats are checked above.)"""
    if not built_with_function_graph():
        return
    rec = Recording(["-p", "function_graph", "-l", "ftest_*", "-O", "funcgraph-proc"],
                    "ftest call")
    guest = graph_lines(rec.guest_text, GUEST_GRAPH)
    theirs = graph_lines(rec.handled, REPORT_GRAPH)
    assert [b for _, _, _, _, b in guest] == 3 * [
        "ftest_outer() {", "ftest_mid() {", "ftest_leaf();", "}", "}"], rec.guest_text
    assert theirs == guest, "\n%s\n%s" % (rec.guest_text, rec.handled)
    # The JSON: a complete slice per call that returned, as long as the trace says.
    slices = [e for e in json_events(rec.json) if e["ph"] == "X" and e["cat"] == "function_graph"]
    want, stack = [], []
    for cpu, pid, dur, depth, body in guest:
        if body.endswith("{"):
            stack.append(body[:-len("() {")])
        else:
            name = stack.pop() if body == "}" else body[:-len("();")]
            want.append((name, int(pid), float(dur)))
    got = sorted((e["name"], e["pid"], e["dur"]) for e in slices)
    assert got == sorted(want), (got, want)


# --- trace-cmd record inside Lucid (lucid-record's default route) ------------------------------

def record_in_lucid(args, command, timeout=RECORD_TIMEOUT):
    """tools/lucid-record's default route: trace.dat from Debian's trace-cmd in the guest, the
    JSON from its pages; (trace.dat path in tmp, stdout, stderr, JSON)."""
    tmp = tempfile.mkdtemp(prefix="lucid-test-tcmd-")
    dat, js = os.path.join(tmp, "trace.dat"), os.path.join(tmp, "trace.json")
    cmd = ["/usr/bin/python3", LUCID_RECORD, "--iso",
           iso_for("", os.environ.get("LUCID_BUILD", BUILD)), "-o", dat, "--json", js] + args
    r = subprocess.run(cmd + ["--", command], capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, "lucid-record failed:\n%s\n%s" % (r.stdout, r.stderr)
    with open(js) as f:
        obj = json.load(f)
    return tmp, dat, r.stdout, r.stderr, obj


def host_report(dat, *opts):
    r = subprocess.run(["trace-cmd", "report"] + list(opts) + [dat], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", (r.returncode, r.stderr)
    for bad in BROKEN:
        assert bad not in r.stdout, "%s in trace-cmd report %s:\n%s" % (bad, opts, r.stdout)
    return r.stdout


def test_record_with_trace_cmd_in_lucid():
    """The default route: trace-cmd record runs in Lucid around a program (ftest), its
    trace.dat comes out through the share; the host's trace-cmd and KernelShark read it, and
    the JSON says the same calls at the same times."""
    tmp, dat, out, log, obj = record_in_lucid(["-p", "function", "-l", "ftest_*"], "ftest call")
    try:
        assert "trace-cmd record -p function -l 'ftest_*' -o /mnt/host/trace.dat &" in log, log
        assert re.search(r"^CPU3 data recorded at offset=0x[0-9a-f]+$", log, re.M), log
        # Each CPU's count from the statistics trace-cmd stored: nine calls in all.
        counts = [int(n) for n in re.findall(r"^  cpu\d: (\d+) events$", log, re.M)]
        assert len(counts) == 4 and sum(counts) == 9, log
        with open(dat, "rb") as f:
            assert f.read(10) == b"\x17\x08\x44tracing"
        recs, dropped = report_records(host_report(dat, "-t"))
        assert dropped == {}, dropped
        funcs = [p["body"].split()[0] for p in recs]
        # Three calls of ftest_outer, each with its mid and leaf; the program ftest's.
        assert funcs == 3 * ["ftest_outer", "ftest_mid", "ftest_leaf"], funcs
        assert {p["comm"] for p in recs} == {"ftest"}, recs
        plain, _ = report_records(host_report(dat, "-N", "-t"))
        assert [p["body"] for p in plain][:3] == ["ftest_outer <-- cmd_ftest",
                                                  "ftest_mid <-- ftest_outer",
                                                  "ftest_leaf <-- ftest_mid"], plain
        kshark = sorted(kshark_entries(dat))
        assert [(k[0], k[1], k[2]) for k in kshark] == sorted(
            (int(p["sec"]) * 10**9 + int(p["nsec"]), int(p["cpu"]), int(p["pid"]))
            for p in recs), kshark
        calls = [e for e in json_events(obj) if e["cat"] == "function"]
        assert [(e["name"], e["pid"], e["args"]["cpu"], e["ts"]) for e in calls] == \
            [(p["body"].split()[0], int(p["pid"]), int(p["cpu"]), ts_us(p)) for p in recs]
        assert names_of(obj)[(calls[0]["pid"], calls[0]["tid"])] == "ftest"
        # tools/trace_dat.py: the file was version 7 (converted for it); a cut or foreign file
        # is refused with a reason, never misread.
        assert trace_dat.version(dat) == "7"
        v6 = os.path.join(tmp, "v6.dat")
        subprocess.run(["trace-cmd", "convert", "--file-version", "6", "--compression", "none",
                        "-i", dat, "-o", v6], capture_output=True, timeout=60, check=True)
        with open(v6, "rb") as f:
            whole = f.read()
        assert len(trace_dat.read(whole)["cpus"]) == 4
        for bad, why in ((whole[:len(whole) // 3], "truncated"), (b"\x7fELF" + whole[4:], "magic"),
                         (whole[:10] + b"7" + whole[11:], "version 7")):
            try:
                trace_dat.read(bad)
                raise AssertionError("read a %s file" % why)
            except trace_dat.TraceDatError as e:
                assert why in str(e) or why == "truncated" and "past the end" in str(e), (why, e)
    finally:
        shutil.rmtree(tmp)


def completed_calls(report, func):
    """How many calls of func returned in a function_graph report of one task: a leaf line
    ("func();"), or an opening ("func() {") whose closing "}" comes later."""
    done, stack = 0, []
    for line in report.splitlines():
        body = line.rsplit("|", 1)[-1].strip() if "funcgraph_" in line else ""
        if body.endswith("() {"):
            stack.append(body[:-len("() {")])
        elif body == "}" or body.startswith("} /* "):
            if stack and stack.pop() == func:
                done += 1
        elif body == func + "();":
            done += 1
    return done


def test_record_with_trace_cmd_pid_filter():
    """-F: trace-cmd starts the program itself and traces its pid alone (set_ftrace_pid), as
    `trace-cmd record -F` on Linux; function_graph's pairs come out whole."""
    if not built_with_function_graph():
        return
    tmp, dat, out, log, obj = record_in_lucid(["-p", "function_graph", "-g", "vfs_write", "-F"],
                                              "/bin/hello")
    try:
        assert "Hello, world!\n" in out, out
        text = host_report(dat)
        lines = text.splitlines()[1:]
        assert lines and all(re.match(r" *hello-\d+ ", l) for l in lines), text[:3000]
        assert re.search(r"funcgraph_entry: +\| +vfs_write\(\) \{$", text, re.M), text[:3000]
        slices = [e for e in json_events(obj) if e["ph"] == "X" and e["name"] == "vfs_write"]
        # One slice per call of vfs_write whose return the recording holds. The last call's
        # return can be past the recording's end (hello exits while the recorders stop), so
        # the calls are counted by their closing lines, not by their openings.
        calls = completed_calls(text, "vfs_write")
        opened = len(re.findall(r"\| +vfs_write\(\)(?: \{|;)$", text, re.M))
        assert slices and len(slices) == calls and opened - calls <= 1, \
            (len(slices), calls, opened, text[-3000:])
    finally:
        shutil.rmtree(tmp)


def test_record_with_trace_cmd_bad_tracer():
    """A tracer Lucid lacks: trace-cmd says so and exits, and lucid-record stops at once with
    its words (from the job's Exit status), never waiting for a recording that will not come."""
    cmd = ["/usr/bin/python3", LUCID_RECORD, "--iso",
           iso_for("", os.environ.get("LUCID_BUILD", BUILD)), "-o", os.devnull, "-p",
           "nosuchtracer", "--", "ftest call"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=RECORD_TIMEOUT)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "lucid-record: trace-cmd record ended:" in r.stderr, r.stderr
    assert "Plugin 'nosuchtracer' does not exist" in r.stderr, r.stderr
    assert "running ftest call" not in r.stderr, r.stderr


RECORD_SECONDS = 60  # a minute of run_test under trace-cmd record -p function
SEQ = re.compile(r"^print: +tracing_mark_write: lucid-seq (\d+)$")
CPU_STAT = re.compile(r"^CPU: (\d+)\nentries: (\d+)\noverrun: (\d+)\n(?:.*\n)*?dropped events: "
                      r"(\d+)\nread events: (\d+)$", re.M)


# A function tracer line as `cat trace` prints it (the kernel's own text, not trace-cmd's).
FUNCTION_LINE = re.compile(
    r"^ {0,16}\S.{0,15}-\d+ +\[\d{3}\] [d.][Nn.][hs.][0-9a-f.] +\d+\.\d{6}: \S+( <-\S+)?$")


def test_record_a_minute_loses_only_what_it_reports():
    """trace-cmd record -p function on 4 CPUs for 60 s of guest time while run_test runs over
    and over (the minute of the function tracer on every function under run_test that
    test_ftrace_stress was: no oops, and the kernel's trace text sound after it), and a shell
    loop writes numbered markers (lucid-seq 0, 1, ...) into trace_marker.
    Every event the kernel counted as read, or left unread at the end, is in trace.dat; what
    the buffer overwrote is what `trace-cmd report --stat` calls overrun, and is marked
    "[N EVENTS DROPPED]" where it happened; markers are missing only if events were reported
    lost, and never more of them than were. Bounded: run_test runs again only until
    RECORD_SECONDS of the guest's /proc/uptime (the TSC's) have passed, then a flag file ends
    the marker loop at its next turn, and every wait has a timeout."""
    share = tempfile.mkdtemp(prefix="lucid-test-minute-")
    k = Lucid(share=share, timeout=120)
    try:
        k.run("cd /tmp")
        k.send_line("trace-cmd record -p function -o /mnt/host/minute.dat &")
        k.expect(r"Hit Ctrl\^C to stop recording", timeout=300)
        k.send_line("echo lucid-synced")  # past the prompt of the & line, wherever it came
        k.expect(r"(?m)^lucid-synced\r?$", timeout=120)
        k.expect_prompt(120)
        k.send_line("sh -c 'i=0; while [ ! -e /tmp/seq.stop ]; do "
                    "echo \"lucid-seq $i\" > %s/trace_marker; i=$((i+1)); done; "
                    "echo $i > /mnt/host/seq.count' &" % T)
        k.expect_prompt(120)

        def uptime():
            return float(k.run("cat /proc/uptime").split()[0])
        end = uptime() + RECORD_SECONDS
        runs = 0
        while uptime() < end:  # guest time is the TSC's: a minute of it is about one of ours
            out = k.run("run_test -r 20", timeout=300)
            assert re.search(r"^run_test: .* ok$", out, re.M), out
            runs += 1
        k.run("touch /tmp/seq.stop")
        count = os.path.join(share, "seq.count")
        deadline = time.monotonic() + 300
        while not os.path.exists(count):
            assert time.monotonic() < deadline, "the marker loop did not end: " + k.tail()
            time.sleep(1)
        out = k.run("kill -INT %1; wait", timeout=600)
        assert re.search(r"^CPU3 data recorded at offset=0x[0-9a-f]+$", out, re.M), out
        with open(count) as f:
            written = int(f.read())
        # The kernel came through the minute whole, and its own trace text after it is sound.
        assert "Oops" not in k.run("dmesg", timeout=120)
        k.run("echo function > %s/current_tracer; run_test -r 2" % T, timeout=300)
        lines = k.run("cat %s/trace | head -300" % T, timeout=120).splitlines()
        k.run("echo nop > %s/current_tracer" % T)
        events = [l for l in lines if not l.startswith("#")]
        assert len(events) > 200, lines[:20]
        assert all(FUNCTION_LINE.match(l) for l in events), \
            [l for l in events if not FUNCTION_LINE.match(l)][:5]
    finally:
        k.close()
    try:
        dat = os.path.join(share, "minute.dat")
        stats = {int(c): dict(entries=int(e), overrun=int(o), dropped=int(d), read=int(r))
                 for c, e, o, d, r in CPU_STAT.findall(host_report(dat, "--stat"))}
        assert sorted(stats) == [0, 1, 2, 3], stats
        text = host_report(dat, "-t")
    finally:
        shutil.rmtree(share)
    recs, _ = report_records(text)
    per_cpu, seqs = {}, []
    for p in recs:
        per_cpu[int(p["cpu"])] = per_cpu.get(int(p["cpu"]), 0) + 1
        m = SEQ.match("%s: %s" % (p["event"], p["body"]))
        if m:
            seqs.append(int(m.group(1)))
    dropped = {}  # cpu: [events lost before each page that says so]
    for line in text.splitlines():
        d = DROPPED.match(line)
        if d:
            dropped.setdefault(int(d.group("cpu")), []).append(int(d.group("n") or -1))
    assert runs >= 1 and written >= 20 and len(recs) > 10000, (runs, written, len(recs))
    for cpu, s in stats.items():
        # Read by the recorders during the minute, or flushed after it: all of it in the file.
        assert per_cpu.get(cpu, 0) == s["read"] + s["entries"], (cpu, per_cpu, s)
        # Overwritten events are marked where they were lost, and counted exactly.
        if s["overrun"]:
            n = dropped.get(cpu, [])
            assert n and (-1 in n or sum(n) == s["overrun"]), (cpu, n, s)
        else:
            assert cpu not in dropped, (cpu, dropped[cpu], s)
    lost = sum(s["overrun"] + s["dropped"] for s in stats.values())
    assert len(set(seqs)) == len(seqs) and all(0 <= n < written for n in seqs), seqs
    missing = written - len(seqs)
    assert missing <= lost and (missing == 0 or lost > 0), (missing, written, lost, stats)

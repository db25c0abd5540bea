"""Linux 6.1's core trace options and their files, from the shell: each option on and off.

Each test turns one option on, checks that the trace changes as Linux's does (formats from
../shared/reference/ftrace-formats.md and Linux 6.1's trace.c / trace_output.c), turns it off
and checks that the trace is as before.
"""
import re
import struct

from tracefs import T, cat, fails, ok, sh, until_true  # noqa: F401

BOOT = {"cmdline": ""}

# Linux 6.1's trace_options with no tracer options (capture: linux-6.1/trace_options.txt).
LINUX_CORE_OPTIONS = [
    "print-parent", "nosym-offset", "nosym-addr", "noverbose", "noraw", "nohex", "nobin",
    "noblock", "trace_printk", "annotate", "nouserstacktrace", "nosym-userobj",
    "noprintk-msg-only", "context-info", "nolatency-format", "record-cmd", "norecord-tgid",
    "overwrite", "nodisable_on_free", "irq-info", "markers", "noevent-fork", "nopause-on-trace",
    "hash-ptr", "function-trace", "nofunction-fork", "nodisplay-graph", "nostacktrace"]


def marker_trace(lucid, text="hello"):
    ok(lucid, "echo > trace; echo %s > trace_marker" % text)
    return [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]


def test_trace_options_in_linux_order(lucid):
    sh(lucid, "cd " + T)
    assert cat(lucid, "trace_options").split() == LINUX_CORE_OPTIONS
    names = sh(lucid, "ls options").split()
    for o in LINUX_CORE_OPTIONS:
        assert re.sub("^no", "", o) in names, o


def test_printk_msg_only(lucid):
    sh(lucid, "cd " + T)
    assert marker_trace(lucid)[-1].endswith(": tracing_mark_write: hello")
    ok(lucid, "echo 1 > options/printk-msg-only")
    assert marker_trace(lucid)[-1] == "hello"
    ok(lucid, "echo 0 > options/printk-msg-only")
    assert marker_trace(lucid)[-1].endswith(": tracing_mark_write: hello")


def test_raw_hex_bin(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/raw")
    line = marker_trace(lucid)[-1]
    # "pid cpu ts " then the marker's raw form "# ip text"
    assert re.match(r"^\d+ \d+ \d+ # [0-9a-f]+ hello$", line), line
    ok(lucid, "echo 0 > options/raw; echo 1 > options/hex")
    ok(lucid, "echo > trace; echo hello > trace_marker")
    out = sh(lucid, "cat trace | od -An -c | tr -d ' \\n'")
    # pid, cpu (8 hex digits), ts (16), each with a blank; no hex printer: "type: 5", then \n\n
    assert re.search(r"[0-9a-f]{8}[0-9a-f]{8}[0-9a-f]{16}type:5\\n\\n", out), out
    ok(lucid, "echo 0 > options/hex; echo 1 > options/bin")
    ok(lucid, "echo > trace; echo hello > trace_marker")
    hexdump = sh(lucid, "cat trace | od -An -tx1 | tr -d ' \\n'")
    data = bytes.fromhex(hexdump)
    # the header stays text; the line is pid (4), cpu (4), ts (8) as binary, then the marker's
    # binary printer, which it has none of: Linux's "type: 5" (trace_nop_print)
    body = data[data.rindex(b"|\n") + 2:]
    assert len(body) == 16 + len(b"type: 5\n") and body.endswith(b"type: 5\n"), body
    pid, cpu, ts = struct.unpack("<iiQ", body[:16])
    assert pid > 0 and 0 <= cpu < 64 and ts > 0
    ok(lucid, "echo 0 > options/bin")
    assert marker_trace(lucid)[-1].endswith(": tracing_mark_write: hello")


def test_function_raw(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo schedule > set_ftrace_filter; echo function > current_tracer; sleep 0.1")
    ok(lucid, "echo 0 > tracing_on; echo 1 > options/raw")
    lines = [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    assert lines and all(re.match(r"^\d+ \d+ \d+ [0-9a-f]{16} [0-9a-f]+$", l) for l in lines)
    ok(lucid, "echo 0 > options/raw")
    lines = [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    assert all(" schedule <-" in l for l in lines)
    ok(lucid, "echo nop > current_tracer; echo > set_ftrace_filter; echo 1 > tracing_on")


def test_latency_format_and_verbose(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/latency-format")
    ok(lucid, "echo > trace")
    assert cat(lucid, "trace") == "# tracer: nop\n#\n"  # empty: no latency header, as Linux
    ok(lucid, "echo hello > trace_marker")
    text = cat(lucid, "trace")
    lines = text.splitlines()
    assert lines[2] == "# nop latency trace v1.1.5 on 6.1.0-lucid"
    assert re.match(r"^# latency: 0 us, #1/1, CPU#0 \| \(M:preempt VP:0, KP:0, SP:0 HP:0 "
                    r"#P:\d+\)$", lines[4])
    assert lines[6] == "#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)"
    assert "#  cmd     pid   ||||| time  |   caller      " in lines
    assert re.match(r"^ {4}bash-\d+ +\d[dX.][Nnp.][ZzHhs.][0-9a-f.] +\d+us.: "
                    r"tracing_mark_write: hello$", lines[-1]), lines[-1]
    ok(lucid, "echo 1 > options/verbose")
    last = cat(lucid, "trace").splitlines()[-1]
    assert re.match(r"^ +bash +\d+ +\d+ \d+ [0-9a-f]{8} [0-9a-f]{8} \[[0-9a-f]{8,}\] "
                    r"\d+\.\d{3}ms \(\+\d+\.\d{3}ms\): tracing_mark_write: hello$", last), last
    ok(lucid, "echo 0 > options/latency-format")
    # verbose alone: the normal prefix, and no column legend
    text = cat(lucid, "trace")
    assert "TASK-PID" not in text and text.splitlines()[-1].endswith("tracing_mark_write: hello")
    ok(lucid, "echo 0 > options/verbose")
    assert "TASK-PID" in cat(lucid, "trace")


# Linux's trace_find_mark(): the mark for a delay (whole microseconds) to the next event.
DELAY_MARKS = [(1000000, "$"), (100000, "@"), (10000, "*"), (1000, "#"), (100, "!"), (10, "+")]


def delay_mark(us):
    return next((m for over, m in DELAY_MARKS if us > over), " ")


LAT_LINE = re.compile(r"^ *\S+-\d+ +\d\S{4} +(?P<us>\d+)us(?P<mark>.): (?P<body>.*)$")


def test_latency_format_delay_marks(lucid):
    # Each line of the trace file marks the delay to the next event, as Linux's
    # lat_print_timestamp: markers written with pauses of known length between them.
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/latency-format; echo > trace")
    ok(lucid, "echo m0 > trace_marker; sleep 0.3; echo m1 > trace_marker; sleep 0.02; "
       "echo m2 > trace_marker; echo m3 > trace_marker")
    got = [LAT_LINE.match(l) for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    assert all(got) and [m["body"] for m in got] == ["tracing_mark_write: m%d" % i
                                                     for i in range(4)], got
    us = [int(m["us"]) for m in got]
    # The printed times are rounded: the mark may be that of a delay one microsecond off.
    for m, now, nxt in zip(got, us, us[1:]):
        assert m["mark"] in {delay_mark(nxt - now + d) for d in (-1, 0, 1)}, (m.group(0), nxt)
    assert got[0]["mark"] == "@"  # the 0.3 s sleep
    assert got[1]["mark"] in "*@"  # 20 ms and the exec of sleep
    assert got[-1]["mark"] == " "  # nothing after it
    # trace_pipe, as Linux's: the next unread event is the line's own, so no mark.
    ok(lucid, "echo 0 > tracing_on")
    piped = sh(lucid, "timeout 1 cat trace_pipe").splitlines()
    assert [LAT_LINE.match(l)["mark"] for l in piped] == [" "] * 4, piped
    ok(lucid, "echo 1 > tracing_on; echo 0 > options/latency-format")


def test_record_tgid_and_saved_tgids(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/record-tgid")
    lines = marker_trace(lucid)
    assert re.match(r"^ +bash-(\d+) +\( *(\d+)\) \[\d{3}\] ", lines[-1]), lines[-1]
    pid = re.match(r"^ +bash-(\d+)", lines[-1]).group(1)
    assert "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION" in \
        cat(lucid, "trace")
    assert "%s %s" % (pid, pid) in cat(lucid, "saved_tgids").splitlines()
    ok(lucid, "echo 0 > options/record-tgid")
    lines = marker_trace(lucid)
    assert re.match(r"^ +bash-\d+ +\[\d{3}\] ", lines[-1]), lines[-1]


def test_stacktrace_after_events(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/stacktrace; echo 1 > events/sched/sched_switch/enable")
    ok(lucid, "sleep 0.1; echo 0 > events/sched/sched_switch/enable; echo 0 > options/stacktrace")
    lines = [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    # Each CPU's next record after its sched_switch is that event's stack, holding __schedule
    # (another CPU's records may come between in the merged trace).
    prefix = re.compile(r"^.{16}-\d+ +\[(\d{3})\] ")
    switches = 0
    for i, l in enumerate(lines):
        if "sched_switch:" not in l:
            continue
        switches += 1
        cpu = prefix.match(l).group(1)
        j = next(j for j in range(i + 1, len(lines))
                 if prefix.match(lines[j]) and prefix.match(lines[j]).group(1) == cpu)
        assert lines[j].endswith("<stack trace>"), lines[i:j + 1]
        frames = []
        for f in lines[j + 1:]:
            if not f.startswith(" => "):
                break
            frames.append(f[4:])
        assert "__schedule" in frames, frames
    assert switches
    ok(lucid, "echo > trace; echo 1 > events/sched/sched_switch/enable; sleep 0.1")
    ok(lucid, "echo 0 > events/sched/sched_switch/enable")
    assert "<stack trace>" not in cat(lucid, "trace")


def test_pause_on_trace(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo > trace; echo 1 > options/pause-on-trace")
    # While trace is open nothing is recorded (a marker write finds the buffer off: EBADF).
    out = sh(lucid, "exec 4<trace; echo during > trace_marker; exec 4<&-; "
                    "echo after > trace_marker; cat trace")
    assert "during" not in out.split("Bad file descriptor")[-1] and "after" in out
    ok(lucid, "echo 0 > options/pause-on-trace")
    ok(lucid, "exec 4<trace; echo during > trace_marker; exec 4<&-")
    assert "during" in cat(lucid, "trace")


def test_buffer_percent_timestamp_mode(lucid):
    sh(lucid, "cd " + T)
    assert cat(lucid, "buffer_percent") == "50\n"
    assert cat(lucid, "timestamp_mode") == "[delta] absolute\n"
    ok(lucid, "echo 100 > buffer_percent")
    assert cat(lucid, "buffer_percent") == "100\n"
    fails(lucid, "echo 101 > buffer_percent")
    assert cat(lucid, "buffer_percent") == "100\n"
    ok(lucid, "echo 50 > buffer_percent")


def test_free_buffer_and_disable_on_free(lucid):
    sh(lucid, "cd " + T)
    size = cat(lucid, "buffer_size_kb")
    ok(lucid, "exec 3>free_buffer; echo x >&3")
    assert cat(lucid, "buffer_size_kb") == size  # open: nothing yet
    ok(lucid, "exec 3>&-")
    assert int(cat(lucid, "buffer_size_kb")) < int(size)
    assert cat(lucid, "tracing_on") == "1\n"  # disable_on_free is off
    ok(lucid, "echo %s > buffer_size_kb; echo 1 > options/disable_on_free" % size.strip())
    ok(lucid, "exec 3>free_buffer; exec 3>&-")
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo 0 > options/disable_on_free; echo 1 > tracing_on")
    ok(lucid, "echo %s > buffer_size_kb" % size.strip())


def ustack_run(lucid, alive=False):
    """Runs ustack stack with the getppid event on; returns its functions' addresses. alive:
    it sleeps on after its event, in the background, until the caller's `kill %1; wait` (the
    trace is read while it lives)."""
    ok(lucid, "echo > trace; echo 1 > events/syscalls/sys_enter_getppid/enable")
    if alive:
        sh(lucid, "ustack stack 600 > /tmp/ustack.out &")
        until_true(lucid, "grep -q sys_getppid trace")
        out = sh(lucid, "cat /tmp/ustack.out")
    else:
        out = sh(lucid, "ustack stack")
    ok(lucid, "echo 0 > events/syscalls/sys_enter_getppid/enable")
    return {m.group(1): int(m.group(2), 16)
            for m in re.finditer(r"^(level\d) 0x([0-9a-f]+)$", out, re.M)}


def user_stacks(lucid):
    """The frames of each <user stack trace> in trace, innermost first."""
    stacks, cur = [], None
    for l in cat(lucid, "trace").splitlines():
        if l.endswith("<user stack trace>"):
            cur = []
            stacks.append(cur)
        elif cur is not None and l.startswith(" => "):
            cur.append(l[4:])
        else:
            cur = None
    return stacks


def test_userstacktrace(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/userstacktrace")
    addrs = ustack_run(lucid)
    stacks = user_stacks(lucid)
    assert len(stacks) == 1, stacks
    frames = stacks[0]
    # " =>  <%016lx>" (Linux's blank before the address), the system call's place first, then
    # the returns into level2 and level1 that the frame pointers lead to
    assert all(re.match(r"^ <[0-9a-f]{16}>$", f) for f in frames), frames
    ips = [int(f.strip(" <>"), 16) for f in frames]
    assert addrs["level2"] < ips[1] < addrs["level2"] + 0x20, (ips, addrs)
    assert addrs["level1"] < ips[2] < addrs["level1"] + 0x40, (ips, addrs)
    ok(lucid, "echo 0 > options/userstacktrace")
    ustack_run(lucid)
    assert user_stacks(lucid) == [] and "sys_getppid()" in cat(lucid, "trace")


def test_sym_userobj(lucid):
    sh(lucid, "cd " + T)
    ok(lucid, "echo 1 > options/userstacktrace; echo 1 > options/sym-userobj")
    addrs = ustack_run(lucid, alive=True)
    frames = user_stacks(lucid)[0]
    # "/bin/ustack[+0x2b9]": the file, and the offset from the start of its area (0x401000)
    m = [re.match(r"^/bin/ustack\[\+0x([0-9a-f]+)\]$", f) for f in frames]
    assert all(m), frames
    text_start = 0x401000
    assert text_start + int(m[2].group(1), 16) > addrs["level1"]
    ok(lucid, "echo 1 > options/sym-addr")
    frames = user_stacks(lucid)[0]
    assert all(re.match(r"^/bin/ustack\[\+0x[0-9a-f]+\] <[0-9a-f]{16}>$", f) for f in frames)
    ok(lucid, "echo 0 > options/sym-addr; echo 0 > options/sym-userobj")
    assert all(re.match(r"^ <[0-9a-f]{16}>$", f) for f in user_stacks(lucid)[0])
    ok(lucid, "echo 0 > options/userstacktrace")
    sh(lucid, "kill %1; wait; rm /tmp/ustack.out")


def test_block_makes_trace_pipe_always_readable(lucid):
    # poll(2) on an empty trace_pipe: not readable; with block, always (Linux's trace_poll)
    sh(lucid, "cd " + T)
    ok(lucid, "echo > trace")
    assert sh(lucid, "ustack poll trace_pipe") == "not readable\n"
    ok(lucid, "echo 1 > options/block")
    assert sh(lucid, "ustack poll trace_pipe") == "readable\n"
    ok(lucid, "echo 0 > options/block")
    assert sh(lucid, "ustack poll trace_pipe") == "not readable\n"


def test_trace_cmd_reads_stacks(lucid):
    # trace-cmd record -O stacktrace -O userstacktrace: both kinds of record are in the file
    # and trace-cmd report parses them with the events/ftrace formats (kernel_stack, user_stack);
    # the options are back off afterwards. (recwait runs ustack once trace-cmd's recorders read:
    # user/recwait.c says why a short command needs it.)
    out = sh(lucid, "cd /tmp; trace-cmd record -e syscalls:sys_enter_getppid -O stacktrace "
                    "-O userstacktrace recwait ustack stack > /dev/null 2>&1; echo status $?; "
                    "trace-cmd report 2>&1; rm -f trace.dat; cd /", timeout=180)
    assert "status 0\n" in out, out
    assert "FAILED TO PARSE" not in out and "UNKNOWN EVENT" not in out, out
    lines = out.splitlines()
    k = next(i for i, l in enumerate(lines) if " kernel_stack: " in l)
    assert "=> do_syscall_64" in "\n".join(lines[k:k + 8]), lines[k:k + 8]
    u = next(i for i, l in enumerate(lines) if " user_stack: " in l)
    assert re.search(r"=> 0x4[0-9a-f]{5}$", lines[u]), lines[u]
    opts = cat(lucid, "trace_options").split()
    assert "nostacktrace" in opts and "nouserstacktrace" in opts, opts


def test_hash_ptr_hides_event_pointers(lucid):
    """hash-ptr (on by default, as Linux 6.1's): an event's plain %p (kmalloc's ptr=) prints a
    per-boot hash, 32 bits in 16 digits; off, the address itself. One pointer, one hash."""
    ok(lucid, "cd %s; echo 0 > tracing_on; echo > trace" % T)
    assert cat(lucid, "options/hash-ptr") == "1\n"
    ok(lucid, "echo 1 > events/kmem/kmalloc/enable; echo 1 > tracing_on")
    sh(lucid, "ls / > /dev/null")
    ok(lucid, "echo 0 > tracing_on; echo 0 > events/kmem/kmalloc/enable")
    hashed = re.findall(r" kmalloc: .* ptr=(\S+) ", cat(lucid, "trace"))
    ok(lucid, "echo 0 > options/hash-ptr")
    raw = re.findall(r" kmalloc: .* ptr=(\S+) ", cat(lucid, "trace"))
    ok(lucid, "echo 1 > options/hash-ptr")
    assert hashed and len(hashed) == len(raw), (hashed, raw)
    assert all(re.fullmatch(r"00000000[0-9a-f]{8}", h) for h in hashed), hashed
    assert all(re.fullmatch(r"ffff[0-9a-f]{12}", r) for r in raw), raw
    assert not set(hashed) & set(raw)
    pairs = set(zip(raw, hashed))
    assert len({r for r, _ in pairs}) == len(pairs), pairs  # one pointer, one hash
    assert cat(lucid, "trace").count(" kmalloc: ") == len(hashed)  # the same again, hashed
    ok(lucid, "echo > trace; echo 1 > tracing_on")

"""per_cpu/cpuN/trace_pipe_raw copied out through COM2 (/dev/ttyS1) and decoded on the host.

The pages must say what `trace` says: the same events, pids and timestamps, in Linux's binary
page format (tools/ftrace_raw.py decodes it as trace-cmd's kbuffer does).
"""
import os
import re
import struct
import sys
import tempfile

from lucid import BUILD, ROOT, Lucid

sys.path.insert(0, os.path.join(ROOT, "tools"))
import ftrace_raw  # noqa: E402

T = "/sys/kernel/debug/tracing"
TRACE_FN = 1


def symbols():
    syms = {}
    with open(os.path.join(os.environ.get("LUCID_BUILD", BUILD), "kernel.sym")) as f:
        for line in f:
            addr, _, name = line.split()
            syms[name] = int(addr, 16)
    return syms


def boot():
    fd, path = tempfile.mkstemp(prefix="lucid-com2-")
    os.close(fd)
    return Lucid(extra=["-serial", "file:" + path]), path


def copy_out(lucid, path, cpu):
    """The CPU's raw pages to COM2 (drain: cat would wait for more); returns the bytes that
    arrived."""
    before = os.path.getsize(path)
    assert lucid.run("drain %s/per_cpu/cpu%d/trace_pipe_raw > /dev/ttyS1" % (T, cpu)) == ""
    lucid.run("true")  # the bytes are out once the shell prompts again
    with open(path, "rb") as f:
        f.seek(before)
        return f.read()


def test_com2_is_8_bit_clean():
    lucid, path = boot()
    try:
        assert "serial: COM2 at 0x2f8 is /dev/ttyS1 (raw, 8-bit clean)" in lucid.dmesg()
        assert lucid.run("echo -e 'a\\x01\\xff\\r\\nb' > /dev/ttyS1") == ""
        assert lucid.run("head -c 100000 /dev/zero > /dev/ttyS1") == ""
        lucid.run("true")
        with open(path, "rb") as f:
            data = f.read()
        assert data == b"a\x01\xff\r\nb\n" + b"\0" * 100000, data[:20]
    finally:
        lucid.close()
        os.unlink(path)


def test_raw_pages_match_trace():
    lucid, path = boot()
    syms = symbols()
    try:
        for cmd in ["cd " + T, "echo ftest_leaf > set_ftrace_filter",
                    "echo function > current_tracer", "taskset -c 1 ftest call",
                    "echo 0 > tracing_on"]:
            assert lucid.run(cmd) == "", cmd
        text = lucid.run("cat per_cpu/cpu1/trace")
        lines = re.findall(r"ftest-(\d+) +\[001\] \.\.\.\. +(\d+)\.(\d{6}): ftest_leaf <-ftest_mid",
                           text)
        assert len(lines) == 3, text
        blob = copy_out(lucid, path, 1)
        assert len(blob) == ftrace_raw.PAGE_SIZE, len(blob)
        page = ftrace_raw.pages(blob)[0]
        assert not page.missed
        assert len(page.records) == 3
        for (ts, payload), (pid, sec, usec) in zip(page.records, lines):
            etype, flags, pc, epid = ftrace_raw.common(payload)
            ip, parent = struct.unpack_from("<QQ", payload, 8)
            assert (etype, epid) == (TRACE_FN, int(pid))
            assert ip == syms["ftest_leaf"]
            assert syms["ftest_mid"] < parent < syms["ftest_mid"] + 64
            # trace rounds to the nearest microsecond, as Linux (ns2usecs)
            assert (ts + 500) // 1000 == int(sec) * 1000000 + int(usec), (ts, sec, usec)
        # Consumed: the buffer is empty now, and a reader that does not wait gets nothing.
        assert "entries: 0\n" in lucid.run("cat per_cpu/cpu1/stats")
        assert "read events: 3\n" in lucid.run("cat per_cpu/cpu1/stats")
        assert lucid.run("drain per_cpu/cpu1/trace_pipe_raw | wc -c; echo $?") == "0\n0\n"
    finally:
        lucid.close()
        os.unlink(path)


def test_read_waits_with_tracing_off(lucid):
    """As Linux's: on an empty buffer a read waits for the next event even with tracing off
    (trace_pipe_raw never ends, unlike trace_pipe), and that event wakes it with its page."""
    out = "/tmp/raw.bin"
    for cmd in ["cd " + T, "echo 0 > tracing_on", "echo > trace"]:
        assert lucid.run(cmd) == "", cmd
    job = lucid.run("cat per_cpu/cpu1/trace_pipe_raw > %s &" % out)
    assert re.fullmatch(r"\[1\] \d+\n", job), job
    try:
        # Bounded: until the reader sleeps in its read ('S'), not still starting up.
        state = lucid.run("for i in $(seq 300); do s=$(cut -d' ' -f3 /proc/$!/stat); "
                          "[ \"$s\" = S ] && break; sleep 0.1; done; echo $s; "
                          "wc -c < %s" % out, timeout=60)
        assert state == "S\n0\n", state
        assert lucid.run("echo 1 > tracing_on; taskset -c 1 echo raw > trace_marker; "
                         "echo 0 > tracing_on") == ""
        # The marker's page arrives: a whole page, bounded.
        size = lucid.run("for i in $(seq 300); do [ $(wc -c < %s) -ge 4096 ] && break; "
                         "sleep 0.1; done; wc -c < %s" % (out, out), timeout=60)
        assert size == "4096\n", size
        # and the reader waits again, tracing off
        assert lucid.run("cut -d' ' -f3 /proc/$!/stat") in ("S\n", "R\n")
    finally:
        lucid.run("kill %1; wait; rm -f " + out)
        lucid.run("echo 1 > tracing_on; cd /")


def test_lost_events_are_flagged():
    """A tiny buffer overwritten before the copy: the first page says events were lost."""
    lucid, path = boot()
    try:
        # run_test's threads may run anywhere, and sometimes left CPU 2 with less than its two
        # pages: a thousand trace_printks on CPU 2 overflow them every time.
        for cmd in ["cd " + T, "echo 4 > buffer_size_kb", "echo function > current_tracer",
                    "taskset -c 2 ftest printk 1000", "echo 0 > tracing_on"]:
            assert lucid.run(cmd) == "", cmd
        stats = lucid.run("cat per_cpu/cpu2/stats")
        overrun = int(re.search(r"^overrun: (\d+)$", stats, re.M).group(1))
        assert overrun > 0, stats
        pages = ftrace_raw.pages(copy_out(lucid, path, 2))
        assert pages and pages[0].missed, [p.missed for p in pages]
        assert pages[0].lost is None or pages[0].lost > 0
        assert sum(len(p.records) for p in pages) > 0
    finally:
        lucid.close()
        os.unlink(path)


def test_poll_waits_for_events(lucid):
    """poll on trace_pipe_raw, as trace-cmd's recorders wait: readable only when a read would
    not wait (tests/user/rawpoll.c); with no .poll every file was always readable and the recorders
    spun. With buffer_percent 0 any event wakes it; with 100 only a full buffer (Linux's
    watermark)."""
    assert lucid.run("rawpoll", timeout=60) == (
        "empty: 0 ready\nafter a marker: 1 ready\n"
        "splice of a part page: Resource temporarily unavailable\nread 4096 bytes\n"
        "drained: 0 ready\n"
        "tracing off: 0 ready\n"
        "options/block: all ready\n"
        "percent 100, a marker: 0 ready\n"
        "percent 100, filled: ready after more than a page\n")

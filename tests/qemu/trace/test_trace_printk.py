"""trace_printk, trace_marker, printk_formats, the foo module, and tracing_off() from the kernel.

Lines are checked whole against profile PA (../shared/reference/ftrace-formats.md): the context
prefix of the function tracer's lines, then `caller: message`. Every test starts from the boot
state (reset_tracing()), so a failure does not cascade.
"""
import re
from tracefs import (EBADF, EINVAL, ENODEV, T, TRACE_LINE, cat, fails,  # noqa: F401
                     modes, ncpus, ok, reset_tracing, sh)

# Heavy, trace_printk from every CPU's tick, nested: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

BOOT = {"cmdline": "ftrace_selftest"}
FOO = "/lib/modules/6.1.0-lucid/kernel/modules/foo.ko"  # busybox's insmod takes the file

# "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + body
FMT_LINE = re.compile(r'^0x(?P<addr>[0-9a-f]+) : "(?P<fmt>.*)"$')


def events(text):
    return [l for l in text.splitlines() if not l.startswith("#")]


def bodies(k):
    """The event lines' bodies (stack frames as they stand)."""
    out = []
    for l in events(cat(k, "trace")):
        m = TRACE_LINE.match(l)
        out.append(m.group("body") if m else l)
    return out


def entries(k):
    return re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+) ", cat(k, "trace")).groups()


def test_selftest(lucid):
    """The boot self-test: trace_printk inside a half-written event, and with the option off."""
    log = lucid.dmesg()
    assert "Testing trace_printk: PASSED" in log, log[-3000:]


# --- printk_formats -----------------------------------------------------------------------------


def test_files(lucid):
    reset_tracing(lucid)
    files = modes(lucid)
    assert files["printk_formats"] == "-r--r-----" and files["trace_marker"] == "--w--w----"
    # Root opens both, as on Linux; the missing read and write operations say EINVAL.
    assert "cat: read error: Invalid argument" in sh(lucid, "cat trace_marker")  # busybox's
    assert "write error: Invalid argument" in sh(lucid, "echo x > printk_formats")


def printk_formats(lucid):
    """{format: [addresses]} of printk_formats, each line checked."""
    fmts = {}
    for line in cat(lucid, "printk_formats").splitlines():
        m = FMT_LINE.match(line)
        assert m, "malformed line %r" % line
        fmts.setdefault(m.group("fmt"), []).append(int(m.group("addr"), 16))
    return fmts


def test_printk_formats(lucid):
    reset_tracing(lucid)
    ok(lucid, "rmmod foo 2>/dev/null; true")
    fmts = printk_formats(lucid)
    # Each literal once, the newline escaped as Linux does.
    for fmt in [r"ftrace test %d\n", r"ftest tick %d\n"]:
        assert len(fmts.get(fmt, [])) == 1, (fmt, fmts)
        assert fmts[fmt][0] >= 0xffffffff80000000  # in the kernel image
    assert len(set(a[0] for a in fmts.values())) == len(fmts)  # different strings, addresses
    # A module's formats are listed from its first load on, at copies the kernel keeps: the
    # trace still reads them once the module is gone. Loaded again, it shares those copies.
    for _ in range(2):
        ok(lucid, "insmod %s" % FOO)
        ok(lucid, "rmmod foo")
        mod = printk_formats(lucid)
        for fmt in [r"read foo %d out of bar %p\n", r"foo says goodbye\n"]:
            assert len(mod.get(fmt, [])) == 1, (fmt, mod)
            assert 0xffff888000000000 <= mod[fmt][0] < 0xffffc90000000000  # kmalloc'd
        assert {f: a for f, a in mod.items() if f in fmts} == fmts


# --- trace_printk -------------------------------------------------------------------------------


def test_printk_under_nop(lucid):
    reset_tracing(lucid)
    ok(lucid, "ftest printk")
    lines = events(cat(lucid, "trace"))
    assert len(lines) == 1, lines
    assert re.match(r"^ {11}ftest-\d+ +\[\d{3}\] \.\.\.\. +\d+\.\d{6}: "
                    r"ftest_printk: ftrace test 42$", lines[0]), lines
    assert entries(lucid) == ("1", "1")
    # sym-offset names the place in the caller, as for function lines
    ok(lucid, "echo 1 > options/sym-offset")
    assert re.match(r"^ftest_printk\+0x[0-9a-f]+/0x[0-9a-f]+: ftrace test 42$", bodies(lucid)[0])
    ok(lucid, "echo 0 > options/sym-offset")


def test_printk_repeated(lucid):
    """`ftest printk N`: N calls in a row, N messages; an N it does not take changes nothing."""
    reset_tracing(lucid)
    ok(lucid, "ftest printk 3")
    assert bodies(lucid) == ["ftest_printk: ftrace test 42"] * 3
    for bad in ("0x", "100001", "-1"):
        assert sh(lucid, "ftest printk " + bad).startswith("usage: ftest call |"), bad
        assert lucid.status() == 2, bad
    assert entries(lucid) == ("3", "3")


def test_printk_under_function(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ftest printk")
    ok(lucid, "echo 0 > tracing_on")
    lines = events(cat(lucid, "trace"))
    assert [TRACE_LINE.match(l).group("body") for l in lines] == [
        "ftest_printk <-cmd_ftest", "ftest_printk: ftrace test 42"], lines
    assert len({TRACE_LINE.match(l).group("pid") for l in lines}) == 1
    reset_tracing(lucid)


def test_printk_option_off(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > options/trace_printk")
    assert "notrace_printk" in cat(lucid, "trace_options").split()
    ok(lucid, "ftest printk")
    ok(lucid, "insmod %s" % FOO)
    ok(lucid, "rmmod foo")
    ok(lucid, "ftest tick 3")
    assert entries(lucid) == ("0", "0")
    ok(lucid, "echo trace_printk > trace_options")
    ok(lucid, "ftest printk")
    assert bodies(lucid) == ["ftest_printk: ftrace test 42"]


def test_printk_from_the_tick(lucid):
    """Exactly N trace_printk calls from the timer interrupt, in hard irq with irqs off."""
    reset_tracing(lucid)
    n = 40
    ok(lucid, "ftest tick %d" % n)
    lines = events(cat(lucid, "trace"))
    seen = []
    for line in lines:
        m = TRACE_LINE.match(line)
        assert m, line
        assert re.match(r"^d.h[0-9a-f.]$", m.group("flags")), line
        b = re.match(r"^ftest_tick: ftest tick (\d+)$", m.group("body"))
        assert b, line
        seen.append(int(b.group(1)))
    assert sorted(seen) == list(range(1, n + 1)), seen
    assert entries(lucid) == (str(n), str(n))


def test_printk_from_the_tick_nested(lucid):
    """The tick's trace_printk lands in the middle of the function tracer's own records (run_test
    keeps every CPU busy taking mutexes): none is lost or torn, every line still parses."""
    reset_tracing(lucid)
    n = 60
    ok(lucid, "echo 'mutex_*' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    out = sh(lucid, "run_test -r 1000 | ftest tick %d" % n, timeout=120)
    assert lucid.status() == 0, out
    ok(lucid, "echo 0 > tracing_on")
    text = cat(lucid, "trace", timeout=120)
    cpus = ncpus(lucid)
    overrun = sum(int(re.search(r"overrun: (\d+)", cat(lucid, "per_cpu/cpu%d/stats" % c))
                      .group(1)) for c in range(cpus))
    assert overrun == 0, "the buffer overran: the test proves nothing"
    ticks, funcs = [], 0
    for line in events(text):
        m = TRACE_LINE.match(line)
        assert m, line
        b = re.match(r"^ftest_tick: ftest tick (\d+)$", m.group("body"))
        if b:
            ticks.append(int(b.group(1)))
        else:
            assert re.match(r"^mutex_\w+ <-[\w.]+$", m.group("body")), line
            funcs += 1
    assert sorted(ticks) == list(range(1, n + 1)), ticks
    assert funcs > 1000, funcs
    reset_tracing(lucid)


# --- insmod foo ---------------------------------------------------------------------------------


def test_insmod_foo(lucid):
    reset_tracing(lucid)
    ok(lucid, "insmod %s" % FOO)
    lines = events(cat(lucid, "trace"))
    assert len(lines) == 1, lines
    # bar is the module's data, in the module area (arch/x86_64/mmu.h: MODULES_VADDR)
    m = re.match(r"^ {10}insmod-\d+ +\[\d{3}\] \.\.\.\. +\d+\.\d{6}: "
                 r"foo_init: read foo 10 out of bar (ffffffffc[0-9a-f]{7})$", lines[0])
    assert m, lines
    # busybox's words, and its status: the errno init_module(2) failed with (EEXIST).
    assert sh(lucid, "insmod %s" % FOO) == "insmod: can't insert '%s': File exists\n" % FOO
    assert lucid.status() == 17
    ok(lucid, "rmmod foo")
    # foo_exit's message has no arguments: recorded as the string's address alone
    assert bodies(lucid)[1:] == ["foo_exit: foo says goodbye"]
    assert sh(lucid, "rmmod foo") == \
        "rmmod: can't unload module 'foo': No such file or directory\n"
    assert lucid.status() == 1
    assert sh(lucid, "insmod nosuch") == \
        "insmod: can't insert 'nosuch': No such file or directory\n"
    assert lucid.status() == 254  # busybox's: -ENOENT, as its exit status
    # Under the function tracer: the loader, the init, then its message.
    # foo is not loaded: its function is named with :mod:, kept until it loads (as Linux)
    ok(lucid, "echo 'do_one_initcall foo_init:mod:foo' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "insmod %s" % FOO)
    ok(lucid, "rmmod foo")
    b = bodies(lucid)
    assert re.match(r"^do_one_initcall <-\w+$", b[0]) and b[1] == "foo_init <-do_one_initcall", b
    assert re.match(r"^foo_init: read foo 10 out of bar ffffffffc[0-9a-f]{7}$", b[2]), b
    assert b[3:] == ["foo_exit: foo says goodbye"], b
    reset_tracing(lucid)


# --- trace_marker -------------------------------------------------------------------------------


def test_marker(lucid):
    reset_tracing(lucid)
    shell = int(sh(lucid, "echo $$"))
    ok(lucid, "echo hello > trace_marker")  # bash's builtin echo: bash itself writes
    ok(lucid, "/bin/echo -n 'no newline' > trace_marker")  # busybox's echo, a process
    lines = events(cat(lucid, "trace"))
    assert len(lines) == 2, lines
    assert re.match(r"^ {12}bash-%d +\[\d{3}\] \.\.\.\. +\d+\.\d{6}: "
                    r"tracing_mark_write: hello$" % shell, lines[0]), lines
    assert re.match(r"^ {12}echo-\d+ ", lines[1]), lines
    assert TRACE_LINE.match(lines[1]).group("body") == "tracing_mark_write: no newline", lines
    # Each write from its own task.
    assert TRACE_LINE.match(lines[0]).group("pid") != TRACE_LINE.match(lines[1]).group("pid")
    # The writer is a process crossing the system call boundary, as in the article: bash's
    # write(2) enters vfs_write from do_syscall_64, and the marker is written inside it.
    ok(lucid, "echo vfs_write > set_ftrace_filter")
    ok(lucid, "echo 1 > options/func_stack_trace")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "echo > trace; echo traced > trace_marker; echo 0 > tracing_on")
    lines = events(cat(lucid, "trace"))
    mark = next(i for i, l in enumerate(lines) if l.endswith("tracing_mark_write: traced"))
    assert TRACE_LINE.match(lines[mark]).group("comm").strip() == "bash", lines
    start = max(i for i in range(mark) if TRACE_LINE.match(lines[i]) and
                TRACE_LINE.match(lines[i]).group("body") == "vfs_write <-ksys_write")
    assert int(TRACE_LINE.match(lines[start]).group("pid")) == shell, lines
    assert TRACE_LINE.match(lines[start + 1]).group("body") == "<stack trace>", lines
    frames = lines[start + 2:mark]
    assert frames[0] == " => vfs_write" and " => do_syscall_64" in frames, lines
    reset_tracing(lucid)


def test_marker_errors(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > tracing_on")
    fails(lucid, "echo hello-while-off > trace_marker", EBADF)
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "echo 0 > options/markers")
    assert "nomarkers" in cat(lucid, "trace_options").split()
    fails(lucid, "echo hello-without-markers > trace_marker")
    ok(lucid, "echo 1 > options/markers")
    assert entries(lucid) == ("0", "0")
    ok(lucid, "echo hello-while-on > trace_marker")
    assert bodies(lucid) == ["tracing_mark_write: hello-while-on"]


def test_marker_among_kernel_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo ftest_leaf > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "echo before > trace_marker; ftest call; echo after > trace_marker")
    ok(lucid, "echo 0 > tracing_on")
    assert bodies(lucid) == ["tracing_mark_write: before"] + ["ftest_leaf <-ftest_mid"] * 3 + [
        "tracing_mark_write: after"]
    reset_tracing(lucid)


# --- stopping from inside -----------------------------------------------------------------------


def test_tracing_off_from_the_kernel(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ftest call")
    ok(lucid, "ftest off")
    assert cat(lucid, "tracing_on") == "0\n"
    b = bodies(lucid)
    # ftest_off's first ftest_leaf is in, the one after tracing_off() is not.
    assert b[-2:] == ["ftest_off <-cmd_ftest", "ftest_leaf <-ftest_off"], b
    assert len(b) == 9 + 2, b
    ok(lucid, "ftest call")  # not recorded
    assert len(bodies(lucid)) == 11
    reset_tracing(lucid)


def probes(k):
    return [l for l in cat(k, "set_ftrace_filter").splitlines() if ":" in l]


def test_traceoff_count(lucid):
    """count=N: the command fires N times; only a time it changed something counts."""
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ftest_filter = cat(lucid, "set_ftrace_filter")
    ok(lucid, "echo 'ftest_leaf:traceoff:2' >> set_ftrace_filter")  # >>: the filter stays
    assert probes(lucid) == ["ftest_leaf:traceoff:count=2"]
    assert "ftest_outer" in cat(lucid, "set_ftrace_filter").split()
    one_call = ["ftest_outer <-cmd_ftest", "ftest_mid <-ftest_outer", "ftest_leaf <-ftest_mid"]
    ok(lucid, "ftest call")
    # The trace stops right after ftest_leaf's own event, in the first of three calls.
    assert bodies(lucid) == one_call
    assert cat(lucid, "tracing_on") == "0\n"
    assert probes(lucid) == ["ftest_leaf:traceoff:count=1"]
    ok(lucid, "ftest call")  # tracing is off already: the command does nothing, uses no count
    assert probes(lucid) == ["ftest_leaf:traceoff:count=1"]
    ok(lucid, "echo 1 > tracing_on")  # the function tracer starts a new trace
    ok(lucid, "ftest call")
    assert bodies(lucid) == one_call
    assert probes(lucid) == ["ftest_leaf:traceoff:count=0"]
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "ftest call")  # used up
    assert bodies(lucid) == one_call * 3
    assert cat(lucid, "tracing_on") == "1\n"
    # Only the counted kind's removal removes it.
    fails(lucid, "echo '!ftest_leaf:traceoff' >> set_ftrace_filter",
          "-bash: echo: write error: No such device\n")
    ok(lucid, "echo '!ftest_leaf:traceoff:0' >> set_ftrace_filter")
    assert probes(lucid) == []
    assert cat(lucid, "set_ftrace_filter") == ftest_filter  # the ftest_* filter is intact
    reset_tracing(lucid)


def test_traceoff_traceon_unlimited(lucid):
    """While tracing is off the callbacks still run: ftest_leaf's traceon turns it back on."""
    reset_tracing(lucid)
    # ">" empties the filter, as on Linux, and the listing says so before the commands.
    ok(lucid, "echo ftest_outer > set_ftrace_filter")
    ok(lucid, "echo 'ftest_mid:traceoff' > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == \
        "#### all functions enabled ####\nftest_mid:traceoff:unlimited\n"
    ok(lucid, "echo 'ftest_leaf:traceon' >> set_ftrace_filter")
    # newest first, as Linux lists its probes
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n" \
        "ftest_leaf:traceon:unlimited\nftest_mid:traceoff:unlimited\n"
    # The call sites are live under nop: one ops for each command.
    assert cat(lucid, "enabled_functions") == "ftest_leaf (1)      \nftest_mid (1)      \n"
    ok(lucid, "echo 'ftest_*' >> set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    assert bodies(lucid) == ["ftest_outer <-cmd_ftest", "ftest_mid <-ftest_outer"] * 3
    ok(lucid, "echo nop > current_tracer")
    ok(lucid, "echo '!ftest_mid:traceoff' >> set_ftrace_filter")
    assert probes(lucid) == ["ftest_leaf:traceon:unlimited"]
    ok(lucid, "echo '!*:traceon' >> set_ftrace_filter")
    assert probes(lucid) == []
    assert cat(lucid, "enabled_functions") == ""
    reset_tracing(lucid)


def test_stacktrace_probe(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_mid:stacktrace' > set_ftrace_filter")
    ok(lucid, "ftest call")  # under nop: only the stacks
    text = cat(lucid, "trace")
    lines = events(text)
    heads = [i for i, l in enumerate(lines) if TRACE_LINE.match(l)]
    assert len(heads) == 3, text
    for i in heads:
        assert TRACE_LINE.match(lines[i]).group("body") == "<stack trace>", text
        assert lines[i + 1:i + 4] == [" => ftest_mid", " => ftest_outer", " => cmd_ftest"], text
    # Counted: two stacks, then none; the listing shows what is left.
    ok(lucid, "echo '!ftest_mid:stacktrace' >> set_ftrace_filter")
    ok(lucid, "echo 'ftest_mid:stacktrace:2' >> set_ftrace_filter")
    assert probes(lucid) == ["ftest_mid:stacktrace:count=2"]
    ok(lucid, "echo > trace")
    ok(lucid, "ftest call")
    assert bodies(lucid).count("<stack trace>") == 2
    assert probes(lucid) == ["ftest_mid:stacktrace:count=0"]
    # Under the function tracer the stack follows the function's own event.
    ok(lucid, "echo '!ftest_mid:stacktrace:0' >> set_ftrace_filter")
    ok(lucid, "echo 'ftest_mid:stacktrace' >> set_ftrace_filter")
    ok(lucid, "echo 'ftest_*' >> set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ftest call")
    ok(lucid, "echo 0 > tracing_on")
    b = bodies(lucid)
    assert b[:6] == ["ftest_outer <-cmd_ftest", "ftest_mid <-ftest_outer", "<stack trace>",
                     " => ftest_mid", " => ftest_outer", " => cmd_ftest"], b
    reset_tracing(lucid)


def test_bad_commands_change_nothing(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo ftest_outer > set_ftrace_filter")
    ok(lucid, "echo 'ftest_leaf:traceoff' >> set_ftrace_filter")
    before = cat(lucid, "set_ftrace_filter")
    assert before == "ftest_outer\nftest_leaf:traceoff:unlimited\n"
    for word in ["ftest_leaf:nosuchcmd", "nosuch:traceoff", "ftest_leaf:traceoff:abc",
                 "ftest_leaf:traceoff:-1", ":traceoff", "ftest_leaf:traceoff",  # has it
                 "!ftest_mid:traceoff",  # not on ftest_mid
                 "ftest_mid ftest_leaf:nosuchcmd",  # a write fails whole
                 "ftest_mid ftest_mid:traceoff ftest_mid:traceoff"]:  # twice: the 2nd fails
        fails(lucid, "echo '%s' > set_ftrace_filter" % word)
        assert cat(lucid, "set_ftrace_filter") == before, word
    fails(lucid, "echo '!ftest_leaf:stacktrace' > set_ftrace_filter",
          "-bash: echo: write error: No such device\n")
    fails(lucid, "echo 'ftest_leaf:traceoff' > set_ftrace_notrace")
    assert cat(lucid, "set_ftrace_notrace") == "#### no functions disabled ####\n"
    assert cat(lucid, "set_ftrace_filter") == before
    # "echo > set_ftrace_filter" empties the filter, not the commands (Linux's README).
    ok(lucid, "echo > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == \
        "#### all functions enabled ####\nftest_leaf:traceoff:unlimited\n"
    reset_tracing(lucid)


# --- enable_event, disable_event, dump, cpudump ---------------------------------------------------

EXEC_ENABLE = "events/sched/sched_process_exec/enable"


def test_enable_event_command(lucid):
    """func:enable_event:sched:EVENT holds the event in soft mode (0*) until func runs."""
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_leaf:enable_event:sched:sched_process_exec' > set_ftrace_filter")
    assert probes(lucid) == ["ftest_leaf:enable_event:sched:sched_process_exec:unlimited"]
    assert cat(lucid, EXEC_ENABLE) == "0*\n"
    ok(lucid, "ftest call")  # its own exec came before ftest_leaf ran: not recorded
    ftest_execs = lambda: [b for b in bodies(lucid)  # noqa: E731 (cat is an exec too)
                           if b.startswith("sched_process_exec: filename=/bin/ftest ")]
    assert ftest_execs() == []
    assert cat(lucid, EXEC_ENABLE) == "1*\n"
    ok(lucid, "ftest call")
    assert len(ftest_execs()) == 1, bodies(lucid)
    ok(lucid, "echo '!ftest_leaf:enable_event:sched:sched_process_exec' >> set_ftrace_filter")
    assert probes(lucid) == []
    # The hold went with the last function; what the command switched on stays on, as on
    # Linux (__ftrace_event_enable_disable keeps an event soft mode left enabled).
    assert cat(lucid, EXEC_ENABLE) == "1\n"
    ok(lucid, "echo 0 > " + EXEC_ENABLE)
    reset_tracing(lucid)


def test_enable_disable_event_counts(lucid):
    """A count is used only by a switch that changes something, as Linux's."""
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_outer:enable_event:sched:sched_process_exec:1' > set_ftrace_filter")
    ok(lucid, "echo 'ftest_mid:disable_event:sched:sched_process_exec:2' >> set_ftrace_filter")
    assert probes(lucid) == ["ftest_mid:disable_event:sched:sched_process_exec:count=2",
                             "ftest_outer:enable_event:sched:sched_process_exec:count=1"]
    # Three rounds: outer switches it on (its one count), mid off; then outer is used up and
    # mid finds it off already, which costs no count.
    ok(lucid, "ftest call")
    assert probes(lucid) == ["ftest_mid:disable_event:sched:sched_process_exec:count=1",
                             "ftest_outer:enable_event:sched:sched_process_exec:count=0"]
    assert cat(lucid, EXEC_ENABLE) == "0*\n"
    before = cat(lucid, "set_ftrace_filter")
    for word in ["ftest_leaf:enable_event:sched:nosuch", "ftest_leaf:enable_event:sched",
                 "ftest_leaf:enable_event", "ftest_leaf:enable_event:nosys:sched_process_exec",
                 "ftest_leaf:enable_event:sched:sched_process_exec:",
                 "ftest_leaf:enable_event:sched:sched_process_exec:x",
                 "nosuch:disable_event:sched:sched_process_exec"]:
        fails(lucid, "echo '%s' >> set_ftrace_filter" % word)
        assert cat(lucid, "set_ftrace_filter") == before, word
    fails(lucid, "echo 'ftest_leaf:enable_event:sched:sched_switch' > set_ftrace_notrace")
    # The counted kind is removed with a count (Linux's README); without, ENODEV.
    fails(lucid, "echo '!ftest_mid:disable_event:sched:sched_process_exec' >> set_ftrace_filter",
          ENODEV)
    ok(lucid, "echo '!ftest_mid:disable_event:sched:sched_process_exec:0' >> set_ftrace_filter")
    assert cat(lucid, EXEC_ENABLE) == "0*\n"  # ftest_outer's command still holds it
    ok(lucid, "echo '!ftest_outer:enable_event:sched:sched_process_exec:0' >> set_ftrace_filter")
    assert probes(lucid) == []
    assert cat(lucid, EXEC_ENABLE) == "0\n"
    reset_tracing(lucid)


def test_dump_and_cpudump(lucid):
    """func:dump prints the buffer on the console once (its count is always 1) and stops
    tracing; cpudump prints only the calling CPU's."""
    reset_tracing(lucid)
    ok(lucid, "echo 'ftest_*' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "echo 'ftest_leaf:dump:5' >> set_ftrace_filter")
    assert probes(lucid) == ["ftest_leaf:dump:count=1"]
    out = sh(lucid, "ftest call")
    assert "Dumping ftrace buffer:" in out, out
    dumped = re.findall(r"(ftest_\w+) <-(\w+)", out)
    assert dumped[-3:] == [("ftest_outer", "cmd_ftest"), ("ftest_mid", "ftest_outer"),
                           ("ftest_leaf", "ftest_mid")], out
    assert probes(lucid) == ["ftest_leaf:dump:count=0"]
    assert cat(lucid, "tracing_on") == "0\n"
    assert bodies(lucid) == []  # the dump read the buffer out
    out = sh(lucid, "echo 1 > tracing_on; ftest call")
    assert "Dumping" not in out  # once
    ok(lucid, "echo '!ftest_leaf:dump' >> set_ftrace_filter")
    assert probes(lucid) == []
    ok(lucid, "echo > trace")
    ok(lucid, "echo 'ftest_leaf:cpudump' >> set_ftrace_filter")
    assert probes(lucid) == ["ftest_leaf:cpudump:count=1"]
    out = sh(lucid, "ftest call")
    assert "Dumping ftrace buffer:" in out, out
    # The latency format's lines: "ftest-PID  CPU.... TIMEus : body"; one CPU only.
    cpus = set(re.findall(r"\s\S+-\d+\s+(\d+)\S{4}\s+\d+us : ftest_", out))
    assert len(cpus) == 1, out
    assert probes(lucid) == ["ftest_leaf:cpudump:count=0"]
    ok(lucid, "echo '!ftest_leaf:cpudump' >> set_ftrace_filter")
    reset_tracing(lucid)

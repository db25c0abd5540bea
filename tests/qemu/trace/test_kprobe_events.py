"""kprobe_events and kprobe_profile (trace/trace_kprobe.c, trace/trace_probe.c), as Linux 6.1's.

Linux's captures (../shared/reference/linux-6.1-probes/) probe __x64_sys_getpid; Lucid's getpid
is sys_getpid, so the same definitions are made on it and everything else must read as Linux's:
the definitions listed back, the format files byte for byte, the trace lines, kprobe_profile's
columns and counts. Then each fetch argument on sys_openat (whose arguments are openat's:
$arg1 the directory, $arg2 the user's path, $arg3 the flags), a kretprobe's $retval, faults
recorded as "(fault)", filters and triggers on probe fields, set_event, instances, trace-cmd,
removal and EBUSY, and every malformed definition of Linux's kprobe_syntax_errors.tc with
Linux's error_log line and caret.
"""
import os
import re

from lucid import ROOT
from test_trace_cmd_events import SHARE, record, report_of
from tracefs import (EBUSY, EEXIST, EILSEQ, EINVAL, ENOENT, cat, fails, last_error, modes, ok,
                     reset_tracing, sh)

BOOT = {"timeout": 120, "share": SHARE}
REF = os.path.join(ROOT, "..", "shared", "reference", "linux-6.1-probes")
# "             cat-9     [000] ....     0.492916: gp3: (sys_getpid+0x0/0x20) regs=0x0 ..."
LINE = re.compile(r"^ +(\S+)-(\d+) +\[(\d{3})\] (\S{4}) +\d+\.\d{6}: (\w+): (.*)$")
PROFILE = re.compile(r"^  (\S+) +(\d+) +(\d+)$")
# Linux 6.1's warning for a probe on a module that is not loaded (register_trace_kprobe)
WAIT_FOR_MODULE = ("trace_kprobe: This probe might be able to register after target module is "
                   "loaded. Continue.")
MODULE = "/lib/modules/6.1.0-lucid/kernel/modules/%s.ko"
OPENAT = "p:op sys_openat dfd=$arg1:s32 path=+0($arg2):ustring fl=$arg3:x32"
OPENRET = "r:opr sys_openat ret=$retval:s64"


def ref(name):
    with open(os.path.join(REF, name)) as f:
        return f.read()


def lines(k, name=None):
    out = []
    for l in cat(k, "trace").splitlines():
        if l.startswith("#"):
            continue
        m = LINE.match(l)
        assert m, l
        if name is None or m.group(5) == name:
            out.append(m)
    return out


def profile(k):
    """{event: (hits, misses)}, each line checked against Linux's "  %-44s %15lu %15lu"."""
    got = {}
    for l in cat(k, "kprobe_profile").splitlines():
        m = PROFILE.match(l)
        assert m, l
        name, hits, missed = m.groups()
        assert l == "  %-44s %15s %15s" % (name, hits, missed), l
        got[name] = (int(hits), int(missed))
    return got


# --- Linux's captures --------------------------------------------------------------------------

def test_files(lucid):
    reset_tracing(lucid)
    m = modes(lucid)
    assert m["kprobe_events"] == "-rw-r-----"
    assert m["kprobe_profile"] == "-r--r-----"
    assert cat(lucid, "kprobe_events") == "" and cat(lucid, "kprobe_profile") == ""


def test_the_captures_definitions_formats_and_profile(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'p:gp sys_getpid' > kprobe_events")
    ok(lucid, "echo 'p:gp3 sys_getpid regs=%di comm=$comm' >> kprobe_events")
    ok(lucid, "echo 'r10:gpr sys_getpid ret=$retval' >> kprobe_events")
    want = [l.replace("__x64_sys_getpid", "sys_getpid") for l in
            ref("kprobe_events.txt").splitlines() if "gp2" not in l]
    assert cat(lucid, "kprobe_events").splitlines() == want
    assert cat(lucid, "dynamic_events").splitlines() == want
    for name, capture in (("gp3", "kprobes_gp3_format.txt"), ("gpr", "kprobes_gpr_format.txt")):
        ev_id = cat(lucid, "events/kprobes/%s/id" % name)
        linux = re.sub(r"ID: \d+\n", "ID: %s" % ev_id, ref(capture))
        assert cat(lucid, "events/kprobes/%s/format" % name) == linux, name
    assert sorted(modes(lucid, "events/kprobes/gp")) == \
        ["enable", "filter", "format", "hist", "id", "trigger"]
    # kprobe_profile before any hit: Linux's lines, byte for byte
    linux = [l for l in ref("kprobe_profile.txt").splitlines() if "gp2" not in l]
    assert cat(lucid, "kprobe_profile").splitlines() == linux


def test_getpid_lines_and_counts(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'p:gp3 sys_getpid regs=%di comm=$comm' > kprobe_events")
    ok(lucid, "echo 'r10:gpr sys_getpid ret=$retval' >> kprobe_events")
    ok(lucid, "echo 1 > events/kprobes/enable")
    assert cat(lucid, "events/kprobes/enable") == "1\n"
    for _ in range(3):
        ok(lucid, "/bin/ps > /dev/null")  # busybox calls getpid
    ok(lucid, "echo 0 > events/kprobes/enable")
    gp3, gpr = lines(lucid, "gp3"), lines(lucid, "gpr")
    assert len(gp3) >= 3 and len(gpr) >= 3
    for m in gp3:
        assert re.fullmatch(r'\(sys_getpid\+0x0/0x[0-9a-f]+\) regs=0x[0-9a-f]+ comm="[\w-]+"',
                            m.group(6)), m.group(0)
    for m in gpr:
        r = re.fullmatch(r"\((\w+)\+0x[0-9a-f]+/0x[0-9a-f]+ <- sys_getpid\) ret=0x([0-9a-f]+)",
                         m.group(6))
        assert r, m.group(0)
        assert int(r.group(2), 16) == int(m.group(2))  # getpid returned the caller's pid
    # the context columns as Linux's captures have them: the entry probe (on the ftrace site)
    # and the kretprobe's handler (from the trampoline) run with interrupts as getpid had
    # them, on: no irqs-off 'd', and no preemption depth of the probe machinery's own
    for name, capture in (("gp3", "trace_kprobe_gp3.txt"), ("gpr", "trace_kretprobe_gpr.txt")):
        linux = next(l for l in ref(capture).splitlines() if not l.startswith("#"))
        irqs_off, depth = re.search(r"\] (\S)\S\S(\S)\S ", linux).groups()
        for m in (gp3 if name == "gp3" else gpr):
            assert (m.group(4)[0], m.group(4)[3]) == (irqs_off, depth), m.group(0)
    # every hit was recorded: the profile counts what the trace holds, no misses
    prof = profile(lucid)
    assert prof["gp3"] == (len(gp3), 0) and prof["gpr"] == (len(gpr), 0), prof
    # disabled: no hits counted
    ok(lucid, "/bin/ps > /dev/null")
    assert profile(lucid) == prof


# --- fetch arguments ---------------------------------------------------------------------------

def test_openat_arguments_and_return_values(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' > kprobe_events" % OPENAT)
    ok(lucid, "echo '%s' >> kprobe_events" % OPENRET)
    ok(lucid, "echo 1 > events/kprobes/enable")
    ok(lucid, "cat /etc/passwd > /dev/null")
    assert sh(lucid, "cat /nonexist") == "cat: can't open '/nonexist': No such file or directory\n"
    ok(lucid, "echo 0 > events/kprobes/enable")
    op = [m for m in lines(lucid) if m.group(5) in ("op", "opr")]
    bodies = [(m.group(2), m.group(5), m.group(6)) for m in op]
    # each call's entry and return, from the same task, one after the other
    for path, ret in (("/etc/passwd", None), ("/nonexist", -2)):
        i = next(i for i, b in enumerate(bodies)
                 if b[1] == "op" and b[2].endswith('path="%s" fl=0x0' % path))
        assert re.fullmatch(r'\(sys_openat\+0x0/0x[0-9a-f]+\) dfd=-100 path="%s" fl=0x0' % path,
                            bodies[i][2]), bodies[i]
        pid, name, body = bodies[i + 1]
        assert (pid, name) == (bodies[i][0], "opr"), bodies[i + 1]
        r = re.fullmatch(r"\(\w+\+0x[0-9a-f]+/0x[0-9a-f]+ <- sys_openat\) ret=(-?\d+)", body)
        assert r, body
        assert int(r.group(1)) >= 0 if ret is None else int(r.group(1)) == ret
    # the redirection's openat: O_WRONLY|O_CREAT|O_TRUNC
    assert any(b[2].endswith('path="/dev/null" fl=0x241') for b in bodies), bodies


def test_types_arrays_bitfields_and_faults(lucid):
    reset_tracing(lucid)
    # the path's first bytes as an array, as chars, and a bitfield of the flags; a kernel
    # read at address 16 and a user one at 16 both fault: "(fault)" and 0, never an oops
    ok(lucid, "echo 'p:ty sys_openat b=+u0($arg2):u8[3] c=+u0($arg2):x8 bf=$arg3:b2@0/32 "
        "k=+0(\\16):string u=+0(\\16):ustring n=+u0(\\16):u32 im=\\-5:s16 "
        "s=\\\"lit\" st=$stack' > kprobe_events")
    ok(lucid, "echo 1 > events/kprobes/ty/enable")
    ok(lucid, "cat /etc/passwd > /dev/null")
    ok(lucid, "echo 0 > events/kprobes/ty/enable")
    got = [m.group(6) for m in lines(lucid, "ty")]
    # "/et" is 0x2f 0x65 0x74; O_RDONLY's low bits are 0
    want = re.compile(r'\(sys_openat\+0x0/0x[0-9a-f]+\) b=\{47,101,116\} c=0x2f bf=0 '
                      r'k=\(fault\) u=\(fault\) n=0 im=-5 s="lit" st=0x[0-9a-f]+')
    assert any(want.fullmatch(g) for g in got), got
    fmt = cat(lucid, "events/kprobes/ty/format")
    assert "\tfield:u8 b[3];\toffset:16;\tsize:3;\tsigned:0;\n" in fmt, fmt
    assert 'print fmt: "(%lx) b={%u,%u,%u} c=0x%x bf=%u' in fmt, fmt


def test_address_probe_and_stack(lucid):
    """p MEMADDR: a probe at an address, named p_0xADDR; $stackN: words of the kernel stack
    (at a function's entry, $stack0 is the return address)."""
    reset_tracing(lucid)
    addr = sh(lucid, "grep ' sys_getpid$' /proc/kallsyms").split()[0].lstrip("0")
    ok(lucid, "echo 'p 0x%s ret=$stack0:symbol sp=$stack' > kprobe_events" % addr)
    assert cat(lucid, "kprobe_events") == \
        "p:kprobes/p_0x%s 0x%s ret=$stack0:symbol sp=$stack\n" % (addr, addr)
    ok(lucid, "echo 1 > events/kprobes/p_0x%s/enable" % addr)
    ok(lucid, "/bin/ps > /dev/null")
    ok(lucid, "echo 0 > events/kprobes/p_0x%s/enable" % addr)
    got = [m.group(6) for m in lines(lucid, "p_0x" + addr)]
    assert got and all(re.fullmatch(r"\(sys_getpid\+0x0/0x[0-9a-f]+\) ret=do_syscall_64\+0x"
                                    r"[0-9a-f]+/0x[0-9a-f]+ sp=0x[0-9a-f]+", g) for g in got), got


# Every register a probe can name that the 5-byte NOP at a function's entry leaves as it is.
SAME_REGS = "bx=%bx r12=%r12 r13=%r13 r14=%r14 r15=%r15 sp=%sp bp=%bp fl=%flags di=%di ax=%ax"
CALLEE_SAVED = ("bx", "r12", "r13", "r14", "r15")


def entry_and_next(k, entry, nxt):
    """Each task's (entry, next instruction) field pairs, in order: the same call's two hits."""
    pending, pairs = {}, []
    for m in (LINE.match(l) for l in cat(k, "trace").splitlines()):
        if not m or m.group(5) not in (entry, nxt):
            continue  # the header, the function tracer's lines
        fields = dict(f.split("=", 1) for f in m.group(6).split(") ", 1)[1].split())
        if m.group(5) == entry:
            assert m.group(2) not in pending, m.group(0)  # the entry hit had its next hit
            pending[m.group(2)] = fields
        else:
            pairs.append((pending.pop(m.group(2)), fields))
    return pairs


def test_entry_probe_sees_every_register(lucid):
    """A probe on a function's entry rides on ftrace: its site calls ftrace_regs_caller (the
    ops asks for FTRACE_OPS_FL_SAVE_REGS; enabled_functions' " R"), which saves every register.
    So it reads the callee-saved registers, the stack pointer and the flags exactly as an int3
    probe on the next instruction does, for the same call. (Through ftrace_caller, which saves
    only the argument registers and RAX, RBX and R12-R15 read 0.) Beside the function tracer
    on the same function, both are called; the tracer's other functions keep ftrace_caller."""
    reset_tracing(lucid)
    ok(lucid, "echo 'p:ent sys_getpid %s' >> kprobe_events" % SAME_REGS)
    ok(lucid, "echo 'p:nxt sys_getpid+5 %s' >> kprobe_events" % SAME_REGS)
    assert sh(lucid, "callsite sys_getpid").endswith("  nop (refcount 0)\n")
    hits = 0
    for with_tracer in (False, True):
        ok(lucid, "echo > trace")
        if with_tracer:
            ok(lucid, "echo sys_getpid sys_getppid > set_ftrace_filter")
            ok(lucid, "echo function > current_tracer")
        ok(lucid, "echo 1 > events/kprobes/enable")
        listed = sh(lucid, "grep -w sys_getpid /sys/kernel/debug/kprobes/list")
        assert re.search(r"  k  sys_getpid\+0x0    \[FTRACE\]\n", listed), listed
        assert re.search(r"  k  sys_getpid\+0x5 *\n", listed), listed  # an int3
        refs = 2 if with_tracer else 1
        assert re.fullmatch(r"sys_getpid at [0-9a-f]+: e8 .. .. .. ..  call ftrace_regs_caller "
                            r"\(refcount %d\)\n" % refs, sh(lucid, "callsite sys_getpid"))
        enabled = cat(lucid, "enabled_functions")
        assert ("sys_getpid (%d) R    \n" % refs) in enabled, enabled
        assert ("sys_getppid (1)      \n" in enabled) == with_tracer, enabled
        for _ in range(3):
            ok(lucid, "/bin/ps > /dev/null")  # busybox calls getpid
        ok(lucid, "echo 0 > events/kprobes/enable")
        pairs = entry_and_next(lucid, "ent", "nxt")
        assert len(pairs) >= 3, pairs
        for at_entry, at_next in pairs:
            assert at_entry == at_next, (at_entry, at_next)
        # the comparison means something: the callee-saved registers are not all 0
        assert any(int(e[r], 16) for e, _ in pairs for r in CALLEE_SAVED), pairs
        hits += len(pairs)
        assert profile(lucid)["ent"] == (hits, 0)  # every hit had its registers
        if with_tracer:  # and the tracer saw the calls the probe saw
            funcs = [l for l in cat(lucid, "trace").splitlines() if ": sys_getpid <-" in l]
            assert len(funcs) >= len(pairs), funcs
            ok(lucid, "echo nop > current_tracer; echo > set_ftrace_filter")
    # the probes off, the site is a NOP again
    assert sh(lucid, "callsite sys_getpid").endswith("  nop (refcount 0)\n")
    ok(lucid, "echo > kprobe_events")


def test_symbol_and_memory_arguments(lucid):
    reset_tracing(lucid)
    # @SYM[+OFFS]: memory at a symbol (Lucid's kallsyms names functions only, so code bytes
    # here); :symbol prints an address as a symbol
    ok(lucid, "echo 'p:sy sys_getpid j=@sys_getpid+1:u64 ip=%ip:symbol' > kprobe_events")
    ok(lucid, "echo 1 > events/kprobes/sy/enable")
    ok(lucid, "/bin/ps > /dev/null")
    ok(lucid, "echo 0 > events/kprobes/sy/enable")
    got = [m.group(6) for m in lines(lucid, "sy")]
    assert got and all(re.fullmatch(r"\(sys_getpid\+0x0/0x[0-9a-f]+\) j=\d+ ip=sys_getpid\+0x"
                                    r"[0-9a-f]+/0x[0-9a-f]+", g) for g in got), got
    fails(lucid, "echo 'p:sy2 sys_getpid j=@no_such_symbol' >> kprobe_events", ENOENT)
    assert last_error(lucid)[1] == "Invalid probed address or symbol"


# --- the event's files -------------------------------------------------------------------------

def test_filter_trigger_set_event_and_instances(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' > kprobe_events" % OPENAT)
    ok(lucid, "echo '%s' >> kprobe_events" % OPENRET)
    ok(lucid, "echo 'path ~ \"*passwd\"' > events/kprobes/op/filter")
    ok(lucid, "echo 'kprobes:op' > set_event")
    assert cat(lucid, "set_event") == "kprobes:op\n"
    ok(lucid, "cat /etc/passwd /etc/group > /dev/null")
    ok(lucid, "echo 'traceoff if ret == -2' > events/kprobes/opr/trigger")
    assert cat(lucid, "events/kprobes/opr/enable") == "0*\n"
    ok(lucid, "cat /etc/group > /dev/null")
    assert cat(lucid, "tracing_on") == "1\n"
    sh(lucid, "cat /nonexist")
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo '!traceoff' > events/kprobes/opr/trigger; echo > set_event")
    paths = [re.search(r'path="([^"]*)"', m.group(6)).group(1) for m in lines(lucid, "op")]
    assert paths and set(paths) == {"/etc/passwd"}, paths
    ok(lucid, "echo 0 > events/kprobes/op/filter; echo 1 > tracing_on; echo > trace")
    # an instance made now has the probe events too, and records them on its own
    ok(lucid, "mkdir instances/kp")
    ok(lucid, "echo 1 > instances/kp/events/kprobes/op/enable")
    ok(lucid, "cat /etc/group > /dev/null")
    fails(lucid, "echo '-:op' >> kprobe_events", EBUSY)  # the instance records it
    ok(lucid, "echo 0 > instances/kp/events/kprobes/op/enable")
    assert 'path="/etc/group"' in cat(lucid, "instances/kp/trace")
    assert lines(lucid, "op") == []
    # removed, it goes from the instance too; the instance lives on
    ok(lucid, "echo '-:op' >> kprobe_events")
    assert "op" not in modes(lucid, "instances/kp/events/kprobes")
    assert "opr" in modes(lucid, "instances/kp/events/kprobes")
    ok(lucid, "echo 'kprobes:*' > instances/kp/set_event")
    assert cat(lucid, "instances/kp/set_event") == "kprobes:opr\n"
    ok(lucid, "echo > instances/kp/set_event")
    ok(lucid, "rmdir instances/kp")


def test_events_made_after_the_instance(lucid):
    """An instance that exists when a kprobe event or an eprobe event is made gets it (Linux's
    __trace_add_new_event for each trace_array): its files, its records, its EBUSY; and its
    removal takes it from the instance, which still records, lists and goes as before."""
    reset_tracing(lucid)
    ok(lucid, "mkdir instances/early")
    ok(lucid, "echo '%s' > kprobe_events" % OPENAT)
    ok(lucid, "echo 'r:opr2 sys_openat ret=$retval:s64' >> kprobe_events")
    ok(lucid, "echo 'e:eo syscalls.sys_enter_openat fn=+0($filename):ustring' >> dynamic_events")
    for e in ("kprobes/op", "kprobes/opr2", "eprobes/eo"):
        got = modes(lucid, "instances/early/events/%s" % e)
        assert set(got) == {"enable", "filter", "trigger", "format", "hist", "id"}, (e, got)
        assert cat(lucid, "instances/early/events/%s/id" % e) == cat(lucid, "events/%s/id" % e)
        assert cat(lucid, "instances/early/events/%s/enable" % e) == "0\n"
    assert "kprobes" in modes(lucid, "instances/early/events")
    # enabled in the instance only: its records there, none at the top level
    ok(lucid, "echo 'kprobes:op eprobes:eo' > instances/early/set_event")
    ok(lucid, "echo 1 > instances/early/events/kprobes/opr2/enable")
    ok(lucid, "echo 'path ~ \"*group\"' > instances/early/events/kprobes/op/filter")
    ok(lucid, "cat /etc/group /etc/passwd > /dev/null")
    assert sorted(cat(lucid, "instances/early/set_event").split()) == [
        "eprobes:eo", "kprobes:op", "kprobes:opr2"]
    text = cat(lucid, "instances/early/trace")
    assert re.search(r" op: \(sys_openat\+0x0/0x[0-9a-f]+\) dfd=-100 path=\"/etc/group\"",
                     text), text[-2000:]
    assert 'path="/etc/passwd"' not in text  # the instance's filter
    assert re.search(r" opr2: \(.*<- sys_openat\) ret=\d+", text), text[-2000:]
    assert re.search(r' eo: \(syscalls.sys_enter_openat\) fn="/etc/passwd"', text), text[-2000:]
    assert lines(lucid) == []  # the top level recorded none of them
    assert profile(lucid)["op"][0] >= 2
    # EBUSY while the instance records them; nothing goes
    fails(lucid, "echo '-:op' >> kprobe_events", EBUSY)
    fails(lucid, "echo '-:eprobes/eo' >> dynamic_events", EBUSY)
    assert sh(lucid, "echo > kprobe_events") == \
        "-bash: kprobe_events: Device or resource busy\n"
    assert len(cat(lucid, "kprobe_events").splitlines()) == 2
    # an open file of the event in the instance keeps it too (Linux: the event is in use)
    ok(lucid, "echo > instances/early/set_event; echo 0 > instances/early/events/kprobes/opr2/enable")
    ok(lucid, "exec 7< instances/early/events/kprobes/op/format")
    fails(lucid, "echo '-:op' >> kprobe_events", EBUSY)
    ok(lucid, "exec 7<&-")
    # removed: gone from the instance (its system with its last event), which lives on
    ok(lucid, "echo '-:op' >> kprobe_events")
    assert "op" not in modes(lucid, "instances/early/events/kprobes")
    ok(lucid, "echo '-:eprobes/eo' >> dynamic_events")
    assert "eprobes" not in modes(lucid, "instances/early/events")
    ok(lucid, "echo 'kprobes:*' > instances/early/set_event")
    assert cat(lucid, "instances/early/set_event") == "kprobes:opr2\n"
    ok(lucid, "echo > instances/early/set_event")
    # made again while the instance exists: a new file in it, and it records
    ok(lucid, "echo '%s' >> kprobe_events" % OPENAT)
    ok(lucid, "echo 1 > instances/early/events/kprobes/op/enable; echo > instances/early/trace")
    ok(lucid, "cat /etc/group > /dev/null")
    ok(lucid, "echo 0 > instances/early/events/kprobes/op/enable")
    assert 'path="/etc/group"' in cat(lucid, "instances/early/trace")
    # trace-cmd -B on the instance that was there first reads the event it got (recwait: the
    # command runs once trace-cmd's recorders read, user/recwait.c says why)
    ok(lucid, "echo > instances/early/trace")
    record(lucid, "-B early -e kprobes:op recwait cat /etc/passwd > /dev/null")
    got = report_of(lucid, "kprobes-early.dat")
    assert any(m.group("event") == "op" and 'path="/etc/passwd"' in m.group("body")
               for m in got), [m.group(0) for m in got][:10]
    sh(lucid, "rmdir instances/early")  # trace-cmd may have removed it already
    assert "early" not in modes(lucid, "instances")
    ok(lucid, "echo > kprobe_events")
    assert "kprobes" not in modes(lucid, "events")


def test_trace_cmd_records_kprobe_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' > kprobe_events" % OPENAT)
    # recwait: cat runs once trace-cmd's recorders read; a short command that ended before a
    # recorder had set itself up lost that CPU's events (user/recwait.c)
    record(lucid, "-e kprobes:op recwait cat /etc/passwd > /dev/null")
    got = report_of(lucid, "kprobes.dat")
    assert any(m.group("event") == "op" and 'path="/etc/passwd"' in m.group("body")
               for m in got), [m.group(0) for m in got][:10]


# --- removing ----------------------------------------------------------------------------------

def test_removal_and_busy(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'p:gp sys_getpid' > kprobe_events")
    ok(lucid, "echo 'p:other/gq sys_getpid' >> kprobe_events")
    ok(lucid, "echo 'r sys_getpid' >> kprobe_events")
    ok(lucid, "echo 'p sys_openat%return' >> kprobe_events")  # %return: a kretprobe too
    # a kretprobe's maxactive is listed as the mechanism set it (Linux's default when none)
    heads = [re.sub(r"^r\d+:", "r:", l.split()[0])
             for l in cat(lucid, "kprobe_events").splitlines()]
    assert heads == ["p:kprobes/gp", "p:other/gq", "r:kprobes/r_sys_getpid_0",
                     "r:kprobes/r_sys_openat_0"], heads
    ok(lucid, "echo 1 > events/kprobes/gp/enable")
    fails(lucid, "echo '-:gp' >> kprobe_events", EBUSY)
    assert sh(lucid, "echo > kprobe_events") == "-bash: kprobe_events: Device or resource busy\n"
    assert len(cat(lucid, "kprobe_events").splitlines()) == 4  # nothing went
    ok(lucid, "echo 0 > events/kprobes/gp/enable")
    fails(lucid, "echo '-:gp nosuch_function' >> kprobe_events", ENOENT)  # the head must match
    ok(lucid, "echo '-:gp sys_getpid' >> kprobe_events")
    ok(lucid, "echo '-:other/' >> kprobe_events")  # a group: all of it
    assert "other" not in modes(lucid, "events")
    ok(lucid, "echo '-:kprobes/r_sys_getpid_0' >> dynamic_events")
    fails(lucid, "echo '-:nosuch' >> kprobe_events", ENOENT)
    fails(lucid, "echo 'e:x syscalls.sys_enter_openat' >> kprobe_events")  # not a kprobe
    ok(lucid, "echo > kprobe_events")
    assert cat(lucid, "kprobe_events") == "" and "kprobes" not in modes(lucid, "events")


# --- errors: Linux 6.1's kprobe_syntax_errors.tc, vfs_read as sys_openat ------------------------

SYNTAX_ERRORS = [
    # the definition with '^' where Linux's caret goes, the errno line, the sentence
    ("p^100 sys_openat", EINVAL, "Maxactive is not for kprobe"),
    ("r^1a111 sys_openat", EINVAL, "Invalid maxactive number"),
    ("r^100000 sys_openat", EINVAL, "Maxactive is too big"),
    ("p ^non_exist_func", ENOENT, "Invalid probed address or symbol"),
    ("p ^hoge-fuga", EINVAL, "Invalid probed address or symbol"),
    ("p ^hoge+1000-1000", EINVAL, "Invalid probed address or symbol"),
    ("r ^sys_openat+10", EINVAL, "Retprobe address must be an function entry"),
    ("p:^/bar sys_openat", EINVAL, "Group name is not specified"),
    ("p:^12345678901234567890123456789012345678901234567890123456789012345/bar sys_openat",
     EINVAL, "Group name is too long"),
    ("p:^foo.1/bar sys_openat", EINVAL, "Group name must follow the same rules as C identifiers"),
    ("p:foo/^12345678901234567890123456789012345678901234567890123456789012345 sys_openat",
     EINVAL, "Event name is too long"),
    ("p:foo/^bar.1 sys_openat", EINVAL, "Event name must follow the same rules as C identifiers"),
    ("p sys_openat ^$retval", EINVAL, "$retval can be used only on retprobe"),
    ("p sys_openat ^$stack10000", EINVAL, "Invalid stack number"),
    ("p sys_openat ^$arg10000", EINVAL, "Invalid argument number"),
    ("p sys_openat ^$none_var", EINVAL, "Invalid $-valiable specified"),
    ("p sys_openat ^%none_reg", EINVAL, "Invalid register name"),
    ("p sys_openat ^@12345678abcde", EINVAL, "Invalid memory address"),
    ("p sys_openat ^@+10", EINVAL, "File offset is not available with kprobe"),
    ("p sys_openat arg1=\\^x", EINVAL, "Invalid immediate value"),
    ("p sys_openat arg1=\\\"abcd^", EINVAL, "String is not closed with '\"'"),
    ("p sys_openat ^+0@0)", EINVAL, "Dereference needs a brace"),
    ("p sys_openat ^+0ab1(@0)", EINVAL, "Invalid dereference offset"),
    ("p sys_openat +0(+0(@0^)", EINVAL, "Dereference is not closed"),
    ("p sys_openat +0(^$comm)", EINVAL, "$comm can not be dereferenced"),
    ("p sys_openat ^&1", EINVAL, "Invalid fetch argument"),
    ("p sys_openat +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))", EINVAL,
     "Dereference is too much nested"),
    ("p sys_openat +0(@11):u8[10^", EINVAL, "Array is not closed"),
    ("p sys_openat +0(@11):u8[10]^a", EINVAL, "Array has wrong suffix"),
    ("p sys_openat +0(@11):u8[^10a]", EINVAL, "Invalid array size"),
    ("p sys_openat +0(@11):u8[^256]", EINVAL, "Array number is too big"),
    ("p sys_openat @11:^unknown_type", EINVAL, "Unknown type is specified"),
    ("p sys_openat $stack0:^string", EINVAL, "String accepts only memory argument"),
    ("p sys_openat @11:^b10@a/16", EINVAL, "Invalid bitfield"),
    ("p sys_openat ^arg123456789012345678901234567890=@11", EINVAL,
     "Argument name is too long"),
    ("p sys_openat ^=@11", EINVAL, "Argument name is not specified"),
    ("p sys_openat ^var.1=@11", EINVAL,
     "Argument name must follow the same rules as C identifiers"),
    ("p sys_openat var1=@11 ^var1=@12", EINVAL, "This argument name is already used"),
    ("p sys_openat ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))", EINVAL,
     "Argument expression is too long"),
    ("p sys_openat arg1=^", EINVAL, "No argument expression"),
    ("p ^sys_openat+1", EILSEQ, "Probe point is not an instruction boundary"),
    ("p sys_openat^%ret", EINVAL, "Invalid probed address suffix"),
]


def blacklisted(k):
    """A function of /sys/kernel/debug/kprobes/blacklist ("0xSTART-0xEND\tNAME")."""
    return sh(k, "head -1 /sys/kernel/debug/kprobes/blacklist").split()[-1]


def test_syntax_errors(lucid):
    reset_tracing(lucid)
    # code that must never be probed: the mechanism refuses it
    cases = SYNTAX_ERRORS + [("p ^%s" % blacklisted(lucid), EINVAL, "Failed to register probe event")]
    for marked, err, sentence in cases:
        caret = marked.index("^")
        cmd = marked.replace("^", "")
        fails(lucid, "echo '%s' >> kprobe_events" % cmd, err)
        assert last_error(lucid) == ("trace_kprobe", sentence, cmd, caret), cmd
    assert cat(lucid, "kprobe_events") == ""
    assert "kprobes" not in modes(lucid, "events")


def test_existing_name_errors(lucid):
    """Linux's multiprobe cases: a name in use, with another type, other arguments, the same."""
    reset_tracing(lucid)
    ok(lucid, "echo 'p:kprobes/testevent sys_openat abcd=\\1' > kprobe_events")
    for marked, sentence in (
            ("^r:kprobes/testevent sys_getpid", "Probe type is different from existing probe"),
            ("p:kprobes/testevent sys_openat ^bcd=\\1",
             "Argument type or name is different from existing probe"),
            ("p:kprobes/testevent sys_openat ^abcd=\\1:u8",
             "Argument type or name is different from existing probe"),
            ("^p:kprobes/testevent sys_openat abcd=\\1",
             "There is already the exact same probe event")):
        cmd = marked.replace("^", "")
        fails(lucid, "echo '%s' >> kprobe_events" % cmd, EEXIST)
        assert last_error(lucid) == ("trace_kprobe", sentence, cmd, marked.index("^")), cmd
    # too many arguments: Linux's MAX_TRACE_ARGS is 128
    args = " ".join("a%d=%%di" % i for i in range(129))
    fails(lucid, "echo 'p:many sys_openat %s' >> kprobe_events" % args)
    assert last_error(lucid)[1] == "Too many arguments are specified"
    ok(lucid, "echo 'p:many sys_openat %s' >> kprobe_events" % args.rsplit(" ", 1)[0])
    assert cat(lucid, "events/kprobes/many/format").count("\tfield:u64 a") == 128


def test_append_probe_to_event(lucid):
    """Linux 6.1's append_trace_kprobe: a second definition with the same name and the same
    arguments' names and types is a second probe of the same event, listed on its own line,
    counted on its own kprobe_profile line; all record into the one event, each with its own
    place and its own fetch programs; removal by place takes one probe, by name the rest; the
    last probe takes the event with it."""
    reset_tracing(lucid)
    ok(lucid, "echo 'p:kprobes/both sys_openat x=$arg3:x32' > kprobe_events")
    ok(lucid, "echo 'p:kprobes/both sys_getpid x=%di:x32' >> kprobe_events")
    # a third, at a place already probed but with another argument's text: appended too
    ok(lucid, "echo 'p:kprobes/both sys_getpid x=\\7:x32' >> kprobe_events")
    assert cat(lucid, "kprobe_events") == (
        "p:kprobes/both sys_openat x=$arg3:x32\n"
        "p:kprobes/both sys_getpid x=%di:x32\n"
        "p:kprobes/both sys_getpid x=\\7:x32\n")
    assert cat(lucid, "dynamic_events") == cat(lucid, "kprobe_events")
    # the same place and arguments again: refused, and nothing added
    fails(lucid, "echo 'p:kprobes/both sys_getpid x=%di:x32' >> kprobe_events", EEXIST)
    assert last_error(lucid)[1] == "There is already the exact same probe event"
    assert cat(lucid, "kprobe_events").count("\n") == 3
    ok(lucid, "echo 1 > events/kprobes/both/enable")
    ok(lucid, "cat /etc/passwd > /dev/null")
    ok(lucid, "/bin/ps > /dev/null")  # busybox calls getpid
    ok(lucid, "echo 0 > events/kprobes/both/enable")
    got = [m.group(6) for m in lines(lucid, "both")]
    assert any(re.fullmatch(r"\(sys_openat\+0x0/0x[0-9a-f]+\) x=0x0", g) for g in got), got
    assert any(re.fullmatch(r"\(sys_getpid\+0x0/0x[0-9a-f]+\) x=0x7", g) for g in got), got
    gp = [g for g in got if g.startswith("(sys_getpid")]
    # each getpid hits both of its probes: as many \7 records as %di ones
    assert len(gp) >= 2 and len([g for g in gp if g.endswith("x=0x7")]) * 2 == len(gp), gp
    prof = cat(lucid, "kprobe_profile").splitlines()
    assert len(prof) == 3 and all(l.split()[0] == "both" for l in prof), prof
    assert int(prof[1].split()[1]) == int(prof[2].split()[1]) == len(gp) // 2, (prof, gp)
    # one probe removed by its place: the others stay, and still record into the event
    ok(lucid, "echo '-:kprobes/both sys_openat' >> kprobe_events")
    assert cat(lucid, "kprobe_events") == (
        "p:kprobes/both sys_getpid x=%di:x32\n"
        "p:kprobes/both sys_getpid x=\\7:x32\n")
    ok(lucid, "echo > trace; echo 1 > events/kprobes/both/enable")
    ok(lucid, "cat /etc/passwd > /dev/null; /bin/ps > /dev/null")
    ok(lucid, "echo 0 > events/kprobes/both/enable")
    got = [m.group(6) for m in lines(lucid, "both")]
    assert got and all(g.startswith("(sys_getpid+0x0/") for g in got), got
    # by name: the rest, and the event goes with the last
    ok(lucid, "echo '-:kprobes/both' >> kprobe_events")
    assert cat(lucid, "kprobe_events") == ""
    assert "kprobes" not in modes(lucid, "events")


def test_append_refused_while_kinds_or_arguments_differ(lucid):
    """Appending to an event whose probe type or arguments differ: Linux's error_log line and
    caret, EEXIST, and the event as it was. Appended to an enabled event, a probe is armed at
    once; one of several probes may go while the event is enabled, the last may not."""
    reset_tracing(lucid)
    ok(lucid, "echo 'p:kprobes/ev sys_openat a=%di:u32 b=%si:u64' > kprobe_events")
    for marked, sentence in (
            ("^r:kprobes/ev sys_getpid a=%di:u32 b=%si:u64",
             "Probe type is different from existing probe"),
            ("p:kprobes/ev sys_getpid a=%di:u32 ^b=%si:u32",
             "Argument type or name is different from existing probe"),
            ("p:kprobes/ev sys_getpid a=%di:u32 ^c=%si:u64",
             "Argument type or name is different from existing probe"),
            ("p:kprobes/ev sys_getpid a=%di:u32 b=%si:u64 ^c=%dx",
             "Argument type or name is different from existing probe"),
            # one missing: the caret after the last word and a space, as Linux puts it
            ("p:kprobes/ev sys_getpid a=%di:u32 ^",
             "Argument type or name is different from existing probe")):
        cmd = marked.replace("^", "").rstrip()
        fails(lucid, "echo '%s' >> kprobe_events" % cmd, EEXIST)
        assert last_error(lucid) == ("trace_kprobe", sentence, cmd, marked.index("^")), cmd
    assert cat(lucid, "kprobe_events") == "p:kprobes/ev sys_openat a=%di:u32 b=%si:u64\n"
    ok(lucid, "echo 1 > events/kprobes/ev/enable")
    ok(lucid, "echo 'p:kprobes/ev sys_getpid a=%di:u32 b=%si:u64' >> kprobe_events")
    ok(lucid, "/bin/ps > /dev/null")
    got = [m.group(6) for m in lines(lucid, "ev")]
    assert any(g.startswith("(sys_getpid+0x0/") for g in got), got
    assert sh(lucid, "echo > kprobe_events") == "-bash: kprobe_events: Device or resource busy\n"
    ok(lucid, "echo '-:kprobes/ev sys_openat' >> kprobe_events")
    fails(lucid, "echo '-:kprobes/ev' >> kprobe_events", EBUSY)
    assert cat(lucid, "kprobe_events") == "p:kprobes/ev sys_getpid a=%di:u32 b=%si:u64\n"
    ok(lucid, "echo 0 > events/kprobes/ev/enable")
    ok(lucid, "echo '-:kprobes/ev' >> kprobe_events")
    assert cat(lucid, "kprobe_events") == ""


def test_kretprobe_instances_of_tasks_that_die_come_back(lucid):
    """A kretprobe on do_exit, which never returns: each exiting process takes an instance and
    dies inside the call. Its instance goes back to the free list when the task is freed (as
    Linux's kprobe_flush_task), so with maxactive 4 a dozen exits miss none; an instance lost
    with its task would leave the fifth and later calls without one (kprobe_profile's misses)."""
    reset_tracing(lucid)
    ok(lucid, "echo 'r4:ex do_exit' > kprobe_events")
    ok(lucid, "echo 1 > events/kprobes/ex/enable")
    ok(lucid, "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do /bin/true; done")
    assert profile(lucid) == {"ex": (0, 0)}
    # and the kretprobe still works for calls that return, after them
    ok(lucid, "echo 0 > events/kprobes/ex/enable")
    ok(lucid, "echo 'r4:gr sys_getpid' >> kprobe_events; echo 1 > events/kprobes/gr/enable")
    ok(lucid, "/bin/ps > /dev/null")
    assert profile(lucid)["gr"][0] > 0 and profile(lucid)["gr"][1] == 0
    ok(lucid, "echo 0 > events/kprobes/gr/enable; echo > kprobe_events")


def test_probe_on_module_not_yet_loaded(lucid):
    """p MOD:sym and r MOD:sym before MOD loads: accepted with Linux 6.1's warning, the events
    made and listed; insmod registers the probes (armed: the events are enabled) before the
    module's init runs, so foo_init's own call is seen; rmmod leaves them registered and gone
    (kept, as Linux); the next insmod arms them again. A symbol the loaded module lacks is
    refused, as any unknown symbol."""
    reset_tracing(lucid)
    sh(lucid, "rmmod foo")
    for d in ("p:fi foo:foo_init", "r:fx foo:foo_exit"):
        out = sh(lucid, "echo '%s' >> kprobe_events" % d)
        assert WAIT_FOR_MODULE in out and lucid.status() == 0, out
    assert cat(lucid, "kprobe_events") == "p:kprobes/fi foo:foo_init\nr:kprobes/fx foo:foo_exit\n"
    assert sorted(modes(lucid, "events/kprobes")) == ["enable", "fi", "filter", "fx"]
    ok(lucid, "echo 1 > events/kprobes/enable")
    assert sh(lucid, "cat /sys/kernel/debug/kprobes/list") == ""
    for n in (1, 2):
        ok(lucid, "insmod " + MODULE % "foo")
        listed = sh(lucid, "cat /sys/kernel/debug/kprobes/list").splitlines()
        assert [l.split()[1:] for l in listed] == [
            ["k", "foo_init+0x0", "foo", "[FTRACE]"], ["r", "foo_exit+0x0", "foo", "[FTRACE]"]]
        # a symbol foo lacks, now that foo is loaded: refused as Linux refuses it
        fails(lucid, "echo 'p:nosym foo:nosuchfunc' >> kprobe_events", ENOENT)
        assert last_error(lucid)[1] == "Invalid probed address or symbol"
        ok(lucid, "rmmod foo")
        listed = sh(lucid, "cat /sys/kernel/debug/kprobes/list").splitlines()
        assert [l.split()[-1] for l in listed] == ["[GONE][FTRACE]"] * 2, listed
        got = [(m.group(5), m.group(6).split(")")[0]) for m in lines(lucid)]
        assert sum(1 for e, b in got if e == "fi" and b.startswith("(foo_init+0x0/") and
                   b.endswith(" [foo]")) == n, got
        assert sum(1 for e, b in got if e == "fx" and b.endswith("<- foo_exit")) == n, got
    assert profile(lucid) == {"fi": (2, 0), "fx": (2, 0)}
    ok(lucid, "echo 0 > events/kprobes/enable; echo > kprobe_events")
    assert sh(lucid, "cat /sys/kernel/debug/kprobes/list") == ""


def test_two_kretprobes_on_one_function(lucid):
    """Two kretprobe events on sys_getpid: the second takes the return address the first
    already swapped, so a return finds two instances of its slot on the task's list; each
    event sees every call with the real return value (the pid), the newest first."""
    reset_tracing(lucid)
    ok(lucid, "echo 'r:ra sys_getpid ret=$retval' > kprobe_events")
    ok(lucid, "echo 'r:rb sys_getpid ret=$retval' >> kprobe_events")
    ok(lucid, "echo 1 > events/kprobes/enable")
    ok(lucid, "/bin/ps > /dev/null; /bin/ps > /dev/null")
    ok(lucid, "echo 0 > events/kprobes/enable")
    got = [(m.group(5), int(m.group(2)), m.group(6)) for m in lines(lucid)]
    assert [e for e, _, _ in got] == ["rb", "ra"] * (len(got) // 2) and len(got) >= 4, got
    for event, pid, body in got:
        assert body.endswith("<- sys_getpid) ret=%#x" % pid), (event, body)
    assert profile(lucid) == {"ra": (len(got) // 2, 0), "rb": (len(got) // 2, 0)}
    ok(lucid, "echo > kprobe_events")

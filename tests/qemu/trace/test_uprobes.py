"""uprobes: uprobe_events, uprobe_profile and the mechanism under them (kernel/events/uprobes.c).

The targets: uprobetest (../shared/bench/uprobetest.c, Linux's reference captures were made
with it: target_c starts with a lea, stepped out of line; target_push with push %rbp and
target_nop with a nop, both emulated), user/uprobed.c (a rip-relative load, a relative call, a
load that faults), and Debian's bash-static, whose readline is found by its code (the dynamic
bash exports the symbol; the static one is stripped). One kernel for the file, with a host
folder shared at /mnt/host for the probe on a 9p program.
"""
import os
import re
import shutil
import subprocess
import tempfile

from lucid import BUILD
from test_syscalls import on_linux
from tracefs import last_error

SHARE = tempfile.mkdtemp(prefix="lucid-uprobes-")
BOOT = {"share": SHARE}
T = "/sys/kernel/tracing"
REF = os.path.join(os.path.dirname(BUILD), "..", "shared", "reference", "linux-6.1-probes")
UPROBETEST = os.path.join(BUILD, "user", "uprobetest")
UPROBED = os.path.join(BUILD, "user", "uprobed")
SDTPROBE = os.path.join(BUILD, "user", "sdtprobe")
CALLS = 5500  # uprobetest calls each target 500 times to warm up, then 5000


def ref(name):
    with open(os.path.join(REF, name)) as f:
        return f.read()


def file_offset(path, symbol):
    """Where symbol's code is in the file: its address, less its segment's address, plus the
    segment's file offset (what Linux's uprobetracer.rst has the reader work out)."""
    nm = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    addr = int(next(l.split()[0] for l in nm.splitlines() if l.split()[-1] == symbol), 16)
    return vaddr_to_offset(path, addr)


def vaddr_to_offset(path, addr):
    phdrs = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True,
                           check=True).stdout
    for l in phdrs.splitlines():
        w = l.split()
        if w and w[0] == "LOAD":
            off, vaddr, filesz = int(w[1], 16), int(w[2], 16), int(w[4], 16)
            if vaddr <= addr < vaddr + filesz:
                return addr - vaddr + off
    raise AssertionError("%#x is in no segment of %s" % (addr, path))


def bash_static_readline():
    """readline's offset in Debian's stripped bash-static: the one place its code is, as the
    dynamic bash (built from the same source, readline exported) has it, with the addresses
    left out: cmpl $-1,rl_pending_input(%rip); push %rbx; je; call rl_set_prompt; call
    rl_initialize; mov rl_prep_term_function(%rip),%rax; test; je; mov; call *%rax; call."""
    with open("/bin/bash-static", "rb") as f:
        data = f.read()
    pat = re.compile(rb"\x83\x3d....\xff\x53\x0f\x84....\xe8....\xe8....\x48\x8b\x05....\x48\x85"
                     rb"\xc0\x74\x08\x8b\x3d....\xff\xd0\xe8", re.S)
    found = [m.start() for m in pat.finditer(data)]
    assert len(found) == 1, found
    return found[0]


def tracing(lucid, line, timeout=60):
    return lucid.run("cd %s && %s" % (T, line), timeout)


def clean(lucid):
    tracing(lucid, "echo 0 > events/enable; echo > uprobe_events; echo > trace")
    assert tracing(lucid, "cat uprobe_events") == ""


def trace_lines(lucid, event):
    return [l for l in tracing(lucid, "cat trace").splitlines() if " %s: " % event in l]


def test_listing_profile_and_trace_as_linux(lucid):
    clean(lucid)
    for line in ("echo 'p:up_c /bin/uprobetest:0x13c0' > uprobe_events",
                 "echo 'p:up_push /bin/uprobetest:0x13a0' >> uprobe_events",
                 "echo 'p:up_nop /bin/uprobetest:0x13b0' >> uprobe_events",
                 "echo 1 > events/uprobes/enable"):
        assert tracing(lucid, line + "; echo $?") == "0\n", line
    out = tracing(lucid, "uprobetest", timeout=300)
    assert out.count("errs=0") == 3, out  # every call returned what it must
    assert tracing(lucid, "cat uprobe_events") == (
        "p:uprobes/up_c /bin/uprobetest:0x00000000000013c0\n"
        "p:uprobes/up_push /bin/uprobetest:0x00000000000013a0\n"
        "p:uprobes/up_nop /bin/uprobetest:0x00000000000013b0\n")
    profile = ref("uprobe_profile_with_hits.txt").splitlines()
    assert tracing(lucid, "cat uprobe_profile") == "\n".join(profile[2:5]) + "\n"
    for name, addr in (("up_c", "0x4013c0"), ("up_push", "0x4013a0"), ("up_nop", "0x4013b0")):
        lines = trace_lines(lucid, name)
        assert len(lines) == CALLS, (name, len(lines))
        assert all(l.endswith(" %s: (%s)" % (name, addr)) for l in lines), lines[:3]
    assert re.match(r"^ +uprobetest-\d+ +\[\d{3}\] \S{4} +\d+\.\d{6}: up_c: \(0x4013c0\)$",
                    trace_lines(lucid, "up_c")[0])
    clean(lucid)


def test_fetch_args_format_and_uretprobe(lucid):
    clean(lucid)
    tracing(lucid, "echo 'p:upa_c /bin/uprobetest:0x13c0 x=%di:s32' > uprobe_events")
    tracing(lucid, "echo 'r:upr_c /bin/uprobetest:0x13c0 ret=$retval:s32' >> uprobe_events")
    assert tracing(lucid, "cat uprobe_events") == "".join(ref("uprobe_events.txt").splitlines(
        True)[1:])
    want = ref("uprobes_upa_c_format.txt")
    got = tracing(lucid, "cat events/uprobes/upa_c/format")
    assert re.sub(r"ID: \d+", "ID:", got) == re.sub(r"ID: \d+", "ID:", want)
    tracing(lucid, "echo 1 > events/uprobes/upa_c/enable; echo 1 > events/uprobes/upr_c/enable")
    assert tracing(lucid, "uprobetest", timeout=300).count("errs=0") == 3
    entries, returns = trace_lines(lucid, "upa_c"), trace_lines(lucid, "upr_c")
    assert len(entries) == len(returns) == CALLS
    assert all(l.endswith("upa_c: (0x4013c0) x=5") for l in entries), entries[:3]
    # The return address in main: where Linux's capture shows it, for the same program.
    ret = re.search(r"upr_c: \((0x[0-9a-f]+) <- 0x4013c0\) ret=16$", returns[0])
    assert ret and all(l.endswith(ret.group(0)) for l in returns), returns[:3]
    assert ret.group(1) in ref("trace_uretprobe.txt")
    assert tracing(lucid, "cat uprobe_profile") == (
        "  /bin/uprobetest upa_c%s%15d\n  /bin/uprobetest upr_c%s%15d\n"
        % (" " * 40, CALLS, " " * 40, CALLS))
    assert "Device or resource busy" in tracing(lucid, "echo > uprobe_events")  # enabled
    assert "Device or resource busy" in tracing(lucid, "echo -:upa_c >> uprobe_events")
    clean(lucid)


def test_every_fetch_arg_kind(lucid):
    """%REG, $stackN, $stack, $comm, @ADDR, @+OFFSET, a dereference and a string, in one probe
    at target_c's entry: the return address is on top of the stack, and the file's first bytes
    (the ELF magic, "\\x7fELF") are mapped at 0x400000."""
    clean(lucid)
    tracing(lucid, "echo 'p:args /bin/uprobetest:0x13c0 di=%di s0=$stack0:x64 sp=$stack:x64 "
            "comm=$comm magic=@0x400000:x32 fmagic=@+0:x32 deref=+0($stack):x64 "
            "elf=@0x400001:string' > uprobe_events; echo 1 > events/uprobes/args/enable")
    tracing(lucid, "uprobetest > /dev/null", timeout=300)
    line = trace_lines(lucid, "args")[0]
    m = re.search(r"args: \(0x4013c0\) di=0x5 s0=(0x[0-9a-f]+) sp=(0x[0-9a-f]+) "
                  r"comm=\"uprobetest\" magic=0x464c457f fmagic=0x464c457f deref=(0x[0-9a-f]+) "
                  r"elf=\"ELF", line)
    assert m, line
    assert m.group(1) == m.group(3)  # $stack0 is the word at $stack
    assert 0x401000 <= int(m.group(1), 16) < 0x410000  # a return address into the program
    assert int(m.group(2), 16) > 0x7f0000000000  # the stack
    clean(lucid)


def test_retval_and_bad_definitions(lucid):
    clean(lucid)
    out = tracing(lucid, "echo 'p:bad /bin/uprobetest:0x13c0 r=$retval' > uprobe_events; "
                  "echo $?; cat error_log | tail -3")
    assert out.startswith("-bash: echo: write error: Invalid argument\n1\n"), out
    assert "trace_uprobe: error: $retval can be used only on retprobe" in out, out
    tracing(lucid, "echo > error_log")
    out = tracing(lucid, "echo 'p:bad3 /bin/nosuchfile:0x10' >> uprobe_events; cat error_log")
    assert "write error: No such file or directory" in out
    want = ref("error_log_more.txt").splitlines()[6:9]
    got = tracing(lucid, "cat error_log").splitlines()
    assert [re.sub(r"^\[ *\d+\.\d+\]", "[]", l) for l in got] == \
        [re.sub(r"^\[ *\d+\.\d+\]", "[]", l) for l in want]
    for line, err in (("p:x /bin:0x10", "Invalid argument"),  # not a regular file
                      ("p:x /bin/uprobetest:0x10%ret", "Invalid argument"),
                      ("p:x /bin/uprobetest:0xzz", "Invalid argument"),
                      ("p:9x /bin/uprobetest:0x13c0", "Invalid argument"),
                      ("x:x /bin/uprobetest:0x13c0", "Invalid argument"),
                      ("-:nosuch", "No such file or directory")):
        assert err in tracing(lucid, "echo '%s' >> uprobe_events" % line), line
    assert tracing(lucid, "cat uprobe_events") == ""
    # An offset past the file's end is refused when the probe goes in, as Linux's.
    tracing(lucid, "echo 'p:far /bin/uprobetest:0x10000000' > uprobe_events")
    assert "Invalid argument" in tracing(lucid, "echo 1 > events/uprobes/far/enable")
    # A definition without a name gets Linux's: p_FILE_0xOFFSET, group uprobes.
    tracing(lucid, "echo > uprobe_events; echo 'p /bin/uprobetest:0x13c0' > uprobe_events")
    assert tracing(lucid, "cat uprobe_events") == \
        "p:uprobes/p_uprobetest_0x13c0 /bin/uprobetest:0x00000000000013c0\n"
    tracing(lucid, "echo 'r:mygrp/myret /bin/uprobetest:0x13a0' >> uprobe_events")
    assert "r:mygrp/myret /bin/uprobetest:0x00000000000013a0" in tracing(lucid, "cat dynamic_events")
    tracing(lucid, "echo '-:mygrp/myret' >> uprobe_events")
    assert "myret" not in tracing(lucid, "cat uprobe_events")
    clean(lucid)


def test_file_unchanged_and_other_processes_do_not_hit(lucid):
    """The int3 is in the probed processes' own copies of the page: the file reads the same,
    and a copy of the program made while the probe is armed (another file) never hits it."""
    clean(lucid)
    before = lucid.run("md5sum /bin/uprobetest")
    tracing(lucid, "echo 'p:up_c /bin/uprobetest:0x13c0' > uprobe_events; "
            "echo 1 > events/uprobes/up_c/enable")
    lucid.run("uprobed wait 1 /tmp/never-made & sleep 0.2")  # maps other files meanwhile
    assert tracing(lucid, "uprobetest | grep -c errs=0", timeout=300) == "3\n"
    assert lucid.run("md5sum /bin/uprobetest") == before
    lucid.run("cp /bin/uprobetest /tmp/uprobetest-copy")
    assert lucid.run("cmp /bin/uprobetest /tmp/uprobetest-copy; echo $?") == "0\n"
    tracing(lucid, "echo > trace")
    assert lucid.run("/tmp/uprobetest-copy | grep -c errs=0", timeout=300) == "3\n"
    assert trace_lines(lucid, "up_c") == []
    tracing(lucid, "echo 0 > events/uprobes/up_c/enable")
    assert lucid.run("md5sum /bin/uprobetest") == before
    lucid.run("kill %1; wait; rm /tmp/uprobetest-copy")
    clean(lucid)


def test_process_mapping_it_before_and_forked_child(lucid):
    """Armed in a process that was already running, in a child forked after, and in a program
    started after: every hit of each, by its own pid."""
    clean(lucid)
    riprel = file_offset(UPROBED, "uprobed_riprel")
    call = file_offset(UPROBED, "uprobed_call")
    lucid.run("rm -f /tmp/go; uprobed wait 7 /tmp/go > /tmp/waited &")
    pid = lucid.run("echo $!").strip()
    # Running, its program mapped, before the probe exists.
    assert lucid.run("for i in $(seq 200); do grep -q /bin/uprobed /proc/%s/maps && break; "
                     "sleep 0.05; done; grep -c /bin/uprobed /proc/%s/maps" % (pid, pid)) != "0\n"
    tracing(lucid, "echo 'p:riprel /bin/uprobed:%#x' > uprobe_events; "
            "echo 'p:call /bin/uprobed:%#x x=%%di:s32' >> uprobe_events; "
            "echo 1 > events/uprobes/enable" % (riprel, call))
    lucid.run("touch /tmp/go; wait")
    # The values are what the program computes unprobed: 7 * 1000 + 0..6, and 2 * (0..6).
    out = lucid.run("cat /tmp/waited")
    assert out == "riprel=7021 call=42\n", out
    hits = trace_lines(lucid, "riprel")
    assert len(hits) == 7 and all(("-%s " % pid) in l for l in hits), hits
    calls = [l.split("x=")[1] for l in trace_lines(lucid, "call")]
    assert calls == [str(i) for i in range(7)], calls
    tracing(lucid, "echo > trace")
    out = lucid.run("uprobed fork 3")
    m = re.search(r"parent=(\d+) child=(\d+)", out)
    assert out.startswith("riprel=3003 call=6\nriprel=3003 call=6\n") and m, out
    for pid in m.groups():
        assert len([l for l in trace_lines(lucid, "riprel") if "-%s " % pid in l]) == 3, pid
    clean(lucid)


def test_uprobes_area_in_maps(lucid):
    clean(lucid)
    tracing(lucid, "echo 'p:riprel /bin/uprobed:%#x' > uprobe_events; echo 1 > "
            "events/uprobes/enable" % file_offset(UPROBED, "uprobed_riprel"))
    out = lucid.run("uprobed maps")
    area = [l for l in out.splitlines() if l.endswith("[uprobes]")]
    assert len(area) == 1 and re.match(r"^[0-9a-f]+-[0-9a-f]+ r-xp 00000000 00:00 0 +\[uprobes\]$",
                                       area[0]), out
    start, end = (int(x, 16) for x in area[0].split()[0].split("-"))
    assert end - start == 4096
    tracing(lucid, "echo 0 > events/uprobes/enable")
    assert "[uprobes]" not in lucid.run("uprobed maps")  # nothing stepped: no area
    clean(lucid)


def test_signal_in_a_stepped_instruction(lucid):
    """uprobed_load(NULL) faults in its slot: the SIGSEGV comes at the instruction's own address,
    as without the probe (and as on Linux), and the program goes on."""
    clean(lucid)
    want = on_linux("uprobed", "fault")
    assert want == "addr=0 rip=uprobed_load+0 value=0\n", want
    assert lucid.run("uprobed fault") == want
    tracing(lucid, "echo 'p:load /bin/uprobed:%#x' > uprobe_events; echo 1 > "
            "events/uprobes/enable" % file_offset(UPROBED, "uprobed_load"))
    assert lucid.run("uprobed fault") == want
    assert len(trace_lines(lucid, "load")) == 1
    assert lucid.run("uprobed call 2") == "riprel=2001 call=2\n"  # and the next runs are fine
    clean(lucid)


def test_program_on_9p(lucid):
    """A program in the shared folder: its bytes were copied in, not mapped from a page cache,
    and the probe finds it all the same."""
    clean(lucid)
    shutil.copy(UPROBETEST, os.path.join(SHARE, "uprobetest"))
    tracing(lucid, "echo 'r:up9 /mnt/host/uprobetest:0x13c0 ret=$retval:s32' > uprobe_events; "
            "echo 1 > events/uprobes/up9/enable")
    assert lucid.run("/mnt/host/uprobetest | grep -c errs=0", timeout=300) == "3\n"
    lines = trace_lines(lucid, "up9")
    assert len(lines) == CALLS and lines[0].endswith("<- 0x4013c0) ret=16"), lines[:2]
    tracing(lucid, "echo 0 > events/uprobes/up9/enable")
    with open(UPROBETEST, "rb") as a, open(os.path.join(SHARE, "uprobetest"), "rb") as b:
        assert a.read() == b.read()  # the host's file is untouched
    clean(lucid)


def test_bash_readline_shows_what_was_typed(lucid):
    """The issue's own: a uretprobe on the login bash's readline, its return value (the line
    typed) as a string."""
    clean(lucid)
    off = bash_static_readline()
    tracing(lucid, "echo 'r:bash_readline /bin/bash:%#x line=+0($retval):ustring' > "
            "uprobe_events; echo 1 > events/uprobes/bash_readline/enable" % off)
    lucid.run("echo hello from the prompt")
    lucid.run("true uprobes see this line")
    lines = trace_lines(lucid, "bash_readline")
    assert any(l.endswith('<- %#x) line="echo hello from the prompt"' % (0x400000 + off))
               for l in lines), lines
    assert any(l.endswith('line="true uprobes see this line"') for l in lines), lines
    clean(lucid)


def expected_sums(n):
    """What uprobed prints for n calls: uprobed_value (1000) + i, and 2 * i, summed."""
    return "riprel=%d call=%d\n" % (1000 * n + n * (n - 1) // 2, n * (n - 1))


def riprel_hits(lucid):
    """uprobe_profile's count for the riprel probe."""
    m = re.search(r"^  /bin/uprobed riprel +(\d+)$", tracing(lucid, "cat uprobe_profile"), re.M)
    assert m
    return int(m.group(1))


def test_signals_during_steps(lucid):
    """Signals while a probe's copy is stepped: a handled SIGALRM every 100 us, and SIGSTOP and
    SIGCONT from outside. The results stay right, the program ends, and nothing is left half
    done: a later run hits every time. A signal that comes while the copy is on its way to be
    stepped waits until the step is done, as Linux's uprobe_deny_signal holds it: the probe
    fires exactly once a call (giving the step up instead, as Lucid once did, fired it again
    after the handler: some hundred more hits over these 20000 calls)."""
    clean(lucid)
    tracing(lucid, "echo 'p:riprel /bin/uprobed:%#x' > uprobe_events; echo 1 > "
            "events/uprobes/enable" % file_offset(UPROBED, "uprobed_riprel"))
    assert lucid.run("uprobed alarm 20000", timeout=300) == expected_sums(20000)
    assert riprel_hits(lucid) == 20000
    lucid.run("uprobed call 30000 > /tmp/stopped &")
    lucid.run("for i in $(seq 10); do kill -STOP %1; sleep 0.05; kill -CONT %1; sleep 0.05; "
              "done; wait", timeout=300)
    assert lucid.run("cat /tmp/stopped") == expected_sums(30000)
    assert riprel_hits(lucid) == 20000 + 30000
    tracing(lucid, "echo > trace")
    assert lucid.run("uprobed call 5") == expected_sums(5)
    assert len(trace_lines(lucid, "riprel")) == 5
    clean(lucid)


def uprobe_signal_off(lucid):
    """Takes /sys/kernel/debug/uprobe_signal's consumer off: its hit count."""
    out = lucid.run("exec 3<>/sys/kernel/debug/uprobe_signal; echo off >&3; cat <&3; "
                    "exec 3>&-")
    m = re.match(r"^uprobe_signal: (\d+) hits$", out.strip())
    assert m, out
    return int(m.group(1))


def test_signal_sent_by_the_probe_waits_for_the_step(lucid):
    """A consumer whose handler sends the task a signal (kernel/debug/test_uprobes.c, as a BPF
    program's bpf_send_signal): on every hit the signal is pending as the task goes to step the
    copy. A handled one (SIGALRM, uprobed counts them) waits until the step is done: each call
    hits once and computes what it must (giving the step up would hit again, signal again, and
    never get past the instruction). A fatal one (SIGKILL) gives the step up: the program dies
    at its first hit, and the next run is whole."""
    clean(lucid)
    off = file_offset(UPROBED, "uprobed_riprel")
    sig = "/sys/kernel/debug/uprobe_signal"
    assert lucid.run("echo 'on /bin/uprobed %#x 14' > %s; echo $?" % (off, sig)) == "0\n"
    assert lucid.run("uprobed alarm 200", timeout=120) == expected_sums(200)
    assert uprobe_signal_off(lucid) == 200
    assert lucid.run("echo 'on /bin/uprobed %#x 9' > %s; echo $?" % (off, sig)) == "0\n"
    assert lucid.run("uprobed call 5; echo status=$?") == "Killed\nstatus=137\n"
    assert uprobe_signal_off(lucid) == 1
    assert lucid.run("uprobed call 5") == expected_sums(5)
    assert "Oops" not in lucid.run("dmesg")


def test_arming_while_processes_run_and_die(lucid):
    """Probes armed and disarmed over and over while programs hit them on the other CPUs, and
    killed in the middle of it: every run computes what it must, none dies of a stray int3,
    and afterwards each hit is counted once."""
    clean(lucid)
    tracing(lucid, "echo 'p:riprel /bin/uprobed:%#x' > uprobe_events; "
            "echo 'r:ret /bin/uprobed:%#x v=$retval:s32' >> uprobe_events; "
            "echo 'p:call /bin/uprobed:%#x' >> uprobe_events"
            % (file_offset(UPROBED, "uprobed_riprel"), file_offset(UPROBED, "uprobed_call"),
               file_offset(UPROBED, "uprobed_call")))
    lucid.run("rm -f /tmp/run.*; for j in 1 2 3; do (for i in $(seq 4); do "
              "uprobed fork 3000 >> /tmp/run.$j || echo FAILED $? >> /tmp/run.$j; done) & done")
    lucid.run("for i in $(seq 30); do echo 1 > events/uprobes/enable; "
              "echo 0 > events/uprobes/enable; done", timeout=300)
    for _ in range(5):  # killed while hitting, its probes armed
        lucid.run("echo 1 > events/uprobes/enable; uprobed call 100000 > /dev/null & "
                  "sleep 0.2; kill -9 $!; wait $!; echo 0 > events/uprobes/enable", timeout=120)
    lucid.run("wait", timeout=600)
    for j in (1, 2, 3):
        out = lucid.run("cat /tmp/run.%d" % j)
        assert out.count(expected_sums(3000)) == 8 and "FAILED" not in out, \
            out + lucid.run("dmesg | tail -5")
    tracing(lucid, "echo > trace; echo 1 > events/uprobes/enable")
    assert lucid.run("uprobed call 50") == expected_sums(50)
    assert len(trace_lines(lucid, "riprel")) == 50
    assert len(trace_lines(lucid, "call")) == 50
    rets = trace_lines(lucid, "ret")
    assert len(rets) == 50 and rets[-1].endswith("v=98"), rets[-3:]
    assert not re.search(r"WARNING|BUG|Oops", lucid.run("dmesg | tail -50"))
    clean(lucid)


def test_uprobe_event_in_an_instance_made_before_it(lucid):
    """An instance that exists when a uprobe event is made gets it (its files, its records,
    EBUSY while it records there), and loses it when the event is removed."""
    clean(lucid)
    inst = "instances/upfirst"
    tracing(lucid, "mkdir %s" % inst)
    call = file_offset(UPROBED, "uprobed_call")
    assert tracing(lucid, "echo 'p:ucall /bin/uprobed:%#x x=%%di:s32' > uprobe_events; "
                   "echo 'r:uret /bin/uprobed:%#x ret=$retval:s32' >> uprobe_events; echo $?"
                   % (call, call)) == "0\n"
    assert tracing(lucid, "ls %s/events/uprobes/ucall" % inst).split() == [
        "enable", "filter", "format", "hist", "id", "trigger"]
    assert tracing(lucid, "echo 'uprobes:*' > %s/set_event; echo $?" % inst) == "0\n"
    assert lucid.run("uprobed call 4") == "riprel=4006 call=12\n"
    text = tracing(lucid, "cat %s/trace" % inst)
    calls = [l.split("x=")[1] for l in text.splitlines() if " ucall: " in l]
    rets = [l.split("ret=")[1] for l in text.splitlines() if " uret: " in l]
    assert calls == ["0", "1", "2", "3"] and rets == ["0", "2", "4", "6"], text[-2000:]
    assert trace_lines(lucid, "ucall") == trace_lines(lucid, "uret") == []  # not the top's
    assert "Device or resource busy" in tracing(lucid, "echo -:ucall >> uprobe_events")
    assert "Device or resource busy" in tracing(lucid, "echo > uprobe_events")
    assert len(tracing(lucid, "cat uprobe_events").splitlines()) == 2
    tracing(lucid, "echo > %s/set_event" % inst)
    assert tracing(lucid, "echo -:ucall >> uprobe_events; echo $?") == "0\n"
    assert tracing(lucid, "ls %s/events/uprobes" % inst).split() == ["enable", "filter", "uret"]
    clean(lucid)
    assert "uprobes" not in tracing(lucid, "ls %s/events" % inst).split()
    assert tracing(lucid, "rmdir %s; echo $?" % inst) == "0\n"


def test_append_probe_to_event(lucid):
    """Linux 6.1's append_trace_uprobe: a second definition with the same name and the same
    arguments is a second probe of the event (its own line; both record into the event, each
    at its own address); other kinds or arguments, or the same place again, are refused with
    Linux's error_log line and EEXIST; removal by place takes one probe."""
    clean(lucid)
    riprel = file_offset(UPROBED, "uprobed_riprel")
    call = file_offset(UPROBED, "uprobed_call")
    tracing(lucid, "echo 'p:both /bin/uprobed:%#x x=%%di:s32' > uprobe_events; "
            "echo 'p:both /bin/uprobed:%#x x=%%di:s32' >> uprobe_events" % (riprel, call))
    assert tracing(lucid, "cat uprobe_events") == (
        "p:uprobes/both /bin/uprobed:0x%016x x=%%di:s32\n"
        "p:uprobes/both /bin/uprobed:0x%016x x=%%di:s32\n" % (riprel, call))
    for marked, sentence in (
            ("^r:both /bin/uprobed:%#x x=%%di:s32", "Probe type is different from existing probe"),
            ("p:both /bin/uprobed:%#x ^y=%%di:s32",
             "Argument type or name is different from existing probe"),
            ("p:both /bin/uprobed:%#x ^x=%%di:u32",
             "Argument type or name is different from existing probe"),
            ("^p:both /bin/uprobed:%#x x=%%di:s32", "There is already the exact same probe event")):
        marked %= call
        cmd = marked.replace("^", "")
        assert tracing(lucid, "echo '%s' >> uprobe_events; echo $?" % cmd) == \
            "-bash: echo: write error: File exists\n1\n", cmd
        assert last_error(lucid) == ("trace_uprobe", sentence, cmd, marked.index("^")), cmd
    assert len(tracing(lucid, "cat uprobe_events").splitlines()) == 2
    tracing(lucid, "echo 1 > events/uprobes/both/enable")
    assert lucid.run("uprobed call 3") == "riprel=3003 call=6\n"
    tracing(lucid, "echo 0 > events/uprobes/both/enable")
    got = [l.split(": both: ")[1] for l in trace_lines(lucid, "both")]
    ra, ca = "0x%x" % (0x400000 + riprel), "0x%x" % (0x400000 + call)
    assert got == ["(%s) x=%d" % (a, i) for i in range(3) for a in (ra, ca)], got
    tracing(lucid, "echo '-:both /bin/uprobed:0x%016x' >> uprobe_events" % riprel)
    assert tracing(lucid, "cat uprobe_events") == \
        "p:uprobes/both /bin/uprobed:0x%016x x=%%di:s32\n" % call
    tracing(lucid, "echo 1 > events/uprobes/both/enable")
    assert lucid.run("uprobed call 2") == "riprel=2001 call=2\n"
    tracing(lucid, "echo 0 > events/uprobes/both/enable")
    got = [l.split(": both: ")[1] for l in trace_lines(lucid, "both")]
    assert got == ["(%s) x=%d" % (ca, i) for i in range(2)], got
    clean(lucid)
    assert "uprobes" not in tracing(lucid, "ls events").split()


def test_sdt_semaphore_reference_counter(lucid):
    """PATH:OFFSET(REF_CTR_OFFSET): while the event is enabled, the SDT semaphore at
    REF_CTR_OFFSET reads one higher in every process that maps the program (one running before,
    one started after), and is back to 0 when disabled (Linux's update_ref_ctr); the program's
    probe site runs only then."""
    clean(lucid)
    site = file_offset(SDTPROBE, "sdt_site")
    sem = file_offset(SDTPROBE, "sdt_sem")
    tracing(lucid, "echo 'p:sdt /bin/sdtprobe:%#x(%#x) x=%%di:u32' > uprobe_events" % (site, sem))
    assert tracing(lucid, "cat uprobe_events") == \
        "p:uprobes/sdt /bin/sdtprobe:0x%016x(0x%x) x=%%di:u32\n" % (site, sem)
    lucid.run("rm -f /tmp/s1 /tmp/s2; sdtprobe /tmp/s1 /tmp/s2 > /tmp/sdtout &")

    def out_when(text):
        return lucid.run("for i in $(seq 400); do grep -q '%s' /tmp/sdtout && break; sleep 0.05;"
                         " done; cat /tmp/sdtout" % text)
    assert out_when("^sem=") == "sem=0\n"  # defined, not enabled: no breakpoint, no count
    tracing(lucid, "echo 1 > events/uprobes/sdt/enable")
    lucid.run("touch /tmp/s1")
    assert out_when("s1 sem") == "sem=0\n/tmp/s1 sem=1\n"
    assert lucid.run("sdtprobe") == "sem=1\n"  # mapped after the probe went in
    tracing(lucid, "echo 0 > events/uprobes/sdt/enable")
    lucid.run("touch /tmp/s2; wait")
    assert lucid.run("cat /tmp/sdtout") == "sem=0\n/tmp/s1 sem=1\n/tmp/s2 sem=0\n"
    assert lucid.run("sdtprobe") == "sem=0\n"
    # each site call while the semaphore was up hit the probe: sdt_site(1), twice
    got = [l.split(": sdt: ")[1] for l in trace_lines(lucid, "sdt")]
    assert got == ["(0x%x) x=1" % (0x400000 + site)] * 2, got
    # one place, one semaphore: another REF_CTR_OFFSET at the same place is refused
    out = tracing(lucid, "echo 'p:sdt2 /bin/sdtprobe:%#x(0x10)' >> uprobe_events; echo $?" % site)
    assert out.endswith("-bash: echo: write error: Invalid argument\n1\n"), out
    dmesg = lucid.run("dmesg | tail -3")
    assert "Reference counter offset mismatch.\n" in dmesg, (out, dmesg)  # Linux's warning
    # a bad REF_CTR_OFFSET: Linux's error_log lines, the caret where Linux puts it
    for marked, sentence in (
            ("p:bad /bin/uprobed:0x10(0x20^", "Reference counter brace is not closed"),
            ("p:bad /bin/uprobed:0x10(0x20)^x", "Reference counter has wrong suffix"),
            ("p:bad /bin/uprobed:0x10(^zz)", "Invalid reference counter offset")):
        cmd = marked.replace("^", "")
        assert tracing(lucid, "echo '%s' >> uprobe_events; echo $?" % cmd) == \
            "-bash: echo: write error: Invalid argument\n1\n", cmd
        assert last_error(lucid) == ("trace_uprobe", sentence, cmd, marked.index("^")), cmd
    # an odd offset cannot hold a short: refused when the probe goes in, as Linux's
    tracing(lucid, "echo 'p:odd /bin/sdtprobe:%#x(%#x)' >> uprobe_events"
            % (file_offset(SDTPROBE, "main"), sem + 1))
    assert "Invalid argument" in tracing(lucid, "echo 1 > events/uprobes/odd/enable")
    clean(lucid)

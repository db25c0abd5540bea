"""The kprobe mechanism (kernel/kprobes.c, arch/x86_64/kprobes/): the boot self-test, the
debugfs files in Linux's formats, probes from a module (modules/kprobe_example.c: an entry probe
on ftrace, an int3 probe on an inner instruction, a kretprobe), a probe on a module's function
that goes with the module ([GONE]), and probes beside the function tracer on the same site.

Linux 6.1's list, for the same probes: ../shared/reference/linux-6.1-probes/debug_kprobes_list*.txt
("ffffffff812be350  k  __do_sys_getpid+0x0    [FTRACE]").
"""
import re

from tracefs import T, cat, ok, sh

# Heavy, a kprobe on every function in turn: run_tests.py starts no other heavy file beside it.
HEAVY = True

BOOT = {"cmdline": "kprobe_selftest"}

D = "/sys/kernel/debug/kprobes"
MOD = "/lib/modules/6.1.0-lucid/kernel/modules/%s.ko"
# "%px  %s  %s+0x%x  %s " then the flags (Linux's report_probe); the module column is " " for
# the kernel's own functions
LIST_LINE = re.compile(r"^(?P<addr>[0-9a-f]{16})  (?P<type>[kr])  (?P<sym>\w+)"
                       r"\+0x(?P<off>[0-9a-f]+)  (?P<mod>\w+| ) "
                       r"(?P<flags>(\[GONE\])?(\[DISABLED\])?(\[FTRACE\])?)$")
BLACKLIST_LINE = re.compile(r"^0x(?P<start>[0-9a-f]{16})-0x(?P<end>[0-9a-f]{16})\t(?P<sym>\S+)$")
COUNTS = re.compile(r"kprobe_example: sys_getpid: entry (\d+), inner (\d+) \(post (\d+)\), "
                    r"returned (\d+) \(pid right (\d+)\), missed (\d+)")
GETPIDS = "for i in 1 2 3 4 5; do sh -c 'echo $$' > /dev/null; done"


def dcat(k, name):
    return sh(k, "cat %s/%s" % (D, name))


def probes(k):
    """The list's lines, each checked against Linux's format, as dicts."""
    out = []
    for line in dcat(k, "list").splitlines():
        m = LIST_LINE.match(line)
        assert m, repr(line)
        out.append(m.groupdict())
    return out


def unload_all(k):
    mods = sh(k, "cat /proc/modules")
    for name in ("kprobe_example", "foo"):
        if re.search(r"^%s " % name, mods, re.M):
            ok(k, "rmmod %s" % name)


def last_counts(k):
    m = COUNTS.findall(sh(k, "dmesg"))
    assert m, sh(k, "dmesg | tail -5")
    return [int(x) for x in m[-1]]


def test_selftest_passes(lucid):
    log = lucid.dmesg()
    assert "Kprobe smoke test: started" in log, log
    assert "Kprobe smoke test: passed successfully" in log, log
    assert not re.search(r"Kprobe smoke test: (?!started|passed)", log), log


def test_blacklist_format_and_contents(lucid):
    lines = dcat(lucid, "blacklist").splitlines()
    syms = set()
    for line in lines:
        m = BLACKLIST_LINE.match(line)
        assert m, repr(line)
        assert int(m.group("start"), 16) < int(m.group("end"), 16), line
        syms.add(m.group("sym"))
    # The int3 and exception dispatch, the kprobe machinery, text_poke, the entry code, the
    # ftrace trampolines and patching, the ring buffer, the kretprobe trampoline.
    for must in ("do_interrupt", "kprobe_int3_handler", "kprobe_debug_handler", "register_kprobe",
                 "kprobe_ftrace_handler", "text_poke", "text_poke_bp_batch", "common_interrupt",
                 "ftrace_caller", "do_page_fault", "__kretprobe_trampoline", "do_nmi",
                 "ftrace_ops_list_func", "kernel_text_address", "cpu_stop_this"):
        assert must in syms, must
    assert any(s.startswith("ring_buffer_") for s in syms), sorted(syms)[:20]
    for never in ("sys_getpid", "do_sys_openat2", "schedule"):
        assert never not in syms, never


def test_list_empty_at_boot(lucid):
    unload_all(lucid)
    assert dcat(lucid, "list") == ""
    assert sh(lucid, "ls %s" % D).split() == ["blacklist", "list"]


def test_module_probes_fire_and_list(lucid):
    unload_all(lucid)
    ok(lucid, "insmod " + MOD % "kprobe_example")
    got = probes(lucid)
    assert len(got) == 3, got
    by = {(p["type"], p["off"]): p for p in got}
    entry, ret = by[("k", "0")], by[("r", "0")]
    inner = [p for p in got if p["off"] != "0"][0]
    for p in got:
        assert p["sym"] == "sys_getpid" and p["mod"] == " ", p
    # On ftrace at the entry, an int3 inside; the address is the symbol's plus the offset
    assert entry["flags"] == "[FTRACE]" and ret["flags"] == "[FTRACE]", got
    assert inner["type"] == "k" and inner["flags"] == "", got
    assert int(inner["addr"], 16) == int(entry["addr"], 16) + int(inner["off"], 16)
    kallsyms = sh(lucid, "grep ' sys_getpid$' /proc/kallsyms")
    assert kallsyms.split()[0] == entry["addr"], kallsyms

    ok(lucid, GETPIDS)
    ok(lucid, "rmmod kprobe_example")
    entry_n, inner_n, post_n, ret_n, right_n, missed = last_counts(lucid)
    # Every getpid met all three probes once, the return value was the caller's pid
    assert entry_n >= 5 and entry_n == inner_n == post_n == ret_n == right_n, last_counts(lucid)
    assert missed == 0
    assert dcat(lucid, "list") == ""


def test_probe_on_module_goes_with_it(lucid):
    """A probe on foo's function: foo unloads, the probe stays registered, gone (Linux)."""
    unload_all(lucid)
    ok(lucid, "insmod " + MOD % "foo")
    ok(lucid, "insmod " + MOD % "kprobe_example")
    foo = [p for p in probes(lucid) if p["sym"] == "foo_exit"]
    assert len(foo) == 1 and foo[0]["mod"] == "foo" and foo[0]["flags"] == "[FTRACE]", foo
    assert foo[0]["addr"].startswith("ffffffffc"), foo
    ok(lucid, "rmmod foo")
    foo = [p for p in probes(lucid) if p["sym"] == "foo_exit"]
    assert len(foo) == 1 and foo[0]["flags"] == "[GONE][FTRACE]", foo
    # The others are untouched and still fire
    ok(lucid, GETPIDS)
    ok(lucid, "rmmod kprobe_example")
    entry_n, inner_n, _, ret_n, _, missed = last_counts(lucid)
    assert entry_n >= 5 and entry_n == inner_n == ret_n and missed == 0
    assert dcat(lucid, "list") == ""
    # foo loads again (its text may come back at the same address): nothing fires there
    ok(lucid, "insmod " + MOD % "foo")
    ok(lucid, "rmmod foo")
    assert "Oops" not in sh(lucid, "dmesg")


def test_beside_the_function_tracer(lucid):
    """The function tracer and a kprobe on the same call site: both see every call."""
    unload_all(lucid)
    ok(lucid, "cd %s" % T)
    for cmd in ("echo sys_getpid > set_ftrace_filter", "echo function > current_tracer",
                "echo > trace"):
        ok(lucid, cmd)
    try:
        # traced from before the probes come until after they go: every hit is in the trace
        ok(lucid, "insmod " + MOD % "kprobe_example")
        ok(lucid, GETPIDS)
        ok(lucid, "rmmod kprobe_example")
        ok(lucid, "echo 0 > tracing_on")
        traced = [l for l in cat(lucid, "trace").splitlines()
                  if not l.startswith("#") and "sys_getpid" in l]
        entry_n, inner_n, _, ret_n, _, missed = last_counts(lucid)
        assert entry_n >= 5 and entry_n == inner_n == ret_n and missed == 0
        assert len(traced) >= entry_n, (len(traced), entry_n)
        # the tracer goes on alone once the probes are gone
        ok(lucid, "echo 1 > tracing_on")
        ok(lucid, "echo > trace")
        ok(lucid, GETPIDS)
        assert "sys_getpid" in cat(lucid, "trace")
    finally:
        for cmd in ("echo nop > current_tracer", "echo > set_ftrace_filter",
                    "echo 1 > tracing_on", "echo > trace"):
            ok(lucid, cmd)


def test_concurrent_hits_on_all_cpus(lucid):
    """Four shells calling getpid at once on 4 CPUs: every hit counted, none lost, no oops."""
    unload_all(lucid)
    ok(lucid, "insmod " + MOD % "kprobe_example")
    # in a non-interactive shell: no job-control messages
    ok(lucid, "sh -c 'for j in 1 2 3 4; do (for i in 1 2 3 4 5 6 7 8 9 10; do "
              "sh -c \"echo \\$\\$\" > /dev/null; done) & done; wait'", timeout=120)
    ok(lucid, "rmmod kprobe_example")
    entry_n, inner_n, post_n, ret_n, right_n, missed = last_counts(lucid)
    assert entry_n >= 40 and entry_n == inner_n == post_n == ret_n == right_n, \
        last_counts(lucid)
    assert missed == 0
    assert "Oops" not in sh(lucid, "dmesg")


STRESS = re.compile(r"^kprobe_stress: (?P<funcs>\d+) functions, (?P<planted>\d+) probes planted, "
                    r"(?P<refused>\d+) refused, 0 failed; hits: entry (?P<entry>\d+), "
                    r"inner (?P<inner>\d+) \(\d+ faulted\), returns (?P<ret>\d+), "
                    r"missed \d+\n$")


def test_stress_every_function(lucid):
    """Every third function of available_filter_functions in turn gets an entry probe, an int3
    probe inside and a kretprobe, while run_test's kernel threads and shells run on the other
    CPUs: no oops, every handler count adds up (kprobe_stress checks the inner pre/post pairs),
    nothing left armed. (`kprobe_stress` alone does all of them: a few minutes.)"""
    unload_all(lucid)
    n_funcs = len(sh(lucid, "cat %s/available_filter_functions" % T).splitlines())
    sh(lucid, "rm -f /tmp/stop; (while [ ! -e /tmp/stop ]; do run_test -t 2 -r 20 > /dev/null; "
              "ls -R /proc/self > /dev/null; sh -c 'echo $$' > /dev/null; done) "
              "> /dev/null 2>&1 &")
    try:
        out = sh(lucid, "kprobe_stress '*' 3", timeout=1500)
        status = lucid.status()
    finally:
        sh(lucid, "touch /tmp/stop; wait", timeout=300)
    assert status == 0, out
    m = STRESS.match(out)
    assert m, out
    funcs = int(m.group("funcs"))
    assert abs(funcs - n_funcs / 3) <= 2, (funcs, n_funcs)
    # nearly all planted (3 each): refusals are the blacklisted, the unsteppable and static
    # branch sites (-EBUSY)
    assert int(m.group("planted")) + int(m.group("refused")) == 3 * funcs
    assert int(m.group("planted")) > 2.5 * funcs, out
    assert int(m.group("entry")) > 0 and int(m.group("inner")) > 0 and int(m.group("ret")) > 0
    assert dcat(lucid, "list") == ""
    log = sh(lucid, "dmesg")
    assert "Oops" not in log and "BUG" not in log and "WARNING" not in log, log[-2000:]
    # and the kernel still works
    assert sh(lucid, "run_test -t 2 -r 5").startswith("run_test"), "run_test"


def test_stress_bad_arguments(lucid):
    """kprobe_stress's arguments: usage and status 2 (EINVAL), nothing probed."""
    for bad in ("'*' 0", "'*' x", "'*' -1", "'*' 3 extra", "'*' 99999999999999999999999"):
        assert sh(lucid, "kprobe_stress " + bad) == "usage: kprobe_stress [GLOB [STEP]]\n", bad
        assert lucid.status() == 2, bad
    out = sh(lucid, "kprobe_stress no_such_function_anywhere")
    assert lucid.status() == 0 and out.startswith("kprobe_stress: 0 functions, 0 probes"), out
    assert dcat(lucid, "list") == ""


def test_kretprobe_beside_function_graph(lucid):
    """The graph tracer and a kretprobe both take sys_getpid's return address: each gets its
    return, the value comes back right, and the graph's lines are whole calls."""
    unload_all(lucid)
    ok(lucid, "cd %s" % T)
    for cmd in ("echo sys_getpid > set_ftrace_filter", "echo function_graph > current_tracer",
                "echo > trace"):
        ok(lucid, cmd)
    try:
        ok(lucid, "insmod " + MOD % "kprobe_example")
        ok(lucid, GETPIDS)
        ok(lucid, "rmmod kprobe_example")
        ok(lucid, "echo 0 > tracing_on")
        calls = [l for l in cat(lucid, "trace").splitlines()
                 if re.search(r"\| +sys_getpid\(\);$", l)]
        entry_n, inner_n, _, ret_n, right_n, missed = last_counts(lucid)
        assert entry_n >= 5 and entry_n == inner_n == ret_n == right_n and missed == 0
        assert len(calls) >= entry_n, (len(calls), entry_n)
    finally:
        for cmd in ("echo nop > current_tracer", "echo > set_ftrace_filter",
                    "echo 1 > tracing_on", "echo > trace"):
            ok(lucid, cmd)

"""Fault injection (fail_kmalloc=N, fail_page_alloc=N): failing allocations never oops, never
leak, and a tracing file whose write fails for want of memory reads as it did before.

Each test boots a kernel of its own. Only marked tasks' allocations are injected
(/proc/PID/make-it-fail, as Linux's): each command under test runs in a subshell that marks
itself first, `(echo 1 > /proc/self/make-it-fail; exec CMD)`, so bash itself and a write to a knob
never are. With every Nth allocation failing, any command may fail: bash says
`-bash: /bin/cat: Cannot allocate memory` when it cannot start one (fork or exec),
`-bash: FILE: Cannot allocate memory` when it cannot open a redirection, a command reports
`cat: ...: Cannot allocate memory`, a write `-bash: echo: write error: Cannot allocate memory`.
Reads are retried until they succeed, so every failed write is checked against the file's value
before it.
"""
import re

from lucid import Lucid

T = "/sys/kernel/debug/tracing"
# strerror(ENOMEM): glibc's (bash, busybox), musl's (Lucid's own programs, ftest).
ENOMEM = "(?:Cannot allocate memory|Out of memory)"


def says_enomem(out):
    """Whether a line of out ends in ENOMEM's message (the OOM killer's `Out of memory: Killed
    process` line is no such message: a process killed in a fault was told nothing)."""
    return re.search(ENOMEM + "$", out, re.M)
RETRIES = 60
PAGE_KB = 4

# (file, value written): state-changing writes, each followed by a read of the file.
WRITES = [
    ("current_tracer", "function"),
    ("set_ftrace_filter", "'ftest_*'"),
    ("set_ftrace_notrace", "ftest_leaf"),
    ("buffer_size_kb", "2048"),
    ("trace_clock", "global"),
    ("trace_options", "nosym-offset"),
    ("set_ftrace_pid", "1"),
    ("saved_cmdlines_size", "64"),
    ("tracing_on", "0"),
    ("current_tracer", "nop"),
    ("set_ftrace_filter", ""),
    ("set_ftrace_notrace", ""),
    ("buffer_size_kb", "1408"),
    ("trace_clock", "local"),
    ("trace_options", "sym-offset"),
    ("set_ftrace_pid", ""),
    ("saved_cmdlines_size", "128"),
    ("tracing_on", "1"),
]
# Every line says ENOMEM (a failed exec says it twice: `-bash: /bin/cat: ...` and `-bash: exec:
# /bin/cat: cannot execute: ...`).
ALLOWED_FAILURES = re.compile(
    r"^((-bash: )?(\S+: )*(write error: |cannot execute: )?%s\n)+$" % ENOMEM)


def marked(cmd):
    """cmd run by a subshell that marks itself for fault injection first: a builtin (echo) in
    it, anything else exec'd, so that only the command is under test, never bash. The program
    is looked up (hash) by bash before: a failed stat of PATH's entries would make bash say
    `exec: cat: not found`, bash's wording, not the kernel's."""
    mark = "echo 1 > /proc/self/make-it-fail"
    name = cmd.split()[0]
    if name == "echo":
        return "(%s; %s)" % (mark, cmd)
    return "hash %s; (%s; exec %s)" % (name, mark, cmd)


def run_rc(lucid, cmd):
    """(output, status) of cmd; status None when the shell could not even run the line.

    A command that fails must say why: a non-zero status with no message is a silent failure,
    the kind of bug fault injection is here to find."""
    out = lucid.run("%s; echo rc=$?" % marked(cmd), timeout=60)
    m = re.search(r"(?:^|\n)rc=(\d+)\n$", out)
    if not m:  # the shell could not run `echo rc=$?`: it must say so
        last = out.splitlines(True)[-1] if out else ""
        assert ALLOWED_FAILURES.match(last), "%r: %r" % (cmd, out)
        return out, None
    out, rc = out[:m.start() + (1 if out[m.start()] == "\n" else 0)], int(m.group(1))
    assert rc == 0 or says_enomem(out), "%r failed silently (status %d): %r" % (cmd, rc, out)
    return out, rc


def until_ok(lucid, cmd):
    """Runs cmd until it succeeds (the injection hits some other allocation next time)."""
    for attempt in range(RETRIES):
        out, rc = run_rc(lucid, cmd)
        if rc == 0:
            return out
        # The interval is exact: a command making as many allocations as the interval would
        # fail at the same one every time. Something marked in between shifts the phase (one
        # to four files opened and read: its own failures do not matter).
        lucid.run(marked("cat" + " /proc/self/make-it-fail" * (attempt % 4 + 1)), timeout=60)
    raise AssertionError("%r never got through: %r" % (cmd, out))


def read(lucid, name):
    return until_ok(lucid, "cat %s/%s" % (T, name))


def write_round(lucid, counts, tries=RETRIES):
    """Each write of WRITES until it succeeds or tries run out (a buffer resize makes hundreds
    of allocations: under injection it may never get through); each failure must leave the
    file as it was."""
    for name, value in WRITES:
        for _ in range(tries):
            before = read(lucid, name)
            out, rc = run_rc(lucid, "echo %s > %s/%s" % (value, T, name))
            if rc == 0:
                assert out == "", out
                counts["ok"] += 1
                break
            if rc is None:
                continue  # the write's own status is unknown: start again
            assert ALLOWED_FAILURES.match(out), "echo %s > %s: %r" % (value, name, out)
            counts["enomem"] += 1
            after = read(lucid, name)
            assert after == before, "failed write to %s changed it: %r -> %r" % (
                name, before, after)
        else:
            assert tries < RETRIES, "echo %s > %s never succeeded" % (value, name)
        # Some life in the buffer: the tracer runs while allocations fail.
        run_rc(lucid, "ftest call")


def settle_and_measure(lucid):
    """32 distinct lines leave bash's heap the same way each time; then what the kernel holds:
    (pages, objects), pages being MemFree plus kmalloc's slab pages, objects the kmalloc objects
    in use per size class (/proc/slabinfo). Both must come back exactly: a leaked page lowers
    the first, a leaked object of any size changes the second. MemFree alone would also move
    when the same objects merely sit on other slab pages (a slab page emptied and given back
    while another filled up): that is no leak, and it happens when allocations fail."""
    for i in range(32):
        out = lucid.run("true %d" % i)
        assert out == "", "true: %r" % out
    out = lucid.run("cat /proc/meminfo /proc/slabinfo")
    free_kb = int(re.search(r"^MemFree:\s+(\d+) kB$", out, re.M).group(1))
    slabs = re.findall(r"^(kmalloc-\S+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+(\d+) : tunables.*"
                       r": slabdata\s+(\d+)", out, re.M)
    assert len(slabs) == 8, out
    slab_kb = sum(int(pages) * int(nslabs) * PAGE_KB for _, _, pages, nslabs in slabs)
    return free_kb + slab_kb, {name: int(objs) for name, objs, _, _ in slabs}


def set_interval(lucid, name, n):
    until_ok(lucid, "echo %d > /proc/sys/kernel/%s" % (n, name))
    assert until_ok(lucid, "cat /proc/sys/kernel/%s" % name) == "%d\n" % n


def run_under_injection(cmdline, name, interval):
    lucid = Lucid(cmdline=cmdline, timeout=90)
    counts = {"ok": 0, "enomem": 0}
    try:
        # bash's history grows with every line (HISTSIZE, not 32): its heap, and so MemFree,
        # would drift by a few kB a round without any leak in the kernel.
        assert lucid.run("set +o history") == ""
        log = lucid.dmesg()
        assert re.search(r"fault injection: fail_kmalloc=\d+ fail_page_alloc=\d+ from now on",
                         log), log[-2000:]
        set_interval(lucid, name, 0)
        write_round(lucid, counts)  # warm up: whatever is made once is made now
        held_before = settle_and_measure(lucid)
        set_interval(lucid, name, interval)
        for _ in range(3):
            write_round(lucid, counts, tries=8)
        set_interval(lucid, name, 0)
        write_round(lucid, counts)  # and back to where the warm-up left things
        held_after = settle_and_measure(lucid)
        assert lucid.alive() and "Kernel panic" not in lucid.tail(100000), lucid.tail()
    finally:
        lucid.close()
    print("  %s=%d: %d writes, %d refused with ENOMEM, MemFree + slab pages %d -> %d kB" % (
        name, interval, counts["ok"] + counts["enomem"], counts["enomem"], held_before[0],
        held_after[0]))
    assert counts["enomem"] > 0, "the injection never hit a tracing write"
    assert counts["ok"] > 2 * len(WRITES), "too few writes got through"
    assert held_after == held_before, (held_before, held_after)


def test_fail_kmalloc():
    run_under_injection("fail_kmalloc=60", "fail_kmalloc", 60)


def test_fail_page_alloc():
    run_under_injection("fail_page_alloc=23", "fail_page_alloc", 23)


def test_sysctl_refuses_garbage():
    lucid = Lucid()
    try:
        for bad in ["abc", "-1", "1000000001", ""]:
            out = lucid.run("echo %s > /proc/sys/kernel/fail_kmalloc" % bad)
            assert out == "-bash: echo: write error: Invalid argument\n", (bad, out)
        assert lucid.run("cat /proc/sys/kernel/fail_kmalloc") == "0\n"
        assert lucid.run("cat /proc/sys/kernel/fail_page_alloc") == "0\n"
    finally:
        lucid.close()


# --- Injection never locks the user out -------------------------------------------------------
#
# Only the marked commands' allocations are injected, never bash's, nor bash writing a knob:
# whatever the interval, the prompt comes back and `echo 0 > KNOB` works the first time. (Before, the shell's own allocations counted too: a line making a multiple of N of
# them failed in the same place every time, and `echo 0 > fail_kmalloc` never got through.)

KNOBS = ["fail_kmalloc", "fail_page_alloc"]
INTERVALS = range(1, 41)
SIZES = ["2048", "1408"]  # buffer_size_kb: each write asks for the other (hundreds of pages)


def resets(name, n):
    """Ways to type the reset, short and long: the line's length must not matter."""
    return ["echo 0 > /proc/sys/kernel/%s" % name,
            "cd /proc/sys/kernel; echo 0 > ./%s; cd /root" % name,
            "echo 0 > /proc/sys/kernel/../kernel/%s; true%s" % (name, " word" * n)][n % 3]


def workload(lucid, size):
    """Commands that allocate (heap and pages), each of which may fail under injection but must
    say why; returns (how many failed, the status of the buffer_size_kb write)."""
    failed = 0
    for cmd in ["cat /proc/meminfo", "ls %s" % T, "cat %s/trace > /dev/null" % T]:
        _, rc = run_rc(lucid, cmd)
        failed += rc != 0
    out, rc = run_rc(lucid, "echo %s > %s/buffer_size_kb" % (size, T))
    assert rc == 0 and out == "" or ALLOWED_FAILURES.match(out), out
    return failed + (rc != 0), rc


def test_knobs_always_switch_off():
    lucid = Lucid(timeout=90)
    try:
        size = "1408"
        for name in KNOBS:
            for n in INTERVALS:
                assert lucid.run("echo %d > /proc/sys/kernel/%s" % (n, name)) == ""
                before, size = size, SIZES[SIZES.index(size) - 1]  # the other: a resize
                failed, rc = workload(lucid, size)
                # Writing the interval restarts the count: every interval up to 40 is reached
                # by the resize alone, so the injection must have hit.
                assert failed, "%s=%d: nothing failed" % (name, n)
                reset = resets(name, n)
                assert lucid.run(reset) == "", "%s=%d: %r" % (name, n, reset)
                for knob in KNOBS:
                    assert lucid.run("cat /proc/sys/kernel/%s" % knob) == "0\n", (name, n)
                # A failed write changed nothing; one that worked, changed it.
                size = size if rc == 0 else before
                assert lucid.run("cat %s/buffer_size_kb" % T) == size + "\n", (name, n, rc)
        assert lucid.alive() and "Kernel panic" not in lucid.tail(100000), lucid.tail()
    finally:
        lucid.close()


# (boot options, a command that the injection makes fail)
BOOT_CASES = [
    ("fail_kmalloc=1 fail_page_alloc=1", "cat /proc/meminfo"),
    ("fail_kmalloc=2", "cat /proc/meminfo"),
    ("fail_kmalloc=3", "ls /proc/sys/kernel"),
    ("fail_kmalloc=23", "echo 2048 > %s/buffer_size_kb" % T),
    ("fail_page_alloc=1", "echo 2048 > %s/buffer_size_kb" % T),
    ("fail_page_alloc=2", "echo 2048 > %s/buffer_size_kb" % T),
    ("fail_page_alloc=3", "echo 2048 > %s/buffer_size_kb" % T),
]


def test_boot_injection_never_locks_out():
    """Booted with injection on: commands fail, but the knobs can be reset at the first try,
    and poweroff works with the injection still on (before, fail_kmalloc=3 made it fail)."""
    for cmdline, failing in BOOT_CASES:
        lucid = Lucid(cmdline=cmdline, timeout=90)
        try:
            out, rc = run_rc(lucid, failing)
            assert rc != 0 and says_enomem(out), (cmdline, failing, out)
            names = [opt.split("=")[0] for opt in cmdline.split()]
            for name in names:
                out = lucid.run("echo 0 > /proc/sys/kernel/%s" % name)
                assert out == "", (cmdline, out)
            for name in names:
                out = lucid.run("cat /proc/sys/kernel/%s" % name)
                assert out == "0\n", (cmdline, out)
            out, rc = run_rc(lucid, failing)
            assert rc == 0, (cmdline, failing, out)
            for opt in cmdline.split():
                name, n = opt.split("=")
                out = lucid.run("echo %s > /proc/sys/kernel/%s" % (n, name))
                assert out == "", (cmdline, out)
            lucid.send_line("poweroff")
            status = lucid.wait_exit(60)
            # 1 is qemu.h's clean poweroff; test_boot also takes 0 (an oops would give 3)
            assert status in (0, 1), (cmdline, status, lucid.tail())
            assert "reboot: Power down" in lucid.tail(), lucid.tail()
        finally:
            lucid.close()


def test_ctrl_o_x_turns_injection_off():
    """Ctrl-O x, from the console's interrupt, halfway through a typed line; `echo x >
    /proc/sysrq-trigger` too."""
    lucid = Lucid(cmdline="fail_kmalloc=1 fail_page_alloc=1", timeout=90)
    try:
        assert says_enomem(lucid.run(marked("cat /proc/meminfo")))
        lucid.p.send("echo typed")
        lucid.p.send("\x0fx")
        lucid.expect("sysrq: Turn fault injection off")
        lucid.send_line(" on")  # the line typed so far is intact, and runs
        out = lucid.expect_prompt()
        assert out.endswith("\ntyped on\n"), out
        for name in KNOBS:
            assert lucid.run("cat /proc/sys/kernel/%s" % name) == "0\n"
        assert "MemFree" in lucid.run("cat /proc/meminfo")
        for name in KNOBS:
            assert lucid.run("echo 1 > /proc/sys/kernel/%s" % name) == ""
        out = lucid.run("echo x > /proc/sysrq-trigger")
        assert re.search(r"^(\[\s*\d+\.\d+\] )?sysrq: Turn fault injection off$", out, re.M), out
        for name in KNOBS:
            assert lucid.run("cat /proc/sys/kernel/%s" % name) == "0\n"
    finally:
        lucid.close()

"""Boot, banner, the basic shell commands, and clean power-off."""
import re
import time

from lucid import Lucid


def test_banner(lucid):
    log = lucid.dmesg()
    m = re.search(r"Lucid (\S+) \(x86_64\): (\d+) CPUs?, (\d+) MiB, TSC (\d+) MHz", log)
    assert m, log
    assert int(m.group(3)) > 200 and int(m.group(4)) > 0


RESCUE_COMMANDS = ["cat", "cd", "dmesg", "echo", "exec", "help", "insmod", "ls", "mount",
                   "poweroff", "ps", "pwd", "reboot", "rmmod", "sysrq", "umount"]


def test_help_lists_every_command():
    """The kernel's own console lists every command it has, sorted by name: now the rescue
    console's `help` (boot option `rescue`; bash's help lists bash's builtins, not the kernel's).
    The kernel shell's uptime and clear are gone with it: busybox has them."""
    k = Lucid(cmdline="rescue")
    try:
        out = k.run("help")
        names = [line.split()[0] for line in out.splitlines()[2:] if line.strip()]
        for cmd in RESCUE_COMMANDS:
            assert cmd in names, out
        assert names == sorted(names), "help is sorted by name"
    finally:
        k.close()


def test_echo(lucid):
    assert lucid.run("echo hello world") == "hello world\n"


def test_unknown_command_status(lucid):
    assert lucid.run("nosuchcmd") == "-bash: nosuchcmd: command not found\n"
    assert lucid.run("echo $?") == "127\n"
    assert lucid.run("echo $?") == "0\n"


def test_dmesg_holds_boot_log(lucid):
    out = lucid.run("dmesg")
    assert re.search(r"^\[\s*\d+\.\d{6}\] Lucid .* booting", out, re.M), out
    assert "ACPI: MADT lists" in out


def test_no_warning_at_boot(lucid):
    """No invariant check (kernel/locking/lockdep.h: all of them in DEBUG=1 and UBSAN=1 kernels) fired
    while the kernel booted and ran its selftests."""
    out = lucid.run("dmesg")
    assert "WARNING:" not in out, out


def test_uptime_grows(lucid):
    """The seconds since boot, as Linux's /proc/uptime gives them (busybox uptime prints its own
    words from it): "UPTIME IDLE", each with two decimals."""
    a = float(lucid.run("cat /proc/uptime").split()[0])
    time.sleep(0.3)  # pacing: a slower host only moves the clock further
    b = float(lucid.run("cat /proc/uptime").split()[0])
    assert re.match(r"^\d+\.\d{2} \d+\.\d{2}\n$", lucid.run("cat /proc/uptime"))
    assert b > a


def test_long_line_refused(lucid):
    """The kernel's own console refuses a line longer than its editor holds, and goes on: now
    the rescue console's. bash (readline) has no limit, as on Linux: it runs the line whole."""
    out = lucid.run("echo " + "x" * 5000, timeout=60)
    assert out == "x" * 5000 + "\n", out[-200:]
    k = Lucid(cmdline="rescue")
    try:
        out = k.run("echo " + "x" * 5000, timeout=60)
        assert "line too long" in out, out[-200:]
        assert "x" * 100 not in out  # a cut-off command never runs
        assert k.run("echo still alive") == "still alive\n"
    finally:
        k.close()


def test_poweroff_exits_cleanly():
    k = Lucid()
    k.send_line("poweroff")
    status = k.wait_exit()
    assert status in (0, 1), status


def crash_test(kind, func, first_line):
    """Writes crash type kind to lkdtm's DIRECT (kernel/debug/lkdtm.c): an oops in func."""
    k = Lucid()
    try:
        k.send_line("echo %s > /sys/kernel/debug/provoke-crash/DIRECT" % kind)
        status = k.wait_exit(60)
        out = k.tail(20000)
        assert status == 3, "QEMU should exit with the failure code, got %r" % status
        assert re.search(first_line, out), out
        trace = out[out.index("Call Trace:"):]
        assert re.search(r"^(\[\s*\d+\.\d+\] )? %s\+0x[0-9a-f]+/0x[0-9a-f]+" % func, trace, re.M), trace
        assert re.search(r" (\? )?lkdtm_do_action\+", trace), trace
        assert "Kernel panic - not syncing" in out
    finally:
        k.close()


def test_hardlockup_shown_by_nmi_backtrace():
    """A CPU spinning with interrupts off (lkdtm's HARDLOCKUP, pinned to CPU 3) cannot answer
    smp_call_function's IPI (here the code patching's, while the tracer changes): after the
    timeout the caller says so and shows, by NMI, where that CPU is, as Linux does."""
    k = Lucid()
    try:
        k.run("taskset -p 1 $$ > /dev/null")
        k.send_line("taskset -c 3 sh -c 'echo HARDLOCKUP > "
                    "/sys/kernel/debug/provoke-crash/DIRECT' &")
        k.send_line("cd /sys/kernel/tracing; until dmesg | grep -q 'did not answer'; do "
                    "echo function > current_tracer; echo nop > current_tracer; done")
        k.expect(r"smp_call_function: 1 CPU\(s\) did not answer", timeout=120)
        k.expect(r"NMI backtrace for cpu 3\r?\n", timeout=60)
        k.expect(r"Call Trace:", timeout=60)
        k.expect(r" lkdtm_do_action\+", timeout=60)
        report = k.tail(20000)
        report = report[report.rindex("NMI backtrace for cpu 3"):]
        assert re.search(r"RIP: 0008:lkdtm_HARDLOCKUP\+0x[0-9a-f]+/0x[0-9a-f]+", report), report
        flags = int(re.search(r"EFLAGS: ([0-9a-f]{8})", report).group(1), 16)
        assert not flags & 0x200, report  # IF: interrupts were off
    finally:
        k.close()


def test_sysrq_l_shows_every_cpu():
    """sysrq l (Linux's show-backtrace-all-active-cpus): where every CPU is, the others by NMI,
    the one the shell's write runs on (any of them) too, as Linux's."""
    k = Lucid()
    try:
        k.run("echo l > /proc/sysrq-trigger")
        out = k.dmesg()
        assert "sysrq: Show backtrace of all active CPUs\n" in out, out
        cpus = re.findall(r"NMI backtrace for cpu (\d+)(: no answer)?\n", out)
        assert sorted(c for c, _ in cpus) == ["0", "1", "2", "3"], out
        assert not any(none for _, none in cpus), out
        assert out.count("Call Trace:") >= 4, out
    finally:
        k.close()


def test_crash_null():
    crash_test("NULL", "lkdtm_ACCESS_NULL",
               r"BUG: kernel NULL pointer dereference, address: 0+\r?\n")


def test_crash_divzero():
    crash_test("DIVIDE_ERROR", "lkdtm_DIVIDE_ERROR", r"divide error: 0000 \[#1\]")


def test_crash_ud():
    crash_test("BUG", "lkdtm_BUG", r"invalid opcode: 0000 \[#1\]")


def test_crash_panic():
    crash_test("PANIC", "lkdtm_PANIC", r"Kernel panic - not syncing: dumptest")

"""Boot, banner, the basic shell commands, and clean power-off."""
import re
import time

from lucid import Lucid, LucidError


def test_banner(lucid):
    log = lucid.dmesg()
    m = re.search(r"Lucid (\S+) \(x86_64\): (\d+) CPUs?, (\d+) MiB, TSC (\d+) MHz", log)
    assert m, log
    assert int(m.group(3)) > 200 and int(m.group(4)) > 0


def test_help_lists_every_command(lucid):
    out = lucid.run("help")
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    for cmd in ["help", "echo", "dmesg", "uptime", "clear", "reboot", "poweroff"]:
        assert cmd in names, out
    assert names == sorted(names), "help is sorted by name"


def test_echo(lucid):
    assert lucid.run("echo hello world") == "hello world\n"


def test_unknown_command_status(lucid):
    assert lucid.run("nosuchcmd") == "sh: nosuchcmd: command not found\n"
    assert lucid.run("echo $?") == "127\n"
    assert lucid.run("echo $?") == "0\n"


def test_dmesg_holds_boot_log(lucid):
    out = lucid.run("dmesg")
    assert re.search(r"^\[\s*\d+\.\d{6}\] Lucid .* booting", out, re.M), out
    assert "ACPI: MADT lists" in out


def test_no_warning_at_boot(lucid):
    """No invariant check (kernel/sched/lockdep.h: all of them in DEBUG=1 and UBSAN=1 kernels) fired
    while the kernel booted and ran its selftests."""
    out = lucid.run("dmesg")
    assert "WARNING:" not in out, out


def test_uptime_grows(lucid):
    a = float(lucid.run("uptime"))
    time.sleep(0.3)
    b = float(lucid.run("uptime"))
    assert re.match(r"^\d+\.\d{6}\n$", lucid.run("uptime"))
    assert b > a


def test_long_line_refused(lucid):
    out = lucid.run("echo " + "x" * 5000, timeout=60)
    assert "line too long" in out, out[-200:]
    assert lucid.run("echo still alive") == "still alive\n"


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


def test_crash_null():
    crash_test("NULL", "lkdtm_ACCESS_NULL",
               r"BUG: kernel NULL pointer dereference, address: 0+\r?\n")


def test_crash_divzero():
    crash_test("DIVIDE_ERROR", "lkdtm_DIVIDE_ERROR", r"divide error: 0000 \[#1\]")


def test_crash_ud():
    crash_test("BUG", "lkdtm_BUG", r"invalid opcode: 0000 \[#1\]")


def test_crash_panic():
    crash_test("PANIC", "lkdtm_PANIC", r"Kernel panic - not syncing: dumptest")

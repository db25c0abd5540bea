"""The kernel log and the console, as Linux's (kernel/printk.c): messages below warning level go
to the log only, the boot options quiet, loglevel=N, debug and ignore_loglevel set what the
console shows, and syslog(2) (busybox dmesg, tests/user/klogctl.c) reads and controls the log."""
import re

from lucid import Lucid

INFO_AT_BOOT = "smp: Brought up "        # KERN_INFO
# KERN_WARNING, as Linux's loader says it (pr_warn) of a module that needs what is not exported
WARNING = "undef: Unknown symbol bar (err -2)"
WARN_CMD = "modprobe undef 2>/dev/null"
RECORD = re.compile(r"^<(\d)>\[ *\d+\.\d{6}\] ")


def boot_console_and_log(cmdline):
    k = Lucid(cmdline=cmdline)
    try:
        return k.boot_output, k.run("cat /proc/sys/kernel/printk"), k.dmesg(), \
            k.run(WARN_CMD)
    finally:
        k.close()


def test_info_in_the_log_not_on_the_console(lucid):
    assert INFO_AT_BOOT not in lucid.boot_output, lucid.boot_output
    assert "booting, command line" not in lucid.boot_output
    log = lucid.dmesg()
    assert INFO_AT_BOOT in log and "booting, command line" in log, log
    assert lucid.run("cat /proc/sys/kernel/printk") == "5\t4\t1\t7\n"
    # a warning still reaches the console, and the log
    out = lucid.run(WARN_CMD)
    assert WARNING in out, out
    assert WARNING in lucid.dmesg()


def test_dmesg_is_the_log_without_levels(lucid):
    """busybox dmesg's lines are dmesg -r's (READ_ALL: Linux's "<N>[time] text" records) less
    the "<N>"; each record has its level: 6 for info, 4 for the warning."""
    lucid.run(WARN_CMD)
    raw = lucid.run("dmesg -r").splitlines()
    text = lucid.run("dmesg").splitlines()
    assert len(raw) > 10 and all(RECORD.match(l) for l in raw), raw[:5]
    n = min(len(raw), len(text))  # the log may grow between the two
    assert [l[3:] for l in raw[:n]] == text[:n]
    levels = {l[l.index("]") + 2:]: l[1] for l in raw}
    assert levels[next(t for t in levels if t.startswith(INFO_AT_BOOT))] == "6"
    assert "4" in {lvl for t, lvl in levels.items() if WARNING in t}
    # the same bytes through the syscall itself
    out = lucid.run("klogctl 3 65536")
    head, _, body = out.partition("\n")
    assert head == "ret %d" % len(body.encode()), head
    assert body.splitlines()[:5] == raw[:5]


def test_dmesg_n_sets_the_console_level(lucid):
    """dmesg -n 8 (CONSOLE_LEVEL): info reaches the console (segv's segfault report); -n 5
    again: no more. Out of 1..8: EINVAL, the level unchanged."""
    try:
        assert lucid.run("dmesg -n 8; cat /proc/sys/kernel/printk") == "8\t4\t1\t7\n"
        assert re.search(r"segv\[\d+\]: segfault at 0 ", lucid.run("segv"))
        assert lucid.run("dmesg -n 5; cat /proc/sys/kernel/printk") == "5\t4\t1\t7\n"
        assert "segfault" not in lucid.run("segv")
        assert lucid.run("klogctl 8 9") == "ret -1 EINVAL\n"
        assert lucid.run("klogctl 8 0") == "ret -1 EINVAL\n"
        # /proc/sys/kernel/printk: its first number is the same level
        assert lucid.run("echo 8 > /proc/sys/kernel/printk; cat /proc/sys/kernel/printk") == \
            "8\t4\t1\t7\n"
        assert re.search(r"segv\[\d+\]: segfault at 0 ", lucid.run("segv"))
        assert "Invalid argument" in lucid.run("echo x > /proc/sys/kernel/printk")
        assert lucid.run("cat /proc/sys/kernel/printk") == "8\t4\t1\t7\n"
        # CONSOLE_OFF: the minimum level (1); CONSOLE_ON: the level before
        assert lucid.run("klogctl 6; cat /proc/sys/kernel/printk") == "ret 0\n1\t4\t1\t7\n"
        assert "segfault" not in lucid.run("segv")
        assert lucid.run("klogctl 7; cat /proc/sys/kernel/printk") == "ret 0\n8\t4\t1\t7\n"
    finally:
        lucid.run("dmesg -n 5")


def test_syslog_errors(lucid):
    """Linux's answers: a NULL buffer or a negative length EINVAL, len 0 reads nothing, an
    unmapped buffer EFAULT, an unknown action EINVAL; the buffer size is 64 KiB."""
    for args, want in [("3 100 null", "ret -1 EINVAL"), ("3 -1", "ret -1 EINVAL"),
                       ("3 0", "ret 0"), ("3 100 bad", "ret -1 EFAULT"),
                       ("2 100 null", "ret -1 EINVAL"), ("2 -5", "ret -1 EINVAL"),
                       ("2 0", "ret 0"), ("2 100 bad", "ret -1 EFAULT"),
                       ("4 100 null", "ret -1 EINVAL"), ("11", "ret -1 EINVAL"),
                       ("-1", "ret -1 EINVAL"), ("10", "ret 65536"), ("0", "ret 0"),
                       ("1", "ret 0")]:
        assert lucid.run("klogctl " + args) == want + "\n", args


def test_syslog_read_consumes_and_clear(lucid):
    """READ (2) hands out what was not read yet and consumes it (SIZE_UNREAD, 9, counts it),
    whole records unless the first is longer than len; it waits when there is nothing.
    READ_CLEAR (4) reads all and clears; CLEAR (5) clears: READ_ALL then starts after."""
    unread = int(lucid.run("klogctl 9").split()[1])
    assert unread > 0
    out = lucid.run("klogctl 2 200")
    n = int(out.split("\n", 1)[0].split()[1])
    assert 0 < n <= 200 and out.endswith("\n") and RECORD.match(out.split("\n", 1)[1]), out
    out = lucid.run("klogctl 2 1000000")
    assert RECORD.match(out.split("\n", 1)[1]), out[:200]
    assert lucid.run("klogctl 9") == "ret 0\n"
    # a first record longer than len comes in parts
    lucid.run("segv")
    part = lucid.run("klogctl 2 5; echo")  # (a newline: "[ " before the prompt is no prompt)
    assert re.fullmatch(r"ret 5\n<6>\[ \n", part), part
    assert int(lucid.run("klogctl 9").split()[1]) > 0
    rest = lucid.run("klogctl 2 1000")
    assert re.search(r"^ret \d+\n *\d+\.\d{6}\] segv\[\d+\]: segfault at 0 ", rest), rest
    # nothing unread: READ waits until something is logged
    lucid.run("klogctl 2 1000 > /tmp/read & sleep 0.5; cat /tmp/read; echo waiting")
    assert lucid.run("cat /tmp/read") == ""
    lucid.run("segv; wait")
    assert re.search(r"segv\[\d+\]: segfault at 0 ", lucid.run("cat /tmp/read"))
    # READ_CLEAR and CLEAR
    assert "segfault" in lucid.run("klogctl 4 65536")
    assert lucid.run("klogctl 3 65536") == "ret 0\n"
    assert lucid.run("dmesg") == ""
    lucid.run("segv")
    assert "segfault" in lucid.run("dmesg")
    assert lucid.run("klogctl 5; dmesg") == "ret 0\n"
    assert "segfault" in lucid.run("segv; dmesg -c")  # busybox's READ_CLEAR
    assert lucid.run("dmesg") == ""


def test_quiet():
    """quiet: errors and worse; the warning only in the log. The order of the options counts,
    as Linux's: loglevel=8 quiet is quiet."""
    console, printk, log, out = boot_console_and_log("loglevel=8 quiet")
    assert printk == "4\t4\t1\t7\n"
    assert INFO_AT_BOOT not in console and INFO_AT_BOOT in log
    assert WARNING not in out, out


def test_loglevel_shows_info():
    console, printk, log, out = boot_console_and_log("quiet loglevel=8")
    assert printk == "8\t4\t1\t7\n"
    assert INFO_AT_BOOT in console and INFO_AT_BOOT in log, console
    assert WARNING in out


def test_debug_and_ignore_loglevel():
    """debug: everything (10); ignore_loglevel: everything whatever the level, and says so."""
    console, printk, _, _ = boot_console_and_log("debug")
    assert printk == "10\t4\t1\t7\n" and INFO_AT_BOOT in console
    console, printk, log, _ = boot_console_and_log("loglevel=1 ignore_loglevel")
    assert printk == "1\t4\t1\t7\n"
    assert INFO_AT_BOOT in console and "debug: ignoring loglevel setting." in console, console
    console, printk, _, _ = boot_console_and_log("loglevel=x")
    assert "Malformed early option 'loglevel'" in console and printk == "5\t4\t1\t7\n"

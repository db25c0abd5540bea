"""The rescue console (kernel/shell/): the kernel's own small console for when user space is
broken. It runs with the boot option `rescue`, when init cannot be executed, and when init dies;
each builtin works, bad input gets a clear error, and `exec PATH` runs a program as init.
"""
import re


from lucid import Lucid

BOOT = {"cmdline": "rescue"}
RESCUE_PROMPT = r"\[rescue\]# "
BUILTINS = ["cat", "cd", "dmesg", "echo", "exec", "help", "insmod", "ls", "mount", "poweroff",
            "ps", "pwd", "reboot", "rmmod", "sysrq", "umount"]


def run(lucid, line, want, timeout=30):
    out = lucid.run(line, timeout)
    assert out == want, "%r printed %r, not %r" % (line, out[-2000:], want)


def test_rescue_boots_to_the_console(lucid):
    """`rescue` on the command line: pid 1 is the console, a kernel thread, and init never ran."""
    assert "Run /sbin/init" not in lucid.boot_output, lucid.boot_output
    assert lucid.p.after == "[rescue]# "
    ps = lucid.run("ps")
    assert re.search(r"^ +1 +0 R \[rescue\]$", ps, re.M), ps
    assert not re.search(r"^ +\d+ +\d+ \w [^\[]", ps, re.M), ps  # no process at all


def test_help_lists_every_builtin(lucid):
    out = lucid.run("help")
    names = [line.split()[0] for line in out.splitlines()[2:]]
    for name in BUILTINS:
        assert name in names, (name, out)
    assert "no pipes" in out and "exec /sbin/init" in out, out


def test_files(lucid):
    run(lucid, "echo  hello   world ", "hello world\n")
    run(lucid, "cat /sys/kernel/tracing/current_tracer /sys/kernel/tracing/tracing_on", "nop\n1\n")
    names = lucid.run("ls /").split()
    for name in ["bin", "dev", "etc", "proc", "sbin", "sys", "tmp"]:
        assert name in names, names
    assert names == sorted(names), names
    assert re.match(r"^-rwxr-xr-x +\d+ init\n$", lucid.run("ls -l /sbin")), lucid.run("ls -l /sbin")
    assert re.match(r"^-rwxr-xr-x +\d+ /sbin/init\n$", lucid.run("ls -l /sbin/init"))
    run(lucid, "cd /sys/kernel", "")
    run(lucid, "pwd", "/sys/kernel\n")
    assert "tracing" in lucid.run("ls").split()
    run(lucid, "cd", "")
    run(lucid, "pwd", "/\n")


def test_mount_and_umount(lucid):
    assert "tracefs on /sys/kernel/tracing type tracefs" in lucid.run("mount")
    run(lucid, "mount -t ramfs /tmp", "")
    assert "ramfs on /tmp type ramfs" in lucid.run("mount").splitlines()[-1]
    run(lucid, "umount /tmp", "")
    run(lucid, "umount /tmp", "umount: /tmp: not mounted.\n")
    run(lucid, "mount -t nosuchfs /tmp", "mount: /tmp: unknown filesystem type 'nosuchfs'.\n")
    run(lucid, "mount -t ramfs /nosuch", "mount: /nosuch: mount point does not exist.\n")
    run(lucid, "mount /tmp", "usage: mount [-t TYPE [SOURCE] DIR]\n")


def test_dmesg_and_sysrq(lucid):
    assert "command line: rescue\n" in lucid.run("dmesg")
    lucid.run("sysrq t")  # the task list, into the kernel log
    log = lucid.run("dmesg")
    assert "sysrq: Show State" in log, log[-2000:]
    assert re.search(r"rescue +\S* +1 ", log) or " rescue " in log, log[-2000:]
    run(lucid, "sysrq", "usage: sysrq KEY (z: dump the trace buffer, t: tasks, c: crash, "
        "x: fault injection off)\n")


def test_insmod_and_rmmod(lucid):
    run(lucid, "insmod foo", "")
    assert re.search(r"^foo ", lucid.run("cat /proc/modules"), re.M)
    run(lucid, "rmmod foo", "")
    assert not re.search(r"^foo ", lucid.run("cat /proc/modules"), re.M)
    run(lucid, "rmmod foo", "rmmod: ERROR: Module foo is not currently loaded\n")
    run(lucid, "insmod /nosuch.ko",
        "insmod: ERROR: could not load module /nosuch.ko: No such file or directory\n")
    out = lucid.run("insmod /etc/profile")  # the loader's own printk line may come first
    assert out.endswith("insmod: ERROR: could not insert module /etc/profile: "
                        "Invalid module format\n"), out
    run(lucid, "insmod", "insmod: ERROR: missing filename.\n")


def test_bad_input_gets_clear_errors(lucid):
    run(lucid, "nosuch arg", "rescue: nosuch: command not found ('help' lists them)\n")
    for c in "|&;<>$":
        run(lucid, "echo a %s b" % c, "rescue: '%s': no pipes, redirections, jobs or variables "
            "here; 'exec /bin/sh' runs a shell\n" % c)
    run(lucid, "echo" + " x" * 40, "rescue: too many words (max 32)\n")
    run(lucid, "cat", "usage: cat FILE... (no standard input here)\n")
    run(lucid, "cat /nosuch /tmp", "cat: /nosuch: No such file or directory\n"
        "cat: /tmp: Is a directory\n")
    run(lucid, "ls /nosuch", "ls: cannot access '/nosuch': No such file or directory\n")
    run(lucid, "cd /nosuch", "cd: /nosuch: No such file or directory\n")
    run(lucid, "cd /etc/profile", "cd: /etc/profile: Not a directory\n")
    run(lucid, "cd / /", "cd: too many arguments\n")
    run(lucid, "exec", "usage: exec PATH [ARGS]\n")
    out = lucid.run("exec /nosuch")
    assert out.endswith("exec: /nosuch: No such file or directory\n"), out
    out = lucid.run("exec /etc")
    assert out.endswith("exec: /etc: Permission denied\n"), out
    run(lucid, "x" * 5000, "rescue: line too long (max 4096 bytes)\n")
    run(lucid, "   ", "")
    run(lucid, "pwd", "/\n")  # still the console, where it was


def test_line_editing(lucid):
    """The line editor is kept: Backspace, Ctrl-U, Ctrl-C drops the line, Up recalls one."""
    lucid.p.send("echo abx\x7fc\r")
    assert lucid.expect_prompt(10).endswith("abc\n")
    lucid.p.send("garbage\x15echo kept\r")
    assert lucid.expect_prompt(10).endswith("\nkept\n")
    lucid.p.send("echo dropped\x03")
    out = lucid.expect_prompt(10)
    assert out.endswith("^C\n"), out
    lucid.p.send("\x1b[A\r")  # Up: "echo kept" again
    out = lucid.expect_prompt(10)
    assert out.endswith("kept\n") and "dropped" not in out, out


def test_missing_init_falls_back_to_the_console():
    """init=/nonexistent: Linux's "Failed to execute" line (Linux would then panic); here the
    rescue console starts instead, as pid 1."""
    k = Lucid(cmdline="init=/nonexistent", timeout=120)
    try:
        assert "Failed to execute /nonexistent (error -2)\n" in k.boot_output, k.boot_output
        assert k.p.after == "[rescue]# "
        assert re.search(r"^ +1 +0 R \[rescue\]$", k.run("ps"), re.M)
    finally:
        k.close()


def test_init_that_cannot_run_falls_back():
    """An init that is there but cannot be executed (a directory): EACCES, as Linux's -13."""
    k = Lucid(cmdline="init=/etc", timeout=120)
    try:
        assert "Failed to execute /etc (error -13)\n" in k.boot_output, k.boot_output
        assert k.p.after == "[rescue]# "
    finally:
        k.close()


def test_init_dying_starts_the_console_and_exec_runs_init():
    """init=/bin/sh that exits: Linux's "Attempted to kill init!" line with its exit code, then
    the rescue console, still pid 1, a kernel thread again. `exec /bin/sh` from it runs a
    program as init (pid 1, in /, with init's environment), whose death brings the console
    back; `exec /sbin/init` boots on to bash, as a normal boot would."""
    k = Lucid.without_prompt("init=/bin/sh")
    try:
        k.expect("# ", 120)  # sh's prompt ("Run /bin/sh as init process" is in the log only)
        k.p.send("echo pid $$\r")
        k.expect("pid 1\r\n", 60)
        k.p.send("sleep 100 & sleep 0.5; echo started\r")  # an orphan-to-be
        k.expect("started\r\n", 60)
        k.p.send("exit 5\r")
        k.expect(r"Attempted to kill init! exitcode=0x00000500\r\n", 60)
        k.expect(RESCUE_PROMPT, 60)
        assert "Kernel panic" not in k.tail(100000), k.tail()
        ps = k.run("ps")
        assert re.search(r"^ +1 +0 R \[rescue\]$", ps, re.M), ps
        assert not re.search(r"^ +\d+ +\d+ \w sh$", ps, re.M), ps  # it died: no zombie kept
        assert re.search(r"^ +\d+ +1 \w sleep$", ps, re.M), ps  # the orphan: the console's now
        k.run("cd /tmp")
        k.send_line("exec /bin/sh")
        k.expect(r"built-in shell \(ash\)", 60)  # sh's banner, as an interactive init's
        k.expect("/ # ", 60)
        k.p.send("echo $$ $0 $PWD $HOME $TERM; exit 7\r")
        k.expect(r"1 /bin/sh / / linux\r\n", 60)
        k.expect(r"Attempted to kill init! exitcode=0x00000700\r\n", 60)
        k.expect(RESCUE_PROMPT, 60)
        k.send_line("exec /sbin/init")
        k.expect(r"\[~\]# ", 60)  # bash's prompt, /etc/profile's
        k.p.send("echo $0 $(readlink /proc/1/exe)\r")
        k.expect(r"-bash /sbin/init\r\n", 60)
    finally:
        k.close()


def test_poweroff():
    k = Lucid(**BOOT)
    try:
        k.send_line("poweroff")
        k.expect("reboot: Power down", 30)
        assert k.wait_exit(30) == 0
    finally:
        k.close()

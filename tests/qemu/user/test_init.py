"""Lucid's own init (user/init.c), booted with init=/sbin/init: the console is Debian's bash, as
on Linux.

init mounts what is missing (here: nothing, the kernel mounted it all, so it says nothing), gives
a login bash the console as its controlling terminal in a session of its own, reaps every child,
and powers off when bash exits. /etc/profile sets the article's prompt, `[~]# `. The system calls
bash probes at start (socket, getpeername) answer as Linux without networking, silently.
"""
import re
import shutil
import tempfile

from lucid import Lucid
from test_jobs import started_job
from test_signals import jobs_become
from tracefs import TRACE_PREFIX

BOOT = {"cmdline": "init=/sbin/init"}
T = "/sys/kernel/tracing"
# The function tracer's lines: "            bash-3     [000] d..2     0.285765: f <-g"
TRACE_LINE = re.compile("^" + TRACE_PREFIX, re.M)


def run(lucid, line, want, timeout=60):
    out = lucid.run(line, timeout)
    assert out == want, "%r printed %r, not %r" % (line, out[-2000:], want)


def prompt(lucid):
    """The prompt the last run() or expect_prompt() ended at, exactly as bash printed it."""
    return lucid.p.after


def bash_pid(lucid):
    return int(lucid.run("echo $$").strip())


def test_login_shell_at_the_prompt(lucid):
    """The article's prompt in root's home; bash is a login shell ("-bash"), not pid 1, with
    login's environment, and leads a session of its own whose foreground it holds."""
    log = lucid.dmesg()
    assert re.search(r"Run /sbin/init as init process\n", log), log
    assert "init:" not in lucid.boot_output, lucid.boot_output  # nothing to say: all mounted
    run(lucid, "echo $0 $PWD $HOME $USER $SHELL", "-bash /root /root root /bin/bash\n")
    assert prompt(lucid) == "[~]# "
    run(lucid, "echo $PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n")
    pid = bash_pid(lucid)
    assert pid != 1, pid
    # /proc/PID/stat: field 5 the process group, 6 the session. (Field 8, the terminal's
    # foreground group, is always -1 in Lucid's /proc: test_job_control shows the foreground.)
    stat = lucid.run("cat /proc/$$/stat").split(") ")[1].split()
    assert (int(stat[2]), int(stat[3])) == (pid, pid), stat
    assert "m" in lucid.run("echo $-"), "job control is off"


def test_ps_shows_init_as_pid_1(lucid):
    pid = bash_pid(lucid)
    rows = [l.split(None, 2) for l in lucid.run("ps -o pid,ppid,comm").splitlines()[1:]]
    procs = {int(p): (int(pp), comm) for p, pp, comm in rows}
    assert procs[1] == (0, "init"), procs
    assert procs[pid] == (1, "bash"), procs


def test_tracing_prompt_and_back_home(lucid):
    run(lucid, "cd " + T, "")
    assert prompt(lucid) == "[tracing]# "
    run(lucid, "pwd", T + "\n")
    run(lucid, "cd", "")
    assert prompt(lucid) == "[~]# "


def test_article_first_commands(lucid):
    """The article's first commands, typed at bash in the tracing directory: the trace shows
    bash by its name and pid, as `bash-16939 [000] ...` in the article."""
    pid = bash_pid(lucid)
    run(lucid, "cd " + T, "")
    try:
        run(lucid, "echo function > current_tracer", "")
        head = lucid.run("cat trace | head")
        assert head.splitlines()[0] == "# tracer: function", head
        assert len(head.splitlines()) == 10, head
        lines = lucid.run("grep -m 20 ' bash-' trace")
        tasks = {(m.group("comm"), int(m.group("pid"))) for m in TRACE_LINE.finditer(lines)}
        assert ("bash", pid) in tasks, lines
    finally:
        lucid.run("echo nop > current_tracer")
        lucid.run("cd")


def test_mounts_made_once(lucid):
    """init found proc, tracefs and debugfs mounted by the kernel and did not mount them again
    (a second mount would stack, and /proc/mounts would list it twice)."""
    mounts = [l.split()[:3] for l in lucid.run("cat /proc/mounts").splitlines()]
    for want in (["proc", "/proc", "proc"], ["tracefs", T, "tracefs"],
                 ["debugfs", "/sys/kernel/debug", "debugfs"]):
        assert mounts.count(want) == 1, mounts
    assert not any(m[1] == "/mnt/host" for m in mounts), mounts  # no share: none, silently
    run(lucid, "ls -d /mnt/host 2>/dev/null; echo $?", "1\n")  # no mount point left behind


def test_no_log_lines_from_bash_start(lucid):
    """bash probes socket and getpeername at start: Linux's answers, no "not implemented" line
    in the kernel log (before, every bash printed two among its output)."""
    run(lucid, "bash -c 'echo inner'", "inner\n")
    run(lucid, "dmesg | grep -c 'is not implemented'", "0\n")


def test_probed_calls_answer_as_linux(lucid):
    """socket for every family but AF_UNIX: EAFNOSUPPORT; getpeername/getsockname: ENOTSOCK on an open
    descriptor, EBADF on a closed one; reboot with bad magic or command, mount and umount2
    with what Lucid lacks: EINVAL; chown to root succeeds (nothing changes: every file is
    root's), to anyone else EPERM (Lucid could not keep it); Linux's errors for the rest."""
    run(lucid, "sysprobe",
        "socket AF_UNIX: 0 ok\n"
        "socket AF_INET: -1 Address family not supported by protocol\n"
        "socket AF_INET6: -1 Address family not supported by protocol\n"
        "getpeername pipe: -1 Not a socket\n"
        "getpeername file: -1 Not a socket\n"
        "getsockname file: -1 Not a socket\n"
        "getpeername closed: -1 Bad file descriptor\n"
        "getsockname closed: -1 Bad file descriptor\n"
        "reboot bad magic: -1 Invalid argument\n"
        "reboot bad command: -1 Invalid argument\n"
        "mount unknown type: -1 No such device\n"
        "mount no dir: -1 No such file or directory\n"
        "mount read-only: -1 Invalid argument\n"
        "mount bad pointer: -1 Bad address\n"
        "umount2 not mounted: -1 Invalid argument\n"
        "umount2 busy: -1 Resource busy\n"
        "umount2 lazy: -1 Invalid argument\n"
        "umount2 bad flag: -1 Invalid argument\n"
        "chown root: 0 ok\n"
        "chown unchanged: 0 ok\n"
        "lchown root: 0 ok\n"
        "fchown root: 0 ok\n"
        "fchownat root: 0 ok\n"
        "chown other user: -1 Operation not permitted\n"
        "chown other group: -1 Operation not permitted\n"
        "chown missing: -1 No such file or directory\n"
        "fchown closed: -1 Bad file descriptor\n")
    run(lucid, "dmesg | grep -c 'is not implemented'", "0\n")


def test_busybox_mount_and_umount(lucid):
    """mount(2) and umount2(2) under busybox's mount and umount, with its messages."""
    run(lucid, "mkdir -p /tmp/p && mount -t ramfs none /tmp/p && echo $?", "0\n")
    run(lucid, "grep /tmp/p /proc/mounts", "ramfs /tmp/p ramfs rw 0 0\n")
    run(lucid, "echo in > /tmp/p/f; ls /tmp/p", "f\n")
    run(lucid, "umount /tmp/p; echo $?; grep -c /tmp/p /proc/mounts; ls /tmp/p", "0\n0\n")
    run(lucid, "umount /tmp/p", "umount: can't unmount /tmp/p: Invalid argument\n")
    run(lucid, "mount -t nosuchfs x /tmp/p",
        "mount: mounting x on /tmp/p failed: No such device\n")


def test_init_refuses_to_run_as_another_pid(lucid):
    """Typed at the shell, /sbin/init would power off when its own shell ended: it refuses."""
    run(lucid, "/sbin/init; echo $?",
        "init: must be run as process 1 (boot with init=/sbin/init)\n1\n")


def test_job_control(lucid):
    """Jobs as Linux's bash on a terminal it controls: a background job, ^C of the foreground."""
    started_job(lucid, "sleep 100 &")  # its exec done: the kill finds sleep, not bash
    run(lucid, "jobs", "[1]+  Running                 sleep 100 &\n")
    # bash tells of the death in a notice (after kill, if its SIGCHLD came that soon) or in
    # jobs; the job's mark may be + or - by then (test_signals)
    said = lucid.run("kill %1") + jobs_become(lucid, "")
    assert re.search(r"\[1\][+ -]  Terminated +sleep 100\n", said), said
    lucid.send_line("cat")
    lucid.expect("cat\r?\n")
    lucid.send_line("typed at cat")
    lucid.expect("typed at cat\r?\ntyped at cat\r?\n")  # the tty's echo, then cat's copy
    lucid.p.send("\x1a")  # ^Z: cat stops, bash takes the terminal back
    lucid.expect(r"\[1\]\+  Stopped +cat\r?\n")
    lucid.expect_prompt()
    lucid.send_line("fg")  # cat has the terminal again
    lucid.expect("fg\r?\ncat\r?\n")
    lucid.send_line("again")
    lucid.expect("again\r?\nagain\r?\n")
    lucid.p.send("\x03")
    lucid.expect_prompt()
    run(lucid, "echo $?", "130\n")


def test_orphan_leaves_no_zombie(lucid):
    """A process whose parent ended is collected: nothing is left in ps as a zombie (Z)."""
    lucid.run("rm -f /tmp/orphan")
    run(lucid, "( (sleep 1; echo ran > /tmp/orphan) & )", "")
    # Until the orphan's sleep is gone from ps (every wait has its bound: 30 s here).
    lucid.run("for i in $(seq 300); do ps -o comm | grep -q '^sleep' || break; sleep 0.1; "
              "done", 60)
    states = lucid.run("ps -o stat,comm").splitlines()[1:]
    assert not [s for s in states if s.startswith("Z")], states


def test_orphan_runs_to_its_end(lucid):
    """An orphan is reparented to init (pid 1), runs to its end, and init collects it."""
    lucid.run("rm -f /tmp/orphan")
    run(lucid, "( (sleep 1; echo ran > /tmp/orphan) & )", "")
    lucid.run("for i in $(seq 300); do [ -s /tmp/orphan ] && break; sleep 0.1; done", 60)
    run(lucid, "cat /tmp/orphan", "ran\n")
    states = lucid.run("ps -o stat,comm").splitlines()[1:]
    assert not [s for s in states if s.startswith("Z")], states


def test_share_found_mounted():
    """With a folder shared, the kernel has mounted it at /mnt/host: init leaves it so, once,
    and says nothing."""
    share = tempfile.mkdtemp(prefix="lucid-share-")
    k = None
    try:
        with open(share + "/hello", "w") as f:
            f.write("from the host\n")
        k = Lucid(share=share, **BOOT)
        assert "init:" not in k.boot_output, k.boot_output
        mounts = [l.split()[:3] for l in k.run("cat /proc/mounts").splitlines()]
        assert mounts.count(["host", "/mnt/host", "9p"]) == 1, mounts
        run(k, "cat /mnt/host/hello", "from the host\n")
    finally:
        if k:
            k.close()
        shutil.rmtree(share)


def powers_off_with(line, *messages):
    k = Lucid(**BOOT)
    try:
        k.send_line(line)
        status = k.wait_exit(60)
        log = k.tail().replace("\r\n", "\n")
        assert status == 0, (status, log)
        for m in messages:
            assert m in log, log
        assert "Kernel panic" not in log, log
        return log
    finally:
        k.close()


def test_exit_powers_off():
    """bash's exit ends the session: init syncs and powers off, and QEMU exits with 0. bash
    saves its history on the way out (chown to root included): no kernel log line about it."""
    log = powers_off_with("exit", "logout\n", "reboot: Power down\n")
    assert "is not implemented" not in log, log


def test_busybox_poweroff_and_reboot():
    """busybox's poweroff and reboot signal pid 1 (SIGUSR2, SIGTERM), as with busybox's init;
    QEMU runs with -no-reboot, so a restart ends it with 0 too."""
    powers_off_with("poweroff", "reboot: Power down\n")
    powers_off_with("reboot", "reboot: Restarting system\n")

"""Programs that run helpers, and the helpers' orphans, judged by Linux.

system(), popen() and posix_spawn() start their child with clone(CLONE_VM | CLONE_VFORK, stack)
(glibc through clone3 first): tests/user/spawn2.c, built with musl and with glibc, prints what each
gives and must print what it prints on the host. busybox awk's system(), `cmd | getline` and
`print | cmd`, and watch, the same. A process whose parent exits lives on, adopted by init or by
a PR_SET_CHILD_SUBREAPER ancestor (tests/user/subreaper.c), and is reaped when it ends: timeout's
watcher kills the command in time, `( (sleep 2; echo ran) & )` prints.
"""
import os
import re
import subprocess
import tempfile

from lucid import Lucid, default_signals, user_source
from test_syscalls import same_as_linux

BUSYBOX = "/bin/busybox"
TIMEOUT_TERM_STATUS = 143  # timeout's status when its TERM ended the command: 128 + 15


def on_host(argv, **kw):
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd="/tmp",
                         preexec_fn=default_signals, env={"PATH": "/usr/bin:/bin"}, **kw)
    return out.stdout


def test_system_popen_posix_spawn_musl(lucid):
    same_as_linux(lucid, "spawn2")


def test_system_popen_posix_spawn_glibc(lucid):
    """The same program built static with glibc, whose posix_spawn tries clone3 first."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "spawn2-glibc")
        subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
                        user_source("spawn2"), "-o", exe], check=True)
        want = on_host([exe])
    got = lucid.run("/opt/dyn/spawn2-glibc", 60)
    assert lucid.status() == 0, got
    assert "not implemented" not in got, got  # clone3 is there, as on Linux
    assert got == want, (got, want)


def test_orphans_go_to_the_subreaper(lucid):
    same_as_linux(lucid, "subreaper")


def test_vfork_parent_is_killable(lucid):
    """SIGKILL and an unhandled TERM end a vfork parent's wait (its child runs on, and goes to
    the subreaper); a handled USR1 waits for the child. A zombie given away is reported anew."""
    same_as_linux(lucid, "vforkkill")


AWK = ('BEGIN { r = system("echo from system; exit 3"); print "system:", r; '
       '"echo from getline" | getline x; print "getline:", x; '
       'print "to a pipe" | "tr a-z A-Z"; close("tr a-z A-Z"); '
       'while (("printf \\"a\\\\nb\\\\n\\"" | getline y) > 0) print "line:", y }')


def test_busybox_awk_runs_commands(lucid):
    want = on_host([BUSYBOX, "awk", AWK])
    assert "FROM SYSTEM" not in want and "TO A PIPE" in want, want
    got = lucid.run("busybox awk '%s'" % AWK)
    assert got == want, (got, want)


def watch_frames(text):
    """The frames `watch -n 1 date` drew (ESC shown as E): each its header and the date."""
    frames = [f for f in text.split("E[HE[J") if f]
    for f in frames:
        assert re.match(r"Every 1\.0s: date +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n\n"
                        r"\w{3} \w{3} +\d+ \d\d:\d\d:\d\d UTC \d{4}\n", f), repr(f)
    return frames


def test_busybox_watch_runs_its_command(lucid):
    line = "busybox timeout 3 busybox watch -n 1 date | busybox tr '\\033' E; echo status $?"
    want = on_host(["/bin/sh", "-c", line.replace("busybox timeout", BUSYBOX + " timeout")],
                   )
    got = lucid.run(line, timeout=60)
    # Its pipe's last command is tr: the status is tr's on both.
    assert got.endswith("status 0\n") and want.endswith("status 0\n"), (got, want)
    assert len(watch_frames(got[:-len("status 0\n")])) >= 2, got
    assert len(watch_frames(want[:-len("status 0\n")])) >= 2, want


def test_timeout_ends_the_command(lucid):
    """timeout's watcher is an orphan (its parent exits at once): it must live to send TERM."""
    # (sleep 100: a TERM the watcher sends late, on a loaded host, still ends it, never sleep)
    out = lucid.run("sh -c 's=$(date +%s); busybox timeout 2 sleep 100; echo status $?; "
                    "echo took $(( $(date +%s) - s ))'", timeout=60)
    m = re.fullmatch(r"(?:Terminated\n)?status (\d+)\ntook (\d+)\n", out)  # busybox sh says it
    assert m and int(m.group(1)) == TIMEOUT_TERM_STATUS, out
    assert 1 <= int(m.group(2)) < 100, out  # ended by the TERM, not by sleep's own end
    assert on_host(["/bin/sh", "-c", BUSYBOX + " timeout 1 sleep 100; echo status $?"]) == \
        "status %d\n" % TIMEOUT_TERM_STATUS
    # A reader that would wait for ever: the TERM ends it too, and trace_pipe is free again
    # (interactive bash names the signal that ended its command, as on Linux).
    assert lucid.run("busybox timeout 2 cat /sys/kernel/tracing/trace_pipe; echo status $?",
                     timeout=60) == "Terminated\nstatus %d\n" % TIMEOUT_TERM_STATUS
    lucid.run("bash -c true")  # bash's start-up lines in the log, out of the way
    assert lucid.run("bash -c 'busybox timeout 1 sleep 100; echo $?' 2>/dev/null",
                     timeout=60) == "%d\n" % TIMEOUT_TERM_STATUS


def test_background_of_a_subshell_runs_on(lucid):
    """Its subshell exits at once; the background job, an orphan, runs to its end. The shell
    waits on a FIFO the orphan opens last, not for a time a loaded host could outlast."""
    line = "mkfifo {f}; ( (sleep 1; echo ran; : > {f}) & ); read x < {f}; rm {f}; echo done"
    with tempfile.TemporaryDirectory() as tmp:
        want = on_host([BUSYBOX, "sh", "-c", line.format(f=os.path.join(tmp, "f"))])
    assert want == "ran\ndone\n", want
    lucid.run("bash -c true")  # bash's start-up lines in the log, out of the way
    for shell in ("sh", "bash"):
        assert lucid.run("%s -c '%s' 2>/dev/null" % (shell, line.format(f="/tmp/f")),
                         timeout=60) == want, shell
    # Reaped once it ended: no task of it is left, and ps does not show it.
    assert "sleep" not in lucid.run("ps")


def test_init_program_reaps_adopted_orphans():
    """With init=/bin/sh the orphans' parent is that shell (pid 1): its wait collects them."""
    k = Lucid.without_prompt("init=/bin/sh")
    try:
        k.expect("# ", 120)  # its prompt; the kernel's "Run ... as init process" is in the log
        # read is the orphan's own: /proc/self is the subshell that lost its parent. The shell
        # waits until the orphan is gone from /proc (reaped: a zombie is still there), then
        # counts what is left unreaped (the wait is the expect's, bounded).
        k.p.send("( (sleep 1; read pid comm state ppid rest < /proc/self/stat; echo ppid $ppid; "
                 "echo $pid > /tmp/orphan) & ); until [ -s /tmp/orphan ] && "
                 "[ ! -d /proc/$(cat /tmp/orphan) ]; do sleep 0.1; done; "
                 "echo zombies $(cat /proc/[0-9]*/stat | grep -c ') Z ')\r")
        k.expect(r"ppid 1\r?\n", 60)
        k.expect(r"zombies 0\r?\n", 60)
    finally:
        k.close()

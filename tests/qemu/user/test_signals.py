"""Signals as Linux x86_64 has them: the programs tests/user/sig*.c, built with
musl-gcc, print the same on the host's Linux and in Lucid; then bash's side of it: Ctrl-C
reaching a program's handler, kill -STOP and -CONT of a job.
"""
import difflib
import os
import re
import subprocess
import tempfile
import time

import test_syscalls
from lucid import default_signals, user_source


def fresh_process():
    """In the host's child before the exec: a group of its own, every signal at its default."""
    os.setpgrp()
    default_signals()


def on_linux(prog):
    """user/PROG.c's output on the host, run as the leader of a process group of its own, as
    Lucid's shell runs a command: its kill(0) must not reach the test. In the test's session,
    so that the group is not orphaned (SIGTSTP would be discarded there, as Linux does)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, prog)
        subprocess.run(["musl-gcc"] + test_syscalls.MUSL_CFLAGS +
                       [user_source(prog), "-o", exe], check=True)
        out = subprocess.run([exe], cwd=tmp, capture_output=True, text=True, timeout=120,
                             preexec_fn=fresh_process)
        assert out.returncode == 0, out.stderr
        return out.stdout


def same_as_linux(lucid, prog):
    want = on_linux(prog)
    last = lucid.run("dmesg | tail -n 1")
    got = test_syscalls.on_lucid(lucid, prog)
    # A child killed by a real fault has the kernel's one-line report, in the log (KERN_INFO,
    # as Linux's); the output must be the program's alone.
    reports = len(test_syscalls.SEGFAULT_LINE.findall(test_syscalls.new_log_lines(lucid, last)))
    assert not test_syscalls.SEGFAULT_LINE.search(got), got
    assert reports == got.count("killed by Segmentation fault"), got
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "linux", "lucid", lineterm="")
    assert got == want, "Lucid differs from Linux:\n" + "\n".join(diff)


def test_handlers_masks_and_the_signal_frame(lucid):
    # SA_SIGINFO/NODEFER/RESETHAND, sa_mask, sigprocmask/sigpending/sigsuspend, real-time
    # signals queued, standard ones merged, tkill/tgkill, rt_sigreturn's registers and FPU.
    same_as_linux(lucid, "sigbasic")


def test_sigchld_stop_continue_wait4_fork_exec(lucid):
    # Every default action, SIGSTOP/SIGTSTP/SIGCONT with WUNTRACED/WCONTINUED and SIGCHLD's
    # codes, SIGCHLD ignored, kill(0) and kill(-pgrp), what fork and exec keep.
    same_as_linux(lucid, "sigchld")


def test_waitid(lucid):
    # waitid(2) as Linux's: P_ALL, P_PID, P_PGID (0: ours), P_PIDFD and PIDFD_NONBLOCK's EAGAIN;
    # WEXITED, WSTOPPED, WCONTINUED, WNOHANG and WNOWAIT; the six siginfo fields it writes (and
    # the bytes it leaves), the rusage, the errors (tests/user/waitid.c).
    same_as_linux(lucid, "waitid")


def test_interrupted_calls_sigpipe_and_bad_frames(lucid):
    # EINTR or restart with SA_RESTART, nanosleep's time left and its restart after a stop,
    # SIGPIPE/EPIPE, a handler returning into garbage and a frame on a bad stack.
    same_as_linux(lucid, "sigintr")


def test_sigaltstack(lucid):
    # sigaltstack's answers (SS_DISABLE, SS_AUTODISARM, SS_ONSTACK, EPERM on it, ENOMEM below
    # MINSIGSTKSZ, EINVAL, EFAULT), SA_ONSTACK handlers on it, uc_stack, nested signals,
    # rt_sigreturn's uc_stack, fork/vfork keep it, a CLONE_VM thread and execve drop it, and a
    # stack overflow's SIGSEGV caught on it (without it, the process dies).
    same_as_linux(lucid, "altstack")


def test_ctrl_c_reaches_a_handler(lucid):
    # Ctrl-C is SIGINT to the job: a program with a handler runs it and exits with its own
    # status, as under bash (test_user's Ctrl-C tests: one without dies of it, 130).
    lucid.send_line("trapper")
    lucid.expect("waiting\r?\n", 30)
    lucid.p.send("\x03")
    out = lucid.expect_prompt(30)
    assert "caught Interrupt\n" in out, out
    assert lucid.status() == 3


JOBS_TRIES = 100  # `jobs` asked until bash has the job's new state (SIGCHLD, then its wait)
JOBS_WAIT = 0.1


def jobs_become(lucid, want):
    """bash learns of a job's stop or end from SIGCHLD, after the kill that caused it has
    returned: ask `jobs` until it says want. What bash printed meanwhile (its notices), joined.

    Each time, a program runs first: bash's wait for it reaps every child with news. The
    SIGCHLD alone is not enough: one that comes while bash prints a job notice is counted and
    never acted on (bash 5.2's notify_of_job_status), on Linux as here, so a `jobs` loop alone
    can wait for ever."""
    said = ""
    for _ in range(JOBS_TRIES):
        out = lucid.run("/bin/true; jobs")
        if out == want:
            return said
        said += out
        time.sleep(JOBS_WAIT)
    raise AssertionError("jobs still says %r, not %r" % (out, want))


def file_becomes(lucid, path, want):
    """The handler writes its line when it runs, after the kill returned: read until it has."""
    for _ in range(JOBS_TRIES):
        out = lucid.run("cat %s" % path)
        if out == want:
            return
        time.sleep(JOBS_WAIT)
    raise AssertionError("%s still holds %r, not %r" % (path, out, want))


def test_kill_stop_cont_jobs_fg_bg(lucid):
    lucid.run("trapper > /tmp/trapper.out &")
    # Its handlers are in place once "waiting" is written: a signal that came earlier would
    # find bash's forked child, or trapper before its sigaction.
    file_becomes(lucid, "/tmp/trapper.out", "waiting\n")
    lucid.run("kill -STOP %1")
    jobs_become(lucid, "[1]+  Stopped                 trapper > /tmp/trapper.out\n")
    ps = lucid.run("ps -o pid,ppid,user,stat,comm")
    assert re.search(r"^ +\d+ +%s +root +T +trapper$" % lucid.run("echo $$").strip(), ps,
                     re.M), ps
    # A signal sent to a stopped job waits for SIGCONT; then its handler runs.
    lucid.run("kill -USR1 %1; kill -CONT %1")
    jobs_become(lucid, "[1]+  Running                 trapper > /tmp/trapper.out &\n")
    file_becomes(lucid, "/tmp/trapper.out", "waiting\ncaught User defined signal 1\n")
    lucid.run("kill -TSTP %1")
    jobs_become(lucid, "[1]+  Stopped                 trapper > /tmp/trapper.out\n")
    out = lucid.run("bg")
    assert out == "[1]+ trapper > /tmp/trapper.out &\n", out
    jobs_become(lucid, "[1]+  Running                 trapper > /tmp/trapper.out &\n")
    # kill (SIGTERM) of a stopped job also continues it, as bash's: the handler exits 3. Not
    # `kill %1; wait %1`: bash marks the job running only when the continued child's SIGCHLD
    # comes, so a `wait` typed at once may still find it stopped (bash's race, on Linux too).
    lucid.run("kill -STOP %1")
    jobs_become(lucid, "[1]+  Stopped                 trapper > /tmp/trapper.out\n")
    said = lucid.run("kill %1")
    said += jobs_become(lucid, "")
    # "[1]+", "[1] " or "[1]-": bash marks it by when it learnt (while the /bin/true of
    # jobs_become is a job too, job 1 is the previous one)
    assert re.search(r"\[1\][+ -]  Exit 3 +trapper > /tmp/trapper.out\n$", said), said
    out = lucid.run("cat /tmp/trapper.out")
    assert out == "waiting\ncaught User defined signal 1\ncaught Terminated\n", out


def test_program_stopping_in_the_foreground(lucid):
    # A program that stops itself gives the prompt back, as bash's job control does; fg
    # continues it, and kill ends it even while stopped.
    assert lucid.run("trapper stop") == "\n[1]+  Stopped                 trapper stop\n"
    assert lucid.status() == 128 + 19
    assert lucid.run("jobs") == "[1]+  Stopped                 trapper stop\n"
    assert lucid.run("fg") == "trapper stop\ncontinued\n"
    assert lucid.status() == 0
    assert lucid.run("jobs") == ""
    assert lucid.run("trapper stop; echo next") == \
        "\n[1]+  Stopped                 trapper stop\nnext\n"
    said = lucid.run("kill -KILL %1")
    said += jobs_become(lucid, "")
    assert said.endswith("[1]+  Killed                  trapper stop\n"), said


def test_kill_names_every_signal(lucid):
    out = lucid.run("kill -l")
    assert out.startswith(" 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n"), out
    assert "31) SIGSYS\t34) SIGRTMIN\t35) SIGRTMIN+1\t" in out, out
    assert out.endswith("63) SIGRTMAX-1\t64) SIGRTMAX\t\n"), out
    out = lucid.run("kill -l 36; kill -l RTMAX-2; kill -l SIGSEGV; kill -l 139")
    assert out == "RTMIN+2\n62\n11\nSEGV\n", out
    # A program killed by a default action reports it; the shell lives.
    lucid.run("trapper > /tmp/trapper.out &")
    file_becomes(lucid, "/tmp/trapper.out", "waiting\n")  # exec'd: SIGQUIT at its default
    out = lucid.run("kill -QUIT %1; wait %1; echo $?")
    assert out == "[1]+  Quit                    trapper > /tmp/trapper.out\n131\n", out


STRESS_ROUNDS = 25  # per stopkill: 8 stops each; about 10 s on an idle host, 60 s loaded


def test_stopped_jobs_killed_under_load(lucid):
    # tests/user/stopkill: four at once, with two programs spinning, each stopping a job and killing
    # it as bash's `kill %1` does, hundreds of times; every stop, continue and death must reach
    # the parent's SIGCHLD handler. A stop sent just as the child went back into
    # clock_nanosleep was lost once (docs/design/signals.md, "No lost wakeups"). The program
    # passes on Linux too.
    assert on_linux("stopkill") == "stopkill: 100 rounds ok\n"
    # Each into a file of its own: four finishing at once would write the console together.
    lucid.run("sh -c 'spin & s1=$!; spin & s2=$!; for seed in 1 2 3 4; do "
              "stopkill %d $seed > /tmp/stopkill.$seed & pids=\"$pids $!\"; done; wait $pids; "
              "kill $s1 $s2'" % STRESS_ROUNDS, 600)
    out = lucid.run("cat /tmp/stopkill.1 /tmp/stopkill.2 /tmp/stopkill.3 /tmp/stopkill.4")
    assert out == "stopkill: %d rounds ok\n" % STRESS_ROUNDS * 4, out

"""Ctrl-C and job control: a signal reaches every task of a job.

Ctrl-C ends the whole foreground job at once, the threads its commands started included, as
bash's SIGINT to the process group does; kill, fg and bg control background jobs with bash's
messages and statuses (each expected output is what bash prints, with "bash:" as "sh:").
No wait asserts a speed: a command Ctrl-C failed to end would run for minutes or forever,
far beyond the timeouts here.
"""
import re
import time

# Run with no other test file beside it (tests/run_tests.py --jobs):
# stop, continue and kill of jobs: what arrives when.
ALONE = True

TRACING = "/sys/kernel/tracing"

# Each runs for a minute or more, or for ever: only Ctrl-C ends it within the timeout.
LONG_COMMANDS = [
    "sleep 60",
    "taskset -c 1 cat %s/trace_pipe" % TRACING,
    "taskset -c 1 yes > /dev/null",
    "run_test -t 8 -r 3000",
    "sleep 60 | cat",
    "sleep 5 | cat",
    "cat %s/trace_pipe | grep x" % TRACING,
    "taskset -c 1 sleep 60",
    "yes | taskset -c 1 cat > /dev/null",
    "taskset -c 0-1 run_test -t 8 -r 3000 | cat",
    "taskset -c 1 cat %s/trace_pipe | taskset -c 2 grep x | cat" % TRACING,
    "cat | cat | cat",
    "yes | grep y | cat > /dev/null",
    # Sources that never end and never block: only the reads' own check can stop them.
    "grep x /dev/zero",
    "wc -c /dev/zero",
    "cat /dev/zero | taskset -c 1 cksum",
    "ftest tick 10000",
]

# What each command leaves in `ps` while it runs (COMM): none may be left after Ctrl-C.
TASK_NAMES = ["sleep", "taskset", "cat", "yes", "run_test", "grep", "wc", "cksum", "ftest"]


def leftover_tasks(lucid):
    comms = [line.split()[-1] for line in lucid.run("ps").splitlines()[1:] if line.strip()]
    return [c for c in comms if c.split("/")[0] in TASK_NAMES]


def start(lucid, line):
    """Types line and waits until the shell has taken it (its echo), then a moment more."""
    lucid.send_line(line)
    lucid.expect(re.escape(line) + "\r\n", timeout=10)
    time.sleep(1)


def interrupt(lucid, timeout=30):
    lucid.p.send("\x03")
    return lucid.expect_prompt(timeout)


def test_ctrl_c_ends_every_long_command(lucid):
    for line in LONG_COMMANDS:
        start(lucid, line)
        out = interrupt(lucid)
        assert out.endswith("^C\n"), (line, out)
        assert lucid.status() == 130, line
        assert leftover_tasks(lucid) == [], (line, lucid.run("ps"))
    # Every trace_pipe reader let go: the tracer can change again.
    assert lucid.run("echo function > %s/current_tracer; echo $?" % TRACING) == "0\n"
    assert lucid.run("echo nop > %s/current_tracer; echo $?" % TRACING) == "0\n"


def test_ctrl_c_ends_the_line(lucid):
    """As bash: the rest of the line does not run after a Ctrl-C ended one of its jobs."""
    for line in ["sleep 60; echo hi", "sleep 60 || echo hi", "sleep 60 | cat; echo hi",
                 "cat; echo hi", "sleep 100 & fg; echo hi"]:
        start(lucid, line)
        out = interrupt(lucid)
        assert out.endswith("^C\n") and "hi" not in out, (line, out)
        assert lucid.status() == 130, line
    assert lucid.run("jobs") == ""
    # Ctrl-C in a builtin the shell runs itself (wait) is for the shell: the line ends there,
    # and the job waited for runs on.
    start(lucid, "sleep 100 & wait; echo hi")
    out = interrupt(lucid)
    assert out.endswith("^C\n") and "hi" not in out, out
    assert lucid.status() == 130
    assert lucid.run("jobs") == "[1]+  Running                 sleep 100\n"
    assert lucid.run("kill %1") == "[1]+  Terminated              sleep 100\n"
    assert lucid.run("echo hi") == "hi\n"


def test_ctrl_c_soon_and_twice(lucid):
    """Ctrl-C while a job is still starting its threads reaches them all; a second is harmless."""
    for _ in range(3):
        lucid.send_line("run_test -t 16 -r 3000 | cat")
        lucid.expect("run_test -t 16 -r 3000 \\| cat\r\n", timeout=10)
        time.sleep(0.05)  # after the shell took the line: a Ctrl-C before it is input
        lucid.p.send("\x03")
        lucid.expect_prompt(30)
        assert lucid.status() == 130
    start(lucid, "taskset -c 1 sleep 60")
    lucid.p.send("\x03\x03")
    lucid.expect_prompt(30)
    assert lucid.status() == 130
    assert leftover_tasks(lucid) == [], lucid.run("ps")


def test_messages_as_bash(lucid):
    usage = ("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or "
             "kill -l [sigspec]\n")
    cases = [
        ("kill %9", "sh: kill: %9: no such job\n", 1),
        ("kill %", "sh: kill: %: no such job\n", 1),
        ("kill %-", "sh: kill: %-: no such job\n", 1),
        ("fg", "sh: fg: current: no such job\n", 1),
        ("fg %5", "sh: fg: %5: no such job\n", 1),
        ("fg 1", "sh: fg: 1: no such job\n", 1),
        ("bg", "sh: bg: current: no such job\n", 1),
        ("bg %5", "sh: bg: %5: no such job\n", 1),
        ("kill 123456", "sh: kill: (123456) - No such process\n", 1),
        ("kill -- -99999", "sh: kill: (-99999) - No such process\n", 1),
        ("kill -int 99999", "sh: kill: (99999) - No such process\n", 1),
        ("kill -s TERM 99999", "sh: kill: (99999) - No such process\n", 1),
        ("kill -SIGTERM 99999", "sh: kill: (99999) - No such process\n", 1),
        ("kill", usage, 2),
        ("kill -9", usage, 2),
        ("kill -s TERM", usage, 2),
        ("kill abc", "sh: kill: abc: arguments must be process or job IDs\n", 1),
        ("kill -9 0x10", "sh: kill: 0x10: arguments must be process or job IDs\n", 1),
        ("kill 12abc", "sh: kill: 12abc: arguments must be process or job IDs\n", 1),
        ("kill -FOO 1", "sh: kill: FOO: invalid signal specification\n", 1),
        ("kill -99 1", "sh: kill: 99: invalid signal specification\n", 1),
        ("kill -n x 1", "sh: kill: x: invalid signal specification\n", 1),
        ("kill -s FOO 1", "sh: kill: FOO: invalid signal specification\n", 1),
        ("kill -s", "sh: kill: -s: option requires an argument\n", 1),
        ("kill -n", "sh: kill: -n: option requires an argument\n", 1),
        ("kill -l 15", "TERM\n", 0),
        ("kill -l TERM", "15\n", 0),
        ("kill -L 2", "INT\n", 0),
        ("kill -l 130", "INT\n", 0),
        ("kill -l 99", "sh: kill: 99: invalid signal specification\n", 1),
        ("wait %5", "sh: wait: %5: no such job\n", 127),
        ("wait 12345", "sh: wait: pid 12345 is not a child of this shell\n", 127),
        ("wait abc", "sh: wait: `abc': not a pid or valid job spec\n", 1),
        ("fg | cat", "sh: fg: no job control\n", 0),  # cat's status
        ("bg | cat", "sh: bg: no job control\n", 0),
    ]
    for line, out, status in cases:
        assert lucid.run(line) == out, line
        assert lucid.status() == status, line


def job_pid(out):
    m = re.match(r"^\[(\d+)\] (\d+)\n$", out)
    assert m, out
    return int(m.group(2))


def test_kill_ends_trace_pipe_reader(lucid):
    """`cat trace_pipe &` kept current_tracer busy until reboot: kill %1 lets it go."""
    job_pid(lucid.run("cat %s/trace_pipe &" % TRACING))
    assert lucid.run("echo function > %s/current_tracer" % TRACING) == \
        "sh: echo: write error: Device or resource busy\n"
    assert lucid.run("kill %1") == "[1]+  Terminated              cat %s/trace_pipe\n" % TRACING
    assert lucid.run("echo function > %s/current_tracer; echo $?" % TRACING) == "0\n"
    assert lucid.run("echo nop > %s/current_tracer" % TRACING) == ""
    # The same through taskset, killed by the PID `&` printed: its inner thread goes too.
    pid = job_pid(lucid.run("taskset -c 1 cat %s/trace_pipe &" % TRACING))
    out = lucid.run("kill %d; echo function > %s/current_tracer; echo $?" % (pid, TRACING))
    assert out == "0\n[1]+  Terminated              taskset -c 1 cat %s/trace_pipe\n" % TRACING
    lucid.run("echo nop > %s/current_tracer" % TRACING)
    assert leftover_tasks(lucid) == [], lucid.run("ps")


def test_kill_signals_and_statuses(lucid):
    """A killed job reports the signal as bash does; wait %N returns 128 + it."""
    for kill, state, status in [("kill -INT %1", "Interrupt", 130),
                                ("kill -s INT %1", "Interrupt", 130),
                                ("kill -KILL %1", "Killed", 137),
                                ("kill -9 %1", "Killed", 137),
                                ("kill -n 9 %%", "Killed", 137),
                                ("kill %1", "Terminated", 143),
                                ("kill -SIGTERM %+", "Terminated", 143),
                                ("kill -term %sleep", "Terminated", 143),
                                ("kill -15 %?100", "Terminated", 143)]:
        job_pid(lucid.run("sleep 100 &"))
        out = lucid.run("%s; wait %%1; echo $?" % kill)
        assert out == "[1]+  %-24ssleep 100\n%d\n" % (state, status), (kill, out)
    # kill -0 only asks whether the job exists.
    job_pid(lucid.run("sleep 100 &"))
    assert lucid.run("kill -0 %1; echo $?; jobs") == \
        "0\n[1]+  Running                 sleep 100\n"
    assert lucid.run("kill %1") == "[1]+  Terminated              sleep 100\n"
    assert lucid.run("jobs") == ""


def test_kill_pid_ends_one_command(lucid):
    """kill PID ends that command (and the threads it started), not the rest of its job."""
    pid = job_pid(lucid.run("sleep 100 | cat &"))  # bash prints the last command's pid
    assert lucid.run("kill %d; echo $?" % pid) == "0\n"
    assert lucid.run("jobs") == "[1]+  Running                 sleep 100 | cat\n"
    assert lucid.run("kill %1") == "[1]+  Terminated              sleep 100 | cat\n"
    # One worker of run_test ends the whole command: its workers are one thread group.
    job_pid(lucid.run("run_test -t 8 -r 100000 > /dev/null &"))
    deadline = time.monotonic() + 30  # run_test starts its workers a moment after the prompt
    while True:
        ps = lucid.run("ps")
        worker = [line.split()[0] for line in ps.splitlines() if line.endswith("run_test/3")]
        if worker or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert worker, ps
    out = lucid.run("kill -KILL %s; wait %%1; echo $?" % worker[0], timeout=60)
    assert out == "[1]+  Killed                  run_test -t 8 -r 100000 > /dev/null\n137\n"
    assert leftover_tasks(lucid) == [], lucid.run("ps")


def test_kill_several_and_ambiguous(lucid):
    job_pid(lucid.run("sleep 100 &"))
    job_pid(lucid.run("sleep 200 &"))
    assert lucid.run("kill -0 %sl") == "sh: kill: sl: ambiguous job spec\n"
    assert lucid.status() == 1
    assert lucid.run("kill -0 %?200; echo $?") == "0\n"
    assert lucid.run("bg %1") == "sh: bg: job 1 already in background\n"
    assert lucid.status() == 0
    assert lucid.run("bg %1 %3") == ("sh: bg: job 1 already in background\n"
                                     "sh: bg: %3: no such job\n")
    assert lucid.status() == 1
    # bash: the status is 0 if any operand could be signalled.
    out = lucid.run("kill %1 %2 %7")
    assert out == ("sh: kill: %7: no such job\n"
                   "[1]   Terminated              sleep 100\n"
                   "[2]+  Terminated              sleep 200\n"), out
    assert lucid.status() == 0
    assert lucid.run("kill %1 abc") == ("sh: kill: %1: no such job\n"
                                        "sh: kill: abc: arguments must be process or job IDs\n")
    assert lucid.status() == 1


def test_kernel_threads_ignore_kill(lucid):
    """As Linux's kernel threads: the shell and snapshotd take no signal, and carry on."""
    ps = lucid.run("ps")
    pids = [line.split()[0] for line in ps.splitlines() if line.split()[-1] in ("sh", "snapshotd")]
    assert len(pids) == 2, ps
    for pid in pids:
        assert lucid.run("kill -9 %s; echo $?" % pid) == "0\n"
    assert lucid.run("echo alive") == "alive\n"
    ps = lucid.run("ps")
    assert len([l for l in ps.splitlines() if l.split()[-1] in ("sh", "snapshotd")]) == 2, ps


def test_fg_and_ctrl_c(lucid):
    job_pid(lucid.run("sleep 100 | cat &"))
    job_pid(lucid.run("sleep 1 &"))
    # fg: the current job (the newest), which ends by itself: its status.
    assert lucid.run("fg", timeout=30) == "sleep 1\n"
    assert lucid.status() == 0
    assert lucid.run("jobs") == "[1]+  Running                 sleep 100 | cat\n"
    lucid.send_line("fg %1")
    lucid.expect("sleep 100 \\| cat\r\n", timeout=10)
    time.sleep(1)
    assert interrupt(lucid).endswith("^C\n")
    assert lucid.status() == 130
    assert lucid.run("jobs") == ""
    assert leftover_tasks(lucid) == [], lucid.run("ps")


def test_ctrl_c_in_wait_leaves_jobs_running(lucid):
    """Ctrl-C ends `wait`, not the jobs it waits for (they are not in the foreground)."""
    job_pid(lucid.run("taskset -c 1 cat %s/trace_pipe &" % TRACING))
    for line in ["wait", "wait %1"]:
        start(lucid, line)
        interrupt(lucid)
        assert lucid.status() == 130
        assert lucid.run("jobs") == \
            "[1]+  Running                 taskset -c 1 cat %s/trace_pipe\n" % TRACING
    out = lucid.run("kill -INT %1; echo $?")
    assert out == "0\n[1]+  Interrupt               taskset -c 1 cat %s/trace_pipe\n" % TRACING
    assert lucid.run("echo function > %s/current_tracer; echo $?" % TRACING) == "0\n"
    lucid.run("echo nop > %s/current_tracer" % TRACING)

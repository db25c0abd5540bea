"""Backtraces under function_graph name the callers, not the trampoline.

The graph tracer puts return_to_handler in the return slot of every function it hooks, so a
frame walk reads the trampoline where the caller was: sysrq t, an oops, the stack tracer, the
`stacktrace` trigger and function command each printed `ftrace_call+0x19/0x1a` (the byte
before return_to_handler) for every traced frame. Each now asks the task's return stack for
the real address (ftrace_graph_ret_addr, trace/fgraph.c), as Linux's unwinder does. Each test
here traces with function_graph and checks that no line names the trampoline and that the
callers a plain kernel shows are there, in order.
"""
import re

from lucid import Lucid
from tracefs import ok, sh
from test_dump_on_oops import console_text

T = "/sys/kernel/tracing"
LKDTM = "/sys/kernel/debug/provoke-crash/DIRECT"  # lkdtm's file, as Linux's
# A process asleep in a system call, as busybox's sleep is (nanosleep(2)), from the top.
SYSCALL = ["do_syscall_64", "entry_SYSCALL_64"]
# A sleep: busybox's sleep calls clock_nanosleep(2), which waits in do_nanosleep on its hrtimer,
# as Linux's (kernel/time/time.c).
NANOSLEEP = ["schedule", "do_nanosleep", "sys_clock_nanosleep"] + SYSCALL
TRAMPOLINE = re.compile(r"ftrace_call\+|return_to_handler|ftrace_caller\+")


def graph_on(k):
    ok(k, "cd %s; echo nop > current_tracer; echo > trace; echo function_graph > current_tracer"
       % T)


def graph_off(k):
    ok(k, "echo nop > current_tracer; echo > trace")


def names(frames):
    """The function names of backtrace lines (" name+0x1/0x2", "? name+..", "=> name")."""
    return [re.sub(r"^ *(\? |=> )?", "", f).split("+")[0].strip() for f in frames]


def in_order(got, want):
    """want appears in got in this order, each right after the one before."""
    for i in range(len(got) - len(want) + 1):
        if got[i:i + len(want)] == want:
            return True
    return False


def task_trace(lines, comm):
    """The Call Trace lines sysrq t printed for the first task named comm."""
    i = next(i for i, l in enumerate(lines) if re.match(r"task:%s +state:" % comm, l))
    assert lines[i + 1] == "Call Trace:", lines[i:i + 3]
    frames = []
    for l in lines[i + 2:]:
        if not l.startswith(" "):
            break
        frames.append(l)
    return frames


def test_sysrq_t(lucid):
    graph_on(lucid)
    lucid.run("sleep 60 &", timeout=60)
    # Written by a child while bash waits for it, so that bash, asleep in wait4, has a trace
    # too (a running task gets none); read back from the log, where sysrq writes. Until both
    # sleep: a loaded host may not have run them yet.
    for _ in range(30):
        out = lucid.run("(sleep 0.2; echo t > /proc/sysrq-trigger) & wait $!; dmesg", timeout=60)
        lines = console_text(out)
        i = len(lines) - 1 - lines[::-1].index("sysrq: Show State")
        lines = lines[i:]
        if all(any(re.match(r"task:%s +state:S " % comm, l) for l in lines)
               for comm in ["sleep", "bash"]):
            break
    lucid.run("kill %1; wait", timeout=60)
    graph_off(lucid)
    bad = [l for l in lines if TRAMPOLINE.search(l)]
    assert not bad, "\n".join(lines)
    sleeper = names(task_trace(lines, "sleep"))
    assert in_order(sleeper, ["__schedule"] + NANOSLEEP) and sleeper[-1] == SYSCALL[-1], sleeper
    shell = names(task_trace(lines, "bash"))
    # do_wait: the wait itself, as Linux's (wait4 and waitid share it)
    assert in_order(shell, ["schedule", "do_wait", "sys_wait4"] + SYSCALL) and \
        shell[-1] == SYSCALL[-1], shell


def test_oops():
    k = Lucid(cmdline="")
    try:
        assert k.run("test -w %s; echo $?" % LKDTM) == "0\n", "no " + LKDTM
        k.run("echo function_graph > %s/current_tracer" % T, timeout=60)
        k.send_line("echo NULL > %s" % LKDTM)
        status = k.wait_exit(120)
        out = k.tail(200000)
    finally:
        k.close()
    assert status == 3, out[-3000:]
    lines = console_text(out)
    i = lines.index("Call Trace:")
    frames = []
    for l in lines[i + 1:]:
        if not l.startswith(" "):
            break
        frames.append(l)
    assert not [f for f in frames if TRAMPOLINE.search(f)], frames
    # lkdtm's crash, in the write(2) of bash's echo, down to the system call's entry
    assert names(frames) == ["lkdtm_ACCESS_NULL", "lkdtm_do_action", "direct_entry",
                             "ksys_write", "do_syscall_64", "entry_SYSCALL_64"], frames


ROW = re.compile(r"^ *(\d+)\) +(\d+) +(\d+)   (\S+)\+0x[0-9a-f]+/0x[0-9a-f]+$")


def test_stack_tracer(lucid):
    graph_on(lucid)
    ok(lucid, "echo ftest_stack_deep > stack_trace_filter; echo 0 > stack_max_size")
    ok(lucid, "echo 1 > /proc/sys/kernel/stack_tracer_enabled")
    sh(lucid, "ftest stack")
    ok(lucid, "echo 0 > /proc/sys/kernel/stack_tracer_enabled")
    out = sh(lucid, "cat stack_trace").splitlines()
    ok(lucid, "echo > stack_trace_filter; echo 0 > stack_max_size")
    graph_off(lucid)
    rows = [ROW.match(l) for l in out[2:]]
    assert rows and all(rows), out
    got = [r.group(4) for r in rows]
    assert not [g for g in got if TRAMPOLINE.search(g)], out
    # The deepest entry: ftest_stack_deep called by itself, down from the ftest command, which
    # /bin/ftest's write(2) to /sys/kernel/debug/ftest runs.
    assert got[0] == "ftest_stack_deep" and got[1] == "ftest_stack_deep", out
    assert got[-4:] == ["cmd_ftest", "debugfs_cmd_write", "ksys_write", "do_syscall_64"], out


def stack_frames(trace):
    """The frame lines of the trace's stack events (" => name")."""
    return [l for l in trace.splitlines() if re.match(r"^ ?=> \S", l)]


def sleep_stack_is(lucid, off, want):
    """A sleep runs with the stack recording on; off turns it off. The stacks recorded are
    free of the graph's trampoline and hold want's functions in order."""
    # Tracing stops as the sleep ends: what bash does after it must not overwrite the stack
    # recorded (every function is traced: a loaded machine fills the buffer).
    sh(lucid, "sleep 0.1; echo 0 > tracing_on")
    ok(lucid, off)
    trace = sh(lucid, "cat trace", timeout=120)
    ok(lucid, "echo 1 > tracing_on")
    graph_off(lucid)
    frames = stack_frames(trace)
    assert frames, trace[-3000:]
    assert not [f for f in frames if TRAMPOLINE.search(f)], "\n".join(frames)
    assert in_order(names(frames), want), "\n".join(frames)


def test_stacktrace_trigger(lucid):
    graph_on(lucid)
    ok(lucid, "echo 'stacktrace if prev_comm == \"sleep\"' > "
              "events/sched/sched_switch/trigger")
    sleep_stack_is(lucid, "echo '!stacktrace' > events/sched/sched_switch/trigger", NANOSLEEP)


def test_stacktrace_command(lucid):
    graph_on(lucid)
    # hrtimer_init_sleeper: called by do_nanosleep alone, once a sleep.
    ok(lucid, "echo nop > current_tracer; echo 'hrtimer_init_sleeper:stacktrace' > "
              "set_ftrace_filter; echo function_graph > current_tracer")
    sleep_stack_is(lucid, "echo '!hrtimer_init_sleeper:stacktrace' > set_ftrace_filter",
                   ["hrtimer_init_sleeper"] + NANOSLEEP[1:])


def test_func_stack_trace_with_profiler(lucid):
    # func_stack_trace is the function tracer's; the function profiler hooks returns through
    # the graph trampoline meanwhile, so the function tracer's stacks cross hooked frames.
    ok(lucid, "cd %s; echo nop > current_tracer; echo > trace" % T)
    ok(lucid, "echo hrtimer_init_sleeper > set_ftrace_filter; echo function > current_tracer")
    ok(lucid, "echo 1 > function_profile_enabled; echo 1 > options/func_stack_trace")
    sh(lucid, "sleep 0.1")
    ok(lucid, "echo 0 > options/func_stack_trace; echo 0 > function_profile_enabled")
    trace = sh(lucid, "cat trace", timeout=120)
    ok(lucid, "echo nop > current_tracer; echo > set_ftrace_filter; echo > trace")
    frames = stack_frames(trace)
    assert frames, trace[-3000:]
    assert not [f for f in frames if TRAMPOLINE.search(f)], "\n".join(frames)
    assert in_order(names(frames), NANOSLEEP[1:]), "\n".join(frames)

"""Event triggers from the shell (trace/trace_events_trigger.c): Linux's file, lines and errors.

Each event that can be enabled has events/SYSTEM/EVENT/trigger. With no trigger it reads
Linux's help (the commands Lucid registers, in Linux's order); a trigger is listed as Linux
prints it ("traceoff:count=3", "stacktrace:unlimited if prev_state & 3"), newest first. A
trigger holds its event's probe in soft mode (enable reads "0*"), enable_event/disable_event
switch their target's records, and each command does its work when its event happens and its
filter keeps the record: traceoff and traceon switch tracing_on, stacktrace records the stack,
snapshot takes one. trace-cmd profile, which writes "stacktrace" there, now finds the file.
"""
import re

from tracefs import (EEXIST, EINVAL, ENOENT, ERANGE, T, fails, modes, ok, reset_tracing, sh,
                     until_reads)

# Heavy, triggers set and cleared while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

BOOT = {"timeout": 120}

HELP = ("# Available triggers:\n"
        "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist"
        " disable_hist hist\n")
EXEC = "events/sched/sched_process_exec/"  # hit only by exec: never by bash's builtins
STACK_FRAME = re.compile(r"^ => \S+$")


def cat(k, name, timeout=60):
    """A tracing file's text, read by bash itself (mapfile, a builtin): busybox's cat would be
    an exec, and fire the exec triggers these tests count."""
    return sh(k, 'mapfile a < %s/%s; printf %%s "${a[@]}"' % (T, name), timeout)


def clean(k):
    """Every trigger this file sets is removed by its test; check that none is left."""
    for ev in ["sched/sched_process_exec", "sched/sched_switch", "sched/sched_wakeup"]:
        assert cat(k, "events/%s/trigger" % ev) == HELP, ev
        assert cat(k, "events/%s/enable" % ev) == "0\n", ev


def test_trigger_files_as_linux(lucid):
    reset_tracing(lucid)
    # Every event that can be enabled has one, reading Linux's help; events/ftrace/ has none.
    events = cat(lucid, "available_events").splitlines()
    assert len(events) > 100, events
    for i in range(0, len(events), 40):  # a shell line holds 4 KiB
        some = events[i:i + 40]
        out = sh(lucid, "cat " + " ".join("events/%s/trigger" % e.replace(":", "/") for e in some))
        assert out == HELP * len(some), out[:500]
    files = modes(lucid, EXEC)
    assert files["trigger"] == "-rw-r-----", files
    assert sh(lucid, "ls -1 events/ftrace/function").split() == ["format", "hist", "id"]
    assert "trigger" in cat(lucid, "README")


def test_lines_byte_for_byte(lucid):
    reset_tracing(lucid)
    t = EXEC + "trigger"
    ok(lucid, "echo 'traceoff:3' > " + t)
    assert cat(lucid, t) == "traceoff:count=3\n"
    assert cat(lucid, EXEC + "enable") == "0*\n"  # soft mode, its records dropped
    # ">" adds too (Linux clears only hist triggers on O_TRUNC); the newest comes first.
    ok(lucid, "echo 'stacktrace if pid == 1' > " + t)
    ok(lucid, "echo 'enable_event:sched:sched_wakeup:2 if old_pid > 5' >> " + t)
    ok(lucid, "echo snapshot >> " + t)
    assert cat(lucid, t) == ("snapshot:unlimited\n"
                             "enable_event:sched:sched_wakeup:count=2 if old_pid > 5\n"
                             "stacktrace:unlimited if pid == 1\n"
                             "traceoff:count=3\n")
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "0*\n"
    # Linux lists the events whose probe is attached, soft-disabled ones too.
    assert cat(lucid, "set_event") == "sched:sched_process_exec\nsched:sched_wakeup\n"
    # One trigger of a kind: traceon and traceoff are one kind, as in Linux.
    fails(lucid, "echo traceon >> " + t, EEXIST)
    fails(lucid, "echo 'disable_event:sched:sched_wakeup' >> " + t, EEXIST)
    ok(lucid, "echo 'enable_event:sched:sched_switch' >> " + t)  # another target: fine
    # The user's enable records, and the '*' stays while a trigger holds the event.
    ok(lucid, "echo 1 > %senable" % EXEC)
    assert cat(lucid, EXEC + "enable") == "1*\n"
    ok(lucid, "echo 0 > %senable" % EXEC)
    assert cat(lucid, EXEC + "enable") == "0*\n"
    # Removed as listed, '!' in front (what trace-cmd does); a count or filter is not read.
    for line in cat(lucid, t).splitlines():
        ok(lucid, "echo '!%s' >> %s" % (line, t))
    assert cat(lucid, t) == HELP
    ok(lucid, "echo '!traceoff' >> " + t)  # none left: no error, as Linux
    assert cat(lucid, "set_event") == ""
    clean(lucid)


def test_bad_writes_change_nothing(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 0 > snapshot")
    t = EXEC + "trigger"
    for cmd, err in [("echo > %s", EINVAL),                 # no command: Linux's EINVAL
                     ("echo nosuch > %s", EINVAL),
                     ("echo 'traceon:abc' > %s", EINVAL),
                     ("echo 'traceon junk' > %s", EINVAL),
                     ("echo 'traceon if' > %s", EINVAL),
                     ("echo 'traceon:99999999999999999999999' > %s", ERANGE),
                     ("echo 'traceon if nosuch == 1' > %s", EINVAL),
                     ("echo 'traceon if pid = 1' > %s", EINVAL),
                     ("echo 'traceon if (pid == 1' > %s", ENOENT),  # the filter's own errno
                     ("echo enable_event > %s", EINVAL),
                     ("echo 'enable_event:sched' > %s", EINVAL),
                     ("echo 'enable_event:sched:nosuch' > %s", EINVAL),
                     ("echo 'enable_event:ftrace:function' > %s", EINVAL),
                     ("echo '!enable_event:sched:nosuch' > %s", EINVAL),
                     ("echo 'snapshot if nosuch == 1' > %s", EINVAL)]:
        fails(lucid, cmd % t, err)
        assert cat(lucid, t) == HELP, cmd
        assert cat(lucid, EXEC + "enable") == "0\n", cmd
    assert cat(lucid, "set_event") == ""
    # A refused snapshot trigger did not even allocate the snapshot buffer.
    assert "# * Snapshot is freed *" in cat(lucid, "snapshot")
    clean(lucid)


def hello(k):
    """Runs /bin/hello: one exec, of a file name the filters below look for."""
    out = sh(k, "hello", timeout=60)
    assert out == "Hello, world!\n", out


def test_traceoff_and_traceon(lucid):
    reset_tracing(lucid)
    t = EXEC + "trigger"
    ok(lucid, "echo 1 > %senable" % EXEC)
    ok(lucid, "echo 'traceoff if filename ~ \"*hello*\"' > " + t)
    ok(lucid, "echo > trace")
    assert cat(lucid, "tracing_on") == "1\n"
    hello(lucid)
    assert cat(lucid, "tracing_on") == "0\n"
    # traceoff runs after its record: the exec that stopped tracing is the trace's last word.
    execs = [l for l in cat(lucid, "trace").splitlines() if not l.startswith("#")]
    assert len(execs) == 1 and "sched_process_exec: filename=/bin/hello" in execs[0], execs
    ok(lucid, "echo '!traceoff' > " + t)

    # traceon with a count: it counts only when it turned tracing on.
    ok(lucid, "echo 'traceon:1 if filename ~ \"*hello*\"' > " + t)
    ok(lucid, "echo 1 > tracing_on")
    hello(lucid)  # on already: nothing done, no count used
    assert cat(lucid, t) == "traceon:count=1 if filename ~ \"*hello*\"\n"
    ok(lucid, "echo 0 > tracing_on")
    hello(lucid)
    assert cat(lucid, "tracing_on") == "1\n"
    assert cat(lucid, t) == "traceon:count=0 if filename ~ \"*hello*\"\n"
    ok(lucid, "echo 0 > tracing_on")
    hello(lucid)
    assert cat(lucid, "tracing_on") == "0\n"  # used up
    ok(lucid, "echo '!traceon' > " + t)
    ok(lucid, "echo 0 > %senable" % EXEC)
    ok(lucid, "echo 1 > tracing_on")
    clean(lucid)


def test_stacktrace_on_a_soft_disabled_event(lucid):
    # What trace-cmd profile asks for: the stack of each switch away from a sleeping task.
    reset_tracing(lucid)
    t = "events/sched/sched_switch/trigger"
    ok(lucid, "echo 'stacktrace:5 if prev_state & 3' > " + t)
    assert cat(lucid, "events/sched/sched_switch/enable") == "0*\n"
    sh(lucid, "run_test", timeout=120)
    ok(lucid, "echo '!stacktrace' > " + t)
    assert cat(lucid, t) == HELP
    out = cat(lucid, "trace")
    lines = [l for l in out.splitlines() if not l.startswith("#")]
    stacks = [l for l in lines if l.endswith("<stack trace>")]
    assert len(stacks) == 5, out[-3000:]  # the count: five, then no more
    assert "sched_switch:" not in out  # soft disabled: the event itself is not recorded
    assert all(STACK_FRAME.match(l) or l.endswith("<stack trace>") for l in lines), lines[:20]
    # From the probe outwards: the scheduler, and no frame of the trigger code.
    assert " => schedule" in out or " => __schedule" in out, out[-3000:]
    assert "event_triggers_post_call" not in out and "stacktrace_trigger" not in out, out[-3000:]
    clean(lucid)


def test_enable_and_disable_event(lucid):
    reset_tracing(lucid)
    t = EXEC + "trigger"
    # run_test is a program too: the filter keeps its exec from firing the trigger.
    ok(lucid, "echo 'enable_event:sched:sched_wakeup:1 if filename ~ \"*hello*\"' > " + t)
    ok(lucid, "echo > trace")
    sh(lucid, "run_test", timeout=120)
    assert "sched_wakeup:" not in cat(lucid, "trace")  # soft disabled until the exec
    assert cat(lucid, t) == "enable_event:sched:sched_wakeup:count=1 if filename ~ \"*hello*\"\n"
    hello(lucid)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "1*\n"
    assert cat(lucid, t) == "enable_event:sched:sched_wakeup:count=0 if filename ~ \"*hello*\"\n"
    sh(lucid, "run_test", timeout=120)
    assert "sched_wakeup:" in cat(lucid, "trace")
    # disable_event turns it back off; with the last hold gone the event is as they left it.
    ok(lucid, "echo '!enable_event:sched:sched_wakeup' > " + t)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "1\n"
    ok(lucid, "echo 'disable_event:sched:sched_wakeup' > " + t)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "1*\n"
    hello(lucid)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "0*\n"
    ok(lucid, "echo > trace")
    sh(lucid, "run_test", timeout=120)
    assert "sched_wakeup:" not in cat(lucid, "trace")
    ok(lucid, "echo '!disable_event:sched:sched_wakeup' > " + t)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "0\n"
    assert cat(lucid, "set_event") == ""
    clean(lucid)


def test_trigger_in_interrupt_context(lucid):
    # Every key typed on the console is an interrupt of ttyS0, IRQ 4: the next line typed
    # after the trigger is set stops tracing from inside the interrupt handler's event.
    reset_tracing(lucid)
    t = "events/irq/irq_handler_entry/trigger"
    ok(lucid, "echo 'traceoff if irq == 4' > " + t)
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo '!traceoff' > " + t)
    ok(lucid, "echo 1 > tracing_on")
    # A count in interrupt context: the stacks of three interrupts (flags d.h: irqs off, in a
    # hard interrupt), no more.
    ok(lucid, "echo 'stacktrace:3 if irq == 4' > " + t)
    ok(lucid, "echo '!stacktrace' > " + t)
    stacks = [l for l in cat(lucid, "trace").splitlines() if l.endswith("<stack trace>")]
    assert len(stacks) == 3 and all(re.search(r"\] d[.Nnp]h", l) for l in stacks), stacks
    clean(lucid)


def test_triggers_come_and_go_under_load(lucid):
    # Added and removed while run_test's threads switch on every CPU: each probe walks the
    # list without a lock, and a removed trigger is freed only once no probe can be on it.
    reset_tracing(lucid)
    t = "events/sched/sched_switch/trigger"
    sh(lucid, "run_test -r 600 > /dev/null &")
    for i in range(8):
        for cmd in ["echo 'stacktrace:%d if prev_state & 3' > %s" % (i + 1, t),
                    "echo 'enable_event:sched:sched_wakeup if next_pid > 0' >> " + t,
                    "echo '!stacktrace' > " + t,
                    "echo '!enable_event:sched:sched_wakeup' > " + t]:
            # The status, then perhaps bash's word that run_test is done, before its prompt:
            # after whichever command the job ended in, the status read by the same line.
            out = sh(lucid, cmd + "; echo status=$?")
            assert re.fullmatch(r"status=0\n(\[1\]\+ +Done +run_test[^\n]*\n)?", out), (cmd, out)
    sh(lucid, "wait", timeout=600)
    assert cat(lucid, t) == HELP
    ok(lucid, "echo 0 > events/sched/sched_wakeup/enable")
    clean(lucid)


def test_snapshot(lucid):
    reset_tracing(lucid)
    t = EXEC + "trigger"
    ok(lucid, "echo 1 > events/sched/sched_switch/enable")
    ok(lucid, "echo 'snapshot:1 if filename ~ \"*hello*\"' > " + t)
    hello(lucid)
    # The swap is made from task context, after the next tick: then recording again, in the
    # fresh buffer.
    assert until_reads(lucid, "tracing_on") == "1\n"
    assert cat(lucid, t) == "snapshot:count=0 if filename ~ \"*hello*\"\n"
    assert "sched_switch:" in cat(lucid, "snapshot")
    ok(lucid, "echo '!snapshot' > " + t)
    ok(lucid, "echo 0 > events/sched/sched_switch/enable")
    ok(lucid, "echo 0 > snapshot")
    clean(lucid)


def test_trace_cmd_profile_finds_the_file(lucid):
    reset_tracing(lucid)
    out = sh(lucid, "cd /tmp; trace-cmd profile -F /opt/dyn/hello; echo status=$?", timeout=300)
    ok(lucid, "cd %s" % T)
    assert "trigger: No such file or directory" not in out, out[-2000:]
    assert "hello, dynamic world" in out and "status=0" in out, out[-2000:]
    reset_tracing(lucid)
    for ev in ["sched/sched_switch", "sched/sched_wakeup"]:
        assert cat(lucid, "events/%s/trigger" % ev) == HELP, cat(lucid, "events/%s/trigger" % ev)

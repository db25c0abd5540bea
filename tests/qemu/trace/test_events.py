"""Trace events from the shell: events/, set_event, available_events, the sched_switch tracer.

Lines are checked against Linux's formats (../shared/reference/ftrace-formats.md section 3.7
and linux-6.1/*.txt) by exact regexes, and for what they must mean: on each CPU a switch
starts from the task the previous switch went to; a wakeup names a CPU that exists; an
interrupt's entry and exit come in pairs. Every test starts with all events off, the nop
tracer and an empty buffer (reset_tracing()). The raw records behind the format files are checked
on the host (tests/unit/test_trace_events.c); here the files themselves, and what trace-cmd's
own parser (libtraceevent, through ctypes) makes of them.
"""
import ctypes
import re
import struct

from tracefs import (COMMON_FIELDS, EINVAL, T, TRACE_EVENT_LINE, cat, fails, modes,  # noqa: F401
                     ncpus, ok, reset_tracing, sh)

EVENTS = ["exceptions:page_fault_kernel", "exceptions:page_fault_user",
          "irq:irq_handler_entry", "irq:irq_handler_exit", "preemptirq:irq_disable",
          "preemptirq:irq_enable", "preemptirq:preempt_disable", "preemptirq:preempt_enable",
          "raw_syscalls:sys_enter",
          "raw_syscalls:sys_exit", "sched:sched_process_exec", "sched:sched_process_exit",
          "sched:sched_process_fork", "sched:sched_process_wait", "sched:sched_switch",
          "sched:sched_wakeup", "sched:sched_wakeup_new"]
# The events (test_linux_events.py checks them): with EVENTS, every static event,
# in available_events' order (system, then name).
NEW_EVENTS = ["kmem:kfree", "kmem:kmalloc", "kmem:mm_page_alloc", "kmem:mm_page_free",
              "module:module_free", "module:module_get", "module:module_load",
              "module:module_put", "sched:sched_migrate_task", "sched:sched_process_free",
              "sched:sched_waking", "signal:signal_deliver", "signal:signal_generate",
              "task:task_newtask", "task:task_rename", "timer:hrtimer_cancel",
              "timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit", "timer:hrtimer_start"]
# The osnoise and timerlat tracers' (test_osnoise.py checks them).
OSNOISE_EVENTS = ["osnoise:irq_noise", "osnoise:nmi_noise", "osnoise:sample_threshold",
                  "osnoise:softirq_noise", "osnoise:thread_noise"]
ALL_EVENTS = sorted(EVENTS + NEW_EVENTS + OSNOISE_EVENTS, key=lambda e: e.split(":"))

# "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + "name: " + the event's text
COMM = r"[^ ]{1,15}"
BODY = {
    "sched_switch": re.compile(
        r"^prev_comm=(?P<prev_comm>%s) prev_pid=(?P<prev_pid>\d+) prev_prio=120 "
        r"prev_state=(?P<prev_state>R\+?|S|D|Z) ==> next_comm=(?P<next_comm>%s) "
        r"next_pid=(?P<next_pid>\d+) next_prio=120$" % (COMM, COMM)),
    "sched_wakeup": re.compile(r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120 "
                               r"target_cpu=(?P<target_cpu>\d{3})$" % COMM),
    "sched_wakeup_new": re.compile(r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120 "
                                   r"target_cpu=(?P<target_cpu>\d{3})$" % COMM),
    "sched_process_exit": re.compile(
        r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120$" % COMM),
    "sched_process_fork": re.compile(
        r"^comm=(?P<parent_comm>%s) pid=(?P<parent_pid>\d+) child_comm=(?P<child_comm>%s) "
        r"child_pid=(?P<child_pid>\d+)$" % (COMM, COMM)),
    "sched_process_exec": re.compile(
        r"^filename=(?P<filename>/\S+) pid=(?P<exec_pid>\d+) old_pid=(?P<old_pid>\d+)$"),
    "sched_process_wait": re.compile(
        r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120$" % COMM),
    "sched_waking": re.compile(r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120 "
                               r"target_cpu=(?P<target_cpu>\d{3})$" % COMM),
    "sched_process_free": re.compile(
        r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120$" % COMM),
    "sched_migrate_task": re.compile(
        r"^comm=(?P<task_comm>%s) pid=(?P<task_pid>\d+) prio=120 orig_cpu=(?P<orig_cpu>\d+) "
        r"dest_cpu=(?P<dest_cpu>\d+)$" % COMM),
    "page_fault_user": re.compile(
        r"^address=0x[0-9a-f]+ ip=0x[0-9a-f]+ error_code=0x[0-9a-f]+$"),
    "page_fault_kernel": re.compile(
        r"^address=(0x[0-9a-f]+|\w+) ip=(0x[0-9a-f]+|\w+) error_code=0x[0-9a-f]+$"),
    "irq_handler_entry": re.compile(r"^irq=4 name=ttyS0$"),
    "irq_handler_exit": re.compile(r"^irq=4 ret=handled$"),
    "sys_enter": re.compile(r"^NR (?P<nr>\d+) \((?:[0-9a-f]+, ){5}[0-9a-f]+\)$"),
    # NR -1: the return from a signal handler (rt_sigreturn leaves orig_ax -1, as on Linux);
    # bash takes SIGCHLD in a handler.
    "sys_exit": re.compile(r"^NR (?P<nr>-?\d+) = -?\d+$"),
}

# What Linux 6.1 printed (linux-6.1/sched_switch_format.txt, sched_wakeup_format.txt), the ID
# left out: ids are given at boot.
REPORT = ("(0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
          "0x00000020 | 0x00000040)")
SCHED_SWITCH_FORMAT = (
    "name: sched_switch\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
    "next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
    "(REC->prev_state & (((" + REPORT + " + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
    "(((" + REPORT + " + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, "
    "{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
    "{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & ((" + REPORT +
    " + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n")
SCHED_WAKEUP_FORMAT = (
    "name: sched_wakeup\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "
    "REC->target_cpu\n")
FIELD = re.compile(r"^\tfield:(?P<decl>[^;]+);\toffset:(?P<offset>\d+);\tsize:(?P<size>\d+);"
                   r"\tsigned:(?P<signed>[01]);$")
TRACE_LAST_TYPE = 20  # trace/trace_entries.h: ids of events come after the fixed types


def events_of(k):
    """The trace's event lines, parsed; fails on any line that is not an event of ours."""
    out = cat(k, "trace", timeout=60)
    lines = [l for l in out.splitlines() if not l.startswith("#")]
    events = []
    for line in lines:
        m = TRACE_EVENT_LINE.match(line)
        assert m, "not an event line: %r" % line
        b = BODY[m.group("event")].match(m.group("body"))
        assert b, "bad %s line: %r" % (m.group("event"), line)
        e = dict(m.groupdict(), **b.groupdict())  # the prefix's comm/pid/cpu, the body's
        e["line"] = line
        events.append(e)
    return events


def check_switch_chains(switches, cpus):
    """On each CPU, every switch starts from the task the previous one switched to."""
    last = {}
    for e in switches:
        cpu = int(e["cpu"])
        assert cpu < cpus, e["line"]
        # Recorded by the task switched away from, in its context.
        assert int(e["pid"]) == int(e["prev_pid"]), e["line"]
        for who in ["prev", "next"]:
            if e[who + "_pid"] == "0":
                assert e[who + "_comm"] == "swapper/%d" % cpu, e["line"]
            else:
                assert not e[who + "_comm"].startswith("swapper"), e["line"]
        if e["prev_pid"] == "0":
            assert e["comm"].strip() == "<idle>" and e["prev_state"] == "R", e["line"]
        else:
            # The line's name is the one saved_cmdlines holds when the trace is read: a child
            # of bash recorded before its exec shows under the program's name, as on Linux.
            assert e["comm"].strip() in (e["prev_comm"], "<...>") or e["prev_comm"] == "bash", \
                e["line"]
        assert "d" == e["flags"][0], e["line"]  # the scheduler switches with interrupts off
        if cpu in last:
            prev = last[cpu]
            # The same task; its name too, unless it ran a program meanwhile: a child bash
            # forked for a command is "bash" until its exec names it after the program.
            assert prev["next_pid"] == e["prev_pid"] and (
                prev["next_comm"] == e["prev_comm"] or prev["next_comm"] == "bash"), \
                "CPU %d: %r then %r" % (cpu, prev["line"], e["line"])
        last[cpu] = e
    return last


# --- the files ---------------------------------------------------------------------------------


def test_files_and_modes(lucid):
    reset_tracing(lucid)
    top = modes(lucid, T)
    assert top.get("available_events") == "-r--r-----", top
    assert top.get("set_event") == "-rw-r-----", top
    assert top.get("events", "").startswith("d"), top
    assert sh(lucid, "ls -1 events").split() == [
        "enable", "exceptions", "ftrace", "header_event", "header_page", "irq", "kmem", "module",
        "osnoise", "preemptirq", "raw_syscalls", "sched", "signal", "syscalls", "task", "timer"]
    assert sh(lucid, "ls -1 events/sched").split() == [
        "enable", "filter", "sched_migrate_task", "sched_process_exec", "sched_process_exit",
        "sched_process_fork", "sched_process_free", "sched_process_wait", "sched_switch",
        "sched_wakeup", "sched_wakeup_new", "sched_waking"]
    assert sh(lucid, "ls -1 events/irq").split() == [
        "enable", "filter", "irq_handler_entry", "irq_handler_exit"]
    for ev in ALL_EVENTS:
        d = "events/" + ev.replace(":", "/")
        got = modes(lucid, d)
        assert got == {"enable": "-rw-r-----", "filter": "-rw-r-----", "format": "-r--r-----",
                       "hist": "-r--r-----", "id": "-r--r-----", "trigger": "-rw-r-----"}, (d, got)
        assert cat(lucid, d + "/enable") == "0\n"
    for d in ["events", "events/sched", "events/irq"]:
        assert cat(lucid, d + "/enable") == "0\n", d
    # Sorted by system, then name; the others are syscalls:* (test_syscall_events.py's).
    avail = cat(lucid, "available_events").splitlines()
    assert [e for e in avail if not e.startswith("syscalls:")] == ALL_EVENTS, avail
    assert avail == sorted(avail, key=lambda e: e.split(":")), avail
    # Root opens them for writing, as on Linux; having no write operation, they refuse it.
    assert "write error: Invalid argument" in sh(lucid, "echo 1 > available_events")
    assert "write error: Invalid argument" in sh(lucid, "echo 1 > events/sched/sched_switch/format")
    assert "write error: Invalid argument" in sh(lucid, "echo 1 > events/sched/sched_switch/id")
    assert "available_events" in cat(lucid, "README")


def test_format_files(lucid):
    reset_tracing(lucid)
    ids = {}
    for ev in EVENTS:
        system, name = ev.split(":")
        d = "events/%s/%s" % (system, name)
        text = cat(lucid, d + "/format")
        ident = int(cat(lucid, d + "/id"))
        assert ident > TRACE_LAST_TYPE, (ev, ident)
        ids[ev] = ident
        lines = text.split("\n")
        assert lines[:3] == ["name: " + name, "ID: %d" % ident, "format:"], text
        assert "\n".join(lines[3:7]) + "\n" == COMMON_FIELDS, text
        assert lines[7] == "", text
        end = 0
        i = 8
        while lines[i]:
            m = FIELD.match(lines[i])
            assert m, lines[i]
            off, size = int(m.group("offset")), int(m.group("size"))
            decl = m.group("decl")
            assert off >= 8 and off >= end, text  # after the header, in order, no overlap
            if decl.startswith("__data_loc "):
                assert size == 4 and off % 4 == 0, decl
            elif "[" in decl:
                n = int(re.search(r"\[(\d+)\]$", decl).group(1))
                elem = 8 if re.search(r"\blong\b", decl) else 1  # args[6] of raw_syscalls
                assert size == n * elem, decl  # char arrays, long arrays
            else:
                assert size in (1, 2, 4, 8) and off % size == 0, decl  # naturally aligned
            end = off + size
            i += 1
        assert i > 8, text  # at least one field of its own
        assert lines[i + 1].startswith('print fmt: "') and lines[i + 2:] == [""], text
    assert len(set(ids.values())) == len(EVENTS), ids
    assert cat(lucid, "events/sched/sched_switch/format") == \
        SCHED_SWITCH_FORMAT.replace("{id}", str(ids["sched:sched_switch"]))
    assert cat(lucid, "events/sched/sched_wakeup/format") == \
        SCHED_WAKEUP_FORMAT.replace("{id}", str(ids["sched:sched_wakeup"]))
    # sched_wakeup_new is the same record and line as sched_wakeup.
    new = cat(lucid, "events/sched/sched_wakeup_new/format")
    assert new == SCHED_WAKEUP_FORMAT.replace("sched_wakeup", "sched_wakeup_new").replace(
        "{id}", str(ids["sched:sched_wakeup_new"]))


# --- recording ---------------------------------------------------------------------------------


def test_sched_switch_event(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/sched/sched_switch/enable")
    assert cat(lucid, "events/sched/sched_switch/enable") == "1\n"
    assert cat(lucid, "events/sched/enable") == "X\n"
    assert cat(lucid, "events/enable") == "X\n"
    assert cat(lucid, "events/irq/enable") == "0\n"
    assert cat(lucid, "set_event") == "sched:sched_switch\n"
    out = sh(lucid, "run_test -t 4 -r 5", timeout=60)
    assert out.endswith(" ok\n"), out
    ok(lucid, "echo 0 > events/sched/sched_switch/enable")
    assert cat(lucid, "events/sched/enable") == "0\n"
    events = events_of(lucid)
    assert {e["event"] for e in events} == {"sched_switch"}
    last = check_switch_chains(events, ncpus(lucid))
    comms = {e["next_comm"] for e in events}
    assert {"run_test/%d" % i for i in range(4)} <= comms, comms
    # The shell's writes were all recorded: it ran on some CPU when it disabled the event.
    assert any(e["prev_comm"] == "bash" for e in events)
    assert any(e["prev_state"] == "S" or e["prev_state"] == "D" for e in events)
    assert len(last) >= 2, "switches on %d CPU(s) only" % len(last)
    # Off means off: nothing more is recorded.
    ok(lucid, "echo > trace")
    sh(lucid, "run_test -t 4 -r 2", timeout=60)
    events = events_of(lucid)
    assert events == [], events[:3]


def test_sched_events_together(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'sched:*' > set_event")
    assert cat(lucid, "set_event") == "".join(e + "\n" for e in ALL_EVENTS
                                              if e.startswith("sched"))
    assert cat(lucid, "events/sched/enable") == "1\n"
    assert cat(lucid, "events/enable") == "X\n"
    out = sh(lucid, "run_test -t 4 -r 5", timeout=60)
    assert out.endswith(" ok\n"), out
    ok(lucid, "echo '!*:*' >> set_event")
    assert cat(lucid, "events/enable") == "0\n"
    events = events_of(lucid)
    cpus = ncpus(lucid)
    kinds = {e["event"] for e in events}
    # run_test is a program bash forks, execs and waits for: every sched event shows (a
    # migration only if a task happened to move).
    assert kinds - {"sched_migrate_task"} == {
        "sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_process_exit",
        "sched_process_fork", "sched_process_exec", "sched_process_wait",
        "sched_process_free"}, kinds
    check_switch_chains([e for e in events if e["event"] == "sched_switch"], cpus)
    for e in events:
        if e["event"].startswith("sched_wakeup"):
            assert int(e["target_cpu"]) < cpus, e["line"]
    # Each task run_test started: woken new, then exits, with its own name and pid; the exit
    # is recorded by the task itself, which then leaves its CPU for good as a zombie (Z).
    born = {e["task_pid"]: e for e in events if e["event"] == "sched_wakeup_new"}
    exits = [e for e in events if e["event"] == "sched_process_exit"]
    workers = [x for x in exits if x["task_comm"].startswith("run_test/")]
    assert sorted(x["task_comm"] for x in workers) == ["run_test/%d" % i for i in range(4)]
    for x in exits:
        assert x["pid"] == x["task_pid"], x["line"]
        assert x["comm"].strip() in (x["task_comm"], "<...>"), x["line"]
        assert x["flags"][0] == "d", x["line"]  # on its way out, interrupts off
        if x in workers:
            assert born[x["task_pid"]]["task_comm"] == x["task_comm"]
            assert events.index(born[x["task_pid"]]) < events.index(x)
        switches = [e for e in events if e["event"] == "sched_switch" and
                    e["prev_pid"] == x["task_pid"]]
        assert switches, x["line"]
        last_switch = switches[-1]
        assert last_switch["prev_state"] == "Z" and last_switch["cpu"] == x["cpu"], \
            (x["line"], last_switch["line"])
        assert events.index(x) < events.index(last_switch)


def test_irq_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/irq/enable")
    assert cat(lucid, "set_event") == "irq:irq_handler_entry\nirq:irq_handler_exit\n"
    # Each character typed alone, after the echo of the one before: each one is then an
    # interrupt of its own. (Typed at once, a loaded host hands the UART several in one.)
    typed = "echo 0123456789"
    for c in typed:
        lucid.p.send(c)
        lucid.expect(re.escape(c), timeout=30)
    lucid.run("")
    ok(lucid, "echo 0 > events/irq/enable")
    events = events_of(lucid)
    entries = [e for e in events if e["event"] == "irq_handler_entry"]
    assert len(entries) >= len(typed), events
    by_cpu = {}
    for e in events:
        assert e["flags"][0] == "d" and e["flags"][2] == "h", e["line"]  # in the hard irq
        by_cpu.setdefault(e["cpu"], []).append(e["event"])
    for cpu, seq in by_cpu.items():  # entry, exit, entry, exit, ... on each CPU
        assert seq == ["irq_handler_entry", "irq_handler_exit"] * (len(seq) // 2), (cpu, seq)


# --- set_event and the enable files ------------------------------------------------------------


def test_set_event(lucid):
    reset_tracing(lucid)
    every = cat(lucid, "available_events").splitlines()  # EVENTS and the syscalls:* ones
    ok(lucid, "echo sched:sched_switch > set_event")
    assert cat(lucid, "set_event") == "sched:sched_switch\n"
    ok(lucid, "echo sched_wakeup >> set_event")  # a bare event name
    assert cat(lucid, "set_event") == "sched:sched_switch\nsched:sched_wakeup\n"  # as Linux
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "1\n"
    ok(lucid, "echo '!sched:sched_switch' >> set_event")
    assert cat(lucid, "set_event") == "sched:sched_wakeup\n"
    assert cat(lucid, "events/sched/sched_switch/enable") == "0\n"
    ok(lucid, "echo irq > set_event")  # a system; ">" first disables everything
    assert cat(lucid, "set_event") == "irq:irq_handler_entry\nirq:irq_handler_exit\n"
    ok(lucid, "echo '*:*' > set_event")
    assert cat(lucid, "set_event") == "".join(e + "\n" for e in every)
    assert cat(lucid, "events/enable") == "1\n"
    ok(lucid, "echo '!sched:' >> set_event")
    assert cat(lucid, "set_event") == "".join(e + "\n" for e in every if not e.startswith("sched:"))
    ok(lucid, "echo > set_event")
    assert cat(lucid, "set_event") == ""
    ok(lucid, "echo 'sched:sched_process_exit :irq_handler_exit' > set_event")  # two words
    assert cat(lucid, "set_event") == "irq:irq_handler_exit\nsched:sched_process_exit\n"
    assert cat(lucid, "events/irq/enable") == "X\n"
    ok(lucid, "true > set_event")  # opened with ">" and nothing written: everything off
    assert cat(lucid, "set_event") == ""
    ok(lucid, "echo 1 > events/sched/enable")
    assert cat(lucid, "set_event") == "".join(e + "\n" for e in ALL_EVENTS
                                              if e.startswith("sched"))
    ok(lucid, "echo 1 > events/enable")
    assert cat(lucid, "set_event") == "".join(e + "\n" for e in every)
    ok(lucid, "echo 0 > events/sched/sched_wakeup/enable")
    assert cat(lucid, "events/sched/enable") == "X\n" and cat(lucid, "events/irq/enable") == "1\n"
    ok(lucid, "echo 0 > events/enable")
    assert cat(lucid, "set_event") == "" and cat(lucid, "events/enable") == "0\n"


def test_bad_writes_change_nothing(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'sched:sched_switch irq:irq_handler_exit' > set_event")
    state = cat(lucid, "set_event")
    assert state == "irq:irq_handler_exit\nsched:sched_switch\n"
    for cmd in ["echo nosuch:event > set_event",           # not even the ">" applies
                "echo 'sched:sched_wakeup nosuch' > set_event",  # no word applies
                "echo '*' > set_event", "echo sched_ > set_event",
                "echo 'irq:sched_switch' >> set_event", "echo '!nosuch' >> set_event",
                "echo 2 > events/sched/enable", "echo 2 > events/enable",
                "echo -1 > events/irq/enable", "echo abc > events/sched/enable",
                "echo 2 > events/sched/sched_switch/enable",
                "echo abc > events/sched/sched_wakeup/enable",
                "echo 1x > events/irq/irq_handler_entry/enable"]:
        fails(lucid, cmd)
        assert cat(lucid, "set_event") == state, cmd
    for ev in ALL_EVENTS:
        want = "1\n" if ev in ("sched:sched_switch", "irq:irq_handler_exit") else "0\n"
        assert cat(lucid, "events/%s/enable" % ev.replace(":", "/")) == want, ev
    ok(lucid, "echo > set_event")


# --- the sched_switch tracer -------------------------------------------------------------------


def test_sched_switch_tracer(lucid):
    reset_tracing(lucid)
    avail = cat(lucid, "available_tracers").split()
    assert "sched_switch" in avail and avail[-1] == "nop", avail
    ok(lucid, "echo sched_wakeup > set_event")  # the user's choice outlives the tracer
    ok(lucid, "echo sched_switch > current_tracer")
    assert cat(lucid, "current_tracer") == "sched_switch\n"
    out = sh(lucid, "run_test -t 4 -r 5", timeout=60)
    assert out.endswith(" ok\n"), out
    ok(lucid, "echo 0 > tracing_on")
    assert cat(lucid, "set_event") == "sched:sched_wakeup\n"  # the tracer's holds are not shown
    assert cat(lucid, "events/sched/sched_switch/enable") == "0\n"
    text = cat(lucid, "trace", timeout=60)
    assert text.startswith("# tracer: sched_switch\n#\n# entries-in-buffer/entries-written: ")
    events = events_of(lucid)
    kinds = {e["event"] for e in events}
    assert kinds == {"sched_switch", "sched_wakeup", "sched_wakeup_new"}, kinds
    check_switch_chains([e for e in events if e["event"] == "sched_switch"], ncpus(lucid))
    ok(lucid, "echo 1 > tracing_on")
    ok(lucid, "echo nop > current_tracer")
    assert cat(lucid, "set_event") == "sched:sched_wakeup\n"
    ok(lucid, "echo '!sched_wakeup' >> set_event")
    ok(lucid, "echo > trace")
    sh(lucid, "run_test -t 4 -r 2", timeout=60)
    events = events_of(lucid)
    assert events == [], events[:3]  # the tracer let go of its events


# --- the format files, read by trace-cmd's own parser --------------------------------------------


class TraceEvent:
    """libtraceevent, the library trace-cmd and perf parse format files with (through ctypes)."""

    class Record(ctypes.Structure):  # struct tep_record
        _fields_ = [("ts", ctypes.c_ulonglong), ("offset", ctypes.c_ulonglong),
                    ("missed_events", ctypes.c_longlong), ("record_size", ctypes.c_int),
                    ("size", ctypes.c_int), ("data", ctypes.c_void_p), ("cpu", ctypes.c_int),
                    ("ref_count", ctypes.c_int), ("locked", ctypes.c_int),
                    ("priv", ctypes.c_void_p)]

    def __init__(self):
        try:
            lib = ctypes.CDLL("libtraceevent.so.1")
        except OSError as e:
            raise AssertionError("libtraceevent is missing (make deps installs it): %s" % e)
        lib.tep_alloc.restype = ctypes.c_void_p
        lib.tep_parse_event.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong,
                                        ctypes.c_char_p]
        lib.tep_set_long_size.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.trace_seq_init.argtypes = [ctypes.c_void_p]
        lib.trace_seq_terminate.argtypes = [ctypes.c_void_p]
        lib.trace_seq_destroy.argtypes = [ctypes.c_void_p]
        lib.tep_print_event.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        self.lib = lib
        self.tep = lib.tep_alloc()
        lib.tep_set_long_size(self.tep, 8)

    def parse(self, system, text):
        """0 when the format file parses."""
        return self.lib.tep_parse_event(self.tep, text.encode(), len(text), system.encode())

    def print_record(self, data):
        """'name: text', as trace-cmd report prints a record."""
        buf = ctypes.create_string_buffer(bytes(data), len(data))
        rec = self.Record(size=len(data), record_size=len(data),
                          data=ctypes.cast(buf, ctypes.c_void_p))
        seq = ctypes.create_string_buffer(64)  # struct trace_seq, which init fills
        self.lib.trace_seq_init(seq)
        self.lib.tep_print_event(self.tep, seq, ctypes.byref(rec), b"%s: %s", b"NAME", b"INFO")
        self.lib.trace_seq_terminate(seq)
        text = ctypes.cast(seq, ctypes.POINTER(ctypes.c_char_p))[0].decode()
        self.lib.trace_seq_destroy(seq)
        return text


def parse_fields(text):
    """{name: (offset, size, is_string)} of a format file, as a tool reads it."""
    fields = {}
    for line in text.split("\n"):
        m = FIELD.match(line)
        if m:
            decl = m.group("decl")
            name = re.sub(r"\[\d+\]$", "", decl.split()[-1])
            fields[name] = (int(m.group("offset")), int(m.group("size")),
                            decl.startswith("__data_loc"))
    return fields


STATE_BITS = {"R": 0, "S": 0x1, "D": 0x2, "Z": 0x20, "R+": 0x100}  # prev_state's report bits


def record_from_line(e, ident, fields):
    """The record a line was printed from, laid out as the event's format file says."""
    values = {"common_type": ident, "common_flags": 0, "common_preempt_count": 0,
              "common_pid": int(e["pid"])}
    m = re.finditer(r"(\w+)=(\S+)", e["body"])
    for kv in m:
        values[kv.group(1)] = kv.group(2)
    if e["event"] == "sched_switch":
        values["prev_state"] = STATE_BITS[values["prev_state"]]
    if e["event"] == "irq_handler_exit":
        values["ret"] = 1 if values["ret"] == "handled" else 0
    if e["event"] == "sys_enter":  # NR 1 (1, 4020f0, e, 0, 0, 0)
        m = re.match(r"NR (-?\d+) \(([^)]*)\)$", e["body"])
        values["id"] = m.group(1)
        values["args"] = b"".join(int(a, 16).to_bytes(8, "little")
                                  for a in m.group(2).split(", "))
    if e["event"] == "sched_process_fork":  # comm=, pid= are the parent's fields
        values["parent_comm"], values["parent_pid"] = values.pop("comm"), values.pop("pid")
    if e["event"] == "sys_exit":  # NR 1 = 14
        values["id"], values["ret"] = re.match(r"NR (-?\d+) = (-?\d+)$", e["body"]).groups()
    size = max(off + size for off, size, _ in fields.values())
    data = bytearray(size)
    for name, (off, fsize, is_string) in fields.items():
        v = values[name]
        if is_string:  # __data_loc: length << 16 | offset, the string after the fixed part
            s = v.encode() + b"\0"
            struct.pack_into("<I", data, off, len(s) << 16 | len(data))
            data += s
        elif isinstance(v, bytes):  # an array of numbers, already laid out
            data[off:off + fsize] = v
        elif isinstance(v, str) and not re.match(r"^-?\d+$", v):  # char array
            data[off:off + fsize] = v.encode().ljust(fsize, b"\0")
        else:
            data[off:off + fsize] = int(v).to_bytes(fsize, "little", signed=True)
    return data


def test_trace_cmd_reads_the_formats(lucid):
    """trace-cmd's parser accepts every format file, and prints Lucid's lines from them."""
    tep = TraceEvent()
    reset_tracing(lucid)
    formats, ids = {}, {}
    for ev in ALL_EVENTS:
        system, name = ev.split(":")
        formats[name] = cat(lucid, "events/%s/%s/format" % (system, name))
        ids[name] = int(cat(lucid, "events/%s/%s/id" % (system, name)))
        assert tep.parse(system, formats[name]) == 0, formats[name]
    # In one write, so that bash's write returns with the syscalls:* events off already.
    # syscalls: their lines and trace-cmd are test_syscall_events's; exceptions: %ps needs
    # kallsyms (test_process_events); preemptirq: %pS too (test_latency_tracers); kmem, module,
    # signal, task and timer are test_linux_events's, which compares them with trace-cmd's own
    # report (named, not "*:*"
    # and then "!kmem:*": enabling the others allocates, and those kmallocs would be recorded).
    ok(lucid, "echo 'irq:* raw_syscalls:* sched:*' > set_event")
    sh(lucid, "run_test -t 4 -r 5", timeout=60)
    sh(lucid, "hello > /dev/null")  # a user program: raw_syscalls events
    sh(lucid, "spawn > /dev/null", timeout=60)  # fork, exec, wait
    ok(lucid, "echo > set_event")
    events = events_of(lucid)
    seen = set()
    for e in events:
        data = record_from_line(e, ids[e["event"]], parse_fields(formats[e["event"]]))
        assert tep.print_record(data) == "%s: %s" % (e["event"], e["body"]), e["line"]
        seen.add(e["event"])
    assert seen - {"sched_migrate_task"} == {
        ev.split(":")[1] for ev in EVENTS if not ev.startswith(("exceptions:", "preemptirq:"))} | {
        "sched_waking", "sched_process_free"}, seen

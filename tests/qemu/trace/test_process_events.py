"""A process's life as events: sched_process_fork/exec/exit/wait and exceptions:page_fault_*.

Each is Linux 6.1's: the format file byte for byte (the layouts below are what Linux's
include/trace/events/sched.h and arch/x86/include/asm/trace/exceptions.h give), the line as
Linux prints it, and what trace-cmd makes of a trace.dat that tools/lucid-record took. The
values must mean what they say: /bin/spawn forks seven children, execs two programs (and fails
to exec a third, which is no exec), waits for each; a NULL write in a child is a user page
fault at address 0; a bad pointer handed to a system call (/bin/efault) a kernel fault inside
the copy, its ip a kernel function's name.
"""
import re

from tracefs import TRACE_EVENT_LINE, cat, ok, reset_tracing, sh  # noqa: F401
from test_events import COMMON_FIELDS, TraceEvent

FORK_FORMAT = (
    "name: sched_process_fork\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
    "REC->parent_pid, REC->child_comm, REC->child_pid\n")
EXEC_FORMAT = (
    "name: sched_process_exec\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
    "REC->old_pid\n")
WAIT_FORMAT = (
    "name: sched_process_wait\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n")
FAULT_FORMAT = (
    "name: {name}\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:unsigned long address;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long ip;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long error_code;\toffset:24;\tsize:8;\tsigned:0;\n\n"
    "print fmt: \"address=%ps ip=%ps error_code=0x%lx\", (void *)REC->address, "
    "(void *)REC->ip, REC->error_code\n")

BODY = {
    "sched_process_fork": r"comm=(?P<comm>\S+) pid=(?P<pid>\d+) child_comm=(?P<child_comm>\S+) "
                          r"child_pid=(?P<child_pid>\d+)",
    "sched_process_exec": r"filename=(?P<filename>\S+) pid=(?P<pid>\d+) old_pid=(?P<old_pid>\d+)",
    "sched_process_exit": r"comm=(?P<comm>\S+) pid=(?P<pid>\d+) prio=120",
    "sched_process_wait": r"comm=(?P<comm>\S+) pid=(?P<pid>\d+) prio=120",
    "page_fault_user": r"address=0x(?P<address>[0-9a-f]+) ip=0x(?P<ip>[0-9a-f]+) "
                       r"error_code=0x(?P<error_code>[0-9a-f]+)",
    "page_fault_kernel": r"address=(?P<address>0x[0-9a-f]+|\w+) ip=(?P<ip>0x[0-9a-f]+|\w+) "
                         r"error_code=0x(?P<error_code>[0-9a-f]+)",
}
PF_USER, PF_WRITE = 0x4, 0x2  # the CPU's error code bits


def events(k):
    out = cat(k, "trace", timeout=60)
    got = []
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        m = TRACE_EVENT_LINE.match(line)
        assert m, line
        b = re.match("^%s$" % BODY[m.group("event")], m.group("body"))
        assert b, line
        got.append(dict(m.groupdict(), line=line, f=b.groupdict()))
    return got


def test_available_and_formats(lucid):
    reset_tracing(lucid)
    tep = TraceEvent()
    avail = cat(lucid, "available_events").splitlines()
    for ev in ["exceptions:page_fault_kernel", "exceptions:page_fault_user",
               "sched:sched_process_exec", "sched:sched_process_exit",
               "sched:sched_process_fork", "sched:sched_process_wait"]:
        assert ev in avail, avail
    assert sh(lucid, "ls -1 events/exceptions").split() == [
        "enable", "filter", "page_fault_kernel", "page_fault_user"]
    for system, name, want in [("sched", "sched_process_fork", FORK_FORMAT),
                               ("sched", "sched_process_exec", EXEC_FORMAT),
                               ("sched", "sched_process_wait", WAIT_FORMAT),
                               ("exceptions", "page_fault_user", FAULT_FORMAT),
                               ("exceptions", "page_fault_kernel", FAULT_FORMAT)]:
        d = "events/%s/%s/" % (system, name)
        ident = cat(lucid, d + "id").strip()
        text = cat(lucid, d + "format")
        assert text == want.replace("{id}", ident).replace("{name}", name), text
        assert tep.parse(system, text) == 0, text


def test_fork_exec_wait_exit(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo sched:sched_process_fork sched:sched_process_exec > set_event")
    ok(lucid, "echo sched:sched_process_wait sched:sched_process_exit >> set_event")
    out = sh(lucid, "spawn > /dev/null", timeout=60)
    # The console shows the kernel's report of the child that wrote through NULL.
    assert re.match(r"^(\[ *[\d.]+\] spawn\[\d+\]: segfault at 0 .*\n)?$", out), out
    assert lucid.status() == 0
    ok(lucid, "echo > set_event")
    every = events(lucid)
    shell = [e for e in every if e["comm"].strip() == "bash"]  # bash's fork and wait
    evs = [e for e in every if e["comm"].strip() != "bash"]
    execs = [e for e in evs if e["event"] == "sched_process_exec"]
    # bash's child becomes spawn; two children become exitcode and hello (notelf fails).
    assert [e["f"]["filename"] for e in execs] == ["/bin/spawn", "/bin/exitcode", "/bin/hello"], \
        [e["line"] for e in execs]
    spawn = execs[0]["pid"]
    # bash forked the child that became spawn, then waited (for any child: pid 0, as Linux's
    # event says of waitpid(-1), as often as bash's loop asks)
    assert [e["event"] for e in shell][:2] == ["sched_process_fork", "sched_process_wait"] and \
        shell[0]["f"]["child_pid"] == spawn and \
        all(e["event"] == "sched_process_wait" for e in shell[1:]), [e["line"] for e in shell]
    for e in execs:
        assert e["f"]["pid"] == e["f"]["old_pid"] == e["pid"], e["line"]
    assert execs[0]["comm"].strip() == "spawn"  # comm is the new one already, as in Linux
    forks = [e for e in evs if e["event"] == "sched_process_fork"]
    assert len(forks) == 7, [e["line"] for e in forks]
    children = []
    for e in forks:
        f = e["f"]
        assert (e["pid"], f["pid"], f["comm"], f["child_comm"]) == \
            (spawn, spawn, "spawn", "spawn"), e["line"]
        children.append(f["child_pid"])
    assert len(set(children)) == 7
    assert execs[1]["pid"] == children[2] and execs[2]["pid"] == children[6]
    waits = [e for e in evs if e["event"] == "sched_process_wait"]
    assert all(e["pid"] == spawn and e["f"]["comm"] == "spawn" for e in waits), waits
    # waitpid(child) six times, WNOHANG once, then wait() twice: pid 0, any child.
    want = children[:5] + [children[5], "0", "0"] + [children[6]]
    assert [e["f"]["pid"] for e in waits] == want, [e["line"] for e in waits]
    exits = {e["f"]["pid"]: e["f"]["comm"] for e in evs if e["event"] == "sched_process_exit"}
    assert {c: exits.get(c) for c in children} == dict(zip(children, [
        "spawn", "spawn", "exitcode", "spawn", "spawn", "spawn", "hello"])), exits
    assert exits.get(spawn) == "spawn", exits


def test_page_faults(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/exceptions/page_fault_user/enable")
    sh(lucid, "spawn > /dev/null", timeout=60)
    ok(lucid, "echo 0 > events/exceptions/page_fault_user/enable")
    evs = events(lucid)
    assert evs and all(e["event"] == "page_fault_user" for e in evs)
    # The child's NULL write: address 0, a write from user mode to a page not present.
    null = [e for e in evs if e["f"]["address"] == "0"]
    assert len(null) == 1, [e["line"] for e in evs]
    assert int(null[0]["f"]["error_code"], 16) == PF_USER | PF_WRITE, null[0]["line"]
    assert int(null[0]["f"]["ip"], 16) < 0x800000000000, null[0]["line"]  # in the program
    ok(lucid, "echo > trace")
    ok(lucid, "echo 1 > events/exceptions/enable")
    sh(lucid, "efault > /dev/null", timeout=60)
    ok(lucid, "echo 0 > events/exceptions/enable")
    kernel = [e for e in events(lucid) if e["event"] == "page_fault_kernel"]
    assert kernel, cat(lucid, "trace")
    # /bin/efault's first bad pointer is 16, on page 0: the copy faults there, in a kernel
    # function (a name, by %ps), not from user mode.
    at16 = [e for e in kernel if e["f"]["address"] == "0x10"]
    assert at16, [e["line"] for e in kernel]
    for e in at16:
        assert re.match(r"^[a-z_][a-z0-9_]*$", e["f"]["ip"]), e["line"]
        assert not int(e["f"]["error_code"], 16) & PF_USER, e["line"]


def test_trace_cmd_report():
    """trace-cmd report on a trace.dat of spawn: every line as the guest printed it."""
    from test_record import Recording, compare
    rec = Recording(["-e", "sched:sched_process_fork", "-e", "sched:sched_process_exec",
                     "-e", "sched:sched_process_wait", "-e", "sched:sched_process_exit",
                     "-e", "exceptions"], "spawn > /dev/null")
    seen = set()
    compare(rec, seen)
    assert {"sched_process_fork", "sched_process_exec", "sched_process_wait",
            "sched_process_exit", "page_fault_user"} <= seen, seen

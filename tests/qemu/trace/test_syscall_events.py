"""The syscalls:* events (sys_enter_NAME, sys_exit_NAME): Linux 6.1's format files and lines.

Linux makes them from each system call's SYSCALL_DEFINEn (kernel/trace/trace_syscalls.c);
Lucid from kernel/syscall_args.h, the same lines. What is checked: every call there has its
two events in available_events and events/syscalls/; the format files are laid out as Linux's
(__syscall_nr at 8, each argument 8 bytes from 16 on, unsigned, its print fmt built as
"%s: 0x%08lx"; sys_exit's "ret" and "0x%lx"); the lines are Linux's ("sys_write(fd: 1, buf:
..., count: e)", "sys_write -> 0xe"); enable files, the system's enable and set_event turn them
on and off one call at a time; and trace-cmd reads them, both its library on the format files
and `trace-cmd report` on a trace.dat that tools/lucid-record made.
"""
import os
import re

from lucid import ROOT
from tracefs import TRACE_LINE, cat, fails, ok, reset_tracing, sh  # noqa: F401
from test_events import COMMON_FIELDS, TraceEvent


def syscall_args():
    """{name: [(type, arg), ...]} from kernel/syscall_args.h, __user dropped as Linux drops it."""
    with open(os.path.join(ROOT, "kernel", "syscall_args.h")) as f:
        text = f.read()
    calls = {}
    for m in re.finditer(r"^SYSCALL_DEFINE(\d)\((\w+)((?:,[^)]*)?)\)$", text, re.M):
        parts = [p.strip() for p in re.sub(r"\s+", " ", m.group(3)).split(",")[1:]]
        pairs = []
        for t, a in zip(parts[::2], parts[1::2]):
            t = re.sub(r" ?__user ?", " ", t).strip()
            pairs.append((t, a))
        assert len(pairs) == int(m.group(1)), m.group(0)
        calls[m.group(2)] = pairs
    return calls


CALLS = syscall_args()
# Linux's own lines, with the ID left out (from a Linux 6.1 x86_64 tracefs).
WRITE_FORMAT = (
    "name: sys_enter_write\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:const char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n\n"
    "print fmt: \"fd: 0x%08lx, buf: 0x%08lx, count: 0x%08lx\", ((unsigned long)(REC->fd)), "
    "((unsigned long)(REC->buf)), ((unsigned long)(REC->count))\n")
WRITE_EXIT_FORMAT = (
    "name: sys_exit_write\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
    "print fmt: \"0x%lx\", REC->ret\n")
GETPID_FORMAT = (
    "name: sys_enter_getpid\nID: {id}\nformat:\n" + COMMON_FIELDS + "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"\"\n")
EXECVE_FIELDS = (
    "\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:const char *const * argv;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:const char *const * envp;\toffset:32;\tsize:8;\tsigned:0;\n")

# "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + Linux's syscall text (no "name: " first).
ENTER = re.compile(r"^sys_(?P<name>\w+)\((?P<args>(?:\w+: [0-9a-f]+(?:, )?)*)\)$")
EXIT = re.compile(r"^sys_(?P<name>\w+) -> 0x(?P<ret>[0-9a-f]+)$")


def trace_lines(k, comm=None):
    out = cat(k, "trace", timeout=60)
    got = []
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        m = TRACE_LINE.match(line)
        assert m, line
        if comm is None or m.group("comm").strip() == comm:
            got.append(m.group("body"))
    return got


def check_enter(body, name=None):
    m = ENTER.match(body)
    assert m, body
    if name:
        assert m.group("name") == name, body
    args = [a.split(": ") for a in m.group("args").split(", ")] if m.group("args") else []
    assert [a for a, v in args] == [a for t, a in CALLS[m.group("name")]], body
    return {a: int(v, 16) for a, v in args}


def test_available_and_directories(lucid):
    reset_tracing(lucid)
    avail = cat(lucid, "available_events").splitlines()
    want = sorted(["syscalls:sys_enter_" + n for n in CALLS] +
                  ["syscalls:sys_exit_" + n for n in CALLS])
    assert [e for e in avail if e.startswith("syscalls:")] == want, avail
    assert "syscalls:sys_enter_write" in want and "syscalls:sys_exit_exit_group" in want
    ls = sh(lucid, "ls -1 events/syscalls").split()  # one a line: a terminal gets columns
    assert ls == ["enable", "filter"] + [w.split(":")[1] for w in want], ls
    assert sh(lucid, "ls -1 events/syscalls/sys_enter_write").split() == [
        "enable", "filter", "format", "hist", "id", "trigger"]
    assert cat(lucid, "events/syscalls/enable") == "0\n"


def test_format_files(lucid):
    reset_tracing(lucid)
    tep = TraceEvent()
    for name, args in CALLS.items():
        for kind in ("enter", "exit"):
            d = "events/syscalls/sys_%s_%s/" % (kind, name)
            text = cat(lucid, d + "format")
            ident = int(cat(lucid, d + "id"))
            head = "name: sys_%s_%s\nID: %d\nformat:\n%s\n" % (kind, name, ident, COMMON_FIELDS)
            assert text.startswith(head), text
            nr = "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
            if kind == "enter":
                fields = "".join("\tfield:%s %s;\toffset:%d;\tsize:8;\tsigned:0;\n"
                                 % (t, a, 16 + 8 * i) for i, (t, a) in enumerate(args))
                fmt = '"%s"%s' % (", ".join("%s: 0x%%08lx" % a for t, a in args),
                                  "".join(", ((unsigned long)(REC->%s))" % a for t, a in args))
            else:
                fields = "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
                fmt = '"0x%lx", REC->ret'
            assert text == head + nr + fields + "\nprint fmt: " + fmt + "\n", text
            assert tep.parse("syscalls", text) == 0, text
    ident = cat(lucid, "events/syscalls/sys_enter_write/id").strip()
    assert cat(lucid, "events/syscalls/sys_enter_write/format") == \
        WRITE_FORMAT.replace("{id}", ident)
    ident = cat(lucid, "events/syscalls/sys_exit_write/id").strip()
    assert cat(lucid, "events/syscalls/sys_exit_write/format") == \
        WRITE_EXIT_FORMAT.replace("{id}", ident)
    ident = cat(lucid, "events/syscalls/sys_enter_getpid/id").strip()
    assert cat(lucid, "events/syscalls/sys_enter_getpid/format") == \
        GETPID_FORMAT.replace("{id}", ident)
    assert EXECVE_FIELDS in cat(lucid, "events/syscalls/sys_enter_execve/format")


def test_one_call_by_its_enable_file(lucid):
    reset_tracing(lucid)
    # musl's printf writes with writev: write's events, on alone, see nothing of hello.
    ok(lucid, "echo 1 > events/syscalls/sys_enter_write/enable")
    assert cat(lucid, "events/syscalls/enable") == "X\n"
    assert sh(lucid, "hello > /dev/null") == ""
    assert trace_lines(lucid, "hello") == []
    ok(lucid, "echo 0 > events/syscalls/sys_enter_write/enable")
    assert cat(lucid, "events/syscalls/enable") == "0\n"
    ok(lucid, "echo 1 > events/syscalls/sys_enter_writev/enable")
    assert sh(lucid, "hello > /dev/null") == ""
    body = trace_lines(lucid, "hello")
    assert len(body) == 1, body  # the enter only
    ok(lucid, "echo > trace")
    ok(lucid, "echo 1 > events/syscalls/sys_exit_writev/enable")
    assert sh(lucid, "hello > /dev/null") == ""
    ok(lucid, "echo 0 > events/syscalls/enable")
    body = trace_lines(lucid, "hello")
    assert len(body) == 2, body
    args = check_enter(body[0], "writev")
    assert args["fd"] == 1 and args["vlen"] == 2, body
    assert body[1] == "sys_writev -> 0xe", body  # "Hello, world!\n"
    ok(lucid, "echo > trace")
    assert sh(lucid, "hello > /dev/null") == ""
    assert trace_lines(lucid, "hello") == []  # all off again


def test_set_event_and_whole_system(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo syscalls:sys_enter_getpid syscalls:sys_exit_getpid > set_event")
    assert cat(lucid, "set_event") == "syscalls:sys_enter_getpid\nsyscalls:sys_exit_getpid\n"
    fails(lucid, "echo syscalls:sys_enter_nosuchcall > set_event")
    ok(lucid, "echo > set_event")
    ok(lucid, "echo 1 > events/syscalls/enable")
    out = sh(lucid, "exitcode 3")
    assert out == "" and lucid.status() == 3
    ok(lucid, "echo '!syscalls:*' >> set_event")
    assert cat(lucid, "events/syscalls/enable") == "0\n"
    body = trace_lines(lucid, "exitcode")
    # The pid was bash's child until its exec, and the trace names a pid by its last comm
    # (saved_cmdlines, as Linux's): the program's own calls start where execve returns.
    assert "sys_execve -> 0x0" in body, body
    body = body[body.index("sys_execve -> 0x0") + 1:]
    # musl's start: arch_prctl(ARCH_SET_FS, ...), set_tid_address; then exit_group(3).
    args = check_enter(body[0], "arch_prctl")
    assert args["option"] == 0x1002, body
    assert body[1] == "sys_arch_prctl -> 0x0", body
    check_enter(body[2], "set_tid_address")
    assert EXIT.match(body[3]).group("name") == "set_tid_address", body
    assert check_enter(body[-1], "exit_group") == {"error_code": 3}, body
    for b in body:
        assert ENTER.match(b) or EXIT.match(b), b
    for b in body:
        if ENTER.match(b):
            check_enter(b)
    # Errors are the raw return value, as Linux prints them: -EBADF is 0xfffffffffffffff7.
    ok(lucid, "echo > trace")
    ok(lucid, "echo syscalls:sys_exit_close >> set_event")
    sh(lucid, "files > /dev/null")
    ok(lucid, "echo > set_event")
    body = trace_lines(lucid, "files")
    assert "sys_close -> 0xfffffffffffffff7" in body, body


def test_interrupts_on_in_the_flags(lucid):
    """A system call runs with interrupts on (Linux's syscall_enter_from_user_mode turns them on
    before the sys_enter tracepoint): both kinds of syscall events show '.' in the irqs-off
    column, and no preemption depth (the tracepoint's own preempt_disable is not counted)."""
    reset_tracing(lucid)
    ok(lucid, "echo raw_syscalls:sys_enter raw_syscalls:sys_exit syscalls:sys_enter_writev "
              "syscalls:sys_exit_writev > set_event")
    assert sh(lucid, "hello > /dev/null") == ""
    ok(lucid, "echo > set_event")
    flags = []
    for line in cat(lucid, "trace", timeout=60).splitlines():
        m = re.match(r"^ *hello-\d+ +\[\d{3}\] (\S{4}) ", line)
        if m:
            flags.append((m.group(1), line))
    assert len(flags) >= 4, flags  # at least writev's four events
    for f, line in flags:
        assert f[0] == "." and f[3] == ".", line


def test_trace_cmd_report(lucid):
    """trace-cmd report on a trace.dat with syscalls events: the same calls and values."""
    from test_record import Recording, guest_records, report_records
    rec = Recording(["-e", "syscalls"], "hello")
    guest = [g for g in guest_records(rec.guest_text)]
    plain, _ = report_records(rec.plain)
    assert guest and len(guest) == len(plain), (len(guest), len(plain))
    names = set()
    for g, p in zip(guest, plain):
        where = "\n guest: %s\n trace-cmd: %s" % (g["line"], p["line"])
        assert (g["comm"].strip(), g["pid"], g["cpu"]) == (p["comm"], p["pid"], p["cpu"]), where
        m = EXIT.match(g["body"])
        if m:  # sys_exit_write: 0x6
            assert p["event"] == "sys_exit_" + m.group("name"), where
            assert int(p["body"].strip(), 16) == int(m.group("ret"), 16), where
        else:  # sys_enter_write: fd: 0x00000001, buf: 0x..., count: 0x00000006
            args = check_enter(g["body"])
            name = ENTER.match(g["body"]).group("name")
            assert p["event"] == "sys_enter_" + name, where
            got = {a: int(v, 16) for a, v in re.findall(r"(\w+): 0x([0-9a-f]+)", p["body"])}
            assert got == args, where
        names.add(p["event"])
    assert {"sys_enter_writev", "sys_exit_writev", "sys_enter_exit_group"} <= names, names

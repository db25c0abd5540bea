"""The tutorial's sessions typed into Debian's bash (bash-static, unmodified) inside Lucid.

docs/tutorial.md is written at Lucid's own shell (tests/qemu/test_docs.py runs it there). Here each
command line of it runs in bash instead, `bash -c 'cd DIR; LINE'` from the kernel shell, DIR
being the transcript's prompt: non-interactive bash, a new one per line (an interactive bash on
the console needs the tty work of issue 16). What it prints must match the page by
test_docs.py's rules, with what bash does differently from the kernel shell allowed for:

- bash's error messages start `bash: line 1: ` where the page has `sh: `;
- echo is a builtin of bash, so a trace line the page shows for the task `echo` (the kernel
  shell runs a builtin of a pipeline in a thread of its own) is bash's, with its pid;
- with a user shell, a trace of every program's system calls (set_graph_function do_syscall_64,
  a filter on sys_getpid) has the shell's own in it too: bash starting the command and busybox
  cat reading `trace`. Lines of those tasks (OWN_TASKS) are dropped when the page shows none;
- the programs the page traces (TRACED_PROGRAMS) are started by the kernel shell, and while
  every system call is graphed (set_graph_function do_syscall_64) all lines run there: busybox
  cat's reads of `trace` would be graphed into the buffer it reads.
  test_bash_writes_current_tracer below is bash under that graph;
- busybox ls, at a terminal, prints in columns: its names are compared one a line;
- a program bash starts gets bash's environment (PWD, SHLVL, _), a longer one than the kernel
  shell gives, so user stack addresses in a trace (writev's vec) differ, as they would on Linux.

A line whose command is one only Lucid's shell has (KERNEL_ONLY: ftest and the other traced
workloads, the built-in module's insmod, mount of a pseudo file system) is typed at the kernel
shell, as test_docs.py does, between the bash ones: the session goes on with the same tracer
state. Then `bash-PID` is seen writing current_tracer through do_syscall_64 -> ksys_write ->
vfs_write, the article's first function_graph trace, and `echo 0> tracing_on` does what it does
in bash (a redirection of fd 0: tracing stays on).
"""
import difflib
import os
import re
import shutil
import tempfile

import test_docs
from lucid import Lucid

TUTORIAL = os.path.join(test_docs.DOCS, "tutorial.md")
PROMPT_DIR = re.compile(r"^\[(?P<dir>[^\]]*)\]# ")
# Commands of the kernel shell with no program in /bin that does the same: the traced
# workloads (ftest, taskset's CPU placement of them, sysrq), insmod and rmmod of a bare name
# (`insmod foo`: the kernel shell looks in /lib/modules; busybox's wants modules.dep) and
# mount -t (no mount(2) yet).
KERNEL_ONLY = {"ftest", "taskset", "sysrq", "insmod", "rmmod", "mount"}
# The page's traced programs (user/): started by bash, a program's pid would carry bash's own
# system calls before the exec (its getpid calls under a sys_getpid filter...), named after the
# program as Linux names a pid's lines after its last comm; the page shows the program alone.
TRACED_PROGRAMS = {"hello", "readfile", "marker"}
# Lines the page shows in the kernel shell's own format, not busybox's: its `ls -l` is short
# (mode, size, name) where busybox's is Linux's long one, and its `lsmod` is kmod's, where
# busybox's header adds the taint ("Not tainted"). They stay the kernel shell's.
KERNEL_FORMAT = ("ls -l", "lsmod")
T = "/sys/kernel/tracing"


def bash_line(cwd, cmd):
    script = "cd %s; %s" % (cwd, cmd)
    return "bash -c '%s'" % script.replace("'", "'\\''")


def as_page(line):
    """A line bash printed, in the words the page uses for the kernel shell."""
    line = re.sub(r"^bash: line \d+: ", "sh: ", line)
    return re.sub(r"vec: [0-9a-f]+", "vec: STACK", line)


def ls_one_per_line(cmd, out):
    """busybox ls at a terminal (the console is one, as on Linux) prints its names in columns
    where the kernel shell's prints one a line: the same names, in the page's layout. (Names
    in tracefs have no spaces.)"""
    if re.match(r"ls(\s|$)", cmd) and "-l" not in cmd.split() and "|" not in cmd:
        return "".join(name + "\n" for name in out.split())
    return out


def page_for_bash(line):
    """A line of the page, with the tasks that are bash's in bash named so."""
    line = re.sub(r"^(\s*)echo-(\d+)(\s)", r"\1bash-\2\3", line)
    return re.sub(r"vec: [0-9a-f]+", "vec: STACK", line)


def steps_with_dirs(path):
    """[(boot, share, [(cwd, command, expected lines)])] of the page, blocks in order."""
    with open(path) as f:
        text = f.read()
    out = []
    for m in test_docs.FENCE.finditer(text):
        boot = re.search(r'boot="([^"]*)"', m.group("info"))
        share = "share" in m.group("info").split()
        dirs = [PROMPT_DIR.match(line).group("dir") for line in m.group("body").split("\n")
                if PROMPT_DIR.match(line)]
        steps = test_docs.parse_block(m.group("body"))
        out.append((boot.group(1) if boot else None, share,
                    [(d.replace("~", "/root"), c, e) for d, (c, e) in zip(dirs, steps)]))
    return out


def kernel_only(cmd):
    return cmd.strip().startswith(KERNEL_FORMAT) or any(
        w.split()[0] in KERNEL_ONLY | TRACED_PROGRAMS for w in re.split(r"[;|&]+", cmd)
        if w.strip())


OWN_TASKS = {"bash", "cat"}
TRACE_TASK = re.compile(r"^\s*(?:\d+\)\s+)?(?P<task>\S+)-\d+\s+(?:\[\d+\]|\|)")


def task_of(line):
    m = TRACE_TASK.match(line)
    return m.group("task") if m else None


def drop_own(actual, want):
    """actual without the trace lines of the user shell's tasks, where want shows none."""
    shown = {task_of(w) for w in want}
    return [a for a in actual if task_of(a) not in OWN_TASKS - shown]


def boot(cmdline, share):
    lucid = Lucid(cmdline=cmdline or "", share=share)
    lucid.run("bash -c true")  # the log's one-time lines about socket and getpgrp, out of the way
    return lucid


def test_tutorial_in_bash():
    lucid = share = None
    ran = 0
    all_syscalls = False
    try:
        for cmdline, shared, steps in steps_with_dirs(TUTORIAL):
            if lucid is None or cmdline is not None or shared:
                if lucid is not None:
                    lucid.close()
                if shared:
                    share = tempfile.mkdtemp(prefix="lucid-docs-share-")
                lucid = boot(cmdline, share if shared else None)
            for cwd, cmd, expected in steps:
                out = ""
                if cmd.endswith("> set_graph_function"):
                    all_syscalls = cmd.startswith("echo do_syscall_64 ")
                if all_syscalls:
                    lucid.run("cd %s" % cwd)
                    cmd_k = cmd
                else:
                    cmd_k = None
                # `echo before > trace_marker; ftest call; echo after > trace_marker`: each
                # part where it can run, in order.
                for part in (cmd.split(";") if kernel_only(cmd) else [cmd]):
                    if cmd_k or kernel_only(part):
                        lucid.run("cd %s" % cwd)
                        out += lucid.run(part.strip(), timeout=60)
                    else:
                        out += ls_one_per_line(part.strip(),
                                               lucid.run(bash_line(cwd, part.strip()), timeout=60))
                        ran += 1
                actual = [as_page(a) for a in out.rstrip("\n").split("\n")] \
                    if out.strip("\n") else []
                want = [page_for_bash(e) for e in expected]
                actual = drop_own(actual, want)
                # The difference first: a long output is cut short in CI's log.
                assert test_docs.matches(want, actual), (
                    "tutorial.md: `%s` in bash (in %s) differs from the page:\n%s\n"
                    "It printed\n%s\nbut the page shows\n%s" %
                    (cmd, cwd, "\n".join(difflib.unified_diff(want, actual, "page", "bash",
                                                               lineterm="")),
                     "\n".join(actual), "\n".join(want)))
    finally:
        if lucid is not None:
            lucid.close()
        if share is not None:
            shutil.rmtree(share, ignore_errors=True)
    assert ran > 100, ran  # most of the page ran in bash, not in the kernel shell


def test_bash_writes_current_tracer(lucid):
    """The article's first function_graph trace: bash's write to current_tracer, in the kernel."""
    lucid.run("bash -c true")
    lucid.run("cd %s" % T)
    lucid.run("echo do_syscall_64 > set_graph_function")
    lucid.run("echo 1 > options/funcgraph-proc")
    lucid.run("echo function_graph > current_tracer")
    lucid.run("echo > trace")
    lucid.run(bash_line(T, "echo function_graph > current_tracer"))
    lucid.run("echo 0 > tracing_on")
    trace = lucid.run("cat trace", timeout=60)
    lucid.run("echo nop > current_tracer; echo > set_graph_function; "
              "echo 0 > options/funcgraph-proc; echo 1 > tracing_on")
    lines = [l for l in trace.split("\n") if re.search(r"\bbash-\d+\s", l)]
    calls = [re.sub(r".*\|\s*", "", l).strip() for l in lines]
    want = ["do_syscall_64() {", "ksys_write() {", "vfs_write() {"]
    pos = 0
    for c in calls:
        if pos < len(want) and c == want[pos]:
            pos += 1
    assert pos == len(want), "bash's write not in the graph:\n%s" % "\n".join(lines[:80])


def test_echo_0_redirects_stdin(lucid):
    """`echo 0> tracing_on` is echo with fd 0 opened on tracing_on: it prints an empty line,
    writes nothing there, and tracing stays on, in bash as in the kernel shell."""
    lucid.run("bash -c true")
    assert lucid.run(bash_line(T, "echo 0> tracing_on; cat tracing_on")) == "\n1\n"
    assert lucid.run("cd %s; echo 0> tracing_on; cat tracing_on" % T) == "\n1\n"

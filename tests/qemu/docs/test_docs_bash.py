"""The tutorial's sessions typed into a non-interactive bash, a new one per line.

docs/tutorial.md is written at the console's bash, an interactive login shell
(tests/qemu/docs/test_docs.py types it there). Here each command line of it runs in
`bash -c 'cd DIR; LINE'` instead, typed at the console, DIR being the transcript's prompt: a shell
with no job control, no prompt and no history, started afresh each time, as a script runs. What
it prints must match the page by test_docs.py's rules, with what such a bash does differently
allowed for:

- its error messages start `bash: line 1: ` where a login shell's start `-bash: `;
- a program bash starts gets a longer environment (PWD, SHLVL, _ of the outer bash as well), so
  user stack addresses in a trace (writev's vec) differ, as they would on Linux;
- `$$` is the console bash's pid on the page, so a line with it is typed at the console;
- the programs the page traces (TRACED_PROGRAMS) are typed at the console, as the page shows
  them: a trace names a pid after its last comm, and the page shows the console bash's child
  asking its pid before it becomes the program; `bash -c` may exec the program in its own
  process instead, with its own system calls before. The `cat trace` right after one is typed
  there too: `bash -c` asks its pid a few times before it runs cat, and a sys_getpid trace
  would show that;
- lines of bash's and cat's own (OWN_TASKS) are dropped where the page shows none;
- while a uprobe on bash's readline is enabled (the page's uretprobe on /bin/bash), lines are
  typed at the console: the trace shows what the console's readline returned, which `bash -c`
  never calls.

Then `bash-PID` is seen writing current_tracer through do_syscall_64 -> ksys_write -> vfs_write,
the article's first function_graph trace, and `echo 0> tracing_on` does what it does in bash (a
redirection of fd 0: tracing stays on).
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
# The page's traced programs (user/): typed at the console, as the page shows them (a program's
# pid carries the system calls of the bash that started it before its exec, named after the
# program as Linux names a pid's lines after its last comm).
TRACED_PROGRAMS = {"hello", "readfile", "marker", "ustack"}
T = "/sys/kernel/tracing"


def bash_line(cwd, cmd):
    script = "cd %s; %s" % (cwd, cmd)
    return "bash -c '%s'" % script.replace("'", "'\\''")


def as_page(line):
    """A line `bash -c` printed, in the words the page uses for the console's login bash."""
    line = re.sub(r"^bash: line \d+: ", "-bash: ", line)
    return re.sub(r"vec: [0-9a-f]+", "vec: STACK", line)


def page_for_bash(line):
    """A line of the page, its user stack addresses left out (the environment differs)."""
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


def at_console(cmd):
    """A traced program, or a line about the console's bash itself (`$$`, its pid)."""
    return "$$" in cmd or any(
        w.split()[0] in TRACED_PROGRAMS for w in re.split(r"[;|&]+", cmd) if w.strip())


OWN_TASKS = {"bash", "cat"}
TRACE_TASK = re.compile(r"^\s*(?:\d+\)\s+)?(?P<task>\S+)-\d+\s+(?:\[\d+\]|\|)")


def task_of(line):
    m = TRACE_TASK.match(line)
    return m.group("task") if m else None


def drop_own(actual, want):
    """actual without the trace lines of the user shell's tasks, where want shows none; but
    where want shows interrupts, their lines stay whatever task they name (only the one they
    interrupted: test_docs.INTERRUPTED)."""
    shown = {task_of(w) for w in want}
    interrupts = any(test_docs.INTERRUPTED.match(w) for w in want)
    return [a for a in actual if (interrupts and test_docs.INTERRUPTED.match(a)) or
            task_of(a) not in OWN_TASKS - shown]


def boot(cmdline, share):
    lucid = Lucid(cmdline=cmdline or "", share=share)
    lucid.run("bash -c true")  # the log's one-time lines about socket and getpgrp, out of the way
    return lucid


def test_tutorial_in_bash():
    lucid = share = None
    ran = 0
    try:
        for cmdline, shared, steps in steps_with_dirs(TUTORIAL):
            if lucid is None or cmdline is not None or shared:
                if lucid is not None:
                    lucid.close()
                    lucid = None
                if shared:
                    share = tempfile.mkdtemp(prefix="lucid-docs-share-")
                lucid = boot(cmdline, share if shared else None)
            after_program = readline_probed = False
            console_cwd = None
            for cwd, cmd, expected in steps:
                if "/bin/bash:" in cmd and "uprobe_events" in cmd:
                    readline_probed = True
                elif re.match(r"echo 0 > events/uprobes/", cmd):
                    readline_probed = False
                # the trace a traced program left is read at the console too: under a
                # sys_getpid filter, `bash -c` would add its own calls before it runs cat
                if at_console(cmd) or readline_probed or (after_program and
                                                          cmd.startswith("cat trace")):
                    if cwd != console_cwd:  # (a cd of its own would show in readline's trace)
                        lucid.run("cd %s" % cwd)
                        console_cwd = cwd
                    out = lucid.run(cmd, timeout=60)
                else:
                    out = lucid.run(bash_line(cwd, cmd), timeout=60)
                    ran += 1
                after_program = at_console(cmd) and "$$" not in cmd
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
    assert ran > 200, ran  # all but the traced programs ran in `bash -c`


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
    writes nothing there, and tracing stays on, in `bash -c` as at the console's bash."""
    lucid.run("bash -c true")
    assert lucid.run(bash_line(T, "echo 0> tracing_on; cat tracing_on")) == "\n1\n"
    assert lucid.run("cd %s; echo 0> tracing_on; cat tracing_on" % T) == "\n1\n"

"""Every shell transcript in docs/ is typed at a booted Lucid and must print what the page says.

A transcript is a fenced block whose info string starts with `lucid`:

    ```lucid
    [/]# cd /sys/kernel/debug/tracing
    [/sys/kernel/debug/tracing]# cat current_tracer
    nop
    ```

A line that starts with a prompt (`[dir]# `) is a command, typed as it stands; the lines after it,
up to the next command, are what it must print. Traces differ from run to run in their numbers
and in their spacing, so a line matches when it is equal after every hexadecimal number written
with 0x becomes `0xN` (16 bare hex digits, Linux's %p, `P`), every run of digits `N` and every run of blanks one space: timestamps,
pids, durations and addresses (which move whenever the kernel changes) may differ, function
names, columns and words may not. A line `...` stands for any number of lines (the page shows part of a
long output); without it the output must match line for line.

The blocks of one page run in order on one kernel, so a page reads like one session. A block
whose info string says `boot="ARGS"` starts a new kernel with that command line first (the
tutorial's boot-parameter sections); one that says `share` starts a new kernel with an empty
host folder shared at /mnt/host, as `make run` has (the shared-folder section).
"""
import os
import re
import shutil
import tempfile

from lucid import ROOT, Lucid

DOCS = os.path.join(ROOT, "docs")
FENCE = re.compile(r"^```lucid(?P<info>[^\n]*)\n(?P<body>.*?)^```\s*$", re.M | re.S)
COMMAND = re.compile(r"^\[[^\]]*\]# (?P<cmd>.*)$")


# A trace line in interrupt context (the flags' third letter: h, H or s): it names the task it
# interrupted, which is timing's choice (idle, or the bash that was busy with what was typed).
INTERRUPTED = re.compile(r"^(\s*)\S+-\d+(\s+\[\d+\]\s+[dDX.][nNpPbB.][hHsS])")


def normalize(line):
    line = INTERRUPTED.sub(r"\1TASK-N\2", line)
    line = re.sub(r"0x[0-9a-f]+", "0xN", line)
    line = re.sub(r"\b[0-9a-f]{16}\b", "P", line)  # %p: Linux's 16 digits, no 0x
    return re.sub(r"[ \t]+", " ", re.sub(r"\d+", "N", line)).strip()


def matches(expected, actual):
    """Does actual (lines) fit expected (lines, `...` for any run of lines)?"""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and normalize(expected[0]) == normalize(actual[0]) and \
        matches(expected[1:], actual[1:])


def parse_block(body):
    """[(command, [expected lines])] of one transcript."""
    steps = []
    for line in body.rstrip("\n").split("\n"):
        m = COMMAND.match(line)
        if m:
            steps.append((m.group("cmd"), []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise AssertionError("transcript output before any command: %r" % line)
    return steps


def blocks(path):
    with open(path) as f:
        text = f.read()
    for m in FENCE.finditer(text):
        boot = re.search(r'boot="([^"]*)"', m.group("info"))
        share = "share" in m.group("info").split()
        lineno = text.count("\n", 0, m.start()) + 1
        yield lineno, (boot.group(1) if boot else None), share, parse_block(m.group("body"))


def check_page(path):
    rel = os.path.relpath(path, ROOT)
    lucid = None
    share = None
    try:
        for lineno, boot, shared, steps in blocks(path):
            if lucid is None or boot is not None or shared:
                if lucid is not None:
                    lucid.close()
                if shared:
                    share = tempfile.mkdtemp(prefix="lucid-docs-share-")
                lucid = Lucid(cmdline=boot or "", share=share if shared else None)
            for cmd, expected in steps:
                out = lucid.run(cmd, timeout=60)
                actual = out.rstrip("\n").split("\n") if out.strip("\n") else []
                # What Lucid printed comes last: a failure's summary line keeps the end.
                assert matches(expected, actual), (
                    "%s:%d: for `%s` the page shows\n%s\nbut Lucid printed\n%s" %
                    (rel, lineno, cmd, "\n".join(expected), "\n".join(actual)))
    finally:
        if lucid is not None:
            lucid.close()
        if share is not None:
            shutil.rmtree(share, ignore_errors=True)


def pages():
    found = []
    for d, _, files in os.walk(DOCS):
        for f in sorted(files):
            p = os.path.join(d, f)
            if f.endswith(".md"):
                with open(p) as fh:
                    if "```lucid" in fh.read():
                        found.append(p)
    return sorted(found)


def _make(path):
    def test():
        check_page(path)
    return test


for _p in pages():
    _name = "test_" + re.sub(r"\W", "_", os.path.relpath(_p, DOCS)[:-3])
    _t = _make(_p)
    _t.__name__ = _name
    _t.__module__ = __name__
    globals()[_name] = _t


def test_matcher():
    """The rules above, on their own."""
    assert matches(["a 12.50 us"], ["a  3.25 us"])
    assert matches(["x", "...", "z"], ["x", "y", "y", "z"])
    assert matches(["x", "...", "z"], ["x", "z"])
    assert not matches(["x", "z"], ["x", "y", "z"])
    assert not matches(["func_a"], ["func_b"])
    assert matches(["bar 0xffffffff80143100"], ["bar 0xffffffff8014a0c0"])
    assert not matches(["bar 0xffffffff80143100"], ["bar 80143100"])
    assert matches(["bar ffffffff80143100"], ["bar ffffffff8014a0c0"])
    assert not matches(["bar ffffffff80143100"], ["bar 0xffffffff8014a0c0"])
    assert parse_block("[/]# ls\nbin\n[/]# pwd\n/\n") == [("ls", ["bin"]), ("pwd", ["/"])]

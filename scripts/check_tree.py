#!/usr/bin/python3
"""The build checks that need no compiler and no QEMU (make check runs them):

  - every folder of the tree is on both maps, README.md's Layout and docs/design/README.md's
    "Where things live": a reader who finds a folder on disk finds what it is for;
  - every path of Lucid's own a comment or a document names (boot/..., kernel/..., trace/...,
    tests/..., `foo.c` with no folder but a unique name) is a file that exists: a renamed file
    leaves no stale pointer behind. Paths of Linux's own tree (kernel/trace/..., fs/...) are
    Linux's and not checked, nor is a name with a capital placeholder (tests/user/PROG.c);
  - no line of C or assembly is wider than .clang-format's ColumnLimit (tabs 8 columns wide):
    clang-format leaves comments as they are written (ReflowComments is off), so this is what
    keeps them, and code not yet formatted, to the width the style promises;
  - no QEMU test sleeps a fixed time outside a loop unless the line says "pacing:" and why no
    result waits on it: on a loaded host a fixed wait guesses, and a test waits for a state
    (docs/design/conventions.md says with what).

Prints each problem as FILE:LINE: what, and exits 1 if there is any.
"""
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPS = ["README.md", "docs/design/README.md"]
# Folders whose contents are data, covered by their parent's line (the fuzzers' seeds).
DATA = re.compile(r"^tests/fuzz/corpus(/|$)")
# Lucid's top-level folders: a path starting with one is Lucid's, unless it is Linux's own
# (Linux has kernel/, lib/, tools/, scripts/ and arch/ too; these are its folders Lucid lacks).
OURS = re.compile(r"^(boot|kernel|trace|arch/x86_64|lib|tests|tools|scripts|docs|user|modules|"
                  r"rootfs)/")
LINUX = re.compile(r"^(kernel/(trace|futex|bpf|irq|rcu|cgroup|printk|entry|power)/|lib/(vsprintf|"
                   r"test_|trace-cmd)|tools/(testing|lib|perf|tracing|include)|scripts/(kconfig|mod/)|"
                   r"kernel/(params|pid|sched/core)\.|kernel/time/posix-)")
# Files the documents ask the reader to write: examples, not pointers.
EXAMPLES = {"lib/foo.c", "modules/hello.c"}
PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)+[\w.-]+\.(?:c|h|S|md|py|sh|inc|ld))\b")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if os.path.exists(os.path.join(ROOT, f))]


def folders(files):
    found = set()
    for f in files:
        d = os.path.dirname(f)
        if d and not DATA.match(d):
            found.add(d)
    return sorted(found)


def check_maps(files, problems):
    for m in MAPS:
        text = open(os.path.join(ROOT, m)).read()
        for d in folders(files):
            if "`%s/`" % d not in text:
                problems.append("%s:1: the folder %s/ is not on this map" % (m, d))


def check_paths(files, problems):
    exists = set(files) | set(folders(files))
    for f in files:
        if not re.search(r"\.(c|h|S|md|py|sh|inc)$|(^|/)Makefile", f) or DATA.match(f):
            continue
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                for m in PATH.finditer(line):
                    p = m.group(1)
                    if (not OURS.match(p) or LINUX.match(p) or p in EXAMPLES
                            or re.search(r"[A-Z]{3,}", p)):
                        continue
                    if p not in exists:
                        problems.append("%s:%d: names %s, which does not exist" % (f, n, p))


def column_limit():
    with open(os.path.join(ROOT, ".clang-format")) as f:
        return int(re.search(r"^ColumnLimit:\s*(\d+)", f.read(), re.M).group(1))


def check_widths(files, problems):
    limit = column_limit()
    for f in files:
        if not re.search(r"\.(c|h|S)$", f):
            continue
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                width = len(line.rstrip("\n").expandtabs(8))
                if width > limit:
                    problems.append("%s:%d: %d columns, more than %d" % (f, n, width, limit))


def fixed_sleeps(tree):
    """Line numbers of the time.sleep() calls of a module that are in no for or while loop of
    their function (a loop's sleep is a bounded poll's)."""
    found = []

    def walk(node, in_loop):
        for child in ast.iter_child_nodes(node):
            loop = in_loop and not isinstance(child, (ast.FunctionDef, ast.Lambda))
            if isinstance(child, (ast.For, ast.While)):
                loop = True
            f = getattr(child, "func", None)
            if isinstance(child, ast.Call) and isinstance(f, ast.Attribute) and \
                    f.attr == "sleep" and getattr(f.value, "id", None) == "time" and not in_loop:
                found.append(child.lineno)
            walk(child, loop)
    walk(tree, False)
    return found


def check_fixed_waits(files, problems):
    for f in files:
        if not re.match(r"^tests/qemu/.*\.py$", f):
            continue
        with open(os.path.join(ROOT, f)) as fh:
            text = fh.read()
        lines = text.splitlines()
        for n in fixed_sleeps(ast.parse(text, f)):
            if "pacing:" not in lines[n - 1]:
                problems.append("%s:%d: a fixed sleep: wait for a state, or say \"pacing:\" and "
                                "why no result waits on it" % (f, n))


def main():
    files = tracked()
    problems = []
    check_maps(files, problems)
    check_paths(files, problems)
    check_widths(files, problems)
    check_fixed_waits(files, problems)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

"""Every writable tracing file against a list of bad writes: Linux's errno, and nothing changes.

The test walks the tracing directory (options/, per_cpu/cpu0/, events/ and its systems and
events too) and /proc/sys/kernel, and writes each bad input of BAD_INPUTS into every writable
file. Each file must refuse it with the errno its kind of file gives on Linux, and read the same
before and after. A writable file that no rule below describes fails the test: a new file must
say how it treats bad input.
"""
import fnmatch
import re

T = "/sys/kernel/debug/tracing"
EINVAL = "Invalid argument"
ERANGE = "Numerical result out of range"

# name -> the shell line that writes it into FILE (the shell's echo adds the newline, as
# people's echo does). The 64 KiB write goes through head, in its chunks.
BAD_INPUTS = {
    "empty": "echo > FILE",
    "spaces": "echo '   ' > FILE",
    "huge": "echo 99999999999999999999999 > FILE",
    "negative": "echo -1 > FILE",
    "trailing junk": "echo 12abc > FILE",
    "binary": "echo -e '\\x01\\xff\\x7f\\x1b[31m' > FILE",
    "unknown name": "echo no_such_thing_here > FILE",
    "partial glob": "echo 'ftest_[ab' > FILE",
    "64 KiB of text": "yes abcdefghijklmnopq | head -c 65536 > FILE",
}

# Kinds of file and the error each bad input gets; a missing input means "accepted, not bad"
# for that kind (an empty write clears a filter list, for instance), and is not tried.
NUMBER = {k: EINVAL for k in BAD_INPUTS}
NUMBER["huge"] = ERANGE  # kstrtoul overflows: Linux says ERANGE
BOOL = dict(NUMBER)  # options/*, enable: 0 or 1
NAME = {k: EINVAL for k in BAD_INPUTS}  # current_tracer, trace_clock, trace_options
LIST = {k: EINVAL for k in BAD_INPUTS if k not in ("empty", "spaces")}  # empty: clears
# Function filters read a word that begins with a digit as a line of available_filter_functions
# (Linux's MATCH_INDEX, with simple_strtoul): "12abc" is line 12, not bad. The graph files don't.
FUNCS = {k: v for k, v in LIST.items() if k != "trailing junk"}
PIDS = dict(LIST)
PIDS["huge"] = EINVAL  # Linux trace_pid_write: any kstrtoul failure, overflow too, is EINVAL
SYSCTL = {k: EINVAL for k in BAD_INPUTS}  # proc_doulongvec_minmax: EINVAL even on overflow
SYSCTL_INT = {k: v for k, v in SYSCTL.items() if k != "negative"}  # proc_dointvec takes -1

# First match wins. None: not a target of this test, with the reason.
RULES = [
    ("trace", None),                  # any write clears the buffer: that is its job
    ("per_cpu/cpu*/trace", None),
    ("trace_marker", None),           # any text is a marker
    ("current_tracer", NAME),
    ("trace_clock", NAME),
    ("trace_options", NAME),
    ("buffer_size_kb", NUMBER),
    ("per_cpu/cpu*/buffer_size_kb", NUMBER),
    ("saved_cmdlines_size", NUMBER),
    ("tracing_on", NUMBER),
    ("stack_max_size", NUMBER),
    ("function_profile_enabled", NUMBER),
    ("snapshot", NUMBER),             # 0 frees, 1 takes one, any other number clears
    ("options/*", BOOL),
    ("events/enable", BOOL),
    ("events/*/enable", BOOL),
    ("events/*/*/enable", BOOL),
    ("set_ftrace_filter", FUNCS),
    ("set_ftrace_notrace", FUNCS),
    ("set_event", LIST),
    ("set_ftrace_pid", PIDS),
    ("max_graph_depth", NUMBER),
    ("tracing_thresh", NUMBER),
    ("set_graph_function", LIST),
    ("set_graph_notrace", LIST),
    ("stack_trace_filter", FUNCS),
    ("/proc/sys/kernel/ftrace_dump_on_oops", SYSCTL_INT),
    ("/proc/sys/kernel/traceoff_on_warning", SYSCTL_INT),
    ("/proc/sys/kernel/*", SYSCTL),
]


def rule_for(path):
    for pattern, kind in RULES:
        if fnmatch.fnmatchcase(path, pattern):
            return pattern, kind
    return None, None


def writable_files(lucid):
    """Paths (relative to T, or absolute for /proc) of every file a write may go to."""
    found = []
    dirs = ["", "options/", "per_cpu/cpu0/", "events/"]
    for line in lucid.run("ls -l events").splitlines():
        mode, _, system = line.split()
        if mode.startswith("d"):
            dirs.append("events/%s/" % system)
            events = lucid.run("ls events/%s" % system).split()
            dirs += ["events/%s/%s/" % (system, e) for e in events if e != "enable"][:2]
    for d in dirs:
        for line in lucid.run("ls -l %s" % (d or ".")).splitlines():
            mode, _, name = line.split()
            if mode[0] == "-" and "w" in mode:
                found.append(d + name)
    for line in lucid.run("ls -l /proc/sys/kernel").splitlines():
        mode, _, name = line.split()
        if "w" in mode:
            found.append("/proc/sys/kernel/" + name)
    return found


def read(lucid, path):
    return lucid.run("cat %s" % path)


def test_every_file_refuses_every_bad_input(lucid):
    assert lucid.run("cd %s" % T) == ""
    files = writable_files(lucid)
    assert len(files) > 25, files
    tried = skipped = 0
    failures = []
    for path in files:
        pattern, kind = rule_for(path)
        assert pattern is not None, "%s: no rule says how it treats bad input" % path
        if kind is None:
            skipped += 1
            continue
        for name, cmd in BAD_INPUTS.items():
            if name not in kind:
                continue
            want = kind[name] if isinstance(kind[name], tuple) else (kind[name],)
            before = read(lucid, path)
            out = lucid.run(cmd.replace("FILE", path), timeout=60)
            who = "head" if cmd.startswith("yes") else "sh: echo"
            if not any(out == "%s: write error: %s\n" % (who, w) for w in want):
                failures.append("%s <- %s: %r, want %s" % (path, name, out, " or ".join(want)))
            after = read(lucid, path)
            if after != before:
                failures.append("%s <- %s changed it: %r -> %r" % (path, name, before, after))
            tried += 1
    print("  bad input: %d files x inputs tried on %d writable files (%d not targets)" %
          (tried, len(files), skipped))
    assert not failures, "\n".join(failures[:30])
    assert lucid.run("cat current_tracer") == "nop\n"
    assert "Kernel panic" not in lucid.tail(100000)

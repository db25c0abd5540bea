"""Every writable tracing file against a list of bad writes: Linux's errno, and nothing changes.

The test walks the tracing directory (options/, per_cpu/cpu0/, events/ and its systems and
events too) and /proc/sys/kernel, and writes each bad input of BAD_INPUTS into every writable
file. Each file must refuse it with the errno its kind of file gives on Linux, and read the same
before and after. A writable file that no rule below describes fails the test: a new file must
say how it treats bad input.
"""
import fnmatch
import re

from tracefs import modes

T = "/sys/kernel/debug/tracing"
EINVAL = "Invalid argument"
ERANGE = "Numerical result out of range"

# name -> the shell command that writes it into the file "$f" (bash's echo adds the newline, as
# people's echo does). The 64 KiB are bash's echo too, which writes them in its buffer's chunks:
# busybox head, which wrote them before, says "I/O error" whatever the errno was. SHELL_SETUP
# makes them ($big) once.
BAD_INPUTS = {
    "empty": "echo > \"$f\"",
    "spaces": "echo '   ' > \"$f\"",
    "huge": "echo 99999999999999999999999 > \"$f\"",
    "negative": "echo -1 > \"$f\"",
    "trailing junk": "echo 12abc > \"$f\"",
    "binary": "echo -e '\\x01\\xff\\x7f\\x1b[31m' > \"$f\"",
    "unknown name": "echo no_such_thing_here > \"$f\"",
    "partial glob": "echo 'ftest_[ab' > \"$f\"",
    "64 KiB of text": "echo -n \"$big\" > \"$f\"",
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
TRIGGER = {k: EINVAL for k in BAD_INPUTS}  # events/*/*/trigger: no such command, even ""
# tracing_cpumask: Linux's bitmap_parse reads hex from the end ("12abc" is hex, but has bits
# past the last CPU), and an empty write is the empty mask, not an error.
EOVERFLOW = "Value too large for defined data type"
CPUMASK = {k: EINVAL for k in BAD_INPUTS if k not in ("empty", "spaces")}
CPUMASK.update({"huge": EOVERFLOW, "trailing junk": EOVERFLOW})
SYSCTL = {k: EINVAL for k in BAD_INPUTS}  # proc_doulongvec_minmax: EINVAL even on overflow
SYSCTL_INT = {k: v for k, v in SYSCTL.items() if k != "negative"}  # proc_dointvec takes -1
# trace_marker_raw: any 4 to 3072 bytes are a record (an id, then data); fewer (echo's "\n",
# "-1\n") or more (bash writes the 64 KiB 4 KiB at a time) are Linux's EINVAL
RAW_MARKER = {k: EINVAL for k in ("empty", "negative", "64 KiB of text")}
# osnoise/cpus: Linux's bitmap_parselist: blanks alone are the empty list, a number past
# UINT_MAX is EOVERFLOW (trace/trace_osnoise.c)
CPULIST = {k: EINVAL for k in BAD_INPUTS if k not in ("empty", "spaces")}
CPULIST["huge"] = EOVERFLOW
# dynamic_events, kprobe_events, synthetic_events: a definition per line; an empty line (or
# blanks) is nothing, any of these is no kind's definition (or a malformed "-1" removal):
# Linux's EINVAL
DEFINITIONS = {k: EINVAL for k in BAD_INPUTS if k not in ("empty", "spaces")}

# First match wins. None: not a target of this test, with the reason.
RULES = [
    ("trace", None),                  # any write clears the buffer: that is its job
    ("per_cpu/cpu*/trace", None),
    ("trace_marker", None),           # any text is a marker
    ("trace_marker_raw", RAW_MARKER),
    ("dynamic_events", DEFINITIONS),
    ("kprobe_events", DEFINITIONS),
    ("synthetic_events", DEFINITIONS),  # a line of fewer than three words is no definition
    ("error_log", None),              # a write is taken and ignored; ">" clears: test_error_log
    ("tracing_cpumask", CPUMASK),
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
    ("per_cpu/cpu*/snapshot", NUMBER),  # 0 is EINVAL, 1 swaps this CPU's, others clear it
    ("options/*", BOOL),
    ("events/enable", BOOL),
    ("events/*/enable", BOOL),
    ("events/*/*/enable", BOOL),
    # A refused filter is shown in the file with Linux's report (and its errno depends on the
    # error, as in Linux): test_event_filter.py checks both, and that the filter in force stays.
    ("events/*/filter", None),
    ("events/*/*/filter", None),
    # A trigger write names a command first: none of these does (Linux's EINVAL, the file's
    # help unchanged). test_event_triggers.py checks the errors of commands that exist.
    ("events/*/*/trigger", TRIGGER),
    ("set_ftrace_filter", FUNCS),
    ("set_ftrace_notrace", FUNCS),
    ("set_event", LIST),
    ("uprobe_events", LIST),         # "" and blanks: nothing to do; other words: no such probe
    ("set_*pid", PIDS),  # set_ftrace_pid, set_ftrace_notrace_pid, set_event_pid, ..._notrace_pid
    ("max_graph_depth", NUMBER),
    ("tracing_thresh", NUMBER),
    ("tracing_max_latency", NUMBER),  # us; 0 resets the latency tracers' worst case
    ("buffer_percent", NUMBER),       # 0 to 100
    ("free_buffer", None),            # any write is taken and ignored: closing it frees
    ("timestamp_mode", None),         # read-only (0440), as Linux's: nothing to write
    ("set_graph_function", LIST),
    ("set_graph_notrace", LIST),
    ("stack_trace_filter", FUNCS),
    # The osnoise and timerlat tracers' settings (Linux's trace_min_max_param: kstrtoull) and
    # hwlat's (trace/trace_osnoise.c, trace/trace_hwlat.c); options and mode take names only.
    ("osnoise/cpus", CPULIST),
    ("osnoise/options", NAME),
    ("osnoise/*", NUMBER),
    ("hwlat_detector/mode", NAME),
    ("hwlat_detector/*", NUMBER),
    ("/proc/sys/kernel/ftrace_dump_on_oops", SYSCTL_INT),
    ("/proc/sys/kernel/traceoff_on_warning", SYSCTL_INT),
    ("/proc/sys/kernel/ftrace_enabled", SYSCTL_INT),
    ("/proc/sys/kernel/printk", SYSCTL_INT),  # Linux's proc_dointvec, four ints: -1 is taken
    ("/proc/sys/kernel/*", SYSCTL),
    # A module's parameters (kernel/module/params.c): latency_demo's are unsigned ints, read with
    # kstrtouint as Linux's param_set_uint does (ERANGE past 2^32 - 1), and at most its maximum.
    ("/sys/module/*/parameters/*", NUMBER),
]


def rule_for(path):
    for pattern, kind in RULES:
        if fnmatch.fnmatchcase(path, pattern):
            return pattern, kind
    return None, None


def writable_files(lucid, proc=True):
    """Paths (relative to the current directory, or absolute for /proc) of every file a write
    may go to; proc: /proc/sys/kernel's too."""
    found = []
    dirs = ["", "options/", "per_cpu/cpu0/", "events/"]
    dirs += [d + "/" for d in ("osnoise", "hwlat_detector") if d in modes(lucid)]
    for system, mode in modes(lucid, "events").items():
        if mode.startswith("d"):
            dirs.append("events/%s/" % system)
            events = lucid.run("ls -1 events/%s" % system).split()
            dirs += ["events/%s/%s/" % (system, e) for e in events
                     if e not in ("enable", "filter")][:2]
            if system == "ftrace":
                dirs.append("events/ftrace/print/")  # the one with a file to write: trigger
    for d in dirs:
        for name, mode in modes(lucid, d or ".").items():
            if mode[0] == "-" and "w" in mode:
                found.append(d + name)
    for name, mode in modes(lucid, "/proc/sys/kernel").items():
        if proc and "w" in mode:
            found.append("/proc/sys/kernel/" + name)
    return found


def read(lucid, path):
    return lucid.run("cat %s" % path)


SEP = "@@--@@"  # between the reads and writes of one line: no file's text holds it


# The shell function setup_shell() defines for each bad input: bad0, bad1, ...
BAD_FUNCTION = {name: "bad%d" % i for i, name in enumerate(BAD_INPUTS)}


def setup_shell(lucid):
    """Defines, in Lucid's bash, what the lines of writes_between_reads call: r (a separator,
    the file read, a separator), a function per bad input, and $big, the 64 KiB, made once (its
    pipeline took about 0.1 s of the guest's time for each file)."""
    defs = ["r() { echo %s; cat \"$f\"; echo %s; }" % (SEP, SEP),
            "big=$(yes abcdefghijklmnopq | head -c 65536)"]
    defs += ["%s() { %s; }" % (BAD_FUNCTION[name], cmd) for name, cmd in BAD_INPUTS.items()]
    for d in defs:
        assert lucid.run(d) == "", d


def writes_between_reads(lucid, path, cmds, timeout=120):
    """[(before, output, after)] of each shell command of cmds (on the file "$f"), run in turn
    with path read before and after each: what three lines per command would show, on one line
    per file. Each command's before is the previous one's after. setup_shell() first."""
    line = "f=%s; cat \"$f\"; echo %s; " % (path, SEP) + "; ".join(cmd + "; r" for cmd in cmds)
    parts = lucid.run(line, timeout=timeout).split(SEP + "\n")
    assert len(parts) == 2 * len(cmds) + 2 and parts[-1] == "", (line, parts)
    reads, outs = parts[0::2], parts[1::2]
    return [(reads[i], outs[i], reads[i + 1]) for i in range(len(cmds))]


def try_bad_inputs(lucid, files):
    """Writes every bad input its rule names into each of files: (tried, skipped, failures)."""
    setup_shell(lucid)
    tried = skipped = 0
    failures = []
    for path in files:
        pattern, kind = rule_for(path)
        assert pattern is not None, "%s: no rule says how it treats bad input" % path
        if kind is None:
            skipped += 1
            continue
        names = [name for name in BAD_INPUTS if name in kind]
        steps = writes_between_reads(lucid, path, [BAD_FUNCTION[name] for name in names])
        for name, (before, out, after) in zip(names, steps):
            want = kind[name] if isinstance(kind[name], tuple) else (kind[name],)
            if not any(out == "-bash: echo: write error: %s\n" % w for w in want):
                failures.append("%s <- %s: %r, want %s" % (path, name, out, " or ".join(want)))
            if after != before:
                failures.append("%s <- %s changed it: %r -> %r" % (path, name, before, after))
            tried += 1
    return tried, skipped, failures


def test_every_file_refuses_every_bad_input(lucid, where=T, proc=True):
    assert lucid.run("cd %s" % where) == ""
    files = writable_files(lucid, proc)
    assert len(files) > 25, files
    tried, skipped, failures = try_bad_inputs(lucid, files)
    print("  bad input: %d files x inputs tried on %d writable files (%d not targets)" %
          (tried, len(files), skipped))
    assert not failures, "\n".join(failures[:30])
    assert lucid.run("cat current_tracer") == "nop\n"
    assert "Kernel panic" not in lucid.tail(100000)


def test_module_parameters_refuse_every_bad_input(lucid):
    """/sys/module/NAME/parameters/: the writable ones of a loaded module (latency_demo's)."""
    params = "/sys/module/latency_demo/parameters"
    assert lucid.run("modprobe latency_demo") == ""
    try:
        files = ["%s/%s" % (params, name) for name, mode in modes(lucid, params).items()
                 if "w" in mode]
        assert len(files) == 2, files
        tried, _, failures = try_bad_inputs(lucid, files)
        assert tried and not failures, "\n".join(failures[:30])
    finally:
        assert lucid.run("rmmod latency_demo") == ""
    assert "Kernel panic" not in lucid.tail(100000)


# --- instances/ ---------------------------------------------------------------------------------
#
# mkdir and rmdir in instances/ (trace/trace_instances.c): each bad one fails with Linux's errno
# and leaves the instances as they were; an instance's own files follow the rules above.

INSTANCE = "instances/inst"
LONG = "instances/" + "x" * 256
MKDIR_RMDIR = [
    ("mkdir %s" % INSTANCE, "mkdir: can't create directory '%s': File exists" % INSTANCE),
    ("mkdir %s" % LONG, "mkdir: can't create directory '%s': File name too long" % LONG),
    ("mkdir instances/nosuch/x",
     "mkdir: can't create directory 'instances/nosuch/x': No such file or directory"),
    ("mkdir %s/x" % INSTANCE,  # an instance's own directories are the tracer's, as Linux's
     "mkdir: can't create directory '%s/x': Operation not permitted" % INSTANCE),
    ("mkdir %s/events/x" % INSTANCE,
     "mkdir: can't create directory '%s/events/x': Operation not permitted" % INSTANCE),
    ("rmdir instances/nosuch", "rmdir: 'instances/nosuch': No such file or directory"),
    ("rmdir %s/events" % INSTANCE, "rmdir: '%s/events': Operation not permitted" % INSTANCE),
    ("rmdir instances", "rmdir: 'instances': Operation not permitted"),
    ("exec 3< %s/trace; rmdir %s; exec 3<&-" % (INSTANCE, INSTANCE),
     "rmdir: '%s': Device or resource busy" % INSTANCE),
    ("exec 3> %s/trace_marker; rmdir %s; exec 3>&-" % (INSTANCE, INSTANCE),
     "rmdir: '%s': Device or resource busy" % INSTANCE),
]


def test_instances_mkdir_rmdir_errors(lucid):
    assert lucid.run("cd %s; mkdir %s" % (T, INSTANCE)) == ""
    for cmd, err in MKDIR_RMDIR:
        assert lucid.run(cmd) == err + "\n", cmd
        assert lucid.run("ls instances") == "inst\n", cmd
    assert lucid.run("echo ok > %s/trace_marker; rmdir %s; ls instances" % (INSTANCE,
                                                                          INSTANCE)) == ""


def test_instance_files_refuse_every_bad_input(lucid):
    assert lucid.run("cd %s; mkdir %s" % (T, INSTANCE)) == ""
    try:
        test_every_file_refuses_every_bad_input(lucid, "%s/%s" % (T, INSTANCE), proc=False)
    finally:
        assert lucid.run("cd %s; rmdir %s" % (T, INSTANCE)) == ""


# --- Numbers at the limits ----------------------------------------------------------------------
#
# Every numeric file against the numbers where conversions break: 2^32 - 1 and 2^32 (an unsigned
# int), 2^63 (a long), 2^64 - 1 and 2^64 (an unsigned long, and one past it), and for a file
# whose number is converted (kilobytes to bytes, microseconds to nanoseconds) the largest value
# whose conversion still fits and the next one. A number is either refused, with Linux's errno,
# changing nothing, or taken, and then the file reads what is true. Where Linux takes a number
# only to wrap it (buffer_size_kb << 10, tracing_thresh * 1000, max_graph_depth's unsigned int
# printed with %d), Lucid refuses it with EINVAL: see the handlers.

U32_MAX, U32, S64, U64_MAX, U64 = 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64
LIMITS = [U32_MAX, U32, S64, U64_MAX, U64]
KB_FITS = U64_MAX >> 10       # 18014398509481983 KB: the bytes fit, just
US_FITS = U64_MAX // 1000     # 18446744073709551 us: the nanoseconds fit, just
INT_MAX = 2**31 - 1
ENOMEM = "Cannot allocate memory"
EPERM = "Operation not permitted"
SAME = ("reads", None)        # taken, and the file reads as before


def reads(text):
    return ("reads", text + "\n")


def table(big, u64=ERANGE, **extra):
    """Outcomes: `big` for the four numbers an unsigned long holds, u64 for 2^64 (kstrtoul's
    overflow: ERANGE, or EINVAL for a sysctl), and extra ones by value."""
    t = {v: big for v in LIMITS[:-1]}
    t[U64] = u64
    t.update({int(k[1:]): v for k, v in extra.items()})
    return t


REFUSED = table(EINVAL)
# A u64 with no bound (Linux's trace_min_max_param, kstrtoull): each taken as written.
TAKEN = table(EINVAL, **{"v%d" % v: reads(str(v)) for v in LIMITS[:-1]})
NUMERIC = [
    # The buffer: kilobytes a ring cannot hold are ENOMEM (as Linux, which cannot allocate them
    # either); kilobytes whose bytes overflow are EINVAL (Linux shifted them into two pages).
    ("buffer_size_kb", table(EINVAL, **{"v%d" % U32_MAX: ENOMEM, "v%d" % U32: ENOMEM,
                                        "v%d" % KB_FITS: ENOMEM, "v%d" % (KB_FITS + 1): EINVAL})),
    ("per_cpu/cpu*/buffer_size_kb", "buffer_size_kb"),
    # Microseconds, kept in nanoseconds: taken while the nanoseconds fit, and read back whole.
    ("tracing_thresh", table(EINVAL, **{"v%d" % U32_MAX: reads(str(U32_MAX)),
                                        "v%d" % U32: reads(str(U32)),
                                        "v%d" % US_FITS: reads(str(US_FITS)),
                                        "v%d" % (US_FITS + 1): EINVAL})),
    # An unsigned int Linux prints with %d: taken while %d prints it as written.
    ("tracing_max_latency", "tracing_thresh"),  # the same conversion, the same limits
    ("max_graph_depth", table(EINVAL, **{"v%d" % INT_MAX: reads(str(INT_MAX)),
                                         "v%d" % (INT_MAX + 1): EINVAL})),
    # Any number but 0 is "on", as in Linux; stack_max_size resets the maximum.
    ("tracing_on", table(reads("1"))),
    ("function_profile_enabled", table(reads("1"))),
    ("stack_max_size", table(reads("0"))),
    ("snapshot", table(SAME)),       # any number but 0 and 1 clears the snapshot
    ("per_cpu/cpu*/snapshot", "snapshot"),
    ("saved_cmdlines_size", REFUSED),  # at most PID_MAX_DEFAULT
    ("buffer_percent", REFUSED),       # at most 100
    ("options/*", REFUSED),
    ("events/*enable", REFUSED),
    # A pid too big for the list is EPERM (Linux's -1), even one whose low 32 bits are small:
    # Linux made 2^32 pid 0. 2^64 is no number at all: EINVAL, as any bad word.
    ("set_*pid", table(EPERM, u64=EINVAL)),
    ("/proc/sys/kernel/*", table(EINVAL, u64=EINVAL)),  # each has a maximum; sysctls say EINVAL
    # The osnoise, timerlat and hwlat settings: above another setting (runtime_us above
    # period_us, width above window) or a fixed maximum (timerlat_period_us: 1 s) is EINVAL.
    ("osnoise/runtime_us", REFUSED),
    ("osnoise/timerlat_period_us", REFUSED),
    ("osnoise/*", TAKEN),
    ("hwlat_detector/width", REFUSED),
    ("hwlat_detector/window", TAKEN),
]
NUMERIC_KINDS = [NUMBER, BOOL, SYSCTL, SYSCTL_INT, PIDS]


def numeric_rule(path):
    for pattern, outcomes in NUMERIC:
        if fnmatch.fnmatchcase(path, pattern):
            return outcomes if isinstance(outcomes, dict) else dict(NUMERIC)[outcomes]
    return None


def test_numbers_at_the_limits(lucid):
    assert lucid.run("cd %s" % T) == ""
    setup_shell(lucid)
    failures = []
    tried = 0
    for path in writable_files(lucid):
        if not any(rule_for(path)[1] is kind for kind in NUMERIC_KINDS):
            continue
        outcomes = numeric_rule(path)
        assert outcomes is not None, "%s: numeric, but no rule says what big numbers do" % path
        values = sorted(outcomes)
        steps = writes_between_reads(lucid, path, ['echo %d > "$f"' % v for v in values])
        for value, (before, out, after) in zip(values, steps):
            want = outcomes[value]
            tried += 1
            if isinstance(want, str):  # refused, and nothing changed
                if out != "-bash: echo: write error: %s\n" % want:
                    failures.append("%s <- %d: %r, want %s" % (path, value, out, want))
                if after != before:
                    failures.append("%s <- %d changed it: %r -> %r" % (path, value, before, after))
                continue
            if out != "":
                failures.append("%s <- %d: %r, want it taken" % (path, value, out))
            if after != (want[1] or before):
                failures.append("%s <- %d reads %r, want %r" % (path, value, after,
                                                                 want[1] or before))
        first, last = steps[0][0], steps[-1][2]
        if last != first and re.fullmatch(r"\d+\n", first):
            assert lucid.run("echo %s > %s" % (first.strip(), path)) == ""  # as it was
    print("  numbers at the limits: %d writes" % tried)
    assert not failures, "\n".join(failures[:30])
    assert lucid.run("cat buffer_size_kb") == "1408\n"
    assert "Kernel panic" not in lucid.tail(100000)


# --- hist triggers ------------------------------------------------------------------------------
#
# "hist:..." definitions written to a trigger file (trace/trace_events_hist.c): each malformed
# one is refused with Linux 6.1's errno, leaves an error_log line (tests/qemu/trace/test_hist.py
# checks its sentence and caret) where Linux leaves one, and adds no histogram.

ENOENT = "No such file or directory"
ENOMEM = "Cannot allocate memory"
HIST_DEFINITIONS = [
    # (what is written, errno, error_log's line (its sentence, under hist:raw_syscalls:sys_enter
    # unless it says where) or None: Linux logs nothing for it)
    ("hist", EINVAL, None),                          # nothing after the command
    ("hist:vals=hitcount", EINVAL, None),            # no keys
    ("hist:keys=", EINVAL, "Empty assignment"),
    ("hist:keys=nosuchfield", EINVAL, "Couldn't find field"),
    ("hist:keys=id,", EINVAL, "Couldn't find field"),  # an empty name: Linux's caret at 0
    ("hist:keys=id:vals=nosuchfield", EINVAL, "Couldn't find field"),
    ("hist:keys=id.nosuchmod", EINVAL, "Invalid field modifier"),
    ("hist:keys=id.buckets=0", EINVAL, "Invalid field modifier"),
    ("hist:keys=args.execname", EINVAL, "Invalid field modifier"),  # common_pid's only
    ("hist:keys=id:vals=common_pid.sym", EINVAL, "Invalid field modifier"),
    ("hist:keys=id:sort=nosuch", EINVAL, "Sort field must be a key or a val"),
    ("hist:keys=id:sort=id.up", EINVAL, "Invalid sort modifier"),
    ("hist:keys=id:sort=id,hitcount,id", EINVAL, "Too many sort fields (Max = 2)"),
    ("hist:keys=id:sort=,id", EINVAL, "Empty sort field"),
    ("hist:keys=id:size=5", EINVAL, None),            # 2^7 to 2^17 entries
    ("hist:keys=id:size=999999999", EINVAL, None),
    ("hist:keys=id:size=abc", EINVAL, None),
    ("hist:keys=id:nosuchword", EINVAL, None),
    ("hist:keys=id,common_pid,common_type,common_flags", EINVAL, None),  # 3 keys at most
    ("hist:keys=id:vals=common_pid,common_type,common_flags", EINVAL, None),  # 2 vals
    ("hist:keys=args", ENOMEM, None),                 # an array: Linux's create_hist_field fails
    ("hist:keys=id if", EINVAL, None),
    # the filter's own parser logs it, as Linux's set_trigger_filter() lets it
    ("hist:keys=id if nosuch == 1", EINVAL, "event filter parse error: error: Field not found"),
    ("hist:keys=id:cont", ENOENT, "Can't clear or continue a nonexistent hist trigger"),
    ("hist:keys=id:clear", ENOENT, "Can't clear or continue a nonexistent hist trigger"),
]


def test_hist_definitions_refused(lucid):
    assert lucid.run("cd %s" % T) == ""
    trigger = "events/raw_syscalls/sys_enter/trigger"
    before = read(lucid, trigger)
    assert before.startswith("# Available triggers:"), before
    failures = []
    for text, err, sentence in HIST_DEFINITIONS:
        assert lucid.run("echo > error_log") == ""
        out = lucid.run("echo '%s' >> %s" % (text, trigger))
        if out != "-bash: echo: write error: %s\n" % err:
            failures.append("%s: %r, want %s" % (text, out, err))
        log = lucid.run("cat error_log")
        where = "" if sentence and ": error: " in sentence else \
            "hist:raw_syscalls:sys_enter: error: "
        if sentence and "%s%s\n" % (where, sentence) not in log:
            failures.append("%s: error_log %r, want %r" % (text, log, sentence))
        if not sentence and log:
            failures.append("%s: error_log %r, want nothing (as Linux)" % (text, log))
        if read(lucid, trigger) != before or read(lucid, "events/raw_syscalls/sys_enter/hist"):
            failures.append("%s changed the trigger or hist file" % text)
    assert not failures, "\n".join(failures)
    assert read(lucid, "events/raw_syscalls/sys_enter/enable") == "0\n"
    assert "Kernel panic" not in lucid.tail(100000)

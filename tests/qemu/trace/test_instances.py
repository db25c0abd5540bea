"""instances/: trace arrays of their own, made by mkdir and removed by rmdir.

Each instance has its own ring buffers and files (Linux 6.1's list, linux-6.1/instances.txt, less
the files Lucid has not at all); what is done in one shows in no other and not at the top level:
markers, events, filters, pid lists, the function tracer with its own filter, function_graph in
several arrays at once (Linux 6.11), tracing_on, sizes, clocks, options. rmdir gives the memory back (MemFree), and is refused while a file of the
instance is open. trace-cmd -B records and shows an instance's events only.
"""
import re

from tracefs import T, TRACE_PREFIX, cat, fails, ok, reset_tracing, sh, until_reads, until_true

# Heavy, instances made and removed while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

I = "instances"
EBUSY = "rmdir: '%s': Device or resource busy\n"
EEXIST = "mkdir: can't create directory '%s': File exists\n"
# Linux 6.1's instance files (linux-6.1/instances.txt) that Lucid's instances have.
INSTANCE_FILES = ["available_tracers", "buffer_percent", "buffer_size_kb",
                  "buffer_total_size_kb", "current_tracer", "error_log", "events", "free_buffer",
                  "options", "per_cpu", "set_event", "set_event_notrace_pid", "set_event_pid",
                  "set_ftrace_filter", "set_ftrace_notrace", "set_ftrace_notrace_pid",
                  "set_ftrace_pid", "snapshot", "timestamp_mode", "trace", "trace_clock",
                  "trace_marker", "trace_marker_raw", "trace_options", "trace_pipe",
                  "tracing_cpumask", "tracing_on"]
# An event line: "name: body", or a function's "func <-parent".
LINE = re.compile("^" + TRACE_PREFIX + r"(?P<what>[^\s:]+):? ?(?P<body>.*)$")


def lines(k, path):
    """The event lines of a trace file, parsed (header lines left out)."""
    out = cat(k, path)
    got = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = LINE.match(line)
        assert m, "not an event line: %r" % line
        got.append(m.groupdict())
    return got


def memfree(k):
    return int(re.search(r"MemFree: +(\d+) kB", sh(k, "cat /proc/meminfo")).group(1))


def test_tree(lucid):
    reset_tracing(lucid)
    assert sh(lucid, "ls %s" % I) == ""
    assert "  instances\t\t- Make sub-buffers with: mkdir instances/foo\n" in cat(lucid, "README")
    ok(lucid, "mkdir %s/foo" % I)
    assert sh(lucid, "ls -1 %s/foo" % I).split() == INSTANCE_FILES
    # The tracers an instance may use: Linux 6.1's (osnoise, timerlat and hwlat are among them
    # where they are built), and function_graph (Linux 6.11).
    assert cat(lucid, "%s/foo/available_tracers" % I) == \
        "timerlat osnoise hwlat function_graph function nop\n"
    assert cat(lucid, "%s/foo/current_tracer" % I) == "nop\n"
    assert cat(lucid, "%s/foo/tracing_on" % I) == "1\n"
    assert cat(lucid, "%s/foo/buffer_size_kb" % I) == "1408\n"
    # The same files as the top level's: per_cpu/cpuN, options/ (core options), events/.
    assert sh(lucid, "ls %s/foo/per_cpu" % I) == sh(lucid, "ls per_cpu")
    assert sh(lucid, "ls %s/foo/per_cpu/cpu0" % I) == sh(lucid, "ls per_cpu/cpu0")
    for opt in ["print-parent", "markers", "overwrite", "irq-info", "event-fork"]:
        assert sh(lucid, "ls %s/foo/options/%s" % (I, opt)) == "%s/foo/options/%s\n" % (I, opt)
    assert sh(lucid, "ls -1 %s/foo/events" % I) == sh(lucid, "ls -1 events")
    # Every event's files, its trigger too (Linux's triggers are per trace_event_file), and
    # each system's enable and filter, as the top level's.
    assert sh(lucid, "ls -1 %s/foo/events/sched/sched_switch" % I) == \
        "enable\nfilter\nformat\nhist\nid\ntrigger\n"
    assert sh(lucid, "ls -1 %s/foo/events/sched" % I) == sh(lucid, "ls -1 events/sched")
    assert sh(lucid, "ls -1 %s/foo/events/ftrace/print" % I) == \
        sh(lucid, "ls -1 events/ftrace/print")
    for f in ["format", "id"]:
        assert cat(lucid, "%s/foo/events/sched/sched_switch/%s" % (I, f)) == \
            cat(lucid, "events/sched/sched_switch/%s" % f)
    assert cat(lucid, "%s/foo/events/header_page" % I) == cat(lucid, "events/header_page")
    # An instance's trace_options starts as the top level's, less event-fork and function-fork.
    ok(lucid, "echo 1 > options/event-fork")
    ok(lucid, "mkdir %s/bar" % I)
    assert cat(lucid, "%s/bar/options/event-fork" % I) == "0\n"
    assert cat(lucid, "%s/bar/trace_options" % I) == cat(lucid, "trace_options").replace(
        "\nevent-fork\n", "\nnoevent-fork\n")
    ok(lucid, "echo 0 > options/event-fork")
    ok(lucid, "rmdir %s/foo; rmdir %s/bar" % (I, I))
    assert sh(lucid, "ls %s" % I) == ""


def test_buffers_and_settings_are_the_instances_own(lucid):
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    ok(lucid, "echo counter > %s/foo/trace_clock" % I)  # (a new clock empties the buffer)
    ok(lucid, "echo into-foo > %s/foo/trace_marker" % I)
    ok(lucid, "echo into-top > trace_marker")
    ok(lucid, "echo 0 > %s/bar/tracing_on" % I)
    # A marker into a buffer that is off: Linux's EBADF.
    assert sh(lucid, "echo into-bar > %s/bar/trace_marker" % I) == \
        "-bash: echo: write error: Bad file descriptor\n"
    assert [l["body"] for l in lines(lucid, "%s/foo/trace" % I)] == ["into-foo"]
    assert [l["body"] for l in lines(lucid, "trace")] == ["into-top"]
    assert lines(lucid, "%s/bar/trace" % I) == []  # its tracing_on only
    assert cat(lucid, "tracing_on") == "1\n" and cat(lucid, "%s/foo/tracing_on" % I) == "1\n"
    # Sizes, clocks, options: each array's.
    ok(lucid, "echo 100 > %s/bar/buffer_size_kb" % I)  # (bar's: a resize empties it)
    assert cat(lucid, "%s/bar/buffer_size_kb" % I) == "100\n"
    assert cat(lucid, "%s/bar/per_cpu/cpu0/buffer_size_kb" % I) == "100\n"
    assert cat(lucid, "buffer_size_kb") == "1408\n"
    assert cat(lucid, "%s/foo/buffer_size_kb" % I) == "1408\n"
    assert "[counter]" in cat(lucid, "%s/foo/trace_clock" % I)
    assert "[local]" in cat(lucid, "trace_clock")
    ok(lucid, "echo nomarkers > %s/foo/trace_options" % I)
    assert cat(lucid, "%s/foo/options/markers" % I) == "0\n"
    assert cat(lucid, "options/markers") == "1\n"
    assert sh(lucid, "echo x > %s/foo/trace_marker" % I) == \
        "-bash: echo: write error: Invalid argument\n"
    ok(lucid, "echo y > trace_marker")
    # Clearing one trace leaves the others.
    ok(lucid, "echo > trace")
    assert [l["body"] for l in lines(lucid, "%s/foo/trace" % I)] == ["into-foo"]
    # trace_pipe of an instance consumes its events only.
    ok(lucid, "echo 1 > %s/bar/tracing_on; echo piped > %s/bar/trace_marker" % (I, I))
    assert "piped" in sh(lucid, "timeout 2 cat %s/bar/trace_pipe" % I)
    assert lines(lucid, "%s/bar/trace" % I) == []
    assert [l["body"] for l in lines(lucid, "%s/foo/trace" % I)] == ["into-foo"]
    # snapshot: the instance's own spare.
    ok(lucid, "echo 1 > %s/foo/snapshot" % I)
    assert "into-foo" in cat(lucid, "%s/foo/snapshot" % I)
    assert "into-foo" not in cat(lucid, "snapshot")
    ok(lucid, "rmdir %s/foo; rmdir %s/bar" % (I, I))


def test_events_filters_and_pids_per_instance(lucid):
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    # The same event in both instances and the top level, each with its own filter.
    ok(lucid, "echo 'next_pid == 0' > %s/foo/events/sched/sched_switch/filter" % I)
    ok(lucid, "echo 'prev_pid == 0' > %s/bar/events/sched/sched_switch/filter" % I)
    ok(lucid, "echo sched:sched_switch > %s/foo/set_event" % I)
    ok(lucid, "echo 1 > %s/bar/events/sched/sched_switch/enable" % I)
    ok(lucid, "echo 1 > %s/bar/events/sched/sched_wakeup/enable" % I)
    ok(lucid, "echo 1 > events/irq/enable")
    sh(lucid, "sleep 0.2; cat /dev/null")
    ok(lucid, "echo 0 > %s/foo/tracing_on; echo 0 > %s/bar/tracing_on; echo 0 > tracing_on"
       % (I, I))
    foo, bar, top = (lines(lucid, p) for p in ["%s/foo/trace" % I, "%s/bar/trace" % I, "trace"])
    assert foo and all(l["what"] == "sched_switch" and "next_pid=0 " in l["body"] for l in foo)
    assert {l["what"] for l in bar} == {"sched_switch", "sched_wakeup"}, bar
    assert all(" prev_pid=0 " in l["body"] for l in bar if l["what"] == "sched_switch")
    assert top and {l["what"] for l in top} <= {"irq_handler_entry", "irq_handler_exit"}, top
    assert cat(lucid, "%s/foo/set_event" % I) == "sched:sched_switch\n"
    assert cat(lucid, "%s/bar/set_event" % I) == "sched:sched_switch\nsched:sched_wakeup\n"
    assert cat(lucid, "set_event") == "irq:irq_handler_entry\nirq:irq_handler_exit\n"
    assert cat(lucid, "%s/foo/events/sched/sched_switch/filter" % I) == "next_pid == 0\n"
    assert cat(lucid, "events/sched/sched_switch/filter") == "none\n"
    assert cat(lucid, "%s/bar/events/sched/enable" % I) == "X\n"
    assert cat(lucid, "%s/foo/events/enable" % I) == "X\n"
    assert cat(lucid, "events/sched/sched_switch/enable") == "0\n"
    # set_event_pid: foo keeps the shell's switches only, bar everyone's.
    ok(lucid, "echo 0 > %s/foo/events/sched/sched_switch/filter; echo 0 > "
       "%s/bar/events/sched/sched_switch/filter" % (I, I))
    ok(lucid, "echo > %s/foo/trace; echo > %s/bar/trace; echo > trace" % (I, I))
    pid = sh(lucid, "echo $$").strip()
    ok(lucid, "echo $$ > %s/foo/set_event_pid" % I)
    assert cat(lucid, "%s/foo/set_event_pid" % I) == pid + "\n"
    assert cat(lucid, "set_event_pid") == ""
    ok(lucid, "echo 1 > %s/foo/tracing_on; echo 1 > %s/bar/tracing_on" % (I, I))
    sh(lucid, "sleep 0.2; cat /dev/null; sleep 0.1")
    ok(lucid, "echo 0 > %s/foo/tracing_on; echo 0 > %s/bar/tracing_on" % (I, I))
    foo = lines(lucid, "%s/foo/trace" % I)
    bar = [l for l in lines(lucid, "%s/bar/trace" % I) if l["what"] == "sched_switch"]
    mine = re.compile(r"(prev|next)_pid=%s " % pid)
    assert foo and all(mine.search(l["body"]) for l in foo), foo
    assert any(not mine.search(l["body"]) for l in bar), bar
    # Off in one instance: still on in the other.
    ok(lucid, "echo '!sched_switch' >> %s/foo/set_event" % I)
    assert cat(lucid, "%s/foo/set_event" % I) == ""
    assert cat(lucid, "%s/bar/events/sched/sched_switch/enable" % I) == "1\n"
    ok(lucid, "echo 0 > events/irq/enable; echo 1 > tracing_on")
    ok(lucid, "rmdir %s/foo; rmdir %s/bar" % (I, I))


def test_function_tracer_in_two_instances(lucid):
    # Linux 6.1 allows the function tracer in instances, each with its own set_ftrace_filter.
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    ok(lucid, "echo vfs_read > %s/foo/set_ftrace_filter" % I)
    ok(lucid, "echo vfs_write > %s/bar/set_ftrace_filter" % I)
    assert cat(lucid, "set_ftrace_filter").startswith("#### all functions enabled ####")
    ok(lucid, "echo function > %s/foo/current_tracer; echo function > %s/bar/current_tracer"
       % (I, I))
    assert cat(lucid, "current_tracer") == "nop\n"
    sh(lucid, "cat %s/foo/tracing_on > /dev/null; echo hi > /dev/null" % I)
    ok(lucid, "echo 0 > %s/foo/tracing_on; echo 0 > %s/bar/tracing_on" % (I, I))
    foo, bar = lines(lucid, "%s/foo/trace" % I), lines(lucid, "%s/bar/trace" % I)
    assert foo and {l["what"] for l in foo} == {"vfs_read"}, foo
    assert bar and {l["what"] for l in bar} == {"vfs_write"}, bar
    assert lines(lucid, "trace") == []
    # The function tracer's own option is the top level's (one value in Lucid): an instance's
    # trace_options neither lists nor takes it, so it cannot change the top level's.
    assert "func_stack_trace" not in cat(lucid, "%s/foo/trace_options" % I)
    assert sh(lucid, "echo func_stack_trace > %s/foo/trace_options" % I) == \
        "-bash: echo: write error: Invalid argument\n"
    # set_ftrace_pid: each array's own. The top level's does not narrow foo's; foo's keeps
    # only the shell's calls (the cat's are left out), and the top level's stays empty.
    ok(lucid, "echo 1 > set_ftrace_pid; echo > %s/foo/trace; echo 1 > %s/foo/tracing_on"
       % (I, I))
    sh(lucid, "cat %s/foo/tracing_on > /dev/null" % I)
    ok(lucid, "echo 0 > %s/foo/tracing_on; echo > set_ftrace_pid" % I)
    assert any(l["what"] == "vfs_read" and l["comm"].strip() == "cat"
               for l in lines(lucid, "%s/foo/trace" % I))
    ok(lucid, "echo $$ > %s/foo/set_ftrace_pid; echo > %s/foo/trace; echo 1 > %s/foo/tracing_on"
       % (I, I, I))
    assert cat(lucid, "set_ftrace_pid") == "no pid\n"
    sh(lucid, "cat %s/foo/tracing_on > /dev/null; read x < %s/foo/tracing_on" % (I, I))
    ok(lucid, "echo 0 > %s/foo/tracing_on" % I)
    pid = sh(lucid, "echo $$").strip()
    foo = lines(lucid, "%s/foo/trace" % I)
    assert foo and all(l["pid"] == pid for l in foo), foo
    # Tracers an instance may not use are refused, as Linux's.
    assert sh(lucid, "echo sched_switch > %s/foo/current_tracer" % I) == \
        "-bash: echo: write error: Invalid argument\n"
    ok(lucid, "rmdir %s/foo; rmdir %s/bar" % (I, I))


def test_rmdir_busy_and_errors(lucid):
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo" % I)
    assert sh(lucid, "mkdir %s/foo" % I) == EEXIST % ("%s/foo" % I)
    assert lucid.status() == 1
    # A file of it open: EBUSY, and the instance works on.
    for f in ["trace", "events/sched/sched_switch/enable", "per_cpu/cpu0/trace_pipe_raw",
              "options/overwrite"]:
        assert sh(lucid, "exec 3< %s/foo/%s; rmdir %s/foo; exec 3<&-" % (I, f, I)) == \
            EBUSY % ("%s/foo" % I), f
    ok(lucid, "echo still > %s/foo/trace_marker" % I)
    # A trace_pipe reader waiting in the background.
    ok(lucid, "sh -c 'cat %s/foo/trace_pipe > /dev/null & echo $! > /tmp/reader'"
       % I)  # (started by sh: no job notice from the interactive shell)
    until_true(lucid, "ls -l /proc/$(cat /tmp/reader)/fd | grep -q trace_pipe")  # it has it open
    assert sh(lucid, "rmdir %s/foo" % I) == EBUSY % ("%s/foo" % I)
    ok(lucid, "kill $(cat /tmp/reader)")
    until_true(lucid, "[ ! -d /proc/$(cat /tmp/reader) ]")  # gone, and its files closed
    ok(lucid, "rm /tmp/reader; rmdir %s/foo" % I)
    for cmd, err in [
            ("rmdir %s/foo" % I, "rmdir: '%s/foo': No such file or directory\n" % I),
            ("mkdir %s/a/b" % I, "mkdir: can't create directory '%s/a/b': "
             "No such file or directory\n" % I),
            ("mkdir %s/%s" % (I, "x" * 256), "mkdir: can't create directory '%s/%s': "
             "File name too long\n" % (I, "x" * 256))]:
        assert sh(lucid, cmd) == err, cmd
        assert lucid.status() == 1
    # Any other name is a name (Linux checks none): blanks, dots, UTF-8 (made by printf: the
    # console's line editing is not what is tested here).
    for name in ["a b", "...", "x.y", "$(printf '\\303\\251t\\303\\251')"]:
        ok(lucid, "n=\"%s\"; mkdir \"%s/$n\"" % (name, I))
        ok(lucid, "echo m > \"%s/$n/trace_marker\"" % I)
        ok(lucid, "rmdir \"%s/$n\"" % I)
    assert sh(lucid, "ls %s" % I) == ""


def test_memory_comes_back(lucid):
    reset_tracing(lucid)
    cycle = ("for i in $(seq 100); do mkdir %s/x && echo 1 > %s/x/events/sched/enable && "
             "echo m > %s/x/trace_marker && echo function > %s/x/current_tracer && "
             "rmdir %s/x || break; done" % (I, I, I, I, I))
    ok(lucid, cycle, timeout=600)  # warm up: the allocator's first pages for this use
    before = memfree(lucid)
    ok(lucid, "mkdir %s/x" % I)
    held = before - memfree(lucid)
    # One instance holds its buffers: 1408 KB a CPU at least.
    assert held >= 1408 * len(sh(lucid, "ls per_cpu").split()), held
    ok(lucid, "rmdir %s/x" % I)
    ok(lucid, cycle, timeout=600)
    after = memfree(lucid)
    # 100 more instances made, used and removed: at most 4 pages less, the allocator's slack
    # (a partly used page of small blocks); leaking even one instance's event files (about 8 KB)
    # each time would lose 800 KB.
    assert before - after <= 16, (before, after)
    assert sh(lucid, "ls %s" % I) == ""
    # Many at once: as many as memory holds, then a clean ENOMEM, then all removed.
    out = sh(lucid, "n=0; while [ $n -lt 200 ] && mkdir %s/m$n 2>/dev/null; do n=$((n+1)); "
             "done; echo $n; ls %s | wc -l" % (I, I), timeout=600)
    made, listed = (int(x) for x in out.split())
    assert made == listed and made >= 5, out
    ok(lucid, "for d in %s/m*; do rmdir $d; done" % I, timeout=600)
    assert sh(lucid, "ls %s" % I) == ""
    assert before - memfree(lucid) <= 16


def test_trace_cmd_buffer_instance(lucid):
    reset_tracing(lucid)
    # Events at the top level meanwhile: the report of -B foo must not show them.
    ok(lucid, "echo 1 > events/sched/sched_wakeup/enable")
    out = sh(lucid, "cd /tmp; trace-cmd record -B foo -e sched:sched_switch recwait sleep 0.5 "
             "> /dev/null 2>&1; echo $?; cd %s" % T, timeout=300)
    assert out == "0\n", out
    assert sh(lucid, "ls %s" % I) == ""  # trace-cmd removed the instance it made
    report = sh(lucid, "cd /tmp; trace-cmd report 2>&1; cd %s" % T, timeout=300)
    events = [l for l in report.splitlines() if re.match(r"^\s*foo:", l)]
    assert events, report[-3000:]
    assert all(re.search(r" sched_switch: +prev_comm=", l) for l in events), events[:5]
    assert "sched_wakeup" not in report, report[-3000:]
    ok(lucid, "echo 0 > events/sched/sched_wakeup/enable; rm /tmp/trace.dat")
    # trace-cmd show -B, list, stat with an instance.
    ok(lucid, "mkdir %s/bar; echo shown > %s/bar/trace_marker" % (I, I))
    out = sh(lucid, "trace-cmd show -B bar", timeout=120)
    assert out == cat(lucid, "%s/bar/trace" % I) and "shown" in out, out
    assert "Instances:\n bar\n" in sh(lucid, "trace-cmd stat 2>/dev/null", timeout=120)
    assert sh(lucid, "trace-cmd list -e sched_switch", timeout=120) == "sched:sched_switch\n"
    ok(lucid, "rmdir %s/bar" % I)


def test_error_log_cpumask_options_files_per_instance(lucid):
    # Linux keeps these per instance too: error_log, tracing_cpumask, trace_marker_raw,
    # buffer_percent, free_buffer, and every core option (stacktrace here).
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; echo > error_log" % I)
    assert sh(lucid, "echo 'bogus ==' > %s/foo/events/sched/sched_switch/filter" % I) == \
        "-bash: echo: write error: Invalid argument\n"
    log = cat(lucid, "%s/foo/error_log" % I)
    assert re.match(r"^\[ *\d+\.\d+\] event filter parse error: error: Field not found\n"
                    r"  Command: bogus ==\n {17}\^\n$", log), log
    assert cat(lucid, "error_log") == ""
    ok(lucid, "echo > %s/foo/error_log" % I)
    assert cat(lucid, "%s/foo/error_log" % I) == ""
    # tracing_cpumask: foo's alone.
    top_mask = cat(lucid, "tracing_cpumask")
    ok(lucid, "echo 1 > %s/foo/tracing_cpumask" % I)
    assert cat(lucid, "%s/foo/tracing_cpumask" % I) == "1\n"
    assert cat(lucid, "tracing_cpumask") == top_mask
    ok(lucid, "echo %s > %s/foo/tracing_cpumask" % (top_mask.strip(), I))
    # trace_marker_raw: into foo's buffer only.
    ok(lucid, "printf 'abcdxyz' > %s/foo/trace_marker_raw" % I)
    raw = [l for l in cat(lucid, "%s/foo/trace" % I).splitlines() if " buf: " in l]
    assert len(raw) == 1 and "# 64636261 buf: 78 79 7a" in raw[0], raw
    assert " buf: " not in cat(lucid, "trace")
    # buffer_percent: foo's alone.
    ok(lucid, "echo 20 > %s/foo/buffer_percent" % I)
    assert cat(lucid, "%s/foo/buffer_percent" % I) == "20\n"
    assert cat(lucid, "buffer_percent") == "50\n"
    # options/stacktrace in foo: foo's events have a stack after them, the top level's none.
    ok(lucid, "echo > %s/foo/trace; echo 1 > %s/foo/options/stacktrace" % (I, I))
    ok(lucid, "echo 1 > %s/foo/events/sched/sched_process_exec/enable" % I)
    ok(lucid, "echo 1 > events/sched/sched_process_exec/enable")
    sh(lucid, "cat /dev/null")
    ok(lucid, "echo 0 > %s/foo/tracing_on; echo 0 > tracing_on" % I)
    assert "<stack trace>" in cat(lucid, "%s/foo/trace" % I)
    assert "sched_process_exec" in cat(lucid, "trace")
    assert "<stack trace>" not in cat(lucid, "trace")
    assert cat(lucid, "options/stacktrace") == "0\n"
    ok(lucid, "echo 0 > events/sched/sched_process_exec/enable; echo 1 > tracing_on")
    # free_buffer: closing it shrinks foo's buffer, not the top level's.
    ok(lucid, "echo > %s/foo/free_buffer" % I)
    assert cat(lucid, "%s/foo/buffer_size_kb" % I) != "1408\n"
    assert cat(lucid, "buffer_size_kb") == "1408\n"
    ok(lucid, "rmdir %s/foo" % I)


HELP = ("# Available triggers:\n"
        "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist"
        " disable_hist hist\n")
EXEC = "events/sched/sched_process_exec/"  # hit only by exec: never by bash's builtins


def bcat(k, name):
    """A tracing file read by bash itself (mapfile, a builtin): busybox's cat would be an exec,
    and fire the exec triggers the tests below count."""
    return sh(k, 'mapfile a < %s/%s; printf %%s "${a[@]}"' % (T, name))


def hello(k):
    assert sh(k, "hello", timeout=60) == "Hello, world!\n"


def test_event_triggers_act_on_their_instance(lucid):
    # Linux's triggers belong to a trace_event_file: foo's act on foo, and neither the top
    # level nor bar sees them.
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    foo, bar = "%s/foo/" % I, "%s/bar/" % I
    t = foo + EXEC + "trigger"
    ok(lucid, "echo 1 > %s%senable; echo 1 > %s%senable; echo 1 > %senable"
       % (foo, EXEC, bar, EXEC, EXEC))
    ok(lucid, "echo 'traceoff if filename ~ \"*hello*\"' > " + t)
    assert bcat(lucid, t) == "traceoff:unlimited if filename ~ \"*hello*\"\n"
    assert bcat(lucid, EXEC + "trigger") == HELP
    assert bcat(lucid, bar + EXEC + "trigger") == HELP
    hello(lucid)
    assert bcat(lucid, foo + "tracing_on") == "0\n"
    assert bcat(lucid, "tracing_on") == "1\n" and bcat(lucid, bar + "tracing_on") == "1\n"
    # traceoff runs after its record: foo's last word is the exec that stopped it.
    fl = [l for l in lines(lucid, foo + "trace")]
    assert fl and "filename=/bin/hello" in fl[-1]["body"], fl
    hello(lucid)  # recorded by the top level and bar, not by foo (off)
    assert len([l for l in lines(lucid, "trace") if "/bin/hello" in l["body"]]) == 2
    assert len([l for l in lines(lucid, bar + "trace") if "/bin/hello" in l["body"]]) == 2
    assert len([l for l in lines(lucid, foo + "trace") if "/bin/hello" in l["body"]]) == 1
    ok(lucid, "echo '!traceoff' > " + t)
    assert bcat(lucid, t) == HELP
    # traceon with a count, in foo: it turns foo on, once.
    ok(lucid, "echo 'traceon:1 if filename ~ \"*hello*\"' > " + t)
    ok(lucid, "echo 0 > tracing_on")
    hello(lucid)
    assert bcat(lucid, foo + "tracing_on") == "1\n" and bcat(lucid, "tracing_on") == "0\n"
    assert bcat(lucid, t) == "traceon:count=0 if filename ~ \"*hello*\"\n"
    ok(lucid, "echo '!traceon' > %s; echo 1 > tracing_on" % t)
    ok(lucid, "echo 0 > %s%senable; echo 0 > %s%senable; echo 0 > %senable"
       % (foo, EXEC, bar, EXEC, EXEC))
    ok(lucid, "rmdir %s/foo; rmdir %s/bar" % (I, I))


def test_instance_stacktrace_enable_event_and_snapshot_triggers(lucid):
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo" % I)
    foo = "%s/foo/" % I
    # stacktrace on a soft-disabled event: foo's enable reads 0*, the top level's is untouched,
    # and the stacks go into foo's buffer only.
    sw = foo + "events/sched/sched_switch/"
    ok(lucid, "echo 'stacktrace:3 if prev_state & 3' > %strigger" % sw)
    assert bcat(lucid, sw + "enable") == "0*\n"
    assert bcat(lucid, "events/sched/sched_switch/enable") == "0\n"
    sh(lucid, "sleep 0.1; sleep 0.1; sleep 0.1; sleep 0.1")
    assert bcat(lucid, sw + "trigger") == "stacktrace:count=0 if prev_state & 3\n"
    ok(lucid, "echo '!stacktrace' > %strigger" % sw)
    out = bcat(lucid, foo + "trace")
    assert out.count("<stack trace>") == 3, out[-2000:]
    assert "sched_switch:" not in out  # soft disabled: the event itself is not recorded
    assert "<stack trace>" not in bcat(lucid, "trace")
    assert bcat(lucid, sw + "enable") == "0\n"
    ok(lucid, "echo > %strace" % foo)
    # enable_event names foo's own file of the target: foo's sched_wakeup is held (0*) and
    # switched on by the exec; the top level's stays off.
    t = foo + EXEC + "trigger"
    wk = foo + "events/sched/sched_wakeup/enable"
    ok(lucid, "echo 'enable_event:sched:sched_wakeup:1 if filename ~ \"*hello*\"' > " + t)
    assert bcat(lucid, wk) == "0*\n"
    assert bcat(lucid, "events/sched/sched_wakeup/enable") == "0\n"
    assert bcat(lucid, foo + EXEC + "enable") == "0*\n"
    hello(lucid)
    assert bcat(lucid, wk) == "1*\n"
    assert bcat(lucid, "events/sched/sched_wakeup/enable") == "0\n"
    sh(lucid, "sleep 0.1")
    assert any(l["what"] == "sched_wakeup" for l in lines(lucid, foo + "trace"))
    assert not any(l["what"] == "sched_wakeup" for l in lines(lucid, "trace"))
    ok(lucid, "echo '!enable_event:sched:sched_wakeup' > " + t)
    # (with its last hold gone, the target is as the trigger left it: on, as on Linux)
    assert bcat(lucid, wk) == "1\n" and bcat(lucid, t) == HELP
    ok(lucid, "echo 0 > " + wk)
    # snapshot: foo's buffer swapped with foo's spare.
    ok(lucid, "echo 1 > %senable" % sw)
    ok(lucid, "echo 'snapshot:1 if filename ~ \"*hello*\"' > " + t)
    assert "# * Snapshot is freed *" in bcat(lucid, "snapshot")  # the top level's: none
    hello(lucid)
    # the swap is made from task context, after the next tick: then foo records again
    assert until_reads(lucid, foo + "tracing_on") == "1\n"
    assert bcat(lucid, t) == "snapshot:count=0 if filename ~ \"*hello*\"\n"
    assert "sched_switch:" in bcat(lucid, foo + "snapshot")
    ok(lucid, "echo '!snapshot' > %s; echo 0 > %senable" % (t, sw))
    # A refused trigger is logged in foo's error_log, not the top level's.
    ok(lucid, "echo > error_log")
    assert sh(lucid, "echo 'enable_event:sched:nosuch' > " + t) == \
        "-bash: echo: write error: Invalid argument\n"
    assert "trigger:sched:sched_process_exec: error: Event not found" in \
        bcat(lucid, foo + "error_log")
    assert bcat(lucid, "error_log") == ""
    ok(lucid, "rmdir %s/foo" % I)


def test_marker_triggers_and_rmdir_with_triggers(lucid):
    # events/ftrace/print/trigger in an instance: its own trace_marker runs it.
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo" % I)
    foo = "%s/foo/" % I
    ok(lucid, "echo 'traceoff if buf ~ \"*stop*\"' > %sevents/ftrace/print/trigger" % foo)
    ok(lucid, "echo please stop > trace_marker")
    assert cat(lucid, "tracing_on") == "1\n" and cat(lucid, foo + "tracing_on") == "1\n"
    ok(lucid, "echo go on > %strace_marker; echo please stop > %strace_marker" % (foo, foo))
    assert cat(lucid, foo + "tracing_on") == "0\n"
    assert [l["body"] for l in lines(lucid, foo + "trace")] == ["go on", "please stop"]
    # rmdir with triggers in place (one holding another event of foo's): all of it goes, and
    # the top level's events are as they were.
    ok(lucid, "echo 'enable_event:sched:sched_wakeup' > %sevents/sched/sched_switch/trigger"
       % foo)
    ok(lucid, "echo 1 > events/sched/sched_wakeup/enable")
    ok(lucid, "rmdir %s/foo" % I)
    assert cat(lucid, "events/sched/sched_wakeup/enable") == "1\n"
    assert cat(lucid, "events/sched/sched_switch/enable") == "0\n"
    assert cat(lucid, "events/sched/sched_switch/trigger") == HELP
    ok(lucid, "echo 0 > events/sched/sched_wakeup/enable")


def commands(k, path):
    return [l for l in cat(k, path).splitlines() if ":" in l]


def test_function_commands_act_on_their_instance(lucid):
    # An instance's set_ftrace_filter takes Linux's commands; they act on that instance and are
    # listed in its file only (Linux's probes belong to a trace array).
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo" % I)
    foo = "%s/foo/" % I
    ok(lucid, "echo 'ftest_leaf:traceoff' > %sset_ftrace_filter" % foo)
    assert commands(lucid, foo + "set_ftrace_filter") == ["ftest_leaf:traceoff:unlimited"]
    assert commands(lucid, "set_ftrace_filter") == []
    ok(lucid, "ftest call")
    assert cat(lucid, foo + "tracing_on") == "0\n" and cat(lucid, "tracing_on") == "1\n"
    ok(lucid, "echo '!ftest_leaf:traceoff' >> %sset_ftrace_filter" % foo)
    ok(lucid, "echo 'ftest_leaf:traceon:1' >> %sset_ftrace_filter" % foo)
    ok(lucid, "echo 0 > tracing_on; ftest call")
    assert cat(lucid, foo + "tracing_on") == "1\n" and cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo '!ftest_leaf:traceon:0' >> %sset_ftrace_filter; echo 1 > tracing_on" % foo)
    # stacktrace: the stack goes into foo's buffer.
    ok(lucid, "echo 'ftest_leaf:stacktrace:1' >> %sset_ftrace_filter" % foo)
    ok(lucid, "ftest call")
    out = cat(lucid, foo + "trace")
    assert out.count("<stack trace>") == 1 and " => ftest_mid" in out, out
    assert "<stack trace>" not in cat(lucid, "trace")
    ok(lucid, "echo '!ftest_leaf:stacktrace:0' >> %sset_ftrace_filter" % foo)
    # enable_event names foo's file of the event: foo's enable reads 0*, then 1*.
    exec_en = "events/sched/sched_process_exec/enable"
    ok(lucid, "echo 'ftest_leaf:enable_event:sched:sched_process_exec:1' >> %sset_ftrace_filter"
       % foo)
    assert cat(lucid, foo + exec_en) == "0*\n" and cat(lucid, exec_en) == "0\n"
    ok(lucid, "ftest call")
    assert cat(lucid, foo + exec_en) == "1*\n" and cat(lucid, exec_en) == "0\n"
    # snapshot: foo's spare buffer, not the top level's.
    ok(lucid, "echo 'ftest_leaf:snapshot:1' >> %sset_ftrace_filter" % foo)
    assert "# * Snapshot is freed *" in cat(lucid, "snapshot")
    ok(lucid, "echo in-foo > %strace_marker; ftest call" % foo)
    assert until_reads(lucid, foo + "tracing_on") == "1\n"  # snapshotd swapped
    assert "in-foo" in cat(lucid, foo + "snapshot")
    assert "# * Snapshot is freed *" in cat(lucid, "snapshot")
    # dump: foo's buffer on the console, under Linux's (6.9+) heading for an instance.
    ok(lucid, "echo > %strace; echo mark-foo > %strace_marker; echo mark-top > trace_marker"
       % (foo, foo))
    ok(lucid, "echo 'ftest_leaf:dump' >> %sset_ftrace_filter" % foo)
    out = sh(lucid, "ftest call")
    assert "Dumping ftrace instance foo buffer:" in out and "mark-foo" in out, out
    assert "mark-top" not in out
    assert cat(lucid, foo + "tracing_on") == "0\n" and cat(lucid, "tracing_on") == "1\n"
    assert commands(lucid, foo + "set_ftrace_filter") == [
        "ftest_leaf:dump:count=0", "ftest_leaf:snapshot:count=0",
        "ftest_leaf:enable_event:sched:sched_process_exec:count=0"]
    # A refused command is logged in foo's error_log.
    ok(lucid, "echo > error_log")
    fails(lucid, "echo 'ftest_leaf:enable_event:sched:nosuch' >> %sset_ftrace_filter" % foo)
    assert "set_ftrace_filter: error: Event not found" in cat(lucid, foo + "error_log")
    assert cat(lucid, "error_log") == ""
    # rmdir with the commands in place: they go with it, and their holds too.
    ok(lucid, "rmdir %s/foo" % I)
    assert commands(lucid, "set_ftrace_filter") == []
    assert cat(lucid, exec_en) == "0\n"
    ok(lucid, "mkdir %s/foo" % I)
    assert commands(lucid, foo + "set_ftrace_filter") == []
    ok(lucid, "rmdir %s/foo" % I)


GRAPH = re.compile(r"^ *\d+\) +(?:[+!#*@$ ] )?(?:[\d.]+ us)? *\| +(?P<body>.*)$")


def graph_bodies(k, path):
    """The function-call column of a function_graph trace file."""
    out = cat(k, path)
    assert out.startswith("# tracer: function_graph\n"), out
    return [m["body"].strip() for m in map(GRAPH.match, out.splitlines()) if m]


def test_function_graph_in_an_instance(lucid):
    # Linux 6.11 runs function_graph in instances, with the instance's own set_ftrace_filter
    # and set_ftrace_pid and its own buffer.
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    foo = "%s/foo/" % I
    ok(lucid, "echo 'ftest_*' > %sset_ftrace_filter" % foo)
    ok(lucid, "echo function_graph > %scurrent_tracer" % foo)
    assert cat(lucid, "current_tracer") == "nop\n"
    ok(lucid, "ftest call")
    out = cat(lucid, foo + "trace")
    assert out.startswith("# tracer: function_graph\n"), out
    bodies = [m["body"].strip() for m in map(GRAPH.match, out.splitlines()) if m]
    assert bodies[:5] == ["ftest_outer() {", "ftest_mid() {", "ftest_leaf();", "}", "}"], out
    assert lines(lucid, "trace") == []
    # Its set_ftrace_pid: a pid that is not the shell's keeps ftest's calls out.
    ok(lucid, "echo > %strace; echo 1 > %sset_ftrace_pid; ftest call" % (foo, foo))
    assert "ftest_" not in cat(lucid, foo + "trace")
    ok(lucid, "echo > %sset_ftrace_pid; echo > %strace" % (foo, foo))
    # rmdir while it runs: the tracer is reset, and the top level may have it then.
    ok(lucid, "rmdir %s/foo" % I)
    ok(lucid, "echo function_graph > current_tracer; echo nop > current_tracer")
    # trace-cmd -B with -p function_graph reads the instance's graph.
    ok(lucid, "rmdir %s/bar" % I)
    out = sh(lucid, "cd /tmp; trace-cmd record -B gr -p function_graph -l 'ftest_*' "
             "recwait ftest call "
             "> /dev/null 2>&1; echo $?; cd %s" % T, timeout=300)
    assert out == "0\n", out
    report = sh(lucid, "cd /tmp; trace-cmd report 2>&1; rm trace.dat; cd %s" % T, timeout=300)
    assert re.search(r"gr: .*funcgraph_entry: .*ftest_outer\(\) \{", report), report[-3000:]
    assert re.search(r"gr: .*funcgraph_entry: .*ftest_leaf\(\);", report), report[-3000:]


# ftest call runs ftest_outer -> ftest_mid -> ftest_leaf three times.
FTEST_CALLS = 3


def test_function_graph_in_several_arrays_at_once(lucid):
    # Linux 6.11: the top level and any number of instances run function_graph at once, each
    # with its own set_ftrace_filter and buffer. Each call is hooked once; each array records
    # only its own functions, every entry with its return (a leaf line, or "{" then "}").
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo; mkdir %s/bar" % (I, I))
    foo, bar = "%s/foo/" % I, "%s/bar/" % I
    ok(lucid, "echo 'ftest_outer ftest_mid' > %sset_ftrace_filter" % foo)
    ok(lucid, "echo ftest_leaf > %sset_ftrace_filter" % bar)
    ok(lucid, "echo 'ftest_mid ftest_leaf' > set_ftrace_filter")
    for d in [foo, bar, ""]:
        ok(lucid, "echo function_graph > %scurrent_tracer" % d)
    for d in [foo, bar, ""]:
        assert cat(lucid, d + "current_tracer") == "function_graph\n", d
        ok(lucid, "echo > %strace" % d)
    ok(lucid, "ftest call")
    want_foo = ["ftest_outer() {", "ftest_mid();", "}"] * FTEST_CALLS
    want_bar = ["ftest_leaf();"] * FTEST_CALLS
    want_top = ["ftest_mid() {", "ftest_leaf();", "}"] * FTEST_CALLS
    assert graph_bodies(lucid, foo + "trace") == want_foo
    assert graph_bodies(lucid, bar + "trace") == want_bar
    assert graph_bodies(lucid, "trace") == want_top
    # Stopping one leaves the others as they were.
    ok(lucid, "echo nop > %scurrent_tracer" % bar)
    for d in [foo, bar, ""]:
        ok(lucid, "echo > %strace" % d)
    ok(lucid, "ftest call")
    assert "ftest_" not in cat(lucid, bar + "trace")
    assert graph_bodies(lucid, foo + "trace") == want_foo
    assert graph_bodies(lucid, "trace") == want_top
    # Each array's own set_ftrace_pid: foo's keeps ftest's calls out of foo only.
    ok(lucid, "echo 1 > %sset_ftrace_pid; echo > %strace; echo > trace" % (foo, foo))
    ok(lucid, "ftest call")
    assert graph_bodies(lucid, foo + "trace") == []
    assert graph_bodies(lucid, "trace") == want_top
    ok(lucid, "echo > %sset_ftrace_pid" % foo)
    # rmdir while it runs there and at the top level: the top level goes on.
    ok(lucid, "rmdir %s/foo" % I)
    ok(lucid, "echo > trace; ftest call")
    assert graph_bodies(lucid, "trace") == want_top
    # A new instance takes the graph in turn, beside the top level.
    ok(lucid, "echo 'ftest_outer ftest_mid' > %sset_ftrace_filter" % bar)
    ok(lucid, "echo function_graph > %scurrent_tracer; echo > trace" % bar)
    ok(lucid, "ftest call")
    assert graph_bodies(lucid, bar + "trace") == want_foo
    assert graph_bodies(lucid, "trace") == want_top
    ok(lucid, "echo nop > current_tracer; rmdir %s/bar; echo > set_ftrace_filter" % I)
    assert cat(lucid, "enabled_functions") == ""


def test_set_graph_function_state_is_each_arrays(lucid):
    # set_graph_function (the top level's file, for every array) marks a task inside
    # ftest_outer for each array on its own: an array whose entry was not recorded (its
    # tracing_on is 0) drops its own mark, and the other array still traces the callees.
    reset_tracing(lucid)
    ok(lucid, "mkdir %s/foo" % I)
    foo = "%s/foo/" % I
    ok(lucid, "echo ftest_outer > set_graph_function")
    want = ["ftest_outer() {", "ftest_mid() {", "ftest_leaf();", "}", "}"] * FTEST_CALLS
    for d in [foo, ""]:
        ok(lucid, "echo 'ftest_*' > %sset_ftrace_filter; echo function_graph > %scurrent_tracer"
           % (d, d))
    for on, off in [(foo, ""), ("", foo)]:
        ok(lucid, "echo > %strace; echo > %strace; echo 1 > %stracing_on; echo 0 > %stracing_on"
           % (on, off, on, off))
        ok(lucid, "ftest call")
        assert graph_bodies(lucid, on + "trace") == want, on
        assert graph_bodies(lucid, off + "trace") == [], off
    ok(lucid, "echo 1 > tracing_on; echo nop > current_tracer; rmdir %s/foo" % I)
    ok(lucid, "echo > set_graph_function; echo > set_ftrace_filter")


def test_function_graph_arrays_limit_and_rmdir_under_load(lucid):
    # As Linux's fgraph, 16 users at once (FGRAPH_ARRAY_SIZE): the 17th array is refused with
    # ENOSPC, and one freed makes room again.
    reset_tracing(lucid)
    ok(lucid, "echo ftest_leaf > set_ftrace_filter; echo function_graph > current_tracer")
    for n in range(15):
        ok(lucid, "mkdir {i}/g{n}; echo ftest_leaf > {i}/g{n}/set_ftrace_filter; "
           "echo function_graph > {i}/g{n}/current_tracer".format(i=I, n=n))
    ok(lucid, "mkdir %s/g15; echo ftest_leaf > %s/g15/set_ftrace_filter" % (I, I))
    assert sh(lucid, "echo function_graph > %s/g15/current_tracer" % I) == \
        "-bash: echo: write error: No space left on device\n"
    ok(lucid, "rmdir %s/g0; echo function_graph > %s/g15/current_tracer" % (I, I))
    ok(lucid, "echo > trace; ftest call")
    for n in list(range(1, 16)):
        assert graph_bodies(lucid, "%s/g%d/trace" % (I, n)) == ["ftest_leaf();"] * FTEST_CALLS
    assert graph_bodies(lucid, "trace") == ["ftest_leaf();"] * FTEST_CALLS
    for n in range(1, 16):
        ok(lucid, "rmdir %s/g%d" % (I, n))
    # rmdir of an instance graphing every function, while run_test's threads call them on
    # every CPU and the top level graphs too: returns still pending for the instance find its
    # slot empty, and nothing freed is touched.
    ok(lucid, "echo > set_ftrace_filter")
    sh(lucid, "run_test -r 600 > /dev/null &")
    for _ in range(5):
        out = sh(lucid, "mkdir {i}/x && echo function_graph > {i}/x/current_tracer && "
                 "cat {i}/x/trace > /dev/null && rmdir {i}/x && echo cycled".format(i=I))
        assert out.startswith("cycled\n") or re.match(
            r"^\[1\]\+ +Done +run_test.*\ncycled\n", out, re.S), out
    sh(lucid, "wait", timeout=600)
    ok(lucid, "echo nop > current_tracer; echo ftest_leaf > set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer; echo > trace; ftest call")
    assert graph_bodies(lucid, "trace") == ["ftest_leaf();"] * FTEST_CALLS
    ok(lucid, "echo nop > current_tracer; echo > set_ftrace_filter")


def test_rmdir_with_triggers_and_commands_under_load(lucid):
    # rmdir while run_test's threads switch on every CPU, each time with triggers (one holding
    # another event of the instance), a function command and an enabled event in place: the
    # probes walk the instance's files and triggers without a lock, so they must be gone from
    # the probes' sight before anything is freed. Then the memory is back.
    reset_tracing(lucid)
    one = ("mkdir {i}/x && echo 'stacktrace:2 if prev_state & 3' > {e}/sched_switch/trigger && "
           "echo 'enable_event:sched:sched_wakeup if next_pid > 0' >> {e}/sched_switch/trigger && "
           "echo 1 > {e}/sched_process_exec/enable && "
           "echo 'vfs_read:enable_event:sched:sched_process_fork:2' > {i}/x/set_ftrace_filter && "
           "rmdir {i}/x").format(i=I, e="%s/x/events/sched" % I)

    def under_load():
        sh(lucid, "run_test -r 600 > /dev/null &")
        for _ in range(10):
            out = sh(lucid, one + " && echo cycled")  # (the shell may say run_test is done)
            assert out.startswith("cycled\n") or re.match(
                r"^\[1\]\+ +Done +run_test.*\ncycled\n", out, re.S), out
        sh(lucid, "wait", timeout=600)

    under_load()  # warm up: the allocator's first pages for this use, and run_test's
    before = memfree(lucid)
    under_load()
    assert sh(lucid, "ls %s" % I) == ""
    for ev in ["sched_switch", "sched_wakeup", "sched_process_exec", "sched_process_fork"]:
        assert cat(lucid, "events/sched/%s/enable" % ev) == "0\n", ev
    assert cat(lucid, "events/sched/sched_switch/trigger") == HELP
    assert commands(lucid, "set_ftrace_filter") == []
    assert before - memfree(lucid) <= 16, (before, memfree(lucid))

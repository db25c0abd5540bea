"""Small helpers the tracing tests share: type a command, expect silence, expect an error."""
import re

T = "/sys/kernel/tracing"
# What bash prints when a write to a tracefs file fails, by the errno Linux returns.
EINVAL = "-bash: echo: write error: Invalid argument\n"
EBUSY = "-bash: echo: write error: Device or resource busy\n"
EEXIST = "-bash: echo: write error: File exists\n"
ENOENT = "-bash: echo: write error: No such file or directory\n"
ENODEV = "-bash: echo: write error: No such device\n"
ENOMEM = "-bash: echo: write error: Cannot allocate memory\n"
EBADF = "-bash: echo: write error: Bad file descriptor\n"
ERANGE = "-bash: echo: write error: Numerical result out of range\n"
EOVERFLOW = "-bash: echo: write error: Value too large for defined data type\n"
EPERM = "-bash: echo: write error: Operation not permitted\n"
ESRCH = "-bash: echo: write error: No such process\n"
EILSEQ = "-bash: echo: write error: Invalid or incomplete multibyte or wide character\n"
# The four common fields that open every event's format file, as Linux 6.1 prints them.
COMMON_FIELDS = (
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n")
# One error_log entry, as Linux's tracing_log_err writes it: the caret under the bad token.
ERROR_LOG_ENTRY = re.compile(r"\[ *\d+\.\d{6}\] (.*): error: (.*)\n  Command: (.*)\n( *)\^\n")
# Patching every call site (a tracer switch) can take long on a host busy with other QEMUs.
TIMEOUT = 120


def sh(k, cmd, timeout=TIMEOUT):
    return k.run(cmd, timeout=timeout)


def ok(k, cmd, timeout=TIMEOUT):
    """cmd prints nothing and succeeds."""
    out = sh(k, cmd, timeout)
    assert out == "", "%r printed %r" % (cmd, out)
    assert k.status() == 0, cmd


def fails(k, cmd, err=EINVAL):
    """cmd prints exactly err and fails with status 1."""
    assert sh(k, cmd) == err, cmd
    assert k.status() == 1, cmd


# The trace options as Linux 6.1 boots with them (the core's, then the function and
# function_graph tracers'), the state reset_tracing() puts back.
CORE_OPTIONS = ["print-parent", "nosym-offset", "nosym-addr", "noverbose", "noraw", "nohex",
                "nobin", "noblock", "trace_printk", "annotate", "nouserstacktrace", "nosym-userobj",
                "noprintk-msg-only", "context-info", "nolatency-format", "record-cmd",
                "norecord-tgid", "overwrite", "nodisable_on_free", "irq-info", "markers",
                "noevent-fork", "nopause-on-trace", "hash-ptr", "function-trace",
                "nofunction-fork", "nodisplay-graph", "nostacktrace"]
GRAPH_OPTIONS = ["nofuncgraph-overrun", "funcgraph-cpu", "funcgraph-overhead", "nofuncgraph-proc",
                 "funcgraph-duration", "nofuncgraph-abstime", "funcgraph-irqs", "nofuncgraph-tail",
                 "nofuncgraph-retval", "nofuncgraph-retval-hex", "nofuncgraph-retaddr",
                 "nofuncgraph-args", "sleep-time", "graph-time"]
FUNCTION_OPTIONS = ["nofunc_stack_trace", "nofunc-args"]
BOOT_BUFFER_KB = 1408

# reset_tracing() as one command line, so that a reset costs one round trip on the console. The
# order is Linux's tools/testing/selftests/ftrace (initialize_ftrace): triggers with actions
# before the rest (an action names another histogram's variables), every trigger before the
# dynamic events their histograms may use, function commands (counted ones are removed with a
# count, as the README says) before the filter. A `!` is typed inside single quotes (printf's
# format), where interactive bash's history expansion leaves it alone. Every step that fails
# prints its error, and reset_tracing() asserts there is none.
_OPTION_WRITES = "; ".join("echo %d > options/%s" % (0 if o.startswith("no") else 1,
                                                      o[2:] if o.startswith("no") else o)
                           for o in CORE_OPTIONS + FUNCTION_OPTIONS + GRAPH_OPTIONS)
_RESET = "; ".join([
    "cd " + T, "echo 0 > tracing_on", "echo nop > current_tracer",
    "for pat in ':on[^:]*(' '^[^#]'; do grep -H \"$pat\" events/*/*/trigger "
    "instances/*/events/*/*/trigger 2>/dev/null | while read -r l; do f=${l%%:*}; t=${l#*:}; "
    "printf '!%s\\n' \"${t%% \\[*}\" >> $f; done; done",
    "grep -Hv '^none$' events/*/*/filter 2>/dev/null | while read -r l; do "
    "echo 0 > ${l%%:*}; done",
    "for i in instances/*; do [ -d \"$i\" ] && rmdir \"$i\"; done",
    "echo 0 > events/enable", "echo > set_event_pid", "echo > set_event_notrace_pid",
    "echo > dynamic_events", "echo > synthetic_events",
    "grep -E ':(unlimited|count=-?[0-9]+)$' set_ftrace_filter | while read -r l; do "
    "c=${l%:*}; case ${l##*:} in unlimited) printf '!%s\\n' \"$c\";; "
    "*) printf '!%s:0\\n' \"$c\";; esac "
    ">> set_ftrace_filter; done",
    "echo > set_ftrace_filter", "echo > set_ftrace_notrace", "echo > set_ftrace_pid",
    "echo > set_ftrace_notrace_pid", "echo > set_graph_function", "echo > set_graph_notrace",
    "echo 0 > max_graph_depth", "echo 0 > tracing_thresh", "echo local > trace_clock",
    "echo 0 > snapshot", _OPTION_WRITES,
    "[ \"$(cat buffer_size_kb)\" = {0} ] || echo {0} > buffer_size_kb".format(BOOT_BUFFER_KB),
    "echo > error_log", "echo 1 > tracing_on", "echo > trace"])


# One line of the trace file in its default format (Linux's print_trace_fmt, as
# Documentation/trace/ftrace.rst shows it), read strictly: the task's name right-justified in 16
# columns, then -PID, the tgid column when record-tgid is on, [CPU] in three digits, the
# irqs-off/need-resched/hardirq-softirq/preempt-depth flags when irq-info is on, and the time:
# seconds with six digits, or a bare count for the counter and TSC clocks. Groups: comm and pid
# (stripped), tgid, cpu, flags, ts (sec, usec), then body: everything after "TIME: ".
# TRACE_EVENT_LINE splits an event's body once more: event (its name) and body (what its print
# format made).
TRACE_PREFIX = (r"(?=.{16}-\d)\s*(?P<comm>.+?)-(?P<pid>\d+) +(?:\((?P<tgid>[ \d-]+)\) )?"
                r"\[(?P<cpu>\d{3})\] (?:(?P<flags>[dX.][Nnp.][ZzHhs.][0-9a-f.]) +| +)"
                r"(?P<ts>(?P<sec>\d+)(?:\.(?P<usec>\d{6}))?): ")
TRACE_LINE = re.compile(r"^" + TRACE_PREFIX + r"(?P<body>.*)$")
TRACE_EVENT_LINE = re.compile(r"^" + TRACE_PREFIX + r"(?P<event>\w+): (?P<body>.*)$")


def reset_tracing(k):
    """Tracing as it was at boot, in the top-level directory (the shell's working directory
    after): the nop tracer, no events, triggers, filters, probes, synthetic events or instances,
    the default options, clock and buffer size, tracing on and the buffer and error_log empty.
    The one reset every test file uses, so that no test depends on what ran before it."""
    ok(k, _RESET)


def free_kb(k):
    """MemFree (kB) after 16 distinct builtins (with the shell's history off: `set +o
    history`), plus the shell's own anonymous memory: bash's malloc touches a heap page it had
    not used now and then, which takes a free page that no kernel object holds."""
    for i in range(16):
        assert k.run("true %d" % i) == ""
    out = sh(k, "cat /proc/meminfo /proc/$$/status")
    return sum(int(re.search(r"^%s:\s+(\d+) kB$" % f, out, re.M).group(1))
               for f in ("MemFree", "RssAnon"))


def free_kb_back(k, before, tries=10):
    """MemFree once it is back to before or above (at most tries measurements, a second apart),
    or the last one: a reaped task's stack and pages go back a moment after its exit, and a
    loaded host delays that; a leak never comes back. Assert the result >= before."""
    for _ in range(tries):
        after = free_kb(k)
        if after >= before:
            break
        ok(k, "sleep 1")
    return after


def until_true(k, test, seconds=60, then=""):
    """Waits, in the guest and bounded, until the shell test holds, then runs then (a command
    list, or nothing); returns what it printed. For a state the kernel reaches soon but not at
    once, which a fixed sleep could only guess on a loaded host."""
    return sh(k, "end=$((SECONDS + %d)); until %s || [ $SECONDS -ge $end ]; do sleep 0.1; "
                 "done%s" % (seconds, test, then), seconds + TIMEOUT)


def until_reads(k, path, want="1", seconds=60):
    """until_true for a file (absolute, or from the shell's directory) that must read want:
    returns what it read last. As tracing_on back at 1 once snapshotd made a snapshot
    trigger's swap (trace/trace_snapshot_trigger.c). bash's read is a builtin: only the sleeps
    between looks are programs (exec events)."""
    return until_true(k, "{ read -r v < %s; [ \"$v\" = '%s' ]; }" % (path, want), seconds,
                      '; echo "$v"')


def least_of(measure, below, tries=5):
    """measure()'s value once it is below `below`, or the least of tries: for an upper bound on
    a time the kernel measures. A vCPU the host stops inside the measured call counts as its
    time, and a loaded host stops one for 100 ms and more now and then; a kernel that counts
    what it must not (a sleep) gives the large value on every try."""
    values = []
    for _ in range(tries):
        values.append(measure())
        if values[-1] < below:
            break
    return min(values)


def cat(k, name, timeout=TIMEOUT):
    return sh(k, "cat %s/%s" % (T, name), timeout)


def last_error(k):
    """(location, sentence, command, caret column) of the last error_log entry."""
    found = list(ERROR_LOG_ENTRY.finditer(cat(k, "error_log")))
    assert found
    m = found[-1]
    return m.group(1), m.group(2), m.group(3), len(m.group(4)) - len("  Command: ")


def modes(k, path="."):
    """{name: mode} of the entries `ls -l path` lists (busybox's format: mode first, name last,
    after a "total" line)."""
    lines = sh(k, "ls -l %s" % path).splitlines()
    return {l.split()[-1]: l.split()[0] for l in lines if l.strip() and not l.startswith("total ")}


def ncpus(k):
    return int(re.search(r"(\d+) CPUs?,", k.dmesg()).group(1))

"""trace-cmd's other subcommands in Lucid: start, stop, show, extract, reset,
stat, stack, snapshot (of all CPUs and of one), profile, -O and -P, each checked against Lucid's
tracefs files or, for a trace.dat, against the host's trace-cmd report of the same file (copied
out through the share); and alarm(2) and pidfd_open(2), which trace-cmd uses, against Linux.
One boot for the whole file.
"""
import os
import re
import tempfile

from test_dynamic import PRINTK_LINE, assert_same_report, check, host_report, tracefs
from test_syscalls import same_as_linux

T = "/sys/kernel/tracing"
SHARE = tempfile.mkdtemp(prefix="lucid-tcmd-")
BOOT = {"timeout": 120, "share": SHARE}
DEFAULT_KB = 1408  # the buffer size other tests expect (trace-cmd reset -b puts it back)


def run(lucid, line, timeout=120):
    """line's output without the kernel's log lines, and its status."""
    out = PRINTK_LINE.sub("", lucid.run(line, timeout))
    return out, lucid.status()


def reset(lucid):
    check(lucid, "cd /tmp; trace-cmd reset -b %d; echo 1 > %s/options/print-parent; cd /"
          % (DEFAULT_KB, T), "", 0)


def same_report_on_host(lucid, name):
    """trace-cmd report of /tmp/trace.dat in Lucid, checked equal to the host's on the copy."""
    report, status = run(lucid, "trace-cmd report")
    assert status == 0, report
    check(lucid, "cp /tmp/trace.dat /mnt/host/%s; rm /tmp/trace.dat" % name, "", 0)
    host, squeezed = host_report(os.path.join(SHARE, name))
    assert_same_report(host, report, squeezed)
    return report


def test_alarm_as_on_linux(lucid):
    # The recorders re-arm alarm(2) when told to stop: tests/user/alarm.c against the host's Linux.
    same_as_linux(lucid, "alarm")


def test_start_stop_show_extract_reset(lucid):
    # start sets up the files as `echo` would and leaves tracing running; nothing is recorded.
    check(lucid, "cd /tmp; trace-cmd start -p function -l 'ftest_*'", "  plugin 'function'\n", 0)
    check(lucid, "cat %s/current_tracer %s/tracing_on" % (T, T), "function\n1\n", 0)
    want = [f for f in tracefs(lucid, "available_filter_functions").split("\n")
            if f.startswith("ftest_")]
    assert sorted(tracefs(lucid, "set_ftrace_filter").split()) == sorted(want)
    check(lucid, "ftest call", "", 0)
    check(lucid, "trace-cmd stop", "", 0)
    check(lucid, "cat %s/tracing_on" % T, "0\n", 0)
    # show is cat trace.
    shown, status = run(lucid, "trace-cmd show")
    assert status == 0 and shown == tracefs(lucid, "trace"), shown
    assert shown.count("ftest_leaf <-ftest_mid\n") == 3, shown
    # extract reads the buffers into trace.dat; report reads it, in Lucid as on the host.
    out, status = run(lucid, "trace-cmd extract")
    assert status == 0 and re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", out), out
    report = same_report_on_host(lucid, "extract.dat")
    lines = report.splitlines()
    assert lines[0] == "cpus=4" and len(lines) == 10, report
    for line in lines[1:]:
        assert re.match(r" +ftest-\d+ +\[00\d\] +\d+\.\d{6}: function: +ftest_(outer|mid|leaf) "
                        r"<-- ", line), line
    # reset: no tracer, no filter, tracing on, the buffer size given.
    check(lucid, "trace-cmd reset -b %d" % DEFAULT_KB, "", 0)
    check(lucid, "cat %s/current_tracer %s/set_ftrace_filter %s/tracing_on %s/buffer_size_kb"
          % (T, T, T, T), "nop\n#### all functions enabled ####\n1\n%d\n" % DEFAULT_KB, 0)
    check(lucid, "cd /", "", 0)


def test_start_with_option_and_buffer_size(lucid):
    # -O and -b stay set after start (record puts options back; start leaves them).
    try:
        check(lucid, "cd /tmp; trace-cmd start -p function -l ftest_leaf -O noprint-parent "
              "-b 256", "  plugin 'function'\n", 0)
        check(lucid, "cat %s/options/print-parent %s/buffer_size_kb" % (T, T), "0\n256\n", 0)
        check(lucid, "ftest call; trace-cmd stop", "", 0)
        shown, status = run(lucid, "trace-cmd show")
        assert status == 0 and shown == tracefs(lucid, "trace"), shown
        assert len(re.findall(r": ftest_leaf\n", shown)) == 3 and "<-" not in shown, shown
    finally:
        reset(lucid)


def test_stat(lucid):
    # Each part from the files it reads: the tracer, the filter, the buffer sizes, tracing_on.
    check(lucid, "cd /tmp; trace-cmd start -p function -l ftest_leaf -l ftest_mid",
          "  plugin 'function'\n", 0)
    try:
        out, status = run(lucid, "trace-cmd stat")
        assert status == 0, out
        kb = int(tracefs(lucid, "buffer_size_kb"))
        assert out.startswith("\nTracer: function\n\nEvents:\n All disabled\n\nFunction Filter:\n"
                              "   ftest_leaf\n   ftest_mid\n\nBuffer size in kilobytes (per cpu):\n"
                              "   %d\n\nBuffer total size in kilobytes:\n   %d\n\nTracing is "
                              "enabled\n\n" % (kb, 4 * kb)), out
        # Its last line: Debian's trace-cmd reads stack_tracer_enabled without clearing errno
        # first, and what it looked at before left an error there, so it says "Error reading
        # stack tracer status".
        check(lucid, "trace-cmd stop", "", 0)
        out, status = run(lucid, "trace-cmd stat")
        assert "\nTracing is disabled\n\n" in out, out
    finally:
        reset(lucid)


def test_stack(lucid):
    # --start and --stop write /proc/sys/kernel/stack_tracer_enabled; plain shows stack_trace.
    check(lucid, "trace-cmd stack --start", "", 0)
    try:
        check(lucid, "cat /proc/sys/kernel/stack_tracer_enabled", "1\n", 0)
        check(lucid, "ftest stack", "", 0)
        out, status = run(lucid, "trace-cmd stack")
        want = "".join(line + "\n" for line in tracefs(lucid, "stack_trace").splitlines()
                       if not line.startswith("#"))
        assert status == 0 and out == "(stack tracer running)\n" + want, (out, want)
        assert "ftest_stack_deep+" in out, out
    finally:
        check(lucid, "trace-cmd stack --stop", "", 0)
    check(lucid, "cat /proc/sys/kernel/stack_tracer_enabled", "0\n", 0)
    out, status = run(lucid, "trace-cmd stack")
    assert status == 0 and out.startswith("(stack tracer not running)\n"), out
    check(lucid, "trace-cmd stack --reset; cat %s/stack_max_size" % T, "0\n", 0)


def test_snapshot(lucid):
    # -s takes one (echo 1 > snapshot), plain shows the file, -r clears it (2), -f frees it (0).
    check(lucid, "cd /tmp; trace-cmd start -p function -l 'ftest_*'", "  plugin 'function'\n", 0)
    try:
        check(lucid, "ftest call; trace-cmd snapshot -s; ftest delay 10", "", 0)
        out, status = run(lucid, "trace-cmd snapshot")
        assert status == 0 and out == tracefs(lucid, "snapshot"), out
        assert out.count(": ftest_leaf <-ftest_mid\n") == 3 and "ftest_delay" not in out, out
        assert "ftest_delay <-" in tracefs(lucid, "trace")
        check(lucid, "trace-cmd snapshot -r", "", 0)
        out, status = run(lucid, "trace-cmd snapshot")
        assert "# * Snapshot is allocated *\n" in out and "ftest_" not in out, out
        check(lucid, "trace-cmd snapshot -f", "", 0)
        out, status = run(lucid, "trace-cmd snapshot")
        assert out == tracefs(lucid, "snapshot") and "# * Snapshot is freed *\n" in out, out
    finally:
        reset(lucid)


def test_snapshot_of_one_cpu(lucid):
    # -c CPU: per_cpu/cpuN/snapshot, as Linux's (CONFIG_RING_BUFFER_ALLOW_SWAP): -s swaps that
    # CPU's part only, -r empties it; "echo 0" (free) is refused there.
    check(lucid, "cd /tmp; trace-cmd start -p function -l 'ftest_*'", "  plugin 'function'\n", 0)
    try:
        check(lucid, "taskset -c 1 ftest call; taskset -c 2 ftest call", "", 0)
        check(lucid, "trace-cmd snapshot -c 1 -s", "", 0)
        out, status = run(lucid, "trace-cmd snapshot -c 1")
        assert status == 0 and out == tracefs(lucid, "per_cpu/cpu1/snapshot"), out
        assert out == tracefs(lucid, "snapshot"), out  # CPU 1's part is all the snapshot holds
        assert len(re.findall(r"^ +ftest-\d+ +\[001\] .*: ftest_", out, re.M)) == 9, out
        trace = tracefs(lucid, "trace")
        assert len(re.findall(r"^ +ftest-\d+ +\[002\] .*: ftest_", trace, re.M)) == 9, trace
        assert "[001]" not in trace, trace
        check(lucid, "echo 0 > %s/per_cpu/cpu1/snapshot" % T,
              "-bash: echo: write error: Invalid argument\n", 1)
        check(lucid, "trace-cmd snapshot -c 1 -r", "", 0)
        out = tracefs(lucid, "per_cpu/cpu1/snapshot")
        assert out.startswith("# tracer: function\n#\n#\n# * Snapshot is allocated *\n#\n"
                              "# Snapshot commands:\n# echo 0 > snapshot : Invalid for per_cpu "
                              "snapshot file.\n"), out
    finally:
        check(lucid, "trace-cmd snapshot -f", "", 0)
        reset(lucid)


def test_profile(lucid):
    # profile: function_graph and the sched, syscall and fault events around a program, each
    # task's time in them summed up. `record --profile` keeps the trace.dat, and the host's
    # `report --profile` of it must print what Lucid's does. (recwait: hello is short, and
    # user/recwait.c says why a short command needs it.)
    out, status = run(lucid, "cd /tmp; trace-cmd record --profile -F recwait /opt/dyn/hello",
                      timeout=300)
    assert status == 0, out[-2000:]
    report, status = run(lucid, "cd /tmp; trace-cmd report --profile", timeout=300)
    assert status == 0 and re.search(r"^task: hello-\d+$", report, re.M), report[:2000]
    assert re.search(r"^  Event: sys_enter:1 \(\d+\) Total: \d+", report, re.M), report[:2000]
    check(lucid, "cp /tmp/trace.dat /mnt/host/profile.dat; rm /tmp/trace.dat", "", 0)
    host, squeezed = host_report(os.path.join(SHARE, "profile.dat"), "--profile")
    mine = re.sub(" +", " ", report) if squeezed else report
    # The same lines; the order of entries with equal totals is that of trace-cmd's hash
    # tables, which hash heap addresses (the host randomises them, Lucid does not).
    host, mine = sorted(host.splitlines()), sorted(mine.splitlines())
    diff = [(h, m) for h, m in zip(host, mine) if h != m]
    assert host == mine, (len(host), len(mine), diff[:3])
    reset(lucid)
    check(lucid, "cat %s/current_tracer %s/tracing_on" % (T, T), "nop\n1\n", 0)


def test_profile_streaming_ends(lucid):
    # `trace-cmd profile` streams, as `trace-cmd stream` does: each recorder splices its CPU's
    # pages into a pipe to trace-cmd, and at the end flushes its last ones there after trace-cmd
    # has stopped reading. A pipe of one page could not take them, and the recorder waited for
    # ever (tests/user/pipesize.c checks the 64 KiB pipe itself). What it prints is not compared:
    # the last pages may come after trace-cmd 3.1's final look at its pipes (a select with no
    # timeout; later trace-cmd waits for the pipes to close), under load as on Linux.
    for _ in range(3):
        out, status = run(lucid, "cd /tmp; trace-cmd profile -F /opt/dyn/hello", timeout=120)
        assert status == 0, out[-2000:]
        assert "hello, dynamic world" in out, out[-2000:]
    reset(lucid)


def test_pidfd_as_on_linux(lucid):
    # trace-cmd record -P waits for its pid through pidfd_open(2) and poll: tests/user/pidfd.c.
    same_as_linux(lucid, "pidfd")


def test_trace_pipe_waits_end_with_eintr(lucid):
    # A handler with SA_RESTART interrupts a blocking read of trace_pipe or trace_pipe_raw:
    # EINTR, not a restart, as Linux's ring_buffer_wait (a pipe's read restarts:
    # tests/user/pipewait.c exits 2 then). trace-cmd's recorders, told to stop while they wait there, count on it.
    for f in ("trace_pipe", "per_cpu/cpu0/trace_pipe_raw"):
        check(lucid, "pipewait %s/%s" % (T, f),
              "read = -1 (Interrupted system call), handler ran 1 time(s)\n", 0)


def test_record_pid_and_option(lucid):
    # -P PID: the function tracer for that process only (set_ftrace_pid), recorded until it
    # exits (trace-cmd polls a pidfd of it); -O for the recording only: func_stack_trace, a
    # stack after each call. The host reads the file alike. The process writes once trace-cmd
    # follows it (its pid in set_ftrace_pid, the tracer on: a bounded wait), then ends.
    follows = ("grep -qx $BASHPID %s/set_ftrace_pid && grep -qx function %s/current_tracer"
               % (T, T))
    out, status = run(lucid, "cd /tmp; bash -c '(i=0; until [ $i -ge 600 ] || { %s; }; do "
                      "busybox usleep 100000; i=$((i+1)); done; for i in 1 2 3 4 5 6 7 8 9 10; "
                      "do echo x; busybox usleep 300000; done > /dev/null) & echo $! > pid; "
                      "trace-cmd record -p function -l vfs_write -O func_stack_trace -P $!; "
                      "echo status $?'" % follows, 180)
    assert status == 0 and out.endswith("status 0\n"), out
    assert "Hit Ctrl^C to stop recording\n" in out, out
    assert re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", out), out
    check(lucid, "cat %s/options/func_stack_trace %s/current_tracer" % (T, T), "0\nnop\n", 0)
    pid = lucid.run("cat /tmp/pid").strip()
    report = same_report_on_host(lucid, "pid.dat")
    lines = report.splitlines()
    calls = [line for line in lines if " function: " in line]
    assert calls and len(calls) == len([line for line in lines if " kernel_stack: " in line])
    for line in calls:
        assert re.match(r" +bash-%s +\[00\d\] +\d+\.\d{6}: function: +vfs_write <-- ksys_write$"
                        % pid, line), line
    check(lucid, "rm /tmp/pid; cd /", "", 0)


def test_record_into_an_instance(lucid):
    # -B makes an instance (instances/, trace/trace_instances.c), records the function tracer
    # there and removes it again; the report, as the host's trace-cmd reads the same file,
    # shows the instance's events under its name, and the top level's trace stays empty.
    check(lucid, "echo > %s/trace" % T, "", 0)
    out, status = run(lucid, "cd /tmp; trace-cmd record -B inst -p function -l vfs_write "
                      "-F recwait /opt/dyn/hello")
    assert status == 0 and "hello, dynamic world" in out and "Buffer: inst" in out, out
    check(lucid, "ls %s/instances" % T, "", 0)  # removed again
    report = same_report_on_host(lucid, "inst.dat")
    events = [l for l in report.splitlines() if not l.startswith("cpus=")]
    assert events, report
    for line in events:
        assert re.match(r"^inst: +hello-\d+ .*function: +vfs_write <-- ksys_write$", line), line
    check(lucid, "grep -c -v '^#' %s/trace" % T, "0\n", 1)
    reset(lucid)
    check(lucid, "cd /", "", 0)


def test_kernel_commands_as_programs(lucid):
    # /bin/ftest and /bin/run_test run the kernel's command in their own process, through
    # their debugfs files (/sys/kernel/debug/ftest, run_test): what they print and return is
    # the command's, however they are started (here by bash, and by bash -c as trace-cmd would).
    def placed(text):  # which CPUs run_test's threads ran on is the scheduler's choice
        return re.sub(r"rounds per CPU: [\d ]+, \d+ CPUs? used", "rounds per CPU: ...", text)
    usage = ("usage: ftest call | ftest delay MICROSECONDS | ftest stack | ftest deep N | "
             "ftest printk [N] | ftest off | ftest tick N\n")
    for line, want_out, want_status in (("ftest call", "", 0), ("ftest delay 10", "", 0),
                                        ("ftest nosuch", usage, 2),
                                        ("run_test -t 2 -r 1", None, 0)):
        want, status = run(lucid, line, timeout=300)
        assert status == want_status and want_out in (None, want), (line, want, status)
        got, got_status = run(lucid, "bash -c '%s'" % line, timeout=300)
        assert (placed(got), got_status) == (placed(want), status), (line, got, want)
    assert status == 0 and re.search(r"^run_test: .* ok$", want, re.M), want
    # The file itself: arguments the command does not take, or none, change nothing.
    f = "/sys/kernel/debug/ftest"
    check(lucid, "echo nosuch > %s" % f, "-bash: echo: write error: Invalid argument\n", 1)
    check(lucid, "echo > %s" % f, "-bash: echo: write error: Invalid argument\n", 1)
    check(lucid, "bash -c 'ftest \"two words\"'",
          "ftest: arguments must be words, 256 bytes in all at most\n", 2)


def test_record_a_script(lucid):
    # trace-cmd execs its command with execvp: a `#!` script is the kernel's to run
    # (binfmt_script), as on Linux; before, its execve was ENOEXEC and record failed.
    lucid.run("cd /tmp; echo '#!/bin/sh' > rs.sh; echo 'echo from-script $1' >> rs.sh; "
              "chmod +x rs.sh")
    out, status = run(lucid, "trace-cmd record -e sched_process_exec recwait ./rs.sh a",
                      timeout=300)
    assert status == 0 and "from-script a\n" in out, out
    # The process is named by the script (comm), as Linux names it.
    report, status = run(lucid, "trace-cmd report")
    assert re.search(r"^ +rs\.sh-\d+ +\[\d+\] +[\d.]+: sched_process_exec: +filename=\./rs\.sh ",
                     report, re.M), report
    lucid.run("rm /tmp/rs.sh /tmp/trace.dat; cd /")
    reset(lucid)


def test_record_what_the_issue_types(lucid):
    # The commands as the issue (and Linux users) type them: trace-cmd execs ftest and run_test,
    # which are programs now; the host's trace-cmd report reads each trace.dat alike. (recwait
    # runs ftest once the recorders read: user/recwait.c says why a short command needs it.)
    out, status = run(lucid, "cd /tmp; trace-cmd record -p function -l 'ftest_*' "
                      "recwait ftest call",
                      timeout=300)
    assert status == 0, out
    report = same_report_on_host(lucid, "ftest-function.dat")
    assert len(re.findall(r"^ +ftest-\d+ +\[00\d\] +\d+\.\d{6}: function: +ftest_leaf <-- "
                          r"ftest_mid$", report, re.M)) == 3, (out, report)
    out, status = run(lucid, "cd /tmp; trace-cmd record -p function_graph -g ftest_outer "
                      "recwait ftest call", timeout=300)
    assert status == 0, out
    report = same_report_on_host(lucid, "ftest-graph.dat")
    assert report.count("ftest_outer() {") == 3 and report.count("ftest_leaf();") == 3, report
    out, status = run(lucid, "cd /tmp; trace-cmd record -e sched -e irq run_test", timeout=600)
    assert status == 0 and re.search(r"^run_test: .* ok$", out, re.M), out
    report = same_report_on_host(lucid, "run_test-events.dat")
    # run_test's threads wake and switch to each other (no device interrupt need come).
    assert re.search(r"^ +run_test-\d+ .* sched_wakeup: ", report, re.M), report[:3000]
    assert re.search(r" sched_switch: .*run_test", report), report[:3000]
    reset(lucid)

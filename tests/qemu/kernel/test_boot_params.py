"""Tracing from boot: Linux's command-line options, each with a visible effect.

The shared kernel boots with all of them at once, through GRUB as `make run CMDLINE=...` does:
the filters are what set_ftrace_filter and set_ftrace_notrace list, the size what buffer_size_kb
shows, the options what trace_options lists, and the function tracer has recorded the boot
itself, before the shell existed. Other boots check sizes with suffixes and values that cannot
be used (reported in the log, defaults kept, the boot goes on).
"""
import re
import time

from lucid import Lucid, LucidError
from tracefs import TRACE_LINE, CORE_OPTIONS as DEFAULT_OPTIONS  # Linux 6.1's list, in its order

BOOT = {"cmdline": "ftrace=function ftrace_filter=kthread_run,kthread_run_init,kernel_init,ftest_* "
                   "ftrace_notrace=ftest_mid trace_buf_size=256K "
                   "trace_options=sym-offset,noirq-info stacktrace_filter=ftest_stack_deep "
                   "trace_clock=global alloc_snapshot"}
T = "/sys/kernel/tracing"
# "%16s-%-5d [%03d] " + " %5lu.%06lu: " + body (irq-info off: no flag columns)


def cat(k, name):
    return k.run("cat %s/%s" % (T, name))


def events(text):
    out = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        m = TRACE_LINE.match(line)
        assert m, "malformed line %r" % line
        out.append((m.group("comm").strip(), int(m.group("pid")), m.group("body"),
                    int(m.group("sec")) * 1000000 + int(m.group("usec"))))
    return out


def ncpus(k):
    return int(re.search(r"(\d+) CPUs?,", k.dmesg()).group(1))


def test_nothing_refused(lucid):
    log = lucid.run("dmesg")
    assert "cannot use" not in log and "not a size" not in log and "not registered" not in log


def test_filters(lucid):
    names = [l for l in cat(lucid, "available_filter_functions").splitlines()]
    want = {"kthread_run", "kthread_run_init", "kernel_init", "ftest_leaf", "ftest_mid",
            "ftest_outer", "ftest_delay", "ftest_stack", "ftest_stack_deep", "ftest_deep", "ftest_printk", "ftest_off"}
    got = cat(lucid, "set_ftrace_filter").splitlines()
    assert set(got) == want, got
    assert got == [n for n in names if n in want]  # listed in call-site order, as ever
    assert cat(lucid, "set_ftrace_notrace") == "ftest_mid\n"
    assert cat(lucid, "current_tracer") == "function\n"


def test_buffer_size(lucid):
    assert cat(lucid, "buffer_size_kb") == "256\n"
    assert cat(lucid, "per_cpu/cpu0/buffer_size_kb") == "256\n"
    assert cat(lucid, "buffer_total_size_kb") == "%d\n" % (256 * ncpus(lucid))


def test_options(lucid):
    want = ["sym-offset" if o == "nosym-offset" else "noirq-info" if o == "irq-info" else o
            for o in DEFAULT_OPTIONS] + ["nofunc_stack_trace", "nofunc-args"]  # the function tracer's
    assert cat(lucid, "trace_options").splitlines() == want
    assert cat(lucid, "options/sym-offset") == "1\n"
    assert cat(lucid, "options/irq-info") == "0\n"


def test_trace_clock(lucid):
    # set before the first event: the boot's own events below are on this clock
    assert cat(lucid, "trace_clock") == "local [global] counter uptime x86-tsc\n"


def test_snapshot_allocated_from_boot(lucid):
    # Linux's help text for an empty snapshot, saying the spare buffer is there
    assert cat(lucid, "snapshot") == """# tracer: function
#
#
# * Snapshot is allocated *
#
# Snapshot commands:
# echo 0 > snapshot : Clears and frees snapshot buffer
# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.
#                      Takes a snapshot of the main buffer.
# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)
#                      (Doesn't have to be '2' works with any number that
#                       is not a '0' or '1')
"""


def test_boot_was_traced(lucid):
    # From boot: the boot CPU (swapper/0, pid 0) starting the snapshot trigger's thread
    # (kthread_run) and init (kthread_run_init: pid 1), then pid 1 running kernel_init.
    ev = events(cat(lucid, "trace"))
    starts = [e for e in ev if re.match(r"kthread_run(_init)?\+0x0/", e[2])]
    assert [e[2].split("<-")[1].split("+")[0] for e in starts[:2]] == [
        "trace_snapshot_trigger_init", "kmain"], starts
    assert starts[1][2].startswith("kthread_run_init+0x0/"), starts
    assert all(e[:2] == ("<idle>", 0) for e in starts[:2])
    shell = [e for e in ev if e[0] == "init" and e[2].startswith("kernel_init+0x0/")]
    assert shell and re.match(r"^kernel_init\+0x0/0x[0-9a-f]+ <-kthread_start\+", shell[0][2])
    assert shell[0][3] >= starts[1][3]
    # and the filters hold for what comes next: ftest_mid is left out
    lucid.run("echo > %s/trace" % T)
    lucid.run("ftest call")
    bodies = [e[2].split("+")[0] for e in events(cat(lucid, "trace")) if e[0] == "ftest"]
    assert bodies == ["ftest_outer", "ftest_leaf"] * 3, bodies


def test_stack_tracer_filter(lucid):
    assert lucid.run("cat /proc/sys/kernel/stack_tracer_enabled") == "1\n"
    # two users of ftest_stack_deep: the function tracer and the stack tracer; one of the others
    enabled = dict(l.rsplit(" (", 1) for l in cat(lucid, "enabled_functions").split(")")
                   if l.strip())
    enabled = {k.strip(): int(v) for k, v in enabled.items()}
    assert enabled["ftest_stack_deep"] == 2 and enabled["ftest_outer"] == 1, enabled
    lucid.run("echo 0 > %s/stack_max_size" % T)
    lucid.run("ftest stack")
    rows = cat(lucid, "stack_trace").splitlines()[2:]
    # checked only at ftest_stack_deep's entries: the deepest is the innermost of them
    assert re.match(r"^ +0\) +\d+ +\d+   ftest_stack_deep\+0x0/", rows[0]), rows[:3]
    assert sum(1 for r in rows if "ftest_stack_deep+" in r) >= 12


def test_proc_sys_number_too_big(lucid):
    # proc_dointvec refuses a number an int cannot hold with EINVAL, as any other bad number.
    f = "/proc/sys/kernel/ftrace_dump_on_oops"
    for bad in ["99999999999", "-2147483649", "1x"]:
        assert lucid.run("echo %s > %s" % (bad, f)) == \
            "-bash: echo: write error: Invalid argument\n", bad
    assert lucid.run("cat " + f) == "0\n"
    assert lucid.run("echo -2147483648 > %s; cat %s; echo 0 > %s" % (f, f, f)) == "-2147483648\n"


def boot_log(cmdline, *cmds):
    k = Lucid(cmdline=cmdline)
    try:
        return k.run("dmesg"), [k.run(c) for c in cmds]
    finally:
        k.close()


def test_sizes_with_suffixes():
    for arg, kb in [("1M", 1024), ("0x8000", 32), ("100", 4), ("48k", 48)]:
        _, (size,) = boot_log("trace_buf_size=" + arg, "cat %s/buffer_size_kb" % T)
        assert size == "%d\n" % kb, (arg, size)


def test_size_that_overflows_is_too_big():
    """16777216T is 2^64 bytes: the shift used to wrap it to 0, and a 4 KB buffer. A size too
    big is reported, and the default used (unit conversions that overflow)."""
    for arg in ["16777216T", "17179869184G", "16E"]:
        log, (size,) = boot_log("trace_buf_size=" + arg, "cat %s/buffer_size_kb" % T)
        assert size == "1408\n", (arg, size)
        assert re.search(r"tracing: trace_buf_size=\d+ is too big: the default size instead",
                         log), (arg, log)


def test_watchdog_thresh_that_overflows_is_ignored():
    """Twice the threshold in ns must fit 64 bits: 9223372037 s wrapped to 0.29 s."""
    log, _ = boot_log("watchdog_thresh=9223372037")
    assert "watchdog_thresh=9223372037: too big, ignored" in log, log
    log, _ = boot_log("watchdog_thresh=9223372036")  # the largest that fits: taken
    assert "watchdog_thresh" not in log.split("command line:")[1].split("\n", 1)[1], log


def test_bad_values_are_reported():
    log, (size, opts, filt, tracer, clock) = boot_log(
        "trace_buf_size=lots ftrace_filter=nosuchfn,ftest_leaf trace_options=bogus,sym-addr "
        "ftrace=nosuch trace_clock=nosuch",
        "cat %s/buffer_size_kb" % T, "cat %s/trace_options" % T, "cat %s/set_ftrace_filter" % T,
        "cat %s/current_tracer" % T, "cat %s/trace_clock" % T)
    assert "tracing: trace_buf_size=lots: not a size" in log
    assert "tracing: ftrace_filter: cannot use 'nosuchfn'" in log
    assert "tracing: trace_options: cannot use 'bogus'" in log
    assert "ftrace bootup tracer 'nosuch' not registered." in log  # Linux's words
    assert "Trace clock nosuch not defined, going back to default\n" in log  # Linux's words
    assert size == "1408\n"
    assert "sym-addr" in opts.splitlines()
    assert filt == "ftest_leaf\n"
    assert tracer == "nop\n"
    assert clock == "[local] global counter uptime x86-tsc\n"


def test_tracer_option_applies_once_tracer_is_up():
    # func_stack_trace exists only while the function tracer is current: the second pass sets it.
    log, (opt, _, trace) = boot_log("ftrace=function ftrace_filter=ftest_leaf "
                                    "trace_options=func_stack_trace",
                                    "cat %s/options/func_stack_trace" % T, "ftest call",
                                    "cat %s/trace" % T)
    assert opt == "1\n"
    assert "cannot use" not in log
    assert trace.count("<stack trace>") == 3 and trace.count(" => ftest_mid") == 3, trace


def test_trace_event_and_tp_printk():
    """trace_event= enables events from boot, as set_event's words; tp_printk prints each one
    as it happens (and /proc/sys/kernel/tracepoint_printk turns that off)."""
    k = Lucid(cmdline="trace_event=sched:sched_switch,irq,nosuch tp_printk")
    try:
        assert "Failed to enable trace event: nosuch\n" in k.boot_output  # Linux's words
        assert re.search(r"^\[ *\d+\.\d{6}\] sched_switch: prev_comm=\S+ prev_pid=\d+ "
                         r"prev_prio=120 prev_state=\S+ ==> next_comm=\S+ next_pid=\d+ "
                         r"next_prio=120$", k.boot_output, re.M), k.boot_output[-3000:]
        # Each command that runs a program switches tasks (bash waits for it), and each switch
        # prints while tp_printk is on: busybox's echo, a process (bash's own, a builtin, may
        # find its line typed before it ever sleeps, and switch nothing).
        assert "sched_switch: prev_comm=" in k.run("/bin/echo 0 > "
                                                   "/proc/sys/kernel/tracepoint_printk")
        assert k.run("cat /proc/sys/kernel/tracepoint_printk") == "0\n"
        assert k.run("cat %s/set_event" % T) == ("irq:irq_handler_entry\nirq:irq_handler_exit\n"
                                                 "sched:sched_switch\n")
        assert k.run("sleep 0.2") == ""  # switches happen, and nothing is printed now
        text = k.run("cat %s/trace" % T)
        assert "sched_switch: prev_comm=sleep" in text  # still recorded
        assert "irq_handler_entry: irq=4 name=ttyS0" in text
    finally:
        k.close()


def test_graph_filters():
    """ftrace_graph_filter= and ftrace_graph_notrace= fill set_graph_function and
    set_graph_notrace before ftrace=function_graph starts."""
    k = Lucid(cmdline="ftrace=function_graph ftrace_graph_filter=ftest_outer,nosuch,ftest_mid "
                      "ftrace_graph_notrace=ftest_leaf")
    try:
        assert k.run("cat %s/current_tracer" % T) == "function_graph\n"
        assert k.run("cat %s/set_graph_function" % T) == "ftest_mid\nftest_outer\n" or \
            k.run("cat %s/set_graph_function" % T) == "ftest_outer\nftest_mid\n"
        assert k.run("cat %s/set_graph_notrace" % T) == "ftest_leaf\n"
        # set_ftrace_early_graph()'s words for a name it cannot use
        assert "ftrace: function nosuch not traceable\n" in k.run("dmesg")
        assert k.run("echo > %s/trace; ftest call" % T) == ""
        text = k.run("cat %s/trace" % T)
        assert "ftest_outer() {" in text and "ftest_mid();" in text, text
        assert "ftest_leaf" not in text, text
    finally:
        k.close()


def test_ftrace_starts_before_the_other_cpus():
    """ftrace=function is on before the other CPUs start: each one's first C functions after
    its GS base is set (ap_start's calls) are in the trace, on that CPU."""
    k = Lucid(cmdline="ftrace=function trace_buf_size=512K ftrace_filter=ap_start,"
                      "gdt_init_this_cpu,sched_init_this_cpu,percpu_init_this_cpu")
    try:
        text = k.run("cat %s/trace" % T)
        for cpu in range(1, ncpus(k)):
            lines = [l for l in text.splitlines() if "[%03d]" % cpu in l]
            bodies = [l.split(": ", 1)[1] for l in lines]
            assert bodies[:2] == ["gdt_init_this_cpu <-ap_start",
                                  "sched_init_this_cpu <-ap_start"], (cpu, lines[:4])
        # ap_start itself, and what runs before the GS base is set, are notrace
        assert "percpu_init_this_cpu" not in text and " ap_start <-" not in text
    finally:
        k.close()


def test_long_command_line():
    """GRUB passes the command line whole; Lucid keeps as much as Linux on x86 does
    (COMMAND_LINE_SIZE, 2048 bytes): an option far past the 512th byte still counts."""
    names = ",".join(["ftest_leaf"] * 150) + ",ftest_mid"
    cmdline = "ftrace_notrace=%s ftrace=function" % names
    assert 1600 < len(cmdline) < 2047
    k = Lucid(cmdline=cmdline)
    try:
        assert k.run("cat %s/set_ftrace_notrace" % T) == "ftest_leaf\nftest_mid\n"
        assert k.run("cat %s/current_tracer" % T) == "function\n"
    finally:
        k.close()


def test_repeated_options():
    """Linux hands each occurrence to the option's parser in order: the last value wins for
    the options that copy a value; a flag set is never undone; tp_printk=0 and =off do not
    set it (set_tracepoint_printk); a bare word is not the name= option."""
    k = Lucid(cmdline="ftrace=nosuch ftrace=function ftrace trace_buf_size=8K "
                      "trace_buf_size=64K ftrace_filter=ftest_leaf ftrace_filter=ftest_mid "
                      "trace_event=irq trace_event=sched:sched_switch tp_printk=0 tp_printk=off "
                      "ftrace_dump_on_oops=orig_cpu ftrace_dump_on_oops ftrace_dump_on_oops=bogus "
                      "watchdog_thresh=00000000000000000001 traceoff_on_warning=off "
                      "traceoff_on_warning=0 maxcpus=3 maxcpus=2")
    try:
        assert k.run("cat %s/current_tracer" % T) == "function\n"
        assert k.run("cat %s/buffer_size_kb" % T) == "64\n"
        assert k.run("cat %s/set_ftrace_filter" % T) == "ftest_mid\n"
        assert k.run("cat %s/set_event" % T) == "sched:sched_switch\n"
        assert k.run("cat /proc/sys/kernel/tracepoint_printk") == "0\n"
        assert k.run("cat /proc/sys/kernel/ftrace_dump_on_oops") == "1\n"
        assert k.run("cat /proc/sys/kernel/traceoff_on_warning") == "0\n"  # =off and =0 are not on
        log = k.run("dmesg")
        assert "not registered" not in log and "sched_switch: prev_comm" not in log
        assert "tracing: ftrace_dump_on_oops=bogus: unknown mode" in log
        # cut to fit its buffer, the number would read as 0: it is refused instead
        assert "watchdog_thresh=: value longer than 15 characters, ignored" in log
        # maxcpus=2 of the 4 the MADT lists: 2 online (#P), 4 possible (per_cpu/), as Linux
        assert "smp: Brought up 2 CPUs\n" in log
        assert re.search(r"^# entries-in-buffer/entries-written: \d+/\d+   #P:2$",
                         k.run("cat %s/trace" % T), re.M)
        assert k.run("ls -1 %s/per_cpu" % T) == "cpu0\ncpu1\ncpu2\ncpu3\n"  # -1: a tty
    finally:
        k.close()


def test_softlockup_panic_takes_a_number():
    """Linux's option is softlockup_panic=N (softlockup_panic_setup: simple_strtoul), the
    last one wins: =0 reports the lockup and goes on, it does not panic."""
    k = Lucid(cmdline="watchdog_thresh=1 softlockup_panic=1 softlockup_panic=0")
    try:
        k.send_line("echo SOFTLOCKUP > " + DIRECT)
        k.expect(r"BUG: soft lockup - CPU#\d+ stuck", timeout=120)
        k.expect("Call Trace:", timeout=60)
        time.sleep(1)  # pacing: a panic follows the report at once (load: a false pass only)
        assert k.alive() and "Kernel panic" not in k.tail(20000)
    finally:
        k.close()


DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"  # lkdtm's (kernel/debug/lkdtm.c)


def warn(k):
    """lkdtm's WARNING, in bash's own write(2): what it printed, without lkdtm's info line."""
    out = k.run("echo WARNING > " + DIRECT)
    return re.sub(r"^\[ *\d+\.\d{6}\] lkdtm: Performing direct entry WARNING\n", "", out,
                  flags=re.M)


def trace_bodies(text):
    """(comm, body) of each event line of a trace with the default options (flag columns)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        m = re.match(r"^(.{16})-\d+ +\[\d{3}\] \S{4} +\d+\.\d{6}: (.*)$", line)
        assert m, "malformed line %r" % line
        out.append((m.group(1).strip(), m.group(2)))
    return out


def test_warning_and_end_of_boot_options():
    """One boot for the options that act after boot. traceoff_on_warning: a WARN writes
    Linux's last line into the trace and turns tracing off; /proc/sys/kernel/traceoff_on_warning
    shows and changes it (proc_dointvec). tp_printk_stop_on_boot: events print on the console
    while the kernel boots, and no more once the shell runs (late_trace_init). nosoftlockup:
    a CPU stuck with preemption off is not reported (last: that CPU stays stuck). nosmp: the
    boot CPU alone, the only one possible (prefill_possible_map), with Linux's warning."""
    k = Lucid(cmdline="traceoff_on_warning trace_event=sched:sched_wakeup_new tp_printk "
                      "tp_printk_stop_on_boot nosoftlockup watchdog_thresh=1 nosmp")
    try:
        # snapshotd starts during boot: printed; init (pid 1), and the login shell it forks,
        # start once boot is done: not
        assert re.search(r"^\[ *\d+\.\d{6}\] sched_wakeup_new: comm=snapshotd pid=2 prio=120 "
                         r"target_cpu=\d{3}$", k.boot_output, re.M), k.boot_output[-2000:]
        assert "sched_wakeup_new: comm=init " not in k.boot_output
        assert "sched_wakeup_new: comm=bash " not in k.boot_output
        # the warning on the console; it and the info line after it in the log
        assert "smpboot: 4 Processors exceeds max_cpus limit of 0\n" in k.boot_output
        assert "smpboot: 4 Processors exceeds max_cpus limit of 0\nsmp: Brought up 1 CPU\n" in \
            re.sub(r"^\[ *\d+\.\d{6}\] ", "", k.dmesg(), flags=re.M)
        assert k.run("ls -1 %s/per_cpu" % T) == "cpu0\n"
        assert re.search(r"^# entries-in-buffer/entries-written: \d+/\d+   #P:1$",
                         k.run("cat %s/trace" % T), re.M)
        assert k.run("cat /proc/sys/kernel/tracepoint_printk") == "0\n"
        f = "/proc/sys/kernel/traceoff_on_warning"
        assert k.run("cat " + f) == "1\n"
        # the WARN's report alone: the sched_wakeup_new events are not printed any more
        assert re.match(r"^\[ *\d+\.\d{6}\] WARNING: at kernel/debug/lkdtm\.c:\d+ lkdtm_WARNING\n$",
                        warn(k))
        assert k.run("cat %s/tracing_on" % T) == "0\n"
        ev = trace_bodies(k.run("cat %s/trace" % T))
        names = [(c, b.split(" pid=")[0]) for c, b in ev]
        # boot's two tasks (snapshotd, and init as pid 1), ...
        assert names[:2] == [("<idle>", "sched_wakeup_new: comm=snapshotd"),
                             ("<idle>", "sched_wakeup_new: comm=init")], ev
        assert " pid=1 " in ev[1][1], ev
        # init's fork for the login shell, each command above (ls, cat ...) forked by bash,
        # then the WARN, in bash itself (its echo's write), which wrote the last line
        assert names[2] == ("init", "sched_wakeup_new: comm=init"), ev
        assert names[-1] == ("bash", "disable_trace_on_warning: Disabling tracing due to "
                                     "warning"), ev
        assert all(c == "bash" for c, _ in names[3:-1]), ev
        # off: a WARN leaves tracing alone
        assert k.run("echo 0 > %s; cat %s" % (f, f)) == "0\n"
        k.run("echo > %s/trace; echo 1 > %s/tracing_on" % (T, T))
        assert "WARNING: at kernel/debug/lkdtm.c" in warn(k)
        assert k.run("cat %s/tracing_on" % T) == "1\n"
        assert "Disabling tracing" not in k.run("cat %s/trace" % T)
        assert k.run("echo on > " + f) == "-bash: echo: write error: Invalid argument\n"
        assert k.run("echo -1 > %s; cat %s" % (f, f)) == "-1\n"  # an int, any non-zero is on
        warn(k)
        assert k.run("cat %s/tracing_on" % T) == "0\n"
        # watchdog_thresh=1 would report after 2 s (test_softlockup_panic_takes_a_number)
        k.send_line("echo SOFTLOCKUP > " + DIRECT)
        try:
            k.expect("soft lockup", timeout=3 * 2 * 1)
            reported = True
        except LucidError:
            reported = False
        assert not reported and k.alive(), k.tail()
    finally:
        k.close()

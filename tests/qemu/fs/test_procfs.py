"""The files and figures: /proc/stat and /proc/loadavg in Linux 6.1's
formats, agreeing with /proc/uptime and /proc/cpuinfo; `busybox top -b -n 1`; a load average
that rises as Linux's calc_load makes it; bash's `time` and `times` printing true figures.
Times differ from run to run and machine to machine: the checks are shapes and invariants.
"""
import re
import subprocess
import tempfile
import time

STAT_CPU = re.compile(r"^cpu(\d*) +((?:\d+ ){9}\d+)$")


def stat_lines(text):
    return text.strip("\n").split("\n")


def test_proc_stat_format(lucid):
    # Linux 6.1's show_stat: "cpu  " (two spaces) then ten columns, a line per CPU, intr with
    # its total first, ctxt, btime, processes, procs_running, procs_blocked, softirq.
    out = lucid.run("cat /proc/stat /proc/cpuinfo /proc/uptime /proc/stat")
    first, rest = out.split("processor", 1)
    lines = stat_lines(first)
    assert lines[0].startswith("cpu  "), lines
    cpus = [STAT_CPU.match(l) for l in lines if l.startswith("cpu")]
    assert all(cpus), lines
    assert [m.group(1) for m in cpus] == [""] + [str(i) for i in range(len(cpus) - 1)], lines
    nproc = len(re.findall(r"^processor\t: \d+$", "processor" + rest, re.M))
    assert len(cpus) - 1 == nproc, (lines, nproc)  # cpuinfo agrees
    keys = [l.split()[0] for l in lines if not l.startswith("cpu")]
    assert keys == ["intr", "ctxt", "btime", "processes", "procs_running", "procs_blocked",
                    "softirq"], lines
    rx = {"intr": r"intr \d+( \d+)+", "softirq": r"softirq \d+( \d+){10}"}
    for l in lines[len(cpus):]:
        key = l.split()[0]
        assert re.fullmatch(rx.get(key, key + r" \d+"), l), l
    fields = {l.split()[0]: int(l.split()[1]) for l in lines[len(cpus):]}
    assert fields["procs_running"] >= 1 and fields["processes"] >= 3, lines
    assert fields["btime"] > 1600000000, lines  # the CMOS clock's date at boot
    # The columns sum over the CPUs (read a moment apart: a tick or two each may come between).
    total = [int(x) for x in cpus[0].group(2).split()]
    per_cpu = [sum(int(m.group(2).split()[i]) for m in cpus[1:]) for i in range(10)]
    assert all(0 <= p - t <= 2 * nproc for t, p in zip(total, per_cpu)), lines
    # uptime's idle seconds are stat's idle column (the 4th) over USER_HZ, read in between.
    uptime = re.search(r"^(\d+\.\d\d) (\d+\.\d\d)$", rest, re.M)
    assert uptime, rest
    idle_before = total[3] / 100
    idle_after = int(STAT_CPU.match(stat_lines(rest.split(uptime.group(0))[1])[0]).group(2)
                     .split()[3]) / 100
    assert idle_before - 0.02 * nproc <= float(uptime.group(2)) <= idle_after + 0.02 * nproc, out
    # A second of uptime is at most a second of ticks on each CPU (they start a little after
    # the clock; the LAPIC timer's calibration may be a few per cent off, as QEMU's is).
    ticks = sum(per_cpu) / 100
    assert 0 < ticks <= (float(uptime.group(1)) * 1.1 + 0.5) * nproc, (out, ticks)


def test_proc_loadavg_and_top(lucid):
    out = lucid.run("cat /proc/loadavg")
    assert re.fullmatch(r"\d+\.\d\d \d+\.\d\d \d+\.\d\d \d+/\d+ \d+\n", out), out
    run, total = map(int, out.split()[3].split("/"))
    assert 1 <= run <= total, out
    # A task spinning: the 1-minute average rises from its first step (every 5 s), as Linux's.
    lucid.run("cputime burn 60000 &")
    try:
        deadline = time.time() + 40
        while True:
            out = lucid.run("cat /proc/loadavg")
            if float(out.split()[0]) > 0 or time.time() > deadline:
                break
            time.sleep(1)
        assert float(out.split()[0]) > 0, out
        assert int(out.split()[3].split("/")[0]) >= 1, out
    finally:
        lucid.run("kill %1; wait")
    # sysinfo's loads are the same averages (<< 16 rather than << 11).
    si = lucid.run("sysinfo -v")
    m = re.search(r"loads=(\d+),(\d+),(\d+)\n", si)
    assert m and int(m.group(1)) > 0, si
    # busybox top reads /proc/stat, meminfo, loadavg and every /proc/PID: its header parses.
    out = lucid.run("busybox top -b -n 1; echo rc=$?", 60)
    assert out.endswith("rc=0\n"), out
    assert re.search(r"^Mem: \d+K used, \d+K free, \d+K shrd, \d+K buff, \d+K cached$", out,
                     re.M), out
    assert re.search(r"^CPU: +\d+% usr +\d+% sys +\d+% nic +\d+% idle +\d+% io +\d+% irq "
                     r"+\d+% sirq$", out, re.M), out
    assert re.search(r"^Load average: \d+\.\d\d \d+\.\d\d \d+\.\d\d \d+/\d+ \d+$", out, re.M), out
    assert re.search(r"^ +PID +PPID +USER +STAT +VSZ +%VSZ +%CPU +COMMAND$", out, re.M), out
    assert re.search(r"^ +\d+ +\d+ root +R +\d+ .*busybox top -b -n 1$", out, re.M), out


def bash_times(out):
    """bash's `time` lines: {'real': s, 'user': s, 'sys': s}."""
    got = dict((k, int(m) * 60 + float(s)) for k, m, s in
               re.findall(r"^(real|user|sys)\t(\d+)m(\d+\.\d{3})s$", out, re.M))
    assert set(got) == {"real", "user", "sys"}, out
    return got


def test_bash_time_and_times(lucid):
    lucid.run("bash -c true")  # bash's start-up asks for socket and getpeername: logged once
    # `time`: the user time of a half-second spin is counted, and is not more than the real
    # time (it was 69 minutes when getrusage was missing).
    t = bash_times(lucid.run("bash -c 'time cputime burn 500'", 60))
    assert 0.5 <= t["real"] < 30, t
    assert 0 < t["user"] + t["sys"] <= t["real"] + 0.03, t
    # `times`: the shell's own times, then its children's, which hold the spin's.
    out = lucid.run("bash -c 'cputime burn 300; times'", 60)
    lines = re.findall(r"^(\d+)m(\d+\.\d{3})s (\d+)m(\d+\.\d{3})s$", out, re.M)
    assert len(lines) == 2, out
    children = [int(m) * 60 + float(s) for m, s in (lines[1][:2], lines[1][2:])]
    assert 0 < sum(children) < 30, out


def on_host_bash(script, shell=("bash-static",)):
    """What the host's bash-static (or shell) prints for script, run in a fresh temporary
    directory."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(list(shell) + ["-c", script], cwd=tmp, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30,
                             env={"PATH": "/usr/bin:/bin"})
        return out.stdout + out.stderr


def shape(out):
    """Output with what differs between machines made the same: dates, inode and mount
    numbers (a pipe's name carries its inode's)."""
    out = re.sub(r"\b[A-Z][a-z]{2} [ \d]\d \d\d:\d\d\b", "DATE", out)
    out = re.sub(r"pipe:\[\d+\]", "pipe:[INO]", out)
    return re.sub(r"^(mnt_id|ino):\t\d+$", r"\1:\tN", out, flags=re.M)


# Each runs in bash on the host and in Lucid (in /tmp); the applets are busybox's on both sides.
FD_SCRIPTS = [
    "cat <(echo x)",
    "busybox diff <(echo a) <(echo b); echo rc=$?",
    "busybox cat <(echo one) <(echo two) | busybox wc -l",
    "echo hi | busybox cat /dev/stdin",
    "echo hi | busybox cat /dev/fd/0",
    "(echo to-stdout > /dev/stdout; echo to-stderr > /dev/stderr) 2>&1 | busybox cat",
    "busybox ls -l /proc/self/fd < /dev/null 2>&1 | busybox cat",
    "busybox ls /proc/self/fdinfo < /dev/null 2>&1 | busybox cat",
    "busybox readlink /proc/self/fd/0 < /dev/null; busybox readlink /dev/stdin; "
    "busybox readlink /dev/fd",
    "busybox ls -l /dev/fd /dev/stdin /dev/stdout /dev/stderr",
    "busybox cat /proc/self/fdinfo/0 < /dev/null",
    "busybox cat /proc/self/fdinfo/1 | busybox cat",
    "echo a > f; busybox cat /proc/self/fdinfo/3 3>>f 4<f",
    "printf 'line1\\nline2\\n' > f; { read l; busybox cat /proc/self/fdinfo/0; } < f",
    "exec 5< /dev/null; busybox test -e /proc/$$/fd/5 && echo fd5 open; exec 5<&-; "
    "busybox test -e /proc/$$/fd/5 || echo fd5 closed",
    "busybox cat /proc/self/fd/9 2>&1; busybox ls /proc/self/fdinfo/99 2>&1",
]


def test_dev_fd_and_proc_pid_fd_as_on_linux(lucid):
    # process substitution, /dev/stdin, /dev/fd, /proc/PID/fd's links (their
    # text, modes, and opening one: a pipe opened again) and fdinfo, against the host's bash.
    lucid.run("bash -c true")  # bash's start-up asks for socket and getpeername: logged once
    for script in FD_SCRIPTS:
        want = shape(on_host_bash(script))
        got = shape(lucid.run("cd /tmp; bash -c '%s'" % script.replace("'", "'\\''"), 60))
        assert got == want, "%s\nLinux:\n%s\nLucid:\n%s" % (script, want, got)

# busybox sh has no <(cmd), but the files are the same for it.
SH_SCRIPTS = [
    "echo hi | cat /dev/stdin",
    "echo hi | cat /proc/self/fd/0; cat /proc/self/fdinfo/0 < /dev/null",
    "ls -l /proc/self/fd/ < /dev/null 2>&1 | cat",
]


def test_dev_fd_in_busybox_sh(lucid):
    for script in SH_SCRIPTS:
        want = shape(on_host_bash(script, ("busybox", "sh")))
        got = shape(lucid.run("cd /tmp; sh -c '%s'" % script, 60))
        assert got == want, "%s\nLinux:\n%s\nLucid:\n%s" % (script, want, got)


def test_bash_read_timeout(lucid):
    # bash's `read -t` is a setitimer(ITIMER_REAL) and a SIGALRM handler: the read, from the
    # console or from a pipe, ends after the time with status 142 (128 + SIGALRM), as on Linux.
    lucid.run("bash -c true")
    assert lucid.run("bash -c 'read -t 1 x; echo rc=$?'", 30) == "rc=142\n"
    script = "read -t 0.5 x < <(sleep 3); echo rc=$?"
    assert lucid.run("bash -c '%s'" % script, 30) == on_host_bash(script) == "rc=142\n"

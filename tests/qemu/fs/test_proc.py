"""/proc/PID and /proc/self, and ps telling user processes from kernel threads.

The files follow Linux's formats (proc(5)): stat's 52 fields, status's "Name:\t..." lines,
cmdline's NUL-separated argv read from the process's memory, maps's VMA lines.
"""
import re
import time

from tracefs import ok


def job_pid(out):
    m = re.search(r"^\[1\] (\d+)$", out, re.M)
    assert m, out
    return int(m.group(1))


def test_proc_pid_of_a_user_process(lucid):
    pid = job_pid(lucid.run("spin one two &"))
    try:
        # The job is bash's forked child until its exec: wait for it to be spin, and to be
        # past exec's last steps (closing its O_CLOEXEC files may wait for the VFS mutex that
        # this very `cat` holds: D for a moment, as on Linux).
        deadline = time.time() + 30
        while True:
            stat = lucid.run("cat /proc/%d/stat" % pid)
            fields = stat.split()
            if (fields[1] == "(spin)" and fields[8] == "0" and fields[2] in "RS") or \
                    time.time() > deadline:
                break
            time.sleep(0.2)
        assert len(fields) == 52, stat
        assert fields[0] == str(pid) and fields[1] == "(spin)" and fields[2] in "RS", stat
        assert fields[8] == "0", stat  # flags: not PF_KTHREAD
        assert int(fields[22]) > 0 and int(fields[23]) > 0, stat  # vsize, rss
        assert fields[24] == str(2**64 - 1), stat  # rsslim: RLIM_INFINITY
        assert int(fields[25]) > 0 and int(fields[26]) > int(fields[25]), stat  # code
        assert int(fields[47]) < int(fields[48]), stat  # arg_start < arg_end

        status = lucid.run("cat /proc/%d/status" % pid)
        assert status.startswith("Name:\tspin\nUmask:\t0022\nState:\t"), status
        assert "\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t" % (pid, pid) in status, status
        assert re.search(r"\nVmRSS:\t +\d+ kB\n", status), status
        assert "\nCapEff:\t000001ffffffffff\n" in status, status
        vmsize = re.search(r"\nVmSize:\t +(\d+) kB\n", status)
        assert vmsize and int(fields[22]) == int(vmsize.group(1)) * 1024, (stat, status)
        # lucid's fixture boots these CPUs: ps's CPU column never names one past them
        assert re.search(r"\nCpus_allowed:\t[0-9a-f]+\nCpus_allowed_list:\t0(-\d+)?\n", status), \
            status

        cmdline = lucid.run("cat /proc/%d/cmdline" % pid)
        assert cmdline == "spin\0one\0two\0", repr(cmdline)

        maps = lucid.run("cat /proc/%d/maps" % pid).splitlines()
        line = r"^[0-9a-f]{8,}-[0-9a-f]{8,} r[w-][x-]p [0-9a-f]{8} 00:00 0 *"
        assert all(re.match(line, l) for l in maps), maps
        assert any(re.match(line + r"\S*/spin$", l) and "r-xp" in l for l in maps), maps
        assert any(l.endswith(" [stack]") and "rw-p" in l for l in maps), maps
        # The path starts at Linux's column 73.
        named = [l for l in maps if l.endswith("[stack]")][0]
        assert named.index("[stack]") == 73, named

        # busybox's ps: a process shows its command line, a kernel thread [its name]. spin is
        # a process, so is the shell (bash, init's child), and ps is running as it reads.
        ps = lucid.run("ps -o pid,ppid,user,stat,comm,args")
        assert re.search(r"^\s*%d\s+\d+\s+root\s+\w+\s+spin\s+spin one two$" % pid, ps, re.M), ps
        assert re.search(r"^\s*\d+\s+1\s+root\s+\w+\s+bash\s+-bash$", ps, re.M), ps
        assert re.search(r"^\s*\d+\s+\d+\s+root\s+R\s+ps\s+ps -o ", ps, re.M), ps
    finally:
        # kill returns once the signal is sent; wait returns once spin is gone.
        lucid.run("kill %1; wait %1")
    # Once it is gone, so is its directory.
    out = lucid.run("cat /proc/%d/stat" % pid)
    assert "No such file or directory" in out, out
    assert lucid.status() == 1
    assert "%d\n" % pid not in lucid.run("ls -1 /proc"), lucid.run("ls -1 /proc")


def test_proc_self_of_a_user_process(lucid):
    out = lucid.run("procself a b")
    m = re.match(r"getpid (\d+) stat (\d+)\ncmdline procself a b \n$", out)
    assert m and m.group(1) == m.group(2), out


def test_proc_pid_of_a_kernel_thread_and_self(lucid):
    # pid 2, snapshotd, is a kernel thread (bash's commands are processes).
    stat = lucid.run("cat /proc/2/stat").split()
    assert len(stat) == 52 and stat[1] == "(snapshotd)", stat
    assert int(stat[8]) & 0x00200000, stat  # PF_KTHREAD
    assert stat[22] == "0" and stat[23] == "0", stat  # no memory of its own
    assert stat[5] == "0" and stat[7] == "-1", stat  # no session, no controlling terminal
    status = lucid.run("cat /proc/2/status")
    assert status.startswith("Name:\tsnapshotd\n"), status
    assert "VmSize" not in status, status  # Linux shows no Vm lines for a kernel thread
    assert lucid.run("cat /proc/2/cmdline") == ""
    assert lucid.run("cat /proc/2/maps") == ""
    assert lucid.run("cat /proc/2/comm") == "snapshotd\n"
    # cat reading its own /proc/self: a process, running, in the foreground of bash's session
    # (bash leads it: init's setsid), its own group the terminal's foreground (tpgid).
    bash = lucid.run("echo $$").strip()
    stat = lucid.run("cat /proc/self/stat").split()
    assert len(stat) == 52 and stat[1] == "(cat)" and stat[2] == "R", stat
    assert not int(stat[8]) & 0x00200000, stat
    assert stat[3] == bash and stat[5] == bash, (bash, stat)  # ppid, session
    assert stat[4] == stat[0] and stat[7] == stat[0], stat  # pgrp, tpgid: a foreground job
    assert lucid.run("cat /proc/self/comm") == "cat\n"  # the name, as Linux's comm file
    # Each reader sees itself: two commands, two pids.
    a = lucid.run("cat /proc/self/stat").split()[0]
    b = lucid.run("cat /proc/self/stat").split()[0]
    assert a != b, (a, b)
    # pid 0 is no directory, nor is a name that is not a pid.
    for bad in ("0", "99999", "12x"):
        out = lucid.run("cat /proc/%s/stat" % bad)
        assert out == "cat: can't open '/proc/%s/stat': No such file or directory\n" % bad, out
    assert "uptime\n" in lucid.run("ls -1 /proc")


T = "/sys/kernel/tracing"


def traced_pids(lucid, comm):
    """The pids of the function trace's lines, and whether every line is comm's."""
    trace = lucid.run("cat %s/trace" % T, timeout=120)
    lines = [l for l in trace.splitlines() if not l.startswith("#") and l.strip()]
    tasks = {re.match(r"^\s*(\S+)-(\d+)\s+\[", l).group(1, 2) for l in lines}
    return trace, {int(pid) for name, pid in tasks if name == comm}, {n for n, _ in tasks}


def trace_program(lucid, fork_option):
    """forkchild under the function tracer, set_ftrace_pid its pid before it forks."""
    ok(lucid, "echo 0 > %s/tracing_on" % T)
    ok(lucid, "echo > %s/trace" % T)
    ok(lucid, "echo %d > %s/options/function-fork" % (fork_option, T))
    pid = job_pid(lucid.run("forkchild 2 &"))
    try:
        ok(lucid, "echo %d > %s/set_ftrace_pid" % (pid, T))
        ok(lucid, "echo function > %s/current_tracer" % T)
        ok(lucid, "echo 1 > %s/tracing_on" % T)
        lucid.run("wait", timeout=60)
        ok(lucid, "echo 0 > %s/tracing_on" % T)
        after = lucid.run("cat %s/set_ftrace_pid" % T)
        return (pid,) + traced_pids(lucid, "forkchild") + (after,)
    finally:
        for cmd in ["echo nop > %s/current_tracer" % T, "echo > %s/set_ftrace_pid" % T,
                    "echo 0 > %s/options/function-fork" % T, "echo 1 > %s/tracing_on" % T]:
            lucid.run(cmd)


def test_set_ftrace_pid_traces_one_user_process(lucid):
    pid, trace, pids, comms, after = trace_program(lucid, 0)
    # Only the program: its system calls (nanosleep, clone, wait4), not the shell or the child.
    assert pids == {pid} and comms == {"forkchild"}, (pids, comms, trace[-3000:])
    assert "do_syscall_64 <-" in trace, trace[-3000:]
    assert after == "%d\n" % pid, after


def test_function_fork_follows_the_child_and_lets_go_at_exit(lucid):
    assert "nofunction-fork\n" in lucid.run("cat %s/trace_options" % T)
    assert lucid.run("cat %s/options/function-fork" % T) == "0\n"
    pid, trace, pids, comms, after = trace_program(lucid, 1)
    assert comms == {"forkchild"}, (comms, trace[-3000:])
    assert len(pids) == 2 and pid in pids and max(pids) > pid, (pids, trace[-3000:])
    child = max(pids)
    child_lines = [l for l in trace.splitlines() if "forkchild-%d " % child in l]
    assert any("ret_from_fork" in l or "do_syscall_64" in l for l in child_lines), child_lines
    # Both exited: the list is empty, and in force (nothing traced) until written again.
    assert after == "", after


def test_proc_files_of_processes_that_come_and_go(lucid):
    """Reading the files of processes while they fork, exec and exit: no oops, no hang, and
    each read either shows the process or fails as a missing one does."""
    def quiet(out):  # without the notes of ended jobs and the kernel's messages meanwhile
        out = re.sub(r"(?m)^\[ *\d+\.\d+\] .*\n", "", out)
        return re.sub(r"(?m)^\[\d+\][+-]? +Done.*\n", "", out)

    start = int(quiet(lucid.run("cat /proc/self/stat")).split()[0])
    for _ in range(3):
        out = lucid.run("forkchild 1 &")
        assert re.match(r"\[\d+\] \d+\n", quiet(out)), out
    for pid in range(start, start + 40):
        for f in ("stat", "status", "cmdline", "maps"):
            out = quiet(lucid.run("cat /proc/%d/%s" % (pid, f), timeout=30))
            # cat's own error, never the kernel's: a process gone is a missing file
            errors = [l for l in out.splitlines() if l.startswith("cat: ")]
            assert all(l.endswith((": No such file or directory", ": No such process"))
                       for l in errors), (pid, f, out)
    lucid.run("wait", timeout=60)
    dmesg = lucid.run("dmesg")
    assert "Oops" not in dmesg, dmesg[-3000:]
    # Refused and nothing changed, as Lucid's other read-only /proc files refuse it (Linux lets
    # root open them and fails the write with EINVAL instead).
    want = lucid.run("echo x > /proc/uptime").replace("/proc/uptime", "/proc/self/stat")
    assert want and lucid.run("echo x > /proc/self/stat") == want, want
    assert lucid.run("cat /proc/self/stat").split()[1] == "(cat)"


def test_maps_of_a_huge_sparse_heap(lucid):
    """A 64 TiB break with one page touched: maps and status answer at once, counting only the
    mapped pages (the walk skips missing page tables, not page by page)."""
    pid = job_pid(lucid.run("bigheap &"))
    try:
        # Until the break has grown: the C library's own first brk shows a small [heap] before
        # bigheap's (a loaded host once read maps in between).
        deadline = time.time() + 30
        heap, size = [], 0
        while size < 64 << 40 and time.time() < deadline:
            maps = lucid.run("cat /proc/%d/maps" % pid, timeout=30)
            heap = [l for l in maps.splitlines() if l.endswith(" [heap]")]
            if heap:
                start, end = (int(x, 16) for x in heap[0].split()[0].split("-"))
                size = end - start
            time.sleep(0.2)
        assert heap, maps
        assert size >= 64 << 40, heap
        rss = re.search(r"\nVmRSS:\t +(\d+) kB\n", lucid.run("cat /proc/%d/status" % pid))
        assert rss and int(rss.group(1)) < 1 << 20, rss  # kB: the touched pages only
    finally:
        lucid.run("kill %1")

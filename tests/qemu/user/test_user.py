"""User space: the initramfs, ring 3 programs on Linux's system-call ABI.

The programs are user/*.c, built with musl-gcc and packed at /bin/NAME into the initramfs GRUB
loads beside the kernel (kernel/fs/initramfs.c unpacks it). bash runs a command it does not
know as a program from /bin (kernel/fs/exec.c), with its pipes and redirections.
"""
import re
import time

from lucid import FORK_BOMB_MEM, Lucid
from test_files import mem_free_but_the_shell

# Heavy, a fork bomb, and run_test beside 1000 traced forks: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

T = "/sys/kernel/tracing"


def run(lucid, line, want, status=0, timeout=30):
    out = lucid.run(line, timeout)
    assert out == want, "%r printed %r, not %r" % (line, out[-2000:], want)
    assert lucid.status() == status, (line, lucid.status())


def test_initramfs_bin(lucid):
    out = lucid.run("ls -1 /bin")
    for prog in ["args", "efault", "hello", "mem", "notelf", "segv", "spin"]:
        assert prog + "\n" in out, out
    assert lucid.status() == 0
    assert lucid.run("ls -l /bin/hello").startswith("-rwxr-xr-x "), lucid.run("ls -l /bin")
    dmesg = lucid.run("dmesg")
    assert "Trying to unpack rootfs image as initramfs...\n" in dmesg
    assert "Initramfs unpacking failed" not in dmesg


def test_hello_pipes_redirections_status(lucid):
    run(lucid, "hello", "Hello, world!\n")
    run(lucid, "/bin/hello", "Hello, world!\n")
    run(lucid, "hello | wc -l", "1\n")
    run(lucid, "hello | wc -l > /tmp/hello.count", "")
    run(lucid, "cat /tmp/hello.count", "1\n")
    run(lucid, "hello > /tmp/hello.out; hello >> /tmp/hello.out; cat /tmp/hello.out",
        "Hello, world!\nHello, world!\n")
    run(lucid, "exitcode 42", "", status=42)
    run(lucid, "exitcode 300", "", status=300 & 0xff)
    run(lucid, "exitcode 3 || echo failed $?", "failed 3\n")


def test_exec_arguments_and_auxv(lucid):
    run(lucid, "args one 'two words'",
        "argc=3\nargv[0]=args\nargv[1]=one\nargv[2]=two words\n"
        "HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
        "AT_PAGESZ=4096\nAT_EXECFN=/bin/args\nAT_PLATFORM=x86_64\n"
        "AT_CLKTCK=100\nAT_UID=0 AT_SECURE=0\nAT_RANDOM=set\nAT_ENTRY=set\n"
        "uid=0 gid=0 pid>0=1 ppid>0=1\nuname=Linux x86_64\n")


def test_bad_pointers_efault(lucid):
    out = lucid.run("efault")
    lines = out.splitlines()
    assert lines[-1] == "rt_sigprocmask good: no error", out
    for line in lines[:-1]:
        assert line.endswith(": Bad address"), out
    assert len(lines) == 40, out
    assert lucid.status() == 0


def test_path_running_into_the_end_of_user_memory(lucid):
    """A path whose bytes stop at the top of the user half with no NUL: EFAULT from every
    call that copies a path in, never a string read on past it."""
    out = lucid.run("pathend")
    assert out == "".join("%s: Bad address\n" % c
                          for c in ["open", "stat", "mkdir", "chdir", "execve"]), out


def test_page_zero_cannot_be_mapped(lucid):
    """MAP_FIXED below mmap_min_addr (64 KiB) is EPERM; at 64 KiB it maps."""
    assert lucid.run("page0") == "page 0: Operation not permitted\n64 KiB: mapped\n"


def test_segfault_kills_only_the_process(lucid):
    out = lucid.run("segv")
    assert out.startswith("about to fault\n"), out
    assert "still alive" not in out
    assert lucid.status() == 128 + 11
    assert re.search(r"segv\[\d+\]: segfault at 0 ip [0-9a-f]{16} sp [0-9a-f]{16} error 6\n",
                     lucid.run("dmesg | grep segfault")), lucid.run("dmesg | tail")
    run(lucid, "hello", "Hello, world!\n")  # the kernel and the shell live on


def test_exec_errors(lucid):
    # execve says ENOEXEC for a file that is not ELF: bash then runs a text file as a script of
    # its own, as on Linux (tests/user/notelf is one line of text), and says so for a binary one.
    run(lucid, "notelf", "/bin/notelf: line 1: This: command not found\n", status=127)
    run(lucid, "printf '\\0\\1\\2\\3' > /tmp/binjunk; chmod +x /tmp/binjunk; /tmp/binjunk",
        "-bash: /tmp/binjunk: cannot execute binary file: Exec format error\n", status=126)
    run(lucid, "echo data > /tmp/notexec; /tmp/notexec",
        "-bash: /tmp/notexec: Permission denied\n", status=126)
    run(lucid, "/bin", "-bash: /bin: Is a directory\n", status=126)
    run(lucid, "/no/such", "-bash: /no/such: No such file or directory\n", status=127)
    run(lucid, "nosuchprogram", "-bash: nosuchprogram: command not found\n", status=127)
    lucid.run("rm /tmp/binjunk /tmp/notexec")


def test_enosys_named_once(lucid):
    want = "acct: -1 Function not implemented\n1000: -1 Function not implemented\n"
    lucid.run("enosys")
    run(lucid, "enosys", want)
    log = lucid.run("dmesg | grep 'is not implemented'")
    assert re.search(r"^\[[ .\d]+\] enosys\[\d+\]: system call 163 \(acct\) is not implemented: "
                     r"ENOSYS$", log, re.M), log
    assert log.count("(acct)") == 1, log
    assert log.count("system call 1000 (unknown)") == 1, log


def test_memory_and_free_pages(lucid):
    run(lucid, "mem", "brk ok\nmalloc ok\nmmap zeroed ok\nmunmap ok\nstack ok\n")
    run(lucid, "hello > /dev/null", "")

    def free_kb():
        m = re.search(r"MemFree: +(\d+) kB", lucid.run("cat /proc/meminfo"))
        return int(m.group(1))
    before = free_kb()
    for _ in range(5):
        run(lucid, "mem > /dev/null", "")
    after = free_kb()
    # Every page of the five processes came back (a few kB of slack for the kernel's caches).
    assert abs(after - before) <= 64, (before, after)


def test_ctrl_c_ends_a_spinning_program(lucid):
    with lucid.showing_tasks():
        lucid.send_line("spin")
        lucid.until_job_started("spin", states="R")
        lucid.p.send("\x03")
        lucid.expect_prompt(30)
    assert lucid.status() == 130
    run(lucid, "hello", "Hello, world!\n")


def test_function_graph_shows_the_system_call(lucid):
    for cmd in ["echo 0 > %s/tracing_on" % T, "echo do_syscall_64 > %s/set_graph_function" % T,
                "echo function_graph > %s/current_tracer" % T,
                "echo 1 > %s/options/funcgraph-proc" % T, "echo > %s/trace" % T]:
        run(lucid, cmd, "")
    run(lucid, "echo 1 > %s/tracing_on; hello > /dev/null; echo 0 > %s/tracing_on" % (T, T), "")
    trace = lucid.run("cat %s/trace" % T, timeout=60)
    for cmd in ["echo nop > %s/current_tracer" % T, "echo > %s/set_graph_function" % T,
                "echo 0 > %s/options/funcgraph-proc" % T, "echo 1 > %s/tracing_on" % T]:
        run(lucid, cmd, "")
    lines = [l for l in trace.splitlines() if "hello-" in l]
    assert lines, trace[-3000:]
    body = [re.sub(r"^.*\|  ", "", l) for l in lines]
    # do_syscall_64() { sys_writev() { do_readv_writev() { ksys_write() { vfs_write() { ...:
    # each function opened inside the one before, deeper each time.
    want = ["do_syscall_64", "sys_writev", "ksys_write", "vfs_write"]
    def nested(start):
        base = len(body[start]) - len(body[start].lstrip())
        depth, found = -1, []
        for line in body[start:]:
            indent = len(line) - len(line.lstrip())
            if found and indent == base and line.strip().startswith("}"):
                break  # the end of this do_syscall_64
            if len(found) < len(want) and line.strip() == want[len(found)] + "() {" \
                    and indent > depth:
                found.append(want[len(found)])
                depth = indent
        return found == want
    starts = [i for i, line in enumerate(body) if line.strip() == "do_syscall_64() {"]
    assert any(nested(i) for i in starts), "\n".join(body[:80])


def test_raw_syscalls_events(lucid):
    fmt = lucid.run("cat %s/events/raw_syscalls/sys_enter/format" % T)
    assert "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n" in fmt, fmt
    assert "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n" in fmt, fmt
    assert 'print fmt: "NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id, REC->args[0], ' in fmt
    fmt = lucid.run("cat %s/events/raw_syscalls/sys_exit/format" % T)
    assert "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n" in fmt, fmt
    assert 'print fmt: "NR %ld = %ld", REC->id, REC->ret\n' in fmt, fmt
    run(lucid, "echo > %s/trace; echo 1 > %s/events/raw_syscalls/enable" % (T, T), "")
    run(lucid, "exitcode 7", "", status=7)
    run(lucid, "echo 0 > %s/events/raw_syscalls/enable" % T, "")
    lines = [l for l in lucid.run("cat %s/trace" % T).splitlines() if "exitcode-" in l]
    run(lucid, "echo > %s/trace" % T, "")
    events = [re.sub(r"^.*: (sys_e)", r"\1", l) for l in lines]
    # bash's child, named exitcode by the trace (its pid's name now), execs it: execve returns
    # 0 in the new program, as on Linux; then musl's start: arch_prctl(ARCH_SET_FS, ...),
    # set_tid_address; then exit_group(7).
    execve = max(i for i, e in enumerate(events) if e.startswith("sys_enter: NR 59 ("))
    assert events[execve + 1] == "sys_exit: NR 59 = 0", events
    events = events[execve + 2:]
    assert re.match(r"sys_enter: NR 158 \(1002, [0-9a-f]+, ", events[0]), events
    assert events[1] == "sys_exit: NR 158 = 0", events
    assert re.match(r"sys_enter: NR 218 \(", events[2]), events
    assert re.match(r"sys_exit: NR 218 = \d+$", events[3]), events
    assert re.match(r"sys_enter: NR 231 \(7, ", events[-1]), events


def test_files_through_system_calls(lucid):
    # Exactly what the same binary prints on Linux (run on the host; musl words ESPIPE
    # "Invalid seek").
    run(lucid, "files", "mkdir: 0\nmkdir again: -1 File exists\nchdir: 0\ngetcwd: 10\n"
        "cwd=/tmp/files\nopen: 0\nwrite: 26\nclose: 0\nclose again: -1 Bad file descriptor\n"
        "stat: 0\nsize=26 regular=1\nlseek: 8\nread: 18\nbuf=by a user program\nfstat: 0\n"
        "size=26\ndup2: 9\nclose dup: 0\nopen missing: -1 No such file or directory\n"
        "open excl: -1 File exists\nrename: 0\nstat old: -1 No such file or directory\n"
        "pipe: 0\npipe write: 4\npipe read: 4\ngot=ping\npipe write: 4\npipe readv: 4\n"
        "lseek pipe: -1 Invalid seek\n"
        "unlink: 0\nchdir /: 0\nrmdir: 0\nrmdir again: -1 No such file or directory\n")


def test_programs_under_the_function_tracer_on_all_cpus(lucid):
    """Pipelines of programs on 4 CPUs while every kernel function is traced: nothing breaks,
    and every page comes back."""
    def free_kb():
        return int(re.search(r"MemFree: +(\d+) kB", lucid.run("cat /proc/meminfo")).group(1))
    run(lucid, "mem > /dev/null", "")
    before = free_kb()
    run(lucid, "echo function > %s/current_tracer" % T, "")
    for _ in range(5):
        run(lucid, "mem | wc -l; hello | hello | args x | wc -l; efault | wc -l",
            "5\n13\n40\n", timeout=120)
    run(lucid, "echo nop > %s/current_tracer" % T, "")
    assert "Oops" not in lucid.run("dmesg") and "BUG" not in lucid.run("dmesg")
    after = free_kb()
    assert abs(after - before) <= 64, (before, after)


def test_run_test_beside_1000_forks_and_execs_traced(lucid):
    """The issue's soak: run_test on 4 CPUs beside 1,000 fork + exec + wait, every kernel
    function traced. No oops, every child exits 0, run_test's count is right, and every page
    the processes used comes back."""
    def free_kb():  # bash's own heap grows as it likes (its job list): the kernel's pages
        return mem_free_but_the_shell(lucid)
    run(lucid, "forkexec 10", "10 ok\n")  # the first exec's lasting allocations, made now
    before = free_kb()
    run(lucid, "echo function > %s/current_tracer" % T, "")
    out = lucid.run("run_test -t 8 -r 200 > /tmp/rt & forkexec 1000; wait; tail -1 /tmp/rt",
                    timeout=600)
    run(lucid, "echo nop > %s/current_tracer" % T, "")
    assert "\n1000 ok\n" in out, out
    assert re.search(r"^run_test: .*counter 1600/1600, .*, ok$", out, re.M), out
    run(lucid, "rm /tmp/rt", "")
    log = lucid.run("dmesg")
    assert "Oops" not in log and "BUG" not in log and "WARNING" not in log, log[-2000:]
    assert free_kb() >= before, (before, free_kb())  # no page lost (bash's may shrink)


def test_time_random_limits(lucid):
    # The host's Linux prints the same lines, but nofile (its own limit; Lucid's is 64 fds).
    run(lucid, "clocks", "nanosleep: 0\nslept at least 50 ms: 1\ngettimeofday: 0\n"
        "realtime after 2020: 1\nclock_gettime realtime after 2020: 1\n"
        "bad clock: -1 Invalid argument\nbad nanosleep: -1 Invalid argument\ngetrandom: 32\n"
        "getrandom bad flags: -1 Invalid argument\ngetrandom bad buffer: -1 Bad address\n"
        "getrlimit nofile: 0\nnofile=1024\nset_robust_list: 0\n"
        "set_robust_list bad len: -1 Invalid argument\nsched_yield: 0\n")
    run(lucid, "nap 1; echo $?", "0\n", timeout=30)


def test_ctrl_c_ends_a_sleeping_program(lucid):
    with lucid.showing_tasks():
        lucid.send_line("nap")
        lucid.until_job_started("nap")
        lucid.p.send("\x03")
        lucid.expect_prompt(30)
    assert lucid.status() == 130


def test_sleep_too_long_to_count_is_forever(lucid):
    """nanosleep of 2^62 seconds, whose nanoseconds wrap to 0 in 64 bits. Saturated as Linux does,
    it sleeps until Ctrl-C; wrapped, it would wake at once and print."""
    with lucid.showing_tasks():
        lucid.send_line("bigsleep")
        lucid.until_job_started("bigsleep")  # asleep: a wrapped time would have woken it
        time.sleep(1)  # pacing: a second more for one only slow to wake; no pass waits on it
        lucid.p.send("\x03")
        out = lucid.expect_prompt(30)
    assert "woke up" not in out, out
    assert lucid.status() == 130


def test_directories_through_getdents64(lucid):
    # lib64, opt and usr: the dynamic loader, tests/dyn's programs and trace-cmd (test_dynamic).
    run(lucid, "lsdir /", ".\n..\nbin\ndev\netc\nlib\nlib64\nopt\nproc\nroot\nsbin\nsys\ntmp\nusr\n")
    run(lucid, "lsdir /bin | wc -l; ls /bin | wc -l", "%d\n%d\n" % (
        int(lucid.run("ls /bin | wc -l")) + 2, int(lucid.run("ls /bin | wc -l"))))
    run(lucid, "mkdir /tmp/dents; echo > /tmp/dents/a; echo > /tmp/dents/b; lsdir /tmp/dents",
        ".\n..\na\nb\n")
    run(lucid, "lsdir /nonexistent", "opendir: No such file or directory\n", status=1)
    assert "(fcntl)" not in lucid.run("dmesg")


def test_fork_execve_wait4(lucid):
    out = lucid.run("spawn", timeout=60)
    assert lucid.status() == 0
    out = re.sub(r"\[[ .\d]+\] spawn\[\d+\]: segfault at 0 ip [0-9a-f]+ sp [0-9a-f]+ error 6\n",
                 "", out)
    assert out == ("exit: exited 3\nsegv: killed by signal 11\nexecve: exited 5\n"
                   "execve notelf: exited 8\npipe: from the child\npipe child: exited 0\n"
                   "wnohang: 0\nany: exited 6\nno children: -1 No child process\n"
                   "Hello, world!\nhello: exited 0\n"), out


def test_fork_bomb_meets_eagain_and_memory_comes_back():
    lucid = Lucid(mem=FORK_BOMB_MEM)
    try:
        fork_bomb(lucid)
    finally:
        lucid.close()


def fork_bomb(lucid):
    def free_kb():
        return int(re.search(r"MemFree: +(\d+) kB", lucid.run("cat /proc/meminfo")).group(1))
    # The limit is Linux's default RLIMIT_NPROC for the memory, under the kernel stacks there are
    # (some 460 with FORK_BOMB_MEM).
    first = lucid.run("forkbomb", timeout=180)
    m = re.fullmatch(r"fork failed after (\d+) children: Resource temporarily unavailable\n", first)
    assert m and int(m.group(1)) >= 256, first
    lucid.run("bash -c true")  # bash's start-up lines in the log, out of the way
    # getrlimit(RLIMIT_NPROC) says the limit, which counts the login shell and forkbomb itself
    # too (init, which the kernel made, is not a fork).
    limit = lucid.run("bash -c 'ulimit -u'")
    assert limit == "%d\n" % (int(m.group(1)) + 2), (limit, first)
    segv = r"\[[ .\d]+\] spawn\[\d+\]: segfault at .*\n"  # with loglevel=7 the console shows it
    assert re.sub(segv, "", lucid.run("spawn > /dev/null", timeout=60)) == ""
    before = free_kb()
    for _ in range(3):
        assert re.sub(segv, "", lucid.run("forkbomb; spawn > /dev/null", timeout=180)) == first
    assert abs(free_kb() - before) <= 64, (before, free_kb())
    run(lucid, "hello", "Hello, world!\n")

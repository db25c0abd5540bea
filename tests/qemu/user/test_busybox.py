"""Debian's busybox-static and bash-static in the initramfs, run unmodified.

What they ask of the kernel beyond the musl programs: symbolic links in the initramfs (/bin/sh
and each applet -> busybox), /proc/self/exe (busybox finds itself there and re-executes it),
init=PATH, and the small system calls of tests/user/bbcalls.c. The conformance suite
(test_conformance.py) and the tutorial in bash (test_docs_bash.py) run the shells at length.
"""
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time


from lucid import FORK_BOMB_MEM, Lucid

# Heavy, a fork bomb in each shell: run_tests.py starts no other heavy file beside it.
HEAVY = True

MISSING = re.compile(r"system call \d+ \((\w+)\) is not implemented")


def run(lucid, line, want, timeout=60):
    out = lucid.run(line, timeout)
    assert out == want, "%r printed %r, not %r" % (line, out[-2000:], want)


def missing(lucid):
    return set(MISSING.findall(lucid.run("dmesg")))


def test_initramfs_links_and_etc(lucid):
    for name in ("sh", "cat", "true", "ls"):
        run(lucid, "busybox readlink /bin/" + name, "busybox\n")
    run(lucid, "busybox cat /etc/passwd /etc/group",
        "root:x:0:0:root:/root:/bin/sh\nroot:x:0:\n")
    # Made at boot: the date is the CMOS clock's, today's, so ls shows the time, not the year.
    out = lucid.run("busybox ls -ld /tmp")
    assert re.fullmatch(r"drwxrwxrwt    2 root     root             0 [A-Z][a-z]{2} [ \d]\d "
                        r"\d\d:\d\d /tmp\n", out), out
    assert lucid.run("dmesg | grep initramfs:") == ""  # no member skipped or failed


def test_busybox_sh_and_bash_run(lucid):
    lucid.run("bash -c true")  # once asked for calls Lucid lacked (socket...): logged once
    # ls at a terminal (the console, with no window size set: 80 columns) prints columns.
    run(lucid, "busybox sh -c 'echo hi; ls /'",
        "hi\nbin    etc    lib64  proc   sbin   tmp\ndev    lib    opt    root   sys    usr\n")
    run(lucid, "busybox sh -c 'ls / | cat'",
        "bin\ndev\netc\nlib\nlib64\nopt\nproc\nroot\nsbin\nsys\ntmp\nusr\n")
    run(lucid, "sh -c 'x=$(echo a b | tr a-z A-Z); echo \"$x\" $((6*7))'", "A B 42\n")
    run(lucid, "bash -c 'a=(1 2 3); f() { echo ${#a[@]} $1; }; f x; [[ ab == a* ]] && echo glob'",
        "3 x\nglob\n")
    run(lucid, "sh -c 'exit 7'; echo $?", "7\n")
    run(lucid, "bash -c 'exit 9'; echo $?", "9\n")


def test_scripts_from_files(lucid):
    lucid.run("echo 'echo script $# \"$1\"; ls /etc | wc -l' > /tmp/s.sh")
    run(lucid, "sh /tmp/s.sh one", "script 1 one\n3\n")  # group, passwd, profile
    run(lucid, "bash /tmp/s.sh two", "script 1 two\n3\n")
    lucid.run("echo '#!/bin/sh' > /tmp/x.sh; echo 'echo shebang $0' >> /tmp/x.sh")
    lucid.run("chmod +x /tmp/x.sh")
    run(lucid, "bash -c /tmp/x.sh", "shebang /tmp/x.sh\n")
    # Typed at bash, the kernel runs it (binfmt_script), its option too; a missing interpreter
    # is ENOENT, said in bash's words, status 127.
    run(lucid, "/tmp/x.sh", "shebang /tmp/x.sh\n")
    lucid.run("echo '#!/bin/sh -x' > /tmp/o.sh; echo 'echo opt $1' >> /tmp/o.sh; chmod +x /tmp/o.sh")
    run(lucid, "/tmp/o.sh 1", "+ echo opt 1\nopt 1\n")
    lucid.run("echo '#!/bin/nosuch' > /tmp/m.sh; chmod +x /tmp/m.sh")
    run(lucid, "/tmp/m.sh; echo $?",
        "-bash: /tmp/m.sh: cannot execute: required file not found\n127\n")  # bash's words


def test_applets_need_no_missing_call(lucid):
    """id, nproc, cat (sendfile), dmesg (syslog), date (time), and busybox's prctl."""
    run(lucid, "sh -c id", "uid=0(root) gid=0(root)\n")
    run(lucid, "nproc", "4\n")
    run(lucid, "sh -c 'cat /etc/group; cat /etc/group >> /tmp/g; cat /tmp/g; echo p | cat'",
        "root:x:0:\nroot:x:0:\np\n")
    assert "Lucid" in lucid.run("busybox dmesg | busybox head -1")
    assert re.fullmatch(r"\d+\n", lucid.run("busybox date +%s"))
    gone = {"prctl", "time", "getgroups", "sched_getaffinity", "sendfile", "syslog"}
    assert not gone & missing(lucid), missing(lucid)


def test_small_system_calls(lucid):
    run(lucid, "bbcalls",
        "prctl: ok a-rather-long-n\n"
        "prctl unknown: Invalid argument\n"
        "time: ok\n"
        "getgroups: 0\n"
        "getgroups -1: Invalid argument\n"
        "sched_getaffinity: 8 cpus 4\n"
        "sched_getaffinity len 4: Invalid argument\n"
        "sched_getaffinity pid 99999: No such process\n"
        "sendfile offset: 5 off 7 pos 0\n"
        "sendfile pos: 10 pos 10\n"
        "sendfile eof: 0\n"
        "sendfile wrote: 234560123456789\n"
        "sendfile from a pipe: Invalid argument\n"
        "sendfile to O_APPEND: Invalid argument\n"
        "sendfile bad fd: Bad file descriptor\n"
        "syslog size: ok\n"
        "syslog read 8: 0\n"  # whole records only, and none fits in 8 bytes: Linux's 0
        "syslog bad: Invalid argument\n")


def test_proc_self_exe(lucid):
    lucid.run("bash -c true")  # the log's one-time lines, out of the way
    run(lucid, "sh -c 'readlink /proc/self/exe; readlink /proc/$$/exe'",
        "/bin/busybox\n/bin/busybox\n")
    run(lucid, "bash -c 'readlink /proc/$$/exe; exec /proc/self/exe -c \"echo again\"'",
        "/bin/bash\nagain\n")
    run(lucid, "busybox ls -l /proc/self/exe | busybox sed 's/.* -> //'", "/bin/busybox\n")
    run(lucid, "readlink /proc/1/exe; echo $?", "/sbin/init\n0\n")  # init, Lucid's own
    run(lucid, "readlink /proc/2/exe; echo $?", "1\n")  # snapshotd: a kernel thread, no program
    # A pid that execs another program: its exe follows (bash -c runs a last command by an
    # exec in its own pid, so the `true` keeps bash there while readlink looks)
    run(lucid, "sh -c 'readlink /proc/$$/exe; exec bash -c \"readlink /proc/\\$\\$/exe; true\"'",
        "/bin/busybox\n/bin/bash\n")


def test_trace_names_pid_after_exec(lucid):
    """bash -c PROGRAM execs it in bash's pid: the trace names all that pid's lines after it."""
    lucid.run("bash -c true")
    T = "/sys/kernel/tracing"
    lucid.run("cd %s; echo sys_getpid > set_ftrace_filter; echo function > current_tracer" % T)
    lucid.run("echo > trace")
    lucid.run("bash -c 'marker found'")
    lucid.run("echo 0 > tracing_on")
    trace = lucid.run("cat trace")
    lucid.run("echo nop > current_tracer; echo > set_ftrace_filter; echo 1 > tracing_on; cd")
    tasks = set(re.findall(r"^\s*(\S+)-\d+\s+\[", trace, re.M))
    assert tasks == {"marker"}, trace  # bash's getpid calls too, under the name it took


def test_insns(lucid):
    assert re.fullmatch(r"insns: \d+\n", lucid.run("insns /bin/true"))
    assert lucid.status() == 0
    lucid.run("insns /bin/false")
    assert lucid.status() == 1


SHELL_UP_TRIES = 12  # lines typed, one every SHELL_UP_WAIT seconds, until the shell answers one
SHELL_UP_WAIT = 10


def test_init_is_a_shell():
    """init=/bin/sh or /bin/bash: the shell is the console's program, in / with Linux's init
    environment; its end is init's death, "Attempted to kill init!" as Linux says it."""
    for shell, exe in (("/bin/sh", "/bin/busybox"), ("/bin/bash", "/bin/bash")):
        k = Lucid.without_prompt("init=" + shell)
        try:
            k.expect("# ", 120)  # its prompt; the kernel's "Run ... as init process" is in the log
            k.p.send("echo $0 is $(readlink /proc/$$/exe) in $(pwd) HOME=$HOME\r")
            k.expect(r"%s is %s in / HOME=/" % (re.escape(shell), re.escape(exe)), 60)
            k.p.send("exit 5\r")
            # Linux's panic message; then Lucid's rescue console, where Linux would stop
            k.expect(r"Attempted to kill init! exitcode=0x00000500\r\n", 60)
            k.expect(r"\[rescue\]# ", 60)
            assert "Kernel panic" not in k.tail(1000000), k.tail()
        finally:
            k.close()


def test_init_missing_falls_back_to_rescue():
    """An init that cannot be run: Linux's "Failed to execute" line, then (where Linux would
    panic) the rescue console (tests/qemu/kernel/test_rescue.py tests it)."""
    k = Lucid.without_prompt("init=/bin/nosuch")
    try:
        k.expect(r"Failed to execute /bin/nosuch \(error -2\)\r\n", 120)
        k.expect(r"\[rescue\]# ", 60)
    finally:
        k.close()


def test_shells_typed_at_the_kernel_prompt(lucid):
    """`sh` and `bash` typed at the login shell read commands from the console until exit; the
    login shell's prompt and $? come back."""
    lucid.run("bash -c true")
    for shell in ("sh", "bash"):
        lucid.send_line(shell)
        lucid.p.send("echo inside $((2+3)) $(readlink /proc/$$/exe)\r")
        lucid.expect("inside 5 /bin/(busybox|bash)", 30)
        lucid.p.send("exit 3\r")
        lucid.expect_prompt(30)
        assert lucid.status() == 3, shell


def test_ps_lists_every_task(lucid):
    """busybox ps reads /proc: every live task has its directory there, as in Linux."""
    lucid.run("nap 100 &")
    try:
        # Until the job has exec'd (bounded, 20 s): before, ps shows bash's forked child.
        lucid.run('for i in $(seq 200); do [ "$(cat /proc/$!/comm)" = nap ] && break; '
                  'sleep 0.1; done')
        ps = lucid.run("busybox ps")
        assert re.search(r"^\s*1 root\s+/sbin/init$", ps, re.M), ps  # init: Lucid's own
        assert re.search(r"^\s*%s root\s+-bash$" % lucid.run("echo $$").strip(), ps, re.M), ps
        assert re.search(r"^\s*2 root\s+\[snapshotd\]$", ps, re.M), ps
        assert re.search(r"^\s*\d+ root\s+nap 100$", ps, re.M), ps
        assert re.search(r"^\s*\d+ root\s+busybox ps$", ps, re.M), ps
    finally:
        lucid.run("kill %1")


FORK_BOMB = "while :; do sleep 100 >/dev/null 2>&1 & done"
NPROC_HOST = 20  # the host's RLIMIT_NPROC for the run (Lucid's own limit: max_user_procs())


def fork_bomb_on_host(shell):
    """The bomb on the host, as an unprivileged user (root is exempt from RLIMIT_NPROC) under a
    low limit; every process it left is killed after. Its output and status."""
    d = tempfile.mkdtemp(prefix="lucid-forkbomb-")
    os.chmod(d, 0o755)
    for name, target in (("sh", "/bin/busybox"), ("sleep", "/bin/busybox"),
                         ("bash", "/bin/bash-static")):
        os.symlink(target, os.path.join(d, name))
    try:
        p = subprocess.Popen(["prlimit", "--nproc=%d" % NPROC_HOST, "setpriv", "--reuid=65534",
                              "--regid=65534", "--clear-groups", "/usr/bin/env", "-i",
                              "PATH=" + d, shell, "-c", FORK_BOMB],
                             start_new_session=True, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, cwd="/tmp")
        try:
            out, _ = p.communicate(timeout=120)
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # the sleeps it left, in its session's group
            except ProcessLookupError:
                pass  # none left
        return out, p.returncode
    finally:
        shutil.rmtree(d)


# The bomb's sleeps hold every process slot Lucid has for root's processes, as a root fork bomb
# fills Linux's threads-max: the login shell cannot fork either until they are gone. So they
# are counted and killed with bash's builtins alone (read from /proc/PID/stat, kill), no fork.
COUNT_SLEEPS = ("n=0; for c in /proc/[0-9]*/stat; do read -r p name x < $c 2>/dev/null && "
                "[[ $name == '(sleep)' ]] && n=$((n + 1)); done; echo $n")
KILL_SLEEPS = ("for c in /proc/[0-9]*/stat; do read -r p name x < $c 2>/dev/null && "
               "[[ $name == '(sleep)' ]] && kill -9 $p; done; echo killed")


def test_fork_bomb_in_the_shells():
    """A script that forks without end: the shell meets EAGAIN and says so as
    on the host (bash retries with its "fork: retry" lines, as many as its sleeps allow), gives
    up with the host's status; its children live on as orphans, as the host's, until killed, and
    Lucid answers afterwards."""
    # The host's runs (bash's takes 18 s of its retry sleeps) go beside Lucid's, in a thread: one
    # at a time, since both run as the same user and RLIMIT_NPROC counts that user's processes.
    lucid = Lucid(mem=FORK_BOMB_MEM)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            on_host = {shell: pool.submit(fork_bomb_on_host, shell) for shell in ("sh", "bash")}
            # Lucid's runs do not wait for the host's: each is compared once both have ended.
            for shell in ("sh", "bash"):
                out = fork_bomb_in_lucid(lucid, shell)
                same_as_host(shell, out, *on_host[shell].result(timeout=240))
    finally:
        lucid.close()


def same_as_host(shell, out, want, want_status):
    """The bomb's lines (each kind once: how many retries is the sleeps' choice) and status."""
    lines, status = out.splitlines()[:-1], out.splitlines()[-1]
    assert sorted(set(lines)) == sorted(set(want.splitlines())), (shell, out, want)
    assert status == "status %d" % want_status, (shell, out, want_status)
    assert "Resource temporarily unavailable" in want, want


def fork_bomb_in_lucid(lucid, shell):
    """The bomb in Lucid, then its orphans counted and killed; what the shell printed."""
    lucid.run("bash -c true")  # bash's start-up lines in the log, out of the way
    out = lucid.run("%s -c '%s'; echo status $?" % (shell, FORK_BOMB), timeout=240)
    # Its sleeps live on as orphans, as on the host, until killed as the host's are.
    count = lucid.run(COUNT_SLEEPS, timeout=120)
    assert int(count) > 0, count
    killed = lucid.run(KILL_SLEEPS, timeout=120)
    assert killed == "killed\n", killed
    # ('[s]leep': grep's own line in ps, "grep -c [s]leep 100", is not one of them)
    for _ in range(60):
        if lucid.run("busybox ps | grep -c '[s]leep 100'; echo ok", timeout=120) == "0\nok\n":
            break
        time.sleep(1)
    left = lucid.run("busybox ps | grep -c '[s]leep 100'; echo ok", timeout=120)
    assert left == "0\nok\n", left
    return out

"""The system calls, judged by Linux: each user program here is built
with musl-gcc the way the Makefile builds user/, run on the host (a Linux x86_64 machine) in a
fresh temporary directory, and run in Lucid from /bin; the two outputs must be the same.
"""
import difflib
import os
import re
import shutil
import subprocess
import tempfile

from lucid import user_source

MUSL_CFLAGS = ["-static", "-O2", "-Wall", "-Wextra", "-Werror"]


def on_linux(prog, *args):
    """What user/PROG.c prints on the host's Linux, run as PROG ARGS in a temporary directory
    that stands for Lucid's /tmp (each ARG "{dir}" is that directory)."""
    # The build needs it for user/ anyway.
    assert shutil.which("musl-gcc"), "musl-gcc is needed (tools/deps.sh installs musl-tools)"
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, prog)
        subprocess.run(["musl-gcc"] + MUSL_CFLAGS + [user_source(prog),
                        "-o", exe], check=True)
        argv = [exe] + [a.replace("{dir}", tmp) for a in args]
        out = subprocess.run(argv, cwd=tmp, capture_output=True, text=True, timeout=60,
                             umask=0o022, env={"PATH": tmp + ":/usr/bin:/bin"})
        assert out.returncode == 0, out.stderr
        return out.stdout


def on_lucid(lucid, prog, *args):
    out = lucid.run(" ".join([prog] + [a.replace("{dir}", "/tmp") for a in args]), 60)
    assert lucid.status() == 0, out
    return out


# The kernel's report of a user fault: KERN_INFO, in the log (dmesg), as Linux's.
SEGFAULT_LINE = re.compile(r"\[ *\d+\.\d+\] \S+\[\d+\]: segfault at [0-9a-f]+ ip [0-9a-f]{16} "
                           r"sp [0-9a-f]{16} error [0-9a-f]+\n")


def new_log_lines(lucid, last):
    """The kernel log after its line last (all of it if the ring has dropped that line)."""
    log = lucid.dmesg()
    i = log.rfind(last) if last else -1
    return log[i + len(last):] if i >= 0 else log


def same_as_linux(lucid, prog, *args, fix=None):
    """fix(want): the host's output made what Linux prints on Lucid's CPU, where a line depends
    on the CPU (test_entry's non-canonical RSP)."""
    want = on_linux(prog, *args)
    if fix:
        want = fix(want)
    last = lucid.run("dmesg | tail -n 1")
    got = on_lucid(lucid, prog, *args)
    # One report per child a fault killed, in the log; the output must be the program's alone.
    reports = len(SEGFAULT_LINE.findall(new_log_lines(lucid, last)))
    assert not SEGFAULT_LINE.search(got), got
    assert reports == got.count("killed by Segmentation fault"), got
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "linux", "lucid", lineterm="")
    assert got == want, "Lucid differs from Linux:\n" + "\n".join(diff)


def test_file_flags_pread_at_calls(lucid):
    # pread64/pwrite64/readv, F_GETFL/F_SETFL, O_APPEND, O_NONBLOCK on pipes, O_CLOEXEC across
    # execve, umask and the *at() calls from a directory descriptor.
    same_as_linux(lucid, "fileflags", "{dir}")


def test_fchdir_close_range_preadv(lucid):
    # fchdir (an O_PATH directory too), close_range (CLOEXEC, ~0U, the errors), preadv, pwritev,
    # preadv2 and pwritev2 (pos -1 for f_pos, RWF_DSYNC, an unknown flag) against the host.
    same_as_linux(lucid, "fdcalls", "{dir}")


def test_memory_devices(lucid):
    # /dev/null, /dev/zero, /dev/full and the new /dev/random and /dev/urandom.
    same_as_linux(lucid, "devs")


def test_big_reads_and_writes(lucid):
    # a read of /dev/zero or /dev/urandom fills the count, a regular file's
    # read, write, pread and pwrite move it all, a buffer that ends early moves what is mapped,
    # /dev/null takes MAX_RW_COUNT of a 1 TiB write, readv/writev check their vectors first.
    same_as_linux(lucid, "bigrw", "{dir}")
    # The reproductions, in busybox's dd, which copies what each read gives.
    assert lucid.run("dd if=/dev/zero bs=1M count=1 2>/dev/null | wc -c") == "1048576\n"
    assert lucid.run("dd if=/dev/urandom bs=1M count=2 2>/dev/null | wc -c") == "2097152\n"
    out = lucid.run("dd if=/dev/zero of=/tmp/fill bs=64k count=100; wc -c /tmp/fill; rm /tmp/fill")
    assert out == "100+0 records in\n100+0 records out\n6553600 /tmp/fill\n", out


def test_root_and_the_mode_bits(lucid):
    # Lucid's user is root, and Linux's root (CAP_DAC_OVERRIDE) reads and
    # writes a file whatever its r and w bits. The host must run this as root too.
    if os.geteuid() == 0:
        same_as_linux(lucid, "rootperm", "{dir}")
    # cp over a copy of a read-only tracefs file (cp keeps the 0440).
    out = lucid.run("cp /sys/kernel/tracing/available_tracers /tmp/at; "
                    "cp /sys/kernel/tracing/available_tracers /tmp/at; echo $?; "
                    "cmp /tmp/at /sys/kernel/tracing/available_tracers && echo same; rm /tmp/at")
    assert out == "0\nsame\n", out
    # A tracefs file without a write operation opens for writing and refuses the write.
    out = lucid.run("busybox sh -c 'echo 1 > /sys/kernel/tracing/available_tracers'; echo $?")
    assert out.endswith("Invalid argument\n1\n"), out
    # bash's test -r/-w/-x asks faccessat2 (Linux 5.8) first: root's answers, with no
    # "not implemented" line (it falls back to faccessat if the call is missing).
    out = lucid.run("for f in /sys/kernel/debug/provoke-crash/DIRECT /etc/passwd /bin/busybox "
                    "/nonexistent; do test -r $f; r=$?; test -w $f; w=$?; test -x $f; "
                    "echo $r$w$? ; done; dmesg | grep -c faccessat2")
    assert out == "001\n001\n000\n111\n0\n", out


def test_statfs_and_df(lucid):
    # statfs and fstatfs, by Linux's rules and figures, so busybox df works.
    same_as_linux(lucid, "statfs", "{dir}")
    # Each file system's magic number, as Linux's stat -f prints it.
    out = lucid.run("stat -f -c '%t %n' / /tmp /proc /sys/kernel/tracing /sys/kernel/debug")
    assert out == ("858458f6 /\n858458f6 /tmp\n9fa0 /proc\n"
                   "74726163 /sys/kernel/tracing\n64626720 /sys/kernel/debug\n"), out
    # df: the ramfs at / is the memory, its room the free pages; the pseudo file systems have
    # no blocks, so only -a lists them; a path is shown on the file system it is on.
    lines = lucid.run("busybox df").splitlines()
    assert lines[0].split() == ["Filesystem", "1K-blocks", "Used", "Available", "Use%",
                                "Mounted", "on"], lines
    root = lines[1].split()
    assert root[0] == "ramfs" and root[-1] == "/" and len(lines) == 2, lines
    total = int(re.search(r"totalram=(\d+)", lucid.run("sysinfo -v")).group(1))
    assert int(root[1]) * 1024 == total, (root, total)
    assert int(root[1]) == int(root[2]) + int(root[3]), root
    out = lucid.run("busybox df /tmp /proc /sys/kernel/tracing | awk 'NR > 1 {print $1, $2, $6}'")
    assert out == "ramfs %s /\nproc 0 /proc\ntracefs 0 /sys/kernel/tracing\n" % root[1], out
    assert [l.split()[-1] for l in lucid.run("busybox df -a").splitlines()[1:]] == \
        ["/", "/sys", "/sys/kernel/debug", "/sys/kernel/tracing", "/proc"]
    # st_dev tells the trees apart (df and find -xdev go by it).
    devs = lucid.run("stat -c %d / /tmp /proc /sys/kernel/tracing /sys/kernel/debug").split()
    assert devs[0] == devs[1] and len(set(devs)) == 4, devs


def test_mprotect_map_fixed_partial_munmap(lucid):
    # W^X until mprotect asks, PROT_NONE, MAP_FIXED(_NOREPLACE), holes punched by munmap.
    same_as_linux(lucid, "mprot")


def test_sysinfo_uname_rseq(lucid):
    same_as_linux(lucid, "sysinfo")
    # The figures are Lucid's own: the memory is the free-page count's, the tasks are alive,
    # the loads /proc/loadavg's (test_procfs.py).
    out = lucid.run("sysinfo -v")
    m = re.search(r"uptime=(\d+) totalram=(\d+) freeram=(\d+) procs=(\d+) "
                  r"loads=\d+,\d+,\d+\n", out)
    assert m, out
    assert int(m.group(3)) < int(m.group(2)) and int(m.group(4)) >= 2, out
    # rseq: Linux's answer without CONFIG_RSEQ, and not a "not implemented" line in the log.
    assert "rseq: -1 Function not implemented\n" in out, out
    assert "(rseq) is not implemented" not in lucid.run("dmesg")


def test_symbolic_links(lucid):
    # symlink(at), readlink(at), lstat, links followed mid-path and last, O_NOFOLLOW, ELOOP.
    same_as_linux(lucid, "links", "{dir}")
    # Links and loops made and removed in a directory of the shell's leave it as it was.
    out = lucid.run("mkdir /tmp/sh; echo hi > /tmp/sh/f; links /tmp/sh > /dev/null; ls /tmp/sh; "
                    "cat /tmp/sh/f")
    assert out == "f\nhi\n", out


def test_poll_select_on_pipes_and_files(lucid):
    # poll, ppoll, select and pselect6 on pipes, /dev/null and a file: readiness, hang-up,
    # timeouts, a writer that comes later, and the errors (EBADF, EINVAL, EFAULT).
    same_as_linux(lucid, "pollfds", "{dir}")


def test_shebang_scripts_as_on_linux(lucid):
    # The kernel runs `#!` scripts as Linux's binfmt_script: the interpreter and one argument,
    # CRLF, lines past 256 bytes, five scripts deep and no more, ENOENT, ENOEXEC, EACCES, an
    # empty argv (tests/user/shebang.c). The interpreter is shebang itself, through a link.
    same_as_linux(lucid, "shebang", "{dir}")


def test_exec_argument_limits_as_on_linux(lucid):
    # argv and envp: a quarter of RLIMIT_STACK (1 MiB of 1 KiB strings runs), 128 KiB a string,
    # E2BIG past either, EFAULT for a bad vector, and the limit following setrlimit
    # (tests/user/argmax.c).
    same_as_linux(lucid, "argmax")


def test_rlimit_nofile_as_on_linux(lucid):
    # 1024 descriptors (Linux's RLIMIT_NOFILE), EMFILE past them, dup2/F_DUPFD/poll/select at
    # the limit, prlimit64 lowering it across fork and exec, setrlimit's errors, getrlimit and
    # setrlimit as calls of their own (tests/user/fdlimit.c).
    same_as_linux(lucid, "fdlimit")
    # bash's ulimit reads and sets the same limits; Lucid's defaults are Linux's for init.
    lucid.run("bash -c true")  # bash's start-up asks for socket and getpgrp: logged once
    out = lucid.run("bash -c 'ulimit -n; ulimit -Hn; ulimit -s; ulimit -n 200; ulimit -n; "
                    "ulimit -Sn 5000; echo $?'")
    assert out == ("1024\n4096\n8192\n200\n"
                   "bash: line 1: ulimit: open files: cannot modify limit: Invalid argument\n"
                   "1\n"), out


def test_pipe_size_as_on_linux(lucid):
    # 64 KiB pipes, F_GETPIPE_SZ and F_SETPIPE_SZ (rounding, EBUSY, EBADF), a write topping up
    # the last page or waiting whole for a free one (PIPE_BUF), and a child's 32 KiB taken
    # before its reader reads, as trace-cmd's recorders flush at their end; tests/user/pipesize.c.
    same_as_linux(lucid, "pipesize", "{dir}")


def test_sessions_and_process_groups(lucid):
    # setsid, getsid, setpgid, getpgid, getpgrp: Linux's rules (EPERM for a group or session
    # leader and across sessions, ESRCH, EINVAL), and /dev/tty without a controlling tty.
    same_as_linux(lucid, "sessions")


def test_itimers_and_cpu_time(lucid):
    # setitimer/getitimer (ITIMER_REAL, VIRTUAL, PROF) and their errors;
    # musl's alarm() (a setitimer) interrupting a read with EINTR, or restarting it with
    # SA_RESTART; getrusage, times and wait4's rusage counting a spin's user time. The program
    # prints invariants (tests/user/cputime.c), never timings, so the two runs compare.
    same_as_linux(lucid, "cputime")


def test_proc_self_fd_links(lucid):
    # /proc/self/fd's links (text, mode, size), opening one (a pipe opened
    # again as a reader, a writer or both; a removed file), fdinfo's pos and flags, and the
    # errors for names that are no open descriptor: tests/user/procfd.c against the host's Linux.
    same_as_linux(lucid, "procfd", "{dir}")

"""Dynamic ELF programs (issue 19 items 1 and 5): Debian's ld-linux-x86-64.so.2 and libraries.

The initramfs carries tests/dyn's programs built by the host's plain gcc (/opt/dyn), Debian's
/usr/bin/trace-cmd, the loader and exactly the libraries ldd lists (the Makefile's dynamic
section). Each program's output and status are compared with the same file run on the host;
the bad inputs with Linux's errors and ld.so's messages; trace-cmd list with Lucid's tracefs.
"""
import os
import re
import subprocess

from lucid import BUILD
from test_syscalls import same_as_linux

DYN = os.path.join(BUILD, "dyn")
T = "/sys/kernel/tracing"
BOOT = {"timeout": 120}


def on_host(prog, *args, env=None):
    p = subprocess.run([os.path.join(DYN, prog)] + list(args), capture_output=True, text=True,
                       timeout=60, env=env or {"PATH": "/usr/bin:/bin"})
    return p.stdout, p.returncode


# The kernel's log lines on the console (bash's first socket call is ENOSYS, and dmesg says so).
PRINTK_LINE = re.compile(r"^\[ *\d+\.\d+\] .*\n", re.M)


def check(lucid, line, want, status, timeout=60):
    out = PRINTK_LINE.sub("", lucid.run(line, timeout))
    assert out == want, "%r printed %r, not %r" % (line, out[-3000:], want)
    assert lucid.status() == status, (line, status)


def test_hello_pie_and_not_pie_as_on_the_host(lucid):
    for prog in ("hello", "hello-nopie"):
        want, status = on_host(prog, "zeta", "alpha", "mid")
        assert status == 7 and "constructor ran" in want, want
        check(lucid, "/opt/dyn/%s zeta alpha mid" % prog, want, status)
    # The ELF types they were built as: a PIE is ET_DYN, -no-pie ET_EXEC.
    assert open(os.path.join(DYN, "hello"), "rb").read(18)[16] == 3
    assert open(os.path.join(DYN, "hello-nopie"), "rb").read(18)[16] == 2
    # Through bash too (execve from a program), with an environment variable for getenv.
    want, status = on_host("hello", "x", env={"DYN_VAR": "set here"})
    check(lucid, "bash -c 'DYN_VAR=\"set here\" /opt/dyn/hello x'", want, status)


def test_library_of_our_own_and_the_loader_run_directly(lucid):
    # libdyn.so from /opt/dyn/lib (the program's rpath): its data, bss and a relocated call.
    check(lucid, "/opt/dyn/usedyn", "dyn_add(2) = 43\n", 0)
    # ld.so run as a program (an ET_DYN without PT_INTERP) maps the program itself with mmap.
    want, status = on_host("hello", "direct")
    check(lucid, "/lib64/ld-linux-x86-64.so.2 /opt/dyn/hello direct", want, status)


def test_mmap_of_a_file_as_on_linux(lucid):
    # MAP_PRIVATE at offsets, past the end (zeroes, then SIGBUS), MAP_FIXED, PROT_*, mprotect
    # and munmap of parts, fork, and the errors: user/mmapfile.c on Linux and in Lucid.
    same_as_linux(lucid, "mmapfile", "{dir}")


def test_bad_programs_and_libraries(lucid):
    # Not ELF: ENOEXEC, bash's message.
    check(lucid, "/opt/dyn/notelf",
          "sh: /opt/dyn/notelf: cannot execute binary file: Exec format error\n", 126)
    # The interpreter missing: ENOENT; not ELF: ELIBBAD (Linux's load_elf_binary).
    check(lucid, "/opt/dyn/nointerp", "sh: /opt/dyn/nointerp: No such file or directory\n", 127)
    check(lucid, "/opt/dyn/badinterp",
          "sh: /opt/dyn/badinterp: Accessing a corrupted shared library\n", 126)
    out = lucid.run("bash -c '/opt/dyn/nointerp; echo $?; /opt/dyn/badinterp; echo $?'")
    assert out.endswith("bash: line 1: /opt/dyn/nointerp: cannot execute: required file not found\n"
                        "127\nbash: line 1: /opt/dyn/badinterp: Accessing a corrupted shared "
                        "library\n126\n"), out
    # A library missing, or cut inside its header: ld.so's own message and status 127.
    check(lucid, "/opt/dyn/needmissing",
          "/opt/dyn/needmissing: error while loading shared libraries: libdynmissing.so: cannot "
          "open shared object file: No such file or directory\n", 127)
    check(lucid, "/opt/dyn/needshort",
          "/opt/dyn/needshort: error while loading shared libraries: /opt/dyn/lib/libdynshort.so: "
          "file too short\n", 127)
    # Cut after its first page: ld.so maps it and touches its data past the file's end: SIGBUS,
    # as on Linux.
    out = lucid.run("bash -c '/opt/dyn/needcut; echo $?'")
    assert out.endswith("Bus error               /opt/dyn/needcut\n135\n"), out
    # Nothing was left behind: the shell and a dynamic program still run.
    want, status = on_host("hello")
    check(lucid, "/opt/dyn/hello", want, status)


def tracefs(lucid, name):
    out = lucid.run("cat %s/%s" % (T, name), 60)
    assert lucid.status() == 0, out
    return out


def test_trace_cmd_list(lucid):
    # Debian's trace-cmd, unmodified: each list is what Lucid's tracefs files say.
    out = lucid.run("trace-cmd list -t", 60)
    assert lucid.status() == 0, out
    assert out == tracefs(lucid, "available_tracers"), out
    out = lucid.run("trace-cmd list -e", 60)
    assert lucid.status() == 0, out[-2000:]
    assert out == tracefs(lucid, "available_events"), out[-2000:]
    assert "sched:sched_switch\n" in out
    # list -o reads options/ (every option, the tracers' own too, as trace_options shows only
    # with their tracer current): NAME for a file holding 1, noNAME for 0.
    out = lucid.run("trace-cmd list -o", 60)
    assert lucid.status() == 0, out
    want = PRINTK_LINE.sub("", lucid.run(
        "bash -c 'cd %s/options && for f in *; do [ $(cat $f) = 1 ] || echo -n no; echo $f; "
        "done'" % T, 60))
    assert sorted(out.splitlines()) == sorted(want.splitlines()), (out, want)
    assert "print-parent\n" in out and "nofuncgraph-proc\n" in out, out
    out = lucid.run("trace-cmd list -f", 120)
    assert lucid.status() == 0, out[-2000:]
    assert out == tracefs(lucid, "available_filter_functions"), out[-2000:]
    # An event glob, as trace-cmd matches it (a regex over system:event).
    out = lucid.run("trace-cmd list -e sched_switch", 60)
    assert out == "sched:sched_switch\n", out

"""The vDSO (docs/design/vdso.md): every program gets [vvar] and [vdso] and AT_SYSINFO_EHDR, the
image exports Linux's LINUX_2.6 symbols, and its clocks agree with the system calls, read in
turn (tests/user/vdso.c, compared line for line with the host's Linux, built with musl, and with
glibc static and dynamic). musl and glibc use it: a trace of raw_syscalls shows no
clock_gettime, gettimeofday or time system call from a program calling them in a loop.
"""
import re

from test_syscalls import same_as_linux
from tracefs import T, ok, reset_tracing

GLIBC_BUILDS = ["/opt/dyn/vdso-glibc", "/opt/dyn/vdso-glibc-dyn"]  # static, dynamic
# Linux 6.1's lines (its vdso-layout.lds.S: four [vvar] pages just below the image).
MAPS_LINE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) 00000000 00:00 0 +(\[vvar\]|\[vdso\])$",
                       re.M)
VVAR_BYTES = 4 * 4096
PAGE = 4096
SYS_TIME, SYS_GETTIMEOFDAY, SYS_CLOCK_GETTIME = 201, 96, 228  # x86_64
LOOPS = 1000
CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID = 1, 2


def test_vdso_answers_as_the_system_calls(lucid):
    # Symbols, clocks interleaved with the system call, fallbacks, getres, getcpu on every
    # CPU (the default boot has 4), write protection, fork and exec: as on the host.
    same_as_linux(lucid, "vdso")
    want = lucid.run("vdso")
    for prog in GLIBC_BUILDS:  # glibc finds the same things (its own link map for the dynamic one)
        assert lucid.run(prog, timeout=60) == want, prog
        assert lucid.status() == 0


def test_maps_show_vvar_then_vdso_as_linux(lucid):
    """Linux 6.1's two lines: [vvar], four read-only pages, just below [vdso], the image, read
    and execute, both at offset 0 with no device or inode (the host's newer Linux has a third
    area between them, [vvar_vclock], so this is checked here rather than against the host)."""
    out = lucid.run("cat /proc/self/maps")
    areas = MAPS_LINE.findall(out)
    assert [a[3] for a in areas] == ["[vvar]", "[vdso]"], out
    (vs, ve, vperm, _), (ds, de, dperm, _) = areas
    assert vperm == "r--p" and dperm == "r-xp", out
    assert int(ve, 16) - int(vs, 16) == VVAR_BYTES and ve == ds, out
    assert (int(de, 16) - int(ds, 16)) % PAGE == 0, out
    line = [l for l in out.splitlines() if l.endswith("[vdso]")][0]
    assert line.index("[vdso]") == 73, line  # Linux's columns: the name starts at the 74th
    # One pair per process, after exec too (the old program's went with its mm).
    out = lucid.run("vdso exec; grep -c vdso /proc/self/maps")
    assert out == "exec: the new program has a vDSO: yes, in [vdso]\n1\n", out
    # mprotect can make it writable, as Linux 6.1 lets it be (a debugger's breakpoints), but
    # the write is the writer's alone: everyone maps the same pages, shared copy-on-write.
    out = lucid.run("vdso cow; vdso | grep -c LINUX_2.6")
    assert out == ("mprotect([vdso], rwx) and a write in a child: done; the parent's is "
                   "unchanged: yes\na read of [vvar]'s second page: Bus error\n10\n"), out


def test_libc_clock_calls_make_no_system_call(lucid):
    """raw_syscalls:sys_enter with a filter on the three calls' numbers: a loop of 1,000
    clock_gettime(CLOCK_MONOTONIC), gettimeofday and time makes none of them, with musl, static
    glibc and dynamic glibc. The same loop on CLOCK_PROCESS_CPUTIME_ID, a clock the vDSO hands
    to the system call as Linux's does, shows exactly its 1,000 (so the trace would see them)."""
    reset_tracing(lucid)
    ok(lucid, "cd %s; echo 'id == %d || id == %d || id == %d' > events/raw_syscalls/sys_enter/"
              "filter; echo 1 > events/raw_syscalls/sys_enter/enable" %
       (T, SYS_TIME, SYS_GETTIMEOFDAY, SYS_CLOCK_GETTIME))
    try:
        for prog in ["vdso"] + GLIBC_BUILDS:
            ok(lucid, "echo > trace")
            out = lucid.run("%s loop %d %d" % (prog, LOOPS, CLOCK_MONOTONIC), timeout=120)
            assert out.startswith("loop: %d calls each, done" % LOOPS), out
            trace = lucid.run("grep -c 'sys_enter: NR' trace; grep 'sys_enter: NR' trace | "
                              "grep -c vdso", timeout=60)
            assert trace.split() == ["0", "0"], (prog, trace)
            ok(lucid, "echo > trace")
            out = lucid.run("%s loop %d %d" % (prog, LOOPS, CLOCK_PROCESS_CPUTIME_ID),
                            timeout=120)
            assert out.startswith("loop: %d calls each" % LOOPS), out
            n = lucid.run("grep -c 'sys_enter: NR %d ' trace" % SYS_CLOCK_GETTIME, timeout=60)
            assert int(n) == LOOPS, (prog, n)
    finally:
        reset_tracing(lucid)

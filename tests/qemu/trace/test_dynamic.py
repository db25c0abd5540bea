"""Dynamic ELF programs: Debian's ld-linux-x86-64.so.2 and libraries.

The initramfs carries tests/dyn's programs built by the host's plain gcc (/opt/dyn), Debian's
/usr/bin/trace-cmd, the loader and exactly the libraries ldd lists (the Makefile's dynamic
section). Each program's output and status are compared with the same file run on the host;
the bad inputs with Linux's errors and ld.so's messages; trace-cmd list with Lucid's tracefs;
a trace.dat trace-cmd records in Lucid is read by trace-cmd report in Lucid and on the host
(copied out through the share).
"""
import difflib
import os
import re
import shutil
import subprocess
import tempfile
import time

from lucid import BUILD, until_tasks
from test_syscalls import same_as_linux

DYN = os.path.join(BUILD, "dyn")
T = "/sys/kernel/tracing"
SHARE = tempfile.mkdtemp(prefix="lucid-dyn-")
BOOT = {"timeout": 120, "share": SHARE}


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


def file_areas(text):
    """The maps lines of the program, libc and ld.so: (permissions, offset, the file's name).
    Addresses differ (Linux randomises them) and so do directories (Debian's /usr merge)."""
    want = ("hello", "hello-nopie", "libc.so.6", "ld-linux-x86-64.so.2")
    areas = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 6 and os.path.basename(f[5]) in want:
            areas.append((f[1], f[2], os.path.basename(f[5])))
    return areas


def test_maps_names_each_file_area_as_on_linux(lucid):
    # ld.so is mapped by the kernel (exec), libc by ld.so (mmap, MAP_FIXED, mprotect cuts the
    # RELRO page): every area names its file, with the file offset, line for line as on Linux.
    for prog in ("hello", "hello-nopie"):
        want, _ = on_host(prog, env={"PATH": "/usr/bin:/bin", "DYN_MAPS": "1"})
        mine = PRINTK_LINE.sub("", lucid.run("bash -c 'DYN_MAPS=1 /opt/dyn/%s'" % prog, 60))
        assert file_areas(mine) == file_areas(want), (mine, want)
        assert len(file_areas(want)) >= 14, want  # 5 of the program, 5 of libc, 5 of ld.so


def test_every_page_comes_back(lucid):
    # ld.so's file mappings are private copies: each goes back at munmap or exit.
    def free_kb():
        return int(re.search(r"MemFree: +(\d+) kB", lucid.run("cat /proc/meminfo")).group(1))
    check(lucid, "/opt/dyn/usedyn > /dev/null", "", 0)  # the first run's lasting allocations
    before = free_kb()
    for _ in range(5):
        check(lucid, "/opt/dyn/usedyn | /opt/dyn/hello-nopie > /dev/null", "", 7)
    after = free_kb()
    assert abs(after - before) <= 64, (before, after)


def test_library_of_our_own_and_the_loader_run_directly(lucid):
    # libdyn.so from /opt/dyn/lib (the program's rpath): its data, bss and a relocated call.
    check(lucid, "/opt/dyn/usedyn", "dyn_add(2) = 43\n", 0)
    # ld.so run as a program (an ET_DYN without PT_INTERP) maps the program itself with mmap.
    want, status = on_host("hello", "direct")
    check(lucid, "/lib64/ld-linux-x86-64.so.2 /opt/dyn/hello direct", want, status)


def test_program_and_library_from_the_host_share(lucid):
    # Over virtio-9p: the program exec reads, and a library ld.so maps from there (a 9p read
    # may sleep: the copy is made before mmap takes the address space's lock).
    os.makedirs(os.path.join(SHARE, "lib"), exist_ok=True)
    shutil.copy(os.path.join(DYN, "hello"), SHARE)
    shutil.copy(os.path.join(DYN, "libdynmissing.so"), os.path.join(SHARE, "lib"))
    want, status = on_host("hello", "shared")
    check(lucid, "/mnt/host/hello shared", want, status)
    check(lucid, "/lib64/ld-linux-x86-64.so.2 --library-path /mnt/host/lib /opt/dyn/needmissing",
          "dyn_add(2) = 43\n", 0)


def test_mmap_of_a_file_as_on_linux(lucid):
    # MAP_PRIVATE at offsets, past the end (zeroes, then SIGBUS), MAP_FIXED, PROT_*, mprotect
    # and munmap of parts, fork, and the errors: tests/user/mmapfile.c on Linux and in Lucid.
    same_as_linux(lucid, "mmapfile", "{dir}")


def test_splice_as_on_linux(lucid):
    # trace-cmd's recorders: a file into a pipe and the pipe into a file; tests/user/splice.c.
    same_as_linux(lucid, "splice", "{dir}")


def test_ftrace_enabled_sysctl(lucid):
    # Off, the function tracer's sites are NOPs (no events), its filter kept; on, they trace.
    lucid.run("cd %s; echo vfs_write > set_ftrace_filter; echo function > current_tracer" % T)
    try:
        check(lucid, "cat /proc/sys/kernel/ftrace_enabled", "1\n", 0)
        check(lucid, "echo 0 > /proc/sys/kernel/ftrace_enabled; echo > trace; cat /bin/args "
              "> /dev/null; grep -c vfs_write trace; cat set_ftrace_filter", "0\nvfs_write\n", 0)
        check(lucid, "cat enabled_functions", "", 0)
        check(lucid, "echo 1 > /proc/sys/kernel/ftrace_enabled; cat /bin/args > /dev/null; "
              "grep -c 'vfs_write <-' trace > /dev/null; echo $?", "0\n", 0)
        check(lucid, "echo x > /proc/sys/kernel/ftrace_enabled",
              "-bash: echo: write error: Invalid argument\n", 1)
        # An int, as Linux's proc_dointvec: -1 is taken, and is not zero: still on.
        check(lucid, "echo -1 > /proc/sys/kernel/ftrace_enabled; cat /proc/sys/kernel/"
              "ftrace_enabled; echo > trace; cat /bin/args > /dev/null; grep -c 'vfs_write <-' "
              "trace > /dev/null; echo $?", "-1\n0\n", 0)
    finally:
        lucid.run("echo 1 > /proc/sys/kernel/ftrace_enabled; echo nop > current_tracer; "
                  "echo > set_ftrace_filter; echo > trace; cd /")


def test_bad_programs_and_libraries(lucid):
    # Not ELF: ENOEXEC, bash's message.
    check(lucid, "/opt/dyn/notelf",
          "-bash: /opt/dyn/notelf: cannot execute binary file: Exec format error\n", 126)
    # The interpreter missing: ENOENT (the shell says it in bash's words); not ELF: ELIBBAD
    # (Linux's load_elf_binary).
    check(lucid, "/opt/dyn/nointerp",
          "-bash: /opt/dyn/nointerp: cannot execute: required file not found\n", 127)
    check(lucid, "/opt/dyn/badinterp",
          "-bash: /opt/dyn/badinterp: Accessing a corrupted shared library\n", 126)
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


def test_trace_cmd_record_and_report(lucid):
    # trace-cmd record in Lucid: the function tracer on vfs_write while the dynamic hello runs.
    out = PRINTK_LINE.sub("", lucid.run(
        "cd /tmp; trace-cmd record -p function -l vfs_write recwait /opt/dyn/hello", 180))
    assert lucid.status() == 0, out
    assert out.startswith("  plugin 'function'\nhello, dynamic world"), out
    assert re.search(r"CPU0 data recorded at offset=0x[0-9a-f]+\n", out), out
    # It leaves tracing as it found it: no tracer, no filter, tracing on.
    check(lucid, "cat %s/current_tracer %s/set_ftrace_filter %s/tracing_on" % (T, T, T),
          "nop\n#### all functions enabled ####\n1\n", 0)
    # trace-cmd report in Lucid reads it: the program's write and the recorders' own.
    report = PRINTK_LINE.sub("", lucid.run("trace-cmd report", 120))
    assert lucid.status() == 0, report
    assert report.startswith("cpus=4\n"), report
    assert re.search(r"^ +hello-\d+ +\[00\d\] +\d+\.\d{6}: function: +vfs_write <-- "
                     r"ksys_write$", report, re.M), report
    for line in report.splitlines()[1:]:
        assert re.search(r"function: +vfs_write <-- ", line), line
    # The host's trace-cmd reads the same file (copied out through the share) alike.
    check(lucid, "cp /tmp/trace.dat /mnt/host/trace.dat; rm /tmp/trace.dat", "", 0)
    host, squeezed = host_report(os.path.join(SHARE, "trace.dat"))
    assert_same_report(host, report, squeezed)


PLUGINS = "/usr/lib/x86_64-linux-gnu/traceevent/plugins"


def assert_same_report(host, report, squeezed):
    """Lucid's report equal to the host's (blanks squeezed if the host's were): the lines that
    differ first in the message, since a long one is cut short in CI's log."""
    mine = re.sub(" +", " ", report) if squeezed else report
    diff = difflib.unified_diff(host.splitlines(), mine.splitlines(), "host", "lucid",
                                lineterm="")
    assert host == mine, "\n".join(list(diff)[:40])


def host_report(dat, *args):
    """The host's `trace-cmd report` of dat, as Lucid's prints it: without libtraceevent's event
    plugins, which it loads by dlopen (ldd does not list them, so the initramfs has none). As
    root, the plugin folder is hidden in a mount namespace of its own: the same binary then
    finds none, exactly as in Lucid. Else -N (no plugins), which pads the event names one
    column wider: compared with runs of blanks made one (the second value says so)."""
    assert shutil.which("trace-cmd"), "trace-cmd is needed (tools/deps.sh installs it)"
    if os.geteuid() == 0 and shutil.which("unshare") and os.path.isdir(PLUGINS):
        cmd = ["unshare", "-m", "sh", "-c",
               "mount -t tmpfs none %s && exec trace-cmd report %s -i '%s'"
               % (PLUGINS, " ".join(args), dat)]
        squeeze = False
    else:
        cmd, squeeze = ["trace-cmd", "report", "-N"] + list(args) + ["-i", dat], True
    host = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert host.returncode == 0, host.stderr
    return (re.sub(" +", " ", host.stdout) if squeeze else host.stdout), squeeze


def test_trace_cmd_record_function_graph_buffer_clock(lucid):
    # function_graph on vfs_write, the command's pid only (-F: set_ftrace_pid, so not the
    # recorders' own splices), a per-CPU buffer size (-b) and a clock (-C): the host's trace-cmd
    # report reads the file as Lucid's does.
    out = PRINTK_LINE.sub("", lucid.run("cd /tmp; trace-cmd record -p function_graph "
                                        "-g vfs_write -F -b 512 -C global "
                                        "recwait /opt/dyn/hello", 180))
    assert lucid.status() == 0, out
    assert out.startswith("  plugin 'function_graph'\nhello, dynamic world"), out
    check(lucid, "cat %s/buffer_size_kb" % T, "512\n", 0)
    report = PRINTK_LINE.sub("", lucid.run("trace-cmd report", 120))
    assert lucid.status() == 0, report
    assert re.search(r"^ +hello-\d+ +\[00\d\] +\d+\.\d{6}: funcgraph_entry: +\| +vfs_write\(\) \{$",
                     report, re.M), report[:3000]
    for line in report.splitlines()[1:]:
        assert re.match(r" +hello-\d+ ", line), line  # -F: the command's own, nobody else's
    check(lucid, "cp /tmp/trace.dat /mnt/host/graph.dat; rm /tmp/trace.dat; trace-cmd reset; cd /",
          "", 0)
    host, squeezed = host_report(os.path.join(SHARE, "graph.dat"))
    assert_same_report(host, report, squeezed)
    check(lucid, "cat %s/current_tracer" % T, "nop\n", 0)
    check(lucid, "echo 1408 > %s/buffer_size_kb" % T, "", 0)  # the size other tests expect


NR_CPUS = 4  # the kernels' vCPUs (tools/qemu-cmd's -smp): trace-cmd's recorders


def recorders_reading(tasks):
    """A ready() for lucid.until_tasks: trace-cmd has a recorder per CPU and each, like trace-cmd
    itself, sleeps (a recorder setting itself up never sleeps interruptibly: user/recwait.c)."""
    main = [t for t in tasks if t.comm == "trace-cmd" and t.state == "S"]
    recorders = [t for t in tasks if t.comm == "trace-cmd" and t.ppid in {m.pid for m in main}]
    return len(recorders) == NR_CPUS and all(t.state == "S" for t in recorders)


def test_trace_cmd_record_until_ctrl_c(lucid):
    # No command: trace-cmd records until Ctrl-C (SIGINT to it, and SIGUSR1 from it to its
    # recorders), then writes trace.dat; a second Ctrl-C while it finishes changes nothing. Each
    # time tracing is left as trace-cmd found it, and the next record works.
    for ctrl_c in (1, 2):
        lucid.run("cd /tmp; rm -f trace.dat")
        with lucid.showing_tasks():  # sysrq t's task list: until_tasks
            lucid.send_line("trace-cmd record -p function -l vfs_write")
            lucid.expect("Hit Ctrl\\^C to stop recording", timeout=120)
            # Every recorder reading (user/recwait.c says why one must be): asleep in its loop
            until_tasks(lucid.p.send, lucid.expect, recorders_reading, "recorders reading")
            # The second soon after the first, while trace-cmd finishes: later, it could come
            # after trace-cmd is done, and be bash's (a fresh prompt, and $? 130).
            for _ in range(ctrl_c):
                lucid.p.send("\x03")
                time.sleep(0.05)
            out = PRINTK_LINE.sub("", lucid.expect_prompt(120))
        assert re.search(r"CPU3 data recorded at offset=0x[0-9a-f]+\n", out), out
        assert lucid.status() == 0, out
        check(lucid, "cat %s/current_tracer %s/tracing_on" % (T, T), "nop\n1\n", 0)
        report = PRINTK_LINE.sub("", lucid.run("trace-cmd report", 120))
        assert report.startswith("cpus=4\n") and "function:" in report, report[:2000]
    out = PRINTK_LINE.sub("", lucid.run("trace-cmd record -p function -l vfs_write "
                                        "/opt/dyn/hello; rm /tmp/trace.dat; cd /", 180))
    assert "hello, dynamic world" in out, out

"""Files: ramfs, the commands on files, /proc, mounts, big files, memory use."""
import itertools
import os
import re
import shutil
import subprocess
import tempfile

from lucid import Lucid

ENOMEM = "Cannot allocate memory"

# busybox ls -l: mode, links, owner, group, size (or "major, minor"), date, name [-> target].
LS_L_LINE = re.compile(r"(\S+) +\d+ +\S+ +\S+ +(\d+|\d+, +\d+) +[A-Z][a-z]{2} +\d+ +"
                       r"(?:\d\d:\d\d|\d{4}) (.*)")


def ls_l(out):
    """busybox ls -l's lines as "MODE SIZE NAME": what the tests look at, without the owner and
    the date (which is today's); a directory's "total" line and headers kept as they are."""
    lines = []
    for line in out.splitlines():
        m = LS_L_LINE.fullmatch(line)
        lines.append("%s %s %s" % (m.group(1), re.sub(r",\s+", ",", m.group(2)), m.group(3))
                     if m else line)
    return "".join(l + "\n" for l in lines if not l.startswith("total "))


def check_ls_l(lucid, line, want):
    out = lucid.run(line)
    assert ls_l(out) == want, "%r printed %r, not %r" % (line, out, want)


def busybox_path():
    """A directory of links to the host's busybox, one per applet (Lucid's /bin has the same
    busybox, Debian's): put first in PATH, the host runs a line with the programs Lucid runs."""
    d = tempfile.mkdtemp(prefix="lucid-busybox-")
    os.chmod(d, 0o755)
    applets = subprocess.run(["busybox", "--list"], capture_output=True, text=True,
                             check=True).stdout.split()
    for name in applets:
        if name not in ("sh", "ash", "bash"):
            os.symlink("/bin/busybox", os.path.join(d, name))
    return d


def on_host_busybox(line, cwd, user=False):
    """What bash, with busybox's applets, prints for line in cwd on the host, with its status:
    Lucid's interactive bash says "-bash: " where bash -c says "bash: line 1: "."""
    bb = busybox_path()
    try:
        setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] \
            if user and os.geteuid() == 0 else []
        p = subprocess.run(setpriv + ["/bin/bash", "-c", "{ %s; } 2>&1; echo $?" % line], cwd=cwd,
                           capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
                           env={"PATH": bb + ":/usr/bin:/bin", "LC_ALL": "C", "HOME": "/root"})
        return p.stdout.replace("/bin/bash: line 1: ", "-bash: ")
    finally:
        shutil.rmtree(bb)


def check(lucid, line, want, timeout=30):
    out = lucid.run(line, timeout)
    ok = want.fullmatch(out) if isinstance(want, re.Pattern) else out == want
    assert ok, "%r printed %r, not %r" % (line[:60], out[-500:], want)


def usage(applet):
    """busybox's answer to a command line it refuses: its banner and the applet's usage."""
    return re.compile(r"BusyBox v[^\n]*multi-call binary\.\n\nUsage: %s .*" % applet, re.S)


def check_all(lucid, cases):
    """Each (line, what it prints (or a pattern it matches), its exit status)."""
    for line, out, status in cases:
        check(lucid, line, out)
        assert lucid.status() == status, line


def test_boot_tree(lucid):
    check(lucid, "pwd", "/root\n")
    check(lucid, "ls -1 /", "bin\ndev\netc\nlib\nlib64\nopt\nproc\nroot\nsbin\nsys\ntmp\nusr\n")
    # busybox's ls -l shows the links as links, as Linux's /dev has them: /dev/fd is
    # /proc/self/fd (the reader's own descriptors), /dev/stdin its descriptor 0.
    check_ls_l(lucid, "ls -l /dev",
               "crw------- 0,0 console\nlrwxrwxrwx 13 fd -> /proc/self/fd\ncrw-rw-rw- 0,0 full\n"
               "crw-rw-rw- 0,0 null\ncrw-rw-rw- 0,0 random\n"
               "lrwxrwxrwx 15 stderr -> /proc/self/fd/2\nlrwxrwxrwx 15 stdin -> /proc/self/fd/0\n"
               "lrwxrwxrwx 15 stdout -> /proc/self/fd/1\n"
               "crw-rw-rw- 0,0 tty\ncrw-rw-rw- 0,0 urandom\ncrw-rw-rw- 0,0 zero\n")
    # A directory per live task first (init, snapshotd, bash, ls itself), then /proc's files.
    bash = lucid.run("echo $$").strip()
    procs = lucid.run("ls -1 /proc")
    m = re.fullmatch(r"((?:\d+\n)+)bus\ncpuinfo\ninterrupts\nkallsyms\nloadavg\nmeminfo\nmodules\n"
                     r"mounts\nself\nslabinfo\nstat\nsys\nsysrq-trigger\nuptime\n", procs)
    assert m and len(m.group(1).split()) == 4 and m.group(1).startswith("1\n2\n"), procs
    assert bash in m.group(1).split(), (bash, procs)
    check(lucid, "ls -1 /proc/sys", "kernel\n")
    # kernel/debug/'s files (/bin/ftest runs through one), lkdtm's directory, and tracefs
    check(lucid, "ls -1 /sys/kernel/debug",
          "bench\ncallsite\nftest\nkprobe_stress\nkprobes\nprovoke-crash\nrbstat\nrun_test\n"
          "tracing\nuprobe_signal\n")
    listing = lucid.run("ls /sys/kernel/debug/tracing").split()
    for name in ["available_tracers", "current_tracer", "trace", "trace_pipe", "tracing_on"]:
        assert name in listing, listing
    assert lucid.status() == 0
    check(lucid, "mount", "ramfs on / type ramfs (rw)\n"
                          "sysfs on /sys type sysfs (rw)\n"
                          "debugfs on /sys/kernel/debug type debugfs (rw)\n"
                          "tracefs on /sys/kernel/tracing type tracefs (rw)\n"
                          "proc on /proc type proc (rw)\n")


def test_create_append_truncate_read(lucid):
    lucid.run("mkdir /tmp/t; cd /tmp/t")
    check(lucid, "echo hello > f; echo world >> f; cat f", "hello\nworld\n")
    check_ls_l(lucid, "ls -l", "-rw-r--r-- 12 f\n")
    check(lucid, "echo new > f; cat f; wc -c f", "new\n4 f\n")
    check(lucid, "> f; wc -c < f", "0\n")
    check(lucid, "touch g; ls -1; wc -c g", "f\ng\n0 g\n")
    check(lucid, "echo x > g; touch g; wc -c g", "2 g\n")  # touch does not truncate
    check_ls_l(lucid, "mkdir d; ls -l", "drwxr-xr-x 0 d\n-rw-r--r-- 0 f\n-rw-r--r-- 2 g\n")
    lucid.run("cd; rm /tmp/t/f /tmp/t/g; rmdir /tmp/t/d /tmp/t")
    check(lucid, "ls /tmp", "")


def test_errors_and_statuses(lucid):
    # busybox's words and statuses (the same programs on Linux print the same: Debian's).
    cases = [
        ("cat nosuch", "cat: can't open 'nosuch': No such file or directory\n", 1),
        ("cat /tmp", "cat: read error: Is a directory\n", 1),
        ("cd nosuch", "-bash: cd: nosuch: No such file or directory\n", 1),
        ("cd /proc/uptime", "-bash: cd: /proc/uptime: Not a directory\n", 1),
        ("ls nosuch", "ls: nosuch: No such file or directory\n", 1),
        ("mkdir /tmp", "mkdir: can't create directory '/tmp': File exists\n", 1),
        ("mkdir /a/b", "mkdir: can't create directory '/a/b': No such file or directory\n", 1),
        ("mkdir /proc/x", "mkdir: can't create directory '/proc/x': Operation not permitted\n", 1),
        ("rmdir /nosuch", "rmdir: '/nosuch': No such file or directory\n", 1),
        ("rmdir /sys", "rmdir: '/sys': Device or resource busy\n", 1),  # sysfs is mounted there
        ("rm /nosuch", "rm: can't remove '/nosuch': No such file or directory\n", 1),
        ("rm /tmp", "rm: '/tmp' is a directory\n", 1),
        ("rm -f /nosuch", "", 0),
        ("touch /nosuch/x", "touch: /nosuch/x: No such file or directory\n", 1),
        ("head -n x /proc/uptime", "head: invalid number 'x'\n", 1),
        ("grep", usage("grep"), 2),
        ("grep x nosuch", "grep: nosuch: No such file or directory\n", 2),
        ("wc -z", re.compile(r"wc: invalid option -- 'z'\n" + usage("wc").pattern, re.S), 1),
        ("mount -t nofs nodev /tmp", "mount: mounting nodev on /tmp failed: No such device\n",
         255),
        ("mount -t ramfs nodev /nosuch",
         "mount: mounting nodev on /nosuch failed: No such file or directory\n", 255),
        ("umount /tmp", "umount: can't unmount /tmp: Invalid argument\n", 1),
        ("umount /", "umount: can't unmount /: Device or resource busy\n", 1),
        ("echo x > /proc/new", "-bash: /proc/new: Permission denied\n", 1),
    ]
    check_all(lucid, cases)


def test_double_dash_and_bad_options(lucid):
    """"--" ends the options and "-x" is refused in every command, as busybox and bash do on
    Linux: each line prints what it prints on the host (busybox's applets, bash), status too.
    The file "-f" is read as a file, never taken for an option."""
    lines = ["cat -- -f", "cat -z", "cksum -- -f", "cksum -y",
             "touch -- -g; ls -- -g", "touch --", "touch -z", "mkdir -- -d; rmdir -- -d",
             "rmdir --", "rmdir -z", "umount -- .", "umount -z", "cd -- /proc; pwd", "cd -z"]
    d = tempfile.mkdtemp()
    try:
        with open(os.path.join(d, "-f"), "w") as f:
            f.write("x\n")
        lucid.run("mkdir /tmp/dd; cd /tmp/dd; echo x > -f")
        for line in lines:
            want = on_host_busybox("cd %s; %s" % (d, line), d)
            check(lucid, "cd /tmp/dd; %s; echo $?" % line, want)
        assert lucid.run("cd /tmp/dd; cat -- -f") == "x\n"
        assert lucid.run("cksum -- -f") == "%d 2 -f\n" % cksum(b"x\n")
    finally:
        shutil.rmtree(d)
        lucid.run("cd /tmp/dd; rm -- -f -g; cd; rmdir /tmp/dd")


def test_cd_back():
    """cd - goes where the last cd left and says so, as bash's; a fresh shell has none."""
    k = Lucid()
    try:
        assert k.run("cd -") == "-bash: cd: OLDPWD not set\n"
        assert k.status() == 1
        k.run("cd /proc")
        assert k.run("cd -") == "/root\n"
        assert k.run("cd -; pwd") == "/proc\n/proc\n"
        k.run("cd /nosuch")  # a cd that fails leaves OLDPWD alone
        assert k.run("cd -") == "/root\n"
        assert k.run("cd - x") == "-bash: cd: too many arguments\n"
        assert k.run("pwd") == "/root\n"
    finally:
        k.close()


def test_ls_operands_as_gnu_ls(lucid):
    """Missing operands first, then the files as one listing, then each directory, sorted (as
    GNU ls and busybox's ls both order them)."""
    lucid.run("mkdir /tmp/l; cd /tmp/l; mkdir d2 d1; touch d1/a d2/b f1 f2")
    check(lucid, "ls -1 f2 f1", "f1\nf2\n")
    check(lucid, "ls -1 d2 f2 nope d1 f1", "ls: nope: No such file or directory\n"
                                          "f1\nf2\n\nd1:\na\n\nd2:\nb\n")
    assert lucid.status() == 1  # busybox's ls: 1 for a missing operand (GNU's says 2)
    check(lucid, "ls -1 nope d1", "ls: nope: No such file or directory\nd1:\na\n")
    check_ls_l(lucid, "ls -l f1 d1", "-rw-r--r-- 0 f1\n\nd1:\n-rw-r--r-- 0 a\n")
    check(lucid, "ls d1", "a\n")
    lucid.run("rm d1/a d2/b f1 f2; rmdir d1 d2; cd; rmdir /tmp/l")


def test_text_tools(lucid):
    lucid.run("cd /tmp; seq 12 > n; echo 'b a' > w; echo 'a c' >> w; echo 'b a' >> w")
    check(lucid, "head -3 n", "1\n2\n3\n")
    check(lucid, "head -n 2 n", "1\n2\n")
    check(lucid, "head -c 5 n", "1\n2\n3")
    check(lucid, "tail -n 2 n", "11\n12\n")
    check(lucid, "tail -n +11 n", "11\n12\n")
    check(lucid, "tail -n -2 n", "11\n12\n")  # GNU: "-2" counts from the end, as "2"
    check(lucid, "head -n 3 w n", "==> w <==\nb a\na c\nb a\n\n==> n <==\n1\n2\n3\n")
    check(lucid, "grep 1 n | wc -l", "4\n")
    check(lucid, "grep -c 1 n", "4\n")
    check(lucid, "grep -v 1 n | head -2", "2\n3\n")
    check(lucid, "grep -E '^(2|12)$' n", "2\n12\n")
    check(lucid, "grep -i 'B A' w", "b a\nb a\n")
    check(lucid, "grep -q 12 n; echo $?; grep -q 13 n; echo $?", "0\n1\n")
    check(lucid, "grep 'x[' n; echo $?", "grep: bad regex 'x['\n2\n")
    check(lucid, "sort w", "a c\nb a\nb a\n")
    check(lucid, "sort w | uniq", "a c\nb a\n")
    check(lucid, "sort w | uniq -c", "      1 a c\n      2 b a\n")
    check(lucid, "sort -n -r n | head -3", "12\n11\n10\n")
    check(lucid, "sort n | head -4", "1\n10\n11\n12\n")
    # wc's columns, as busybox's wc prints them.
    check(lucid, "wc w", "        3         6        12 w\n")
    check(lucid, "wc -l w", "3 w\n")
    check(lucid, "wc w n", "        3         6        12 w\n       12        12        27 n\n"
                           "       15        18        39 total\n")
    check(lucid, "cat w | wc", "        3         6        12\n")
    check(lucid, "cat w | wc -l", "3\n")
    check(lucid, "cksum w", "%d 12 w\n" % cksum(b"b a\na c\nb a\n"))
    lucid.run("rm n w; cd")


def test_sort_n_numbers_longer_than_a_long(lucid):
    """sort -n orders numbers of any length, as GNU sort (which compares their digits)."""
    lines = ["99999999999999999999", "-99999999999999999999", "5", "10000000000000000000",
             "9300000000000000000", "-0", "0", "007", "-", "x"]
    lucid.run("cd /tmp; > n; " + "; ".join("echo %s >> n" % v for v in lines))
    # LC_ALL=C sort -n on Linux; equal numbers ("-", "-0", "0", "x") by their bytes.
    check(lucid, "sort -n n", "-99999999999999999999\n-\n-0\n0\nx\n5\n007\n"
                              "9300000000000000000\n10000000000000000000\n99999999999999999999\n")
    check(lucid, "sort -n -r n | head -3",
          "99999999999999999999\n10000000000000000000\n9300000000000000000\n")
    lucid.run("rm n; cd")


def test_seq_ends_at_the_largest_long(lucid):
    """seq at the largest long: the kernel shell's seq stopped at LAST (it used to wrap and go
    on); busybox's seq counts in doubles, where those numbers are one, and runs on as on Linux:
    each line prints what it prints on the host, the endless ones ended by head's SIGPIPE."""
    d = tempfile.mkdtemp()
    try:
        for line in ["seq 9223372036854775806 9223372036854775807 | head -3",
                     "seq 9223372036854775800 5 9223372036854775807 | head -3",
                     "seq -- -9223372036854775807 -1 -9223372036854775808 | head -3",
                     "seq 9223372036854775806 9223372036854775807 | head -3 | wc -l"]:
            check(lucid, line + "; echo $?", on_host_busybox(line, d), timeout=10)
    finally:
        shutil.rmtree(d)


def cksum(data):
    """POSIX cksum, to compare with Lucid's (GNU cksum prints the same)."""
    crc = 0
    for byte in data + length_bytes(len(data)):
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else \
                (crc << 1) & 0xFFFFFFFF
    return crc ^ 0xFFFFFFFF


def length_bytes(n):
    out = b""
    while n:
        out += bytes([n & 0xFF])
        n >>= 8
    return out


def test_1mib_file_cksum(lucid):
    """A 1 MiB file written through a pipe and read back gives the host's cksum."""
    data = "".join("%d\n" % i for i in range(1, 200001)).encode()[:1 << 20]
    want = "%d %d" % (cksum_fast(data), len(data))
    lucid.run("seq 200000 | head -c 1048576 > /tmp/mib", timeout=60)
    check_ls_l(lucid, "ls -l /tmp/mib", "-rw-r--r-- 1048576 /tmp/mib\n")
    check(lucid, "cksum /tmp/mib", want + " /tmp/mib\n", timeout=60)
    check(lucid, "cat /tmp/mib | cksum", want + "\n", timeout=60)
    check(lucid, "tail -n 1 /tmp/mib", data.split(b"\n")[-1].decode())  # cut mid-line
    lucid.run("rm /tmp/mib")


def cksum_fast(data):
    table = []
    for i in range(256):
        c = i << 24
        for _ in range(8):
            c = ((c << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if c & 0x80000000 else (c << 1) & 0xFFFFFFFF
        table.append(c)
    crc = 0
    for byte in data + length_bytes(len(data)):
        crc = ((crc << 8) & 0xFFFFFFFF) ^ table[(crc >> 24) ^ byte]
    return crc ^ 0xFFFFFFFF


def test_mount_debugfs_as_in_the_article(lucid):
    check(lucid, "mkdir /debug; mount -t debugfs nodev /debug; echo $?", "0\n")
    check(lucid, "ls -1 /debug",
          "bench\ncallsite\nftest\nkprobe_stress\nkprobes\nprovoke-crash\nrbstat\nrun_test\n"
          "tracing\nuprobe_signal\n")
    # The same tracefs tree as /sys/kernel/debug/tracing, as in the article.
    assert lucid.run("ls /debug/tracing") == lucid.run("ls /sys/kernel/debug/tracing")
    check(lucid, "ls /debug/tracing > /dev/null; echo $?", "0\n")
    assert "debugfs on /debug type debugfs (rw)\n" in lucid.run("mount")
    assert "debugfs /debug debugfs rw 0 0\n" in lucid.run("cat /proc/mounts")
    check(lucid, "cd /debug/tracing; cd ..; pwd", "/debug\n")
    lucid.run("cd /debug")
    check(lucid, "umount /debug", "umount: can't unmount /debug: Device or resource busy\n")
    lucid.run("cd /")
    assert lucid.run("umount /debug; echo $?; rmdir /debug; ls -1 /") == \
        "0\nbin\ndev\netc\nlib\nlib64\nopt\nproc\nroot\nsbin\nsys\ntmp\nusr\n"
    # A ramfs of one's own: its files go with it.
    check(lucid, "mkdir /mnt; mount -t ramfs nodev /mnt; echo x > /mnt/f; ls /mnt", "f\n")
    check(lucid, "umount /mnt; ls /mnt; rmdir /mnt", "")
    lucid.run("cd")


def test_proc_files(lucid):
    up = lucid.run("cat /proc/uptime")
    assert re.match(r"^\d+\.\d\d \d+\.\d\d\n$", up), up
    cpu = lucid.run("cat /proc/cpuinfo")
    assert re.findall(r"^processor\t: (\d+)$", cpu, re.M) == ["0", "1", "2", "3"], cpu
    mem = lucid.run("cat /proc/meminfo")
    m = re.match(r"^MemTotal: +(\d+) kB\nMemFree: +(\d+) kB\nMemAvailable: +(\d+) kB\n", mem)
    assert m and 200000 < int(m.group(1)) <= 262144 and int(m.group(2)) < int(m.group(1)), mem
    assert all(re.fullmatch(r"[A-Za-z()]+: +\d+ kB", l) for l in mem.splitlines()), mem
    irq = lucid.run("cat /proc/interrupts").splitlines()
    assert irq[0].split() == ["CPU0", "CPU1", "CPU2", "CPU3"], irq
    loc = [line for line in irq if line.startswith("LOC:")][0].split()
    assert all(int(n) > 0 for n in loc[1:5]), loc  # every CPU's tick


def mem_free(lucid):
    return int(re.search(r"MemFree: +(\d+) kB", lucid.run("cat /proc/meminfo")).group(1))


def mem_free_but_the_shell(lucid):
    """MemFree, with the pages bash itself holds (its VmRSS) counted as free: bash's heap grows
    as it likes (its hash table, its job list), what is measured is what the kernel keeps."""
    out = lucid.run("cat /proc/meminfo /proc/$$/status")
    free = int(re.search(r"MemFree: +(\d+) kB", out).group(1))
    return free + int(re.search(r"VmRSS:\s+(\d+) kB", out).group(1))


def test_1000_files_give_memory_back():
    """Runs on a kernel of its own, so that nothing earlier tests left running allocates.

Make 1,000 files (50 with data in them) and remove them: MemFree comes back exactly.

    bash keeps typed lines in its history, in its own heap: history is off here, so that what
    is measured is the kernel's. The kernel heap keeps partly used pages and bash's heap grows
    to its working size in the first rounds, so those may differ; from the third round on every
    allocation made is given back.
    """
    names = ["f%d" % i for i in range(1000)]
    round_lines = [
        "mkdir /tmp/many", "cd /tmp/many",
    ] + ["touch " + " ".join(names[i:i + 250]) for i in range(0, 1000, 250)] + [
        "echo data > " + "; echo data > ".join(names[:50]),
        "ls | wc -l",
    ] + ["rm " + " ".join(names[i:i + 250]) for i in range(0, 1000, 250)] + [
        "cd", "rmdir /tmp/many",
    ]
    round_lines += ["true"] * (15 - len(round_lines))  # 15 lines, and cat /proc/meminfo
    free = []
    lucid = Lucid()
    try:
        lucid.run("set +o history")
        for _ in range(4):
            for line in round_lines:
                want = "1000\n" if line.startswith("ls") else ""
                check(lucid, line, want, timeout=60)
            free.append(mem_free_but_the_shell(lucid))
    finally:
        lucid.close()
    assert free[2] == free[3], free


# --- Messages say what failed -----------------------------------------------------------------
#
# Every command that fails says which file and why, in busybox's and bash's words. The host has
# both (the same Debian busybox as Lucid's /bin): each line runs in Lucid in /sys/kernel/tracing
# and on the host, busybox's applets first in PATH, in a directory made to look like it (a
# directory "options", a write-only "trace_marker", a read-only "trace_pipe", a "README" with an
# x and a b in it, no "nosuch"), as an unprivileged user, and the two must print the same, byte
# for byte ("bash: line 1: " being the interactive login shell's "-bash: ").
# Lines on trace_marker and trace_pipe run as root in the host's own tracefs instead: Lucid's
# user is root, whom no mode bit stops, so what fails there is the file's missing operation.

MISSING, DIRECTORY, UNREADABLE, UNWRITABLE = "nosuch", "options", "trace_marker", "trace_pipe"
READERS = ["cat", "head", "head -n 3", "head -c 5", "tail", "tail -n 2", "tail -n +2", "wc",
           "wc -l", "cksum", "grep x", "grep -c x", "sort", "sort -n", "uniq", "uniq -c"]
OTHER_LINES = [
    "cat nosuch options trace_marker", "head nosuch options trace_marker", "tail options nosuch",
    "wc nosuch options", "grep -q x nosuch options", "sort options nosuch",
    "ls nosuch", "ls nosuch trace_marker", "ls -a nosuch/x",
    "echo x > options", "echo x >> trace_pipe", "echo x > nosuch/f", "cat < nosuch",
    "cat < options", "echo x; echo y > trace_pipe; echo z",
    "touch nosuch/f", "mkdir nosuch/d", "mkdir options", "rmdir nosuch",
    "rmdir options/x", "rm nosuch", "rm options", "cd nosuch", "cd trace_marker",
    "ls > /dev/full", "seq 3 > /dev/full", "yes > /dev/full", "echo x > /dev/full",
    "pwd > /dev/full", "grep -q x README > /dev/full", "taskset -c 0 nosuch",
] + ["%s README > /dev/full" % cmd for cmd in READERS]  # a write error, in each one's words
# cksum is Lucid's tests/user/cksum.c (Debian's busybox has none), GNU cksum's words: GNU cksum 9.1
# reads a directory as empty, coreutils 9.2 fixed it ("cksum: fix failure to diagnose read
# errors with crc32"), and Lucid reports it as every other command does.
HOST_BUGS = {"cksum options": "cksum: options: Is a directory\n1\n",
             "cksum trace_marker": "cksum: trace_marker: Invalid argument\n1\n"}

# Lines where busybox itself fails without a word on Linux (only its status says it): grep
# skips a file it cannot read as a binary file, seq's write error goes unreported.
SILENT_ON_LINUX = {"grep x options", "grep x trace_marker", "grep x < options",
                   "seq 3 > /dev/full"}


def host_dir():
    d = tempfile.mkdtemp()
    os.chmod(d, 0o755)
    os.mkdir(os.path.join(d, DIRECTORY), 0o755)
    for name, mode in [(UNREADABLE, 0o200), (UNWRITABLE, 0o444), ("README", 0o644)]:
        with open(os.path.join(d, name), "w") as f:
            f.write("a\nb\nb\nx\n" if name == "README" else "")
        os.chmod(os.path.join(d, name), mode)
    return d


def on_host(d, line):
    """What bash and busybox print for line in d, with its status, as an unprivileged user."""
    return on_host_busybox(line, d, user=True)


def on_host_tracefs(d, line):
    """What bash and coreutils print for line as root in the host's own tracefs, mounted in a
    mount namespace of its own: Lucid's user is root, and Linux's root opens trace_marker and
    trace_pipe whatever their modes (CAP_DAC_OVERRIDE); the read or write they have no
    operation for then fails with EINVAL. None if the host cannot (not root, no tracefs)."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return None
    t = os.path.join(d, "tracefs")
    os.makedirs(t, exist_ok=True)
    bb = busybox_path()
    try:
        p = subprocess.run(["/usr/bin/unshare", "-m", "/bin/bash", "-c",
                            "/bin/mount -t tracefs nodev %s || exit 99; cd %s; { %s; } 2>&1; "
                            "echo $?" % (t, t, line)], capture_output=True, text=True,
                           timeout=30, stdin=subprocess.DEVNULL,
                           env={"PATH": bb + ":/usr/bin:/bin", "LC_ALL": "C", "HOME": "/root"})
    finally:
        shutil.rmtree(bb)
    if p.returncode == 99:
        return None
    return p.stdout.replace("/bin/bash: line 1: ", "-bash: ")


def test_failures_say_what_failed_as_on_the_host(lucid):
    lines = ["%s %s" % (cmd, what) for cmd in READERS
             for what in [MISSING, DIRECTORY, UNREADABLE]] + OTHER_LINES
    lines += ["%s < %s" % (cmd, DIRECTORY) for cmd in READERS if cmd != "cksum"]  # stdin
    d = host_dir()
    try:
        lucid.run("cd /sys/kernel/tracing")
        wrong = []
        for line in lines:
            if line in HOST_BUGS:
                want = HOST_BUGS[line]
            elif UNREADABLE in line or UNWRITABLE in line:
                # Root's failures there are the files' own: compared with the host's tracefs.
                want = on_host_tracefs(d, line)
                if want is None:
                    continue
            else:
                want = on_host(d, line)
            got = lucid.run("%s; echo $?" % line)
            if got != want:
                wrong.append("%r: Lucid %r, host %r" % (line, got, want))
            # The failure said something (busybox, on Linux too, says nothing for a few).
            assert want.count("\n") > 1 or want == "0\n" or line in SILENT_ON_LINUX, line
        assert not wrong, "\n".join(wrong)
    finally:
        shutil.rmtree(d)
        lucid.run("cd")


def test_pwd_in_a_removed_directory(lucid):
    """bash's pwd -P asks getcwd: the same words as on the host when it fails (plain pwd prints
    bash's $PWD, never asking the kernel)."""
    d = tempfile.mkdtemp()
    try:
        p = subprocess.run(["bash", "-c", "rmdir %s; { pwd -P; } 2>&1; echo $?" % d], cwd=d,
                           capture_output=True, text=True, timeout=30)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    assert lucid.run("mkdir /tmp/gone; cd /tmp/gone; rmdir /tmp/gone; pwd -P; echo $?") == \
        p.stdout.replace("bash: line 1: ", "-bash: ")
    lucid.run("cd")


# A command and the file it reads; each knob; the intervals (exec takes about 25 allocations).
NOMEM_READERS = [("cat", "buffer_size_kb"), ("head -20", "trace"), ("wc", "/tmp/small")]
NOMEM_KNOBS = ["fail_kmalloc", "fail_page_alloc"]
NOMEM_INTERVALS = range(1, 31)


def test_out_of_memory_is_never_silent():
    """`head -20 trace` failed silently when its memory ran out: the Nth allocation of each
    reader fails in turn, heap (fail_kmalloc) and pages (fail_page_alloc), the reader alone
    marked in /proc/self/make-it-fail (bash never): each failure must say Cannot allocate
    memory in bash's words (its exec), or the reader's error about the file, and some interval
    must fail it. The
    words are busybox's and bash's; what Lucid owes is the ENOMEM, never a silent failure. (The
    kernel shell's own readers, which also named the file, are gone.)"""
    lucid = Lucid(timeout=90)
    try:
        lucid.run("cd /sys/kernel/tracing; seq 100 > /tmp/small; set +o history")
        for (cmd, name), knob in itertools.product(NOMEM_READERS, NOMEM_KNOBS):
            prog = cmd.split()[0]
            hits = 0
            for n in NOMEM_INTERVALS:
                out = lucid.run("hash %s; echo %d > /proc/sys/kernel/%s; "
                                "(echo 1 > /proc/self/make-it-fail; exec %s %s); echo rc=$?; "
                                "echo 0 > /proc/sys/kernel/%s" % (prog, n, knob, cmd, name, knob),
                                timeout=60)
                m = re.search(r"rc=(\d+)\n$", out)  # head -c 3 ends without a newline
                assert m, (cmd, n, out)
                if m.group(1) == "0":
                    continue
                # bash's exec says ENOMEM; busybox's head says "Input/output error" whatever the
                # read's errno was (its own words, on Linux too): a message either way
                said = [l for l in out.splitlines()
                        if ENOMEM in l or l.startswith("%s: %s: " % (prog, name))]
                assert said, "%s %s, %s %d: failed silently: %r" % (cmd, name, knob, n, out)
                hits += 1
            assert hits, "%s %s, %s: no interval made it fail" % (cmd, name, knob)
        assert lucid.run("cat /proc/sys/kernel/fail_kmalloc /proc/sys/kernel/fail_page_alloc") \
            == "0\n0\n"
        assert lucid.alive() and "Kernel panic" not in lucid.tail(100000), lucid.tail()
    finally:
        lucid.close()

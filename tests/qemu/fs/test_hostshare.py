"""A folder shared with the host over virtio-9p: PCI, virtio, the 9P2000.L client.

One kernel is booted for the file with a fresh host directory shared (BOOT below); the tests
that need a kernel without the device boot their own. Malformed replies are tested where they
can be made: tests/unit/test_p9_protocol.c and tests/fuzz/fuzz_p9.c (QEMU's server only sends
good ones).
"""
import calendar
import os
import random
import shutil
import subprocess
import tempfile

from lucid import ROOT, Lucid, qemu_cmd
from test_files import ls_l
from test_syscalls import on_linux

SHARE = tempfile.mkdtemp(prefix="lucid-share-")
BOOT = {"share": SHARE}
BIG = 64 << 20  # the 64 MiB, each way: seconds each way under TCG

# QEMU's i440fx machine with the defaults tools/qemu-cmd leaves in: host bridge, PIIX3 ISA, IDE
# and ACPI functions, the VGA card, the e1000 network card; then the virtio-9p device.
LSPCI = ("00:00.0 Host bridge: Device 8086:1237 (rev 02)\n"
         "00:01.0 ISA bridge: Device 8086:7000\n"
         "00:01.1 IDE interface: Device 8086:7010\n"
         "00:01.3 Bridge: Device 8086:7113 (rev 03)\n"
         "00:02.0 VGA compatible controller: Device 1234:1111 (rev 02)\n"
         "00:03.0 Ethernet controller: Device 8086:100e (rev 03)\n")
LSPCI_9P = "00:04.0 Unclassified device [0002]: Device 1af4:1009\n"


def host(name):
    return os.path.join(SHARE, name)


def host_cksum(path):
    """POSIX cksum as coreutils prints it for a file: "CRC SIZE"."""
    out = subprocess.run(["cksum", path], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split()[:2])


def check(lucid, line, want, timeout=30):
    out = lucid.run(line, timeout)
    assert out == want, "%r printed %r, not %r" % (line[:60], out[-500:], want[-500:])


def test_lspci(lucid):
    assert lucid.run("lspci") == LSPCI + LSPCI_9P
    out = lucid.run("lspci -n")
    assert out.splitlines()[0] == "00:00.0 0600: 8086:1237 (rev 02)", out
    assert out.splitlines()[-1] == "00:04.0 0002: 1af4:1009", out
    assert "PCI: 7 devices found" in lucid.dmesg()


def msix_interrupts(lucid):
    line = [x for x in lucid.run("cat /proc/interrupts").splitlines() if "virtio0" in x]
    assert len(line) == 1 and line[0].split()[0] == "63:", line
    assert line[0].split()[-3:] == ["PCI-MSIX-0000:00:04.0", "0-edge", "virtio0-requests"], line
    return sum(int(n) for n in line[0].split()[1:5])


def test_interrupts_are_msix(lucid):
    """Each reply raises the queue's MSI-X vector: /proc/interrupts counts them."""
    before = msix_interrupts(lucid)
    lucid.run("ls /mnt/host; ls /mnt/host")
    assert msix_interrupts(lucid) >= before + 2


def test_mounted_at_boot(lucid):
    log = lucid.dmesg()
    assert "9pnet_virtio: virtio0: mount tag \"host\"" in log, log
    assert "9p: host folder mounted at /mnt/host (msize 131096" in log
    assert lucid.run("mount").splitlines()[-1] == "host on /mnt/host type 9p (rw)"
    assert "host /mnt/host 9p rw 0 0\n" in lucid.run("cat /proc/mounts")


def test_lucid_to_host_and_back(lucid):
    check(lucid, "echo hello from lucid > /mnt/host/hello; echo $?", "0\n")
    with open(host("hello"), "rb") as f:
        assert f.read() == b"hello from lucid\n"
    lucid.run("seq 100000 > /mnt/host/seq.txt", timeout=60)
    with open(host("seq.txt"), "rb") as f:
        assert f.read() == "".join("%d\n" % i for i in range(1, 100001)).encode()
    check(lucid, "cksum /mnt/host/seq.txt", host_cksum(host("seq.txt")) + " /mnt/host/seq.txt\n")
    check(lucid, "echo more >> /mnt/host/hello; cat /mnt/host/hello | wc -l", "2\n")
    # The reverse: bytes the host wrote, every value 0-255, read in Lucid.
    rnd = random.Random(18)
    data = bytes(rnd.getrandbits(8) for _ in range(300000))
    with open(host("from_host.bin"), "wb") as f:
        f.write(data)
    check(lucid, "cksum /mnt/host/from_host.bin",
          host_cksum(host("from_host.bin")) + " /mnt/host/from_host.bin\n")
    check(lucid, "wc -c < /mnt/host/from_host.bin", "300000\n")
    assert ls_l(lucid.run("ls -l /mnt/host/from_host.bin")) == \
        "-rw-r--r-- 300000 /mnt/host/from_host.bin\n"
    # Truncation (Tsetattr) and a file emptied by a redirection.
    check(lucid, "> /mnt/host/hello; wc -c /mnt/host/hello", "0 /mnt/host/hello\n")
    assert os.path.getsize(host("hello")) == 0
    lucid.run("rm /mnt/host/hello /mnt/host/seq.txt /mnt/host/from_host.bin")
    assert os.listdir(SHARE) == []


def test_directories(lucid):
    lucid.run("mkdir /mnt/host/d; mkdir /mnt/host/d/e; echo x > /mnt/host/d/e/f")
    assert os.path.isdir(host("d/e"))
    with open(host("d/e/f")) as f:
        assert f.read() == "x\n"
    assert ls_l(lucid.run("ls -l /mnt/host/d")) == "drwxr-xr-x 4096 e\n"
    check(lucid, "rmdir /mnt/host/d/e", "rmdir: '/mnt/host/d/e': Directory not empty\n")
    check(lucid, "cd /mnt/host/d/e; pwd; cat f; cd", "/mnt/host/d/e\nx\n")
    # Made on the host: seen by lookup and by ls.
    os.makedirs(host("d/fromhost"))
    with open(host("d/fromhost/g"), "w") as f:
        f.write("made on the host\n")
    check(lucid, "cat /mnt/host/d/fromhost/g", "made on the host\n")
    check(lucid, "ls -1 /mnt/host/d", "e\nfromhost\n")
    lucid.run("rm /mnt/host/d/e/f /mnt/host/d/fromhost/g; rmdir /mnt/host/d/e /mnt/host/d/fromhost")
    check(lucid, "rmdir /mnt/host/d; echo $?; ls /mnt/host", "0\n")
    assert os.listdir(SHARE) == []


def test_cp_and_mv(lucid):
    """cp and mv on the share: Trenameat within it, a copy across file systems."""
    check(lucid, "seq 5000 > /tmp/s; cp /tmp/s /mnt/host/s; echo $?", "0\n")
    with open(host("s"), "rb") as f:
        assert f.read() == "".join("%d\n" % i for i in range(1, 5001)).encode()
    check(lucid, "mkdir /mnt/host/d; mv /mnt/host/s /mnt/host/d; ls /mnt/host/d", "s\n")
    assert os.listdir(host("d")) == ["s"] and not os.path.exists(host("s"))
    check(lucid, "mv /mnt/host/d/s /mnt/host/d/t; cat /mnt/host/d/t | wc -l", "5000\n")
    assert os.listdir(host("d")) == ["t"]
    check(lucid, "mv /mnt/host/d/t /tmp/t; ls /mnt/host/d; wc -l /tmp/t", "5000 /tmp/t\n")
    assert os.listdir(host("d")) == []
    check(lucid, "mv /tmp/t /mnt/host/d/u; ls /tmp; wc -l /mnt/host/d/u", "s\n5000 /mnt/host/d/u\n")
    check(lucid, "mv /mnt/host/nosuch /mnt/host/d",
          "mv: can't rename '/mnt/host/nosuch': No such file or directory\n")
    check(lucid, "cp /mnt/host/d /tmp", "cp: omitting directory '/mnt/host/d'\n")
    lucid.run("rm /tmp/s /mnt/host/d/u; rmdir /mnt/host/d")
    assert os.listdir(SHARE) == []


def test_chmod_and_times(lucid):
    """chmod and utimensat on the share change the host's file (Tsetattr), as Linux's v9fs
    does: so busybox's mv from another file system keeps the file's mode and times."""
    check(lucid, "echo x > /mnt/host/m; chmod 640 /mnt/host/m; echo $?", "0\n")
    assert os.stat(host("m")).st_mode & 0o7777 == 0o640
    check(lucid, "stat -c %a /mnt/host/m", "640\n")
    check(lucid, "touch -d '2020-01-02 03:04:05' /mnt/host/m; echo $?", "0\n")  # Lucid: UTC
    assert os.stat(host("m")).st_mtime == calendar.timegm((2020, 1, 2, 3, 4, 5))
    check(lucid, "seq 3 > /tmp/m2; chmod 600 /tmp/m2; touch -d '2021-05-06 07:08:09' /tmp/m2; "
          "mv /tmp/m2 /mnt/host/m2; echo $?", "0\n")
    st = os.stat(host("m2"))
    assert st.st_mode & 0o7777 == 0o600 and st.st_mtime == calendar.timegm((2021, 5, 6, 7, 8, 9))
    lucid.run("rm /mnt/host/m /mnt/host/m2")
    assert os.listdir(SHARE) == []


def test_sync_file(lucid):
    """sync FILE: Tfsync, the host's fsync."""
    check(lucid, "echo durable > /mnt/host/d; sync /mnt/host/d; echo $?", "0\n")
    check(lucid, "sync /mnt/host/nosuch",
          "sync: can't open '/mnt/host/nosuch': No such file or directory\n")
    check(lucid, "sync; echo $?", "0\n")
    lucid.run("rm /mnt/host/d")


def test_1000_small_files(lucid):
    names = ["f%d" % i for i in range(1000)]
    lucid.run("mkdir /mnt/host/many; cd /mnt/host/many")
    for i in range(0, 1000, 250):
        check(lucid, "touch " + " ".join(names[i:i + 250]) + "; echo $?", "0\n", timeout=120)
    check(lucid, "echo data > f0; echo data > f999; cat f0 f999", "data\ndata\n")
    assert sorted(os.listdir(host("many"))) == sorted(names)
    check(lucid, "ls | wc -l", "1000\n", timeout=120)
    for i in range(0, 1000, 250):
        check(lucid, "rm " + " ".join(names[i:i + 250]) + "; echo $?", "0\n", timeout=120)
    assert os.listdir(host("many")) == []
    check(lucid, "ls | wc -l; cd; rmdir /mnt/host/many; echo $?", "0\n0\n")
    assert os.listdir(SHARE) == []


def test_64mib_each_way(lucid):
    """64 MiB from the host, checked in Lucid; copied by Lucid back to the host, compared."""
    with open(host("big"), "wb") as f:
        f.write(random.Random(64).randbytes(BIG))
    want = host_cksum(host("big"))
    check(lucid, "cksum /mnt/host/big", want + " /mnt/host/big\n", timeout=300)
    check(lucid, "cat /mnt/host/big > /mnt/host/big2; echo $?", "0\n", timeout=300)
    assert host_cksum(host("big2")) == want
    lucid.run("rm /mnt/host/big /mnt/host/big2")


def test_two_cpus_copying_at_once(lucid):
    """Two copies on CPUs 1 and 2, each with its requests in flight at the same time."""
    for name, seed in (("a", 1), ("b", 2)):
        with open(host(name), "wb") as f:
            f.write(random.Random(seed).randbytes(8 << 20))
    lucid.run("taskset -c 1 cat /mnt/host/a > /mnt/host/a2 & "
              "taskset -c 2 cat /mnt/host/b > /mnt/host/b2 & wait", timeout=300)
    for name in ("a", "b"):
        with open(host(name), "rb") as f, open(host(name + "2"), "rb") as g:
            assert f.read() == g.read(), name
    lucid.run("rm /mnt/host/a /mnt/host/a2 /mnt/host/b /mnt/host/b2")


def test_function_graph_down_to_the_notify(lucid):
    with open(host("x"), "w") as f:
        f.write("traced\n")
    lucid.run("cd /sys/kernel/tracing; echo v9fs_read > set_graph_function; "
              "echo function_graph > current_tracer")
    check(lucid, "cat /mnt/host/x", "traced\n")
    lucid.run("echo 0 > tracing_on")
    trace = lucid.run("cat trace", timeout=60)
    lucid.run("echo nop > current_tracer; echo > set_graph_function; echo 1 > tracing_on; cd")
    # The path of one read: the file system, the client's round trip, the transport, the ring,
    # the doorbell; and the reply coming back through the queue's interrupt.
    # (Whether the reader sleeps depends on the race with the device: schedule_timeout may or
    # may not be there.)
    for fn in ["v9fs_read", "p9_client_read", "p9_rpc_send", "p9_vbuild", "p9_virtio_request",
               "virtqueue_add_sgs", "virtqueue_kick", "virtio_notify", "p9_rpc_wait",
               "p9_vparse"]:
        assert " %s()" % fn in trace, (fn, trace[-3000:])
    assert trace.index(" virtio_notify()") < trace.index(" p9_vparse()"), trace[-3000:]
    lucid.run("rm /mnt/host/x")


def test_removed_on_the_host(lucid):
    with open(host("gone"), "w") as f:
        f.write("soon gone\n")
    check(lucid, "cat /mnt/host/gone", "soon gone\n")
    os.unlink(host("gone"))
    check(lucid, "cat /mnt/host/gone",
          "cat: can't open '/mnt/host/gone': No such file or directory\n")
    check(lucid, "ls /mnt/host; wc -c /mnt/host/gone",
          "wc: /mnt/host/gone: No such file or directory\n")
    # A name Lucid still knows, removed on the host: a redirection makes it again.
    check(lucid, "echo 1 > /mnt/host/again; cat /mnt/host/again", "1\n")
    os.unlink(host("again"))
    check(lucid, "echo 2 > /mnt/host/again; cat /mnt/host/again", "2\n")
    with open(host("again")) as f:
        assert f.read() == "2\n"
    os.unlink(host("again"))
    # Removed while Lucid reads it: the read finishes or fails, the kernel goes on.
    with open(host("big"), "wb") as f:
        f.write(bytes(16 << 20))
    lucid.send_line("cat /mnt/host/big > /dev/null; echo status $?")
    lucid.expect("\n")  # the echo of the line: the read has started
    os.unlink(host("big"))
    status = lucid.expect(r"status (\d+)", timeout=120).group(1)
    assert status in ("0", "1"), status
    lucid.expect_prompt()
    check(lucid, "ls /mnt/host; echo ok", "ok\n")


def test_program_dropped_into_the_share_runs(lucid):
    """A program built on the host after boot runs in Lucid at once: no new ISO. Built here
    with musl-gcc from a source the ISO does not have, so only the share can have brought it."""
    src = host("fresh.c")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\nint main(int c, char **v) '
                '{ printf("fresh %s %d\\n", v[1], c); return 7; }\n')
    subprocess.run(["musl-gcc", "-static", "-O2", "-o", host("fresh"), src], check=True)
    check(lucid, "/mnt/host/fresh one two; echo $?", "fresh one 3\n7\n")
    check(lucid, "cd /mnt/host; ./fresh x | wc -l; cd /", "1\n")
    os.unlink(host("fresh"))
    os.unlink(src)


def test_big_reads_and_writes(lucid):
    """On the share: 1 MiB reads and writes in one call, dd's 64 KiB blocks
    written whole, buffers that end early: as the same program does on the host."""
    lucid.run("mkdir /mnt/host/big")
    out = lucid.run("bigrw /mnt/host/big", 120)
    want = on_linux("bigrw", "{dir}")
    assert out == want, out
    check(lucid, "dd if=/dev/zero of=/mnt/host/big/fill bs=64k count=100 2>/dev/null; "
          "wc -c < /mnt/host/big/fill", "6553600\n", 120)
    assert os.path.getsize(host("big/fill")) == 6553600
    lucid.run("rm /mnt/host/big/fill; rmdir /mnt/host/big")
    assert os.listdir(SHARE) == []


def test_two_descriptors_append(lucid):
    """stderr (2>>) and tee -a append to one file through two descriptors;
    every line lands, on the share as in /tmp (the host opens the file O_APPEND)."""
    with open(host("app.sh"), "w") as f:
        f.write("for L in /mnt/host/L /tmp/L; do\n"
                "  (for i in $(seq 200); do echo o$i; echo e$i >&2; done) 2>>$L | tee -a $L"
                " >/dev/null\n"
                "  sort $L | uniq | wc -l\n"
                "done\n")
    check(lucid, "sh /mnt/host/app.sh", "400\n400\n", 120)
    with open(host("L")) as f:
        lines = f.read().splitlines()
    assert sorted(lines) == sorted(["o%d" % i for i in range(1, 201)] +
                                   ["e%d" % i for i in range(1, 201)]), lines
    # Each writer's own lines stay in its order.
    assert [x for x in lines if x[0] == "o"] == ["o%d" % i for i in range(1, 201)]
    lucid.run("rm /mnt/host/L /mnt/host/app.sh /tmp/L")
    assert os.listdir(SHARE) == []


def test_symlinks(lucid):
    """The host's symbolic links are links here (lstat, getdents' d_type,
    readlink), followed in Lucid's own tree as Linux's v9fs follows them: a link that leads out
    of the share names Lucid's file, never the host's (the server never follows one)."""
    outside = SHARE + "-outside"
    with open(outside, "w") as f:
        f.write("the host's, not Lucid's\n")
    os.makedirs(host("ln/sub"))
    with open(host("ln/sub/f"), "w") as f:
        f.write("inside\n")
    os.symlink("sub/f", host("ln/in"))
    os.symlink("sub", host("ln/dir"))
    os.symlink(outside, host("ln/abs"))
    os.symlink("../../" + os.path.basename(outside), host("ln/rel"))
    os.symlink("/bin/busybox", host("ln/echo"))
    try:
        check(lucid, "cat /mnt/host/ln/in /mnt/host/ln/dir/f", "inside\ninside\n")
        check(lucid, "readlink /mnt/host/ln/in; readlink /mnt/host/ln/abs",
              "sub/f\n%s\n" % outside)
        # getdents's d_type (DT_LNK 10, DT_DIR 4, DT_REG 8), and lstat: find -type l lists
        # the links, ls -l shows them.
        check(lucid, "lsdir -t /mnt/host/ln",
              ". 4\n.. 4\nabs 10\ndir 10\necho 10\nin 10\nrel 10\nsub 4\n")
        check(lucid, "busybox find /mnt/host/ln -type l | sort",
              "".join("/mnt/host/ln/%s\n" % n for n in ("abs", "dir", "echo", "in", "rel")))
        out = lucid.run("busybox ls -l /mnt/host/ln/in")
        assert out.startswith("lrwxrwxrwx") and out.endswith(" /mnt/host/ln/in -> sub/f\n"), out
        check(lucid, "stat -c '%F %s' /mnt/host/ln/dir", "symbolic link 3\n")
        # Out of the share: Lucid's own names (none here), not the host's file.
        check(lucid, "cat /mnt/host/ln/abs",
              "cat: can't open '/mnt/host/ln/abs': No such file or directory\n")
        check(lucid, "cat /mnt/host/ln/rel",
              "cat: can't open '/mnt/host/ln/rel': No such file or directory\n")
        check(lucid, "/mnt/host/ln/echo through busybox", "through busybox\n")
        # ln -s here makes a link on the host (Tsymlink).
        check(lucid, "ln -s sub/f /mnt/host/ln/made; cat /mnt/host/ln/made", "inside\n")
        assert os.readlink(host("ln/made")) == "sub/f"
        check(lucid, "rm /mnt/host/ln/made; echo $?", "0\n")
        assert not os.path.lexists(host("ln/made"))
    finally:
        os.unlink(outside)
        shutil.rmtree(host("ln"))


def test_df(lucid):
    """statfs on the share is the host's (Tstatfs), its magic number too, as
    Linux's v9fs passes them on: busybox df shows the host's disk."""
    st = os.statvfs(SHARE)
    total_kib = st.f_blocks * st.f_frsize // 1024
    line = lucid.run("busybox df /mnt/host").splitlines()[-1].split()
    assert line[0] == "host" and line[-1] == "/mnt/host", line
    # QEMU counts in blocks of its own size: the same bytes, give or take a block.
    assert abs(int(line[1]) - total_kib) <= 1024, (line, total_kib)
    host_type = subprocess.run(["stat", "-f", "-c", "%t", SHARE], capture_output=True,
                               text=True, check=True).stdout
    check(lucid, "stat -f -c %t /mnt/host", host_type)
    assert "/mnt/host" in lucid.run("busybox df").splitlines()[-1]


BIG_PROGRAM_DATA = 20 << 20  # past the 16 MiB exec once read whole into memory


def test_big_program_from_the_share_runs(lucid):
    """A static program over 16 MiB (a 20 MiB array in .data, in the file) runs from the share:
    exec reads each segment from the file into the program's pages, never the whole file at
    once. Its output, a sum over the array, is the host's."""
    src = host("big.c")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\n'
                'static unsigned char big[%d] = {1, [%d] = 2, [%d] = 3};\n'
                'int main(void) { unsigned long s = 0; for (unsigned long i = 0; '
                'i < sizeof(big); i += 4096) s += big[i] + big[sizeof(big) - 1 - i]; '
                'printf("big %%lu %%zu\\n", s + big[4097], sizeof(big)); return 0; }\n'
                % (BIG_PROGRAM_DATA, 4097, BIG_PROGRAM_DATA - 1))
    subprocess.run(["musl-gcc", "-static", "-O2", "-o", host("big"), src], check=True)
    assert os.path.getsize(host("big")) > BIG_PROGRAM_DATA
    want = subprocess.run([host("big")], capture_output=True, text=True, check=True).stdout
    check(lucid, "/mnt/host/big; echo $?", want + "0\n", timeout=120)
    check(lucid, "cd /mnt/host; sh -c ./big; cd /", want, timeout=120)
    os.unlink(host("big"))
    os.unlink(src)
    # As large and not ELF: ENOEXEC from its first page, as Linux, not a failed whole read.
    with open(host("bigjunk"), "wb") as f:
        f.truncate(BIG_PROGRAM_DATA)
    os.chmod(host("bigjunk"), 0o755)
    check(lucid, "/mnt/host/bigjunk; echo $?",
          "-bash: /mnt/host/bigjunk: cannot execute binary file: Exec format error\n126\n")
    os.unlink(host("bigjunk"))


def test_glibc_execvp_runs_a_plain_script_with_sh(lucid):
    """A file with no "#!" is ENOEXEC from execv; glibc's execvp then runs it with /bin/sh (musl's
    does not: tests/user/shebang.c). A static glibc program built here, run from the share in Lucid
    and in the same folder on the host, prints the same."""
    src = host("vp.c")
    with open(src, "w") as f:
        f.write('#include <errno.h>\n#include <stdio.h>\n#include <string.h>\n'
                '#include <sys/wait.h>\n#include <unistd.h>\n'
                'static void run(int vp) { char *a[] = {"plain", "x", NULL}; fflush(stdout);\n'
                '  if (fork() == 0) { if (vp) execvp("./plain", a); else execv("./plain", a);\n'
                '    printf("%s: %s\\n", vp ? "execvp" : "execv", strerror(errno));\n'
                '    fflush(stdout); _exit(1); }\n'
                '  int st; wait(&st); printf("status %d\\n", st); }\n'
                'int main(void) { run(0); run(1); return 0; }\n')
    subprocess.run(["gcc", "-static", "-O2", "-o", host("vp"), src], check=True)
    with open(host("plain"), "w") as f:
        f.write("echo plain $0 $1\n")
    os.chmod(host("plain"), 0o755)
    want = subprocess.run([host("vp")], cwd=SHARE, capture_output=True, text=True,
                          check=True).stdout
    assert "plain ./plain x\n" in want, want
    check(lucid, "cd /mnt/host; ./vp; cd /", want)
    for name in ("vp", "vp.c", "plain"):
        os.unlink(host(name))


def test_mount_by_hand(lucid):
    with open(host("y"), "w") as f:
        f.write("y\n")
    check(lucid, "mkdir /mnt/x; mount -t 9p host /mnt/x; echo $?; cat /mnt/x/y", "0\ny\n")
    assert lucid.run("mount").splitlines()[-2:] == ["host on /mnt/host type 9p (rw)",
                                                    "host on /mnt/x type 9p (rw)"]
    check(lucid, "echo z > /mnt/x/z; cat /mnt/host/z", "z\n")
    check(lucid, "umount /mnt/x; echo $?; ls /mnt/x", "0\n")
    # No such tag: ENOENT, as Linux's 9p over virtio answers (busybox's mount says it so).
    check(lucid, "mount -t 9p nosuch /mnt/x; echo $?",
          "mount: mounting nosuch on /mnt/x failed: No such file or directory\n255\n")
    lucid.run("rmdir /mnt/x; rm /mnt/host/y /mnt/host/z")
    assert os.listdir(SHARE) == []


def test_lucid_record_through_the_share():
    """tools/lucid-record --route tracefs --channel share: the same trace.dat as through COM2."""
    out = tempfile.mkdtemp(prefix="lucid-record-9p-")
    try:
        reports = []
        for channel in ("share", "com2"):
            dat = os.path.join(out, channel + ".dat")
            subprocess.run([os.path.join(ROOT, "tools", "lucid-record"),
                            "-q", "--route", "tracefs", "--channel", channel, "-o", dat, "-p",
                            "function", "-l", "ftest_*", "--", "ftest call"], check=True,
                           timeout=300,
                           stdout=subprocess.DEVNULL)
            rep = subprocess.run(["trace-cmd", "report", dat], capture_output=True, text=True,
                                 check=True).stdout
            reports.append([line.split()[-1] for line in rep.splitlines() if "function:" in line])
        assert reports[0] == reports[1] and reports[0].count("ftest_leaf") == 3, reports
    finally:
        shutil.rmtree(out, ignore_errors=True)


def test_no_device():
    """Without a share: no /mnt/host, ENODEV from mount -t 9p, and the bus without virtio."""
    lucid = Lucid()
    try:
        assert "9p" not in lucid.dmesg()
        assert lucid.run("lspci") == LSPCI
        # no mnt/
        check(lucid, "ls -1 /",
              "bin\ndev\netc\nlib\nlib64\nopt\nproc\nroot\nsbin\nsys\ntmp\nusr\n")
        check(lucid, "mount -t 9p host /tmp; echo $?",
              "mount: mounting host on /tmp failed: No such device\n255\n")
    finally:
        lucid.close()


def test_share_must_be_a_directory():
    p = subprocess.run(qemu_cmd("none.iso", share="/nonexistent/dir"), capture_output=True,
                       text=True, timeout=30)
    assert p.returncode == 2
    assert p.stderr == "qemu-cmd: cannot share '/nonexistent/dir': not a directory\n", p.stderr


def test_zz_cleanup():
    shutil.rmtree(SHARE, ignore_errors=True)

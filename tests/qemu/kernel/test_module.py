"""Loadable modules: busybox's insmod, rmmod, lsmod, modprobe and modinfo, /proc/modules, the
system calls, and bad input.

The modules are build/modules/*.ko (`make modules`), in the initramfs where Linux's are,
/lib/modules/$(uname -r)/kernel/ (the ones that exist to fail in kernel/tests/modules), with the
modules.dep busybox's depmod wrote for them. Broken files are made here, on the host, from foo.ko,
each with one field spoiled, and reach Lucid through the shared folder (/mnt/host). Every failure
must say what Debian's busybox says on Linux (`insmod: can't insert 'X': invalid module format`:
its own words for the errno the kernel gave), leave dmesg with Linux's reason (twice: busybox's
insmod tries finit_module, then init_module), and leave nothing behind: MemFree and the kmalloc objects in use
(/proc/slabinfo) are compared before and after, with the shell's history settled the same way
both times (test_fault_inject.py explains) and the shell's own pages counted
(settle_and_measure explains).
"""
import os
import re
import socket
import struct
import subprocess
import tempfile
import time

from lucid import BUILD, Lucid

SHARE = tempfile.mkdtemp(prefix="lucid-modshare-")
BOOT = {"share": SHARE}
T = "/sys/kernel/tracing"
KO = os.path.join(BUILD, "modules")
PROC_MODULES = re.compile(r"^(?P<name>\w+) (?P<size>\d+) (?P<refs>\d+) - (?P<state>Live) "
                          r"0x(?P<addr>ffffffffc[0-9a-f]{7})$")
INVALID = "insmod: can't insert '%s': invalid module format\n"
RELEASE = "6.1.0-lucid"  # kernel/version.h's UTS_RELEASE; test_load_list_unload checks uname -r
MODDIR = "/lib/modules/" + RELEASE
MOD = MODDIR + "/kernel/modules/%s.ko"
TEST_MOD = MODDIR + "/kernel/tests/modules/%s.ko"
EXAMPLES = ["faulty", "foo", "howdy", "kprobe_example", "latency_demo", "mytracer",
            "synth_event_gen_test", "ticktock"]  # modules/
TEST_MODULES = ["initfail", "test_static_key_base", "test_static_keys", "undef"]  # tests/modules/
EEXIST, ENOEXEC = 17, 8

# ELF64 layout (lib/elf.h): header fields, section header fields, by offset.
E_MACHINE, E_SHOFF, E_SHENTSIZE, E_SHNUM, E_SHSTRNDX = 18, 40, 58, 60, 62
SH_NAME, SH_TYPE, SH_OFFSET, SH_SIZE, SH_LINK, SH_INFO = 0, 4, 24, 32, 40, 44
SHT_SYMTAB, SHT_RELA = 2, 4
SYM_SIZE, RELA_SIZE, SHDR_SIZE = 24, 24, 64


def sh(lucid, cmd, timeout=60):
    return lucid.run(cmd, timeout=timeout)


def run_ok(lucid, cmd, timeout=60):
    out = lucid.run("%s; echo rc=$?" % cmd, timeout=timeout)
    assert out.endswith("rc=0\n"), (cmd, out)
    return out[:-len("rc=0\n")]


def no_history(lucid):
    """bash keeps each line typed in its history, in its heap: off, before the first round, so
    that the rounds compared type the same lines into the same memory."""
    assert lucid.run("set +o history") == ""


def settle_and_measure(lucid):
    """The same 32 lines fill the history each time; then the objects in use of each kmalloc
    size class (/proc/slabinfo: a leak of one small object shows there) and the memory (kB)
    that is free, in slab pages, or the console bash's own (its RssAnon, /proc/$$/status).
    The slab pages are counted with the free memory, not apart: the same objects may sit on
    more or fewer pages after a churn of tasks (a struct task is a kmalloc-1k object, four to a
    page), which moves pages but loses none. bash's anonymous pages too: its malloc hands out
    heap it had not touched yet now and then (a page every few hundred commands, VmSize
    unchanged), and the page faults that map them take free pages that no kernel object holds.
    Nothing else runs at the measurement but init, idle in wait, and the cat that measures."""
    for i in range(32):
        assert lucid.run("true %d" % i) == ""
    out = lucid.run("cat /proc/meminfo /proc/slabinfo /proc/$$/status")
    rows = re.findall(r"^(kmalloc-\w+) +(\d+) .* : slabdata +\d+ +(\d+) ", out, re.M)
    assert len(rows) == 8, out
    slab_kb = sum(int(pages) for _, _, pages in rows) * 4  # pagesperslab is 1: 4 KiB each
    free_kb = int(re.search(r"^MemFree:\s+(\d+) kB$", out, re.M).group(1))
    bash_kb = int(re.search(r"^RssAnon:\s+(\d+) kB$", out, re.M).group(1))
    return free_kb + slab_kb + bash_kb, {name: objs for name, objs, _ in rows}


SETTLE_TRIES = 5  # measurements before a difference counts as a leak


def measure_again(lucid, before):
    """settle_and_measure until it matches before, SETTLE_TRIES times at most: a page a reaped
    task or a deferred free still holds comes back by the next try (a loaded host delays it),
    a leaked one never does. Returns the last measurement."""
    for _ in range(SETTLE_TRIES):
        after = settle_and_measure(lucid)
        if after == before:
            break
    return after


def lsmod_header():
    """busybox lsmod's first line on this host, which has no /proc/modules: Linux's header."""
    out = subprocess.run(["/bin/busybox", "lsmod"], capture_output=True, text=True).stdout
    return out.splitlines(True)[0]


def lsmod_line(name, size, refs):
    """A line of busybox lsmod (modutils/lsmod.c): "%-19s %8s %2s %s", no module using it."""
    return "%-19s %8s %2s \n" % (name, size, refs)


def modules(lucid):
    out = sh(lucid, "cat /proc/modules")
    lines = out.splitlines()
    for l in lines:
        assert PROC_MODULES.match(l), l
    return [PROC_MODULES.match(l).groupdict() for l in lines]


def last_dmesg(lucid, n=1):
    return sh(lucid, "dmesg").splitlines()[-n:]


class Elf:
    """foo.ko's bytes and where its sections are, to spoil one field at a time."""

    def __init__(self, path=os.path.join(KO, "foo.ko")):
        with open(path, "rb") as f:
            self.b = bytearray(f.read())
        self.shoff = self.u64(E_SHOFF)
        self.shnum = self.u16(E_SHNUM)
        strtab = self.shdr(self.u16(E_SHSTRNDX))
        self.names = {}
        for i in range(self.shnum):
            off = self.u64(strtab + SH_OFFSET) + self.u32(self.shdr(i) + SH_NAME)
            self.names[bytes(self.b[off:self.b.index(0, off)]).decode()] = i

    def u16(self, o):
        return struct.unpack_from("<H", self.b, o)[0]

    def u32(self, o):
        return struct.unpack_from("<I", self.b, o)[0]

    def u64(self, o):
        return struct.unpack_from("<Q", self.b, o)[0]

    def put(self, fmt, o, v):
        struct.pack_into(fmt, self.b, o, v)
        return self

    def shdr(self, i):
        return self.shoff + i * SHDR_SIZE

    def sec(self, name):
        return self.shdr(self.names[name])

    def sec_data(self, name):
        return self.u64(self.sec(name) + SH_OFFSET)

    def symbol(self, name):
        """The offset of the symbol table entry of name."""
        symtab = self.sec(".symtab")
        strs = self.sec_data(".strtab")
        for i in range(self.u64(symtab + SH_SIZE) // SYM_SIZE):
            e = self.u64(symtab + SH_OFFSET) + i * SYM_SIZE
            off = strs + self.u32(e)
            if bytes(self.b[off:self.b.index(0, off)]).decode() == name:
                return e
        raise KeyError(name)



def to_share(name, data):
    """Puts data in the shared folder; returns its path in Lucid."""
    with open(os.path.join(SHARE, name), "wb") as f:
        f.write(data)
    return "/mnt/host/" + name


def bad_files():
    """(file name in the share, bytes, the dmesg line Linux's loader prints)."""
    e = Elf
    rela_text = e().sec(".rela.text")
    first_rela = e().u64(rela_text + SH_OFFSET)
    cases = [
        ("text.ko", b"this is not an ELF file, only text long enough for a header\n" * 2,
         "Invalid ELF header magic: != \x7fELF"),
        ("short.ko", bytes(e().b[:32]), "Invalid ELF header len 32"),
        ("i386.ko", e().put("<H", E_MACHINE, 3).b, "Invalid architecture in ELF header: 3"),
        ("half.ko", e().b[:len(e().b) // 2], "Invalid ELF section header overflow"),
        ("shoff.ko", e().put("<Q", E_SHOFF, 1 << 40).b, "Invalid ELF section header overflow"),
        ("shentsize.ko", e().put("<H", E_SHENTSIZE, 40).b, "Invalid ELF section header size"),
        ("shstrndx.ko", e().put("<H", E_SHSTRNDX, 999).b,
         "Invalid ELF section name index: 999 || e_shstrndx (999) >= e_shnum (%d)" % e().shnum),
        ("secoff.ko", e().put("<Q", e().sec(".text") + SH_OFFSET, 1 << 62).b,
         "Invalid ELF section in module (section %d type 1)" % e().names[".text"]),
        ("secsize.ko", e().put("<Q", e().sec(".data") + SH_SIZE, 1 << 20).b,
         "Invalid ELF section in module (section %d type 1)" % e().names[".data"]),
        ("symsize.ko", e().put("<Q", e().sec(".symtab") + SH_SIZE, 1 << 30).b,
         "Invalid ELF section in module (section %d type 2)" % e().names[".symtab"]),
        ("symname.ko", e().put("<I", e().symbol("__fentry__"), 1 << 30).b, None),
        ("relalink.ko", e().put("<I", rela_text + SH_LINK, e().names[".strtab"]).b,
         "Invalid ELF section in module (section %d type 4)" % e().names[".rela.text"]),
        ("relaoff.ko", e().put("<Q", first_rela, 1 << 20).b, None),
        ("relasym.ko", e().put("<I", first_rela + 12, 1 << 20).b, None),
        ("reltype.ko", e().put("<I", first_rela + 8, 42).b, "foo: Unknown rela relocation: 42"),
        ("common.ko", e().put("<H", e().symbol("foo_bar") + 6, 0xfff2).b,
         "foo: please compile with -fno-common"),
    ]
    # No struct module: its section renamed.
    x = e()
    name_off = x.sec_data(".shstrtab") + x.u32(x.sec(".gnu.linkonce.this_module") + SH_NAME)
    x.b[name_off + 1] = ord("X")
    cases.append(("nomod.ko", x.b, "No module found in object"))
    # A struct module of another size (a module built for another kernel).
    cases.append(("modsize.ko", e().put("<Q", e().sec(".gnu.linkonce.this_module") + SH_SIZE,
                                        8).b, None))
    return cases


def test_load_list_unload(lucid):
    run_ok(lucid, "cd /")
    # uname -r names the directory modprobe reads; modules.dep lists every module, none
    # depending on another, by its path there.
    assert sh(lucid, "uname -r") == RELEASE + "\n"
    assert sh(lucid, "ls /lib/modules") == RELEASE + "\n"
    assert sh(lucid, "ls -1 %s/kernel/modules" % MODDIR) == "".join(m + ".ko\n" for m in EXAMPLES)
    dep = sorted(sh(lucid, "cat %s/modules.dep" % MODDIR).splitlines())
    assert dep == sorted(["kernel/modules/%s.ko:" % m for m in EXAMPLES] +
                         ["kernel/tests/modules/%s.ko:" % m for m in TEST_MODULES]), dep
    header = lsmod_header()
    assert header == "Module                  Size  Used by    Not tainted\n"
    assert sh(lucid, "lsmod") == header
    run_ok(lucid, "modprobe foo")
    mods = modules(lucid)
    assert [m["name"] for m in mods] == ["foo"], mods
    assert int(mods[0]["size"]) % 4096 == 0 and mods[0]["refs"] == "0"
    assert sh(lucid, "lsmod") == header + lsmod_line("foo", mods[0]["size"], 0)
    # Loaded twice: EEXIST (busybox's status is the errno); modprobe sees it in /proc/modules
    # and loads nothing.
    assert sh(lucid, "insmod %s" % MOD % "foo") == \
        "insmod: can't insert '%s': File exists\n" % MOD % "foo"
    assert lucid.status() == EEXIST
    run_ok(lucid, "modprobe foo")
    run_ok(lucid, "insmod %s" % MOD % "ticktock")
    assert [m["name"] for m in modules(lucid)] == ["ticktock", "foo"]  # newest first
    run_ok(lucid, "rmmod foo.ko %s" % MOD % "ticktock")  # a file's name names its module
    assert modules(lucid) == []
    assert sh(lucid, "rmmod foo") == "rmmod: can't unload module 'foo': No such file or directory\n"
    assert lucid.status() == 1
    # insmod takes a file: a bare name is one, in the working directory (-ENOENT: status 254)
    assert sh(lucid, "insmod nosuch") == \
        "insmod: can't insert 'nosuch': No such file or directory\n"
    assert lucid.status() == 256 - 2
    assert sh(lucid, "modprobe nosuch") == "modprobe: module nosuch not found in modules.dep\n"
    assert lucid.status() == 1
    for cmd, usage in (("insmod", "insmod FILE [SYMBOL=VALUE]..."),
                       ("rmmod", "rmmod [-wfa] [MODULE]...")):
        assert "\nUsage: %s\n" % usage in sh(lucid, cmd)
        assert lucid.status() == 1
    # Parameters a module does not have (foo has none) are named and ignored, as Linux does
    # (each by its name; busybox passes them as "x=1 y=2 "). latency_demo has some:
    # test_latency_tracers.py.
    run_ok(lucid, "insmod %s x=1 y=2" % MOD % "foo")
    assert [l.split("] ", 1)[1] for l in last_dmesg(lucid, 2)] == \
        ["foo: unknown parameter 'x' ignored", "foo: unknown parameter 'y' ignored"]
    run_ok(lucid, "modprobe -r foo")
    assert modules(lucid) == []


def test_modinfo(lucid):
    """busybox modinfo finds a module through modules.dep and prints its .modinfo."""
    assert sh(lucid, "modinfo foo") == (
        "filename:       %s\n"
        "description:    The module of LWN's Debugging the kernel using Ftrace\n"
        "license:        GPL\n"
        "depends:        \n" % MOD % "foo")
    assert sh(lucid, "modinfo -F license %s" % TEST_MOD % "undef") == "GPL\n"


def test_mytracer_in_use(lucid):
    """A module's tracer: listed while loaded; rmmod refused while it is the current tracer."""
    run_ok(lucid, "modprobe mytracer")
    assert "mytracer" in sh(lucid, "cat %s/available_tracers" % T).split()
    run_ok(lucid, "echo mytracer > %s/current_tracer" % T)
    assert modules(lucid)[0]["refs"] == "1"
    # delete_module's EWOULDBLOCK, in each tool's words
    assert sh(lucid, "rmmod mytracer") == \
        "rmmod: can't unload module 'mytracer': Resource temporarily unavailable\n"
    assert lucid.status() == 1
    assert sh(lucid, "modprobe -r mytracer") == \
        "modprobe: can't unload module 'mytracer': Resource temporarily unavailable\n"
    assert lucid.status() == 1
    assert sh(lucid, "lsmod").splitlines()[1].split() == ["mytracer", modules(lucid)[0]["size"],
                                                         "1"]
    run_ok(lucid, "echo nop > %s/current_tracer" % T)
    assert modules(lucid)[0]["refs"] == "0"
    run_ok(lucid, "rmmod mytracer")
    assert "mytracer" not in sh(lucid, "cat %s/available_tracers" % T).split()
    assert "write error: Invalid argument" in sh(lucid, "echo mytracer > %s/current_tracer" % T)


def test_ticktock_in_interrupt(lucid):
    """The timer module's message comes from the timer interrupt: the hardirq mark."""
    run_ok(lucid, "echo > %s/trace" % T)
    run_ok(lucid, "modprobe ticktock; sleep 1")
    # its timer fires once, 10 ms on: on a loaded host perhaps after the second (bounded)
    run_ok(lucid, "for i in $(seq 300); do grep -q ticktock_fire %s/trace && break; sleep 0.1; "
           "done" % T)
    lines = [l for l in sh(lucid, "cat %s/trace" % T).splitlines() if not l.startswith("#")]
    run_ok(lucid, "rmmod ticktock")
    assert len(lines) == 1, lines
    assert re.match(r"^ +\S+-\d+ +\[\d{3}\] [d.][Nn.][hH][0-9.] +\d+\.\d{6}: "
                    r"ticktock_fire: tick from the timer interrupt, 1 time\(s\)$", lines[0]), lines


def test_system_calls(lucid):
    """init_module, finit_module and delete_module from a user program (modload)."""
    run_ok(lucid, "modload %s foo 4" % MOD % "foo")
    assert modules(lucid) == []
    assert sh(lucid, "modload %s initfail 1" % TEST_MOD % "initfail") == \
        "insmod: ERROR: could not insert module %s: No such device\n" % TEST_MOD % "initfail"
    run_ok(lucid, "modload -f %s 3" % TEST_MOD % "initfail")
    run_ok(lucid, "modload -f /bin/hello 2")


def test_busybox_module_tools(lucid):
    """Debian's busybox insmod, lsmod and rmmod, unmodified, on the same system calls: its
    insmod tries finit_module, then init_module (so a refused module's dmesg lines come twice,
    as on Linux), and exits with the errno; its lsmod reads /proc/modules."""
    def without_dmesg(out):
        return "".join(l for l in out.splitlines(True) if not re.match(r"\[ *\d+\.\d+\] ", l))

    run_ok(lucid, "busybox insmod %s" % MOD % "foo")
    mods = modules(lucid)
    assert [m["name"] for m in mods] == ["foo"], mods
    assert sh(lucid, "busybox lsmod") == lsmod_header() + lsmod_line("foo", mods[0]["size"], 0)
    run_ok(lucid, "busybox rmmod foo")
    assert modules(lucid) == []
    out = sh(lucid, "busybox insmod %s; echo $?" % TEST_MOD % "undef")
    assert out.count("undef: Unknown symbol bar (err -2)\n") == 2, out
    assert without_dmesg(out) == ("insmod: can't insert '%s': unknown "
                                  "symbol in module, or unknown parameter\n2\n" %
                                  TEST_MOD % "undef"), out
    assert without_dmesg(sh(lucid, "busybox insmod /bin/hello; echo $?")) == \
        "insmod: can't insert '/bin/hello': invalid module format\n8\n"
    assert sh(lucid, "busybox rmmod nosuch; echo $?") == \
        "rmmod: can't unload module 'nosuch': No such file or directory\n1\n"
    assert modules(lucid) == []


def test_bad_files(lucid):
    """Each spoiled file: refused, with Linux's reason in dmesg, and nothing left behind."""
    files = [(name, to_share(name, bytes(data)), why) for name, data, why in bad_files()]
    open(os.path.join(SHARE, "empty.ko"), "wb").close()

    def refuse_all():
        for name, path, why in files:
            out = sh(lucid, "insmod %s" % path)
            # the console shows dmesg's line too: the insmod line must be the last
            assert out.splitlines(True)[-1] == INVALID % path, (name, out)
            assert lucid.status() == ENOEXEC, name
            if why:
                assert last_dmesg(lucid)[0].endswith("] " + why), (name, last_dmesg(lucid))
            assert modules(lucid) == [], name
        # An executable is not a module either.
        assert sh(lucid, "insmod /bin/hello").splitlines(True)[-1] == INVALID % "/bin/hello"
        assert last_dmesg(lucid)[0].endswith("Invalid ELF header type: 2 != 1")
        # A directory, and an empty file: EINVAL, as Linux's kernel_read_file (from modload:
        # busybox's insmod would go on to read them itself, and say what its read said).
        assert sh(lucid, "modload /lib x 1") == \
            "insmod: ERROR: could not insert module /lib: Invalid argument\n"
        assert sh(lucid, "modload /mnt/host/empty.ko x 1") == \
            "insmod: ERROR: could not insert module /mnt/host/empty.ko: Invalid argument\n"

    # The first round makes what stays (the shared folder's dentries for the files, foo's
    # formats); the second must leave everything as it found it.
    no_history(lucid)
    run_ok(lucid, "modprobe foo; rmmod foo")
    refuse_all()
    before = settle_and_measure(lucid)
    refuse_all()
    after = measure_again(lucid, before)
    assert after == before, (before, after)
    # foo itself still loads: none of that changed the kernel.
    run_ok(lucid, "modprobe foo; rmmod foo")


def test_unknown_symbol_and_failing_init(lucid):
    def fail_both():
        out = sh(lucid, "insmod %s" % TEST_MOD % "undef")
        assert out.splitlines(True)[-1] == ("insmod: can't insert '%s': unknown symbol in "
                                            "module, or unknown parameter\n" %
                                            TEST_MOD % "undef")
        # each missing symbol named, in the symbol table's order
        log = sorted(l.split("] ", 1)[1] for l in last_dmesg(lucid, 2))
        assert log == ["undef: Unknown symbol bar (err -2)",
                       "undef: Unknown symbol kallsyms_lookup_name (err -2)"], log
        assert sh(lucid, "insmod %s" % TEST_MOD % "initfail") == \
            "insmod: can't insert '%s': No such device\n" % TEST_MOD % "initfail"
        assert modules(lucid) == []  # the init failed: the module is gone

    no_history(lucid)
    fail_both()  # what stays made now: dentries, initfail's format
    run_ok(lucid, "echo > %s/trace" % T)
    before = settle_and_measure(lucid)
    fail_both()
    after = measure_again(lucid, before)
    assert "initfail refuses to load" in sh(lucid, "cat %s/trace" % T)
    assert after == before, (before, after)


def test_fault_injection(lucid):
    """Every Nth allocation of the module loader fails: ENOMEM or success, never a leak.

    Only a task marked in /proc/PID/make-it-fail is injected (Linux's task filter): modload -i
    marks itself once it has read the file, so the allocations counted are the load's, the
    system calls busybox's insmod makes (finit_module, then init_module), and not exec's."""
    no_history(lucid)
    run_ok(lucid, "modload -i %s; rmmod foo" % MOD % "foo")  # what stays made now: dentries
    before = settle_and_measure(lucid)
    seen = set()
    for knob in ("fail_page_alloc", "fail_kmalloc"):
        for n in range(1, 9):
            run_ok(lucid, "echo %d > /proc/sys/kernel/%s" % (n, knob))
            out = sh(lucid, "modload -i %s; echo rc=$?" % MOD % "foo")
            run_ok(lucid, "echo 0 > /proc/sys/kernel/%s" % knob)
            rc = re.search(r"rc=(\d+)\n$", out)
            if rc and rc.group(1) == "0":
                seen.add("loaded")
                run_ok(lucid, "rmmod foo")
            else:
                assert "Cannot allocate memory" in out, (knob, n, out)
                seen.add("refused")
            assert modules(lucid) == [], (knob, n)
            after = measure_again(lucid, before)
            assert after == before, (knob, n, before, after)
    assert seen == {"loaded", "refused"}, seen


def test_load_unload_100_on_4_cpus(lucid):
    """Each example 100 times, four loaders at once, the function tracer on: no page lost."""
    assert "smp: Brought up 4 CPUs" in sh(lucid, "dmesg")
    jobs = [(MOD % m, m) for m in ("foo", "ticktock", "mytracer")]
    no_history(lucid)
    run_ok(lucid, "echo function > %s/current_tracer" % T)

    def line(n):
        """The four at once; then each one's exit status, in order."""
        cmds = ["modload %s %s %d" % (p, m, n) for p, m in jobs] + \
            ["modload -f %s %d" % (TEST_MOD % "initfail", n)]
        # In a shell of its own, whose memory goes with it: bash keeps every background
        # job's status for good, which would grow its heap from round to round.
        return "sh -c '" + " ".join("%s & p%d=$!;" % (c, i) for i, c in enumerate(cmds)) + \
            "".join(" wait $p%d; s%d=$?;" % (i, i) for i in range(len(cmds))) + \
            " echo done $s0 $s1 $s2 $s3'"

    sh(lucid, line(1), timeout=120)  # warm-up: formats kept for good, dentries, job slots
    before = settle_and_measure(lucid)
    out = sh(lucid, line(100), timeout=600)
    assert "done 0 0 0 0\n" in out and "ERROR" not in out and "should fail" not in out, out
    assert modules(lucid) == []
    after = measure_again(lucid, before)
    run_ok(lucid, "echo nop > %s/current_tracer" % T)
    assert after == before, (before, after)
    assert lucid.alive()


def test_faulty_init_oopses_with_dump():
    """faulty's init writes through NULL: the oops names its functions, the trace is dumped."""
    k = Lucid(cmdline="ftrace_dump_on_oops", timeout=90)
    try:
        k.send_line("insmod %s" % MOD % "faulty")
        assert k.wait_exit(timeout=120) == 3  # a panic: QEMU's exit status 3
        out = k.tail(200000).replace("\r", "")
    finally:
        k.close()
    assert "BUG: kernel NULL pointer dereference, address: 0000000000000000" in out, out[-3000:]
    assert re.search(r"RIP: [0-9a-f]{4}:faulty_init\+0x[0-9a-f]+/0x[0-9a-f]+ \[faulty\]\n", out), \
        out[-3000:]
    # the backtrace walks from the module's text on into the kernel's
    # (with its module's name after it, as Linux prints a module's symbol)
    assert re.search(r"^\[ *\d+\.\d+\]  faulty_init\+0x[0-9a-f]+/0x[0-9a-f]+ \[faulty\]\n"
                     r"\[ *\d+\.\d+\]  do_one_initcall\+", out, re.M), out[-3000:]
    dump = out[out.index("Dumping ftrace buffer:"):]
    assert re.search(r"insmod-\d+ .*faulty_init: faulty: about to write through", dump), dump


def monitor(sock_path, command, timeout=30):
    """One command typed at QEMU's monitor (a unix socket); what it printed."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    deadline = time.monotonic() + timeout
    while True:
        try:
            s.connect(sock_path)
            break
        except OSError:
            assert time.monotonic() < deadline, "no monitor at %s" % sock_path
            time.sleep(0.1)
    out = b""
    while not out.endswith(b"(qemu) "):  # the banner and the first prompt
        out += s.recv(65536)
    s.sendall(command.encode() + b"\n")
    out = b""
    while not out.endswith(b"(qemu) "):
        chunk = s.recv(1 << 20)
        assert chunk, "the monitor closed"
        out += chunk
    s.close()
    return out.decode(errors="replace").replace("\r", "")


def test_pages_never_writable_and_executable():
    """The page tables themselves, as QEMU sees them (`info tlb`): text read-only and
    executable, rodata read-only, data writable and no-execute; nothing left after rmmod."""
    sock = os.path.join(tempfile.mkdtemp(prefix="lucid-mon-"), "mon")
    k = Lucid(extra=["-monitor", "unix:%s,server=on,wait=off" % sock])
    try:
        run_ok(k, "modprobe foo")
        base = int(modules(k)[0]["addr"], 16)
        size = int(modules(k)[0]["size"])
        tlb = monitor(sock, "info tlb")
        # "ffffffffc0000000: 0000000001234000 -G-DA---W": NX first, RW last
        pages = {int(a, 16): f for a, f in
                 re.findall(r"^([0-9a-f]{16}): [0-9a-f]{16} ([-XGPDACTUW]{9})$", tlb, re.M)
                 if 0xffffffffc0000000 <= int(a, 16) < 0xffffffffc4000000}
        assert sorted(pages) == list(range(base, base + size, 4096)), (base, size, pages)
        kinds = ["text" if f[0] == "-" and f[8] == "-" else
                 "rodata" if f[0] == "X" and f[8] == "-" else
                 "data" if f[0] == "X" and f[8] == "W" else "W+X " + f
                 for _, f in sorted(pages.items())]
        # foo: a page of text, one of rodata, one of data, in that order
        assert kinds == ["text", "rodata", "data"], kinds
        run_ok(k, "rmmod foo")
        tlb = monitor(sock, "info tlb")
        assert not re.search(r"^ffffffffc[0-3][0-9a-f]{6}:", tlb, re.M), tlb
    finally:
        k.close()

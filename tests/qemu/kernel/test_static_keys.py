"""Static keys (kernel/jump_label.c, arch/x86_64/jump_label.c; docs/design/static-keys.md):
the boot self-test, Linux's module test (test_static_key_base exports keys that
test_static_keys flips, with sites in both), a module's sites of a kernel key following the key
(latency_demo's local_irq_disable() under irqsoff), a kprobe refused on a site (-EBUSY, as
Linux's), and modules whose __jump_table is spoiled, refused as invalid."""
import os
import re
import struct
import tempfile

from test_module import (ENOEXEC, INVALID, RELA_SIZE, SH_OFFSET, SHDR_SIZE, Elf, KO, modules,
                         last_dmesg)
from test_latency_tracers import DEMO_US, demo_section, measure
from tracefs import EINVAL, T, cat, last_error, ok, sh

SHARE = tempfile.mkdtemp(prefix="lucid-jlshare-")
BOOT = {"cmdline": "static_keys_selftest", "share": SHARE}
BASE = "test_static_key_base"
SH_FLAGS = 8  # the section header's flags field (lib/elf.h)
SHF_WRITE = 1
STARTED = "#  => started at: latency_demo_irqs_off\n"


def test_selftest_passes(lucid):
    log = lucid.dmesg()
    assert "Testing static keys: PASSED" in log, log
    m = re.search(r"jump_label: (\d+) static branch sites", log)
    assert m and int(m.group(1)) > 0, log
    assert "static keys selftest:" in log and "FAILED" not in log, log


def test_modules_flip_each_others_keys(lucid):
    """Linux's tools/testing/selftests/static_keys/test_static_keys.sh, twice: the second
    round finds the keys as the first left them, and no table of an unloaded module."""
    for _ in range(2):
        out = sh(lucid, "modprobe %s; modprobe test_static_keys && echo static_key: ok" % BASE)
        assert out == "static_key: ok\n", out + sh(lucid, "dmesg | tail -5")
        assert last_dmesg(lucid)[0].endswith(
            "] test_static_keys: 8 branches on 4 keys in 2 modules: passed"), last_dmesg(lucid)
        ok(lucid, "rmmod test_static_keys; rmmod %s" % BASE)
        assert modules(lucid) == []


def test_module_sites_follow_a_kernel_key(lucid):
    """latency_demo is loaded while no latency tracer runs: its local_irq_disable() sites are
    NOPs. irqsoff turns the kernel's key on, which must patch the module's sites too, or the
    section it then holds would go unseen."""
    ok(lucid, "modprobe latency_demo; cd %s" % T)
    try:
        ok(lucid, "echo irqsoff > current_tracer")
        # The tracer keeps the worst section, which on a busy host may be another one (a vCPU
        # stopped with interrupts off): test_latency_tracers' demo section, of its length, and
        # asked again when beaten, as there.
        lat, trace = demo_section(lambda: measure(
            lucid, "echo %d > /sys/module/latency_demo/parameters/irqs_off_us" % DEMO_US),
            "latency_demo_irqs_off")
        assert STARTED in trace, trace
        assert lat >= DEMO_US, lat
    finally:
        ok(lucid, "echo nop > current_tracer; cd /")
        ok(lucid, "rmmod latency_demo")
    # Off again, the module's sites as well: a new section runs, and returns (a site still
    # calling into the tracer that is gone would oops, and ok() would see it).
    ok(lucid, "modprobe latency_demo irqs_off_us=500; rmmod latency_demo")


def jump_entries(elf):
    """The __jump_table's relocations, [(offset of the rela entry in the file, its addend)]: three
    per entry, code, target and key, in order."""
    sec = elf.sec(".rela__jump_table")
    start, size = elf.u64(sec + SH_OFFSET), elf.u64(sec + SH_OFFSET + 8)
    return [(start + i * RELA_SIZE, struct.unpack_from("<q", elf.b, start + i * RELA_SIZE + 16)[0])
            for i in range(size // RELA_SIZE)]


def base_elf():
    return Elf(os.path.join(KO, BASE + ".ko"))


def test_kprobe_on_a_site_is_refused(lucid):
    """The first entry's site, as an offset in its function: register_kprobe says EINVAL there
    (its int3 would be overwritten when the key changes), as Linux's check_kprobe_address_safe
    does, and the function's entry is fine."""
    e = base_elf()
    code = jump_entries(e)[0][1]  # .text + addend: the module's text starts with the function
    func = e.u64(e.symbol("base_true_key_likely") + 8)  # st_value: its offset in .text
    off = code - func
    assert 0 < off < 32, off
    ok(lucid, "modprobe %s" % BASE)
    try:
        probe = "p:jl %s:base_true_key_likely+%d" % (BASE, off)
        assert sh(lucid, "echo '%s' >> %s/kprobe_events" % (probe, T)) == EINVAL
        assert cat(lucid, "kprobe_events") == ""
        assert last_error(lucid)[1] == "Failed to register probe event", cat(lucid, "error_log")
        # The function's entry (its ftrace site) is no static branch: accepted.
        ok(lucid, "echo 'p:jl %s:base_true_key_likely' >> %s/kprobe_events" % (BASE, T))
        ok(lucid, "echo > %s/kprobe_events" % T)
    finally:
        ok(lucid, "rmmod %s" % BASE)


def spoiled_bases():
    """(file name, bytes, dmesg's reason) for test_static_key_base with its table spoiled."""
    cases = []
    e = base_elf()
    flags = e.sec("__jump_table") + SH_FLAGS
    cases.append(("jt_readonly.ko", e.put("<Q", flags, e.u64(flags) & ~SHF_WRITE).b,
                  "%s: invalid section __jump_table" % BASE))
    (code_rela, code), _, (key_rela, key) = jump_entries(base_elf())[:3]
    cases.append(("jt_code.ko", base_elf().put("<q", code_rela + 16, code + (1 << 20)).b,
                  "%s: __jump_table entry 0 out of bounds" % BASE))
    cases.append(("jt_key.ko", base_elf().put("<q", key_rela + 16, key + (1 << 20)).b,
                  "%s: __jump_table entry 0 out of bounds" % BASE))
    cases.append(("jt_bytes.ko", base_elf().put("<q", code_rela + 16, code + 1).b,
                  "%s: __jump_table entry 0: unexpected bytes at its site" % BASE))
    assert SHDR_SIZE == 64
    return cases


def test_spoiled_jump_tables_refused(lucid):
    for name, data, why in spoiled_bases():
        path = os.path.join(SHARE, name)
        with open(path, "wb") as f:
            f.write(data)
        guest = "/mnt/host/" + name
        out = sh(lucid, "insmod %s" % guest)
        assert out.splitlines(True)[-1] == INVALID % guest, (name, out)
        assert lucid.status() == ENOEXEC, name
        assert last_dmesg(lucid)[0].endswith("] " + why), (name, last_dmesg(lucid))
        assert modules(lucid) == [], name
    # The real one still loads.
    ok(lucid, "modprobe %s; rmmod %s" % (BASE, BASE))

"""Memory protection: each bad access gives a clean oops, never a triple fault.

Text is read-only and executable, through the kernel mapping and through the direct map's view
of it; data is not executable; page 0 is unmapped; every kernel stack has a guard page below it.
Each test crashes its own kernel and checks the oops's first lines, that the backtrace names the
culprit, and that QEMU left through the isa-debug-exit device with status 3 (a triple fault
would reset instead: with -no-reboot, QEMU exits 0).
"""
import re

from lucid import Lucid

DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"  # lkdtm's (kernel/debug/lkdtm.c)


def oops_of(kind):
    """Boots, writes crash type kind to lkdtm's DIRECT, and returns the console once QEMU has
    exited with status 3."""
    k = Lucid()
    try:
        k.send_line("echo %s > %s" % (kind, DIRECT))
        status = k.wait_exit(60)
        out = k.tail(20000)
        assert status == 3, "QEMU exit status %r (3 is a panic), console:\n%s" % (status, out)
        assert "Kernel panic - not syncing" in out, out
        return out
    finally:
        k.close()


def test_write_to_text():
    out = oops_of("WRITE_KERN")
    assert re.search(r"BUG: unable to handle page fault for address: ffffffff8", out), out
    assert "#PF: supervisor write access in kernel mode" in out, out
    assert "- permissions violation" in out, out
    assert re.search(r"RIP: [0-9a-f]{4}:lkdtm_WRITE_KERN\+0x", out), out


def test_write_to_text_through_direct_map():
    out = oops_of("WRITE_KERN_DIRECT")
    assert re.search(r"BUG: unable to handle page fault for address: ffff888", out), out
    assert "#PF: supervisor write access in kernel mode" in out, out
    assert "- permissions violation" in out, out
    assert re.search(r"RIP: [0-9a-f]{4}:lkdtm_WRITE_KERN_DIRECT\+0x", out), out


def test_jump_into_data():
    out = oops_of("EXEC_DATA")
    assert "#PF: supervisor instruction fetch in kernel mode" in out, out
    assert "- permissions violation" in out, out
    # The CPU faulted fetching the first instruction: the caller's return address is on top of
    # the stack, and the backtrace offers it as the likely caller.
    trace = out[out.index("Call Trace:"):]
    assert re.search(r" (\? )?lkdtm_EXEC_DATA\+0x", trace), trace
    assert re.search(r" lkdtm_do_action\+0x", trace), trace


def test_null_page_unmapped():
    out = oops_of("NULL")
    assert "BUG: kernel NULL pointer dereference, address: 0000000000000000" in out, out
    assert "#PF: supervisor write access in kernel mode" in out, out
    assert "- not-present page" in out, out


def test_stack_overflow_hits_guard_page():
    out = oops_of("EXHAUST_STACK")
    assert re.search(r"BUG: stack guard page was hit at ffffc9", out), out
    assert "kernel stack overflow (double-fault)" in out, out

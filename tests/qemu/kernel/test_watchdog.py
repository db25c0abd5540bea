"""The soft-lockup watchdog: a CPU that lets no other task run for too long is reported."""
import re

from lucid import Lucid

# Heavy, every CPU kept busy while the watchdog must stay quiet: run_tests.py starts no other
# heavy file beside it.
HEAVY = True


def test_soft_lockup_reported():
    k = Lucid(cmdline="watchdog_thresh=1 softlockup_panic=1")
    try:
        # lkdtm's SOFTLOCKUP runs in the write(2) of bash's echo: bash is the stuck task.
        k.send_line("echo SOFTLOCKUP > /sys/kernel/debug/provoke-crash/DIRECT")
        assert k.wait_exit(60) == 3
        out = k.tail(20000)
        m = re.search(r"BUG: soft lockup - CPU#(\d+) stuck for (\d+)s! \[bash:(\d+)\]", out)
        assert m and int(m.group(2)) >= 2, out
        trace = out[out.index("Call Trace:"):]
        assert re.search(r" lkdtm_SOFTLOCKUP\+0x", trace), trace
        assert "Kernel panic - not syncing: softlockup" in out
    finally:
        k.close()


def test_no_false_positive_when_busy(lucid):
    # Long, CPU-heavy work that stays preemptible must not look like a lockup.
    out = lucid.run("run_test -t 8 -r 1000", timeout=120)
    assert "ok" in out
    assert "soft lockup" not in lucid.run("dmesg")


BOOT = {"cmdline": "watchdog_thresh=1"}

"""The sanitizers in the kernel: `crash ubsan` and `crash canary` give their reports.

The stack protector is in every build; UBSAN only in `make UBSAN=1` builds, which make test runs
these tests against too (LUCID_BUILD=build-ubsan). Which kernel this is comes from the flags its
objects were built with, $(B)/kcflags.
"""
import os
import re

import lucid
from lucid import Lucid


def build_flags():
    build = os.environ.get("LUCID_BUILD") or lucid.BUILD
    with open(os.path.join(build, "kcflags")) as f:
        return f.read()


def crash(kind):
    """Boots, types `crash kind`; returns (QEMU's exit status, console), or (None, console)
    when the kernel refused and is still running."""
    k = Lucid()
    try:
        k.send_line("crash " + kind)
        i = k.p.expect([lucid.PROMPT, lucid.pexpect.EOF], timeout=60)
        if i == 0:
            return None, k.p.before
        return k.wait_exit(10), k.tail(20000)
    finally:
        k.close()


def test_crash_ubsan():
    status, out = crash("ubsan")
    if "-fsanitize=" not in build_flags():
        assert status is None and "this kernel was built without UBSAN" in out, out
        return
    assert status == 3, out
    where = r"kernel/shell/cmd/cmd_crash\.c:\d+:\d+"
    assert re.search(r"UBSAN: signed-integer-overflow in %s\r?\n" % where, out), out
    assert "2147483647 + 1 cannot be represented in type 'int'" in out, out
    trace = out[out.index("Call Trace:"):]
    assert re.search(r" crash_ubsan\+0x", trace) and re.search(r" cmd_crash\+0x", trace), trace
    assert re.search(r"Kernel panic - not syncing: UBSAN: signed-integer-overflow in " + where,
                     out), out


def test_crash_canary():
    status, out = crash("canary")
    if "-fstack-protector" not in build_flags():
        assert status is None and "built without the stack protector" in out, out
        return
    assert status == 3, out
    assert re.search(r"Kernel panic - not syncing: stack-protector: Kernel stack is corrupted "
                     r"in: crash_canary\+0x[0-9a-f]+/0x[0-9a-f]+", out), out
    trace = out[out.index("Call Trace:"):]
    assert re.search(r" __stack_chk_fail\+0x", trace), trace


def test_crash_lockdep():
    """kernel/sched/lockdep.h's checks WARN when their condition is broken, and only then: the mutex
    check in every build, the spin lock, interrupt and preemption checks where CONFIG_DEBUG_ASSERT
    compiles them in (make DEBUG=1, make UBSAN=1)."""
    k = Lucid()
    try:
        out = k.run("crash lockdep", timeout=60)
        assert k.status() == 0
        warned = re.findall(r"WARNING: at kernel/shell/cmd/cmd_crash\.c:\d+ (\w+)", out)
        expected = ["crash_lockdep_mutex"]
        if "-DCONFIG_DEBUG_ASSERT" in build_flags():
            expected += ["crash_lockdep_spinlock", "crash_lockdep_irqs",
                         "crash_lockdep_preemption"]
        # The first calls, with the conditions kept, said nothing: one WARN per check.
        assert warned == expected, out
        assert k.run("echo still alive") == "still alive\n"
    finally:
        k.close()

"""The sanitizers and invariant checks in the kernel: lkdtm's OVERFLOW_SIGNED, CORRUPT_STACK,
LOCKDEP, PREEMPT_LEAK and ATOMIC_SLEEP give their reports.

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


DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"  # lkdtm's (kernel/debug/lkdtm.c)


def crash(kind):
    """Boots, writes crash type kind to lkdtm's DIRECT; returns (QEMU's exit status, console),
    or (None, console) when the kernel refused and is still running."""
    k = Lucid()
    try:
        k.send_line("echo %s > %s" % (kind, DIRECT))
        i = k.p.expect([lucid.PROMPT, lucid.pexpect.EOF], timeout=60)
        if i == 0:
            return None, k.p.before
        return k.wait_exit(10), k.tail(20000)
    finally:
        k.close()


def test_crash_ubsan():
    status, out = crash("OVERFLOW_SIGNED")
    if "-fsanitize=" not in build_flags():
        # lkdtm's answer for a type the kernel lacks the config for: XFAIL, and nothing done
        assert status is None and "lkdtm: XFAIL: OVERFLOW_SIGNED: this kernel was built " \
            "without UBSAN" in out, out
        return
    assert status == 3, out
    where = r"kernel/debug/lkdtm\.c:\d+:\d+"
    assert re.search(r"UBSAN: signed-integer-overflow in %s\r?\n" % where, out), out
    assert "2147483647 + 1 cannot be represented in type 'int'" in out, out
    trace = out[out.index("Call Trace:"):]
    assert re.search(r" lkdtm_OVERFLOW_SIGNED\+0x", trace) and \
        re.search(r" lkdtm_do_action\+0x", trace), trace
    assert re.search(r"Kernel panic - not syncing: UBSAN: signed-integer-overflow in " + where,
                     out), out


def test_crash_canary():
    status, out = crash("CORRUPT_STACK")
    if "-fstack-protector" not in build_flags():
        assert status is None and "lkdtm: XFAIL: CORRUPT_STACK: this kernel was built " \
            "without the stack protector" in out, out
        return
    assert status == 3, out
    assert re.search(r"Kernel panic - not syncing: stack-protector: Kernel stack is corrupted "
                     r"in: lkdtm_CORRUPT_STACK\+0x[0-9a-f]+/0x[0-9a-f]+", out), out
    trace = out[out.index("Call Trace:"):]
    assert re.search(r" __stack_chk_fail\+0x", trace), trace


def test_crash_lockdep():
    """kernel/locking/lockdep.h's checks WARN when their condition is broken, and only then: the mutex
    check in every build, the spin lock, interrupt and preemption checks where CONFIG_DEBUG_ASSERT
    compiles them in (make DEBUG=1, make UBSAN=1)."""
    k = Lucid()
    try:
        out = k.run("echo LOCKDEP > " + DIRECT, timeout=60)
        assert k.status() == 0
        warned = re.findall(r"WARNING: at kernel/debug/lkdtm\.c:\d+ (\w+)", out)
        expected = ["lkdtm_lockdep_mutex"]
        if "-DCONFIG_DEBUG_ASSERT" in build_flags():
            expected += ["lkdtm_lockdep_spinlock", "lkdtm_lockdep_irqs",
                         "lkdtm_lockdep_preemption"]
        # The first calls, with the conditions kept, said nothing: one WARN per check.
        assert warned == expected, out
        assert k.run("echo still alive") == "still alive\n"
    finally:
        k.close()


def test_crash_preempt_leak():
    """A system call that returns with preemption still disabled (lkdtm's PREEMPT_LEAK, Lucid's
    own) is named on its way back to user mode, rather than by a later "scheduling while atomic"
    of whichever task calls schedule() next on that CPU (kernel/sched/sched.c)."""
    status, out = crash("PREEMPT_LEAK")
    assert status == 3, out
    assert "Kernel panic - not syncing: preempt_count leaked by write: 0x00000001, " \
        "was 0x00000000" in out, out
    assert "scheduling while atomic" not in out, out


def test_crash_atomic_sleep():
    """A mutex taken with preemption off (lkdtm's ATOMIC_SLEEP) is reported by might_sleep() on
    this call, though the mutex is free and nothing sleeps: schedule()'s own check would see it
    only on a call that finds the mutex held (kernel/sched/sched.c, __might_sleep). The kernel
    goes on, and a second report within the second is not printed (Linux's rate limit)."""
    k = Lucid(allow_sleep_bugs=True)
    try:
        pid = k.run("echo $$").strip()  # the shell: echo is its builtin, the write its own
        out = k.run("echo ATOMIC_SLEEP > %s; echo ATOMIC_SLEEP > %s" % (DIRECT, DIRECT),
                    timeout=60)
        assert k.status() == 0, out
        reports = re.findall(r"BUG: sleeping function called from invalid context at "
                             r"kernel/locking/mutex\.c:\d+", out)
        assert len(reports) == 1, out
        assert "in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: %s, name: bash" % pid \
            in out, out
        assert "preempt_count: 1, expected: 0" in out, out
        trace = out[out.index("Call Trace:"):]
        assert re.search(r" mutex_lock\+0x", trace) and \
            re.search(r" lkdtm_ATOMIC_SLEEP\+0x", trace), trace
        assert "scheduling while atomic" not in out, out
        assert k.run("echo still alive") == "still alive\n"
    finally:
        k.close()

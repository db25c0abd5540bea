"""The x86-64 system-call entry's corner cases, judged by Linux: tests/user/x86entry.c, built
with musl-gcc, prints the same on the host's Linux and in Lucid (test_syscalls.same_as_linux),
one part a test. None of them may fault in the kernel: each test also reads the log for an oops.
"""
import re

import test_syscalls

GP_LINE = re.compile(r"traps: x86entry\[\d+\] general protection fault ip:800000000000 "
                     r"sp:[0-9a-f]+ error:0\n")


def no_oops(log):
    for bad in ("Oops", "BUG:", "general protection fault:", "Kernel panic"):
        assert bad not in log, log


def entry_part(lucid, part):
    last = lucid.run("dmesg | tail -n 1")
    test_syscalls.same_as_linux(lucid, "x86entry", part)
    log = test_syscalls.new_log_lines(lucid, last)
    no_oops(log)
    return log


def test_trap_flag_across_a_system_call(lucid):
    # A program that sets TF with popf and calls getpid: one SIGTRAP per instruction, TRAP_TRACE
    # and si_addr the next instruction, trapno 1; none for the syscall itself and the first after
    # the instruction that follows it (the return is IRET, not SYSRET, whose TF traps at once).
    # Before: SIGTRAP for ever at the same address, si_addr 0.
    entry_part(lucid, "tf")


def test_syscall_number_high_bits_and_x32(lucid):
    # Linux 6.1 takes the number as an int: RAX's high half is ignored (0x100000027 is getpid),
    # bit 31 makes it negative (ENOSYS), the x32 bit is ENOSYS without the x32 ABI, -1 is ENOSYS.
    entry_part(lucid, "nr")


def test_rt_sigreturn_to_a_non_canonical_rip(lucid):
    # A handler that sets its ucontext's RIP to a non-canonical address: SIGSEGV (SI_KERNEL,
    # trapno 13) on the program's sigaltstack, with that RIP in the new handler's ucontext;
    # canonical addresses outside user space fault there (SEGV_MAPERR, err 0x15). Without a
    # handler, or with SIGSEGV blocked, the process dies of it, with Linux's log line.
    log = entry_part(lucid, "sigreturn")
    assert len(GP_LINE.findall(log)) == 2, log


def test_sysret_never_to_the_end_of_user_space(lucid):
    # CVE-2012-0217's class: a syscall in the last two bytes below TASK_SIZE_MAX returns to
    # TASK_SIZE_MAX through IRET, never SYSRET; the call completes (RAX is the pid) and the
    # program takes SIGSEGV at that address, in ring 3.
    entry_part(lucid, "sysret")

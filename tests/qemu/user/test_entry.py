"""The x86-64 system-call entry's corner cases, judged by Linux: tests/user/x86entry.c, built
with musl-gcc, prints the same on the host's Linux and in Lucid (test_syscalls.same_as_linux),
one part a test. None of them may fault in the kernel: each test also reads the log for an oops.
"""
import os
import re
import subprocess

import test_syscalls
from lucid import BUILD

GP_LINE = re.compile(r"traps: x86entry\[\d+\] general protection fault ip:800000000000 "
                     r"sp:[0-9a-f]+ error:0\n")


def no_oops(log):
    for bad in ("Oops", "BUG:", "general protection fault:", "Kernel panic"):
        assert bad not in log, log


# The one answer of x86entry that depends on who made the CPU: IRET to a non-canonical RSP
# faults on AMD's (#GP, which Linux fixes up into SIGSEGV, trapno 13) and not on Intel's, where
# the program's first use of its stack does (#SS: SIGBUS, trapno 12). Lucid answers as Linux on
# its own vCPU (QEMU's qemu64 calls itself AuthenticAMD); when the host's CPU is the other
# maker's, the host's line is turned into what Linux prints on Lucid's.
RSP_FAULT = {"amd": "SIGSEGV: signo=11 code=128 addr=0 rsp=0x800000000000 trapno=13 err=0",
             "intel": "SIGBUS: signo=7 code=128 addr=0 rsp=0x800000000000 trapno=12 err=0"}


def maker(vendor_line):
    return "amd" if "AuthenticAMD" in vendor_line or "HygonGenuine" in vendor_line else "intel"


def as_on_lucids_cpu(lucid):
    host = maker(test_syscalls.on_linux("x86entry", "vendor"))
    guest = maker(test_syscalls.on_lucid(lucid, "x86entry", "vendor"))
    return lambda want: want.replace(RSP_FAULT[host], RSP_FAULT[guest])


def entry_part(lucid, part, fix=None):
    last = lucid.run("dmesg | tail -n 1")
    test_syscalls.same_as_linux(lucid, "x86entry", part, fix=fix)
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
    log = entry_part(lucid, "sigreturn", as_on_lucids_cpu(lucid))
    assert len(GP_LINE.findall(log)) == 2, log


def symbol_file_offset(path, symbol):
    """symbol's offset in the file, as uprobe_events takes it (test_uprobes.py's file_offset)."""
    nm = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    addr = int(next(l.split()[0] for l in nm.splitlines() if l.split()[-1] == symbol), 16)
    phdrs = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True,
                           check=True).stdout
    for l in phdrs.splitlines():
        w = l.split()
        if w and w[0] == "LOAD" and int(w[2], 16) <= addr < int(w[2], 16) + int(w[4], 16):
            return addr - int(w[2], 16) + int(w[1], 16)
    raise AssertionError("%s is in no segment of %s" % (symbol, path))


def test_uretprobe_to_a_non_canonical_return_address(lucid):
    # A function entered by a jmp with a made-up non-canonical return address: its ret faults
    # in ring 3, #GP (x86 CPUs report it at the ret, QEMU's emulation at the address, so this
    # one is not compared with the host). Under a uretprobe, the ret goes to the trampoline,
    # and the kernel would IRET to that address: the program gets the SIGSEGV Linux's gets
    # from its fixed-up #GP instead (SI_KERNEL, trapno 13, RIP the return address), no oops,
    # and the ordinary call before it still fires the probe.
    out = lucid.run("x86entry uret", 60)
    assert out.startswith("uret: an ordinary call returned\nuret: SIGSEGV signo=11 code=128 "
                          "addr=0 trapno=13 err=0 at the "), out
    off = symbol_file_offset(os.path.join(BUILD, "user", "x86entry"), "uret_target")
    t = "cd /sys/kernel/tracing && "
    lucid.run(t + "echo 'r:uret /bin/x86entry:%#x' > uprobe_events && "
              "echo 1 > events/uprobes/uret/enable && echo > trace" % off)
    try:
        last = lucid.run("dmesg | tail -n 1")
        out = lucid.run("x86entry uret", 60)
        assert out == ("uret: an ordinary call returned\n"
                       "uret: SIGSEGV signo=11 code=128 addr=0 trapno=13 err=0 at the return "
                       "address\n"), out
        no_oops(test_syscalls.new_log_lines(lucid, last))
        hits = lucid.run(t + "grep -c ' uret: (' trace")
        assert hits == "2\n", lucid.run(t + "cat trace")
    finally:
        lucid.run(t + "echo 0 > events/uprobes/enable; echo > uprobe_events")


def test_sysret_never_to_the_end_of_user_space(lucid):
    # CVE-2012-0217's class: a syscall in the last two bytes below TASK_SIZE_MAX returns to
    # TASK_SIZE_MAX through IRET, never SYSRET; the call completes (RAX is the pid) and the
    # program takes SIGSEGV at that address, in ring 3.
    entry_part(lucid, "sysret")

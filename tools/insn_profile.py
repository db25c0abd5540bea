#!/usr/bin/python3
"""make profile EVENT=function|graph|printk|fork|busybox: where the instructions of one event go.

`make bench` says how many instructions an event costs; this says which functions they are spent
in. It boots the kernel in QEMU with one CPU and a gdb stub, sets the tracer up at the shell,
puts a hardware breakpoint where the event begins, lets the trigger command run into it, and
then single-steps the guest, one instruction at a time, until the event is over. Each step is
charged to the function its address belongs to.

The trigger makes the event happen several times in a row; the first is skipped, since an
event that follows a long pause at the prompt takes the ring buffer's slow path (a time
extend record).

The same file runs twice: as a program (below, boots QEMU and starts gdb) and inside gdb
(gdb_main, which does the stepping).
"""
import collections
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TRACING = "cd /sys/kernel/debug/tracing"
MAX_STEPS = 5000

# name: (shell commands that set it up, where the event starts, the function that runs again
#        when it is over, the command that triggers it, what is counted)
PROFILES = {
    "function": ([TRACING, "echo ftest_leaf > set_ftrace_filter", "echo function > current_tracer"],
                 "ftrace_caller", "ftest_leaf", "ftest call",
                 "one function-tracer event: from the patched call site to the traced function"),
    "graph": ([TRACING, "echo ftest_leaf > set_ftrace_filter",
               "echo function_graph > current_tracer"],
              "ftrace_caller", "ftest_mid", "ftest call",
              "one function_graph call: entry, the traced function (a few instructions), return"),
    "printk": ([TRACING], "__trace_bprintk", "cmd_ftest", "ftest printk 3",
               "one trace_printk(\"ftrace test %d\\n\", 42) under the nop tracer"),
    # lbench's fork loops: one whole iteration, from one fork to the next (the child's run and
    # exit, the parent's wait and its user code between the calls).
    "fork": ([], "sys_fork", "sys_fork", "/bin/lbench suite 1",
             "one fork + exit + wait of lbench's fork_exit_wait_libc loop, fork to fork"),
    # make bench's busybox loop: one iteration of `for ...; do /bin/true; done` in busybox sh,
    # from one fork (clone) to the next: the fork, the child's exec of /bin/true (busybox) and
    # its run and exit, the parent's wait and its loop code. The phases (below) say how much of
    # it is user space and how much each system call and page fault took in the kernel.
    "busybox": ([], "sys_clone", "sys_clone",
                "/bin/sh -c 'for i in 1 2 3; do /bin/true; done'",
                "one fork + exec + exit + wait of busybox sh running /bin/true, clone to clone"),
}
# Steps before giving up: an event is a few thousand instructions, a fork tens of thousands.
MAX_STEPS_OF = {"fork": 200000, "busybox": 1000000}

# One system call of lbench's, from `syscall` back to user space (USER_STOP): the breakpoint's
# condition picks the call out by its registers (lbench's fds: 3 /dev/null, 4 /dev/zero, 5 and 6
# the pipe's ends in `suite`; 4 trace_marker in `trace`).
USER_STOP = "user space"
LBENCH = "/bin/lbench suite 1"
for _name, _cond, _trigger, _what in [
        ("getpid", "$rax == 39", LBENCH, "getpid"),
        ("write", "$rax == 1 && $rdi == 3 && $rdx == 1", LBENCH, "write of 1 byte to /dev/null"),
        ("read", "$rax == 0 && $rdi == 4 && $rdx == 1", LBENCH, "read of 1 byte from /dev/zero"),
        ("open", "$rax == 257", LBENCH, "openat of /init"),
        ("pipe_write", "$rax == 1 && $rdi == 6", LBENCH, "write of 1 byte into a pipe"),
        ("pipe_read", "$rax == 0 && $rdi == 5", LBENCH, "read of 1 byte from a pipe"),
        ("marker", "$rax == 1 && $rdi == 4 && $rdx == 1", "/bin/lbench trace",
         "write of 1 byte to trace_marker, refused: lbench's first ones run with tracing_on 0 "
         "(the path to the ring buffer, without the record)")]:
    PROFILES[_name] = ([], "entry_SYSCALL_64 if " + _cond, USER_STOP, _trigger,
                       "one system call: " + _what)
# The probe lines of `make bench` (docs/design/probe-cost.md): one getpid with the probe or
# filter set up, the whole system call, as the lines above.
for _name, _setup in [
        ("kretprobe", "echo 'r:b sys_getpid ret=$retval' > kprobe_events; "
         "echo 1 > events/kprobes/b/enable"),
        ("kprobe", "echo 'p:b sys_getpid' > kprobe_events; echo 1 > events/kprobes/b/enable"),
        ("sys_enter_filter", "echo 'id == 99999' > events/raw_syscalls/sys_enter/filter; "
         "echo 1 > events/raw_syscalls/sys_enter/enable")]:
    PROFILES[_name] = ([TRACING, _setup], "entry_SYSCALL_64 if $rax == 39", USER_STOP, LBENCH,
                       "one getpid with " + _setup)
USER_HALF_END = 1 << 47  # below: user space
USER = "[user_space]"  # one word, as the function names


def phase_of(dbg, phase, sym, pc, entry):
    """What the instruction at pc is part of: user space, one system call (named at its entry's
    first instruction, from RAX), a page fault, or another interrupt or exception from user
    space. A switch to another task inside the kernel stays charged to the call that switched,
    until that task returns to user space."""
    if pc < USER_HALF_END:
        return USER
    if pc == entry:
        nr = int(dbg.parse_and_eval("$rax"))
        try:
            return "syscall " + dbg.parse_and_eval("syscall_names[%d]" % nr).string()
        except dbg.error:
            return "syscall %d" % nr
    if phase == USER:
        return "interrupt or exception"
    if sym == "do_page_fault" and phase == "interrupt or exception":
        return "page fault"
    return phase


def gdb_main():
    import gdb  # noqa: F401 (only inside gdb)
    start, stop = os.environ["PROFILE_START"], os.environ["PROFILE_STOP"]
    gdb.execute("target remote :" + os.environ["PROFILE_PORT"])
    gdb.execute("hbreak " + start)
    open(os.environ["PROFILE_READY"], "w").close()  # the guest is stopped: type the trigger now
    gdb.execute("continue")
    # The first event after a while at the prompt is not a typical one (its time delta is too
    # big for its header, so it takes the ring buffer's slow path): count the second.
    gdb.execute("continue")
    counts = collections.Counter()
    phases = collections.Counter()
    # Until the first switch of phase: the function the breakpoint is in, a system call's?
    first = start.split()[0]
    phase = "syscall " + first[len("sys_"):] if first.startswith("sys_") else first
    entry = int(gdb.parse_and_eval("(unsigned long)&entry_SYSCALL_64"))
    order = []
    steps = 0
    max_steps = int(os.environ.get("PROFILE_MAX_STEPS", MAX_STEPS))
    left = False
    while steps < max_steps:
        pc = int(gdb.parse_and_eval("$pc"))
        where = gdb.execute("info symbol %d" % pc, to_string=True)
        sym = where.split(" in ")[0].split(" + ")[0].strip()
        if (sym == stop and left) or (stop == USER_STOP and pc < USER_HALF_END):
            break
        left = left or sym != stop  # where start is stop (fork to fork): once it is left
        if pc < USER_HALF_END:
            sym = USER
        phase = phase_of(gdb, phase, sym, pc, entry)
        phases[phase] += 1
        counts[sym] += 1
        if not order or order[-1] != sym:
            order.append(sym)
        gdb.execute("stepi", to_string=True)
        steps += 1
    print("PROFILE total: %d instructions" % steps)
    for name, n in phases.most_common() if len(phases) > 1 else []:
        print("PROFILE phase %8d  %s" % (n, name))
    for sym, n in counts.most_common():
        print("PROFILE %6d  %s" % (n, sym))
    print("PROFILE path: " + " -> ".join(order))
    gdb.execute("delete")
    gdb.execute("detach")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "function"
    if name not in PROFILES:
        sys.exit("usage: insn_profile.py [%s]" % "|".join(PROFILES))
    setup, start, stop, trigger, what = PROFILES[name]
    sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
    from lucid import Lucid
    port = random.randint(20000, 40000)
    # The ISO booted and the ELF gdb reads must be the same build (LUCID_BUILD, as the tests).
    build = os.environ.get("LUCID_BUILD") or os.path.join(ROOT, "build")
    k = Lucid(smp=1, extra=["-gdb", "tcp::%d" % port], build=build)
    try:
        for cmd in setup:
            k.run(cmd)
        ready = os.path.join(tempfile.mkdtemp(prefix="insn-profile-"), "ready")
        env = dict(os.environ, PROFILE_START=start, PROFILE_STOP=stop, PROFILE_PORT=str(port),
                   PROFILE_READY=ready, PROFILE_MAX_STEPS=str(MAX_STEPS_OF.get(name, MAX_STEPS)))
        gdb = subprocess.Popen(["gdb", "-batch", "-nx", "-ex", "set pagination off", "-x",
                                os.path.abspath(__file__), os.path.join(build, "lucid.elf")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + 60
        while not os.path.exists(ready):  # gdb attached and the breakpoint set
            if time.monotonic() > deadline or gdb.poll() is not None:
                gdb.kill()
                sys.exit("insn_profile: gdb did not attach:\n" + gdb.communicate()[0])
            time.sleep(0.1)
        k.send_line(trigger)
        out, _ = gdb.communicate(timeout=1800)
    finally:
        k.close()
    lines = [line[len("PROFILE "):] for line in out.splitlines() if line.startswith("PROFILE ")]
    if not lines:
        sys.exit("insn_profile: gdb said:\n" + out)
    print("%s: %s" % (name, what))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    try:
        import gdb  # noqa: F401
    except ImportError:
        sys.exit(main())
    gdb_main()

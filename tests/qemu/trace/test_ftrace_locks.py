"""Lock functions out of line and traceable, as Linux's, and Linux 6.1's function names.

kernel/locking/spinlock.h: spin_lock() and the rest call _raw_spin_lock() and its kind, each a
function with a call site, so `echo '*spin*lock*' > set_ftrace_filter` works as on Linux. The
tracer's own paths take their locks inline, so tracing the lock functions must neither recurse
nor deadlock: these tests trace them under the function tracer, function_graph, stack traces
on every event and the stack tracer, with work on every CPU, and the kernel must stay healthy.
"""
import re

from tracefs import T, cat, ok, reset_tracing, sh

BOOT = {"cmdline": "ftrace_selftest"}

SPIN_LOCKS = ["_raw_spin_lock", "_raw_spin_trylock", "_raw_spin_unlock", "_raw_spin_lock_irqsave",
              "_raw_spin_unlock_irqrestore", "_raw_spin_lock_irq", "_raw_spin_unlock_irq"]
MUTEXES = ["mutex_lock", "mutex_trylock", "mutex_unlock"]
# Work that takes many locks on every CPU: forks, execs, pipes, files, /proc.
# In a subshell, so that bash reports no jobs; /proc changes under ls, whose complaints go too.
WORK = "(for i in 1 2 3 4; do (ls -R /proc; cat /proc/meminfo | wc -l) > /dev/null 2>&1 & done; wait)"
# Less of it where every event also records a stack (slow under QEMU), still on two CPUs at once.
LIGHT_WORK = "(for i in 1 2; do (ls -R /proc/self; cat /proc/meminfo | wc -l) > /dev/null 2>&1 & done; wait)"
EVENT = re.compile(r"^\s*\S.*-\d+\s+\[\d{3}\] \S{4}\s+\d+\.\d{6}: (\w[\w.]*) <-([\w.]+)$")
# Linux 6.1's names, and the names Lucid had for the same functions before.
RENAMED = {"kernel_clone": "do_fork", "machine_restart": "machine_reboot",
           "trap_init": "traps_init", "do_notify_pidfd": "pidfd_notify_exit",
           "sysrq_handle_showstate": "sysrq_show_state", "disassociate_ctty": "disassociate",
           "close_fd": "do_close", "do_close_on_exec": "vfs_close_on_exec",
           "d_make_root": "d_alloc_root", "do_pipe_flags": "do_pipe",
           "do_sys_poll": "poll_common", "do_symlinkat": "do_symlink", "mnt_init": "mount_init",
           "forget_original_parent": "exit_children", "vm_area_free": "vma_free",
           "chmod_common": "chmod_inode"}


def functions(text):
    """The function names of a function trace's event lines (stack frames skipped)."""
    return [m.group(1) for m in map(EVENT.match, text.splitlines()) if m]


def traced_functions(k):
    """The set of functions the trace's event lines name, found in Lucid: a trace of every lock
    under WORK is megabytes, and printing it over the serial console of a loaded machine can
    outlast any timeout; its few distinct names cannot (sed keeps EVENT's name, sort -u them)."""
    names = sh(k, r"sed -n 's/^.*-[0-9]* *\[[0-9]*\] .... *[0-9.]*: \([A-Za-z_][A-Za-z0-9_.]*\) "
               r"<-[A-Za-z0-9_.]*$/\1/p' %s/trace | sort -u" % T, timeout=120).split()
    assert k.status() == 0
    return set(names)


def count(k, pattern):
    """How many lines of the trace match the extended regex pattern (counted in Lucid)."""
    return int(sh(k, "grep -cE '%s' %s/trace" % (pattern, T), timeout=120))


def healthy(k):
    """A shell that still answers, on a kernel that warned of nothing."""
    ok(k, "echo nop > %s/current_tracer" % T)
    out = sh(k, "echo alive; ls / | grep -cx bin")
    assert out == "alive\n1\n", out
    log = k.dmesg()
    for bad in ["WARNING:", "BUG:", "soft lockup", "recursion"]:
        assert bad not in log, log[-3000:]


def test_selftests_pass(lucid):
    """The boot self-tests trace every function, the lock functions among them."""
    log = lucid.dmesg()
    for name in ["dynamic ftrace", "function graph hook", "stack tracer", "tracer function"]:
        assert "Testing %s: PASSED" % name in log, log[-3000:]
    assert "FAILED" not in log


def test_lock_functions_listed(lucid):
    reset_tracing(lucid)
    listed = set(cat(lucid, "available_filter_functions", timeout=120).split())
    for name in SPIN_LOCKS + MUTEXES:
        assert name in listed, name
    # The globs of Linux habits: every spin lock function and nothing else.
    ok(lucid, "echo '*spin*lock*' > set_ftrace_filter")
    assert sorted(cat(lucid, "set_ftrace_filter").split()) == sorted(SPIN_LOCKS)
    ok(lucid, "echo '*unlock*' > set_ftrace_filter")
    got = set(cat(lucid, "set_ftrace_filter").split())
    assert {"_raw_spin_unlock", "_raw_spin_unlock_irqrestore", "_raw_spin_unlock_irq",
            "mutex_unlock"} <= got, got
    ok(lucid, "echo > set_ftrace_filter")


def test_trace_raw_spin_lock(lucid):
    """The issue's example: `echo _raw_spin_lock > set_ftrace_filter` records its callers."""
    reset_tracing(lucid)
    ok(lucid, "echo _raw_spin_lock > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, WORK, timeout=300)
    ok(lucid, "echo 0 > tracing_on")
    funcs = traced_functions(lucid)
    assert funcs == {"_raw_spin_lock"}, funcs
    assert cat(lucid, "enabled_functions").split()[0] == "_raw_spin_lock"
    healthy(lucid)


def test_trace_every_lock_function(lucid):
    """Every spin lock and mutex function at once, under load on every CPU."""
    reset_tracing(lucid)
    ok(lucid, "echo '*spin*lock*' > set_ftrace_filter")
    ok(lucid, "echo 'mutex_*lock' >> set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, WORK, timeout=300)
    ok(lucid, "echo 0 > tracing_on")
    funcs = traced_functions(lucid)
    for name in ["_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore", "mutex_lock",
                 "mutex_unlock"]:
        assert name in funcs, funcs
    assert funcs <= set(SPIN_LOCKS + MUTEXES), funcs
    healthy(lucid)


def test_lock_functions_with_stacks_and_graph(lucid):
    """What would deadlock if the tracer took a traced lock: a stack trace per event (the
    unwinder looks modules up under their lock), the stack tracer (its max_lock) and printk
    while the unlock functions are traced; then function_graph over every lock function."""
    reset_tracing(lucid)
    ok(lucid, "echo '*spin_unlock*' > set_ftrace_filter")
    ok(lucid, "echo 1 > options/func_stack_trace")
    ok(lucid, "echo 1 > /proc/sys/kernel/stack_tracer_enabled")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, LIGHT_WORK, timeout=300)
    ok(lucid, "cat %s/stack_trace > /dev/null; dmesg > /dev/null" % T, timeout=120)
    ok(lucid, "echo 0 > tracing_on")
    ok(lucid, "echo 0 > /proc/sys/kernel/stack_tracer_enabled")
    assert count(lucid, "_raw_spin_unlock_irqrestore <-") > 0
    assert count(lucid, "^ => ") > 0
    ok(lucid, "echo 0 > options/func_stack_trace")
    healthy(lucid)

    reset_tracing(lucid)
    ok(lucid, "echo '*spin*lock*' > set_ftrace_filter")
    ok(lucid, "echo 'mutex_*lock' >> set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, WORK, timeout=300)
    ok(lucid, "echo 0 > tracing_on")
    assert count(lucid, r"\| +_raw_spin_lock_irqsave\(\);") > 0
    healthy(lucid)


def test_linux_names(lucid):
    """Linux 6.1's names where Lucid has the same function: the old names are gone."""
    reset_tracing(lucid)
    listed = set(cat(lucid, "available_filter_functions", timeout=120).split())
    for new, old in RENAMED.items():
        assert new in listed and old not in listed, (new, old)
    ok(lucid, "echo kernel_clone > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "ls / > /dev/null; (true) ; echo x | cat > /dev/null")
    ok(lucid, "echo 0 > tracing_on")
    funcs = functions(cat(lucid, "trace"))
    assert funcs and set(funcs) == {"kernel_clone"}, funcs
    healthy(lucid)

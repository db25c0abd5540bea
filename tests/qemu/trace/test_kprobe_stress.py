"""kprobe events on every function, through kprobe_events.

tests/user/kpevstress.c writes the definitions itself (one process, no shell per write, so that the
whole run stays within a minute or so under TCG): for each function of
available_filter_functions in turn, a kprobe event on its entry, one on its first inner
instruction (the first offset not refused with EILSEQ) and a kretprobe event; enabled together
for a moment, disabled, counted and removed. Every third round the events have a filter, every
fourth options/stacktrace is on. Meanwhile run_test's kernel threads and two shell loops (ls,
sh, cat: user programs forking and exiting) keep the other CPUs busy. kpevstress checks each
round (its docstring says how): no record without a hit, no hit before the disable without its
record (but one in flight per CPU), no pid-0 record past the filter, one stack trace per record
with stacktrace on, nothing lost from the buffer. The test then wants no oops or warning, every
probe gone, and the kernel still answering.

Sampled: the whole list (about 1000 functions once, 1378 now) took ~50 s under TCG alone but
minutes beside the workload on a busy host, and grows with the kernel: an idle CI run once
passed the 240-s bound at every second function. So each run takes about FUNCS_PER_RUN of them,
every step-th from a random first (printed on failure): step runs cover the list. `kpevstress
1` does every function, by hand.
"""
import random
import re

from tracefs import cat, sh

# Heavy, kprobes on every function while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True

BOOT = {"timeout": 120}
FUNCS_PER_RUN = 350  # functions a run takes (see the docstring)
SUMMARY = re.compile(r"^kpevstress: (?P<funcs>\d+) functions, (?P<planted>\d+) probes planted, "
                     r"(?P<refused>\d+) refused, 0 failed; hits (?P<hits>\d+), records "
                     r"(?P<records>\d+); (?P<filtered>\d+) rounds filtered, (?P<stacked>\d+) "
                     r"with stacks \((?P<traces>\d+) traces\)\n$")
WORKLOAD = ("(while [ ! -e /tmp/stop ]; do run_test -t 2 -r 20 > /dev/null; "
            "ls -R /proc/self > /dev/null; sh -c 'echo $$' > /dev/null; done) "
            "> /dev/null 2>&1 &",
            "(while [ ! -e /tmp/stop ]; do cat /etc/passwd /proc/meminfo > /dev/null; "
            "sh -c 'ls /bin' > /dev/null; done) > /dev/null 2>&1 &")


def test_kprobe_events_on_every_function_under_load(lucid):
    n_funcs = len(cat(lucid, "available_filter_functions").splitlines())
    step = max(1, -(-n_funcs // FUNCS_PER_RUN))  # rounded up: at most FUNCS_PER_RUN
    size_before = cat(lucid, "buffer_size_kb")
    sh(lucid, "rm -f /tmp/stop")
    for w in WORKLOAD:
        sh(lucid, w)
    first = random.randrange(step)
    try:
        # ~13 s alone, ~130 s beside the fork-bomb tests: a kernel that hangs fails in minutes
        out = sh(lucid, "kpevstress %d %d" % (step, first), timeout=240)
        status = lucid.status()
    finally:
        sh(lucid, "touch /tmp/stop; wait", timeout=60)
    assert status == 0, (first, out)
    m = SUMMARY.match(out)
    assert m, (first, out)
    got = {k: int(v) for k, v in m.groupdict().items()}
    assert got["funcs"] == len(range(first, n_funcs, step)), (got, n_funcs)
    # three each; refusals are the functions kprobes will not take (none expected today)
    assert got["planted"] + got["refused"] == 3 * got["funcs"], got
    assert got["planted"] > 2.5 * got["funcs"], got
    # something was hit and recorded, filtered and stack-traced (the workload is busy)
    assert got["hits"] > 0 and 0 < got["records"] <= got["hits"], got
    assert got["filtered"] > 0 and got["stacked"] > 0 and got["traces"] > 0, got
    # nothing left behind
    assert cat(lucid, "kprobe_events") == "" and cat(lucid, "kprobe_profile") == ""
    assert sh(lucid, "cat /sys/kernel/debug/kprobes/list") == ""
    assert cat(lucid, "buffer_size_kb") == size_before
    assert cat(lucid, "options/stacktrace") == "0\n"
    log = sh(lucid, "dmesg")
    assert "Oops" not in log and "BUG" not in log and "WARNING" not in log, log[-2000:]
    # and the kernel still works
    assert sh(lucid, "run_test -t 2 -r 5").startswith("run_test"), "run_test"
    assert sh(lucid, "echo alive") == "alive\n"


def test_usage(lucid):
    for bad in ("", "0", "x", "1 -1", "1 0 0", "1 0 4 extra"):
        assert sh(lucid, "kpevstress %s" % bad) == "usage: kpevstress STEP [FIRST [NCPUS]]\n", bad
        assert lucid.status() == 2, bad
    assert cat(lucid, "kprobe_events") == ""

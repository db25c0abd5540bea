"""The function profiler's files: function_profile_enabled, trace_stat/functionN.

Hits must match what ftest call does exactly (three calls of each of its functions), rows come
sorted by total time in Linux's format, enabling again starts from zero, and the graph-time and
sleep-time options change what a function's time includes, seen on busybox's `sleep`: its
clock_nanosleep(2) is sys_clock_nanosleep, which calls do_nanosleep, which spends its time switched
out (in schedule_timeout).
"""
import re

from tracefs import EINVAL, least_of, ok

BOOT = {"cmdline": ""}
T = "/sys/kernel/tracing"
SLEEP_CALL = "sys_clock_nanosleep"  # busybox sleep's one system call (glibc's nanosleep)
NANOSLEEP = "do_nanosleep"  # what it sleeps in: a signal ends it
HEADER = ("  Function                               Hit    Time            Avg             s^2\n"
          "  --------                               ---    ----            ---             ---\n")
DURATION = r"(\d+(?:\.\d+)?) us *"
ROW = re.compile(r"^  (?P<name>.{30})  (?P<hits>[ \d]{9}\d)    (?P<time>%s)    (?P<avg>%s)    "
                 r"(?P<s2>%s)$" % (DURATION, DURATION, DURATION))


def sh(k, cmd):
    return k.run(cmd)


def ncpus(k):
    return int(re.search(r"(\d+) CPUs?,", k.dmesg()).group(1))


def us(text):
    return float(re.match(DURATION, text).group(1))


def stats(k):
    """{function: (hits, total us)} summed over every CPU; each file checked on the way."""
    total = {}
    for cpu in range(ncpus(k)):
        text = sh(k, "cat %s/trace_stat/function%d" % (T, cpu))
        assert text.startswith(HEADER), text[:300]
        times = []
        for line in text[len(HEADER):].splitlines():
            m = ROW.match(line)
            assert m, "malformed row %r" % line
            name, hits, time = m.group("name").strip(), int(m.group("hits")), us(m.group("time"))
            assert hits > 0
            times.append(time)
            h, t = total.get(name, (0, 0.0))
            total[name] = (h + hits, t + time)
        assert times == sorted(times, reverse=True), "not sorted by time on CPU %d" % cpu
    return total


def profile(k, *cmds):
    ok(k, "echo 1 > %s/function_profile_enabled" % T)
    for c in cmds:
        ok(k, c)
    ok(k, "echo 0 > %s/function_profile_enabled" % T)
    return stats(k)


def test_files(lucid):
    listing = sh(lucid, "ls -l %s %s/trace_stat" % (T, T))
    modes = {l.split()[-1]: l.split()[0] for l in listing.splitlines() if l.strip()}
    assert modes["function_profile_enabled"] == "-rw-r-----"
    for cpu in range(ncpus(lucid)):
        assert modes["function%d" % cpu] == "-r--r-----"
    assert sh(lucid, "cat %s/function_profile_enabled" % T) == "0\n"
    assert sh(lucid, "cat %s/options/graph-time" % T) == "1\n"
    assert sh(lucid, "cat %s/options/sleep-time" % T) == "1\n"
    # Never enabled: just the header.
    assert sh(lucid, "cat %s/trace_stat/function0" % T) == HEADER
    # Linux's function_graph options: not core options, so not in trace_options under nop.
    opts = sh(lucid, "cat %s/trace_options" % T)
    assert "graph-time" not in opts and "sleep-time" not in opts


def test_hits_match_ftest_call(lucid):
    st = profile(lucid, "ftest call")
    for f in ["ftest_outer", "ftest_mid", "ftest_leaf"]:
        assert st[f][0] == 3, (f, st.get(f))
    # graph-time on: each one's time includes the ones it called
    assert st["ftest_outer"][1] >= st["ftest_mid"][1] >= st["ftest_leaf"][1], st
    assert "ftest_delay" not in st and "cmd_ftest" in st
    # off: counting stops, what was counted stays
    ok(lucid, "ftest call")
    assert stats(lucid)["ftest_outer"][0] == 3


def test_enabling_again_starts_from_zero(lucid):
    profile(lucid, "ftest call", "ftest call")
    st = profile(lucid, "ftest call")
    assert [st[f][0] for f in ["ftest_outer", "ftest_mid", "ftest_leaf"]] == [3, 3, 3]
    # any number but 0 enables, as in Linux
    ok(lucid, "echo 2 > %s/function_profile_enabled" % T)
    assert sh(lucid, "cat %s/function_profile_enabled" % T) == "1\n"
    ok(lucid, "echo 0 > %s/function_profile_enabled" % T)


def test_bad_writes(lucid):
    for cmd in ["echo x > %s/function_profile_enabled", "echo -1 > %s/function_profile_enabled",
                "echo 2 > %s/options/graph-time", "echo y > %s/options/sleep-time"]:
        assert sh(lucid, cmd % T) == EINVAL, cmd
        assert lucid.status() == 1
    assert sh(lucid, "cat %s/function_profile_enabled" % T) == "0\n"
    assert sh(lucid, "cat %s/options/graph-time" % T) == "1\n"
    assert sh(lucid, "cat %s/options/sleep-time" % T) == "1\n"


def test_graph_time_and_sleep_time(lucid):
    # Both on: the system call's time includes do_nanosleep's, which includes the 200 ms asleep.
    st = profile(lucid, "sleep 0.2")
    assert st[NANOSLEEP][0] == 1 and st[SLEEP_CALL][0] == 1
    assert st[NANOSLEEP][1] >= 200000 and st[SLEEP_CALL][1] >= st[NANOSLEEP][1], st
    # graph-time off: each function's own time only, without its callees': the system call's
    # is small now, and the 200 ms are in whichever traced function was innermost when it slept
    ok(lucid, "echo 0 > %s/options/graph-time" % T)

    def own_times():
        """The larger of the two functions' own times, after checking the rest of the run."""
        st = profile(lucid, "sleep 0.2")
        assert st[SLEEP_CALL][0] == 1, st
        assert max(t for _, t in st.values()) >= 200000, st
        return max(st[SLEEP_CALL][1], st[NANOSLEEP][1])
    assert least_of(own_times, 50000) < 50000
    ok(lucid, "echo 1 > %s/options/graph-time" % T)
    # sleep-time off: do_nanosleep's time without the time it was switched out

    def nanosleep_time():
        st = profile(lucid, "sleep 0.2")
        assert st[NANOSLEEP][0] == 1, st
        return st[NANOSLEEP][1]
    ok(lucid, "echo 0 > %s/options/sleep-time" % T)
    assert least_of(nanosleep_time, 50000) < 50000
    ok(lucid, "echo 1 > %s/options/sleep-time" % T)

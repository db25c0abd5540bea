"""Synthetic events (trace/trace_events_synth.c), as Linux 6.1's.

"echo 'NAME TYPE FIELD; ...' >> synthetic_events" (or "s:[synthetic/]NAME ..." in
dynamic_events) makes events/synthetic/NAME with enable, filter, trigger, format and id. Both
files list it back as Linux does; '!NAME', '-:NAME' and '>' remove it, but not while it is
enabled, triggered on or held (EBUSY). A malformed definition is EINVAL with Linux's
error_log line and caret. The module synth_event_gen_test (Linux's sample) makes one from the
kernel and writes records with synth_event_trace() and synth_event_trace_array(): they read
back in trace, through filters and options/verbose, and in trace-cmd's report. The records a
hist trigger writes into them are test_hist_actions.py's.
"""

from tracefs import (COMMON_FIELDS, EBUSY, EEXIST, EINVAL, ENOENT, TRACE_EVENT_LINE, cat, fails,
                     free_kb, free_kb_back, last_error, modes, ok, reset_tracing, sh)


TRUNC_EBUSY = "-bash: synthetic_events: Device or resource busy\n"
DEF = "wakeup_latency u64 lat; pid_t pid; char comm[16]; char name[]; s8 small; " \
      "unsigned int cpu; gfp_t gfp"
SHOWN = "wakeup_latency\tu64 lat; pid_t pid; char[16] comm; char[] name; s8 small; " \
        "unsigned int cpu; gfp_t gfp\n"


def reset_synthetic(k):
    """reset_tracing(), and synth_event_gen_test unloaded (its events with it)."""
    sh(k, "rmmod synth_event_gen_test 2>/dev/null")
    reset_tracing(k)


def lines(k, name, where="trace"):
    out = []
    for l in cat(k, where).splitlines():
        if l.startswith("#"):
            continue
        m = TRACE_EVENT_LINE.match(l)
        assert m, l
        if m.group("event") == name:
            out.append(m.group("body"))
    return out


def test_files(lucid):
    reset_synthetic(lucid)
    assert modes(lucid)["synthetic_events"] == "-rw-r-----"
    assert cat(lucid, "synthetic_events") == ""
    readme = cat(lucid, "README")
    assert "\t           s:[synthetic/]<event> <field> [<field>]\n" in readme
    assert "  events/synthetic_events\t- Create/append/remove/show synthetic events\n" in readme
    # Linux 6.1's lines, word for word, as tools read them
    assert ("\t        onmatch(matching.event)  - invoke on addition or update\n"
            "\t        onmax(var)               - invoke if var exceeds current max\n"
            "\t        onchange(var)            - invoke action if var changes\n") in readme
    assert "\t        trace(<synthetic_event>,param list)  - generate synthetic event\n" in readme


def test_made_listed_and_its_files(lucid):
    reset_synthetic(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % DEF)
    assert cat(lucid, "synthetic_events") == SHOWN
    assert cat(lucid, "dynamic_events") == "s:synthetic/" + SHOWN
    assert sorted(modes(lucid, "events/synthetic/wakeup_latency")) == \
        ["enable", "filter", "format", "hist", "id", "trigger"]
    assert "synthetic:wakeup_latency" in cat(lucid, "available_events").split()
    ev_id = int(cat(lucid, "events/synthetic/wakeup_latency/id"))
    # Linux's layout: a u64 slot per field, 256 bytes for a char[N] whatever N says, a
    # __data_loc in a slot of its own for a char[]
    assert cat(lucid, "events/synthetic/wakeup_latency/format") == (
        "name: wakeup_latency\nID: %d\nformat:\n" % ev_id + (COMMON_FIELDS + "\n") +
        "\tfield:u64 lat;\toffset:8;\tsize:8;\tsigned:0;\n"
        "\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n"
        "\tfield:char comm[16];\toffset:24;\tsize:16;\tsigned:1;\n"
        "\tfield:__data_loc char[] name;\toffset:280;\tsize:8;\tsigned:1;\n"
        "\tfield:s8 small;\toffset:288;\tsize:1;\tsigned:1;\n"
        "\tfield:unsigned int cpu;\toffset:296;\tsize:4;\tsigned:0;\n"
        "\tfield:gfp_t gfp;\toffset:304;\tsize:4;\tsigned:0;\n\n"
        "print fmt: \"lat=%llu, pid=%d, comm=%.*s, name=%.*s, small=%d, cpu=%u, gfp=%x\", "
        "REC->lat, REC->pid, REC->comm, __get_str(name), REC->small, REC->cpu, REC->gfp\n")
    assert cat(lucid, "events/synthetic/wakeup_latency/enable") == "0\n"
    # the old syntax, fields without ';', is still Linux's
    ok(lucid, "echo 'old u64 a s32 b' >> synthetic_events")
    assert cat(lucid, "synthetic_events") == SHOWN + "old\tu64 a; s32 b\n"
    # removed by name, its files with it
    ok(lucid, "echo '!wakeup_latency' >> synthetic_events")
    assert cat(lucid, "synthetic_events") == "old\tu64 a; s32 b\n"
    assert "wakeup_latency" not in modes(lucid, "events/synthetic")
    ok(lucid, "echo '!old' >> synthetic_events")
    assert "synthetic" not in modes(lucid, "events")
    fails(lucid, "echo '!old' >> synthetic_events", ENOENT)


def test_dynamic_events_s_lines(lucid):
    reset_synthetic(lucid)
    ok(lucid, "echo 's:synthetic/one u64 a; char b[8]' >> dynamic_events")
    ok(lucid, "echo 's:two int x' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == \
        "s:synthetic/one\tu64 a; char[8] b\ns:synthetic/two\tint x\n"
    assert cat(lucid, "synthetic_events") == "one\tu64 a; char[8] b\ntwo\tint x\n"
    ok(lucid, "echo '-:synthetic/one' >> dynamic_events")
    ok(lucid, "echo '!s:two int x' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == ""
    fails(lucid, "echo '-:two' >> dynamic_events", ENOENT)
    # a kprobe beside them: each file lists its own kind, dynamic_events all
    ok(lucid, "echo 's:three u64 a' >> dynamic_events")
    ok(lucid, "echo 'p:kp sys_getpid' >> kprobe_events")
    assert cat(lucid, "synthetic_events") == "three\tu64 a\n"
    assert cat(lucid, "dynamic_events") == "s:synthetic/three\tu64 a\np:kprobes/kp sys_getpid\n"
    ok(lucid, "echo > synthetic_events")  # only its own kind goes
    assert cat(lucid, "dynamic_events") == "p:kprobes/kp sys_getpid\n"
    ok(lucid, "echo > kprobe_events")


# (file, line, errno, error_log's sentence, the caret's column in the logged command)
BAD = [
    ("synthetic_events", "1bad u64 x", EINVAL, "Illegal name", 0),
    ("synthetic_events", "ev u64 1x", EINVAL, "Illegal name", 7),
    ("synthetic_events", "ev int arr[3]", EINVAL, "Invalid type", 3),
    ("synthetic_events", "ev nosuchtype x", EINVAL, "Invalid type", 3),
    ("synthetic_events", "ev char s[300]", EINVAL, "Invalid array specification", 8),
    ("synthetic_events", "ev char s[12x]", EINVAL, "Invalid array specification", 8),
    ("synthetic_events", "ev unsigned", EINVAL,
     "Command must be of the form: <name> field[;field] ...", 0),
    ("synthetic_events", "ev u64 a; unsigned int", EINVAL, "Incomplete type", 10),
    ("synthetic_events", "ev u64 a; u32", EINVAL, "Invalid field", 10),
    ("synthetic_events", "ev", EINVAL,
     "Command must be of the form: <name> field[;field] ...", 0),
    ("synthetic_events", "ev ;", EINVAL,
     "Command must be of the form: <name> field[;field] ...", 0),
    ("dynamic_events", "s:other/ev u64 a", EINVAL,
     "Command must be of the form: s or -:[synthetic/]<name> field[;field] ...", 0),
    ("dynamic_events", "s:ev", EINVAL,
     "Command must be of the form: <name> field[;field] ...", 0),
    ("dynamic_events", "s:synthetic/ev u64", EINVAL,
     "Command must be of the form: <name> field[;field] ...", 0),
    ("dynamic_events", "s:synthetic/ev s64 a; u8 9", EINVAL, "Illegal name", 25),
]


def test_bad_definitions(lucid):
    reset_synthetic(lucid)
    for f, line, err, sentence, col in BAD:
        fails(lucid, "echo '%s' >> %s" % (line, f), err)
        assert last_error(lucid) == ("synthetic_events", sentence, line, col), line
        assert cat(lucid, "synthetic_events") == "", line
    # 64 fields are Linux's most
    many = "; ".join("u64 f%d" % i for i in range(64))
    ok(lucid, "echo 'big %s' >> synthetic_events" % many)
    fails(lucid, "echo 'bigger %s; u64 x' >> synthetic_events" % many)
    assert last_error(lucid)[1] == "Too many fields"
    # the same name twice
    fails(lucid, "echo 'big u64 a' >> synthetic_events", EEXIST)
    assert last_error(lucid) == ("synthetic_events", "Event already exists", "big u64 a", 0)
    ok(lucid, "echo '!big' >> synthetic_events")


def test_busy_while_enabled_triggered_or_held(lucid):
    reset_synthetic(lucid)
    ok(lucid, "echo 'ev u64 a' >> synthetic_events")
    ok(lucid, "echo 1 > events/synthetic/ev/enable")
    fails(lucid, "echo '!ev' >> synthetic_events", EBUSY)
    fails(lucid, "echo '-:ev' >> dynamic_events", EBUSY)
    fails(lucid, "echo > synthetic_events", TRUNC_EBUSY)
    ok(lucid, "echo 0 > events/synthetic/ev/enable")
    # a trigger on it holds it too
    ok(lucid, "echo traceoff > events/synthetic/ev/trigger")
    fails(lucid, "echo '!ev' >> synthetic_events", EBUSY)
    ok(lucid, "echo '!traceoff' > events/synthetic/ev/trigger")
    # enabled in an instance only
    ok(lucid, "mkdir instances/syn")
    assert "ev" in modes(lucid, "instances/syn/events/synthetic")
    ok(lucid, "echo 1 > instances/syn/events/synthetic/ev/enable")
    fails(lucid, "echo '!ev' >> synthetic_events", EBUSY)
    ok(lucid, "echo 0 > instances/syn/events/synthetic/ev/enable")
    assert cat(lucid, "synthetic_events") == "ev\tu64 a\n"
    ok(lucid, "echo '!ev' >> synthetic_events")
    assert "synthetic" not in modes(lucid, "instances/syn/events")
    ok(lucid, "rmdir instances/syn")


GEN_FIRST = ("next_pid_field=777 next_comm_field=hula hoops ts_ns=1000000 "
             "dynstring_field=dynamic string ts_ms=1000 cpu=0 my_string_field=thneed "
             "my_int_field=598")
GEN_SECOND = ("next_pid_field=999 next_comm_field=now ts_ns=2000000 "
              "dynstring_field=from an array ts_ms=2000 cpu=1 my_string_field=the second "
              "my_int_field=-1")


def test_written_from_the_kernel(lucid):
    reset_synthetic(lucid)
    ok(lucid, "modprobe synth_event_gen_test")
    assert cat(lucid, "synthetic_events") == (
        "gen_synth_test\tpid_t next_pid_field; char[16] next_comm_field; u64 ts_ns; "
        "char[] dynstring_field; u64 ts_ms; unsigned int cpu; char[64] my_string_field; "
        "int my_int_field\n")
    assert lines(lucid, "gen_synth_test") == [GEN_FIRST, GEN_SECOND]
    assert cat(lucid, "events/synthetic/gen_synth_test/enable") == "1\n"
    # held by the module's trace_get_event_file(), as well as enabled
    ok(lucid, "echo 0 > events/synthetic/gen_synth_test/enable")
    fails(lucid, "echo '!gen_synth_test' >> synthetic_events", EBUSY)
    # options/verbose: each value's format before it
    ok(lucid, "echo 1 > options/verbose")
    text = cat(lucid, "trace")
    ok(lucid, "echo 0 > options/verbose")
    assert "gen_synth_test: %d next_pid_field=777 %.*s next_comm_field=hula hoops %llu " \
        "ts_ns=1000000 " in text, text[-2000:]
    # trace-cmd reads the records from the format file: the same values
    out = sh(lucid, "trace-cmd extract -o /tmp/synth.dat > /dev/null 2>&1; "
             "trace-cmd report -i /tmp/synth.dat", timeout=180)
    reported = [l for l in out.splitlines() if "gen_synth_test:" in l]
    assert len(reported) == 2, out[-3000:]
    for want in ("next_pid_field=777", "next_comm_field=hula hoops", "ts_ns=1000000",
                 "dynstring_field=dynamic string", "my_int_field=598"):
        assert want in reported[0], reported
    assert "dynstring_field=from an array" in reported[1] and "my_int_field=-1" in reported[1]
    ok(lucid, "rmmod synth_event_gen_test")
    assert cat(lucid, "synthetic_events") == ""
    assert "synthetic" not in modes(lucid, "events")


def test_filter_files_know_its_fields(lucid):
    # Its fields are filter fields of their kinds: a number, a char[N], a char[] (the records
    # a filter keeps or drops are test_hist_actions.py's, written by an onmatch action).
    reset_synthetic(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % DEF)
    for f in ("lat > 800", "comm == \"bash\"", "name ~ \"ba*\"", "small < 0 && cpu == 1"):
        ok(lucid, "echo '%s' > events/synthetic/wakeup_latency/filter" % f)
        assert cat(lucid, "events/synthetic/wakeup_latency/filter") == f + "\n"
    fails(lucid, "echo 'nosuch == 1' > events/synthetic/wakeup_latency/filter")
    ok(lucid, "echo 0 > events/synthetic/wakeup_latency/filter")
    ok(lucid, "echo '!wakeup_latency' >> synthetic_events")


def test_nothing_kept_after_many(lucid):
    """Synthetic events of every kind of field made and removed 1,000 times, through both files,
    with an instance that gets and loses their files: MemFree as before. (An instance keeps the
    file of each event it was given until its rmdir, as Lucid's instances do: measured after.)"""
    reset_synthetic(lucid)
    ok(lucid, "set +o history")  # bash's history would grow its heap, not the kernel's
    # in a subshell: the words of its seq grow that process's heap, not the shell's
    loop = ("(mkdir instances/leak; for i in $(seq %d); do "
            "echo 'lk u64 a; char b[]; char c[16]; unsigned int d' >> synthetic_events; "
            "echo 1 > instances/leak/events/synthetic/lk/enable; "
            "echo 0 > instances/leak/events/synthetic/lk/enable; "
            "echo '!lk' >> synthetic_events; "
            "echo 's:synthetic/lk2 s8 x; pid_t p' >> dynamic_events; "
            "echo '-:synthetic/lk2' >> dynamic_events; done; rmdir instances/leak)")

    # the same loop first: what is made once is made now
    ok(lucid, loop % 1000, timeout=900)
    before = free_kb(lucid)
    ok(lucid, loop % 1000, timeout=900)
    after = free_kb_back(lucid, before)
    # Nothing kept: MemFree is back to before or above it (a page freed late from before,
    # a reaped task's stack, may land in between; a leak leaves it below).
    assert after >= before, (before, after)
    assert cat(lucid, "synthetic_events") == ""
    ok(lucid, "set -o history")

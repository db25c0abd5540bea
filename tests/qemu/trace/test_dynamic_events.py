"""dynamic_events and eprobes (trace/trace_dynevent.c, trace/trace_eprobe.c), as Linux 6.1's.

An eprobe is an event made at run time from the fields of another: "e:myopen
syscalls.sys_enter_openat file=+0($filename):ustring" gives eprobes/myopen, with the name of
the file each openat opens. It lives under events/eprobes/ with enable, filter, trigger, format
and id as static events have; dynamic_events lists it back as Linux does, "-:NAME" or "!" and
the definition remove it, and a refused definition leaves Linux's error_log line with the caret
where Linux puts it. Removing an enabled event is EBUSY, as is ">" while one is enabled.
"""
import re

from test_kprobe_events import WAIT_FOR_MODULE
from tracefs import (COMMON_FIELDS, EBUSY, EEXIST, EINVAL, ENODEV, ENOENT, cat, fails, last_error,
                     modes, ok, reset_tracing, sh)

DEF = "e:myopen syscalls.sys_enter_openat file=+0($filename):ustring fl=$flags:x32"
COMMON = COMMON_FIELDS + "\n"
# "  cat-12  [001] ....  1.234567: myopen: (syscalls.sys_enter_openat) file="/etc/passwd" fl=0x0"
LINE = re.compile(r"^ +(\S+)-(\d+) +\[(\d{3})\] \S{4} +\d+\.\d{6}: (\w+): \((\w+)\.(\w+)\)(.*)$")


def lines(k, name):
    """The trace's lines of event name, parsed."""
    out = []
    for l in cat(k, "trace").splitlines():
        if l.startswith("#"):
            continue
        m = LINE.match(l)
        assert m, l
        if m.group(4) == name:
            out.append(m)
    return out


def test_files(lucid):
    reset_tracing(lucid)
    assert modes(lucid)["dynamic_events"] == "-rw-r-----"
    assert cat(lucid, "dynamic_events") == ""
    assert "dynamic_events\t\t- Create/append/remove/show the generic dynamic events" in \
        cat(lucid, "README")


def test_eprobe_made_listed_and_its_files(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    assert cat(lucid, "dynamic_events") == \
        "e:eprobes/myopen syscalls.sys_enter_openat file=+0($filename):ustring fl=$flags:x32\n"
    assert sorted(modes(lucid, "events/eprobes/myopen")) == \
        ["enable", "filter", "format", "hist", "id", "trigger"]
    assert modes(lucid, "events/eprobes")["enable"] == "-rw-r-----"
    ev_id = int(cat(lucid, "events/eprobes/myopen/id"))
    # Linux's layout: no fields of its own, the arguments packed after the common ones
    assert cat(lucid, "events/eprobes/myopen/format") == (
        "name: myopen\nID: %d\nformat:\n" % ev_id + COMMON +
        "\tfield:__data_loc char[] file;\toffset:8;\tsize:4;\tsigned:1;\n"
        "\tfield:u32 fl;\toffset:12;\tsize:4;\tsigned:0;\n\n"
        "print fmt: \" file=\\\"%s\\\" fl=0x%x\", __get_str(file), REC->fl\n")
    assert "eprobes:myopen" in cat(lucid, "available_events").split()
    assert cat(lucid, "events/eprobes/myopen/enable") == "0\n"
    assert cat(lucid, "events/eprobes/myopen/filter") == "none\n"


def test_eprobe_records_what_openat_opens(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    ok(lucid, "echo 1 > events/eprobes/myopen/enable")
    # the attached event is held by the eprobe's hidden trigger, not enabled: "0*", as Linux
    assert cat(lucid, "events/syscalls/sys_enter_openat/enable") == "0*\n"
    assert cat(lucid, "events/syscalls/sys_enter_openat/trigger").startswith(
        "# Available triggers:")
    assert "eprobes:myopen" in cat(lucid, "set_event").split()
    ok(lucid, "cat /etc/passwd > /dev/null; /bin/cat /etc/group > /dev/null")
    ok(lucid, "echo 0 > events/eprobes/myopen/enable")
    assert cat(lucid, "events/syscalls/sys_enter_openat/enable") == "0\n"
    got = {(m.group(1), m.group(7)) for m in lines(lucid, "myopen")}
    assert ("cat", ' file="/etc/passwd" fl=0x0') in got, got
    assert ("cat", ' file="/etc/group" fl=0x0') in got, got
    assert all(m.group(5, 6) == ("syscalls", "sys_enter_openat") for m in lines(lucid, "myopen"))
    # the redirection: O_WRONLY|O_CREAT|O_TRUNC (by the child before its exec, so its pid's
    # name, read when the trace is printed, is bash's or cat's)
    assert ' file="/dev/null" fl=0x241' in {f for _, f in got}, got
    n = len(lines(lucid, "myopen"))
    ok(lucid, "cat /etc/passwd > /dev/null")
    assert len(lines(lucid, "myopen")) == n  # disabled: nothing more


def test_filter_and_trigger_on_eprobe_fields(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    ok(lucid, "echo 'file ~ \"*passwd\"' > events/eprobes/myopen/filter")
    ok(lucid, "echo 1 > events/eprobes/myopen/enable")
    ok(lucid, "cat /etc/passwd /etc/group > /dev/null")
    files = [m.group(7) for m in lines(lucid, "myopen")]
    assert files and all(f == ' file="/etc/passwd" fl=0x0' for f in files), files
    # a trigger on the eprobe's own field: traceoff once /etc/group is opened
    ok(lucid, "echo 0 > events/eprobes/myopen/filter")
    ok(lucid, "echo 'traceoff if file == \"/etc/group\"' > events/eprobes/myopen/trigger")
    assert cat(lucid, "events/eprobes/myopen/trigger") == \
        "traceoff:unlimited if file == \"/etc/group\"\n"
    ok(lucid, "cat /etc/passwd > /dev/null")
    assert cat(lucid, "tracing_on") == "1\n"
    ok(lucid, "cat /etc/group > /dev/null")
    assert cat(lucid, "tracing_on") == "0\n"
    ok(lucid, "echo '!traceoff' > events/eprobes/myopen/trigger")
    ok(lucid, "echo 0 > events/eprobes/myopen/enable; echo 1 > tracing_on")


def test_eprobe_with_its_own_filter_and_comm(lucid):
    """"if FILTER" after the arguments: on the attached event's fields (Linux 6.1.192's)."""
    reset_tracing(lucid)
    rdonly = "syscalls.sys_enter_openat c=$comm:string f=$filename:x64 if flags == 0"
    ok(lucid, "echo 'e:rdonly %s' >> dynamic_events" % rdonly)
    assert cat(lucid, "dynamic_events") == "e:eprobes/rdonly %s\n" % rdonly
    ok(lucid, "echo 1 > events/eprobes/rdonly/enable")
    ok(lucid, "cat /etc/passwd > /dev/null")
    ok(lucid, "echo 0 > events/eprobes/rdonly/enable")
    got = lines(lucid, "rdonly")
    assert got
    assert all(re.fullmatch(r' c="[\w-]+" f=0x[0-9a-f]+', m.group(7)) for m in got), got
    assert any(m.group(7).startswith(' c="cat"') for m in got)
    assert not any(m.group(1) == "bash" for m in got)  # > /dev/null is not O_RDONLY


def test_default_name_and_removal(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 'e syscalls.sys_enter_openat' >> dynamic_events")
    ok(lucid, "echo 'e:grp/two syscalls.sys_exit_openat r=$ret' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == (
        "e:eprobes/sys_enter_openat syscalls.sys_enter_openat\n"
        "e:grp/two syscalls.sys_exit_openat r=$ret\n")
    # -: by name: the arguments, when given, must match the definition's head
    fails(lucid, "echo '-:grp/two syscalls.sys_exit_openat r=$nope' >> dynamic_events",
          ENOENT)
    ok(lucid, "echo '-:grp/two syscalls.sys_exit_openat r=$ret' >> dynamic_events")
    assert "grp" not in modes(lucid, "events")  # its system went with its last event
    fails(lucid, "echo '-:nosuch' >> dynamic_events", ENOENT)
    # '!' and the definition, as dynamic_events lists it
    ok(lucid, "echo '!e:eprobes/sys_enter_openat syscalls.sys_enter_openat' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == ""
    assert "eprobes" not in modes(lucid, "events")
    fails(lucid, "echo '-:' >> dynamic_events")


def test_busy_while_enabled(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    ok(lucid, "echo 1 > events/eprobes/myopen/enable")
    fails(lucid, "echo '-:myopen' >> dynamic_events", EBUSY)
    assert sh(lucid, "echo > dynamic_events") == "-bash: dynamic_events: Device or resource busy\n"
    assert cat(lucid, "dynamic_events") != ""
    ok(lucid, "echo 0 > events/eprobes/myopen/enable")
    # a trigger holds it too
    ok(lucid, "echo stacktrace > events/eprobes/myopen/trigger")
    fails(lucid, "echo '-:myopen' >> dynamic_events", EBUSY)
    ok(lucid, "echo '!stacktrace' > events/eprobes/myopen/trigger")
    ok(lucid, "echo '-:myopen' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == ""


def test_errors(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    cases = [
        # (definition, '^' where Linux's caret goes; errno line; sentence)
        ("e:bad syscalls.sys_enter_openat ^x=$nosuch", ENOENT,
         "Attached event does not have this field"),
        ("e:bad2 ^syscalls.nosuch", ENODEV, "Attached event does not exist"),
        ("e:foo/^bar.1 syscalls.sys_enter_openat", EINVAL,
         "Event name must follow the same rules as C identifiers"),
        ("e:x ^syscalls", EINVAL, "This requires both group and event name to attach"),
        ("^e:myopen syscalls.sys_enter_openat", EEXIST,
         "Given group/event name is already used by another event"),
        ("e:bad3 syscalls.sys_enter_openat x=^%di", EINVAL, "Invalid $-valiable specified"),
        ("e:bad4 syscalls.sys_enter_openat x=$flags:^nosuchtype", EINVAL,
         "Unknown type is specified"),
        ("e:bad5 syscalls.sys_enter_openat if ^", EINVAL, "No filter rule after 'if'"),
    ]
    for marked, err, sentence in cases:
        caret = marked.index("^")
        cmd = marked.replace("^", "").rstrip()
        fails(lucid, "echo '%s' >> dynamic_events" % cmd, err)
        assert last_error(lucid) == ("event_probe", sentence, cmd, caret), cmd
    fails(lucid, "echo 'x:nosuchkind foo' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == \
        "e:eprobes/myopen syscalls.sys_enter_openat file=+0($filename):ustring fl=$flags:x32\n"
    assert sorted(modes(lucid, "events/eprobes")) == ["enable", "filter", "myopen"]


def test_every_kind_in_one_file(lucid):
    """dynamic_events takes and lists kprobes and eprobes in the order they were made;
    kprobe_events lists its own only; '!' before a listed line removes that event."""
    reset_tracing(lucid)
    ok(lucid, "echo 'p:kp sys_getpid' >> dynamic_events")
    ok(lucid, "echo '%s' >> dynamic_events" % DEF)
    ok(lucid, "echo 'r:kr sys_openat ret=$retval' >> kprobe_events")
    listed = cat(lucid, "dynamic_events").splitlines()
    assert [re.sub(r"^r\d+:", "r:", l) for l in listed] == [
        "p:kprobes/kp sys_getpid",
        "e:eprobes/myopen syscalls.sys_enter_openat file=+0($filename):ustring fl=$flags:x32",
        "r:kprobes/kr sys_openat ret=$retval"]
    assert cat(lucid, "kprobe_events").splitlines() == [listed[0], listed[2]]
    # a module that is not loaded: accepted with Linux 6.1's warning, the probe registered
    # when the module loads (test_kprobe_events.py's test_probe_on_module_not_yet_loaded)
    assert WAIT_FOR_MODULE in sh(lucid, "echo 'p nosuchmod:nosuchfunc' >> dynamic_events")
    assert lucid.status() == 0
    assert cat(lucid, "dynamic_events").splitlines()[-1] == \
        "p:kprobes/p_nosuchmod_nosuchfunc_0 nosuchmod:nosuchfunc"
    ok(lucid, "echo '-:p_nosuchmod_nosuchfunc_0' >> dynamic_events")
    ok(lucid, "echo '!%s' >> dynamic_events" % listed[2])
    ok(lucid, "echo '!%s' >> dynamic_events" % listed[1])
    assert cat(lucid, "dynamic_events") == listed[0] + "\n"
    ok(lucid, "echo '-:kp' >> dynamic_events")
    assert cat(lucid, "dynamic_events") == ""

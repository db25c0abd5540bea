"""Hist variables, expressions and actions (trace/trace_events_hist.c), with synthetic events.

Documentation/trace/histogram.rst's wakeup-latency recipe, typed as Linux 6.1 takes it:
sched_waking saves a timestamp per pid in a variable, sched_switch computes the latency from it
when that pid runs and writes it into the synthetic event wakeup_latency (onmatch().trace()),
and a histogram of wakeup_latency aggregates it. Each part is checked against the others (the
synthetic records against their histogram, onmax()'s kept maximum against the records), not
against times. Then expressions (their values checked through a synthetic event), onchange(),
snapshot(), the recipe in an instance, Linux's error_log lines for bad variables and actions,
EBUSY for what another part still uses, and no memory kept after many rounds.
"""
import re

from lucid import Lucid
from tracefs import (EBUSY, ERROR_LOG_ENTRY, T, cat, fails, free_kb, free_kb_back, last_error, ok,
                     reset_tracing, sh)

BOOT = {"timeout": 120}

WAKING = "events/sched/sched_waking/"
SWITCH = "events/sched/sched_switch/"
WAKEUP = "events/sched/sched_wakeup/"
LAT = "events/synthetic/wakeup_latency/"
SYS_ENTER = "events/raw_syscalls/sys_enter/"
HELP = ("# Available triggers:\n# traceon traceoff snapshot stacktrace enable_event"
        " disable_event enable_hist disable_hist hist\n")
SYNTH = "wakeup_latency u64 lat; pid_t pid; int prio"
T_WAKING = 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="sleep"'
T_SWITCH = ('hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:'
            'onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_prio)'
            ' if next_comm=="sleep"')
T_LAT = "hist:keys=pid,prio,lat:sort=pid,lat"
SLEEPS = 5
# "  <idle>-0  [001] d..1  0.932510: wakeup_latency: lat=79 pid=9 prio=120"
LAT_LINE = re.compile(r"^ +\S+-\d+ +\[\d{3}\] \S{4} +\d+\.\d{6}: wakeup_latency: "
                      r"lat=(\d+) pid=(\d+) prio=(\d+)$")


def clean(k, where=""):
    for ev in (LAT, SWITCH, WAKING, SYS_ENTER):  # users of variables first
        if sh(k, "test -d %s%s && echo yes" % (where, ev)) != "yes\n":
            continue  # the synthetic event is not there
        sh(k, "echo 0 > %s%senable" % (where, ev))
        for line in cat(k, where + ev + "trigger").splitlines():
            if line.startswith("hist:"):
                sh(k, "echo '!%s' >> %s%strigger" % (line.split(" [")[0], where, ev))
        assert cat(k, where + ev + "trigger") == HELP, ev
    ok(k, "echo > synthetic_events")


def lat_records(k, where=""):
    out = []
    for line in cat(k, where + "trace").splitlines():
        if "wakeup_latency:" in line:
            m = LAT_LINE.match(line)
            assert m, line
            out.append(tuple(int(x) for x in m.groups()))
    return out


def recipe(k, where=""):
    ok(k, "echo '%s' >> synthetic_events" % SYNTH)
    ok(k, "echo '%s' >> %s%strigger" % (T_WAKING, where, WAKING))
    ok(k, "echo '%s' >> %s%strigger" % (T_SWITCH, where, SWITCH))
    ok(k, "echo '%s' >> %s%strigger" % (T_LAT, where, LAT))
    ok(k, "echo 1 > %s%senable" % (where, LAT))


def sleeps(k, n=SLEEPS):
    ok(k, "for i in $(seq %d); do sleep 0.05; done" % n)


def errors(k):
    """error_log's entries, oldest first: (sentence, the caret's column in the command)."""
    return [(m.group(2), len(m.group(4)) - len("  Command: "))
            for m in ERROR_LOG_ENTRY.finditer(cat(k, "error_log"))]


def test_wakeup_latency_recipe(lucid):
    reset_tracing(lucid)
    clean(lucid)
    recipe(lucid)
    # the trigger files list them back in Linux's words: variables after the values, the
    # clock the timestamps need, the action before the filter
    assert cat(lucid, WAKING + "trigger") == (
        "hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:size=2048:"
        'clock=global if comm=="sleep" [active]\n')
    assert cat(lucid, SWITCH + "trigger") == (
        "hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:"
        "sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking).wakeup_latency("
        '$wakeup_lat,next_pid,next_prio) if next_comm=="sleep" [active]\n')
    sleeps(lucid)
    records = lat_records(lucid)
    # one record per sleep that was woken, each of its own pid, from sched_switch's values
    assert len(records) >= SLEEPS, records
    assert len({pid for _, pid, _ in records}) == len(records), records
    assert all(prio == 120 for _, _, prio in records), records
    # the synthetic event's histogram holds exactly those records, sorted by pid then lat
    hist = cat(lucid, LAT + "hist")
    entries = re.findall(r"^\{ pid: +(\d+), prio: +(\d+), lat: +(\d+) \} hitcount: +1$", hist,
                         re.M)
    assert sorted((int(l), int(p), int(r)) for p, r, l in entries) == sorted(records), hist
    assert "\nTotals:\n    Hits: %d\n    Entries: %d\n" % (len(records), len(records)) in hist
    # sched_switch's histogram counted only the switches whose wakeup it had seen
    switch = cat(lucid, SWITCH + "hist")
    pids = [int(p) for p in re.findall(r"^\{ next_pid: +(\d+) \} hitcount: +1$", switch, re.M)]
    assert sorted(pids) == sorted(pid for _, pid, _ in records), switch
    clean(lucid)


def test_onmax_saves_the_worst_case(lucid):
    # histogram.rst's second form: onmax($wakeup_lat).save(...) keeps, per pid, the largest
    # latency and the fields of the switch that had it; it must equal the recorded latency
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % SYNTH)
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING, WAKING))
    onmax = ('hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:'
             'onmax($wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm):'
             'onmatch(sched.sched_waking).trace(wakeup_latency,$wakeup_lat,next_pid,next_prio)'
             ' if next_comm=="sleep"')
    ok(lucid, "echo '%s' >> %strigger" % (onmax, SWITCH))
    assert cat(lucid, SWITCH + "trigger") == (
        "hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:"
        "sort=hitcount:size=2048:clock=global:onmax($wakeup_lat).save(next_comm,prev_pid,"
        "prev_prio,prev_comm):onmatch(sched.sched_waking).trace(wakeup_latency,$wakeup_lat,"
        'next_pid,next_prio) if next_comm=="sleep" [active]\n')
    ok(lucid, "echo 1 > %senable" % LAT)
    sleeps(lucid)
    lat_of = {pid: lat for lat, pid, _ in lat_records(lucid)}
    hist = cat(lucid, SWITCH + "hist")
    # "{ next_pid: 9 } hitcount: 1\n\tmax: 79  next_comm: sleep  prev_pid: 0 ..."
    entry = re.compile(r"^\{ next_pid: +(\d+) \} hitcount: +1\n\tmax: +(\d+)  next_comm: sleep +"
                       r"  prev_pid: +(\d+)  prev_prio: +(\d+)  prev_comm: (\S+) *$", re.M)
    found = entry.findall(hist)
    assert len(found) >= SLEEPS and len(found) == len(lat_of), hist
    for pid, mx, prev_pid, prev_prio, prev_comm in found:
        assert lat_of[int(pid)] == int(mx), (pid, mx, lat_of)
        assert int(prev_pid) != int(pid)
    clean(lucid)


def test_expressions_through_a_synthetic_event(lucid):
    # v = id*2+1, w = id/3 (Linux 6.1 divides by a small constant by multiplying: (x * (2^20/3)
    # + 2^20 - 1) >> 20), u = -(id); onchange($v) writes them with id into calc
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo 'calc s64 v; s64 w; s64 u; long id' >> synthetic_events")
    t = ("hist:keys=common_pid:v=id*2+1,w=id/3,u=-(id):onchange($v).trace(calc,$v,$w,$u,id)"
         " if common_pid == $$")
    ok(lucid, "echo '%s' >> %strigger" % (t.replace("$$", sh(lucid, "echo $$").strip()),
                                          SYS_ENTER))
    assert "v=id*2+1,w=id/3,u=-(id):" in cat(lucid, SYS_ENTER + "trigger")
    ok(lucid, "echo 1 > events/synthetic/calc/enable")
    ok(lucid, "cat /etc/passwd > /dev/null; ls / > /dev/null")
    ok(lucid, "echo 0 > events/synthetic/calc/enable")
    rows = re.findall(r"calc: v=(-?\d+) w=(-?\d+) u=(-?\d+) id=(\d+)$", cat(lucid, "trace"), re.M)
    assert len(rows) >= 3, cat(lucid, "trace")[-2000:]
    for v, w, u, i in rows:
        i = int(i)
        assert int(v) == 2 * i + 1, (v, i)
        assert int(w) == (i * ((1 << 20) // 3) + (1 << 20) - 1) >> 20, (w, i)
        assert int(u) == -i, (u, i)
    # onchange: no two records in a row of the same value
    assert all(rows[j][0] != rows[j + 1][0] for j in range(len(rows) - 1)), rows
    clean(lucid)


def test_snapshot_on_a_new_max(lucid):
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING, WAKING))
    snap = ('hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:'
            'onmax($wakeup_lat).snapshot() if next_comm=="sleep"')
    ok(lucid, "echo '%s' >> %strigger" % (snap, SWITCH))
    ok(lucid, "echo 1 > events/sched/sched_switch/enable")
    sleeps(lucid, 2)
    hist = cat(lucid, SWITCH + "hist")
    assert "\nSnapshot taken (see tracing/snapshot).  Details:\n\ttriggering value " \
        "{ onmax($wakeup_lat) }: " in hist, hist
    assert re.search(r"\ttriggered by event with key: \{ next_pid: +\d+ \}\n", hist), hist
    # the snapshot is taken from task context soon after: wait for it (bounded)
    ok(lucid, "for i in $(seq 50); do grep -q sched_switch snapshot && break; sleep 0.1; done")
    assert "sched_switch:" in cat(lucid, "snapshot")
    ok(lucid, "echo 0 > events/sched/sched_switch/enable; echo 0 > snapshot")
    clean(lucid)


def test_recipe_in_an_instance(lucid):
    # The triggers and the synthetic event's enable in an instance: its records go into the
    # instance's buffer, not the top level's; a filter on the top level's file changes nothing
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "mkdir instances/lat")
    recipe(lucid, "instances/lat/")
    sleeps(lucid)
    assert len(lat_records(lucid, "instances/lat/")) >= SLEEPS
    assert lat_records(lucid) == []
    # a filter on the instance's file of the synthetic event: only what it keeps is recorded
    ok(lucid, "echo > instances/lat/trace")
    ok(lucid, "echo 'pid == 1' > instances/lat/%sfilter" % LAT)
    sleeps(lucid, 2)
    assert lat_records(lucid, "instances/lat/") == []
    clean(lucid, "instances/lat/")
    ok(lucid, "rmdir instances/lat")


def test_busy_while_used(lucid):
    reset_tracing(lucid)
    clean(lucid)
    recipe(lucid)
    # sched_switch's histogram uses $ts0: sched_waking's cannot go, nor with '>' (nothing goes)
    fails(lucid, "echo '!%s' >> %strigger" % (T_WAKING, WAKING), EBUSY)
    ok(lucid, ": > %strigger" % WAKING)
    assert cat(lucid, WAKING + "trigger").startswith("hist:keys=pid:vals=hitcount:ts0=")
    # the action writes wakeup_latency, a histogram sits on it: it cannot go either
    fails(lucid, "echo '!wakeup_latency' >> synthetic_events", EBUSY)
    fails(lucid, "echo > synthetic_events",
          "-bash: synthetic_events: Device or resource busy\n")
    ok(lucid, "echo 0 > %senable" % LAT)
    ok(lucid, "echo '!%s' >> %strigger" % (T_LAT, LAT))
    fails(lucid, "echo '!wakeup_latency' >> synthetic_events", EBUSY)  # the action still
    ok(lucid, "echo '!%s' >> %strigger" % (T_SWITCH, SWITCH))
    ok(lucid, "echo '!%s' >> %strigger" % (T_WAKING, WAKING))
    ok(lucid, "echo '!wakeup_latency' >> synthetic_events")
    clean(lucid)


# Linux's selftest trigger-field-variable-support.tc, with sleep for ping: prio is sched_waking's
# field (named in full), next_pid and next_comm sched_switch's
SYNTH_COMM = "wakeup_latency u64 lat; pid_t pid; int prio; char comm[16]"
T_WAKING_COMM = 'hist:keys=comm:ts0=common_timestamp.usecs if comm=="sleep"'
T_SWITCH_FIELD = ('hist:keys=next_comm:wakeup_lat=common_timestamp.usecs-$ts0:'
                  'onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,'
                  'sched.sched_waking.prio,next_comm) if next_comm=="sleep"')
WAKING_COMM_LISTED = ("hist:keys=comm:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:"
                      'size=2048:clock=global if comm=="sleep" [active]\n')
HIDDEN = ('hist:keys=comm:vals=hitcount:synthetic_prio=prio:sort=hitcount:size=2048'
          ' if comm=="sleep" [active]\n')


def test_field_of_the_matched_event(lucid):
    """A trace() parameter naming a field of the matched event: Linux 6.1 makes a hidden
    histogram there (keys as the matched one's, its filter, synthetic_prio=prio), listed with
    the event's triggers; the synthetic records carry the waking's prio; the hidden histogram
    goes with the one that made it."""
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % SYNTH_COMM)
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING_COMM, WAKING))
    ok(lucid, "echo > error_log")
    ok(lucid, "echo '%s' >> %strigger" % (T_SWITCH_FIELD, SWITCH))
    waking = cat(lucid, WAKING + "trigger")
    assert waking.splitlines()[1:] == [HIDDEN.strip()], waking
    assert "synthetic_prio=prio" in cat(lucid, WAKING + "hist")
    # Linux first tries sched.sched_waking.prio as a field of sched_switch: no error is
    # logged for that (the name is the other event's), so the log stays empty
    assert cat(lucid, "error_log") == ""
    ok(lucid, "echo 'hist:keys=pid,prio,comm:vals=lat:sort=pid,prio' >> %strigger" % LAT)
    ok(lucid, "echo 1 > %senable" % LAT)
    sleeps(lucid)
    rows = re.findall(r"wakeup_latency: lat=(\d+) pid=(\d+) prio=(\d+) comm=(\S+)$",
                      cat(lucid, "trace"), re.M)
    assert len(rows) >= SLEEPS, cat(lucid, "trace")[-2000:]
    assert all(prio == "120" and comm == "sleep" for _, _, prio, comm in rows), rows
    hist = cat(lucid, LAT + "hist")
    assert re.search(r"^\{ pid: +\d+, prio: +120, comm: sleep +\} hitcount: +1  lat: +\d+$",
                     hist, re.M), hist
    # the hidden histogram is used: it stays; it goes with sched_switch's
    fails(lucid, "echo '!%s' >> %strigger" % (HIDDEN.split(" [")[0], WAKING), EBUSY)
    ok(lucid, "echo 0 > %senable" % LAT)
    ok(lucid, "echo '!hist:keys=pid,prio,comm:vals=lat:sort=pid,prio' >> %strigger" % LAT)
    # a second histogram (sched_wakeup's) naming the same field shares it (no second one is
    # made); it goes with the last of the two (Linux removes it with its maker, or fails to
    # and keeps it for good)
    t2 = ("hist:keys=comm:w2=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking)."
          'wakeup_latency($w2,pid,sched.sched_waking.prio,comm) if comm=="sleep"')
    ok(lucid, "echo '%s' >> %strigger" % (t2, WAKEUP))
    assert cat(lucid, WAKING + "trigger").splitlines()[1:] == [HIDDEN.strip()]
    ok(lucid, "echo '!%s' >> %strigger" % (T_SWITCH_FIELD, SWITCH))
    assert cat(lucid, WAKING + "trigger").splitlines()[1:] == [HIDDEN.strip()]
    ok(lucid, "echo '!%s' >> %strigger" % (t2, WAKEUP))
    assert cat(lucid, WAKING + "trigger") == WAKING_COMM_LISTED
    # an unqualified name not on sched_switch is looked for on the matched event too; the
    # first try's errors are logged (as Linux's), once
    ok(lucid, "echo > error_log")
    t = T_SWITCH_FIELD.replace("sched.sched_waking.prio", "prio")
    ok(lucid, "echo '%s' >> %strigger" % (t, SWITCH))
    assert cat(lucid, WAKING + "trigger").splitlines()[1:] == [HIDDEN.strip()]
    col = t.index("prio,")
    assert errors(lucid) == [("Couldn't find field", col),
                             ("Couldn't parse field variable", col)], cat(lucid, "error_log")
    ok(lucid, "echo '!%s' >> %strigger" % (t, SWITCH))
    ok(lucid, "echo '!%s' >> %strigger" % (T_WAKING_COMM, WAKING))
    assert cat(lucid, WAKING + "trigger") == HELP
    clean(lucid)


def test_field_of_the_matched_event_errors(lucid):
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % SYNTH_COMM)
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING_COMM, WAKING))
    ok(lucid, "echo > error_log")
    # keys unlike sched_waking's (next_pid is no comm): "Matching event histogram not found"
    t = T_SWITCH_FIELD.replace("keys=next_comm", "keys=next_pid")
    fails(lucid, "echo '%s' >> %strigger" % (t, SWITCH))
    assert last_error(lucid) == ("hist:sched:sched_switch", "Matching event histogram not found",
                                 t, t.index("prio,"))
    # no such field on either event: the hidden histogram cannot be made
    ok(lucid, "echo > error_log")
    t = T_SWITCH_FIELD.replace("sched.sched_waking.prio", "nosuch")
    fails(lucid, "echo '%s' >> %strigger" % (t, SWITCH))
    col = t.index("nosuch")
    assert errors(lucid) == [("Couldn't find field", col), ("Couldn't parse field variable", col),
                    ("Couldn't find field", col), ("Couldn't create histogram for field", col)], \
        cat(lucid, "error_log")
    # nothing was left on either event
    assert cat(lucid, SWITCH + "trigger") == HELP
    assert cat(lucid, WAKING + "trigger") == WAKING_COMM_LISTED
    ok(lucid, "echo '!%s' >> %strigger" % (T_WAKING_COMM, WAKING))
    clean(lucid)


# sched_switch's hist_debug for the trigger of test_hist_debug, in Linux 6.1's layout
# (hist_trigger_debug_show()); the histograms' addresses are named after their events
HIST_DEBUG_SWITCH = (
    '# event histogram\n'
    '#\n'
    '# trigger info: hist:keys=next_comm:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:'
    'sort=hitcount:size=2048:clock=global:onmax($wakeup_lat).save(prev_pid,prev_comm):'
    'onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,prio,next_comm)'
    ' if next_comm=="sleep" [active]\n'
    '#\n'
    '\n'
    'hist_data: SWITCH\n'
    '\n'
    '  n_vals: 2\n'
    '  n_keys: 1\n'
    '  n_fields: 3\n'
    '\n'
    '  val fields:\n'
    '\n'
    '    hist_data->fields[0]:\n'
    '      flags:\n'
    '        VAL: HIST_FIELD_FL_HITCOUNT\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->fields[1]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: wakeup_lat\n'
    '      var.idx (into tracing_map_elt.vars[]): 0\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '  key fields:\n'
    '\n'
    '    hist_data->fields[2]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_KEY\n'
    '      ftrace_event_field name: next_comm\n'
    '      type: char[16]\n'
    '      size: 16\n'
    '      is_signed: 0\n'
    '\n'
    '  variable reference fields:\n'
    '\n'
    '    hist_data->var_refs[0]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: ts0\n'
    '      var.idx (into tracing_map_elt.vars[]): 0\n'
    '      var.hist_data: WAKING\n'
    '      var_ref_idx (into hist_data->var_refs[]): 0\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->var_refs[1]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: wakeup_lat\n'
    '      var.idx (into tracing_map_elt.vars[]): 0\n'
    '      var.hist_data: SWITCH\n'
    '      var_ref_idx (into hist_data->var_refs[]): 1\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->var_refs[2]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: next_pid\n'
    '      var.idx (into tracing_map_elt.vars[]): 4\n'
    '      var.hist_data: SWITCH\n'
    '      var_ref_idx (into hist_data->var_refs[]): 2\n'
    '      type: pid_t\n'
    '      size: 4\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->var_refs[3]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: synthetic_prio\n'
    '      var.idx (into tracing_map_elt.vars[]): 0\n'
    '      var.hist_data: HIDDEN\n'
    '      var_ref_idx (into hist_data->var_refs[]): 3\n'
    '      type: int\n'
    '      size: 4\n'
    '      is_signed: 1\n'
    '\n'
    '    hist_data->var_refs[4]:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: next_comm\n'
    '      var.idx (into tracing_map_elt.vars[]): 5\n'
    '      var.hist_data: SWITCH\n'
    '      var_ref_idx (into hist_data->var_refs[]): 4\n'
    '      type: char[16]\n'
    '      size: 16\n'
    '      is_signed: 0\n'
    '\n'
    '  field variables:\n'
    '\n'
    '    hist_data->field_vars[0]:\n'
    '\n'
    '      field_vars[0].var:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: next_pid\n'
    '      var.idx (into tracing_map_elt.vars[]): 4\n'
    '\n'
    '      field_vars[0].val:\n'
    '      ftrace_event_field name: next_pid\n'
    '      type: pid_t\n'
    '      size: 4\n'
    '      is_signed: 1\n'
    '\n'
    '    hist_data->field_vars[1]:\n'
    '\n'
    '      field_vars[1].var:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: next_comm\n'
    '      var.idx (into tracing_map_elt.vars[]): 5\n'
    '\n'
    '      field_vars[1].val:\n'
    '      ftrace_event_field name: next_comm\n'
    '      type: char[16]\n'
    '      size: 16\n'
    '      is_signed: 0\n'
    '\n'
    '  action tracking variables (for onmax()/onchange()/onmatch()):\n'
    '\n'
    '    hist_data->actions[0].track_data.var_ref:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR_REF\n'
    '      name: wakeup_lat\n'
    '      var.idx (into tracing_map_elt.vars[]): 0\n'
    '      var.hist_data: SWITCH\n'
    '      var_ref_idx (into hist_data->var_refs[]): 1\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->actions[0].track_data.track_var:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: __max\n'
    '      var.idx (into tracing_map_elt.vars[]): 1\n'
    '      type: u64\n'
    '      size: 8\n'
    '      is_signed: 0\n'
    '\n'
    '    hist_data->actions[1].match_data.event_system: sched\n'
    '    hist_data->actions[1].match_data.event: sched_waking\n'
    '\n'
    '  save action variables (save() params):\n'
    '\n'
    '    hist_data->save_vars[0]:\n'
    '\n'
    '      save_vars[0].var:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: prev_pid\n'
    '      var.idx (into tracing_map_elt.vars[]): 2\n'
    '\n'
    '      save_vars[0].val:\n'
    '      ftrace_event_field name: prev_pid\n'
    '      type: pid_t\n'
    '      size: 4\n'
    '      is_signed: 1\n'
    '\n'
    '    hist_data->save_vars[1]:\n'
    '\n'
    '      save_vars[1].var:\n'
    '      flags:\n'
    '        HIST_FIELD_FL_VAR\n'
    '      var.name: prev_comm\n'
    '      var.idx (into tracing_map_elt.vars[]): 3\n'
    '\n'
    '      save_vars[1].val:\n'
    '      ftrace_event_field name: prev_comm\n'
    '      type: char[16]\n'
    '      size: 16\n'
    '      is_signed: 0\n'
)


def test_hist_debug():
    """events/.../hist_debug (Linux's CONFIG_HIST_TRIGGERS_DEBUG; here the hist_debug boot
    option; without it the event directories are as Linux's kernels have them, which the
    other tests' listings check): every hist_field of each histogram, and each reference
    names the histogram that holds its variable."""
    k = Lucid(cmdline="hist_debug", timeout=120)
    try:
        ok(k, "cd %s" % T)
        assert "hist_debug" in sh(k, "ls %s" % SWITCH).split()
        assert cat(k, SWITCH + "hist_debug") == ""
        ok(k, "echo '%s' >> synthetic_events" % SYNTH_COMM)
        ok(k, "echo '%s' >> %strigger" % (T_WAKING_COMM, WAKING))
        t = ("hist:keys=next_comm:wakeup_lat=common_timestamp.usecs-$ts0:"
             "onmax($wakeup_lat).save(prev_pid,prev_comm):onmatch(sched.sched_waking)."
             'wakeup_latency($wakeup_lat,next_pid,prio,next_comm) if next_comm=="sleep"')
        ok(k, "echo '%s' >> %strigger" % (t, SWITCH))
        # sched_waking's: its own histogram, then the hidden one; their addresses
        waking = cat(k, WAKING + "hist_debug")
        addrs = re.findall(r"^hist_data: ([0-9a-f]{16})$", waking, re.M)
        assert len(addrs) == 2 and "synthetic_prio=prio" in waking.split("\n\n\n")[1], waking
        switch = cat(k, SWITCH + "hist_debug")
        own = re.search(r"^hist_data: ([0-9a-f]{16})$", switch, re.M).group(1)
        named = switch.replace(own, "SWITCH").replace(addrs[0], "WAKING").replace(addrs[1],
                                                                                  "HIDDEN")
        assert named == HIST_DEBUG_SWITCH, switch
        ok(k, "echo '!%s' >> %strigger" % (t, SWITCH))
        assert len(re.findall(r"^hist_data: ", cat(k, WAKING + "hist_debug"), re.M)) == 1
    finally:
        k.close()


def test_timestamps_set_the_clock(lucid):
    """A histogram reading common_timestamp sets its trace array's clock, as Linux's
    hist_register_trigger(): "global" by default (times of two CPUs are subtracted), clock=
    another; an unknown one is Linux's "Couldn't set trace_clock", and nothing is added."""
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo local > trace_clock")
    ok(lucid, "echo 'hist:keys=pid' >> %strigger" % WAKING)  # no times: the clock stays
    assert cat(lucid, "trace_clock").startswith("[local] ")
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING, WAKING))
    assert cat(lucid, "trace_clock").startswith("local [global] ")
    ok(lucid, "echo '!%s' >> %strigger" % (T_WAKING, WAKING))
    t = "hist:keys=next_pid:t=common_timestamp:clock=counter"
    ok(lucid, "echo '%s' >> %strigger" % (t, SWITCH))
    assert "[counter]" in cat(lucid, "trace_clock")
    assert ":clock=counter [active]" in cat(lucid, SWITCH + "trigger")
    ok(lucid, "echo '!%s' >> %strigger" % (t, SWITCH))
    ok(lucid, "echo > error_log")
    t = "hist:keys=next_pid:t=common_timestamp:clock=nosuch"
    fails(lucid, "echo '%s' >> %strigger" % (t, SWITCH))
    assert last_error(lucid) == ("hist:sched:sched_switch", "Couldn't set trace_clock", t,
                                 t.index("nosuch"))
    assert "[counter]" in cat(lucid, "trace_clock")
    assert cat(lucid, SWITCH + "trigger") == HELP
    # an instance's histogram sets the instance's clock, not the top level's
    ok(lucid, "echo local > trace_clock; mkdir instances/clk")
    ok(lucid, "echo '%s' >> instances/clk/%strigger" % (T_WAKING, WAKING))
    assert cat(lucid, "instances/clk/trace_clock").startswith("local [global] ")
    assert cat(lucid, "trace_clock").startswith("[local] ")
    ok(lucid, "echo '!%s' >> instances/clk/%strigger" % (T_WAKING, WAKING))
    ok(lucid, "rmdir instances/clk")
    ok(lucid, "echo '!hist:keys=pid' >> %strigger" % WAKING)
    clean(lucid)


# (event, trigger text, Linux's sentence, the word the caret is under, or None: column 0)
ERRORS = [
    (WAKING, "hist:keys=pid:x=$nosuch", "Couldn't find variable", "nosuch"),
    (SWITCH, "hist:keys=next_pid:onmatch(sched.sched_waking).nosynth($ts0)",
     "Couldn't find synthetic event", "nosynth"),
    (SWITCH, "hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:"
     "onmatch(sched.sched_waking).wakeup_latency($lat)",
     "Param count doesn't match synthetic event field count", "wakeup_latency"),
    (SWITCH, "hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:"
     "onmatch(sched.sched_waking).wakeup_latency(next_comm,next_pid,next_prio)",
     "Param type doesn't match synthetic event field type", "next_comm"),
    (SWITCH, "hist:keys=next_pid:onmax(next_prio).save(prev_pid)",
     "For onmax(x) or onchange(x), x must be a variable", "next_prio"),
    (SWITCH, "hist:keys=next_pid:onmax($nosuch).save(prev_pid)",
     "Couldn't find onmax or onchange variable", "nosuch"),
    (SWITCH, "hist:keys=next_pid:onmatch(sched.sched_waking).save(prev_pid)",
     "Handler doesn't support action", "save"),
    (SWITCH, "hist:keys=next_pid:onmatch(sched).wakeup_latency($ts0)", "Missing subsystem",
     "sched"),
    (SWITCH, "hist:keys=next_pid:onmatch(sched.nosuch).wakeup_latency($ts0)",
     "Invalid subsystem or event name", "nosuch"),
    (SWITCH, "hist:keys=next_pid:x=common_timestamp-$ts0", "Timestamp units in expression "
     "don't match", None),
    (SWITCH, "hist:keys=$ts0", "Using variable references in keys not supported", "$ts0"),
    (SYS_ENTER, "hist:keys=id:x=id/0", "Division by zero", "0"),
    (SYS_ENTER, "hist:keys=id:x=id+1+2+3+4", "Too many subexpressions (3 max)", "id"),
    (SYS_ENTER, "hist:keys=id:x=id,x=common_pid", "Variable already defined", "x"),
    (SYS_ENTER, "hist:keys=id:x=-(id)+1", "Unary minus not supported in sub-expressions",
     "id)+1"),
    (SYS_ENTER, "hist:keys=id:onmax($v).save(id)", "Couldn't find onmax or onchange variable",
     "v"),
]


def test_errors_in_error_log(lucid):
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "echo '%s' >> synthetic_events" % SYNTH)
    ok(lucid, "echo '%s' >> %strigger" % (T_WAKING, WAKING))
    ok(lucid, "echo > error_log")
    for ev, text, sentence, word in ERRORS:
        want_err = "-bash: echo: write error: %s\n" % (
            "Numerical argument out of domain" if "Division" in sentence else "Invalid argument")
        fails(lucid, "echo '%s' >> %strigger" % (text, ev), want_err)
        system, name = ev.split("/")[1:3]
        caret = text.index(word) if word else 0
        assert last_error(lucid) == ("hist:%s:%s" % (system, name), sentence, text, caret), text
        assert not [l for l in cat(lucid, ev + "trigger").splitlines()
                    if l.startswith("hist:") and ev != WAKING], (ev, text)
    # nothing was kept: the synthetic event is free to go
    ok(lucid, "echo '!%s' >> %strigger" % (T_WAKING, WAKING))
    ok(lucid, "echo '!wakeup_latency' >> synthetic_events")
    clean(lucid)


def test_nothing_kept_after_many_rounds(lucid):
    """The recipe (and its form with a field of the matched event) made and removed 1,000
    times: MemFree as before. (Only builtins in the loop:
    a process started would leave the kernel's pid and task caches grown by a page, noise.
    The hits allocate nothing: the maps are made whole when the trigger is.)"""
    reset_tracing(lucid)
    clean(lucid)
    ok(lucid, "set +o history")
    # one round, as a shell function (one line: the console's continuation prompts stay out)
    ok(lucid, "round() { "
              "echo '%s' >> synthetic_events; "
              "echo '%s' >> %strigger; "
              "echo '%s' >> %strigger; "
              "echo '%s' >> %strigger; "
              "echo 1 > %senable; echo 0 > %senable; "
              "echo '!%s' >> %strigger; "
              "echo '!%s' >> %strigger; "
              "echo '!%s' >> %strigger; "
              "echo '!wakeup_latency' >> synthetic_events; }"
       % (SYNTH, T_WAKING, WAKING, T_SWITCH, SWITCH, T_LAT, LAT, LAT, LAT, T_LAT, LAT,
          T_SWITCH, SWITCH, T_WAKING, WAKING))
    # and the form whose parameter is a field of the matched event (a hidden histogram made
    # on sched_waking and removed with sched_switch's)
    ok(lucid, "round2() { "
              "echo '%s' >> synthetic_events; "
              "echo '%s' >> %strigger; "
              "echo '%s' >> %strigger; "
              "echo '!%s' >> %strigger; "
              "echo '!%s' >> %strigger; "
              "echo '!wakeup_latency' >> synthetic_events; }"
       % (SYNTH_COMM, T_WAKING_COMM, WAKING, T_SWITCH_FIELD, SWITCH, T_SWITCH_FIELD, SWITCH,
          T_WAKING_COMM, WAKING))


    # a first thousand: the page allocator's free lists settle (slabinfo's counts do not move
    # from the first round on; MemFree's pages do, for a while)
    ok(lucid, "for i in $(seq 1000); do round; round2; done", timeout=900)
    before = free_kb(lucid)
    ok(lucid, "for i in $(seq 1000); do round; round2; done", timeout=900)
    after = free_kb_back(lucid, before)
    # Nothing kept: MemFree is back to before or above it (a page freed late from before,
    # a reaped task's stack, may land in between; a leak leaves it below).
    assert after >= before, (before, after)
    assert cat(lucid, "synthetic_events") == ""
    ok(lucid, "set -o history")
    clean(lucid)

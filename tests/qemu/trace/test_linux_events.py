"""The events Linux users reach for, from the shell.

kmem (kmalloc, kfree, mm_page_alloc, mm_page_free), sched (sched_waking, sched_migrate_task,
sched_process_free), signal (signal_generate, signal_deliver), task (task_newtask, task_rename),
module (module_load, module_free, module_get, module_put) and timer (hrtimer_start,
hrtimer_cancel, hrtimer_expire_entry, hrtimer_expire_exit): their format files as Linux 6.1's,
and each one fired by something run from the shell, at the right place, with true values.

Every event is declared once (trace/define_trace.h): the format file and the line in `trace`
come from the same TP_printk. test_trace_cmd_report_agrees checks they agree the way a user
would: trace-cmd extract in Lucid, then the host's trace-cmd report of that trace.dat (which
prints from the format files alone) must print the line Lucid's `trace` printed for every
record of every static event, but for what libtraceevent itself prints otherwise than the
kernel (see AS_LIBTRACEEVENT_PRINTS).
"""
import collections
import os
import re
import tempfile

from test_dynamic import PRINTK_LINE, assert_same_report, host_report
from test_events import ALL_EVENTS, COMMON_FIELDS
from tracefs import T, TRACE_PREFIX, cat, ncpus, ok, reset_tracing, sh, until_true

SHARE = tempfile.mkdtemp(prefix="lucid-events30-")
BOOT = {"share": SHARE, "timeout": 120}
MODDIR = "/lib/modules/6.1.0-lucid/kernel/modules"

# --- the format files: Linux 6.1's, from its include/trace/events/*.h, x86-64 as Debian builds it


def fields(*decls):
    return "".join("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % d for d in decls)


COMM = "char comm[16]"
WAKEUP_FIELDS = fields((COMM, 8, 16, 1), ("pid_t pid", 24, 4, 1), ("int prio", 28, 4, 1),
                       ("int target_cpu", 32, 4, 1))
# show_gfp_flags() (include/trace/events/mmflags.h), as include/linux/gfp_types.h expands it
RECLAIM = "(( gfp_t)(0x400u|0x800u))"
USER = "(%s | (( gfp_t)0x40u) | (( gfp_t)0x80u) | (( gfp_t)0x100000u))" % RECLAIM
HIGHUSER = "(%s | (( gfp_t)0x02u))" % USER
MOVABLE = "(%s | (( gfp_t)0x08u) | (( gfp_t)0) | (( gfp_t)0))" % HIGHUSER
LIGHT = "((%s | (( gfp_t)0x40000u) | (( gfp_t)0x80000u) | (( gfp_t)0x2000u)) & ~%s)" % (MOVABLE,
                                                                                     RECLAIM)
KERNEL = "(%s | (( gfp_t)0x40u) | (( gfp_t)0x80u))" % RECLAIM
GFP_NAMES = [
    ("(%s | (( gfp_t)0x400u))" % LIGHT, "GFP_TRANSHUGE"), (LIGHT, "GFP_TRANSHUGE_LIGHT"),
    (MOVABLE, "GFP_HIGHUSER_MOVABLE"), (HIGHUSER, "GFP_HIGHUSER"), (USER, "GFP_USER"),
    ("(%s | (( gfp_t)0x400000u))" % KERNEL, "GFP_KERNEL_ACCOUNT"), (KERNEL, "GFP_KERNEL"),
    ("(%s | (( gfp_t)0x40u))" % RECLAIM, "GFP_NOFS"),
    ("((( gfp_t)0x20u)|(( gfp_t)0x200u)|(( gfp_t)0x800u))", "GFP_ATOMIC"),
    ("(%s)" % RECLAIM, "GFP_NOIO"), ("((( gfp_t)0x800u))", "GFP_NOWAIT"),
    ("(( gfp_t)0x01u)", "GFP_DMA"), ("(( gfp_t)0x02u)", "__GFP_HIGHMEM"),
    ("(( gfp_t)0x04u)", "GFP_DMA32"), ("(( gfp_t)0x20u)", "__GFP_HIGH"),
    ("(( gfp_t)0x200u)", "__GFP_ATOMIC"), ("(( gfp_t)0x40u)", "__GFP_IO"),
    ("(( gfp_t)0x80u)", "__GFP_FS"), ("(( gfp_t)0x2000u)", "__GFP_NOWARN"),
    ("(( gfp_t)0x4000u)", "__GFP_RETRY_MAYFAIL"), ("(( gfp_t)0x8000u)", "__GFP_NOFAIL"),
    ("(( gfp_t)0x10000u)", "__GFP_NORETRY"), ("(( gfp_t)0x40000u)", "__GFP_COMP"),
    ("(( gfp_t)0x100u)", "__GFP_ZERO"), ("(( gfp_t)0x80000u)", "__GFP_NOMEMALLOC"),
    ("(( gfp_t)0x20000u)", "__GFP_MEMALLOC"), ("(( gfp_t)0x100000u)", "__GFP_HARDWALL"),
    ("(( gfp_t)0x200000u)", "__GFP_THISNODE"), ("(( gfp_t)0x10u)", "__GFP_RECLAIMABLE"),
    ("(( gfp_t)0x08u)", "__GFP_MOVABLE"), ("(( gfp_t)0x400000u)", "__GFP_ACCOUNT"),
    ("(( gfp_t)0x1000u)", "__GFP_WRITE"), (RECLAIM, "__GFP_RECLAIM"),
    ("(( gfp_t)0x400u)", "__GFP_DIRECT_RECLAIM"), ("(( gfp_t)0x800u)", "__GFP_KSWAPD_RECLAIM"),
    ("(( gfp_t)0x800000u)", "__GFP_ZEROTAGS")]
SHOW_GFP = ("(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", " +
            ", ".join('{( unsigned long)%s, "%s"}' % n for n in GFP_NAMES) + " ) : \"none\"")
PAGE = "(((struct page *)vmemmap_base) + (REC->pfn))"
MODES = ["ABS", "REL", "ABS|PINNED", "REL|PINNED", "ABS|SOFT", "REL|SOFT", "ABS|PINNED|SOFT",
         "REL|PINNED|SOFT", "ABS|HARD", "REL|HARD", "ABS|PINNED|HARD", "REL|PINNED|HARD"]
TAINTS = [(0, "P"), (12, "O"), (1, "F"), (10, "C"), (13, "E")]
REFCNT = (fields(("unsigned long ip", 8, 8, 0), ("int refcnt", 16, 4, 1),
                 ("__data_loc char[] name", 20, 4, 1)),
          '"%s call_site=%ps refcnt=%d", __get_str(name), (void *)REC->ip, REC->refcnt')
HRTIMER = (fields(("void * hrtimer", 8, 8, 0)), '"hrtimer=%p", REC->hrtimer')
FORMATS = {
    "kmalloc": (
        fields(("unsigned long call_site", 8, 8, 0), ("const void * ptr", 16, 8, 0),
               ("size_t bytes_req", 24, 8, 0), ("size_t bytes_alloc", 32, 8, 0),
               ("unsigned long gfp_flags", 40, 8, 0), ("int node", 48, 4, 1)),
        '"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d '
        'accounted=%s", (void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc, ' +
        SHOW_GFP + ', REC->node, (1 && (REC->gfp_flags & (( gfp_t)0x400000u))) ? "true" : '
        '"false"'),
    "kfree": (fields(("unsigned long call_site", 8, 8, 0), ("const void * ptr", 16, 8, 0)),
              '"call_site=%pS ptr=%p", (void *)REC->call_site, REC->ptr'),
    "mm_page_alloc": (
        fields(("unsigned long pfn", 8, 8, 0), ("unsigned int order", 16, 4, 0),
               ("unsigned long gfp_flags", 24, 8, 0), ("int migratetype", 32, 4, 1)),
        '"page=%p pfn=0x%lx order=%d migratetype=%d gfp_flags=%s", REC->pfn != -1UL ? ' + PAGE +
        ' : ((void *)0), REC->pfn != -1UL ? REC->pfn : 0, REC->order, REC->migratetype, ' +
        SHOW_GFP),
    "mm_page_free": (fields(("unsigned long pfn", 8, 8, 0), ("unsigned int order", 16, 4, 0)),
                     '"page=%p pfn=0x%lx order=%d", ' + PAGE + ', REC->pfn, REC->order'),
    "sched_waking": (WAKEUP_FIELDS, '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, '
                                    'REC->pid, REC->prio, REC->target_cpu'),
    "sched_migrate_task": (
        fields((COMM, 8, 16, 1), ("pid_t pid", 24, 4, 1), ("int prio", 28, 4, 1),
               ("int orig_cpu", 32, 4, 1), ("int dest_cpu", 36, 4, 1)),
        '"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", REC->comm, REC->pid, REC->prio, '
        'REC->orig_cpu, REC->dest_cpu'),
    "sched_process_free": (
        fields((COMM, 8, 16, 1), ("pid_t pid", 24, 4, 1), ("int prio", 28, 4, 1)),
        '"comm=%s pid=%d prio=%d", REC->comm, REC->pid, REC->prio'),
    "signal_generate": (
        fields(("int sig", 8, 4, 1), ("int errno", 12, 4, 1), ("int code", 16, 4, 1),
               (COMM, 20, 16, 1), ("pid_t pid", 36, 4, 1), ("int group", 40, 4, 1),
               ("int result", 44, 4, 1)),
        '"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d", REC->sig, REC->errno, '
        'REC->code, REC->comm, REC->pid, REC->group, REC->result'),
    "signal_deliver": (
        fields(("int sig", 8, 4, 1), ("int errno", 12, 4, 1), ("int code", 16, 4, 1),
               ("unsigned long sa_handler", 24, 8, 0), ("unsigned long sa_flags", 32, 8, 0)),
        '"sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx", REC->sig, REC->errno, '
        'REC->code, REC->sa_handler, REC->sa_flags'),
    "task_newtask": (
        fields(("pid_t pid", 8, 4, 1), (COMM, 12, 16, 1), ("unsigned long clone_flags", 32, 8, 0),
               ("short oom_score_adj", 40, 2, 1)),
        '"pid=%d comm=%s clone_flags=%lx oom_score_adj=%hd", REC->pid, REC->comm, '
        'REC->clone_flags, REC->oom_score_adj'),
    "task_rename": (
        fields(("pid_t pid", 8, 4, 1), ("char oldcomm[16]", 12, 16, 1),
               ("char newcomm[16]", 28, 16, 1), ("short oom_score_adj", 44, 2, 1)),
        '"pid=%d oldcomm=%s newcomm=%s oom_score_adj=%hd", REC->pid, REC->oldcomm, '
        'REC->newcomm, REC->oom_score_adj'),
    "module_load": (
        fields(("unsigned int taints", 8, 4, 0), ("__data_loc char[] name", 12, 4, 1)),
        '"%s %s", __get_str(name), __print_flags(REC->taints, "", ' +
        ", ".join('{ (1UL << %d), "%s" }' % t for t in TAINTS) + ')'),
    "module_free": (fields(("__data_loc char[] name", 8, 4, 1)), '"%s", __get_str(name)'),
    "module_get": REFCNT,
    "module_put": REFCNT,
    "hrtimer_start": (
        fields(("void * hrtimer", 8, 8, 0), ("void * function", 16, 8, 0),
               ("s64 expires", 24, 8, 1), ("s64 softexpires", 32, 8, 1),
               ("enum hrtimer_mode mode", 40, 4, 0)),
        '"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s", REC->hrtimer, '
        'REC->function, (unsigned long long) REC->expires, (unsigned long long) '
        'REC->softexpires, __print_symbolic(REC->mode, ' +
        ", ".join('{ %d, "%s" }' % (i, m) for i, m in enumerate(MODES)) + ')'),
    "hrtimer_expire_entry": (
        fields(("void * hrtimer", 8, 8, 0), ("s64 now", 16, 8, 1), ("void * function", 24, 8, 0)),
        '"hrtimer=%p function=%ps now=%llu", REC->hrtimer, REC->function, '
        '(unsigned long long) REC->now'),
    "hrtimer_expire_exit": HRTIMER,
    "hrtimer_cancel": HRTIMER,
}
NEW = {e.split(":")[1]: e for e in ALL_EVENTS if e.split(":")[1] in FORMATS}
STATIC = {e.split(":")[1] for e in ALL_EVENTS}  # every static event's name

# --- reading the trace -------------------------------------------------------------------------

# Lucid's `trace` line (tracefs.TRACE_PREFIX), and trace-cmd report's: no flags column, the
# instance's name first when it reads one ("osn: "), the event's text padded after its name.
EVENT_LINE = re.compile(r"^(?:\w+: )?" + TRACE_PREFIX + r"(?P<event>\w+): +(?P<body>.*)$")


def quiet(k, cmd, timeout=120):
    """cmd succeeds and prints nothing but the kernel's log lines (a module's init)."""
    out = PRINTK_LINE.sub("", sh(k, cmd, timeout))
    assert out == "" and k.status() == 0, (cmd, out)


def parse(text):
    """[(event, {field: value}, match)] of the event lines of text: the body's name=value
    words (a value runs to the next blank)."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip() or line.startswith("cpus="):
            continue
        m = EVENT_LINE.match(line)
        assert m, "not an event line: %r" % line
        out.append((m.group("event"), dict(re.findall(r"(\w+)=(\S*)", m.group("body"))), m))
    return out


def events(k, name="trace"):
    return parse(PRINTK_LINE.sub("", cat(k, name, timeout=120)))


def of(evs, event, **want):
    return [(f, m) for e, f, m in evs if e == event and all(f.get(a) == v for a, v in want.items())]


# --- the files -----------------------------------------------------------------------------------


# raw_syscalls:sys_enter as Linux 6.1 printed it (../shared/reference/linux-6.1-probes/
# sys_enter_format.txt), and sys_exit as it declares it: events converted to TRACE_EVENT() that
# no other test reads byte for byte.
SYS_ENTER = (fields(("long id", 8, 8, 1), ("unsigned long args[6]", 16, 48, 0)),
             '"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id, REC->args[0], REC->args[1], '
             'REC->args[2], REC->args[3], REC->args[4], REC->args[5]')
SYS_EXIT = (fields(("long id", 8, 8, 1), ("long ret", 16, 8, 1)),
            '"NR %ld = %ld", REC->id, REC->ret')


def test_formats_as_linux_61(lucid):
    reset_tracing(lucid)
    for name, (own, fmt) in [("sys_enter", SYS_ENTER), ("sys_exit", SYS_EXIT)]:
        d = "events/raw_syscalls/" + name
        ident = int(cat(lucid, d + "/id"))
        assert cat(lucid, d + "/format") == ("name: %s\nID: %d\nformat:\n%s\n%s\nprint fmt: %s\n"
                                             % (name, ident, COMMON_FIELDS, own, fmt)), name
    assert set(NEW) == set(FORMATS), NEW
    for name, (own, fmt) in FORMATS.items():
        d = "events/" + NEW[name].replace(":", "/")
        ident = int(cat(lucid, d + "/id"))
        want = ("name: %s\nID: %d\nformat:\n%s\n%s\nprint fmt: %s\n" %
                (name, ident, COMMON_FIELDS, own, fmt))
        assert cat(lucid, d + "/format") == want, name


# --- each event, fired ---------------------------------------------------------------------------


def test_kmem_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/kmem/enable")
    sh(lucid, "ls /nonexistent/path-of-26-bytes")  # getname() keeps the path: 27 bytes
    sh(lucid, "/bin/true")  # a program's pages come and go
    ok(lucid, "echo 0 > events/kmem/enable")
    ok(lucid, "echo 0 > options/hash-ptr")  # the addresses, not their hashes (page= below)
    evs = events(lucid)
    ok(lucid, "echo 1 > options/hash-ptr")
    allocs = of(evs, "kmalloc")
    assert allocs and of(evs, "kfree") and of(evs, "mm_page_alloc") and of(evs, "mm_page_free")
    for f, m in allocs:
        req, got = int(f["bytes_req"]), int(f["bytes_alloc"])
        # Lucid's slabs are powers of two from 16 to 2048 bytes; above, whole pages.
        assert got >= max(req, 16) and (got & (got - 1) == 0 if got <= 2048 else got % 4096 == 0)
        assert f["gfp_flags"] == "GFP_KERNEL" and f["node"] == "-1" and \
            f["accounted"] == "false", m.group(0)
        assert re.match(r"^\w+\+0x[0-9a-f]+/0x[0-9a-f]+$", f["call_site"]), m.group(0)
    path = of(evs, "kmalloc", bytes_req=str(len("/nonexistent/path-of-26-bytes") + 1))
    assert any(f["call_site"].startswith("getname+") for f, _ in path), allocs[:20]
    # Each block freed was one of those handed out (or was there before), at its address.
    given = {f["ptr"] for f, _ in allocs}
    freed = [f["ptr"] for f, _ in of(evs, "kfree")]
    assert set(freed) & given, (freed[:10], list(given)[:10])
    # page is the struct page of pfn: one array, one stride, as Linux's vmemmap.
    pages = [(int(f["page"], 16), int(f["pfn"], 16)) for e in ("mm_page_alloc", "mm_page_free")
             for f, _ in of(evs, e)]
    (p0, n0), (p1, n1) = pages[0], next(p for p in pages if p[1] != pages[0][1])
    stride = (p1 - p0) // (n1 - n0)
    assert stride > 0 and all(p - n * stride == p0 - n0 * stride for p, n in pages), pages[:5]
    for f, m in of(evs, "mm_page_alloc"):
        assert f["gfp_flags"] == "GFP_KERNEL" and f["migratetype"] == "0", m.group(0)
    # The program's pages: allocated, then freed when it exits.
    alloc_pfns = {f["pfn"] for f, _ in of(evs, "mm_page_alloc", order="0")}
    assert alloc_pfns & {f["pfn"] for f, _ in of(evs, "mm_page_free", order="0")}


def test_sched_waking_migrate_free(lucid):
    reset_tracing(lucid)
    cpus = ncpus(lucid)
    ok(lucid, "echo 'sched:sched_waking sched:sched_wakeup sched:sched_migrate_task "
              "sched:sched_process_exit sched:sched_process_free' > set_event")
    # A shell pinned to CPU 0 waits while another process pins it to CPU 1: its wakeup must
    # move it there.
    out = sh(lucid, "taskset -c 0 sh -c 'taskset -p -c 1 $$ > /dev/null; sleep 0.05'")
    ok(lucid, "echo > set_event")
    evs = events(lucid)
    # Every wakeup comes after its waking, of the same task, by the same waker's CPU.
    for i, (e, f, m) in enumerate(evs):
        if e == "sched_wakeup":
            assert any(e2 == "sched_waking" and f2["pid"] == f["pid"] and
                       m2.group("cpu") == m.group("cpu") for e2, f2, m2 in evs[:i]), m.group(0)
    assert of(evs, "sched_waking"), out
    assert of(evs, "sched_migrate_task", comm="sh", orig_cpu="0", dest_cpu="1"), evs
    for f, m in of(evs, "sched_migrate_task"):
        assert f["orig_cpu"] != f["dest_cpu"] and int(f["dest_cpu"]) < cpus, m.group(0)
    # The sleep exits, and is freed after it, with its name and pid.
    exits = of(evs, "sched_process_exit", comm="sleep")
    assert len(exits) == 1, exits
    for f, m in exits:
        frees = of(evs, "sched_process_free", comm="sleep", pid=f["pid"])
        assert len(frees) == 1 and float(frees[0][1].group("ts")) >= float(m.group("ts")), f


def test_signal_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/signal/enable")
    pid = sh(lucid, "sleep 100 & echo $!").split()[-1]  # until the kill, however slow the host
    # bash's child is named bash until it has exec'd sleep: kill it only once it is sleep, or
    # the event's comm depends on how fast the child ran (as on Linux). Bounded wait.
    sh(lucid, "for i in $(seq 500); do [ \"$(cat /proc/%s/comm)\" = sleep ] && break; "
              "done" % pid)
    sh(lucid, "kill -TERM %s; wait" % pid)
    sh(lucid, "bash -c 'trap \"\" USR1; kill -USR1 $$; trap \"echo caught\" USR2; "
              "kill -USR2 $$'")
    segv = PRINTK_LINE.sub("", sh(lucid, "segv; echo $?"))
    ok(lucid, "echo 0 > events/signal/enable")
    assert segv.endswith("139\n"), segv
    evs = events(lucid)
    # kill(2): to the process (grp=1), by a user (code 0, SI_USER), pending now (res=0)...
    gen = of(evs, "signal_generate", sig="15", pid=pid)
    assert [f for f, _ in gen] == [{"sig": "15", "errno": "0", "code": "0", "comm": "sleep",
                                    "pid": pid, "grp": "1", "res": "0"}], gen
    # ...then taken by sleep, with the default action (handler 0): it dies of it.
    took = [(f, m) for f, m in of(evs, "signal_deliver", sig="15") if m.group("pid") == pid]
    assert [f for f, _ in took] == [{"sig": "15", "errno": "0", "code": "0", "sa_handler": "0",
                                     "sa_flags": "0"}], took
    # Its parent hears of it: SIGCHLD, CLD_KILLED (2).
    assert of(evs, "signal_generate", sig="17", code="2", grp="1", comm="bash"), evs
    # An ignored signal is dropped at once (res=1); a caught one runs its handler.
    assert of(evs, "signal_generate", sig="10", res="1"), evs
    caught = of(evs, "signal_deliver", sig="12")
    assert caught and all(f["sa_handler"] not in ("0", "1") for f, _ in caught), caught
    # A fault's signal goes to the thread (grp=0), with the fault's code (SEGV_MAPERR, 1).
    assert of(evs, "signal_generate", sig="11", code="1", comm="segv", grp="0", res="0"), evs
    assert of(evs, "signal_deliver", sig="11", code="1", sa_handler="0"), evs


def test_task_events(lucid):
    reset_tracing(lucid)
    ok(lucid, "echo 1 > events/task/enable")
    sh(lucid, "/bin/true; bbcalls > /dev/null")
    ok(lucid, "echo 0 > events/task/enable")
    evs = events(lucid)
    news = of(evs, "task_newtask", comm="bash")
    # bash forks with glibc's fork(): CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD.
    assert len(news) >= 2 and all(f["clone_flags"] == "1200011" and f["oom_score_adj"] == "0"
                                  for f, _ in news), news
    true_pid = news[0][0]["pid"]
    assert of(evs, "task_rename", pid=true_pid, oldcomm="bash", newcomm="true"), evs
    bb = of(evs, "task_rename", oldcomm="bash", newcomm="bbcalls")
    assert bb, evs
    # prctl(PR_SET_NAME), cut to 15 bytes as Linux cuts it.
    assert of(evs, "task_rename", pid=bb[0][0]["pid"], oldcomm="bbcalls",
              newcomm="a-rather-long-n"), evs


def module_refs_in_instance(lucid):
    """A module referenced and let go while instances/mod (made here) records the module
    events: mytracer loaded, made the tracer and back, unloaded."""
    ok(lucid, "mkdir instances/mod")
    ok(lucid, "echo 1 > instances/mod/events/module/enable")
    quiet(lucid, "insmod %s/mytracer.ko" % MODDIR)
    ok(lucid, "echo mytracer > current_tracer")
    ok(lucid, "echo nop > current_tracer")
    quiet(lucid, "rmmod mytracer")


def test_module_events(lucid):
    reset_tracing(lucid)
    # A tracer switch empties the trace: the module's references are recorded in an instance.
    ok(lucid, "echo 1 > events/module/enable")
    quiet(lucid, "insmod %s/foo.ko; rmmod foo" % MODDIR)
    top = events(lucid)
    module_refs_in_instance(lucid)
    ok(lucid, "echo 0 > events/module/enable")
    inst = events(lucid, "instances/mod/trace")
    ok(lucid, "rmdir instances/mod")
    # Lucid's modules taint nothing: the flags after the name are none.
    assert [(e, m.group("body")) for e, f, m in top if e.startswith("module_")] == [
        ("module_load", "foo "), ("module_free", "foo")], top
    lines = [(e, m.group("body")) for e, f, m in inst]
    assert [e for e, _ in lines] == ["module_load", "module_get", "module_put", "module_free"], \
        lines
    assert lines[0][1] == "mytracer " and lines[3][1] == "mytracer", lines
    # One reference while it is the tracer: Linux's count, one more than the references.
    # (%ps names a module's function with its module, as Linux's does)
    assert re.match(r"^mytracer call_site=\w+( \[mytracer\])? refcnt=2$", lines[1][1]), lines
    assert re.match(r"^mytracer call_site=\w+( \[mytracer\])? refcnt=1$", lines[2][1]), lines


def test_timer_events(lucid):
    reset_tracing(lucid)
    cpus = ncpus(lucid)
    ok(lucid, "echo 1 > events/timer/enable")
    sh(lucid, "sleep 0.3")
    ok(lucid, "echo 0 > events/timer/enable")
    evs = events(lucid)
    # The sleep's timer: queued at an absolute time, taken off the queue, run after it expired.
    starts = of(evs, "hrtimer_start", function="hrtimer_wakeup", mode="ABS")
    assert starts, evs[:20]
    ran = 0
    for f, m in starts:
        assert f["expires"] == f["softexpires"], m.group(0)
        runs = of(evs, "hrtimer_expire_entry", hrtimer=f["hrtimer"], function="hrtimer_wakeup")
        for r, rm in runs:
            assert int(r["now"]) >= int(f["expires"]), (m.group(0), rm.group(0))
            i = evs.index(("hrtimer_expire_entry", r, rm))
            assert ("hrtimer_cancel", {"hrtimer": f["hrtimer"]}) in [(e, g) for e, g, _ in
                                                                      evs[:i]], rm.group(0)
            assert any(e == "hrtimer_expire_exit" and g["hrtimer"] == f["hrtimer"]
                       for e, g, _ in evs[i + 1:]), rm.group(0)
            ran += 1
    assert ran, starts
    # The tick: each CPU's own timer, its work framed by entry and exit, in interrupt context.
    ticks = collections.defaultdict(set)
    for f, m in of(evs, "hrtimer_expire_entry", function="tick_sched_timer"):
        ticks[m.group("cpu")].add(f["hrtimer"])
    assert len(ticks) >= 2 and all(len(t) == 1 for t in ticks.values()), ticks
    assert len({t for s in ticks.values() for t in s}) == len(ticks) <= cpus


# --- trace-cmd's report of the same records ------------------------------------------------------

# What libtraceevent prints otherwise than the kernel, from the same format (as with Linux's
# own files): %pS without the function's size ("getname+0x13a", not "getname+0x13a/0x1f0"),
# %ps without a module's name after its function's ("mytracer_init", not "... [mytracer]");
# %p with "0x" before the digits, and NULL as "(nil)"; and page=, which it computes from the
# format's vmemmap_base, a kernel variable it cannot know, as 0: so it prints the pfn there.
P_FIELDS = ("ptr", "hrtimer", "page")


def as_libtraceevent_prints(event, body):
    body = re.sub(r"(\w\+0x[0-9a-f]+)/0x[0-9a-f]+", r"\1", body)
    body = re.sub(r"(call_site=\w+) \[\w+\]", r"\1", body)
    body = re.sub(r"\b(%s)=([0-9a-f]{16})\b" % "|".join(P_FIELDS), r"\1=0x\2", body)
    body = re.sub(r"\b(%s)=0x0{16}\b" % "|".join(P_FIELDS), r"\1=(nil)", body)
    if event in ("mm_page_alloc", "mm_page_free"):
        body = re.sub(r"page=0x[0-9a-f]+ pfn=(0x[0-9a-f]+)", r"page=\1 pfn=\1", body)
    return body


def assert_report_agrees(trace_text, report_text):
    """Every record's line in `trace`, as trace-cmd report printed it; returns the events seen."""
    mine, theirs = collections.Counter(), collections.Counter()
    for e, _, m in parse(trace_text):
        if e in STATIC:  # the static events, not trace_printk's
            mine[(m.group("cpu"), m.group("ts"), e,
                  as_libtraceevent_prints(e, m.group("body").rstrip()))] += 1
    for e, _, m in parse(report_text):
        if e in STATIC:
            theirs[(m.group("cpu"), m.group("ts"), e, m.group("body").rstrip())] += 1
    assert mine == theirs, (list((mine - theirs).items())[:5], list((theirs - mine).items())[:5])
    return {k[2] for k in mine}


def record_in_lucid(lucid, name, trace_file="trace", extract=""):
    """Lucid's `trace`, and the host's trace-cmd report of what trace-cmd extract made of the
    same buffer in Lucid; Lucid's own trace-cmd report of it must be the host's."""
    # hash-ptr off: libtraceevent prints a %p's address, as Linux's trace with it off
    ok(lucid, "echo 0 > %s/options/hash-ptr" % T)
    ok(lucid, "cat %s/%s > /mnt/host/%s.txt" % (T, trace_file, name), 120)
    ok(lucid, "echo 1 > %s/options/hash-ptr" % T)
    out = PRINTK_LINE.sub("", sh(lucid, "cd /tmp; trace-cmd extract %s -o /tmp/%s.dat > "
                                        "/dev/null 2>&1; echo $?; cd %s" % (extract, name, T), 300))
    assert out == "0\n", out
    report = PRINTK_LINE.sub("", sh(lucid, "trace-cmd report -i /tmp/%s.dat" % name, 300))
    ok(lucid, "cp /tmp/%s.dat /mnt/host/%s.dat; rm /tmp/%s.dat" % (name, name, name), 120)
    host, squeezed = host_report(os.path.join(SHARE, name + ".dat"))
    assert_same_report(host, report, squeezed)
    with open(os.path.join(SHARE, name + ".txt")) as f:
        trace_text = f.read()
    return trace_text, report


def test_trace_cmd_report_agrees(lucid):
    reset_tracing(lucid)
    size = cat(lucid, "buffer_size_kb").strip()
    ok(lucid, "echo 4096 > buffer_size_kb")  # room for every record of the commands below
    # preemptirq's caller and parent are offsets from _stext, which the host's libtraceevent
    # cannot turn into names without Lucid's kallsyms: test_latency_tracers checks its lines.
    # osnoise's come only while the osnoise or timerlat tracer runs: the test below.
    events = [e for e in ALL_EVENTS if not e.startswith(("preemptirq:", "osnoise:"))]
    systems = sorted({e.split(":")[0] for e in events})
    ok(lucid, "echo '%s' > set_event" % " ".join(s + ":*" for s in systems))
    pid = sh(lucid, "sleep 5 & echo $!").split()[-1]
    sh(lucid, "kill -TERM %s; wait; taskset -c 1 /bin/true; segv; bbcalls; sleep 0.05" % pid)
    sh(lucid, "insmod %s/foo.ko; rmmod foo; cat /mnt/host/nothing 2>/dev/null" % MODDIR)
    ok(lucid, "echo > set_event")
    trace_text, report = record_in_lucid(lucid, "all")
    ok(lucid, "echo %s > buffer_size_kb" % size)
    seen = assert_report_agrees(trace_text, report)
    # Every static event, but the two of a module reference (below) and a migration, which
    # the taskset may not have needed.
    want = {e.split(":")[1] for e in events} - {"module_get", "module_put"}
    assert want - {"sched_migrate_task"} <= seen, want - seen
    # A module's references, in an instance (a tracer switch empties the top level's buffer).
    module_refs_in_instance(lucid)
    ok(lucid, "echo 0 > instances/mod/events/module/enable")
    trace_text, report = record_in_lucid(lucid, "mod", "instances/mod/trace", "-B mod")
    sh(lucid, "[ -d instances/mod ] && rmdir instances/mod")  # (trace-cmd extract may have)
    assert "module_get: " in trace_text and "module_put: " in trace_text, trace_text
    assert assert_report_agrees(trace_text, report) == {"module_load", "module_get",
                                                        "module_put", "module_free"}


def test_trace_cmd_reads_osnoise_events(lucid):
    """The osnoise:* events of the osnoise tracer, run in an instance of their own (as rtla
    does), as trace-cmd report prints them from their format files."""
    reset_tracing(lucid)
    ok(lucid, "mkdir instances/osn")
    try:
        ok(lucid, "echo 100000 > osnoise/runtime_us; echo 200000 > osnoise/period_us")
        ok(lucid, "echo 1 > instances/osn/events/osnoise/enable")
        ok(lucid, "echo osnoise > instances/osn/current_tracer; sleep 1")
        until_true(lucid, " && ".join("grep -q %s: instances/osn/trace" % e
                                      for e in ("sample_threshold", "irq_noise")))
        ok(lucid, "echo 0 > instances/osn/tracing_on")  # and the threads stop
        trace_text, report = record_in_lucid(lucid, "osn", "instances/osn/trace", "-B osn")
        # The tracer's own period lines are no event's (report names them "osnoise: noise:").
        summary = re.compile(r"^.*\[\d{3}\] \S{4} +\d+\.\d{6}: [\d. ]+$")
        trace_text = "\n".join(l for l in trace_text.splitlines() if not summary.match(l))
        seen = assert_report_agrees(trace_text, report)
        assert {"sample_threshold", "irq_noise"} <= seen, seen
    finally:
        sh(lucid, "echo nop > instances/osn/current_tracer")
        sh(lucid, "echo 1000000 > osnoise/period_us; echo 1000000 > osnoise/runtime_us")
        sh(lucid, "[ -d instances/osn ] && rmdir instances/osn")

"""ftrace and loadable modules: code that comes and goes while the tracer watches.

A module's call sites are NOPs before its init runs and join available_filter_functions with
" [foo]" (ftrace_module_init); the current filters reach them before the init, so the init is
traced (ftrace_module_enable); "glob:mod:foo" filters wait for the module and apply when it
loads; on rmmod its sites leave every table, and the lines already in the trace still name its
functions (ftrace_release_mod, ftrace_mod_map). docs/design/modules.md tells the story.
"""
import re
from lucid import OOPS_MARK, Lucid
import tracefs
from tracefs import EINVAL, T, TRACE_LINE, cat, ok, reset_tracing, sh

# A refused write, in the words of the console's shell (bash, a login shell: "-bash")

BOOT = {"cmdline": "ftrace_selftest"}

# "%16s-%-5d [%03d] " + 4 flags + " %5lu.%06lu: " + body
# Where modprobe finds them (/lib/modules/$(uname -r)); insmod takes the file, as the article's
MOD = "/lib/modules/6.1.0-lucid/kernel/modules/%s.ko"
FOO, FAULTY = MOD % "foo", MOD % "faulty"
# The article's line: %p as Linux prints it, bar being the module's data (MODULES_VADDR)
ARTICLE = r"read foo 10 out of bar ffffffffc[0-9a-f]{7}"


def reset_modules(k):
    """reset_tracing(), and foo unloaded."""
    ok(k, "cd %s" % T)
    if "foo " in sh(k, "cat /proc/modules"):
        ok(k, "rmmod foo")
    reset_tracing(k)


def fails(k, cmd):
    """cmd prints bash's EINVAL and fails with status 1."""
    tracefs.fails(k, cmd, EINVAL)


def events(text):
    return [l for l in text.splitlines() if l and not l.startswith("#")]


def bodies(k):
    out = []
    for line in events(cat(k, "trace")):
        m = TRACE_LINE.match(line)
        assert m, line
        out.append(m.group("body"))
    return out


def test_nop_tracer_prints_the_article_line(lucid):
    reset_modules(lucid)
    ok(lucid, "insmod %s" % FOO)
    lines = events(cat(lucid, "trace"))
    assert len(lines) == 1, lines
    assert re.match(r"^ {10}insmod-\d+ +\[\d{3}\] \.\.\.\. +\d+\.\d{6}: foo_init: %s$"
                    % ARTICLE, lines[0]), lines
    ok(lucid, "rmmod foo")


def test_function_graph_traces_the_init(lucid):
    """The article's insmod under function_graph: foo_init's call, its message as a comment."""
    reset_modules(lucid)
    ok(lucid, "echo 'do_one_initcall foo_*:mod:foo' > set_ftrace_filter")
    ok(lucid, "echo function_graph > current_tracer")
    ok(lucid, "insmod %s" % FOO)
    ok(lucid, "echo 0 > tracing_on")  # a new tracer would empty the buffer
    lines = [l for l in events(cat(lucid, "trace")) if "-----" not in l and "=>" not in l]
    text = "\n".join(lines)
    # %ps, as Linux's graph prints a module's function: "foo_init [foo]"
    assert re.search(r"^ \d\) +\| +do_one_initcall\(\) \{\n"
                     r" \d\) +\| +foo_init \[foo\]\(\) \{\n"
                     r" \d\) +\| +/\* %s \*/\n"
                     r" \d\) .*us +\| +\}\n"
                     r" \d\) .*us +\| +\}$" % ARTICLE, text, re.M), text
    ok(lucid, "rmmod foo")


def test_mod_filter_kept_until_the_module_loads(lucid):
    reset_modules(lucid)
    # foo is not loaded: a plain name of its is no function, but :mod: is kept
    fails(lucid, "echo foo_init > set_ftrace_filter")
    ok(lucid, "echo '*:mod:foo' > set_ftrace_filter")
    # only kept: the set itself is empty, every function (as Linux)
    assert cat(lucid, "set_ftrace_filter") == "#### all functions enabled ####\n*:mod:foo\n"
    ok(lucid, "echo do_one_initcall >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "do_one_initcall\n*:mod:foo\n"
    ok(lucid, "echo 'foo_exit:mod:foo' > set_ftrace_notrace")
    assert cat(lucid, "set_ftrace_notrace") == \
        "#### no functions disabled ####\nfoo_exit:mod:foo\n"
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "insmod %s" % FOO)
    # applied, and used up, as Linux's process_cached_mods
    assert cat(lucid, "set_ftrace_filter") == "do_one_initcall\nfoo_init [foo]\nfoo_exit [foo]\n"
    assert cat(lucid, "set_ftrace_notrace") == "foo_exit [foo]\n"
    assert sh(lucid, "grep foo enabled_functions") == "foo_init [foo] (1)      \n"
    ok(lucid, "rmmod foo")
    ok(lucid, "echo 0 > tracing_on")
    b = bodies(lucid)
    assert re.match(r"^do_one_initcall <-\w+$", b[0]), b
    assert b[1] == "foo_init <-do_one_initcall", b
    assert re.match(r"^foo_init: %s$" % ARTICLE, b[2]), b
    assert b[3:] == ["foo_exit: foo says goodbye"], b  # foo_exit is notrace'd
    # The module gone, its functions leave the sets; the notrace set keeps its count (Linux's
    # clear_mod_from_hash), listing nothing.
    assert cat(lucid, "set_ftrace_filter") == "do_one_initcall\n"
    assert cat(lucid, "set_ftrace_notrace") == ""
    reset_modules(lucid)


def test_mod_filter_words(lucid):
    reset_modules(lucid)
    ok(lucid, "insmod %s" % FOO)
    ok(lucid, "echo 'foo_*:mod:foo' > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\nfoo_exit [foo]\n"
    ok(lucid, "echo '!foo_exit:mod:foo' >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\n"
    # loaded, and nothing of it is called that: refused, and nothing changes
    fails(lucid, "echo 'nosuch*:mod:foo' >> set_ftrace_filter")
    fails(lucid, "echo 'schedule *:mod:' >> set_ftrace_filter")
    fails(lucid, "echo '!*:mod:bar' >> set_ftrace_filter")  # nothing kept for bar
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\n"
    # kernel functions are no module's
    fails(lucid, "echo 'schedule:mod:foo' >> set_ftrace_filter")
    # kept words: listed after the functions, "!" forgets them, ">" too
    ok(lucid, "echo 'a*:mod:bar b*:mod:bar' >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\na*:mod:bar\nb*:mod:bar\n"
    ok(lucid, "echo '!a*:mod:bar' >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\nb*:mod:bar\n"
    ok(lucid, "echo '!*:mod:bar' >> set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "foo_init [foo]\n"
    ok(lucid, "echo 'x:mod:bar' >> set_ftrace_filter")
    ok(lucid, "echo schedule > set_ftrace_filter")
    assert cat(lucid, "set_ftrace_filter") == "schedule\n"
    ok(lucid, "rmmod foo")
    reset_modules(lucid)


def test_available_filter_functions_follow_the_module(lucid):
    reset_modules(lucid)
    before = cat(lucid, "available_filter_functions")
    info = cat(lucid, "dyn_ftrace_total_info")
    assert "[foo]" not in before
    ok(lucid, "insmod %s" % FOO)
    during = cat(lucid, "available_filter_functions")
    assert during == before + "foo_init [foo]\nfoo_exit [foo]\n"
    m = re.match(r"^(\d+) pages:(\d+) groups: (\d+)\n$", cat(lucid, "dyn_ftrace_total_info"))
    n0 = re.match(r"^(\d+) pages:(\d+) groups: (\d+)\n$", info)
    assert int(m.group(1)) == int(n0.group(1)) + 2 and int(m.group(3)) == int(n0.group(3)) + 1
    # a line number selects a module's function too
    line = during.splitlines().index("foo_exit [foo]") + 1
    ok(lucid, "echo %d > set_ftrace_filter" % line)
    assert cat(lucid, "set_ftrace_filter") == "foo_exit [foo]\n"
    ok(lucid, "echo > set_ftrace_filter")
    ok(lucid, "rmmod foo")
    assert cat(lucid, "available_filter_functions") == before
    assert cat(lucid, "dyn_ftrace_total_info") == info
    reset_modules(lucid)


def test_unloaded_functions_keep_their_names(lucid):
    reset_modules(lucid)
    ok(lucid, "echo 'do_one_initcall *:mod:foo' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "insmod %s" % FOO)
    ok(lucid, "rmmod foo")
    ok(lucid, "echo 0 > tracing_on")
    b = bodies(lucid)
    assert re.match(r"^do_one_initcall <-\w+$", b[0]), b
    assert b[1] == "foo_init <-do_one_initcall", b
    assert re.match(r"^foo_init: %s$" % ARTICLE, b[2]), b
    assert b[3:] == ["foo_exit <-delete_module", "foo_exit: foo says goodbye"], b
    # sym-offset: sprint_symbol's form, the module's name after it, from the kept map
    ok(lucid, "echo 1 > options/sym-offset")
    b = bodies(lucid)
    assert re.match(r"^foo_init\+0x0/0x[0-9a-f]+ \[foo\] <-do_one_initcall\+0x[0-9a-f]+/0x[0-9a-f]+$",
                    b[1]), b
    reset_modules(lucid)


def test_kallsyms_and_callsite(lucid):
    reset_modules(lucid)
    assert "foo_bar" not in sh(lucid, "cat /proc/kallsyms")
    ok(lucid, "insmod %s" % FOO)
    syms = sh(lucid, "grep '\\[foo\\]' /proc/kallsyms")
    assert re.search(r"^ffffffffc[0-9a-f]{7} t foo_init\t\[foo\]$", syms, re.M), syms
    assert re.search(r"^ffffffffc[0-9a-f]{7} t foo_exit\t\[foo\]$", syms, re.M), syms
    assert re.search(r"^ffffffffc[0-9a-f]{7} d foo_bar\t\[foo\]$", syms, re.M), syms
    out = sh(lucid, "callsite foo_init")
    assert re.match(r"^foo_init at ffffffffc[0-9a-f]{7}: 0f 1f 44 00 00  nop \(refcount 0\)\n$",
                    out), out
    ok(lucid, "echo 'foo_init:mod:foo' > set_ftrace_filter")
    ok(lucid, "echo function > current_tracer")
    out = sh(lucid, "callsite foo_init")
    assert re.match(r"^foo_init at ffffffffc[0-9a-f]{7}: e8 .. .. .. ..  call ftrace_caller "
                    r"\(refcount 1\)\n$", out), out
    ok(lucid, "echo nop > current_tracer")
    ok(lucid, "rmmod foo")
    # Gone, but for the functions ftrace keeps the names of (Linux's ftrace_mod_get_kallsym),
    # for tools that read a trace with this file: text only, once each.
    kept = sh(lucid, "grep '\\[foo\\]' /proc/kallsyms")
    assert sorted(l.split(" ", 1)[1] for l in kept.splitlines()) == \
        ["t foo_exit\t[foo]", "t foo_init\t[foo]"], kept
    assert sh(lucid, "callsite foo_init") == "callsite: foo_init: no such function\n"
    reset_modules(lucid)


def test_load_trace_unload_gives_memory_back(lucid):
    """Under the function tracer, over every function: each load and unload leaves no page."""
    def free_kb():
        """Free memory, with the kmalloc slab pages (the same objects may sit on other pages
        after a churn of insmod processes) and the console bash's own pages (RssAnon: its
        malloc now and then touches heap it had not yet, test_module.settle_and_measure)."""
        out = lucid.run("cat /proc/meminfo /proc/slabinfo /proc/$$/status")
        slab = re.findall(r"^kmalloc-\w+ +\d+ .* : slabdata +\d+ +(\d+) ", out, re.M)
        assert len(slab) == 8, out
        return int(re.search(r"^MemFree: +(\d+) kB$", out, re.M).group(1)) + \
            sum(int(pages) for pages in slab) * 4 + \
            int(re.search(r"^RssAnon:\s+(\d+) kB$", out, re.M).group(1))
    reset_modules(lucid)
    ok(lucid, "set +o history")  # bash would keep each line typed, in its heap
    ok(lucid, "echo function > current_tracer")
    ok(lucid, "insmod %s" % FOO)  # the first load's lasting allocations (the kept map), made now
    ok(lucid, "rmmod foo")
    before = free_kb()
    for _ in range(20):
        ok(lucid, "insmod %s" % FOO)
        ok(lucid, "rmmod foo")
    ok(lucid, "echo nop > current_tracer")
    assert free_kb() == before
    reset_modules(lucid)


def test_oops_in_a_module_names_its_functions():
    """faulty's init writes through NULL: the oops says where as Linux does, "[faulty]" and all,
    and ftrace_dump_on_oops prints the trace with the module's functions named."""
    k = Lucid(cmdline="ftrace_dump_on_oops", timeout=90)
    try:
        ok(k, "cd %s" % T)
        ok(k, "echo 'do_one_initcall faulty_*:mod:faulty' > set_ftrace_filter")
        ok(k, "echo function > current_tracer")
        k.send_line("insmod %s" % FAULTY)
        k.expect(OOPS_MARK, timeout=60)
        k.wait_exit(timeout=120)
        out = k.tail(10 ** 8).replace("\r\n", "\n")
        sym = r"faulty_init\+0x[0-9a-f]+/0x[0-9a-f]+ \[faulty\]"
        assert re.search(r"RIP: 0008:%s\n" % sym, out), out
        assert re.search(r"^\[ *\d+\.\d+\]  %s\n" % sym, out, re.M), out  # the Call Trace
        # the dump (latency format): the module's functions by name, its trace_printk's line
        assert re.search(r" insmod-\d+ +\d\.{4} +\d+us : faulty_init <-do_one_initcall\n", out), out
        assert re.search(r" insmod-\d+ +\d\.{4} +\d+us : faulty_init: faulty: about to write "
                         r"through 0{16}\n", out), out
    finally:
        k.close()

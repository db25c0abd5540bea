"""The console's shell, Debian's bash: grammar, $?, lists, quotes, redirections, pipes,
Ctrl-C, the prompt, on Lucid's processes, pipes, files and tty.

These once tested the kernel's own shell, which imitated bash; they now assert the same of
bash itself, whose error messages start with "-bash: " (a login shell's $0). Where Linux and
bash define the answer, it is compared with the host's bash ("bash: line 1: " as "-bash: ").
The commands are busybox's. The kernel's rescue console has its own tests (test_rescue.py).
"""
import re
import shutil
import subprocess
import tempfile
import time

from lucid import until_bash_sleeps


def test_prompt_follows_cwd(lucid):
    lucid.run("cd")
    lucid.send_line("pwd")
    lucid.p.expect(r"/root\r\n\[~\]# ", timeout=10)
    for path, name in [("/", "/"), ("/sys/kernel/debug/tracing", "tracing"), ("..", "debug"),
                       ("/tmp", "tmp"), ("", "~")]:
        lucid.send_line("cd " + path)
        lucid.p.expect(r"\[%s\]# " % re.escape(name), timeout=10)
    assert lucid.run("pwd") == "/root\n"


def test_status_and_lists(lucid):
    assert lucid.run("true; echo $?") == "0\n"
    assert lucid.run("false; echo $?") == "1\n"
    assert lucid.run("false; echo a$?b") == "a1b\n"
    assert lucid.run("true && echo yes || echo no") == "yes\n"
    assert lucid.run("false && echo yes || echo no") == "no\n"
    assert lucid.run("false || false && echo x; echo $?") == "1\n"
    assert lucid.run("echo a ; echo b;echo c") == "a\nb\nc\n"
    assert lucid.run("nosuch; echo $?") == "-bash: nosuch: command not found\n127\n"
    assert lucid.run("echo a # a comment") == "a\n"


def test_quotes_and_escapes(lucid):
    assert lucid.run("echo 'a  b' \"c  d\" e\\ f") == "a  b c  d e f\n"
    assert lucid.run("echo '$?' \"$?\"") == "$? 0\n"
    assert lucid.run("echo *lock*") == "*lock*\n"  # nothing in /root matches: the word stays
    assert lucid.run("echo -n abc; echo") == "abc\n"
    assert lucid.run("echo -e 'a\\tb\\\\c\\nd'") == "a\tb\\c\nd\n"
    assert lucid.run("echo -e 'x\\cy'; echo") == "x\n"
    assert lucid.run("echo -x") == "-x\n"


def test_syntax_errors(lucid):
    # An open quote at the prompt asks for more (test_backslash_continues_the_line): eval
    # gives bash the whole text at once.
    assert lucid.run("eval \"echo 'abc\"") == "-bash: unexpected EOF while looking for matching `''\n"
    assert lucid.status() == 2
    out = lucid.run("echo >")
    assert out == "-bash: syntax error near unexpected token `newline'\n", out
    assert lucid.run("echo a | | cat") == "-bash: syntax error near unexpected token `|'\n"
    assert lucid.status() == 2


def test_redirections(lucid):
    lucid.run("cd /tmp")
    assert lucid.run("echo one > r; echo two >> r; cat r") == "one\ntwo\n"
    assert lucid.run("echo three > r; cat < r") == "three\n"
    # 2> and 2>&1, in bash's order-sensitive way.
    assert lucid.run("cat nosuch 2> err; echo $?; cat err") == \
        "1\ncat: can't open 'nosuch': No such file or directory\n"  # busybox's words
    assert lucid.run("cat r nosuch > both 2>&1; cat both") == \
        "three\ncat: can't open 'nosuch': No such file or directory\n"
    assert lucid.run("cat nosuch 2>&1 > out | grep -c nosuch") == "1\n"
    # N> with any fd, and a redirection before the command.
    assert lucid.run("> first echo hi; cat first") == "hi\n"
    assert lucid.run("echo x 3> three >&3; cat three") == "x\n"
    assert lucid.run("echo x >&7") == "-bash: 7: Bad file descriptor\n"
    assert lucid.status() == 1
    assert lucid.run("echo x > /nosuch/f") == "-bash: /nosuch/f: No such file or directory\n"
    assert lucid.status() == 1
    assert lucid.run("cat < nosuch; echo $?") == "-bash: nosuch: No such file or directory\n1\n"
    assert lucid.run("echo x > /tmp") == "-bash: /tmp: Is a directory\n"
    # Root opens it (Linux's CAP_DAC_OVERRIDE); /proc answers a write it has no handler for
    # with EIO, as Linux's proc_reg_write.
    assert lucid.run("echo x > /proc/uptime") == "-bash: echo: write error: Input/output error\n"
    # A builtin's redirections apply to it only: the shell's own fds come back.
    assert lucid.run("cd /nosuch 2> cderr; cat cderr") == \
        "-bash: cd: /nosuch: No such file or directory\n"
    assert lucid.run("echo still here") == "still here\n"
    lucid.run("rm r err both out first three cderr; cd")


def test_echo_0_pitfall(lucid):
    """The article's warning: `echo 0> tracing_on` redirects fd 0; the file gets nothing."""
    lucid.run("echo 1 > /tmp/on")
    out = lucid.run("echo 0> /tmp/on")
    assert out == "\n", out  # echo with no words prints an empty line, as in bash
    assert lucid.status() == 0
    assert lucid.run("cat /tmp/on; wc -c /tmp/on") == "0 /tmp/on\n"  # truncated, empty
    assert lucid.run("echo 0 > /tmp/on; cat /tmp/on") == "0\n"
    lucid.run("rm /tmp/on")


def test_write_error(lucid):
    assert lucid.run("echo hi > /dev/full") == \
        "-bash: echo: write error: No space left on device\n"
    assert lucid.status() == 1
    assert lucid.run("cat /proc/mounts > /dev/full") == \
        "cat: write error: No space left on device\n"
    assert lucid.status() == 1


def test_pipes(lucid):
    assert lucid.run("echo hello | cat") == "hello\n"
    assert lucid.run("seq 10 | grep 1 | sort -r | head -n 2") == "10\n1\n"
    assert lucid.run("seq 3 | false | cat; echo $?") == "0\n"
    assert lucid.run("true | false; echo $?") == "1\n"
    # Each stage is a process of its own, bash's child, named after its command. bash forks
    # the stages one after the other, and ps may list cat's before it has exec'd (still "bash"):
    # asked again, bounded, until both have.
    bash = lucid.run("echo $$").strip()
    for _ in range(20):
        ps = lucid.run("ps -o ppid,comm | cat")
        if re.search(r"^ *%s +cat$" % bash, ps, re.M):
            break
    assert re.search(r"^ *%s +ps$" % bash, ps, re.M), ps
    assert re.search(r"^ *%s +cat$" % bash, ps, re.M), ps


def test_producer_stops_when_reader_exits(lucid):
    """cat BIG | head -3 ends: head exits, and cat, blocked on the full pipe (BIG is far more
    than a pipe holds), dies of SIGPIPE at its next write (128 + 13), as on the host; an
    endless producer too. Were it not so, neither would end (run's timeout), whatever the
    host's speed."""
    lucid.run("seq 200000 > /tmp/big")
    assert lucid.run("cat /tmp/big | head -3; echo ${PIPESTATUS[@]}") == "1\n2\n3\n141 0\n"
    assert lucid.run("yes | head -2; echo ${PIPESTATUS[@]}") == "y\ny\n141 0\n"
    lucid.run("rm /tmp/big")


def test_two_sorts_at_once(lucid):
    """Each sort sorts with its own options: in a pipeline the stages run at the same time, and
    a sort -rn beside a plain sort must not take the other's -n and -r (they once shared them)."""
    lucid.run("seq 2000 > /tmp/sort_in")
    for _ in range(3):
        assert lucid.run("sort -rn /tmp/sort_in > /tmp/sort_rn | sort /tmp/sort_in | head -n 2") \
            == "1\n10\n"
        assert lucid.run("head -n 2 /tmp/sort_rn") == "2000\n1999\n"
    lucid.run("rm /tmp/sort_in /tmp/sort_rn")


def test_history(lucid):
    lucid.run("echo first")
    lucid.run("echo second")
    lucid.p.send("\x1b[A\x1b[A\r")  # Up, Up, Enter: "echo first" again
    out = lucid.expect_prompt(10)
    assert out.endswith("first\n"), out


def test_ctrl_c_ends_blocking_reads(lucid):
    # cat reading the console: a typed line comes back, Ctrl-C ends it.
    lucid.send_line("cat")
    time.sleep(0.3)  # pacing: a line typed before cat reads waits in the tty for it
    lucid.p.send("typed\r")
    lucid.expect("typed\r\ntyped\r\n", timeout=10)
    lucid.p.send("\x03")
    out = lucid.expect_prompt(10)
    assert out.endswith("^C\n"), out
    assert lucid.status() == 130
    # The second cat waits on an empty pipe (the first on the console): Ctrl-C ends both.
    with lucid.showing_tasks():  # sysrq t's task list: until_job_started, until_bash_sleeps
        lucid.send_line("cat | cat")
        lucid.expect("cat \\| cat\r\n", timeout=10)
        lucid.until_job_started("cat")
        lucid.p.send("\x03")
        lucid.expect_prompt(10)
        assert lucid.status() == 130
        assert "cat" not in lucid.run("ps")
        # Ctrl-C at the prompt drops the line being typed: sent once readline has taken all of
        # it and sleeps again (until_bash_sleeps says why it must).
        lucid.p.send("echo dropped")
        lucid.expect("echo dropped", timeout=10)
        until_bash_sleeps(lucid.p.send, lucid.expect)
        lucid.p.send("\x03")
        lucid.expect_prompt(10)
        assert lucid.status() == 130
    assert lucid.run("echo kept") == "kept\n"


def test_ctrl_c_right_after_typed_keys_always_prompts(lucid):
    """Keys and a ^C typed in one burst: the ^C flushes them and bash prompts at once, every
    time. Were the burst's first bytes handed to bash before its ^C arrived, readline could see
    the tty readable, lose the rest to the flush, run its SIGINT handler and then sleep in
    read() on an empty tty until Enter (console.c's batches).

    Each burst is one write of at most 8 bytes: QEMU's UART hands the guest that much of a
    burst at once (the FIFO's trigger level, arch/x86_64/uart.c), then a byte at a time. A ^C
    in a longer burst's tail can come after pselect said readable and before readline's read,
    and the read then sleeps on the flushed tty: Linux's n_tty and readline share that race."""
    with lucid.showing_tasks():  # sysrq t's task list: until_bash_sleeps
        for i in range(20):
            until_bash_sleeps(lucid.p.send, lucid.expect)
            lucid.p.send("ech%d\x03" % i)
            lucid.expect_prompt(10)
            lucid.send_line("echo x\\")
            lucid.expect("\r\n> ", timeout=10)
            until_bash_sleeps(lucid.p.send, lucid.expect)
            lucid.p.send("more\x03")
            lucid.expect_prompt(10)
        assert lucid.status() == 130
    assert lucid.run("echo kept") == "kept\n"

def test_console_input_ends_with_ctrl_d(lucid):
    lucid.send_line("wc -l")
    time.sleep(0.3)  # pacing: typed ahead, the lines wait in the tty for wc
    lucid.p.send("a\rb\r\x04")
    out = lucid.expect_prompt(10)
    assert out.endswith("a\nb\n2\n"), out


def test_background_jobs(lucid):
    """`cmd &` returns at once; `jobs` lists; the next prompt reports Done or Exit N; wait."""
    # Sleeps of seconds: `jobs` must find them still running on a loaded machine.
    out = lucid.run("sleep 10 &")
    m = re.match(r"^\[1\] (\d+)\n$", out)
    assert m, out
    assert lucid.status() == 0
    out = lucid.run("jobs")
    assert out == "[1]+  Running                 sleep 10 &\n", out
    out = ""
    for _ in range(120):  # bash's notice at the first prompt after the job's end: bounded
        out = lucid.run("sleep 1")
        if out:
            break
    assert out == "[1]+  Done                    sleep 10\n", out
    out = lucid.run("jobs")
    assert out == "", out
    # The pipeline's output goes to a file: on the console it could come before the next
    # command is typed, between two reads of the harness.
    # bash reports a job `wait` collected in wait, before the next prompt, or not at all: the
    # statuses come from wait itself.
    out = lucid.run("false & p1=$!; echo x | cat > /tmp/bg & p2=$!; "
                    "wait $p1; echo s1=$?; wait $p2; echo s2=$?") + lucid.run("jobs")
    assert re.match(r"^\[1\] \d+\n\[2\] \d+\n", out), out
    assert "s1=1\n" in out and "s2=0\n" in out, out
    for line in out.splitlines()[2:]:
        assert line in ("s1=1", "s2=0") or re.match(
            r"^(\[1\][-+ ]  Exit 1 +false|\[2\][-+ ]  Done +echo x \| cat > /tmp/bg)$", line), out
    assert lucid.run("cat /tmp/bg") == "x\n"
    # Redirections are part of the job's text, as bash shows them.
    assert lucid.run("sleep 10 2>> /tmp/e < /dev/null >&2 &").startswith("[1] ")
    out = lucid.run("jobs")
    assert out == "[1]+  Running                 sleep 10 2>> /tmp/e < /dev/null 1>&2 &\n", out
    lucid.run("wait")
    # A background job that reads the terminal is stopped (SIGTTIN), as on Linux; one that
    # reads /dev/null ends at once.
    # (bash warns when the job stops while wait waits for it, not when it was stopped before.)
    out = lucid.run("cat & wait")
    assert re.match(r"^\[1\] \d+\n(-bash: wait: warning: job 1\[\d+\] stopped\n)?\n*"
                    r"\[1\]\+  Stopped +cat\n", out), out
    # bash's kill sends SIGTERM, then SIGCONT (a stopped process takes SIGTERM only once
    # continued, as on Linux); wait %1 finds the job ended by it (143), or, when bash has not
    # yet heard that it continued, still stopped (149 and a warning). Either way it ends.
    out = lucid.run("kill %1; wait %1; echo $?")
    if not out.endswith("143\n"):
        assert re.match(r"^-bash: warning: wait_for_job: job 1 is stopped\n+"
                        r"\[1\]\+  Stopped +cat\n149\n", out), out
        assert lucid.run("wait; echo $?").endswith("0\n")
    assert lucid.run("jobs") == ""
    assert lucid.run("ps -o comm | grep -cx cat") == "0\n"
    out = lucid.run("cat < /dev/null & wait $!; echo $?")
    assert re.match(r"^\[1\] \d+\n(\[1\]\+  Done +cat < /dev/null\n)?0\n$", out), out
    # Two workloads at once, and wait until both finish.
    out = lucid.run("run_test -r 5 & run_test -r 5 & wait", timeout=120)
    assert out.count(" ok\n") == 2, out
    out = lucid.run("true && sleep 1 & wait $!; echo $?")  # a list in the background
    assert re.match(r"^\[1\] \d+\n(\[1\]\+  Done +true && sleep 1\n)?0\n$", out), out
    out = lucid.run("ps -o comm | grep -c sleep")
    assert out == "0\n", out


def test_typeahead_line_at_the_editors_limit(lucid):
    """A whole line typed while a command runs is kept until the shell reads it, as a tty does.

    Here the line, at the line editor's limit, arrives while `sleep 1` holds the shell; before
    the console's input ring could hold a full line, its end and the Enter were lost and the
    shell waited for ever.
    """
    word = "y" * (4096 - len("echo  | wc -c"))
    lucid.send_line("sleep 1")
    time.sleep(0.3)  # pacing: later, the line comes at the prompt: a false pass only
    lucid.send_line("echo %s | wc -c" % word)
    lucid.expect_prompt(10)  # sleep's
    out = lucid.expect_prompt(20)
    assert out.endswith("\n%d\n" % (len(word) + 1)), out[-100:]


def test_longest_pipeline_runs(lucid):
    """Long pipelines run: bash holds all their pipes at once, each stage a process."""
    line = "echo a" + " | cat" * 14 + " | wc -c"
    assert lucid.run(line) == "2\n"
    assert lucid.status() == 0
    assert lucid.run(line + " | cat") == "2\n"  # the kernel shell stopped at 16; bash has no limit
    assert lucid.run("echo a" + " | cat" * 40 + " | wc -c") == "2\n"


def test_write_error_of_printing_commands(lucid):
    """A write to /dev/full fails with ENOSPC, and the programs say so in their own words."""
    assert lucid.run("pwd > /dev/full") == "-bash: pwd: write error: No space left on device\n"
    assert lucid.status() == 1
    assert lucid.run("printf x > /dev/full") == \
        "-bash: printf: write error: No space left on device\n"
    assert lucid.status() == 1
    assert lucid.run("wc /proc/uptime > /dev/full") == \
        "wc: standard output: No space left on device\n"  # busybox's


def test_line_one_over_the_limit(lucid):
    """4096 bytes run, and more: bash reads the terminal raw, byte by byte, with no limit of
    the tty's (the kernel shell refused one more; its limit is the rescue console's now)."""
    lucid.run("true")
    word = "y" * (4096 - len("echo  | wc -c"))
    assert lucid.run("echo %s | wc -c" % word) == "%d\n" % (len(word) + 1)
    assert lucid.run("echo %sy | wc -c" % word) == "%d\n" % (len(word) + 2)
    assert lucid.status() == 0


# Lines bash runs differently from how Lucid's own shell once did; each is compared with bash
# on the host, run with Lucid's limits: 1024 fds per task (RLIMIT_NOFILE, ulimit -n 1024),
# HOME=/root, in an empty directory ("bash: line 1: " being the login shell's "-bash: ").
BASH_LINES = [
    # Any fd that fits in an int is an fd: the line runs, f is created, the dup2 fails past
    # the limit.
    "echo x 9999> f; echo $?; [ -e f ] && echo f; cat f",
    "echo a; echo x 9999> f; echo b",
    "echo x 999> f; echo $?; [ -e f ] && echo f; cat f",
    "echo x 1023> f; echo $?",
    "echo x 1024> f; echo $?",
    "echo x 63> f; echo $?",
    "echo x 2147483647> f; echo $?",
    "echo x 2147483648> f; echo $?; cat f",  # past an int: a word, as in bash
    "echo x 99999999999999999999>f; cat f",
    "echo x >&999; echo $?",
    "echo x >&9999; echo $?",
    "echo x 2>&99999999999; echo $?",
    "echo x >&99999999999; echo $?",
    "echo x <&2147483648; echo $?",
    "echo x 999>&1; echo $?",
    "cat 999< f; echo $?",
    "cd / 999> f; echo $?; [ -e f ] && echo f",  # f is here: the cd did not happen
    # Tilde expansion: ~ and ~root are HOME, at a word's start, up to / or :.
    "cd ~; pwd",
    "cd /; cd ~/; pwd",
    "echo ~ ~/x ~root ~root/y ~:a a~ '~' \"~\" \\~ ~nosuch ~\\/ \"~/q\"",
    "false; echo ~$? ~/$?",
    "echo hi > ~/tilde_f; cat ~/tilde_f < ~/tilde_f; rm ~/tilde_f",
]


def bash_on_host(line):
    d = tempfile.mkdtemp()
    try:
        p = subprocess.run(["bash", "-c", "ulimit -n 1024; { %s; } 2>&1" % line], cwd=d,
                           capture_output=True, text=True, timeout=30,
                           env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/root"})
        return p.stdout.replace("bash: line 1: ", "-bash: ")
    finally:
        shutil.rmtree(d)


def test_fds_and_tilde_as_bash(lucid):
    lucid.run("mkdir /tmp/bash_lines")
    try:
        for line in BASH_LINES:
            lucid.run("cd /tmp/bash_lines; rm -f f; cd /tmp/bash_lines")
            want = bash_on_host(line)
            got = lucid.run(line)
            assert got == want, "%r: Lucid %r, bash %r" % (line, got, want)
    finally:
        lucid.run("rm -f /tmp/bash_lines/f; rmdir /tmp/bash_lines; cd")


def test_backslash_continues_the_line(lucid):
    """A trailing backslash asks for more with bash's "> " and joins the lines; Ctrl-C there
    drops them all (status 130), as in bash."""
    lucid.send_line("echo a\\")
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("b \\")
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("c\\\\")  # an escaped backslash ends the line
    out = lucid.expect_prompt(10)
    assert out.endswith("\nab c\\\n"), out
    lucid.send_line("echo x \\")
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("| wc -c")
    assert lucid.expect_prompt(10).endswith("\n2\n")
    lucid.send_line("echo 'a\\'")  # literal in quotes: no more to come
    assert lucid.expect_prompt(10).endswith("\na\\\n")
    lucid.send_line("echo a # b\\")  # in a comment
    assert lucid.expect_prompt(10).endswith("\na\n")
    lucid.send_line("echo dropped\\")
    lucid.expect("\r\n> ", timeout=10)
    lucid.p.send("more")
    lucid.p.send("\x03")
    out = lucid.expect_prompt(10)
    assert "dropped" not in out.split("\n", 1)[1], out
    assert lucid.status() == 130
    # Long in all: bash joins them whatever their length.
    word = "y" * 3000
    lucid.send_line("echo %s\\" % word)
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("%s | wc -c" % word)
    assert lucid.expect_prompt(10).endswith("\n6001\n")
    assert lucid.status() == 0
    lucid.send_line("echo %s\\" % word[:2000])
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("%s | wc -c" % word[:2000])
    assert lucid.expect_prompt(10).endswith("\n4001\n")

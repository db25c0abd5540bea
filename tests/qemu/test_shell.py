"""The shell: grammar, $?, lists, quotes, redirections, pipes, Ctrl-C, the prompt.

Each expected output is what bash prints for the same line (with "bash:" as "sh:").
"""
import os
import re
import shutil
import subprocess
import tempfile
import time

from lucid import PROMPT


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
    assert lucid.run("nosuch; echo $?") == "sh: nosuch: command not found\n127\n"
    assert lucid.run("echo a # a comment") == "a\n"


def test_quotes_and_escapes(lucid):
    assert lucid.run("echo 'a  b' \"c  d\" e\\ f") == "a  b c  d e f\n"
    assert lucid.run("echo '$?' \"$?\"") == "$? 0\n"
    assert lucid.run("echo *lock*") == "*lock*\n"  # no globbing
    assert lucid.run("echo -n abc; echo") == "abc\n"
    assert lucid.run("echo -e 'a\\tb\\\\c\\nd'") == "a\tb\\c\nd\n"
    assert lucid.run("echo -e 'x\\cy'; echo") == "x\n"
    assert lucid.run("echo -x") == "-x\n"


def test_syntax_errors(lucid):
    assert lucid.run("echo 'abc") == "sh: unexpected EOF while looking for matching `''\n"
    assert lucid.status() == 2
    out = lucid.run("echo >")
    assert out == "sh: syntax error near unexpected token `newline'\n", out
    assert lucid.run("echo a | | cat") == "sh: syntax error near unexpected token `|'\n"
    assert lucid.status() == 2


def test_redirections(lucid):
    lucid.run("cd /tmp")
    assert lucid.run("echo one > r; echo two >> r; cat r") == "one\ntwo\n"
    assert lucid.run("echo three > r; cat < r") == "three\n"
    # 2> and 2>&1, in bash's order-sensitive way.
    assert lucid.run("cat nosuch 2> err; echo $?; cat err") == \
        "1\ncat: nosuch: No such file or directory\n"
    assert lucid.run("cat r nosuch > both 2>&1; cat both") == \
        "three\ncat: nosuch: No such file or directory\n"
    assert lucid.run("cat nosuch 2>&1 > out | grep -c nosuch") == "1\n"
    # N> with any fd, and a redirection before the command.
    assert lucid.run("> first echo hi; cat first") == "hi\n"
    assert lucid.run("echo x 3> three >&3; cat three") == "x\n"
    assert lucid.run("echo x >&7") == "sh: 7: Bad file descriptor\n"
    assert lucid.status() == 1
    assert lucid.run("echo x > /nosuch/f") == "sh: /nosuch/f: No such file or directory\n"
    assert lucid.status() == 1
    assert lucid.run("cat < nosuch; echo $?") == "sh: nosuch: No such file or directory\n1\n"
    assert lucid.run("echo x > /tmp") == "sh: /tmp: Is a directory\n"
    # Root opens it (Linux's CAP_DAC_OVERRIDE); /proc answers a write it has no handler for
    # with EIO, as Linux's proc_reg_write.
    assert lucid.run("echo x > /proc/uptime") == "sh: echo: write error: Input/output error\n"
    # A builtin's redirections apply to it only: the shell's own fds come back.
    assert lucid.run("cd /nosuch 2> cderr; cat cderr") == \
        "sh: cd: /nosuch: No such file or directory\n"
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
        "sh: echo: write error: No space left on device\n"
    assert lucid.status() == 1
    assert lucid.run("cat /proc/mounts > /dev/full") == \
        "cat: write error: No space left on device\n"
    assert lucid.status() == 1


def test_pipes(lucid):
    assert lucid.run("echo hello | cat") == "hello\n"
    assert lucid.run("seq 10 | grep 1 | sort -r | head -n 2") == "10\n1\n"
    assert lucid.run("seq 3 | false | cat; echo $?") == "0\n"
    assert lucid.run("true | false; echo $?") == "1\n"
    # Each stage is a thread named after its command.
    assert re.search(r" R\s+ps\n", lucid.run("ps | cat"))
    assert re.search(r" \w\s+cat\n", lucid.run("ps | cat"))


def test_producer_stops_when_reader_exits(lucid):
    """cat BIG | head -3 returns at once: head exits, cat's next write fails with EPIPE."""
    lucid.run("seq 200000 > /tmp/big")
    t = time.monotonic()
    assert lucid.run("cat /tmp/big | head -3") == "1\n2\n3\n"
    assert lucid.status() == 0
    assert time.monotonic() - t < 3
    t = time.monotonic()
    assert lucid.run("yes | head -2; echo $?") == "y\ny\n0\n"  # an endless producer too
    assert time.monotonic() - t < 3
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


def test_sort_refuses_too_much(lucid):
    """sort must hold its input: beyond its limit it says so, and the producer stops."""
    t = time.monotonic()
    assert lucid.run("yes | sort", timeout=60) == "sort: input too large (at most 8 MiB in memory)\n"
    assert lucid.status() == 2
    assert time.monotonic() - t < 20


def test_history(lucid):
    lucid.run("echo first")
    lucid.run("echo second")
    lucid.p.send("\x1b[A\x1b[A\r")  # Up, Up, Enter: "echo first" again
    out = lucid.expect_prompt(10)
    assert out.endswith("first\n"), out


def test_ctrl_c_ends_blocking_reads(lucid):
    # cat reading the console: a typed line comes back, Ctrl-C ends it.
    lucid.send_line("cat")
    time.sleep(0.3)
    lucid.p.send("typed\r")
    lucid.expect("typed\r\ntyped\r\n", timeout=10)
    lucid.p.send("\x03")
    out = lucid.expect_prompt(10)
    assert out.endswith("^C\n"), out
    assert lucid.status() == 130
    # The second cat waits on an empty pipe (the first on the console): Ctrl-C ends both.
    lucid.send_line("cat | cat")
    time.sleep(0.3)
    lucid.p.send("\x03")
    lucid.expect_prompt(10)
    assert lucid.status() == 130
    assert "cat" not in lucid.run("ps")
    # Ctrl-C at the prompt drops the line being typed.
    lucid.p.send("echo dropped")
    lucid.p.send("\x03")
    lucid.expect_prompt(10)
    assert lucid.status() == 130
    assert lucid.run("echo kept") == "kept\n"


def test_console_input_ends_with_ctrl_d(lucid):
    lucid.send_line("wc -l")
    time.sleep(0.3)
    lucid.p.send("a\rb\r\x04")
    out = lucid.expect_prompt(10)
    assert out.endswith("a\nb\n2\n"), out


def test_help_lists_new_commands(lucid):
    names = [line.split()[0] for line in lucid.run("help").splitlines() if line.strip()]
    for cmd in ["cd", "pwd", "ls", "cat", "echo", "mkdir", "rmdir", "touch", "rm", "head",
                "tail", "grep", "wc", "sort", "uniq", "cksum", "mount", "umount", "true",
                "false", "seq", "yes"]:
        assert cmd in names, cmd


def test_background_jobs(lucid):
    """`cmd &` returns at once; `jobs` lists; the next prompt reports Done or Exit N; wait."""
    out = lucid.run("sleep 1 &")
    m = re.match(r"^\[1\] (\d+)\n$", out)
    assert m, out
    assert lucid.status() == 0
    assert lucid.run("jobs") == "[1]+  Running                 sleep 1\n"
    assert lucid.run("sleep 2") == "[1]+  Done                    sleep 1\n"
    assert lucid.run("jobs") == ""
    # The pipeline's output goes to a file: on the console it could come before the next
    # command is typed, between two reads of the harness.
    out = lucid.run("false & echo x | cat > /tmp/bg &")
    assert re.match(r"^\[1\] \d+\n\[2\] \d+\n", out), out
    out += lucid.run("wait")
    assert "[1]   Exit 1                  false\n" in out, out
    assert "[2]+  Done                    echo x | cat > /tmp/bg\n" in out, out
    assert lucid.run("cat /tmp/bg") == "x\n"
    # Redirections are part of the job's text, as bash shows them.
    assert lucid.run("sleep 1 2>> /tmp/e < /dev/null >&2 &").startswith("[1] ")
    assert lucid.run("jobs") == "[1]+  Running                 sleep 1 2>> /tmp/e < /dev/null >&2\n"
    lucid.run("wait")
    # A background job reads /dev/null, not the console: cat ends at once.
    out = lucid.run("cat & wait")
    assert re.match(r"^\[1\] \d+\n\[1\]\+  Done +cat\n$", out), out
    # Two workloads at once, and wait until both finish.
    out = lucid.run("run_test -r 5 & run_test -r 5 & wait", timeout=120)
    assert out.count(" ok\n") == 2, out
    assert "sh: `&' after `&&' or `||' is not supported" in lucid.run("true && sleep 1 &")
    assert lucid.run("ps | grep -c sleep") == "0\n"


def test_typeahead_line_at_the_editors_limit(lucid):
    """A whole line typed while a command runs is kept until the shell reads it, as a tty does.

    Here the line, at the line editor's limit, arrives while `sleep 1` holds the shell; before
    the console's input ring could hold a full line, its end and the Enter were lost and the
    shell waited for ever.
    """
    word = "y" * (4096 - len("echo  | wc -c"))
    lucid.send_line("sleep 1")
    time.sleep(0.3)
    lucid.send_line("echo %s | wc -c" % word)
    lucid.expect_prompt(10)  # sleep's
    out = lucid.expect_prompt(20)
    assert out.endswith("\n%d\n" % (len(word) + 1)), out[-100:]


def test_longest_pipeline_runs(lucid):
    """A pipeline of SH_MAX_CMDS (16) commands runs: the shell holds all its 15 pipes at once."""
    line = "echo a" + " | cat" * 14 + " | wc -c"
    assert lucid.run(line) == "2\n"
    assert lucid.status() == 0
    assert lucid.run(line + " | cat") == "sh: too many commands in a pipeline (max 16)\n"


def test_write_error_of_printing_commands(lucid):
    """Commands that print with printf report a failed write and give status 1, as on Linux.
    GNU wc and cksum find out when they close stdout, and say only "write error"."""
    for line, who in [("pwd", "sh: pwd"), ("wc /proc/uptime", "wc"),
                      ("cksum /proc/uptime", "cksum"), ("dmesg", "dmesg"),
                      ("uptime", "uptime"), ("ps", "ps")]:
        out = lucid.run(line + " > /dev/full")
        why = "" if who in ["wc", "cksum"] else ": No space left on device"
        assert out == "%s: write error%s\n" % (who, why), (line, out)
        assert lucid.status() == 1, line


def test_line_one_over_the_limit(lucid):
    """4096 bytes run; one more is refused, and $? says so (2, as for the parser's refusal)."""
    lucid.run("true")
    word = "y" * (4096 - len("echo  | wc -c"))
    assert lucid.run("echo %s | wc -c" % word) == "%d\n" % (len(word) + 1)
    assert lucid.run("echo %sy | wc -c" % word) == "sh: line too long (max 4096 bytes)\n"
    assert lucid.status() == 2


# Lines bash runs differently from how Lucid once did; each is compared with bash on
# the host, run with Lucid's limits: 1024 fds per task (RLIMIT_NOFILE, ulimit -n 1024),
# HOME=/root, in an empty directory ("bash: line 1: " being the interactive "sh: ").
BASH_LINES = [
    # Any fd that fits in an int is an fd: the line runs, f is created, the dup2 fails past
    # the limit.
    "echo x 9999> f; echo $?; ls f; cat f",
    "echo a; echo x 9999> f; echo b",
    "echo x 999> f; echo $?; ls f; cat f",
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
    "cd / 999> f; echo $?; ls f",  # f is here: the cd did not happen
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
        return p.stdout.replace("bash: line 1: ", "sh: ")
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
    # Too long in all: refused as one line over the limit would be, once the last one is in.
    word = "y" * 3000
    lucid.send_line("echo %s\\" % word)
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("%s | wc -c" % word)
    assert lucid.expect_prompt(10).endswith("\nsh: line too long (max 4096 bytes)\n")
    assert lucid.status() == 2
    lucid.send_line("echo %s\\" % word[:2000])
    lucid.expect("\r\n> ", timeout=10)
    lucid.send_line("%s | wc -c" % word[:2000])
    assert lucid.expect_prompt(10).endswith("\n4001\n")

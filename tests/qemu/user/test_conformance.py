"""Debian's busybox sh and bash, unmodified, against the host: tests/conformance/*.sh.

Each script runs on the host under the same busybox-static and bash-static the initramfs carries
(a folder of applet links first in PATH, as Lucid's /bin), then inside Lucid from the host folder
shared at /mnt/host; stdout and the exit status must be equal, per script and per shell. stderr
is not compared (its messages name the script's path, which differs), but shown on failure.

A script whose header says "# Needs: ..." depends on kernel work that may not be there yet
(signal handlers, SIGCHLD): its failure message repeats that line, so a failure says why.
One kernel is booted for the file; a script that hangs fails after TIMEOUT and the next one
boots a fresh kernel (tests/run_tests.py does that after any failure).
"""
import glob
import os
import shutil
import subprocess
import tempfile

from lucid import ROOT, default_signals

SCRIPTS = os.path.join(ROOT, "tests", "conformance")
SHARE = tempfile.mkdtemp(prefix="lucid-conformance-")
BOOT = {"share": SHARE}
TIMEOUT = 90  # one script in Lucid under TCG, with other guests loading the host
HOST_TIMEOUT = 30
BUSYBOX = "/bin/busybox"
BASH = "/bin/bash-static"
ENV = {"HOME": "/root", "TERM": "linux"}  # the kernel shell's environment for programs

shutil.copytree(SCRIPTS, os.path.join(SHARE, "scripts"))
os.makedirs(os.path.join(SHARE, "out"))


def applets():
    """The applet names the Makefile links to busybox in the initramfs."""
    # The variable as make expands it (it is computed from busybox --list and Lucid's programs).
    out = subprocess.run(["make", "-s", "-C", ROOT, "--no-print-directory",
                          "--eval", "print-applets: ; @echo $(BUSYBOX_APPLETS)", "print-applets"],
                         capture_output=True, text=True).stdout.split()
    assert "sh" in out and "ls" in out, "no BUSYBOX_APPLETS in the Makefile: %r" % out
    return out


def host_bin():
    """A folder like Lucid's /bin: busybox, a link per applet, and bash."""
    d = os.path.join(SHARE, "hostbin")
    if not os.path.isdir(d):
        os.makedirs(d)
        for name in applets() + ["busybox"]:
            os.symlink(BUSYBOX, os.path.join(d, name))
        os.symlink(BASH, os.path.join(d, "bash"))
    return d


def on_host(shell, script):
    env = dict(ENV, PATH=host_bin())
    p = subprocess.run([os.path.join(host_bin(), shell), os.path.join(SCRIPTS, script)],
                       cwd="/tmp", env=env, capture_output=True, text=True,
                       timeout=HOST_TIMEOUT, preexec_fn=default_signals)
    return p.stdout, p.returncode


def needs(script):
    with open(os.path.join(SCRIPTS, script)) as f:
        return [line.strip() for line in f if line.startswith("# Needs:")]


def in_lucid(lucid, shell, script):
    out = "/mnt/host/out/%s.%s" % (script, shell)
    line = "cd /tmp; %s /mnt/host/scripts/%s > %s.out 2> %s.err; echo $? > %s.status" % (
        shell, script, out, out, out)
    try:
        lucid.run(line, TIMEOUT)
    except AssertionError as e:
        raise AssertionError("%s %s did not finish in Lucid. %s\n%s" % (
            shell, script, " ".join(needs(script)), e))
    local = os.path.join(SHARE, "out", "%s.%s" % (script, shell))
    with open(local + ".out") as f:
        stdout = f.read()
    with open(local + ".err") as f:
        stderr = f.read()
    with open(local + ".status") as f:
        status = int(f.read())
    return stdout, status, stderr


def check(lucid, shell, script):
    want, want_status = on_host(shell, script)
    got, status, stderr = in_lucid(lucid, shell, script)
    assert (got, status) == (want, want_status), (
        "%s %s in Lucid differs from the host. %s\n--- host (status %d):\n%s\n"
        "--- Lucid (status %d):\n%s\n--- Lucid's stderr:\n%s" % (
            shell, script, " ".join(needs(script)), want_status, want, status, got,
            stderr[-2000:]))


def _make(shell, script):
    def test(lucid):
        check(lucid, shell, script)
    test.__name__ = "test_%s_%s" % (script[:-3], shell)
    test.__qualname__ = test.__name__
    return test


# One test per script and shell: test_pipes_sh, test_pipes_bash, ...
for _path in sorted(glob.glob(os.path.join(SCRIPTS, "*.sh"))):
    for _shell in ("sh", "bash"):
        _t = _make(_shell, os.path.basename(_path))
        globals()[_t.__name__] = _t


def test_scripts_exist():
    """The suite covers every area it was asked to (each a file of its own)."""
    have = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(SCRIPTS, "*.sh"))}
    for name in ["redirections", "pipes", "substitution", "arithmetic", "loops", "functions",
                 "heredoc", "trap", "kill", "wait", "read", "set_e", "subshell", "glob",
                 "applets", "killed", "sigpipe"]:
        assert name in have, name

"""Small helpers the tracing tests share: type a command, expect silence, expect an error."""
import re

T = "/sys/kernel/tracing"
EINVAL = "-bash: echo: write error: Invalid argument\n"
# Patching every call site (a tracer switch) can take long on a host busy with other QEMUs.
TIMEOUT = 120


def sh(k, cmd, timeout=TIMEOUT):
    return k.run(cmd, timeout=timeout)


def ok(k, cmd, timeout=TIMEOUT):
    """cmd prints nothing and succeeds."""
    out = sh(k, cmd, timeout)
    assert out == "", "%r printed %r" % (cmd, out)
    assert k.status() == 0, cmd


def fails(k, cmd, err=EINVAL):
    """cmd prints exactly err and fails with status 1."""
    assert sh(k, cmd) == err, cmd
    assert k.status() == 1, cmd


def cat(k, name, timeout=TIMEOUT):
    return sh(k, "cat %s/%s" % (T, name), timeout)


def modes(k, path="."):
    """{name: mode} of the entries `ls -l path` lists (busybox's format: mode first, name last,
    after a "total" line)."""
    lines = sh(k, "ls -l %s" % path).splitlines()
    return {l.split()[-1]: l.split()[0] for l in lines if l.strip() and not l.startswith("total ")}


def ncpus(k):
    return int(re.search(r"(\d+) CPUs?,", k.dmesg()).group(1))

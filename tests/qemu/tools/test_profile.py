"""make profile (tools/insn_profile.py): one event single-stepped in gdb, charged to functions.

Only the shape is checked (which functions, in which order, and that the counts add up): how
many instructions an event takes is a figure for `make bench`, not a test.
"""
import os
import re
import subprocess
import sys

from lucid import ROOT

ROW = re.compile(r"^ +(\d+)  (\S+)$")


def profile(event):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "insn_profile.py"), event],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=300).stdout
    total = re.search(r"^total: (\d+) instructions$", out, re.M)
    assert total, out
    rows = {m.group(2): int(m.group(1)) for m in map(ROW.match, out.splitlines()) if m}
    path = re.search(r"^path: (.*)$", out, re.M)
    assert path, out
    assert sum(rows.values()) == int(total.group(1)), out
    return rows, path.group(1).split(" -> ")


def test_function_event():
    rows, path = profile("function")
    # The trampoline calls the tracer, which reserves, fills and commits, then returns.
    assert path[:3] == ["ftrace_caller", "ftrace_call", "function_trace_call"], path
    assert "ring_buffer_lock_reserve" in path and "ring_buffer_unlock_commit" in path, path
    assert path.index("ring_buffer_lock_reserve") < path.index("ring_buffer_unlock_commit")
    assert path[-1] == "ftrace_call", path  # the way back to the traced function
    assert "ftest_leaf" not in rows  # stopped as the traced function began


def test_printk_event():
    rows, path = profile("printk")
    assert path[0] == "__trace_bprintk", path
    assert "ring_buffer_lock_reserve" in path and "ring_buffer_unlock_commit" in path, path
    assert "vbin_printf" not in rows  # the format's layout was parsed at boot, not now

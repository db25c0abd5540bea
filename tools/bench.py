#!/usr/bin/python3
"""make bench: Lucid's figures, one a line as `name: value unit`.

Counts come from a boot under `qemu -icount shift=0`, where the guest TSC counts executed
instructions exactly, so they repeat from run to run. The wall-clock boot time is measured
without icount (median of several boots). Figures, not pass/fail.
"""
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "qemu"))
from lucid import Lucid  # noqa: E402

FIGURE = re.compile(r"^([a-z_0-9]+): ([0-9.]+) (\S+)$", re.M)


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def guest_figures(build=None):
    """Boots the ISO of a build directory under -icount shift=0 and runs `bench`."""
    k = Lucid(icount=True, timeout=300, build=build)
    try:
        out = k.run("bench", timeout=600)
    finally:
        k.close()
    figures = {name: (value, unit) for name, value, unit in FIGURE.findall(out)}
    if not figures:
        raise SystemExit("bench: no figures in:\n" + out)
    return figures


def main():
    figures = guest_figures()
    for name, (value, unit) in figures.items():
        print("%s: %s %s" % (name, value, unit))
    # The same workload on a kernel built without -pg: what do the NOPs cost?
    base_dir = os.path.join(ROOT, "build", "ftrace0")
    subprocess.run(["make", "-s", "-C", ROOT, "B=" + base_dir, "FTRACE=0", "iso"], check=True,
                   stdout=subprocess.DEVNULL)
    base = guest_figures(base_dir)
    ratio = int(figures["workload_insns"][0]) / int(base["workload_insns"][0])
    print("nop_overhead_ratio: %.4f ratio" % ratio)
    # The same for a file-system workload, whose functions are bigger (kernel/shell/cmd/cmd_bench.c).
    if int(base["fs_workload_insns"][0]):
        ratio = int(figures["fs_workload_insns"][0]) / int(base["fs_workload_insns"][0])
        print("nop_overhead_ratio_fs: %.4f ratio" % ratio)
    walls = []
    for _ in range(5):
        k = Lucid()
        walls.append(k.boot_seconds)
        k.close()
    print("boot_to_prompt_wall_s: %.3f s" % statistics.median(walls))
    return 0


if __name__ == "__main__":
    sys.exit(main())

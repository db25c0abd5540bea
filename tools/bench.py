#!/usr/bin/python3
"""make bench: Lucid's figures, one a line as `name: value unit`.

Counts come from a boot under `qemu -icount shift=0`, where the guest TSC counts executed
instructions exactly, so they repeat from run to run. The wall-clock boot time is measured
without icount (median of several boots). Figures, not pass/fail.
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "qemu"))
from lucid import Lucid  # noqa: E402

FIGURE = re.compile(r"^([a-z_0-9]+): ([0-9.]+) (\S+)$", re.M)


def main():
    k = Lucid(icount=True, timeout=300)
    try:
        out = k.run("bench", timeout=600)
    finally:
        k.close()
    figures = FIGURE.findall(out)
    if not figures:
        print("bench: no figures in:\n" + out, file=sys.stderr)
        return 1
    for name, value, unit in figures:
        print("%s: %s %s" % (name, value, unit))
    walls = []
    for _ in range(5):
        k = Lucid()
        walls.append(k.boot_seconds)
        k.close()
    print("boot_to_prompt_wall_s: %.3f s" % statistics.median(walls))
    return 0


if __name__ == "__main__":
    sys.exit(main())

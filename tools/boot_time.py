#!/usr/bin/python3
"""Prints how long Lucid takes from QEMU's start to the shell prompt, in wall-clock seconds.

A figure, not a test: machines are noisy. Usage: tools/boot_time.py [runs]
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "qemu"))
from lucid import Lucid  # noqa: E402

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
times = []
for _ in range(runs):
    k = Lucid()
    times.append(k.boot_seconds)
    k.close()
print("boot_to_prompt_wall_s: %.3f s (median of %d, min %.3f, max %.3f)" %
      (statistics.median(times), runs, min(times), max(times)))

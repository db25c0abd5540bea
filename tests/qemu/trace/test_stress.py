"""A short run of tests/stress.py (make stress runs it for 5 minutes, make soak for longer)."""
import io
import os
import sys

from lucid import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests"))
import stress  # noqa: E402

# Heavy, every tracer switched while run_test runs on every CPU: run_tests.py starts no other
# heavy file beside it.
HEAVY = True


SECONDS = 40


def test_stress_switching_everything_under_load():
    out = io.StringIO()
    try:
        s = stress.run(SECONDS / 60, out=out)
    finally:
        print("  " + out.getvalue().strip().replace("\n", "\n  ")[-3000:])
    assert s.rounds >= 2 and s.switches >= 50 and s.written > 1000, out.getvalue()

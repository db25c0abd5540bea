#!/usr/bin/python3
"""Lucid's test runner: every suite, one closing line.

  run_tests.py --unit build/host/test_* --qemu tests/qemu [-k NAME]

Host unit tests are cmocka programs: each counts as its cmocka tests. QEMU tests are functions
named test_* in tests/qemu/test_*.py; a function taking an argument `lucid` shares one booted
kernel with the rest of its file, others boot their own. The last line reads "N passed, N failed".
"""
import argparse
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "qemu"))


def run_unit(binaries, results):
    for b in binaries:
        name = os.path.basename(b)
        try:
            p = subprocess.run([b], capture_output=True, text=True, timeout=300)
            out = p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            results.append((name, False, "timed out"))
            print("FAIL unit/%s: timed out" % name, flush=True)
            continue
        passed = sum(int(n) for n in re.findall(r"\[  PASSED  \] (\d+) test", out))
        failed = sum(int(n) for n in re.findall(r"\[  FAILED  \] (\d+) test", out))
        if p.returncode != 0 and failed == 0:
            failed = 1  # a crash or a sanitizer report
        ok = failed == 0 and p.returncode == 0
        print("%s unit/%s: %d passed, %d failed" % ("PASS" if ok else "FAIL", name, passed,
                                                    failed), flush=True)
        if not ok:
            print(out[-4000:])
        results.extend([(name, True, "")] * passed)
        results.extend([(name, False, "see output")] * failed)


def run_qemu(directory, only, results):
    import lucid as lucid_mod
    for path in sorted(f for f in os.listdir(directory) if re.match(r"test_.*\.py$", f)):
        spec = importlib.util.spec_from_file_location(path[:-3], os.path.join(directory, path))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        tests = [(n, f) for n, f in inspect.getmembers(mod, inspect.isfunction)
                 if n.startswith("test_") and f.__module__ == mod.__name__]
        tests.sort(key=lambda t: t[1].__code__.co_firstlineno)
        if only:
            tests = [t for t in tests if any(o in path[:-3] + "." + t[0] for o in only)]
        shared = None
        for name, fn in tests:
            full = "%s.%s" % (path[:-3], name)
            t0 = time.monotonic()
            try:
                if "lucid" in inspect.signature(fn).parameters:
                    if shared is None or not shared.alive():
                        shared = lucid_mod.Lucid(**getattr(mod, "BOOT", {}))
                    fn(shared)
                else:
                    fn()
                results.append((full, True, ""))
                print("PASS %s (%.1fs)" % (full, time.monotonic() - t0), flush=True)
            except Exception as e:  # noqa: BLE001 - any failure of a test is reported
                results.append((full, False, str(e)))
                print("FAIL %s (%.1fs): %s" % (full, time.monotonic() - t0,
                                              "".join(traceback.format_exception_only(e))[-3000:]),
                      flush=True)
                if shared is not None:
                    shared.close()
                    shared = None
        if shared is not None:
            shared.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", nargs="*", default=[])
    ap.add_argument("--qemu", default=None)
    ap.add_argument("-k", action="append", default=[], help="run only tests whose name has this")
    a = ap.parse_args()
    results = []
    t0 = time.monotonic()
    if not a.k:
        run_unit(a.unit, results)
    if a.qemu:
        run_qemu(a.qemu, a.k, results)
    passed = sum(1 for r in results if r[1])
    failed = len(results) - passed
    print("(%.0f s)" % (time.monotonic() - t0))
    for name, ok, why in results:
        if not ok:
            print("failed: %s" % name)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not results else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Lucid's test runner: every suite, one closing line.

  run_tests.py --unit build/host/test_* --qemu tests/qemu [-k NAME]
               [--fuzz build/fuzz/fuzz_* --fuzz-seconds N]
               [--ubsan-build build-ubsan --ubsan-qemu test_boot test_smp ...]

Host unit tests are cmocka programs: each counts as its cmocka tests. A fuzz target (libFuzzer)
replays its seeds, tests/fuzz/corpus/NAME/, then fuzzes for N seconds: each target is one test.
QEMU tests are functions named test_* in tests/qemu/test_*.py; a function taking an argument
`lucid` shares one booted kernel with the rest of its file, others boot their own. The files
named by --ubsan-qemu then run again against the kernel in --ubsan-build, as "ubsan:test_...".
The last line reads "N passed, N failed".
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


def run_fuzz(binaries, seconds, results):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for b in binaries:
        name = os.path.basename(b)[len("fuzz_"):]
        # New inputs go to a work directory under build/, so runs build on each other while
        # the seeds in the repository stay as they are.
        work = os.path.join(os.path.dirname(b), "work", name)
        os.makedirs(work, exist_ok=True)
        seeds = os.path.join(root, "tests", "fuzz", "corpus", name)
        cmd = [b, "-max_total_time=%d" % seconds, "-timeout=30", "-print_final_stats=1",
               "-artifact_prefix=%s" % os.path.join(os.path.dirname(b), "crash-%s-" % name),
               work, seeds]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                               timeout=seconds + 120)
            out = p.stdout + p.stderr
            ok = p.returncode == 0
        except subprocess.TimeoutExpired:
            out, ok = "timed out", False
        except OSError as e:
            out, ok = str(e), False
        runs = re.search(r"stat::number_of_executed_units: (\d+)", out)
        print("%s fuzz/%s: %s runs in %d s" % ("PASS" if ok else "FAIL", name,
                                               runs.group(1) if runs else "?", seconds),
              flush=True)
        if not ok:
            print(out[-6000:])
        results.append(("fuzz/" + name, ok, "" if ok else "crash or timeout"))


def run_qemu(directory, only, results, files=None, label=""):
    """Runs the tests of directory (only those of files, if given), naming each label + name."""
    import lucid as lucid_mod
    for path in sorted(f for f in os.listdir(directory) if re.match(r"test_.*\.py$", f)):
        if files is not None and path[:-3] not in files:
            continue
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
            full = "%s%s.%s" % (label, path[:-3], name)
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
    ap.add_argument("--fuzz", nargs="*", default=[])
    ap.add_argument("--fuzz-seconds", type=int, default=3)
    ap.add_argument("--ubsan-build", help="a UBSAN=1 build directory to run QEMU tests against")
    ap.add_argument("--ubsan-qemu", nargs="*", default=[], help="those tests (test_boot ...)")
    a = ap.parse_args()
    results = []
    t0 = time.monotonic()
    if not a.k:
        run_unit(a.unit, results)
        run_fuzz(a.fuzz, a.fuzz_seconds, results)
    if a.qemu:
        run_qemu(a.qemu, a.k, results)
    if a.qemu and a.ubsan_build:
        os.environ["LUCID_BUILD"] = os.path.abspath(a.ubsan_build)  # tests/qemu/lucid.py
        run_qemu(a.qemu, a.k, results, files=a.ubsan_qemu, label="ubsan:")
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

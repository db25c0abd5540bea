#!/usr/bin/python3
"""Lucid's test runner: every suite, one closing line.

  run_tests.py --unit build/host/test_* --qemu tests/qemu [-k NAME] [--jobs N]
               [--fuzz build/fuzz/fuzz_* --fuzz-seconds N [--fuzz-merge]]
               [--ubsan-build build-ubsan --ubsan-qemu test_boot test_smp ...]

Host unit tests are cmocka programs: each counts as its cmocka tests. A fuzz target (libFuzzer)
replays its seeds, tests/fuzz/corpus/NAME/, then fuzzes for N seconds: each target is one test;
with --fuzz-merge (make fuzz) what it found that reaches new code joins the seeds in the tree.
QEMU tests are functions named test_* in tests/qemu/FOLDER/test_*.py, a folder a subsystem; a
function taking an argument `lucid` shares one booted kernel with the rest of its file, others
boot their own. The files
named by --ubsan-qemu then run again against the kernel in --ubsan-build, as "ubsan:test_...".
The last line reads "N passed, N failed".

With --jobs N, N test files boot their kernels at once, each file in a process of its own whose
output is printed whole when it ends: a QEMU without KVM keeps about one host core busy, and
make test runs two on CI's two cores. No file asks to run alone: every test must pass with other
work beside it (two `yes > /dev/null` or another test file), so none may depend on timing. Files
start longest first, by the times of the last run here (build/qemu-test-times.json) or, in a fresh
clone, by those of a run recorded in the tree (tests/qemu/times.json): the long ones must not
start last and leave one core idle at the end. A file that keeps every vCPU busy for long (a
fork bomb, run_test on all CPUs under tracing) says so with a line `HEAVY = True`, and two such
files never run at once, even if a slot must wait: their eight busy vCPU threads on two cores
make each wait on the other's (an IPI's target, a lock's holder descheduled). A test under load
took 9 s alone, 17 s beside a file that types at the shell, 44 s beside another heavy one
(docs/design/robustness.md).
"""
import argparse
import concurrent.futures
import importlib.util
import inspect
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "qemu"))


def run_each(run_one, items, results):
    """run_one(item) -> (what to print, [results]) for every item, one per core at once (each
    is a host program that keeps one core busy), printed in the items' order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for text, found in pool.map(run_one, items):
            print(text, flush=True)
            results.extend(found)


def run_unit(binaries, results):
    run_each(unit_one, binaries, results)


def unit_one(b):
    """One cmocka program: (what to print, a result per test it counted)."""
    name = os.path.basename(b)
    try:
        p = subprocess.run([b], capture_output=True, text=True, timeout=300)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "FAIL unit/%s: timed out" % name, [(name, False, "timed out")]
    passed = sum(int(n) for n in re.findall(r"\[  PASSED  \] (\d+) test", out))
    failed = sum(int(n) for n in re.findall(r"\[  FAILED  \] (\d+) test", out))
    if p.returncode != 0 and failed == 0:
        failed = 1  # a crash or a sanitizer report
    ok = failed == 0 and p.returncode == 0
    text = "%s unit/%s: %d passed, %d failed" % ("PASS" if ok else "FAIL", name, passed, failed)
    if not ok:
        text += "\n" + out[-4000:]
    return text, [(name, True, "")] * passed + [(name, False, "see output")] * failed


def run_fuzz(binaries, seconds, results, merge=False):
    """Each target replays its seeds and fuzzes for seconds; merge: then keeps what it found.

    New inputs go to a work directory under build/, so runs build on each other on one
    machine. With merge (make fuzz), the inputs of the work directory that reach code the
    seeds do not are then merged into tests/fuzz/corpus/NAME (libFuzzer's -merge=1, the smallest
    first; -use_counters=0: a new edge counts, not a new hit count of one, or the tree would
    take hundreds of files a run), so the corpus in the tree grows with each run and the next
    run, anywhere, starts where this one ended. make test only replays and fuzzes.

    The targets run one per core at once (run_each).
    """
    run_each(lambda b: fuzz_one(b, seconds, merge), binaries, results)


def fuzz_one(b, seconds, merge):
    """One target's run: (what to print, [its result])."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    name = os.path.basename(b)[len("fuzz_"):]
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
    merged = ""
    if ok and merge:
        merged = merge_corpus(b, seeds, work)
    text = "%s fuzz/%s: %s runs in %d s%s" % ("PASS" if ok else "FAIL", name,
                                              runs.group(1) if runs else "?", seconds, merged)
    if not ok:
        text += "\n" + out[-6000:]
    return text, [("fuzz/" + name, ok, "" if ok else "crash or timeout")]


def merge_corpus(binary, seeds, work):
    """Merges work's new-coverage inputs into seeds; says how many (or why none)."""
    os.makedirs(seeds, exist_ok=True)
    before = set(os.listdir(seeds))
    try:
        p = subprocess.run([binary, "-merge=1", "-use_counters=0", "-timeout=30", seeds, work],
                           capture_output=True, text=True, errors="replace", timeout=600)
    except (subprocess.TimeoutExpired, OSError) as e:
        return ", merge failed: %s" % e
    if p.returncode != 0:
        return ", merge failed:\n" + (p.stdout + p.stderr)[-2000:]
    added = len(set(os.listdir(seeds)) - before)
    return ", %d new input%s kept in tests/fuzz/corpus/%s" % (
        added, "" if added == 1 else "s", os.path.basename(seeds))


def test_folders(directory):
    """directory's folders of test files, one a subsystem (trace/, user/, fs/, kernel/, ...)."""
    return sorted(d for d in os.listdir(directory) if os.path.isdir(os.path.join(directory, d))
                  and not d.startswith("__"))


def test_files(directory, files=None):
    """The test files of directory's folders (only those named in files, if given), each as
    FOLDER/test_NAME without .py. A test is named by its file's name alone (test_NAME.test_x),
    as before the folders, so that -k and the times of earlier runs still find it."""
    found = []
    for d in test_folders(directory):
        found += [d + "/" + f[:-3] for f in sorted(os.listdir(os.path.join(directory, d)))
                  if re.match(r"test_.*\.py$", f)]
    names = [os.path.basename(f) for f in found]
    assert len(set(names)) == len(names), "two test files share a name: %s" % sorted(names)
    return [f for f in found if files is None or f in files or os.path.basename(f) in files]


def add_test_folders_to_path(directory):
    """Test files import lucid and tracefs (directory's own) and, at times, each other by name."""
    for d in [directory] + [os.path.join(directory, d) for d in test_folders(directory)]:
        if d not in sys.path:
            sys.path.insert(1, d)


def load(directory, name):
    add_test_folders_to_path(directory)
    spec = importlib.util.spec_from_file_location(os.path.basename(name),
                                                  os.path.join(directory, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_qemu(directory, only, results, files=None, label=""):
    """Runs the tests of directory (only those of files, if given), naming each label + name."""
    import lucid as lucid_mod
    for name in test_files(directory, files):
        path = os.path.basename(name) + ".py"
        mod = load(directory, name)
        tests = [(n, f) for n, f in inspect.getmembers(mod, inspect.isfunction)
                 if n.startswith("test_") and f.__module__ == mod.__name__]
        tests.sort(key=lambda t: t[1].__code__.co_firstlineno)
        if only:
            # -k matches test_NAME.test_x, or FOLDER/test_NAME.test_x (-k trace/: a folder).
            tests = [t for t in tests if any(o in name + "." + t[0] for o in only)]
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
                bugs = lucid_mod.take_kernel_bugs(shared)
                if bugs:
                    raise lucid_mod.LucidError("the kernel reported a bug (lucid.KERNEL_BUG):\n"
                                               + "\n".join(bugs))
                results.append((full, True, ""))
                print("PASS %s (%.1fs)" % (full, time.monotonic() - t0), flush=True)
            except Exception as e:  # noqa: BLE001 - any failure of a test is reported
                bugs = lucid_mod.take_kernel_bugs(shared)  # this test's, not the next one's
                if bugs:
                    e = lucid_mod.LucidError("%s\nand the kernel reported a bug:\n%s" %
                                             (e, "\n".join(bugs)))
                results.append((full, False, str(e)))
                print("FAIL %s (%.1fs): %s" % (full, time.monotonic() - t0,
                                              head_and_tail(
                                                  "".join(traceback.format_exception_only(e)),
                                                  FAIL_TEXT)),
                      flush=True)
                if shared is not None:
                    shared.close()
                    shared = None
        if shared is not None:
            shared.close()
        bugs = lucid_mod.take_kernel_bugs()  # printed after the file's last test looked
        if bugs:
            why = "the kernel reported a bug after the last test:\n" + "\n".join(bugs)
            results.append((label + path[:-3], False, why))
            print("FAIL %s (0.0s): %s" % (label + path[:-3], head_and_tail(why, FAIL_TEXT)),
                  flush=True)


FAIL_TEXT = 3000  # characters of a failure's text printed: its start (the values) and its end


def head_and_tail(text, n):
    """text, or its first n/6 and last characters when longer than n: an assertion's values
    come first, a long output it quotes last."""
    if len(text) <= n:
        return text
    return text[:n // 6] + " [...] " + text[-(n - n // 6):]


RESULT = re.compile(r"^(PASS|FAIL) (\S+) \((\d+\.\d)s\)", re.M)
# A FAIL line's reason: what follows "(Ns): " up to the next line a test or the runner prints.
FAIL_WHY = re.compile(r"^FAIL (\S+) \(\d+\.\ds\): (.*?)(?=^(?:PASS|FAIL) |\Z)", re.M | re.S)
WHY_IN_SUMMARY = 300  # characters of each failure's reason repeated in the closing summary
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMES = os.path.join(ROOT, "build", "qemu-test-times.json")
TIMES_IN_TREE = os.path.join(ROOT, "tests", "qemu", "times.json")
FILE_TIMEOUT = 1200  # seconds: a file whose kernel hangs past every test's own timeout
HEAVY = re.compile(r"^HEAVY = True\b", re.M)


def is_heavy(directory, name):
    with open(os.path.join(directory, name + ".py")) as f:
        return bool(HEAVY.search(f.read()))


def next_file(queue, heavy_running):
    """The index in queue (longest first) of the file to start now: the first, or while a
    heavy file runs the first light one. None: only heavy ones are left, and one waits for the
    other (one after the other they end sooner than side by side)."""
    for i, (_, _, _, heavy) in enumerate(queue):
        if not heavy_running or not heavy:
            return i
    return None


def run_qemu_jobs(directory, only, results, jobs, batches):
    """run_qemu over the files of batches [(label, files, env)], jobs files at a time."""
    times = {}
    for path in (TIMES_IN_TREE, TIMES):  # this machine's own times win
        try:
            with open(path) as f:
                times.update(json.load(f))
        except (OSError, ValueError):
            pass
    queue = [(label, name, env, is_heavy(directory, name)) for label, files, env in batches
             for name in test_files(directory, files)]
    # Longest first (unknown ones count as long), so that the short ones fill in at the end.
    queue.sort(key=lambda t: -times.get(t[0] + os.path.basename(t[1]), 1e9))
    running = []  # (process, output file, label, name, start, heavy)
    while queue or running:
        heavy_running = any(r[5] for r in running)
        i = next_file(queue, heavy_running) if len(running) < jobs else None
        if i is not None:
            label, name, env, heavy = queue.pop(i)
            out = tempfile.TemporaryFile("w+")
            cmd = [sys.executable, os.path.abspath(__file__), "--qemu", directory,
                   "--file", name, "--label", label] + sum((["-k", k] for k in only), [])
            # A session of its own: a file that overstays is killed with its QEMUs.
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                    env=dict(os.environ, **env), start_new_session=True)
            running.append((proc, out, label, name, time.monotonic(), heavy))
            continue
        for r in list(running):
            proc, out, label, name, start, _ = r
            elapsed = time.monotonic() - start
            if proc.poll() is None and elapsed < FILE_TIMEOUT:
                continue
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
            running.remove(r)
            out.seek(0)
            text = out.read()
            out.close()
            sys.stdout.write(text)
            found = RESULT.findall(text)
            why = dict(FAIL_WHY.findall(text))
            for status, full, _ in found:
                results.append((full, status == "PASS", why.get(full, "")))
            if proc.returncode != 0 and not any(s == "FAIL" for s, _, _ in found):
                results.append((label + name, False, "exit status %d" % proc.returncode))
                print("FAIL %s%s: its process ended with status %d" % (label, name,
                                                                       proc.returncode))
            times[label + os.path.basename(name)] = round(elapsed, 1)
            sys.stdout.flush()
        time.sleep(0.2)
    if not only:
        os.makedirs(os.path.dirname(TIMES), exist_ok=True)
        with open(TIMES, "w") as f:
            json.dump(times, f, indent=0, sort_keys=True)


def default_signals():
    """Start every test, and every host program a test compares Lucid with, with SIGINT and
    SIGQUIT as a terminal's shell gives them. A runner started in the background of a script
    (`make test &` without job control) or under a shell that ignores them inherits them
    ignored, and so would a host bash's children: its ^C-ed `sleep 10` would run on and the
    host side of test_interactive fail. Linux's exec keeps an ignored signal ignored; a handled
    one (Python's KeyboardInterrupt) is reset to the default."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def main():
    default_signals()
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", nargs="*", default=[])
    ap.add_argument("--qemu", default=None)
    ap.add_argument("-k", action="append", default=[], help="run only tests whose name has this")
    ap.add_argument("--jobs", type=int, default=1, help="QEMU test files run at once")
    ap.add_argument("--file", help="only this QEMU test file (a process of --jobs)")
    ap.add_argument("--label", default="", help="what --file's test names start with")
    ap.add_argument("--fuzz", nargs="*", default=[])
    ap.add_argument("--fuzz-seconds", type=int, default=3)
    ap.add_argument("--fuzz-merge", action="store_true",
                    help="merge what the fuzzers found into tests/fuzz/corpus/ (make fuzz)")
    ap.add_argument("--ubsan-build", help="a UBSAN=1 build directory to run QEMU tests against")
    ap.add_argument("--ubsan-qemu", nargs="*", default=[], help="those tests (test_boot ...)")
    a = ap.parse_args()
    results = []
    t0 = time.monotonic()
    if a.file:
        run_qemu(a.qemu, a.k, results, files=[a.file], label=a.label)
        sys.exit(0)  # the results are the lines printed; the caller counts them
    if not a.k:
        run_unit(a.unit, results)
        run_fuzz(a.fuzz, a.fuzz_seconds, results, a.fuzz_merge)
    # The UBSAN kernel is found through LUCID_BUILD (tests/qemu/lucid.py).
    ubsan_env = {"LUCID_BUILD": os.path.abspath(a.ubsan_build)} if a.ubsan_build else {}
    boots = None  # every boot's seconds to its prompt, from tests/qemu/lucid.py
    if a.qemu:
        from lucid import BOOT_LOG
        if BOOT_LOG not in os.environ:
            boots = tempfile.NamedTemporaryFile("r", prefix="lucid-boots-")
            os.environ[BOOT_LOG] = boots.name  # the test processes inherit it
    if a.qemu and a.jobs > 1:
        batches = [("", None, {})]
        if a.ubsan_build:
            batches.append(("ubsan:", a.ubsan_qemu, ubsan_env))
        run_qemu_jobs(a.qemu, a.k, results, a.jobs, batches)
    else:
        if a.qemu:
            run_qemu(a.qemu, a.k, results)
        if a.qemu and a.ubsan_build:
            os.environ.update(ubsan_env)
            run_qemu(a.qemu, a.k, results, files=a.ubsan_qemu, label="ubsan:")
    passed = sum(1 for r in results if r[1])
    failed = len(results) - passed
    print("(%.0f s)" % (time.monotonic() - t0))
    if boots is not None:
        seconds = [float(x) for x in boots.read().split()]
        print("(%d kernels booted, %.0f s from QEMU's start to their first prompt)" %
              (len(seconds), sum(seconds)))
    # The reasons again, short, where a log cut in the middle (CI's) still shows them.
    for name, ok, why in results:
        if not ok:
            why = " ".join(why.split())
            why = head_and_tail(why, WHY_IN_SUMMARY)
            print("failed: %s%s" % (name, ": " + why if why else ""))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not results else 0)


if __name__ == "__main__":
    main()

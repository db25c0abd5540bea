#!/usr/bin/env python3
"""Proves that no code the tracer must not trace calls a traceable lock function.

kernel/locking/spinlock.h says why: _raw_spin_lock() and the rest are out of line and traced,
and a tracer callback that fires at the entry of _raw_spin_unlock*() runs while the caller
holds the lock. Code that is never traced (trace/, lib/, the code patchers, notrace functions)
may run inside such a callback, so it must take its locks with the inline __raw_spin_*() forms.

A function is traced if its first instruction is `call __fentry__`; for every other function,
any call or jump to _raw_spin_* is an error. Reads `objdump -d` output (build/kernel.asm).
Usage: check_notrace_locks.py kernel.asm
"""
import re
import sys

FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\s+(.*)$")
LOCK_CALL = re.compile(r"<_raw_spin_[a-z_]+>")


def main(path):
    name, traced, bad = None, None, []
    with open(path) as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                name, traced = m.group(1), None
                continue
            m = INSN.match(line)
            if not m or name is None:
                continue
            insn = m.group(1)
            if traced is None:
                traced = "<__fentry__>" in insn
            if not traced and LOCK_CALL.search(insn):
                bad.append(f"{name}: {insn}")
    if bad:
        print("*** untraced code calls a traceable lock function (use the __raw_spin_* forms, "
              "kernel/locking/spinlock.h):", file=sys.stderr)
        print("\n".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

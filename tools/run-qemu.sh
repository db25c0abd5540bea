#!/bin/sh
# Runs QEMU and turns its exit status into ours: 0 after `poweroff` (ACPI power off gives 0,
# isa-debug-exit with 0 gives 1), non-zero after a panic (isa-debug-exit with 1 gives 3).
"$@"
status=$?
case $status in
0 | 1) exit 0 ;;
3) echo "lucid: the kernel panicked (QEMU exit status 3)" >&2; exit 1 ;;
*) exit $status ;;
esac

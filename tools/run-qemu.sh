#!/bin/sh
# make run and make debug: QEMU as tools/qemu-cmd starts it (the arguments are qemu-cmd's), and
# its exit status turned into ours: 0 after `poweroff` (ACPI power off gives 0, isa-debug-exit
# with 0 gives 1) or Ctrl-A X (0), non-zero after a panic (isa-debug-exit with 1 gives 3).
"$(dirname "$0")/qemu-cmd" "$@"
status=$?
case $status in
0 | 1) exit 0 ;;
3) echo "lucid: the kernel panicked (QEMU exit status 3)" >&2; exit 1 ;;
*) exit $status ;;
esac

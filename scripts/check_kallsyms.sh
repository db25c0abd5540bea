#!/bin/sh
# Proves the second link moved no code: every text symbol of the first link is at the same
# address in the second (kernel/kallsyms.c explains why this must hold).
# Usage: check_kallsyms.sh NM pass1.elf final.elf
nm=$1
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
"$nm" -n "$2" | awk '$2 ~ /^[tTwW]$/' > "$a"
"$nm" -n "$3" | awk '$2 ~ /^[tTwW]$/' > "$b"
if ! cmp -s "$a" "$b"; then
	echo "*** kallsyms: text symbols moved between the two links:" >&2
	diff "$a" "$b" | head -20 >&2
	exit 1
fi

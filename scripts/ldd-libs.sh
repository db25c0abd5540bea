#!/bin/sh
# Prints, for scripts/mkcpio.py, DEST=SRC for the dynamic loader and every shared library `ldd`
# lists for the programs given: DEST the path ld.so looks for (ldd's, without the leading
# slash), SRC the host's file it resolves to (Debian's packages, copied, never rebuilt). A
# library ldd cannot find (a test library on an rpath that exists only inside Lucid) is left out.
set -e
for prog in "$@"; do
	ldd "$prog"
done | awk '
	$2 == "=>" && $3 ~ /^\// { print $3 }   # libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (...)
	$1 ~ /^\// && $2 ~ /^\(/ { print $1 }   # /lib64/ld-linux-x86-64.so.2 (...)
' | sort -u | while read -r lib; do
	echo "${lib#/}=$(readlink -f "$lib")"
done

#!/bin/sh
# Installs what building and testing Lucid needs, on Debian 12. As root it runs apt-get;
# otherwise it prints the one command to run. Exits 0 when everything is there.
PKGS="qemu-system-x86 grub-pc-bin grub-common xorriso mtools nasm python3-pexpect libcmocka-dev gcc make binutils gdb clang libclang-rt-14-dev libtraceevent1 trace-cmd rtla libkshark2 musl-tools busybox-static bash-static lz4"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
		echo "deps: apt-get failed" >&2
		exit 1
	}
else
	echo "deps: missing$missing. Run:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi

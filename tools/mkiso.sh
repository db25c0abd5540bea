#!/bin/sh
# Builds a GRUB (multiboot2) ISO holding the kernel and, if given, the initramfs, which GRUB
# loads as a multiboot2 module (module2) for the kernel to unpack (kernel/fs/initramfs.c).
# Usage: mkiso.sh KERNEL.elf OUT.iso "KERNEL COMMAND LINE" [INITRAMFS.cpio[.lz4]]
#
# The ISO's kernel is stripped: GRUB's multiboot loader reads every section that is not loaded
# (debug info, symbols: 2.7 of the ELF's 3.3 MB) through the BIOS, a fifth of a second under
# QEMU without KVM, for nothing (kallsyms is built in). gdb reads build/lucid.elf, not the ISO's.
# The initramfs is taken as it is (--nounzip: GRUB would inflate a gzip one itself, slowly).
#
# GRUB boots at once (timeout 0) and writes nothing to the serial port: its menu's escape codes
# would otherwise reach whatever reads the console, people and test scripts alike.
set -e
elf=$1 iso=$2 cmdline=$3 initrd=$4
dir=$(mktemp -d)
log=$(mktemp) # outside $dir: everything in $dir goes into the ISO
trap 'rm -rf "$dir" "$log"' EXIT
mkdir -p "$dir/boot/grub"
objcopy --strip-all "$elf" "$dir/boot/lucid.elf"
module=""
if [ -n "$initrd" ]; then
	name=$(basename "$initrd")
	cp "$initrd" "$dir/boot/$name"
	module="module2 --nounzip /boot/$name initramfs"
fi
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
menuentry "Lucid" {
	multiboot2 /boot/lucid.elf $cmdline
	$module
	boot
}
CFG
# Rebuild only when the kernel or the command line changed: grub-mkrescue takes a second or two.
stamp="$iso.stamp"
want="$(cksum < "$elf") $cmdline"
if [ -n "$initrd" ]; then
	want="$want $(cksum < "$initrd")"
fi
if [ -f "$iso" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi
grub-mkrescue -o "$iso" "$dir" --install-modules="multiboot2 normal configfile" \
	--locales= --fonts= --themes= >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
echo "$want" > "$stamp"
echo "  ISO     $iso${cmdline:+ (cmdline: $cmdline)}"

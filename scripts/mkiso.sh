#!/bin/sh
# Builds a GRUB (multiboot2) ISO holding the kernel and, if given, the initramfs, which GRUB
# loads as a multiboot2 module (module2) for the kernel to unpack (kernel/fs/initramfs.c).
# Usage: mkiso.sh KERNEL.elf OUT.iso "KERNEL COMMAND LINE" [INITRAMFS.cpio[.lz4]]
#
# Made for a fast boot under QEMU without KVM, where GRUB reads the CD through the BIOS at some
# 16 MB/s (docs/design/exec.md has the figures):
# - GRUB is one El Torito image (grub-mkimage) with the three commands built in as its config
#   and only the modules they need: no normal mode, no menu, no module read from the CD later
#   (grub-mkrescue's normal mode loads some twenty). Nothing reaches the serial port before the
#   kernel: a menu's escape codes would reach whatever reads the console, people and tests.
# - The ISO's kernel is stripped: GRUB's multiboot loader reads every section that is not loaded
#   (debug info, symbols: 2.7 of the ELF's 3.3 MB) for nothing (kallsyms is built in). gdb
#   reads build/lucid.elf, not the ISO's.
# - The initramfs is taken as it is (--nounzip: GRUB would inflate a gzip one itself, slowly);
#   the build compresses it with LZ4, which the kernel decodes (lib/decompress_unlz4.c).
set -e
elf=$1 iso=$2 cmdline=$3 initrd=$4
dir=$(mktemp -d)
cfg=$(mktemp) log=$(mktemp) # outside $dir: everything in $dir goes into the ISO
trap 'rm -rf "$dir" "$cfg" "$log"' EXIT
# Rebuild only when the kernel, the command line or the initramfs changed.
stamp="$iso.stamp"
want="$(cksum < "$elf") $cmdline"
if [ -n "$initrd" ]; then
	want="$want $(cksum < "$initrd")"
fi
if [ -f "$iso" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi
mkdir -p "$dir/boot/grub"
objcopy --strip-all "$elf" "$dir/boot/lucid.elf"
module=""
if [ -n "$initrd" ]; then
	name=$(basename "$initrd")
	cp "$initrd" "$dir/boot/$name"
	module="module2 --nounzip /boot/$name initramfs"
fi
cat > "$cfg" <<CFG
multiboot2 /boot/lucid.elf $cmdline
$module
boot
CFG
grub-mkimage -O i386-pc-eltorito -p /boot/grub -c "$cfg" -o "$dir/boot/grub/core.img" \
	biosdisk iso9660 multiboot2 2>"$log" || { cat "$log" >&2; exit 1; }
xorriso -as mkisofs -quiet -o "$iso" -b boot/grub/core.img -no-emul-boot -boot-load-size 4 \
	-boot-info-table "$dir" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
echo "$want" > "$stamp"
echo "  ISO     $iso${cmdline:+ (cmdline: $cmdline)}"

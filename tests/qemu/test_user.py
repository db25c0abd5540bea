"""User space (issue 15): the initramfs, ring 3 programs on Linux's system-call ABI.

The programs are user/*.c, built with musl-gcc and packed at /bin/NAME into the initramfs GRUB
loads beside the kernel (kernel/initramfs.c unpacks it).
"""


def test_initramfs_bin(lucid):
    out = lucid.run("ls /bin")
    assert "hello\n" in out, out
    assert lucid.status() == 0
    # A static musl ELF executable, as the build wrote it: the magic and the mode survive.
    assert lucid.run("ls -l /bin/hello").startswith("-rwxr-xr-x "), lucid.run("ls -l /bin")
    dmesg = lucid.run("dmesg")
    assert "Trying to unpack rootfs image as initramfs...\n" in dmesg
    assert "Initramfs unpacking failed" not in dmesg

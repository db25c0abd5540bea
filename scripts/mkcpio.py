#!/usr/bin/env python3
"""Packs files into a newc cpio archive, the format of Linux's initramfs (and of `cpio -H newc`).

Usage: mkcpio.py OUT.cpio DEST=SRC ... [link:DEST=TARGET ...]
   e.g. mkcpio.py build/initramfs.cpio bin/busybox=/bin/busybox link:bin/sh=busybox

DEST=SRC packs the file SRC at DEST; link:DEST=TARGET makes DEST a symbolic link whose content is
TARGET, as `ln -s TARGET DEST` would (newc stores a link's target as its data, mode S_IFLNK 0777).

Each DEST is a path in the archive (no leading slash, as `find . | cpio` writes them); its parent
directories are added first. Every entry is owned by root with mtime 0, so that the archive is the
same bytes on every build. The kernel unpacks it at boot (kernel/fs/initramfs.c).
"""
import os
import sys

NEWC_MAGIC = b"070701"
S_IFDIR = 0o040000
S_IFREG = 0o100000
S_IFLNK = 0o120000
LINK_PREFIX = "link:"


def pad4(n):
    return (4 - n % 4) % 4


def entry(ino, name, mode, data=b""):
    name_b = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 2 if mode & S_IFDIR else 1, 0, len(data), 0, 0, 0, 0,
              len(name_b), 0]
    hdr = NEWC_MAGIC + b"".join(b"%08X" % f for f in fields)
    out = hdr + name_b + b"\0" * pad4(len(hdr) + len(name_b))
    return out + data + b"\0" * pad4(len(data))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out, pairs = argv[1], [a.split("=", 1) for a in argv[2:]]
    blob, seen, ino = b"", set(), 1
    for dest, src in pairs:
        is_link = dest.startswith(LINK_PREFIX)
        if is_link:
            dest = dest[len(LINK_PREFIX):]
        parts = dest.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in seen:
                seen.add(d)
                blob += entry(ino, d, S_IFDIR | 0o755)
                ino += 1
        if is_link:
            data, mode = src.encode(), S_IFLNK | 0o777
        else:
            with open(src, "rb") as f:
                data = f.read()
            mode = S_IFREG | (os.stat(src).st_mode & 0o777)
        blob += entry(ino, "/".join(parts), mode, data)
        ino += 1
    blob += entry(0, "TRAILER!!!", 0)
    with open(out + ".tmp", "wb") as f:
        f.write(blob)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main(sys.argv)

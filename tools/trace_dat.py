#!/usr/bin/python3
"""Unpack a trace.dat (trace-cmd's file, version 6) into the tracefs mirror lucid-record's
--keep writes, so tools/trace_json.py converts what trace-cmd recorded in Lucid.

    tools/trace_dat.py trace.dat MIRROR      # then: tools/trace_json.py MIRROR

The file's layout (man 5 trace-cmd.dat; trace-cmd's lib/trace-cmd/trace-output.c writes it),
little-endian throughout here, as x86_64's:

  "\\x17\\x08\\x44tracing" "6\\0"   magic and version (a string)
  u8 endian, u8 sizeof(long), u32 page size
  "header_page\\0" u64 size, text       events/header_page
  "header_event\\0" u64 size, text      events/header_event
  u32 count, then (u64 size, text) each          events/ftrace/*/format
  u32 systems, then each: name "\\0", u32 count, (u64 size, text) each   events/SYS/*/format
  u32 size, text                        /proc/kallsyms
  u32 size, text                        printk_formats
  u64 size, text                        saved_cmdlines
  u32 cpus
  "options  \\0", then (u16 id, u32 size, data) each, until id 0
  "flyrecord\\0", then (u64 offset, u64 size) per CPU: that CPU's ring-buffer pages
    (or "latency  \\0" and the text of `trace`: no pages)

Version 7 (sections, each perhaps zstd-compressed) is what trace-cmd 3.x records by default;
to_mirror() has the host's trace-cmd rewrite such a file as version 6 first (`trace-cmd
convert --file-version 6 --compression none`), and read() refuses it rather than misread it.
Standard library only (and trace-cmd for version 7).
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

MAGIC = b"\x17\x08\x44tracing"
OPTIONS_DONE = 0


class TraceDatError(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data, self.off = data, 0

    def take(self, n):
        if self.off + n > len(self.data):
            raise TraceDatError("truncated at offset %d (wanted %d bytes)" % (self.off, n))
        b = self.data[self.off:self.off + n]
        self.off += n
        return b

    def num(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def cstring(self):
        end = self.data.find(b"\0", self.off)
        if end < 0:
            raise TraceDatError("unterminated string at offset %d" % self.off)
        s = self.data[self.off:end]
        self.off = end + 1
        return s

    def expect(self, tag):
        got = self.take(len(tag))
        if got != tag:
            raise TraceDatError("expected %r at offset %d, found %r" %
                                (tag, self.off - len(tag), got))

    def sized(self, fmt):
        return self.take(self.num(fmt))


def read(data):
    """{"header_page", "header_event", "formats": [(system, text)], "kallsyms",
    "printk_formats", "saved_cmdlines", "cpus": [pages bytes per CPU]} of a trace.dat."""
    r = Reader(data)
    if not data.startswith(MAGIC):
        raise TraceDatError("not a trace.dat (no trace-cmd magic)")
    r.expect(MAGIC)
    version = r.cstring()
    if version != b"6":
        raise TraceDatError("file version %s: only version 6 is read here (to_mirror() has "
                            "trace-cmd convert others)" % version.decode(errors="replace"))
    endian, long_size, page_size = r.num("B"), r.num("B"), r.num("I")
    if endian != 0 or long_size != 8:
        raise TraceDatError("not a little-endian 64-bit trace (endian %d, long %d)" %
                            (endian, long_size))
    out = {"page_size": page_size, "formats": []}
    for name in ("header_page", "header_event"):
        r.expect(name.encode() + b"\0")
        out[name] = r.sized("Q")
    for _ in range(r.num("I")):
        out["formats"].append(("ftrace", r.sized("Q")))
    for _ in range(r.num("I")):
        system = r.cstring().decode()
        for _ in range(r.num("I")):
            out["formats"].append((system, r.sized("Q")))
    out["kallsyms"] = r.sized("I")
    out["printk_formats"] = r.sized("I")
    out["saved_cmdlines"] = r.sized("Q")
    ncpus = r.num("I")
    tag = r.take(10)
    if tag == b"options  \0":
        while r.num("H") != OPTIONS_DONE:
            r.sized("I")  # clock, uname, version, ...: not needed to decode the pages
        tag = r.take(10)
    out["cpus"] = []
    if tag == b"flyrecord\0":
        for _ in range(ncpus):
            offset, size = r.num("Q"), r.num("Q")
            if offset + size > len(data):
                raise TraceDatError("CPU data past the end of the file (%d + %d > %d)" %
                                    (offset, size, len(data)))
            out["cpus"].append(data[offset:offset + size])
    elif tag != b"latency  \0":
        raise TraceDatError("expected flyrecord or latency, found %r" % tag)
    return out


def version(path):
    with open(path, "rb") as f:
        head = f.read(len(MAGIC) + 4)
    if not head.startswith(MAGIC):
        raise TraceDatError("not a trace.dat (no trace-cmd magic)")
    return head[len(MAGIC):].split(b"\0")[0].decode(errors="replace")


def to_mirror(path, mirror, trace_cmd="trace-cmd"):
    """unpack() of any version trace-cmd writes: a version 7 file converted to 6 first."""
    if version(path) == "6":
        return unpack(path, mirror)
    with tempfile.TemporaryDirectory(prefix="trace-dat-") as tmp:
        v6 = os.path.join(tmp, "v6.dat")
        r = subprocess.run([trace_cmd, "convert", "--file-version", "6", "--compression", "none",
                            "-i", path, "-o", v6], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 or not os.path.exists(v6):
            raise TraceDatError("trace-cmd convert failed (%d):\n%s" % (r.returncode, r.stdout))
        return unpack(v6, mirror)


def unpack(path, mirror):
    """Writes path's contents as mirror/tracing/..., mirror/kallsyms, mirror/trace.dat.cpuN."""
    with open(path, "rb") as f:
        dat = read(f.read())
    tracing = os.path.join(mirror, "tracing")

    def save(rel, data):
        full = os.path.join(mirror, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)

    save("tracing/events/header_page", dat["header_page"])
    save("tracing/events/header_event", dat["header_event"])
    for system, text in dat["formats"]:
        m = re.match(rb"name: (\S+)", text)
        if not m:
            raise TraceDatError("a format of %s without its name line" % system)
        save("tracing/events/%s/%s/format" % (system, m.group(1).decode()), text)
    save("kallsyms", dat["kallsyms"])
    save("tracing/printk_formats", dat["printk_formats"])
    save("tracing/saved_cmdlines", dat["saved_cmdlines"])
    for cpu, pages in enumerate(dat["cpus"]):
        save("trace.dat.cpu%d" % cpu, pages)
    return tracing


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: trace_dat.py TRACE.DAT MIRROR")
    try:
        to_mirror(sys.argv[1], sys.argv[2])
    except (TraceDatError, OSError) as e:  # OSError: no trace-cmd, or the paths
        sys.exit("trace_dat: %s: %s" % (sys.argv[1], e))


if __name__ == "__main__":
    main()

"""Read raw trace records the way trace-cmd does: through the format files.

A format file (events/SYSTEM/NAME/format) gives an event's id and, for each field of its
record, the C declaration, offset, size and signedness:

    name: sched_wakeup
    ID: 18
    format:
    <TAB>field:unsigned short common_type;<TAB>offset:0;<TAB>size:2;<TAB>signed:0;
    ...
    print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, ...

Event.decode() turns a record's bytes into {field: value}: integers as the format says,
char arrays and __data_loc strings as text, flexible arrays ("char buf[]", size 0) as the
rest of the record. Symbols reads /proc/kallsyms, PrintkFormats reads printk_formats, and
bprint() formats a trace_printk record's saved words as the kernel would (lib/bprintf.c).
Host-side, standard library only: tools/trace_json.py and the tests use it.
"""
import bisect
import os
import re
import struct

FIELD = re.compile(r"^\tfield:(?P<decl>[^;]*);\toffset:(?P<offset>\d+);\tsize:(?P<size>\d+);"
                   r"\tsigned:(?P<signed>\d);$")
DATA_LOC_LEN_SHIFT = 16
DATA_LOC_OFFSET_MASK = 0xffff


class Field:
    def __init__(self, decl, offset, size, signed):
        self.decl, self.offset, self.size, self.signed = decl, offset, size, signed
        self.data_loc = decl.startswith("__data_loc ")
        m = re.match(r"^(?P<type>.*?)\s*(?P<name>\w+)(?P<array>\[\d*\])?$", decl)
        self.type, self.name, array = m.group("type"), m.group("name"), m.group("array")
        self.dynamic = array == "[]"  # a flexible array member: the rest of the record
        self.is_array = array is not None and array != "[]"
        self.is_char = self.type.replace("unsigned ", "").replace("signed ", "") == "char" \
            or self.data_loc

    def value(self, rec):
        if self.data_loc:
            (loc,) = struct.unpack_from("<I", rec, self.offset)
            off, n = loc & DATA_LOC_OFFSET_MASK, loc >> DATA_LOC_LEN_SHIFT
            return rec[off:off + n].split(b"\0")[0].decode("utf-8", "replace")
        if self.dynamic:
            return bytes(rec[self.offset:])
        if self.is_array:
            raw = rec[self.offset:self.offset + self.size]
            if self.is_char:
                return raw.split(b"\0")[0].decode("utf-8", "replace")
            return bytes(raw)
        return int.from_bytes(rec[self.offset:self.offset + self.size], "little",
                              signed=bool(self.signed))


class Event:
    """One format file."""

    def __init__(self, system, text):
        self.system = system
        self.name = re.search(r"^name: (\S+)$", text, re.M).group(1)
        self.id = int(re.search(r"^ID: (\d+)$", text, re.M).group(1))
        self.fields = [Field(m.group("decl"), int(m.group("offset")), int(m.group("size")),
                             int(m.group("signed")))
                       for m in (FIELD.match(line) for line in text.split("\n")) if m]
        m = re.search(r"^print fmt: (.*)$", text, re.M)
        self.print_fmt = m.group(1) if m else ""

    def decode(self, rec):
        return {f.name: f.value(rec) for f in self.fields}


def load_events(tracing):
    """{id: Event} from a tracefs tree (or its mirror): every events/*/*/format."""
    events = {}
    root = os.path.join(tracing, "events")
    for system in sorted(os.listdir(root)):
        sdir = os.path.join(root, system)
        if not os.path.isdir(sdir):
            continue
        for name in sorted(os.listdir(sdir)):
            path = os.path.join(sdir, name, "format")
            if os.path.exists(path):
                with open(path) as f:
                    ev = Event(system, f.read())
                events[ev.id] = ev
    return events


class Symbols:
    """/proc/kallsyms: address -> function name, as trace-cmd resolves %ps."""

    def __init__(self, text):
        syms = []
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tTwW":
                syms.append((int(parts[0], 16), parts[2]))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "0x%x" % addr


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "r": "\r"}


def load_printk_formats(text):
    """printk_formats: {address: string}, its C escapes undone."""
    formats = {}
    for m in re.finditer(r'^0x([0-9a-f]+) : "(.*)"$', text, re.M):
        formats[int(m.group(1), 16)] = re.sub(
            r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(0)), m.group(2))
    return formats


DIRECTIVE = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                       r"(?P<len>hh|h|ll|l|z|j|t)?(?P<conv>[diouxXcsp%])(?P<ext>[sS])?")


def bprint(fmt, words, symbols):
    """A TRACE_BPRINT's text: fmt with the argument words lib/bprintf.c saved (u32s,
    64-bit values as two, low first; strings inline, padded to a word)."""
    pos = 0

    def word():
        nonlocal pos
        v = struct.unpack_from("<I", words, pos)[0] if pos + 4 <= len(words) else 0
        pos += 4
        return v

    def one(m):
        nonlocal pos
        conv, length = m.group("conv"), m.group("len") or ""
        if conv == "%":
            return "%"
        width = str(word() if m.group("width") == "*" else (m.group("width") or ""))
        prec = m.group("prec")
        prec = "" if prec is None else "." + str(word() if prec == "*" else prec)
        spec = "%" + m.group("flags") + width + prec
        if conv == "s":
            end = words.find(b"\0", pos)
            end = len(words) if end < 0 else end
            s = words[pos:end].decode("utf-8", "replace")
            pos = (end + 1 + 3) // 4 * 4
            return (spec + "s") % s
        if conv == "p":
            v = word() | word() << 32
            if m.group("ext"):
                return (spec + "s") % symbols.name(v)
            return "0x%x" % v
        if length in ("l", "ll", "z", "j", "t"):
            v = word() | word() << 32
            bits = 64
        else:
            v, bits = word(), 32
        if conv in "di" and v >> (bits - 1):
            v -= 1 << bits
        if conv == "c":
            return (spec + "c") % chr(v & 0xff)
        return (spec + {"u": "d", "i": "d"}.get(conv, conv)) % v

    return DIRECTIVE.sub(one, fmt)

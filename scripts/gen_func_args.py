#!/usr/bin/python3
"""Generates the table of kernel functions' parameters (trace/func_args.h) for func-args.

Usage: readelf --debug-dump=info lucid.pass1.elf | gen_func_args.py SYMS > func_args.c
       gen_func_args.py < /dev/null > func_args0.c      (the empty table of the first link)

SYMS is `nm lucid.pass1.elf`: only functions that are in the kernel's text under their own
name are kept (an inline function that was never emitted has no address to trace).

Linux prints a traced function's arguments with the names and types BTF gives it; Lucid has
no BTF, but the kernel is built with -g, so the first link's DWARF knows every function's
parameters. readelf (binutils, there whenever the kernel can be built) prints it as text,
which this script reads: no library beyond Python's own, and the parameters are the ones
the compiler saw, not a guess from the source's text.

Each defined function (a DW_TAG_subprogram with code, or the abstract instance an
out-of-line copy points to) gives its name and, per DW_TAG_formal_parameter, a name and a
type, followed through typedefs and qualifiers down to one of trace/func_args.h's kinds. A
name that two static functions share with different parameters is left out: the trace finds
functions by name, and a wrong list is worse than none. Functions with variable arguments
are listed with their fixed ones.

The table goes into the .kallsyms section, which comes last in the image, so that its size
never moves code between the two links (kernel/kallsyms.c).
"""
import re
import sys

DIE = re.compile(r"^\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)")
ATTR = re.compile(r"^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$")
REF = re.compile(r"<0x([0-9a-f]+)>")

KINDS = ["INT", "UINT", "PTR", "ENUM", "STRUCT", "UNION", "FLOAT", "UNKNOWN"]
QUALIFIERS = {"DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
              "DW_TAG_restrict_type", "DW_TAG_atomic_type"}


def attr_value(raw):
    """The value part of readelf's attribute text: a name after "(indirect string...): "."""
    if raw.startswith("(indirect") or raw.startswith("(indexed"):
        return raw.split("): ", 1)[1] if "): " in raw else raw
    return raw


def parse(lines):
    dies = {}  # offset -> {"tag", "attrs", "children"}
    stack = []  # (depth, offset)
    cur = None
    for line in lines:
        m = DIE.match(line)
        if m:
            depth, off, tag = int(m.group(1)), int(m.group(2), 16), m.group(3)
            while stack and stack[-1][0] >= depth:
                stack.pop()
            cur = {"tag": tag, "attrs": {}, "children": [], "off": off}
            dies[off] = cur
            if stack:
                dies[stack[-1][1]]["children"].append(off)
            stack.append((depth, off))
            continue
        if cur is None:
            continue
        m = ATTR.match(line)
        if m:
            cur["attrs"][m.group(1)] = attr_value(m.group(2).strip())
    return dies


def ref(die, attr):
    v = die["attrs"].get(attr)
    m = REF.search(v) if v else None
    return int(m.group(1), 16) if m else None


def kind_of(dies, off):
    """(kind, size) of the type at off, through typedefs and qualifiers."""
    seen = 0
    while off is not None and seen < 32:
        d = dies.get(off)
        if d is None:
            return "UNKNOWN", 0
        tag = d["tag"]
        size = int(d["attrs"].get("DW_AT_byte_size", "0").split()[0], 0) \
            if d["attrs"].get("DW_AT_byte_size", "0").split()[0].isdigit() else 0
        if tag in QUALIFIERS:
            off = ref(d, "DW_AT_type")
            seen += 1
            continue
        if tag in ("DW_TAG_pointer_type", "DW_TAG_reference_type"):
            return "PTR", 8
        if tag == "DW_TAG_enumeration_type":
            return "ENUM", size
        if tag == "DW_TAG_structure_type":
            return "STRUCT", size
        if tag == "DW_TAG_union_type":
            return "UNION", size
        if tag == "DW_TAG_base_type":
            enc = d["attrs"].get("DW_AT_encoding", "")
            if "float" in enc:
                return "FLOAT", size
            if "unsigned" in enc or "boolean" in enc:
                return "UINT", size
            return "INT", size
        return "UNKNOWN", size
    return "UNKNOWN", 0


def protos(dies):
    """name -> tuple of (param name, kind, size), for every defined function."""
    found = {}
    clash = set()
    for d in dies.values():
        if d["tag"] != "DW_TAG_subprogram":
            continue
        a = d["attrs"]
        if "DW_AT_declaration" in a:
            continue
        src = d
        origin = ref(d, "DW_AT_abstract_origin") or ref(d, "DW_AT_specification")
        if origin is not None and origin in dies:
            src = dies[origin]
        name = src["attrs"].get("DW_AT_name")
        if not name or not ("DW_AT_low_pc" in a or "DW_AT_inline" in a):
            continue
        params = []
        for c in src["children"]:
            p = dies[c]
            if p["tag"] != "DW_TAG_formal_parameter":
                continue
            pname = p["attrs"].get("DW_AT_name")
            if pname is None:
                o = ref(p, "DW_AT_abstract_origin")
                pname = dies[o]["attrs"].get("DW_AT_name") if o in dies else None
            kind, size = kind_of(dies, ref(p, "DW_AT_type"))
            params.append((pname or "", kind, size))
        params = tuple(params)
        if name in found and found[name] != params:
            clash.add(name)
        found[name] = params
    for name in clash:
        del found[name]
    return found


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(found, out):
    strings, offsets = [], {}

    def intern(s):
        if s not in offsets:
            offsets[s] = sum(len(x) + 1 for x in strings)
            strings.append(s)
        return offsets[s]

    names = sorted(found, key=lambda n: n.encode())  # strcmp's order
    protos_c, args_c = [], []
    for n in names:
        params = found[n]
        protos_c.append("\t{%d, %d, %d}, /* %s */" % (intern(n), len(args_c), len(params), n))
        for pname, kind, size in params:
            args_c.append("\t{%d, FUNC_ARG_%s, %d}," % (intern(pname), kind, min(size, 255)))
    sec = '__attribute__((section(".kallsyms")))'
    out.write("/* Generated by scripts/gen_func_args.py from the first link's DWARF: do not edit. */\n")
    out.write('#include "trace/func_args.h"\n\n')
    out.write("const unsigned int func_protos_num %s = %d;\n" % (sec, len(names)))
    out.write("const struct func_proto func_protos[] %s = {\n%s\n};\n" % (sec, "\n".join(protos_c)))
    out.write("const struct func_arg func_args_table[] %s = {\n%s\n};\n" % (sec, "\n".join(args_c)))
    out.write("const char func_args_strings[] %s =\n" % sec)
    if strings:
        for s in strings:
            out.write("\t%s \"\\0\"\n" % c_string(s))
    else:
        out.write('\t""\n')
    out.write(";\n")


def text_symbols(path):
    names = set()
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                names.add(parts[2])
    return names


def main():
    found = protos(parse(sys.stdin))
    if len(sys.argv) > 1:
        keep = text_symbols(sys.argv[1])
        found = {n: p for n, p in found.items() if n in keep}
        if not found:  # readelf failed, or the kernel was built without -g
            raise SystemExit("gen_func_args: no function's parameters in the DWARF read")
    if sum(len(p) for p in found.values()) > 0xffff:
        raise SystemExit("gen_func_args: more parameters than a uint16_t first_arg can index")
    emit(found, sys.stdout)


if __name__ == "__main__":
    main()

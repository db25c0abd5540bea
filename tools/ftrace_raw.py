"""Decode ring-buffer pages in Linux's binary format (per_cpu/cpuN/trace_pipe_raw).

A page: u64 time_stamp, u64 commit (bytes of records; bit 31: events were lost before this
page, bit 30: their count follows the records), then records. A record starts with a u32:
type_len (5 bits) and time_delta (27 bits).
  type_len 1..28   data of type_len * 4 bytes follows
  type_len 0       the data length is the next u32 (it counts itself), data after it
  29 padding       the rest of the page, or array[0] bytes more
  30 time extend   time_delta += array[0] << 27
  31 time stamp    absolute: (array[0] << 27) | time_delta
Host-side, standard library only: tools/lucid-record and the tests use it.
"""
import struct

PAGE_SIZE = 4096
HDR = 16
MISSED_EVENTS = 1 << 31
MISSED_STORED = 1 << 30
COMMIT_MASK = (1 << 27) - 1
PADDING, TIME_EXTEND, TIME_STAMP = 29, 30, 31
TS_SHIFT = 27


class Page:
    def __init__(self, data):
        self.time_stamp, commit = struct.unpack_from("<QQ", data, 0)
        self.size = commit & COMMIT_MASK
        self.missed = bool(commit & MISSED_EVENTS)
        self.lost = None
        if commit & MISSED_STORED:
            (self.lost,) = struct.unpack_from("<Q", data, HDR + self.size)
        self.records = list(self._records(data))

    def _records(self, data):
        """(timestamp ns, payload bytes) for each data record."""
        off, end, ts = HDR, HDR + self.size, self.time_stamp
        while off + 4 <= end:
            (word,) = struct.unpack_from("<I", data, off)
            type_len, delta = word & 0x1f, word >> 5
            if type_len == PADDING:
                if delta == 0:
                    return  # the rest of the page is padding
                (length,) = struct.unpack_from("<I", data, off + 4)
                off += 4 + length
            elif type_len == TIME_EXTEND:
                (hi,) = struct.unpack_from("<I", data, off + 4)
                ts += (hi << TS_SHIFT) + delta
                off += 8
            elif type_len == TIME_STAMP:
                (hi,) = struct.unpack_from("<I", data, off + 4)
                ts = (hi << TS_SHIFT) | delta
                off += 8
            elif type_len == 0:
                (length,) = struct.unpack_from("<I", data, off + 4)
                ts += delta
                yield ts, data[off + 8:off + 4 + length]
                off += 4 + length
            else:
                ts += delta
                yield ts, data[off + 4:off + 4 + type_len * 4]
                off += 4 + type_len * 4


def pages(blob):
    """Splits what trace_pipe_raw gave into pages."""
    assert len(blob) % PAGE_SIZE == 0, "not whole pages: %d bytes" % len(blob)
    return [Page(blob[i:i + PAGE_SIZE]) for i in range(0, len(blob), PAGE_SIZE)]


def common(payload):
    """struct trace_entry: (type, flags, preempt_count, pid)."""
    return struct.unpack_from("<HBBi", payload, 0)

"""The TLB shootdown before the pages are freed (kernel/mm/mmu_gather.c, Linux's mmu_gather):
after an munmap, madvise(MADV_DONTNEED), brk shrink, mremap or a copy-on-write fault, every CPU
running the address space drops the old translation before the page is freed or reused.

Booted with debug_vm, tlb_finish_mmu checks before each free that no other CPU still has the
tables loaded from before the entries went (each CPU notes the generation it last flushed at);
the old order, free then flush, fails that check whenever a thread of the process runs on
another CPU, as tlbstress's readers do throughout. tlbstress itself asserts what a program can
see: no read ever returns a value from a page unmapped, freed and reused.
"""
import re

from lucid import Lucid

REGIONS = 300
CHECK = re.compile(r"mmu_gather: freeing pages CPU \d+ may still reach")


def test_no_page_freed_while_a_cpu_may_reach_it():
    k = Lucid(cmdline="debug_vm")
    try:
        # 300 regions: with the old order the check fires within the first few; each region
        # costs about 0.1 s of TCG with three threads spinning beside it.
        out = k.run("tlbstress %d" % REGIONS, 240)
        assert k.status() == 0, out
        assert out == ("%d regions unmapped under 3 reading threads\n"
                       "reads from a freed page: 0\n"
                       "reads done: some\n"
                       "200 copy-on-write rounds: stale reads 0\n" % REGIONS), out
        # Copy-on-write under threads, madvise, mremap, brk: the programs that use them.
        for cmd in ("cow", "mremap /tmp", "threads"):
            k.run(cmd, 120)
        log = k.dmesg()
        assert not CHECK.search(log), log[-3000:]
        assert "WARNING" not in log, log[-3000:]
    finally:
        k.close()

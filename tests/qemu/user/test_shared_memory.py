"""Shared memory (docs/design/user-memory.md): MAP_SHARED anonymous memory and /dev/zero shared
with forked children, MAP_SHARED file mappings, msync and mremap, each judged by Linux: the
programs in tests/user/ (shmanon.c, shmfile.c, mremap.c) print the same on the host (musl-gcc) as
in Lucid. And what Linux's output cannot show: that the shared pages come back when the last
process using them unmaps them or exits.
"""
import os
import re
import shutil
import tempfile

from lucid import Lucid
from test_syscalls import on_linux, same_as_linux

FREE = re.compile(r"MemFree: +(\d+) kB")


def free_kb(lucid):
    return int(FREE.search(lucid.run("cat /proc/meminfo")).group(1))


def test_shared_anonymous_memory_and_dev_zero(lucid):
    # Parent, child and grandchild see each other's writes, before and after fork; four
    # children's atomic adds sum exactly; maps says rw-s "/dev/zero (deleted)" on 00:01, smaps
    # counts a page two processes map as Shared, one page one maps as Private.
    same_as_linux(lucid, "shmanon")


def test_shared_memory_is_freed_with_its_last_user(lucid):
    # 16 MiB shared with a child, every page touched by one of them: written by both, and all
    # of it back once the child has exited and the parent unmapped it (and again at exit).
    # One run first: the program's own pages, and the kernel's first allocation of each size
    # it asks for (a slab page for the object's 32 KiB page array), stay once made.
    assert lucid.run("shmanon 16") == "big: 4096 of 4096 pages written\n"
    before = free_kb(lucid)
    for _ in range(3):
        assert lucid.run("shmanon 16") == "big: 4096 of 4096 pages written\n"
        assert lucid.status() == 0
    assert free_kb(lucid) >= before


def test_shared_file_mappings_and_msync(lucid):
    # A ramfs file and a memfd mapped MAP_SHARED: writes reach read() and every other mapping
    # and a forked child's, MAP_PRIVATE stays copy-on-write, SIGBUS past the end, msync's
    # flags and errors, EACCES/EPERM/EOPNOTSUPP where Linux refuses.
    same_as_linux(lucid, "shmfile", "{dir}")


def test_mremap(lucid):
    # Grow in place, shrink, ENOMEM without MREMAP_MAYMOVE, move, MREMAP_FIXED over another
    # mapping, MREMAP_DONTUNMAP of private and shared memory, shared memory moved by a child
    # and duplicated with old_len 0, SIGBUS past a shared object, a file mapping grown and
    # moved; and the errors, in Linux's order.
    same_as_linux(lucid, "mremap", "{dir}")


def test_no_shared_mapping_of_a_9p_file():
    # A 9p file's bytes are on the host, with no page in Lucid for two processes to share:
    # MAP_SHARED is ENODEV (a Linux file system without shared mmap says so), MAP_PRIVATE copies.
    share = tempfile.mkdtemp(prefix="lucid-share-")
    lucid = None
    try:
        with open(os.path.join(share, "f"), "w") as f:
            f.write("x" * 5000)
        lucid = Lucid(share=share)
        assert lucid.run("shmfile -map /mnt/host/f") == (
            "MAP_SHARED PROT_WRITE: -1 No such device\n"
            "MAP_SHARED PROT_READ: -1 No such device\n"
            "MAP_PRIVATE PROT_WRITE: ok\n")
    finally:
        if lucid is not None:
            lucid.close()
        shutil.rmtree(share, ignore_errors=True)


def test_process_shared_locks(lucid):
    # Futexes keyed by the page (kernel/futex/core.c get_futex_key): a PTHREAD_PROCESS_SHARED
    # mutex keeps 4 processes x 20000 adds exact, a condvar and a sem_init(pshared=1) semaphore
    # wake across processes, in shared anonymous memory, a file each process maps itself, and a
    # memfd; a raw FUTEX_WAKE wakes the other process's waiter, a FUTEX_PRIVATE_FLAG one not.
    same_as_linux(lucid, "pshared", "{dir}")
    # glibc's pthreads (its own lock and condvar algorithms) must print the same.
    want = on_linux("pshared", "{dir}")
    assert lucid.run("/opt/dyn/pshared-glibc /tmp", 90) == want
    assert lucid.status() == 0

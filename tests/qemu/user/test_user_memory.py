"""User memory (docs/design/user-memory.md): areas (VMAs), demand paging, stack growth and
copy-on-write fork, judged by Linux where the output allows: tests/user/cow.c, sparse.c, stackgrow.c
and maps.c print the same on the host (musl-gcc) as in Lucid. And what Linux's output cannot
show: how many pages a program really used, that a fork copies no page its child does not
write, that running out of memory in a page fault kills only that process, and that every page
comes back when the processes are gone.
"""
import re
import time

from test_jobs import started_job
from tracefs import free_kb, free_kb_back
from test_syscalls import same_as_linux

SLACK_KB = 64  # the kernel's caches may keep a little


def freed_again(lucid, before):
    """Every page back once the processes have gone: MemFree (with the shell's own anonymous
    pages: tracefs.free_kb) within SLACK_KB of before, measured again (bounded) while a late
    free is still on its way; more than before is a bug too (a page freed twice)."""
    after = free_kb_back(lucid, before - SLACK_KB)
    assert abs(after - before) <= SLACK_KB, (before, after)


def test_cow_fork_each_sees_its_own_writes(lucid):
    before = free_kb(lucid)
    same_as_linux(lucid, "cow")
    for _ in range(3):
        lucid.run("cow > /dev/null")
        assert lucid.status() == 0
    # Every shared page lost its last reference with the last process (a few kB of slack for
    # the kernel's caches, as test_user's check).
    freed_again(lucid, before)


def test_demand_paging_uses_only_the_pages_touched(lucid):
    same_as_linux(lucid, "sparse")
    out = lucid.run("sparse -v")
    # Exactly the 8 pages touched (anonymous memory: the program's text pages it faults in
    # meanwhile are its file's, RssFile); MemFree also pays for the page tables that reach them
    # (a page directory for the 1 GiB, a page table for each 2 MiB touched, at most one more).
    m = re.search(r"RssAnon grew by (\d+) kB, MemFree dropped by (\d+) kB", out)
    assert m, out
    assert int(m.group(1)) == 8 * 4, out
    assert 8 * 4 <= int(m.group(2)) <= (8 + 8 + 2 + 4) * 4, out
    # munmap frees the 10 pages read or written, and the page tables it leaves empty: more
    # than the pages alone (without freeing tables it would be 40 kB exactly).
    m = re.search(r"munmap gave back (\d+) kB", out)
    assert m and 10 * 4 + 8 * 4 <= int(m.group(1)) <= (10 + 10 + 2 + 4) * 4, out


def test_stack_grows_to_rlimit_stack(lucid):
    same_as_linux(lucid, "stackgrow")


def test_maps_through_munmap_holes_and_mprotect_splits(lucid):
    same_as_linux(lucid, "maps")


def test_fork_copies_no_page_until_it_is_written(lucid):
    """A child of a process with 4 MiB touched costs its page tables and kernel stack at fork,
    nothing to read its parent's memory, and the 4 MiB only when it writes them."""
    out = lucid.run("cow -v")
    m = re.search(r"fork of 4096 kB: (-?\d+) kB, reading it: (-?\d+) kB, writing it: (-?\d+) kB "
                  r"\(sum 1024\)", out)
    assert m, out
    fork, read, write = (int(x) for x in m.groups())
    assert fork < 256, out
    assert read < 64, out
    assert 4096 <= write < 4096 + 256, out


def test_out_of_memory_in_a_fault_kills_only_that_process(lucid):
    """fail_page_alloc makes every Nth page allocation of a marked command fail, its user
    pages too once ignore-gfp-highmem is off (Linux's default ignores them): a page fault that
    meets one ends the program with Linux's OOM line and SIGKILL (status 137); the shell and
    the kernel go on, and every page comes back."""
    before = free_kb(lucid)
    seen = None
    try:
        lucid.run("echo 0 > /proc/sys/kernel/fail_page_alloc_ignore_gfp_highmem")
        for interval in (97, 61, 37, 23, 11):
            lucid.run("echo %d > /proc/sys/kernel/fail_page_alloc" % interval)
            for _ in range(4):
                out = lucid.run("(echo 1 > /proc/self/make-it-fail; exec sparse)", timeout=60)
                if "Out of memory: Killed process" in out:
                    seen = (interval, out, lucid.status())
                    break
            if seen:
                break
    finally:
        lucid.run("echo 0 > /proc/sys/kernel/fail_page_alloc")
        lucid.run("echo 1 > /proc/sys/kernel/fail_page_alloc_ignore_gfp_highmem")
    assert seen, "no page fault met an injected failure"
    interval, out, status = seen
    assert re.search(r"Out of memory: Killed process \d+ \(sparse\) total-vm:\d+kB, "
                     r"anon-rss:\d+kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:0kB "
                     r"oom_score_adj:0", out), out
    assert status == 128 + 9, (interval, status, out)
    assert "Oops" not in lucid.run("dmesg")
    assert lucid.run("echo alive") == "alive\n"
    freed_again(lucid, before)


def test_exec_maps_the_program_file_private(lucid):
    """exec maps the file's pages as Linux does (whole pages of it, the bytes around each
    segment's included), and a write to the data is the process's own: the file keeps its
    bytes, and the parent does not see its child's write (tests/user/filemap.c, compared with Linux).
    The file is the same after as before."""
    before = lucid.run("md5sum /bin/filemap")
    same_as_linux(lucid, "filemap")
    same_as_linux(lucid, "filemap")  # a second run starts from the file's bytes again
    assert lucid.run("md5sum /bin/filemap") == before


def status_kb(lucid, pid, key):
    m = re.search(r"^%s:\s+(\d+) kB$" % key, lucid.run("cat /proc/%d/status" % pid), re.M)
    assert m, key
    return int(m.group(1))


def test_exec_shares_the_text_between_processes(lucid):
    """Two busybox processes map the same pages of /bin/busybox, read-only: the memory they
    take is their own pages (RssAnon) and their tables, never their text (RssFile), which exec
    used to copy whole (2 MiB each). Every page comes back when they end."""
    lucid.run("/bin/sleep 0")  # the first exec's lasting allocations (the file's pages' list)
    before = free_kb(lucid)
    pids = []
    for _ in range(2):
        pids.append(started_job(lucid, "/bin/sleep 100 &"))  # each past its exec
    for pid in pids:  # and asleep in nanosleep, its start-up code run (bounded)
        lucid.run("for i in $(seq 300); do [ \"$(cut -d' ' -f3 /proc/%d/stat)\" = S ] && break; "
                  "sleep 0.1; done" % pid)
    used = before - free_kb(lucid)
    files = [status_kb(lucid, pid, "RssFile") for pid in pids]
    anons = [status_kb(lucid, pid, "RssAnon") for pid in pids]
    assert min(files) >= 64, files  # busybox's start-up code, at the least
    # Each process's own pages, and for tables, kernel stack and FPU area 128 kB each at most.
    assert used <= sum(anons) + 2 * 128, (used, files, anons)
    lucid.run("kill %d %d; wait" % tuple(pids))
    freed_again(lucid, before)


def test_a_running_program_file_is_text_busy(lucid):
    """Its processes map the file's pages, so a write would change a running program: opening
    it for writing or truncating it fails with ETXTBSY, as on Linux, until the last one ends."""
    lucid.run("cat /bin/spin > /tmp/spin; chmod 755 /tmp/spin")
    m = re.match(r"^\[(\d+)\] (\d+)\n$", lucid.run("/tmp/spin &"))
    assert m
    try:
        # The prompt comes back once bash has forked: wait for the child's exec of the file.
        for _ in range(300):
            if lucid.run("readlink /proc/%s/exe" % m.group(2)) == "/tmp/spin\n":
                break
            time.sleep(0.1)
        assert lucid.run("echo x > /tmp/spin") == "-bash: /tmp/spin: Text file busy\n"
        assert lucid.run("/bin/sh -c 'echo x > /tmp/spin'") == \
            "/bin/sh: can't create /tmp/spin: Text file busy\n"
        assert lucid.run("/bin/sh -c 'truncate -s 0 /tmp/spin'") == \
            "truncate: /tmp/spin: open: Text file busy\n"
        assert lucid.run("cmp /bin/spin /tmp/spin && echo same") == "same\n"
    finally:
        lucid.run("kill %s; wait" % m.group(2))
    assert lucid.run("echo x > /tmp/spin; cat /tmp/spin; rm /tmp/spin") == "x\n"


def test_mmap_of_a_file_is_private(lucid):
    """mmap(MAP_PRIVATE) of a ramfs file maps its pages as exec does: the file's bytes from the
    offset, a write the process's own, the file's later writes seen where the process has not
    written, and Linux's errors (tests/user/mmappages.c, compared with Linux)."""
    same_as_linux(lucid, "mmappages", "{dir}")

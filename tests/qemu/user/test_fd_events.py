"""The descriptors event loops wait on (epoll, eventfd, signalfd, timerfd) and
the calls around them, each judged by Linux: the user program runs on the host and in Lucid and
the two outputs must be the same, line for line (test_syscalls.py's same_as_linux).
"""
from test_syscalls import same_as_linux


def test_epoll_and_eventfd(lucid):
    # epoll_create1/ctl/wait/pwait: errors in Linux's order, level, edge and one-shot on pipes
    # and eventfds, hang-ups, nesting, an item leaving with its file's last close, EINTR;
    # eventfd's counter, EFD_SEMAPHORE, EFD_NONBLOCK, EFD_CLOEXEC and its limits.
    same_as_linux(lucid, "epoll")


def test_epoll_on_the_tty(lucid):
    # The console in canonical mode: not readable until a line is typed, then once (EPOLLET).
    lucid.send_line("epoll tty")
    lucid.expect(r"tty, nothing typed:\r?\ntype a line")
    lucid.send_line("hello")
    out = lucid.expect_prompt()
    assert out.replace("\r\n", "\n").endswith("tty: 0:0x1\ntty, edge seen:\nread 6: hello\n"), out


def test_signalfd_and_timerfd(lucid):
    # signalfd4: errors, siginfo of kill, tkill, real-time queues and SIGCHLD, a new mask, a
    # blocking read; timerfd: errors, one-shot, periodic, absolute on both clocks, a past
    # deadline, gettime, settime's old value and disarming; both through epoll.
    same_as_linux(lucid, "sigtimerfd")


def test_empty_argv_proc_self_and_syscall(lucid):
    # execve with an empty (or NULL) argv gives argv[0] = "" as Linux 6.1;
    # readlink of /proc/self has its exact length; /proc/PID/syscall of the reader itself (in
    # read) and of a child asleep in pause, in Linux's format.
    same_as_linux(lucid, "argvproc")


def test_memfd_and_seals(lucid):
    # memfd_create's errors and file (/proc/self/fd name, read/write/ftruncate, a private
    # mapping, a reopen), each seal's effect on writes and ftruncate, F_SEAL_SEAL, and a memfd
    # made without MFD_ALLOW_SEALING; fcntl's seal calls on a file that is not a memfd.
    same_as_linux(lucid, "memfd")


def test_getcpu_clocks_fifos_pidfd_membarrier_unshare(lucid):
    # getcpu; clock_getres of every clock and the clocks clock_nanosleep refuses; mknodat's
    # FIFOs (opens that wait for the other end, O_NONBLOCK's answers), regular and socket
    # nodes; pidfd_send_signal's checks and siginfo; membarrier; unshare of what is not shared.
    same_as_linux(lucid, "misccalls")
    # Lucid has no namespaces: unshare of one is EINVAL (docs/design/syscalls.md), where
    # Linux's root gets a new one; the host cannot judge this.
    out = lucid.run("busybox unshare -m true; echo $?")
    assert out.endswith("1\n"), out


def test_openat2_resolve_flags(lucid):
    # openat2: struct open_how's checks, and RESOLVE_NO_SYMLINKS, NO_MAGICLINKS, NO_XDEV,
    # BENEATH, IN_ROOT and CACHED on a small tree, in /proc and through /proc/self/fd.
    same_as_linux(lucid, "openat2")


def test_process_vm_readv_writev(lucid):
    # A child's memory read and written by its parent through iovecs of different shapes, a
    # copy stopping at an unmapped page, read-only and PROT_NONE pages, and the errors.
    same_as_linux(lucid, "procvm")

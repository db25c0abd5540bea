"""UNIX-domain sockets (kernel/net/): socketpair, AF_UNIX stream, datagram and seqpacket
sockets bound to paths on the ramfs and to abstract names, SCM_RIGHTS, each judged by Linux:
the user program runs on the host and in Lucid and the two outputs must be the same, line for
line (test_syscalls.py's same_as_linux).
"""
import re

from test_files import mem_free_but_the_shell
from test_syscalls import same_as_linux
from tracefs import T, reset_tracing


def test_stream_client_and_server(lucid):
    # A server and a client over a bound path: the socket node (S_IFSOCK, ENXIO to open),
    # EADDRINUSE, listen's backlog (EAGAIN for a non-blocking connect past it), accept4's
    # flags, the names and SO_PEERCRED of both ends, shutdown's EOF and EPIPE with SIGPIPE,
    # ECONNRESET for a close with data unread or a listener gone, poll, select and epoll
    # readiness, the waits (1 MiB through a blocking write, a connect waiting out a full
    # backlog, EINTR, SO_RCVTIMEO's EAGAIN), and every call's errors in Linux's order.
    same_as_linux(lucid, "unixstream", "{dir}")


def test_datagrams_seqpacket_and_scm_rights(lucid):
    # Datagrams keep their boundaries (MSG_TRUNC, MSG_PEEK, the sender's name, connect's
    # EPERM, the queue's limit, EMSGSIZE, ECONNREFUSED once the peer has gone), seqpacket
    # over an abstract name, autobind, and SCM_RIGHTS: new descriptors on the same open files,
    # MSG_CMSG_CLOEXEC, MSG_CTRUNC with a small control buffer, a socket passed along, and
    # sendmsg's errors; sendmmsg and recvmmsg; FIONREAD; /proc's socket:[INODE].
    same_as_linux(lucid, "unixmsg", "{dir}")


def test_sockets_give_their_memory_back(lucid):
    # Every socket, buffer, name and file in flight is freed with the last close: after a
    # round to warm the caches, 20 rounds of all of unixmsg (datagrams, a seqpacket
    # connection, SCM_RIGHTS of files, pipes and sockets, sockets left in flight, and cycles of
    # sockets in each other's queues that only the garbage collector frees) leave MemFree
    # where it was.
    assert lucid.run("unixmsg loop 2 /tmp") == "2 rounds\n"
    before = mem_free_but_the_shell(lucid)
    assert lucid.run("unixmsg loop 20 /tmp", 120) == "20 rounds\n"
    assert lucid.run("unixstream /tmp > /dev/null; echo $?", 60) == "0\n"
    after = mem_free_but_the_shell(lucid)
    assert after >= before, (before, after)


def test_busybox_syslogd_and_logger(lucid):
    # A real program's datagram socket: busybox syslogd binds /dev/log (ls -l shows the
    # socket node, `s`), logger sends it a line, syslogd writes it down. Each wait is bounded.
    out = lucid.run("syslogd -n -O /tmp/messages & "
                    "for i in $(seq 300); do [ -S /dev/log ] && break; sleep 0.1; done; "
                    "ls -l /dev/log; logger -t mytag hello over a socket; "
                    "for i in $(seq 300); do grep -q mytag /tmp/messages && break; sleep 0.1; "
                    "done; grep -o 'user.notice mytag: .*' /tmp/messages; kill %1; wait; "
                    "rm /tmp/messages /dev/log", 60)
    assert re.search(r"^srw-rw-rw- +1 root +root +0 .* /dev/log$", out, re.M), out
    assert "\nuser.notice mytag: hello over a socket\n" in out, out


def test_socket_calls_in_the_syscall_events(lucid):
    # The new calls have their syscalls:* events, with Linux's argument names.
    reset_tracing(lucid)
    fmt = lucid.run("cat %s/events/syscalls/sys_enter_socketpair/format" % T)
    assert "\tfield:int * usockvec;\toffset:40;\tsize:8;\tsigned:0;\n" in fmt, fmt
    lucid.run("echo 1 > %s/events/syscalls/sys_enter_socket/enable; "
              "echo 1 > %s/events/syscalls/sys_exit_socket/enable" % (T, T))
    lucid.run("unixstream /tmp > /dev/null")
    lucid.run("echo 0 > %s/events/enable" % T)
    trace = lucid.run("cat %s/trace" % T)
    assert re.search(r"unixstream-\d+ .* sys_socket\(family: 1, type: 1, protocol: 0\)\n",
                     trace), trace
    assert re.search(r"unixstream-\d+ .* sys_socket -> 0x3\n", trace), trace
    reset_tracing(lucid)

"""UNIX-domain sockets (kernel/net/): socketpair, AF_UNIX stream, datagram and seqpacket
sockets bound to paths on the ramfs and to abstract names, SCM_RIGHTS, each judged by Linux:
the user program runs on the host and in Lucid and the two outputs must be the same, line for
line (test_syscalls.py's same_as_linux).
"""
from test_syscalls import same_as_linux


def test_stream_client_and_server(lucid):
    # A server and a client over a bound path: the socket node (S_IFSOCK, ENXIO to open),
    # EADDRINUSE, listen's backlog (EAGAIN for a non-blocking connect past it), accept4's
    # flags, the names and SO_PEERCRED of both ends, shutdown's EOF and EPIPE with SIGPIPE,
    # ECONNRESET for a close with data unread or a listener gone, poll and epoll readiness,
    # and every call's errors in Linux's order.
    same_as_linux(lucid, "unixstream", "{dir}")


def test_datagrams_seqpacket_and_scm_rights(lucid):
    # Datagrams keep their boundaries (MSG_TRUNC, MSG_PEEK, the sender's name, connect's
    # EPERM, the queue's limit, EMSGSIZE, ECONNREFUSED once the peer has gone), seqpacket
    # over an abstract name, autobind, and SCM_RIGHTS: new descriptors on the same open files,
    # MSG_CMSG_CLOEXEC, MSG_CTRUNC with a small control buffer, and sendmsg's errors.
    same_as_linux(lucid, "unixmsg", "{dir}")

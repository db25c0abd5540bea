/* 9P2000.L messages: building requests and checking replies (kernel/fs/9p/protocol.c). */
#ifndef KERNEL_FS_9P_PROTOCOL_H
#define KERNEL_FS_9P_PROTOCOL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Message types: each T (request) is answered by T + 1 (its R), or by Rlerror. */
enum p9_msg_t {
	P9_RLERROR = 7,
	P9_TSTATFS = 8,
	P9_TLOPEN = 12,
	P9_TLCREATE = 14,
	P9_TSYMLINK = 16,
	P9_TREADLINK = 22,
	P9_TGETATTR = 24,
	P9_TSETATTR = 26,
	P9_TREADDIR = 40,
	P9_TFSYNC = 50,
	P9_TMKDIR = 72,
	P9_TRENAMEAT = 74,
	P9_TUNLINKAT = 76,
	P9_TVERSION = 100,
	P9_TATTACH = 104,
	P9_TFLUSH = 108,
	P9_TWALK = 110,
	P9_TREAD = 116,
	P9_TWRITE = 118,
	P9_TCLUNK = 120,
};

#define P9_HDRSZ 7 /* size[4] type[1] tag[2] */
#define P9_IOHDRSZ 24 /* what a Twrite/Rread adds around its data: msize - this fits */
#define P9_READDIRHDRSZ 24
#define P9_NOTAG 0xffff
#define P9_NOFID 0xffffffffu
#define P9_MAXWELEM 16 /* names in one Twalk */
#define P9_QID_SIZE 13
#define P9_MAX_ERRNO 4095 /* an Rlerror code above this is not an errno */
#define P9_VERSION "9P2000.L"

/* qid.type bits */
#define P9_QTDIR 0x80

/* Tgetattr's request mask and Tsetattr's valid bits. */
#define P9_GETATTR_BASIC 0x000007ffULL
#define P9_ATTR_MODE 0x00000001
#define P9_ATTR_SIZE 0x00000008
#define P9_ATTR_ATIME 0x00000010
#define P9_ATTR_MTIME 0x00000020
#define P9_ATTR_CTIME 0x00000040
#define P9_ATTR_ATIME_SET 0x00000080 /* the atime given, not the server's time now */
#define P9_ATTR_MTIME_SET 0x00000100

#define P9_AT_REMOVEDIR 0x200 /* Tunlinkat: remove a directory */

/*
 * Tlopen's and Tlcreate's flags are Linux's open flags (9P2000.L's P9_DOTL_*): O_APPEND makes
 * the server open the host file O_APPEND, so each Twrite lands at the end of the file as it is
 * then, whatever offset it names (Linux's pwrite on an O_APPEND file appends).
 */
#define P9_DOTL_APPEND 00002000

struct p9_qid {
	uint8_t type;
	uint32_t version;
	uint64_t path;
};

/* A string inside a reply: not NUL-terminated, valid while the reply buffer is. */
struct p9_str {
	const char *s;
	uint16_t len;
};

/* Rgetattr, in 9P2000.L's order. */
struct p9_stat_dotl {
	uint64_t valid;
	struct p9_qid qid;
	uint32_t mode, uid, gid;
	uint64_t nlink, rdev, size, blksize, blocks;
	uint64_t atime_sec, atime_nsec, mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
	uint64_t btime_sec, btime_nsec, gen, data_version;
};

/* Rstatfs: the host file system's statfs, in 9P2000.L's order. */
struct p9_rstatfs {
	uint32_t type, bsize;
	uint64_t blocks, bfree, bavail, files, ffree, fsid;
	uint32_t namelen;
};

/* One entry of an Rreaddir's data. */
struct p9_dirent {
	struct p9_qid qid;
	uint64_t offset; /* where the next Treaddir continues after this entry */
	uint8_t d_type;
	struct p9_str name;
};

/*
 * Requests and replies are described by a format, one letter a field (Linux's p9pdu_writef):
 *   b u8   w u16   d u32   q u64   Q qid (reply only)
 *   s string: building, a const char *; checking, a struct p9_str * (pointing into the reply)
 *   D data with a 32-bit count before it: building, (uint32_t count, const void *data);
 *     checking, (uint32_t *count, const uint8_t **data), the bytes inside the reply
 *   T walk names: building, (uint16_t n, const char *const *names)
 *   R qids: checking, (uint16_t max, uint16_t *n, struct p9_qid *qids): more than max fails
 * p9_build returns the message's length, or 0 if it does not fit in cap.
 */
size_t p9_build(void *buf, size_t cap, uint8_t type, uint16_t tag, const char *fmt, ...);
/* The same with the arguments in *ap (a pointer: p9_rpc goes on with the rest of them). */
size_t p9_vbuild(void *buf, size_t cap, uint8_t type, uint16_t tag, const char *fmt, va_list *ap);

/*
 * Checks a reply of len bytes (what the transport says arrived) to request type ttype sent
 * with tag, and takes its fields as fmt says. Returns 0; or the server's error, -ecode, for an
 * Rlerror; or -EIO for anything malformed: shorter than its header, a size field that is not
 * len or that overflows, the wrong tag, a type that is neither the R nor Rlerror, a field or
 * count that runs past the end, or bytes left over after the last field.
 */
int p9_parse(const void *buf, size_t len, uint8_t ttype, uint16_t tag, const char *fmt, ...);
int p9_vparse(const void *buf, size_t len, uint8_t ttype, uint16_t tag, const char *fmt,
	      va_list *ap);

/*
 * Walks the entries of an Rreaddir's data: returns 1 with *de filled and *pos moved on, 0 at
 * the end, -EIO for a malformed entry (a field past the end, a name that is empty, too long,
 * ".", "..", or holds '/' or NUL).
 */
int p9_readdir_next(const uint8_t *data, uint32_t count, uint32_t *pos, struct p9_dirent *de);

/* A reply's type and tag, for the transport to find whose it is: -EIO if too short. */
int p9_peek_header(const void *buf, size_t len, uint32_t *size, uint8_t *type, uint16_t *tag);

#endif

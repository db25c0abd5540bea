/* The 9P2000.L client: sessions, fids, requests in flight (kernel/fs/9p/client.c). */
#ifndef KERNEL_FS_9P_CLIENT_H
#define KERNEL_FS_9P_CLIENT_H

#include "kernel/fs/9p/protocol.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/wait.h"

#define P9_MSIZE (128 * 1024 + P9_IOHDRSZ) /* 128 KiB of data per Tread/Twrite */
#define P9_MAX_REQS 8 /* requests in flight at once, each with its tag */
#define P9_READ_AHEAD 4 /* Treads (Twrites) one read (write) has in flight at once */
#define P9_TIMEOUT_MS 30000 /* a request the device keeps longer fails (-EIO) */

struct p9_client;

/* One request slot: its tag is its index. Buffers of msize bytes each way, allocated once. */
struct p9_req {
	uint16_t tag;
	bool busy; /* handed out by p9_req_get */
	volatile bool done; /* the device gave it back: rlen bytes in rc */
	bool lost; /* timed out while the device still held it: never reused */
	uint32_t rlen;
	uint8_t *tc, *rc;
	wait_queue_head_t wq;
	struct p9_client *client;
};

/* How the client's messages reach the server: trans_virtio.c. */
struct p9_trans {
	/* Queues tc (tlen bytes) and rc (msize bytes) for the device; 0 or -errno. */
	int (*request)(struct p9_client *c, struct p9_req *req, size_t tlen);
	void *priv;
};

struct p9_client {
	struct p9_trans trans;
	uint32_t msize;
	spinlock_t lock;
	struct p9_req reqs[P9_MAX_REQS];
	wait_queue_head_t req_wq; /* waiting for a free slot */
	uint32_t next_fid;
};

struct p9_client *p9_client_create(const struct p9_trans *trans);
/* The transport saw req come back with len bytes (interrupt context). */
void p9_client_cb(struct p9_req *req, uint32_t len);

/*
 * One round trip: sends type with the fields tfmt says (p9_build's letters), waits for the
 * reply (sleeping, at most P9_TIMEOUT_MS), checks it and takes rfmt's fields (p9_parse's).
 * Returns 0 or -errno, and in *reqp the request: strings and data rfmt pointed at live in it,
 * until p9_req_put(). On failure there is nothing to put.
 */
int p9_rpc(struct p9_client *c, struct p9_req **reqp, uint8_t type, const char *tfmt,
	   const char *rfmt, ...);
void p9_req_put(struct p9_client *c, struct p9_req *req);
/*
 * The two halves of p9_rpc, for several requests in flight from one caller: send (waiting for
 * a free slot only if may_wait; else -EAGAIN when none is free), then wait, in any order. A
 * request sent must be waited for; p9_rpc_wait's success leaves the slot to p9_req_put().
 */
int p9_rpc_send(struct p9_client *c, struct p9_req **reqp, bool may_wait, uint8_t type,
		const char *tfmt, ...);
int p9_rpc_wait(struct p9_client *c, struct p9_req *req, uint8_t type, const char *rfmt, ...);

uint32_t p9_fid_alloc(struct p9_client *c);

/* The calls, each one message (fs/9p/vfs_*.c use them). */
int p9_client_version(struct p9_client *c);
int p9_client_attach(struct p9_client *c, uint32_t fid, struct p9_qid *qid);
int p9_client_walk(struct p9_client *c, uint32_t fid, uint32_t newfid, unsigned int n,
		   const char *const *names, struct p9_qid *qid);
int p9_client_lopen(struct p9_client *c, uint32_t fid, uint32_t flags, uint32_t *iounit);
int p9_client_lcreate(struct p9_client *c, uint32_t fid, const char *name, uint32_t flags,
		      uint32_t mode, struct p9_qid *qid);
int p9_client_getattr(struct p9_client *c, uint32_t fid, struct p9_stat_dotl *st);
int p9_client_setattr_size(struct p9_client *c, uint32_t fid, uint64_t size);
/* Tsetattr's mode and times (P9_ATTR_* in valid; uid, gid and size left alone). */
struct p9_iattr_dotl {
	uint32_t valid, mode;
	uint64_t atime_sec, atime_nsec, mtime_sec, mtime_nsec;
};
int p9_client_setattr(struct p9_client *c, uint32_t fid, const struct p9_iattr_dotl *a);
int p9_client_mkdir(struct p9_client *c, uint32_t dfid, const char *name, uint32_t mode,
		    struct p9_qid *qid);
int p9_client_unlinkat(struct p9_client *c, uint32_t dfid, const char *name, uint32_t flags);
int p9_client_renameat(struct p9_client *c, uint32_t olddfid, const char *oldname, uint32_t newdfid,
		       const char *newname);
/* A symbolic link's target, kmalloc'd and NUL-terminated, in *target. */
int p9_client_readlink(struct p9_client *c, uint32_t fid, char **target);
int p9_client_symlink(struct p9_client *c, uint32_t dfid, const char *name, const char *target,
		      struct p9_qid *qid);
int p9_client_statfs(struct p9_client *c, uint32_t fid, struct p9_rstatfs *st);
int p9_client_fsync(struct p9_client *c, uint32_t fid);
int p9_client_clunk(struct p9_client *c, uint32_t fid);
/*
 * Reads up to count bytes at offset into buf, several requests at once; returns the bytes read
 * (fewer at the end of the file, 0 past it) or, if none, -errno.
 */
long p9_client_read(struct p9_client *c, uint32_t fid, uint64_t offset, void *buf, uint32_t count);
long p9_client_write(struct p9_client *c, uint32_t fid, uint64_t offset, const void *buf,
		     uint32_t count);
/* The largest count one read or write may ask for. */
uint32_t p9_client_iosize(const struct p9_client *c);

#endif

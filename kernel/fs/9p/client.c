/*
 * The 9P2000.L client: what a file system call turns into on the wire.
 *
 * A client is one session with one server (one virtio-9p device): Tversion opens it and fixes
 * msize, the largest message either side sends. The session has fids, numbers the client picks
 * to name files on the server (as a file descriptor names an open file), made by Tattach (the
 * root) and Twalk (from a fid, by names), and forgotten with Tclunk.
 *
 * Requests in flight: P9_MAX_REQS slots, each with a tag (its index) and a buffer of msize
 * bytes each way, allocated at creation so a request never waits for memory. A caller takes a
 * free slot (sleeping if all are busy), builds its message in it, hands it to the transport
 * and sleeps on the slot's wait queue; the transport's interrupt marks it done and wakes it.
 * Several tasks on several CPUs each have their own slot in flight; replies may come back in
 * any order, matched by the slot (the virtqueue's token) and checked by the tag inside.
 *
 * Waits are bounded: a request the device does not answer in P9_TIMEOUT_MS fails with -EIO.
 * Its slot is then "lost" (the device may still write into it) and comes back only if the
 * device ever answers. Waiting for a free slot is bounded the same way, and once every slot
 * is lost, every request fails at once with -EIO instead of waiting for ever.
 */
#include "kernel/fs/9p/client.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The smallest msize worth a session: a page, room for a directory entry and a path. */
#define P9_MIN_MSIZE 4096

struct p9_client *p9_client_create(const struct p9_trans *trans)
{
	struct p9_client *c = kzalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->trans = *trans;
	c->msize = P9_MSIZE;
	c->next_fid = 1;
	spin_lock_init(&c->lock);
	init_waitqueue_head(&c->req_wq);
	for (int i = 0; i < P9_MAX_REQS; i++) {
		struct p9_req *req = &c->reqs[i];

		req->tag = (uint16_t)i;
		req->client = c;
		init_waitqueue_head(&req->wq);
		req->tc = kmalloc(c->msize);
		req->rc = kmalloc(c->msize);
		if (!req->tc || !req->rc)
			return NULL; /* boot-time: what was allocated stays */
	}
	return c;
}

uint32_t p9_fid_alloc(struct p9_client *c)
{
	unsigned long irq = spin_lock_irqsave(&c->lock);
	uint32_t fid = c->next_fid++;

	if (c->next_fid == P9_NOFID)
		c->next_fid = 1;
	spin_unlock_irqrestore(&c->lock, irq);
	return fid;
}

/* A free slot, or NULL; *all_lost says whether every slot is lost to a silent device. */
static struct p9_req *try_get_req_lost(struct p9_client *c, bool *all_lost)
{
	unsigned long irq = spin_lock_irqsave(&c->lock);
	struct p9_req *found = NULL;
	int lost = 0;

	for (int i = 0; i < P9_MAX_REQS && !found; i++) {
		if (!c->reqs[i].busy) {
			found = &c->reqs[i];
			found->busy = true;
			found->done = false;
		}
		lost += c->reqs[i].lost;
	}
	spin_unlock_irqrestore(&c->lock, irq);
	*all_lost = lost == P9_MAX_REQS;
	return found;
}

static struct p9_req *try_get_req(struct p9_client *c)
{
	bool all_lost;

	return try_get_req_lost(c, &all_lost);
}

/*
 * A free slot, sleeping until one is put back. Bounded as requests are: if every slot is
 * lost to a device that stopped answering, none will come back, so -EIO at once, and after
 * P9_TIMEOUT_MS of waiting, -EIO too.
 */
static int get_req(struct p9_client *c, struct p9_req **reqp)
{
	struct wait_queue_entry w = {0};
	long left = P9_TIMEOUT_MS;
	bool all_lost = false;

	for (;;) {
		prepare_to_wait(&c->req_wq, &w, TASK_UNINTERRUPTIBLE);
		*reqp = try_get_req_lost(c, &all_lost);
		if (*reqp || all_lost || left <= 0)
			break;
		left = schedule_timeout(left);
	}
	finish_wait(&c->req_wq, &w);
	return *reqp ? 0 : -EIO;
}

void p9_req_put(struct p9_client *c, struct p9_req *req)
{
	unsigned long irq = spin_lock_irqsave(&c->lock);

	req->busy = false;
	spin_unlock_irqrestore(&c->lock, irq);
	wake_up(&c->req_wq);
}

void p9_client_cb(struct p9_req *req, uint32_t len)
{
	struct p9_client *c = req->client;
	unsigned long irq = spin_lock_irqsave(&c->lock);

	req->rlen = len;
	if (req->lost) { /* its waiter gave up long ago: the slot is free again */
		req->lost = false;
		req->busy = false;
		spin_unlock_irqrestore(&c->lock, irq);
		wake_up(&c->req_wq);
		return;
	}
	WRITE_ONCE(req->done, true);
	spin_unlock_irqrestore(&c->lock, irq);
	wake_up(&req->wq);
}

/* Sleeps until req is done or the timeout passes; false on timeout. */
static bool wait_req(struct p9_req *req)
{
	struct wait_queue_entry w = {0};
	long left = P9_TIMEOUT_MS;

	for (;;) {
		prepare_to_wait(&req->wq, &w, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(req->done) || left <= 0)
			break;
		left = schedule_timeout(left);
	}
	finish_wait(&req->wq, &w);
	return READ_ONCE(req->done);
}

/* The tag on the wire: the slot's, but NOTAG for Tversion, which opens the session. */
static uint16_t msg_tag(const struct p9_req *req, uint8_t type)
{
	return type == P9_TVERSION ? P9_NOTAG : req->tag;
}

/* Builds the message in req and hands it to the transport; on failure req is put back. */
static int rpc_send(struct p9_client *c, struct p9_req *req, uint8_t type, const char *tfmt,
		    va_list *ap)
{
	size_t tlen = p9_vbuild(req->tc, c->msize, type, msg_tag(req, type), tfmt, ap);
	int err = tlen ? c->trans.request(c, req, tlen) : -EINVAL; /* too long for msize */

	if (err)
		p9_req_put(c, req);
	return err;
}

/* Waits for req's reply and checks it; on failure req is put back (or kept aside, lost). */
static int rpc_wait(struct p9_client *c, struct p9_req *req, uint8_t type, const char *rfmt,
		    va_list *ap)
{
	int err;

	if (!wait_req(req)) {
		unsigned long irq = spin_lock_irqsave(&c->lock);

		if (!READ_ONCE(req->done)) {
			req->lost = true;
			spin_unlock_irqrestore(&c->lock, irq);
			printk(KERN_ERR "9p: no reply to request type %u tag %u: -EIO\n", type,
			       req->tag);
			return -EIO;
		}
		spin_unlock_irqrestore(&c->lock, irq);
	}
	err = p9_vparse(req->rc, req->rlen, type, msg_tag(req, type), rfmt, ap);
	if (err)
		p9_req_put(c, req);
	return err;
}

int p9_rpc(struct p9_client *c, struct p9_req **reqp, uint8_t type, const char *tfmt,
	   const char *rfmt, ...)
{
	struct p9_req *req;
	va_list ap;
	int err;

	err = get_req(c, &req);
	if (err)
		return err;
	va_start(ap, rfmt);
	err = rpc_send(c, req, type, tfmt, &ap);
	if (!err)
		err = rpc_wait(c, req, type, rfmt, &ap);
	va_end(ap);
	if (!err)
		*reqp = req;
	return err;
}

int p9_rpc_send(struct p9_client *c, struct p9_req **reqp, bool may_wait, uint8_t type,
		const char *tfmt, ...)
{
	struct p9_req *req = try_get_req(c);
	va_list ap;
	int err;

	if (!req && !may_wait)
		return -EAGAIN;
	if (!req && get_req(c, &req))
		return -EIO;
	va_start(ap, tfmt);
	err = rpc_send(c, req, type, tfmt, &ap);
	va_end(ap);
	if (!err)
		*reqp = req;
	return err;
}

int p9_rpc_wait(struct p9_client *c, struct p9_req *req, uint8_t type, const char *rfmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, rfmt);
	err = rpc_wait(c, req, type, rfmt, &ap);
	va_end(ap);
	return err;
}

/* The round trips whose replies hold nothing that points into the buffer. */
#define P9_RPC(c, ...)                                        \
	({                                                    \
		struct p9_req *__req;                         \
		int __err = p9_rpc((c), &__req, __VA_ARGS__); \
		if (!__err)                                   \
			p9_req_put((c), __req);               \
		__err;                                        \
	})

int p9_client_version(struct p9_client *c)
{
	struct p9_req *req;
	struct p9_str version;
	uint32_t msize;
	int err = p9_rpc(c, &req, P9_TVERSION, "ds", "ds", c->msize, P9_VERSION, &msize, &version);

	if (err)
		return err;
	if (version.len != strlen(P9_VERSION) || memcmp(version.s, P9_VERSION, version.len)) {
		printk(KERN_ERR "9p: the server does not speak %s\n", P9_VERSION);
		err = -EIO;
	} else if (msize < P9_MIN_MSIZE || msize > c->msize)
		err = -EIO;
	else
		c->msize = msize;
	p9_req_put(c, req);
	return err;
}

int p9_client_attach(struct p9_client *c, uint32_t fid, struct p9_qid *qid)
{
	/* uname "", aname "" (the export's root), n_uname 0: root, as Lucid runs everything. */
	return P9_RPC(c, P9_TATTACH, "ddssd", "Q", fid, P9_NOFID, "", "", 0u, qid);
}

int p9_client_walk(struct p9_client *c, uint32_t fid, uint32_t newfid, unsigned int n,
		   const char *const *names, struct p9_qid *qid)
{
	struct p9_qid qids[P9_MAXWELEM];
	struct p9_req *req;
	uint16_t nwqid;
	int err = p9_rpc(c, &req, P9_TWALK, "ddT", "R", fid, newfid, n, names, P9_MAXWELEM, &nwqid,
			 qids);

	if (err)
		return err;
	p9_req_put(c, req);
	if (nwqid != n) {
		/* A walk that stopped part way made no newfid: the name is not there. */
		return nwqid < n ? -ENOENT : -EIO;
	}
	if (qid && n)
		*qid = qids[n - 1];
	return 0;
}

int p9_client_lopen(struct p9_client *c, uint32_t fid, uint32_t flags, uint32_t *iounit)
{
	struct p9_qid qid;

	return P9_RPC(c, P9_TLOPEN, "dd", "Qd", fid, flags, &qid, iounit);
}

int p9_client_lcreate(struct p9_client *c, uint32_t fid, const char *name, uint32_t flags,
		      uint32_t mode, struct p9_qid *qid)
{
	uint32_t iounit;

	return P9_RPC(c, P9_TLCREATE, "dsddd", "Qd", fid, name, flags, mode, 0u, qid, &iounit);
}

int p9_client_getattr(struct p9_client *c, uint32_t fid, struct p9_stat_dotl *st)
{
	return P9_RPC(c, P9_TGETATTR, "dq", "qQdddqqqqqqqqqqqqqqq", fid, (uint64_t)P9_GETATTR_BASIC,
		      &st->valid, &st->qid, &st->mode, &st->uid, &st->gid, &st->nlink, &st->rdev,
		      &st->size, &st->blksize, &st->blocks, &st->atime_sec, &st->atime_nsec,
		      &st->mtime_sec, &st->mtime_nsec, &st->ctime_sec, &st->ctime_nsec,
		      &st->btime_sec, &st->btime_nsec, &st->gen, &st->data_version);
}

int p9_client_setattr_size(struct p9_client *c, uint32_t fid, uint64_t size)
{
	/* The size, and the times a truncation changes, as Linux's truncate does. */
	uint32_t valid = P9_ATTR_SIZE | P9_ATTR_MTIME | P9_ATTR_CTIME;

	return P9_RPC(c, P9_TSETATTR, "dddddqqqqq", "", fid, valid, 0u, 0u, 0u, size, (uint64_t)0,
		      (uint64_t)0, (uint64_t)0, (uint64_t)0);
}

int p9_client_setattr(struct p9_client *c, uint32_t fid, const struct p9_iattr_dotl *a)
{
	return P9_RPC(c, P9_TSETATTR, "dddddqqqqq", "", fid, a->valid, a->mode, 0u, 0u, (uint64_t)0,
		      a->atime_sec, a->atime_nsec, a->mtime_sec, a->mtime_nsec);
}

int p9_client_mkdir(struct p9_client *c, uint32_t dfid, const char *name, uint32_t mode,
		    struct p9_qid *qid)
{
	return P9_RPC(c, P9_TMKDIR, "dsdd", "Q", dfid, name, mode, 0u, qid);
}

int p9_client_unlinkat(struct p9_client *c, uint32_t dfid, const char *name, uint32_t flags)
{
	return P9_RPC(c, P9_TUNLINKAT, "dsd", "", dfid, name, flags);
}

int p9_client_renameat(struct p9_client *c, uint32_t olddfid, const char *oldname, uint32_t newdfid,
		       const char *newname)
{
	return P9_RPC(c, P9_TRENAMEAT, "dsds", "", olddfid, oldname, newdfid, newname);
}

int p9_client_readlink(struct p9_client *c, uint32_t fid, char **target)
{
	struct p9_req *req;
	struct p9_str t;
	int err = p9_rpc(c, &req, P9_TREADLINK, "d", "s", fid, &t);

	if (err)
		return err;
	*target = t.len ? kmalloc((size_t)t.len + 1) : NULL;
	if (*target) {
		memcpy(*target, t.s, t.len);
		(*target)[t.len] = '\0';
	}
	p9_req_put(c, req);
	return *target ? 0 : t.len ? -ENOMEM : -EIO; /* an empty target: not a link Linux makes */
}

int p9_client_symlink(struct p9_client *c, uint32_t dfid, const char *name, const char *target,
		      struct p9_qid *qid)
{
	/* gid 0: root's, as Lucid runs everything (Tattach's n_uname 0). */
	return P9_RPC(c, P9_TSYMLINK, "dssd", "Q", dfid, name, target, 0u, qid);
}

int p9_client_statfs(struct p9_client *c, uint32_t fid, struct p9_rstatfs *st)
{
	return P9_RPC(c, P9_TSTATFS, "d", "ddqqqqqqd", fid, &st->type, &st->bsize, &st->blocks,
		      &st->bfree, &st->bavail, &st->files, &st->ffree, &st->fsid, &st->namelen);
}

int p9_client_fsync(struct p9_client *c, uint32_t fid)
{
	return P9_RPC(c, P9_TFSYNC, "dd", "", fid, 0u);
}

int p9_client_clunk(struct p9_client *c, uint32_t fid)
{
	return P9_RPC(c, P9_TCLUNK, "d", "", fid);
}

uint32_t p9_client_iosize(const struct p9_client *c)
{
	return c->msize - P9_IOHDRSZ;
}

/*
 * Reads or writes count bytes at offset, with up to P9_READ_AHEAD Treads or Twrites in flight
 * at once: while the server handles one piece of the file, the next is already asked for. Only
 * the first request may wait for a free slot; the others are taken only if free, so two callers
 * each holding slots can never wait for each other. Every request sent is waited for, even
 * after an error: its slot comes back only then.
 *
 * A short reply ends the transfer there: for a read, the end of the file; for a write, the
 * host's disk full. What later requests moved past it is past the length returned (a caller
 * that writes the rest again overwrites it).
 */
static long p9_client_io(struct p9_client *c, uint32_t fid, uint64_t offset, uint8_t *buf,
			 uint32_t count, bool write)
{
	struct {
		struct p9_req *req;
		uint32_t chunk;
	} fly[P9_READ_AHEAD];
	uint32_t iosize = p9_client_iosize(c), sent = 0, done = 0;
	int nfly = 0, err = 0;
	bool short_reply = false;

	while (nfly || (sent < count && !err && !short_reply)) {
		while (nfly < P9_READ_AHEAD && sent < count && !err && !short_reply) {
			uint32_t chunk = MIN(count - sent, iosize);
			int e = write ? p9_rpc_send(c, &fly[nfly].req, nfly == 0, P9_TWRITE, "dqD",
						    fid, offset + sent, chunk, buf + sent)
				      : p9_rpc_send(c, &fly[nfly].req, nfly == 0, P9_TREAD, "dqd",
						    fid, offset + sent, chunk);

			if (e == -EAGAIN)
				break;
			if (e) {
				err = e;
				break;
			}
			fly[nfly++].chunk = chunk;
			sent += chunk;
		}
		if (!nfly)
			break;
		const uint8_t *data = NULL;
		uint32_t moved;
		int e = write ? p9_rpc_wait(c, fly[0].req, P9_TWRITE, "d", &moved)
			      : p9_rpc_wait(c, fly[0].req, P9_TREAD, "D", &moved, &data);

		if (!e) { /* (on an error, p9_rpc_wait has put the slot back itself) */
			if (moved > fly[0].chunk) { /* more than asked for: not to be believed */
				e = -EIO;
			} else if (!err && !short_reply) {
				if (!write)
					memcpy(buf + done, data, moved);
				done += moved;
				short_reply = moved < fly[0].chunk;
			}
			p9_req_put(c, fly[0].req);
		}
		if (e && !err && !short_reply)
			err = e;
		nfly--;
		for (int i = 0; i < nfly; i++)
			fly[i] = fly[i + 1];
	}
	return done ? (long)done : err;
}

long p9_client_read(struct p9_client *c, uint32_t fid, uint64_t offset, void *buf, uint32_t count)
{
	return p9_client_io(c, fid, offset, buf, count, false);
}

long p9_client_write(struct p9_client *c, uint32_t fid, uint64_t offset, const void *buf,
		     uint32_t count)
{
	/* Not written to: only sent (the cast is the one place a const buffer meets the shared
	 * loop, which writes into buf only when reading). */
	return p9_client_io(c, fid, offset, (uint8_t *)buf, count, true);
}

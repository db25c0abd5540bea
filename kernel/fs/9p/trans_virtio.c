/*
 * The 9p transport over virtio: a virtio-9p device is a channel to a server (QEMU sharing a
 * host folder), named by its mount tag, with one virtqueue ("requests").
 *
 * A request is two buffers on the queue: the message out (read by the device) and msize bytes
 * in (written by it with the reply). The reply comes back through the used ring with the slot
 * as its token; the queue's interrupt hands it to the client (p9_client_cb), which wakes the
 * task waiting for it. virtio_ring.c has already checked the token and the length.
 *
 * One client per channel, made on first mount and kept: QEMU's server has one session per
 * device, and a second Tversion would end the first mount's. A second mount of the same tag
 * shares the session and attaches again, with fids of its own.
 */
#include "kernel/fs/9p/v9fs.h"
#include "kernel/drivers/virtio/virtio.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"
#include "lib/string.h"

#define VIRTIO_9P_MOUNT_TAG 0 /* feature: the device has a mount tag in its configuration */
#define VIRTIO_9P_CFG_TAG_LEN 0
#define VIRTIO_9P_CFG_TAG 2
#define P9_TAG_MAX 64 /* longer tags are cut; QEMU's are short names */
#define P9_MAX_CHANNELS 4

struct virtio_chan {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	char tag[P9_TAG_MAX + 1];
	struct p9_client *client;
};

static struct virtio_chan *channels[P9_MAX_CHANNELS];
static int nr_channels;
static DEFINE_MUTEX(chan_mutex); /* making a channel's client, once */

static int p9_virtio_request(struct p9_client *c, struct p9_req *req, size_t tlen)
{
	struct virtio_chan *chan = c->trans.priv;
	struct vring_sg sg[2] = {{req->tc, (uint32_t)tlen}, {req->rc, c->msize}};
	int err = virtqueue_add_sgs(chan->vq, sg, 1, 1, req);

	if (err)
		return err == -ENOSPC ? -EIO : err; /* P9_MAX_REQS * 2 <= ring: cannot be full */
	virtqueue_kick(chan->vq);
	return 0;
}

/* The queue's interrupt: every request the device finished goes back to its waiter. */
static void req_done(struct virtqueue *vq)
{
	uint32_t len;
	struct p9_req *req;

	while ((req = virtqueue_get_buf(vq, &len)))
		p9_client_cb(req, len);
}

static int p9_virtio_probe(struct virtio_device *vdev)
{
	struct virtio_chan *chan;
	unsigned int len;

	if (nr_channels == P9_MAX_CHANNELS || !virtio_has_feature(vdev, VIRTIO_9P_MOUNT_TAG))
		return -ENODEV;
	chan = kzalloc(sizeof(*chan));
	if (!chan)
		return -ENOMEM;
	chan->vdev = vdev;
	len = MIN(virtio_cread16(vdev, VIRTIO_9P_CFG_TAG_LEN), P9_TAG_MAX);
	for (unsigned int i = 0; i < len; i++)
		chan->tag[i] = (char)virtio_cread8(vdev, VIRTIO_9P_CFG_TAG + i);
	chan->vq = virtio_find_vq(vdev, 0, "requests", req_done);
	if (!chan->vq || chan->vq->num < 2 * P9_MAX_REQS) {
		kfree(chan);
		return -ENODEV;
	}
	vdev->priv = chan;
	virtio_device_ready(vdev);
	channels[nr_channels++] = chan;
	printk(KERN_INFO "9pnet_virtio: %s: mount tag \"%s\", %u-entry queue\n", vdev->name,
	       chan->tag, chan->vq->num);
	return 0;
}

static struct virtio_driver p9_virtio_drv = {
	.name = "9pnet_virtio",
	.device_id = VIRTIO_ID_9P,
	.features = 1ULL << VIRTIO_9P_MOUNT_TAG,
	.probe = p9_virtio_probe,
};

void p9_virtio_init(void)
{
	register_virtio_driver(&p9_virtio_drv);
}

bool p9_virtio_has_channel(void)
{
	return nr_channels > 0;
}

/*
 * The client for the channel with mount tag tag: -ENODEV if there is no virtio-9p device at
 * all, -ENOENT if none has that tag (Linux's answers).
 */
int p9_virtio_client(const char *tag, struct p9_client **clientp)
{
	struct virtio_chan *chan = NULL;
	int err = 0;

	if (!nr_channels)
		return -ENODEV;
	for (int i = 0; i < nr_channels && !chan; i++) {
		if (!tag || strcmp(channels[i]->tag, tag) == 0)
			chan = channels[i];
	}
	if (!chan)
		return -ENOENT;
	mutex_lock(&chan_mutex);
	if (!chan->client) {
		struct p9_trans trans = {.request = p9_virtio_request, .priv = chan};
		struct p9_client *c = p9_client_create(&trans);

		err = c ? p9_client_version(c) : -ENOMEM;
		if (!err)
			chan->client = c; /* a failed one is not freed: its buffers may be queued */
	}
	mutex_unlock(&chan_mutex);
	*clientp = chan->client;
	return err;
}

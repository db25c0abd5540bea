/*
 * Split virtqueues (virtio 1.x, 2.7): how a driver hands buffers to a device and gets them back.
 *
 * Three arrays in guest memory, shared with the device:
 *   descriptors  each one buffer: physical address, length, "the device writes here" flag,
 *                and the index of the next descriptor of the same request (a chain)
 *   available    written by us: the head descriptors of requests the device may take, and an
 *                index that counts them (free-running, wrapping at 2^16)
 *   used         written by the device: (head, bytes written) for each request it finished, and
 *                its own free-running index
 * A request: take free descriptors, fill them, put the head in the available ring, bump the
 * available index, then notify ("kick") the device by writing the queue number to its notify
 * register. The device answers with an interrupt after putting the head in the used ring.
 *
 * The device is not trusted: what it writes (the used index, each head and length) is checked
 * before use. More entries than the ring holds, a head that is out of range or not a request in
 * flight, mark the queue broken: every later request fails at once instead of trusting it.
 * A length beyond what the request offered to be written is reported as 0.
 *
 * Memory order: x86 keeps stores in order and loads in order, so a compiler barrier is enough
 * between filling a descriptor and publishing its head, and between reading the used index and
 * the entries it covers. Before deciding whether to kick we need a full fence: our store to the
 * available index must be visible before we read the device's "no need to notify" flag.
 */
#include "kernel/drivers/virtio/virtio.h"
#include "arch/x86_64/mmu.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"

#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2
#define VRING_USED_F_NO_NOTIFY 1
#define VRING_AVAIL_F_NO_INTERRUPT 1

struct vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
} __packed;

struct vring_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];
} __packed;

struct vring_used_elem {
	uint32_t id;
	uint32_t len;
} __packed;

struct vring_used {
	uint16_t flags;
	uint16_t idx;
	struct vring_used_elem ring[];
} __packed;

uint64_t virt_to_bus(const void *p)
{
	uintptr_t va = (uintptr_t)p;

	return va >= KERNEL_VMA ? va - KERNEL_VMA : va - PHYS_OFFSET;
}

/* Zeroed, physically contiguous pages for one of the rings. */
static void *ring_alloc(size_t bytes)
{
	size_t pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	void *p = alloc_pages(pages);

	if (p)
		memset(p, 0, pages * PAGE_SIZE);
	return p;
}

static void ring_free(void *p, size_t bytes)
{
	if (p)
		free_pages(p, (bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

/* The rings' sizes for num entries, for ring_alloc and ring_free alike. */
#define DESC_BYTES(num) ((num) * sizeof(struct vring_desc))
#define AVAIL_BYTES(num) (sizeof(struct vring_avail) + (num) * sizeof(uint16_t) + 2)
#define USED_BYTES(num) (sizeof(struct vring_used) + (num) * sizeof(struct vring_used_elem) + 2)

void vring_del_virtqueue(struct virtqueue *vq)
{
	ring_free(vq->desc, DESC_BYTES(vq->num));
	ring_free(vq->avail, AVAIL_BYTES(vq->num));
	ring_free(vq->used, USED_BYTES(vq->num));
	kfree(vq->data);
	kfree(vq->next);
	kfree(vq->in_len);
	kfree(vq->ndesc);
	kfree(vq);
}

struct virtqueue *vring_create_virtqueue(struct virtio_device *vdev, unsigned int index,
					 unsigned int num, const char *name, vq_callback_t callback)
{
	struct virtqueue *vq = kzalloc(sizeof(*vq));

	if (!vq)
		return NULL;
	vq->num = num; /* first: vring_del_virtqueue sizes the rings by it */
	vq->desc = ring_alloc(DESC_BYTES(num));
	vq->avail = ring_alloc(AVAIL_BYTES(num));
	vq->used = ring_alloc(USED_BYTES(num));
	vq->data = kzalloc(num * sizeof(*vq->data));
	vq->next = kzalloc(num * sizeof(*vq->next));
	vq->in_len = kzalloc(num * sizeof(*vq->in_len));
	vq->ndesc = kzalloc(num * sizeof(*vq->ndesc));
	if (!vq->desc || !vq->avail || !vq->used || !vq->data || !vq->next || !vq->in_len ||
	    !vq->ndesc) {
		vring_del_virtqueue(vq);
		return NULL;
	}
	vq->vdev = vdev;
	vq->index = index;
	vq->name = name;
	vq->callback = callback;
	vq->num_free = num;
	spin_lock_init(&vq->lock);
	for (unsigned int i = 0; i + 1 < num; i++)
		vq->next[i] = (uint16_t)(i + 1);
	vq->free_head = 0;
	return vq;
}

int virtqueue_add_sgs(struct virtqueue *vq, const struct vring_sg *sg, unsigned int out,
		      unsigned int in, void *data)
{
	unsigned int total = out + in, head, i;
	unsigned long irq;
	uint32_t in_len = 0;

	if (total == 0 || !data)
		return -EINVAL;
	irq = spin_lock_irqsave(&vq->lock);
	if (vq->broken) {
		spin_unlock_irqrestore(&vq->lock, irq);
		return -EIO;
	}
	if (vq->num_free < total) {
		spin_unlock_irqrestore(&vq->lock, irq);
		return -ENOSPC;
	}
	head = i = vq->free_head;
	for (unsigned int n = 0; n < total; n++) {
		struct vring_desc *d = &vq->desc[i];

		d->addr = virt_to_bus(sg[n].buf);
		d->len = sg[n].len;
		d->flags = (n >= out ? VRING_DESC_F_WRITE : 0) |
			   (n + 1 < total ? VRING_DESC_F_NEXT : 0);
		d->next = vq->next[i];
		if (n >= out)
			in_len += sg[n].len;
		i = vq->next[i];
	}
	vq->free_head = (uint16_t)i;
	vq->num_free -= total;
	vq->data[head] = data;
	vq->in_len[head] = in_len;
	vq->ndesc[head] = (uint16_t)total;
	vq->avail->ring[vq->avail_idx % vq->num] = (uint16_t)head;
	barrier(); /* the descriptors and the ring entry before the index that publishes them */
	vq->avail_idx++;
	WRITE_ONCE(vq->avail->idx, vq->avail_idx);
	spin_unlock_irqrestore(&vq->lock, irq);
	return 0;
}

void virtqueue_kick(struct virtqueue *vq)
{
	__sync_synchronize(); /* our avail->idx store before the load of the device's flag */
	if (!(READ_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY))
		virtio_notify(vq);
}

/* Gives the descriptors of the chain at head back to the free list (our own copy of it). */
static void detach_buf(struct virtqueue *vq, unsigned int head, unsigned int count)
{
	unsigned int i = head;

	for (unsigned int n = 1; n < count; n++)
		i = vq->next[i];
	vq->next[i] = vq->free_head;
	vq->free_head = (uint16_t)head;
	vq->num_free += count;
	vq->data[head] = NULL;
}

static void vq_broken(struct virtqueue *vq, const char *why, unsigned long v)
{
	vq->broken = true;
	printk(KERN_ERR "virtio: %s-%s: device returned %s %lu: queue disabled\n", vq->vdev->name,
	       vq->name, why, v);
}

void *virtqueue_get_buf(struct virtqueue *vq, uint32_t *len)
{
	unsigned long irq = spin_lock_irqsave(&vq->lock);
	uint16_t used_idx = READ_ONCE(vq->used->idx);
	struct vring_used_elem e;
	void *data = NULL;

	if (vq->broken || used_idx == vq->last_used_idx)
		goto out;
	if ((uint16_t)(used_idx - vq->last_used_idx) > vq->num - vq->num_free) {
		vq_broken(vq, "used index", used_idx);
		goto out;
	}
	barrier(); /* the index before the entries it covers */
	e = vq->used->ring[vq->last_used_idx % vq->num];
	if (e.id >= vq->num || !vq->data[e.id]) {
		vq_broken(vq, "descriptor id", e.id);
		goto out;
	}
	vq->last_used_idx++;
	data = vq->data[e.id];
	*len = e.len <= vq->in_len[e.id] ? e.len : 0;
	detach_buf(vq, e.id, vq->ndesc[e.id]);
out:
	spin_unlock_irqrestore(&vq->lock, irq);
	return data;
}

void vring_interrupt(struct virtqueue *vq)
{
	if (vq->callback)
		vq->callback(vq);
}

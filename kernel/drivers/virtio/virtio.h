/* virtio: devices, drivers and virtqueues (kernel/drivers/virtio/). */
#ifndef KERNEL_VIRTIO_H
#define KERNEL_VIRTIO_H

/*
 * A virtio device (a 9p share, a disk, a network card: the device ID says which) talks to its
 * driver through virtqueues, rings of buffer descriptors in guest memory (virtio_ring.c), and
 * a few registers: status, features, per-queue set-up, and a device-specific configuration
 * area. How those registers are reached is the transport's business: here, PCI
 * (virtio_pci_modern.c). A driver sees only what is in this header, so another virtio device
 * could be added with a driver of its own and no change below it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/locking/spinlock.h"

/* Device IDs (virtio 1.x, 5). */
#define VIRTIO_ID_NET 1
#define VIRTIO_ID_BLOCK 2
#define VIRTIO_ID_9P 9

/* Device status bits (virtio 1.x, 2.1). */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE 1
#define VIRTIO_CONFIG_S_DRIVER 2
#define VIRTIO_CONFIG_S_DRIVER_OK 4
#define VIRTIO_CONFIG_S_FEATURES_OK 8
#define VIRTIO_CONFIG_S_NEEDS_RESET 0x40
#define VIRTIO_CONFIG_S_FAILED 0x80

/* Feature bits every device may offer. */
#define VIRTIO_F_VERSION_1 32 /* virtio 1.x: little-endian, modern layout; we require it */

struct virtqueue;
struct virtio_device;
typedef void (*vq_callback_t)(struct virtqueue *vq);

struct virtio_device {
	int index; /* virtio0, virtio1, ...: Linux's names */
	char name[16];
	uint32_t id; /* VIRTIO_ID_* */
	uint64_t features; /* what was negotiated */
	struct virtio_driver *driver;
	void *priv; /* the driver's */
	void *transport; /* the transport's (struct virtio_pci_device) */
	struct virtio_device *next;
};

struct virtio_driver {
	const char *name;
	uint32_t device_id;
	uint64_t features; /* device-specific feature bits the driver understands */
	/* Called with features negotiated; sets up its queues, then virtio_device_ready(). */
	int (*probe)(struct virtio_device *vdev);
	struct virtio_driver *next;
};

/*
 * One buffer of a request: out buffers are read by the device (the request), in buffers are
 * written by it (the reply). Both must be physically contiguous (kmalloc'd: the direct map).
 */
struct vring_sg {
	void *buf;
	uint32_t len;
};

/* virtio.c: the devices found, the drivers registered, and matching them. */
void virtio_add_device(struct virtio_device *vdev);
void register_virtio_driver(struct virtio_driver *drv);
bool virtio_has_feature(const struct virtio_device *vdev, unsigned int bit);

/* The transport's operations (virtio_pci_modern.c). */
void virtio_pci_init(void); /* finds the virtio devices on the PCI bus */
uint8_t virtio_cread8(struct virtio_device *vdev, unsigned int off);
uint16_t virtio_cread16(struct virtio_device *vdev, unsigned int off);
/* Queue index as named name, its callback run (in interrupt context) when buffers come back. */
struct virtqueue *virtio_find_vq(struct virtio_device *vdev, unsigned int index, const char *name,
				 vq_callback_t callback);
void virtio_device_ready(struct virtio_device *vdev);
void virtio_notify(struct virtqueue *vq);

/* virtio_ring.c: split virtqueues. */
struct virtqueue {
	struct virtio_device *vdev;
	unsigned int index;
	const char *name;
	unsigned int num; /* entries: a power of two the device chose */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	spinlock_t lock;
	unsigned int num_free;
	uint16_t free_head;
	uint16_t avail_idx; /* our copy: the device never writes the available ring */
	uint16_t last_used_idx; /* the used entries up to here are taken back */
	/*
	 * Our own record of each chain, kept outside the rings the device could scribble on: the
	 * token per head, the next descriptor of each, and how many bytes the device may write.
	 */
	void **data;
	uint16_t *next;
	uint32_t *in_len;
	uint16_t *ndesc;
	bool broken; /* the device returned nonsense: no further request is trusted to it */
	vq_callback_t callback;
	void *priv; /* the driver's */
	void *notify; /* where the transport writes our index to "kick" the device */
};

struct virtqueue *vring_create_virtqueue(struct virtio_device *vdev, unsigned int index,
					 unsigned int num, const char *name,
					 vq_callback_t callback);
/* Frees a queue vring_create_virtqueue made (the device must no longer use it). */
void vring_del_virtqueue(struct virtqueue *vq);
/* Queues one request (out buffers, then in buffers); -ENOSPC if the ring is full. */
int virtqueue_add_sgs(struct virtqueue *vq, const struct vring_sg *sg, unsigned int out,
		      unsigned int in, void *data);
/* Tells the device there is work (unless it said it does not need telling). */
void virtqueue_kick(struct virtqueue *vq);
/*
 * A finished request's token, or NULL if none is ready. *len is the bytes the device wrote;
 * a length larger than the request's in buffers is not believed and comes back as 0, so the
 * caller sees an empty (and so invalid) reply.
 */
void *virtqueue_get_buf(struct virtqueue *vq, uint32_t *len);
/* The interrupt for this queue: runs its callback. */
void vring_interrupt(struct virtqueue *vq);
/* The physical address of a kernel buffer, as the device needs it. */
uint64_t virt_to_bus(const void *p);

#endif

/*
 * The virtio core: the devices the transports found, the drivers that registered, and
 * matching the two by device ID (Linux's virtio bus, in miniature).
 *
 * Before a driver's probe runs, the core does the part of the start-up handshake that is the
 * same for every device (virtio 1.x, 3.1.1): it has already reset the device and set
 * ACKNOWLEDGE and DRIVER (the transport did, when it found it); here it offers the features
 * both sides know, VIRTIO_F_VERSION_1 among them, sets FEATURES_OK and reads it back: a device
 * that clears it refused the subset, and is left FAILED. The driver then sets up its queues and
 * says DRIVER_OK.
 */
#include "kernel/drivers/virtio/virtio.h"
#include "kernel/drivers/virtio/virtio_pci.h"
#include "kernel/printk.h"
#include "lib/errno.h"

static struct virtio_device *devices;
static struct virtio_driver *drivers;

bool virtio_has_feature(const struct virtio_device *vdev, unsigned int bit)
{
	return vdev->features & (1ULL << bit);
}

static int virtio_features_ok(struct virtio_device *vdev, struct virtio_driver *drv)
{
	uint64_t offered = vp_get_features(vdev);

	if (!(offered & (1ULL << VIRTIO_F_VERSION_1)))
		return -ENODEV; /* a legacy-only device: not driven here */
	vdev->features = offered & (drv->features | (1ULL << VIRTIO_F_VERSION_1));
	vp_set_features(vdev, vdev->features);
	vp_add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(vp_get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK))
		return -ENODEV;
	return 0;
}

static void virtio_probe(struct virtio_device *vdev, struct virtio_driver *drv)
{
	int err;

	if (vdev->driver || vdev->id != drv->device_id)
		return;
	err = virtio_features_ok(vdev, drv);
	if (!err)
		err = drv->probe(vdev);
	if (err) {
		vp_add_status(vdev, VIRTIO_CONFIG_S_FAILED);
		printk(KERN_ERR "virtio: %s: %s failed to start: %s\n", vdev->name, drv->name,
		       errno_text(-err));
		return;
	}
	vdev->driver = drv;
}

void virtio_add_device(struct virtio_device *vdev)
{
	struct virtio_device **tail = &devices;

	while (*tail)
		tail = &(*tail)->next;
	*tail = vdev;
	for (struct virtio_driver *drv = drivers; drv; drv = drv->next)
		virtio_probe(vdev, drv);
}

void register_virtio_driver(struct virtio_driver *drv)
{
	drv->next = drivers;
	drivers = drv;
	for (struct virtio_device *vdev = devices; vdev; vdev = vdev->next)
		virtio_probe(vdev, drv);
}

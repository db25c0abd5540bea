/* The PCI transport's side of the handshake, for the virtio core (virtio_pci_modern.c). */
#ifndef KERNEL_VIRTIO_PCI_H
#define KERNEL_VIRTIO_PCI_H

#include <stdint.h>

struct virtio_device;

uint64_t vp_get_features(struct virtio_device *vdev);
void vp_set_features(struct virtio_device *vdev, uint64_t features);
uint8_t vp_get_status(struct virtio_device *vdev);
void vp_add_status(struct virtio_device *vdev, uint8_t bits);

#endif

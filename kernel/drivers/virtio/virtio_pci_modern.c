/*
 * The virtio 1.x PCI transport ("modern" virtio-pci).
 *
 * A virtio PCI function is vendor 0x1af4 with device ID 0x1040 + the virtio device ID (or, for
 * a "transitional" device that also speaks the legacy interface, 0x1000-0x103f with the device
 * ID in the subsystem ID: QEMU's default). Its registers are not at fixed places: vendor-specific
 * PCI capabilities each point into a BAR at one structure (virtio 1.x, 4.1.4):
 *   common   status, features, and the set-up of each queue (size, ring addresses, vector)
 *   notify   where writing a queue's index tells the device that queue has new buffers
 *   ISR      the interrupt cause, for a device on a legacy INTx line (unused with MSI-X)
 *   device   the device's own configuration (9p: its mount tag)
 *
 * Interrupts are MSI-X, one vector per queue, sent to the CPU the driver set the queue up on
 * (/proc/interrupts shows them as virtio0-requests): each vector reaches
 * vp_interrupt(), which finds the queue it was given to and runs vring_interrupt(). No IOAPIC
 * pin, no sharing with other devices, nothing to acknowledge in the device: the ISR register is
 * not even read. The configuration-change interrupt is left off (VIRTIO_MSI_NO_VECTOR): no
 * driver here reacts to one.
 *
 * Every register read goes through a volatile pointer into the uncached mapping pci_iomap()
 * made, so each really reaches the device.
 */
#include "kernel/drivers/virtio/virtio.h"
#include "kernel/drivers/virtio/virtio_pci.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/pci.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/printf.h"

#define PCI_VENDOR_ID_REDHAT_QUMRANET 0x1af4
#define VIRTIO_PCI_DEVICE_LEGACY_FIRST 0x1000
#define VIRTIO_PCI_DEVICE_LEGACY_LAST 0x103f
#define VIRTIO_PCI_DEVICE_MODERN_BASE 0x1040
#define VIRTIO_PCI_DEVICE_MODERN_LAST 0x107f

/* The vendor capability (struct virtio_pci_cap) and its cfg_type values. */
#define VIRTIO_PCI_CAP_CFG_TYPE 3
#define VIRTIO_PCI_CAP_BAR 4
#define VIRTIO_PCI_CAP_OFFSET 8
#define VIRTIO_PCI_CAP_LENGTH 12
#define VIRTIO_PCI_NOTIFY_CAP_MULT 16
#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4

/* struct virtio_pci_common_cfg, by offset. */
#define VIRTIO_PCI_COMMON_DFSELECT 0
#define VIRTIO_PCI_COMMON_DF 4
#define VIRTIO_PCI_COMMON_GFSELECT 8
#define VIRTIO_PCI_COMMON_GF 12
#define VIRTIO_PCI_COMMON_MSIX 16
#define VIRTIO_PCI_COMMON_NUMQ 18
#define VIRTIO_PCI_COMMON_STATUS 20
#define VIRTIO_PCI_COMMON_CFGGENERATION 21
#define VIRTIO_PCI_COMMON_Q_SELECT 22
#define VIRTIO_PCI_COMMON_Q_SIZE 24
#define VIRTIO_PCI_COMMON_Q_MSIX 26
#define VIRTIO_PCI_COMMON_Q_ENABLE 28
#define VIRTIO_PCI_COMMON_Q_NOFF 30
#define VIRTIO_PCI_COMMON_Q_DESCLO 32
#define VIRTIO_PCI_COMMON_Q_DESCHI 36
#define VIRTIO_PCI_COMMON_Q_AVAILLO 40
#define VIRTIO_PCI_COMMON_Q_AVAILHI 44
#define VIRTIO_PCI_COMMON_Q_USEDLO 48
#define VIRTIO_PCI_COMMON_Q_USEDHI 52
#define VIRTIO_PCI_COMMON_SIZE 56
#define VIRTIO_MSI_NO_VECTOR 0xffff

#define VIRTIO_RESET_POLLS 1000000 /* QEMU resets at once; a device that never does is dead */
#define VIRTIO_QUEUE_MAX 256 /* a bound on the queue size we accept from the device */
#define NR_VIRTIO_VECTORS 16
#define CHIP_NAME_LEN 40 /* MSI-X vectors for all virtio queues, from VEC_MSI_BASE */

struct virtio_pci_device {
	struct pci_dev *pci;
	volatile uint8_t *common, *isr, *device;
	volatile uint8_t *notify_base;
	uint32_t notify_len, notify_off_multiplier, device_len;
	int msix_entries, msix_used;
};

static struct virtqueue *vq_by_vector[NR_VIRTIO_VECTORS];
static int nr_vectors_used;
static int nr_devices;

static inline uint8_t rd8(volatile uint8_t *base, unsigned int off)
{
	return *(volatile uint8_t *)(base + off);
}
static inline uint16_t rd16(volatile uint8_t *base, unsigned int off)
{
	return *(volatile uint16_t *)(base + off);
}
static inline uint32_t rd32(volatile uint8_t *base, unsigned int off)
{
	return *(volatile uint32_t *)(base + off);
}
static inline void wr8(volatile uint8_t *base, unsigned int off, uint8_t v)
{
	*(volatile uint8_t *)(base + off) = v;
}
static inline void wr16(volatile uint8_t *base, unsigned int off, uint16_t v)
{
	*(volatile uint16_t *)(base + off) = v;
}
static inline void wr32(volatile uint8_t *base, unsigned int off, uint32_t v)
{
	*(volatile uint32_t *)(base + off) = v;
}

static struct virtio_pci_device *to_vp(struct virtio_device *vdev)
{
	return vdev->transport;
}

uint64_t vp_get_features(struct virtio_device *vdev)
{
	volatile uint8_t *c = to_vp(vdev)->common;
	uint64_t f;

	wr32(c, VIRTIO_PCI_COMMON_DFSELECT, 0);
	f = rd32(c, VIRTIO_PCI_COMMON_DF);
	wr32(c, VIRTIO_PCI_COMMON_DFSELECT, 1);
	return f | (uint64_t)rd32(c, VIRTIO_PCI_COMMON_DF) << 32;
}

void vp_set_features(struct virtio_device *vdev, uint64_t features)
{
	volatile uint8_t *c = to_vp(vdev)->common;

	wr32(c, VIRTIO_PCI_COMMON_GFSELECT, 0);
	wr32(c, VIRTIO_PCI_COMMON_GF, (uint32_t)features);
	wr32(c, VIRTIO_PCI_COMMON_GFSELECT, 1);
	wr32(c, VIRTIO_PCI_COMMON_GF, (uint32_t)(features >> 32));
}

uint8_t vp_get_status(struct virtio_device *vdev)
{
	return rd8(to_vp(vdev)->common, VIRTIO_PCI_COMMON_STATUS);
}

void vp_add_status(struct virtio_device *vdev, uint8_t bits)
{
	volatile uint8_t *c = to_vp(vdev)->common;

	wr8(c, VIRTIO_PCI_COMMON_STATUS, rd8(c, VIRTIO_PCI_COMMON_STATUS) | bits);
}

/* Device configuration reads; out-of-range offsets read as 0 rather than beyond the BAR. */
uint8_t virtio_cread8(struct virtio_device *vdev, unsigned int off)
{
	struct virtio_pci_device *vp = to_vp(vdev);

	return off < vp->device_len ? rd8(vp->device, off) : 0;
}

uint16_t virtio_cread16(struct virtio_device *vdev, unsigned int off)
{
	struct virtio_pci_device *vp = to_vp(vdev);

	return off + 2 <= vp->device_len ? rd16(vp->device, off) : 0;
}

void virtio_device_ready(struct virtio_device *vdev)
{
	vp_add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
}

/* The device reads our queue index at the queue's notify address (virtio 1.x, 4.1.4.4). */
void virtio_notify(struct virtqueue *vq)
{
	*(volatile uint16_t *)vq->notify = (uint16_t)vq->index;
}

static void vp_interrupt(struct pt_regs *regs)
{
	int n = (int)regs->vector - VEC_MSI_BASE;

	if (n >= 0 && n < NR_VIRTIO_VECTORS && vq_by_vector[n])
		vring_interrupt(vq_by_vector[n]);
}

struct virtqueue *virtio_find_vq(struct virtio_device *vdev, unsigned int index, const char *name,
				 vq_callback_t callback)
{
	struct virtio_pci_device *vp = to_vp(vdev);
	volatile uint8_t *c = vp->common;
	unsigned int num, entry = (unsigned int)vp->msix_used, vector;
	uint64_t notify_off;
	struct virtqueue *vq;
	char *irq_name, *chip;

	if (index >= rd16(c, VIRTIO_PCI_COMMON_NUMQ) || nr_vectors_used == NR_VIRTIO_VECTORS ||
	    (int)entry >= vp->msix_entries)
		return NULL;
	wr16(c, VIRTIO_PCI_COMMON_Q_SELECT, (uint16_t)index);
	num = rd16(c, VIRTIO_PCI_COMMON_Q_SIZE);
	if (num == 0 || (num & (num - 1)) || rd16(c, VIRTIO_PCI_COMMON_Q_ENABLE))
		return NULL;
	if (num > VIRTIO_QUEUE_MAX)
		num = VIRTIO_QUEUE_MAX; /* a driver may ask for a smaller queue */
	notify_off = (uint64_t)rd16(c, VIRTIO_PCI_COMMON_Q_NOFF) * vp->notify_off_multiplier;
	if (notify_off + 2 > vp->notify_len)
		return NULL;
	vq = vring_create_virtqueue(vdev, index, num, name, callback);
	if (!vq)
		return NULL;
	vq->notify = (void *)(vp->notify_base + notify_off);

	vector = VEC_MSI_BASE + (unsigned int)nr_vectors_used;
	irq_name = kmalloc(32);
	if (irq_name)
		snprintf(irq_name, 32, "%s-%s", vdev->name, name); /* Linux's: virtio0-requests */
	vq_by_vector[nr_vectors_used++] = vq;
	request_irq((int)vector - VEC_ISA_BASE, vp_interrupt, irq_name ? irq_name : "virtio");
	chip = kmalloc(CHIP_NAME_LEN);
	if (chip) { /* /proc/interrupts: which device, which table entry, as Linux shows them */
		snprintf(chip, CHIP_NAME_LEN, "PCI-MSIX-0000:%02x:%02x.%d %3u-edge", vp->pci->bus,
			 vp->pci->slot, vp->pci->func, entry);
		irq_set_chip_name((int)vector, chip);
	}
	if (pci_msix_set_vector(vp->pci, (int)entry, (int)vector, lapic_id()))
		goto fail;

	wr16(c, VIRTIO_PCI_COMMON_Q_SIZE, (uint16_t)num);
	wr32(c, VIRTIO_PCI_COMMON_Q_DESCLO, (uint32_t)virt_to_bus(vq->desc));
	wr32(c, VIRTIO_PCI_COMMON_Q_DESCHI, (uint32_t)(virt_to_bus(vq->desc) >> 32));
	wr32(c, VIRTIO_PCI_COMMON_Q_AVAILLO, (uint32_t)virt_to_bus(vq->avail));
	wr32(c, VIRTIO_PCI_COMMON_Q_AVAILHI, (uint32_t)(virt_to_bus(vq->avail) >> 32));
	wr32(c, VIRTIO_PCI_COMMON_Q_USEDLO, (uint32_t)virt_to_bus(vq->used));
	wr32(c, VIRTIO_PCI_COMMON_Q_USEDHI, (uint32_t)(virt_to_bus(vq->used) >> 32));
	wr16(c, VIRTIO_PCI_COMMON_Q_MSIX, (uint16_t)entry);
	/* The device answers NO_VECTOR if it could not take the vector: no interrupts then. */
	if (rd16(c, VIRTIO_PCI_COMMON_Q_MSIX) != entry)
		goto fail;
	wr16(c, VIRTIO_PCI_COMMON_Q_ENABLE, 1);
	vp->msix_used++;
	return vq;

	/* The queue was never enabled: give back its vector, its names and its rings. */
fail:
	wr16(c, VIRTIO_PCI_COMMON_Q_MSIX, VIRTIO_MSI_NO_VECTOR);
	free_irq((int)vector - VEC_ISA_BASE);
	vq_by_vector[--nr_vectors_used] = NULL;
	kfree(irq_name);
	kfree(chip);
	vring_del_virtqueue(vq);
	return NULL;
}

/* Finds the structure of type cfg_type; maps it and checks it lies inside its BAR. */
static volatile uint8_t *map_capability(struct pci_dev *pci, uint8_t cfg_type, uint32_t *len,
					uint32_t *notify_mult)
{
	for (unsigned int cap = pci_find_capability(pci, PCI_CAP_ID_VNDR, 0); cap;
	     cap = pci_find_capability(pci, PCI_CAP_ID_VNDR, cap)) {
		uint8_t bar = pci_read_config8(pci, cap + VIRTIO_PCI_CAP_BAR);
		uint32_t off = pci_read_config32(pci, cap + VIRTIO_PCI_CAP_OFFSET);
		uint8_t *base;

		if (pci_read_config8(pci, cap + VIRTIO_PCI_CAP_CFG_TYPE) != cfg_type ||
		    bar >= PCI_NUM_BARS)
			continue;
		*len = pci_read_config32(pci, cap + VIRTIO_PCI_CAP_LENGTH);
		if ((uint64_t)off + *len > pci->bar[bar].size)
			continue;
		base = pci_iomap(pci, bar);
		if (!base)
			continue;
		if (notify_mult)
			*notify_mult = pci_read_config32(pci, cap + VIRTIO_PCI_NOTIFY_CAP_MULT);
		return base + off;
	}
	return NULL;
}

static void vp_probe(struct pci_dev *pci, uint32_t id)
{
	struct virtio_pci_device *vp = kzalloc(sizeof(*vp));
	struct virtio_device *vdev = kzalloc(sizeof(*vdev));
	uint32_t common_len = 0, isr_len;

	if (!vp || !vdev)
		goto fail;
	vp->pci = pci;
	pci_enable_device(pci);
	vp->common = map_capability(pci, VIRTIO_PCI_CAP_COMMON_CFG, &common_len, NULL);
	vp->isr = map_capability(pci, VIRTIO_PCI_CAP_ISR_CFG, &isr_len, NULL);
	vp->device = map_capability(pci, VIRTIO_PCI_CAP_DEVICE_CFG, &vp->device_len, NULL);
	vp->notify_base = map_capability(pci, VIRTIO_PCI_CAP_NOTIFY_CFG, &vp->notify_len,
					 &vp->notify_off_multiplier);
	vp->msix_entries = pci_msix_table_size(pci);
	if (!vp->common || common_len < VIRTIO_PCI_COMMON_SIZE || !vp->notify_base ||
	    !vp->msix_entries) {
		printk(KERN_WARNING "virtio-pci %02x:%02x.%d: no modern interface or no MSI-X, "
				    "not used\n",
		       pci->bus, pci->slot, pci->func);
		goto fail;
	}
	vdev->index = nr_devices++;
	snprintf(vdev->name, sizeof(vdev->name), "virtio%d", vdev->index);
	vdev->id = id;
	vdev->transport = vp;
	/* Reset (status 0, and read back until the device says it is done), then say hello. */
	wr8(vp->common, VIRTIO_PCI_COMMON_STATUS, 0);
	for (int n = 0; rd8(vp->common, VIRTIO_PCI_COMMON_STATUS); n++) {
		if (n == VIRTIO_RESET_POLLS) {
			printk(KERN_WARNING "virtio-pci %02x:%02x.%d: does not reset, not used\n",
			       pci->bus, pci->slot, pci->func);
			goto fail;
		}
	}
	wr16(vp->common, VIRTIO_PCI_COMMON_MSIX, VIRTIO_MSI_NO_VECTOR);
	pci_msix_enable(pci);
	vp_add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	virtio_add_device(vdev);
	return;
fail:
	kfree(vp);
	kfree(vdev);
}

void virtio_pci_init(void)
{
	for (struct pci_dev *pci = pci_devices(); pci; pci = pci->next) {
		uint32_t id;

		if (pci->vendor != PCI_VENDOR_ID_REDHAT_QUMRANET)
			continue;
		if (pci->device >= VIRTIO_PCI_DEVICE_MODERN_BASE &&
		    pci->device <= VIRTIO_PCI_DEVICE_MODERN_LAST)
			id = pci->device - VIRTIO_PCI_DEVICE_MODERN_BASE;
		else if (pci->device >= VIRTIO_PCI_DEVICE_LEGACY_FIRST &&
			 pci->device <= VIRTIO_PCI_DEVICE_LEGACY_LAST)
			id = pci->subsystem_device;
		else
			continue;
		vp_probe(pci, id);
	}
}

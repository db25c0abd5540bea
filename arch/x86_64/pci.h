/* The PCI bus: configuration space, the devices found on it, their BARs (arch/x86_64/pci.c). */
#ifndef ARCH_PCI_H
#define ARCH_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Configuration space registers every function has (the type 0 header), Linux's names. */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_STATUS 0x06
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_CLASS_DEVICE 0x0a
#define PCI_HEADER_TYPE 0x0e
#define PCI_BASE_ADDRESS_0 0x10
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d

#define PCI_COMMAND_IO 0x1
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_HEADER_TYPE_MASK 0x7f
#define PCI_HEADER_MULTIFUNC 0x80

#define PCI_BASE_ADDRESS_SPACE_IO 0x1
#define PCI_BASE_ADDRESS_MEM_TYPE_64 0x4
#define PCI_BASE_ADDRESS_MEM_PREFETCH 0x8

#define PCI_CAP_ID_VNDR 0x09 /* vendor specific: virtio's structures */
#define PCI_CAP_ID_MSIX 0x11

#define PCI_NUM_BARS 6

struct pci_bar {
	uint64_t start; /* bus (= physical) address, or I/O port */
	uint64_t size; /* 0: not implemented */
	bool io, is64, prefetch;
	void *virt; /* where pci_iomap() mapped it, NULL until then */
};

struct pci_dev {
	uint8_t bus, slot, func;
	uint16_t vendor, device, subsystem_device;
	uint8_t class_base, class_sub, prog_if, revision;
	uint8_t irq_line, irq_pin;
	struct pci_bar bar[PCI_NUM_BARS];
	struct pci_dev *next; /* in bus order */
};

/* Finds every function on every bus, sizes its BARs. Call once, at boot. */
void pci_init(void);
/* The devices found, in bus order: for (d = pci_devices(); d; d = d->next) */
struct pci_dev *pci_devices(void);

uint8_t pci_read_config8(const struct pci_dev *dev, unsigned int off);
uint16_t pci_read_config16(const struct pci_dev *dev, unsigned int off);
uint32_t pci_read_config32(const struct pci_dev *dev, unsigned int off);
void pci_write_config16(const struct pci_dev *dev, unsigned int off, uint16_t v);
void pci_write_config32(const struct pci_dev *dev, unsigned int off, uint32_t v);

/* Offset of the first capability with id after start (0: from the list's head), or 0. */
unsigned int pci_find_capability(const struct pci_dev *dev, uint8_t id, unsigned int start);
/* Memory decoding and bus mastering (DMA) on. */
void pci_enable_device(struct pci_dev *dev);
/* A memory BAR mapped uncached into the kernel's address space (ioremap); NULL if it cannot be. */
void *pci_iomap(struct pci_dev *dev, int bar);

/* MSI-X: entry n of the table delivers vector to the CPU with apic_id; then it is enabled. */
int pci_msix_table_size(struct pci_dev *dev);
int pci_msix_set_vector(struct pci_dev *dev, int entry, int vector, uint32_t apic_id);
void pci_msix_enable(struct pci_dev *dev);


#endif

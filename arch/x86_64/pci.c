/*
 * PCI: finding the devices on the bus and reaching their registers.
 *
 * Every PCI function has 256 bytes of configuration space: who it is (vendor, device, class),
 * its BARs (where its registers are), its interrupt line and a list of capabilities. On a PC,
 * configuration mechanism #1 reaches it through two I/O ports: write the address of a 32-bit
 * register (bus, slot, function, offset) to CONFIG_ADDRESS (0xcf8), then read or write the
 * register at CONFIG_DATA (0xcfc). Two steps on shared ports, so one lock around both.
 *
 * The scan is Linux's brute force for a small machine: every bus, slot and function is asked
 * for its vendor ID; 0xffff means nobody is there. A slot's functions 1-7 exist only if function
 * 0 says it is multi-function. The firmware (SeaBIOS) has already given every BAR an address;
 * we keep those, and learn each BAR's size the standard way: write all ones, read back which
 * address bits stuck at zero, put the address back (with decoding off meanwhile, so the device
 * never answers at the all-ones address).
 *
 * MSI-X: a device that has it interrupts by writing a message (an address naming a CPU's LAPIC
 * and a vector number) to memory, from a table in one of its BARs. No IOAPIC pin, no sharing,
 * edge triggered: the simplest interrupt a device can raise, and what virtio uses here.
 */
#include "arch/x86_64/pci.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/ioremap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "lib/compiler.h"
#include "lib/errno.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CONFIG_ENABLE 0x80000000u
#define PCI_MAX_BUS 256
#define PCI_MAX_SLOT 32
#define PCI_MAX_FUNC 8
#define PCI_NO_DEVICE 0xffff
#define PCI_CAP_LIST_MAX 48 /* 192 bytes of capabilities hold at most 48: a bound on bad lists */

/* MSI-X capability: message control, then table offset/BIR, each entry 16 bytes. */
#define PCI_MSIX_FLAGS 2
#define PCI_MSIX_FLAGS_QSIZE 0x7ff
#define PCI_MSIX_FLAGS_MASKALL 0x4000
#define PCI_MSIX_FLAGS_ENABLE 0x8000
#define PCI_MSIX_TABLE 4
#define PCI_MSIX_TABLE_BIR 0x7
#define PCI_MSIX_ENTRY_SIZE 16
#define PCI_MSIX_ENTRY_LOWER_ADDR 0
#define PCI_MSIX_ENTRY_UPPER_ADDR 4
#define PCI_MSIX_ENTRY_DATA 8
#define PCI_MSIX_ENTRY_VECTOR_CTRL 12
#define MSI_ADDR_BASE 0xfee00000u /* the LAPICs' window: bits 19-12 name the CPU */
#define MSI_ADDR_DEST_SHIFT 12

static DEFINE_SPINLOCK(pci_config_lock);
static struct pci_dev *pci_list;

static uint32_t config_address(uint8_t bus, uint8_t slot, uint8_t func, unsigned int off)
{
	return PCI_CONFIG_ENABLE | (uint32_t)bus << 16 | (uint32_t)slot << 11 |
	       (uint32_t)func << 8 | (off & 0xfc);
}

static uint32_t config_read(uint8_t bus, uint8_t slot, uint8_t func, unsigned int off)
{
	unsigned long irq = spin_lock_irqsave(&pci_config_lock);
	uint32_t v;

	outl(PCI_CONFIG_ADDRESS, config_address(bus, slot, func, off));
	v = inl(PCI_CONFIG_DATA);
	spin_unlock_irqrestore(&pci_config_lock, irq);
	return v;
}

static void config_write(uint8_t bus, uint8_t slot, uint8_t func, unsigned int off, uint32_t v)
{
	unsigned long irq = spin_lock_irqsave(&pci_config_lock);

	outl(PCI_CONFIG_ADDRESS, config_address(bus, slot, func, off));
	outl(PCI_CONFIG_DATA, v);
	spin_unlock_irqrestore(&pci_config_lock, irq);
}

uint32_t pci_read_config32(const struct pci_dev *dev, unsigned int off)
{
	return config_read(dev->bus, dev->slot, dev->func, off);
}

uint16_t pci_read_config16(const struct pci_dev *dev, unsigned int off)
{
	return (uint16_t)(pci_read_config32(dev, off) >> ((off & 2) * 8));
}

uint8_t pci_read_config8(const struct pci_dev *dev, unsigned int off)
{
	return (uint8_t)(pci_read_config32(dev, off) >> ((off & 3) * 8));
}

void pci_write_config32(const struct pci_dev *dev, unsigned int off, uint32_t v)
{
	config_write(dev->bus, dev->slot, dev->func, off, v);
}

/* A read-modify-write of the dword: the ports move 32 bits at a time here. */
void pci_write_config16(const struct pci_dev *dev, unsigned int off, uint16_t v)
{
	unsigned int shift = (off & 2) * 8;
	uint32_t old = pci_read_config32(dev, off);

	pci_write_config32(dev, off, (old & ~(0xffffu << shift)) | (uint32_t)v << shift);
}

unsigned int pci_find_capability(const struct pci_dev *dev, uint8_t id, unsigned int start)
{
	unsigned int pos;

	if (!(pci_read_config16(dev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = start ? pci_read_config8(dev, start + 1) : pci_read_config8(dev, PCI_CAPABILITY_LIST);
	for (int n = 0; n < PCI_CAP_LIST_MAX && pos >= 0x40; n++) {
		pos &= ~3u;
		if (pci_read_config8(dev, pos) == id)
			return pos;
		pos = pci_read_config8(dev, pos + 1);
	}
	return 0;
}

/* The size of BAR i (and of its upper half, for a 64-bit one), probed with all ones. */
static int size_bar(struct pci_dev *dev, int i)
{
	unsigned int off = PCI_BASE_ADDRESS_0 + 4 * (unsigned int)i;
	uint32_t lo = pci_read_config32(dev, off), mask_lo, hi = 0, mask_hi = 0xffffffffu;
	struct pci_bar *bar = &dev->bar[i];

	pci_write_config32(dev, off, 0xffffffffu);
	mask_lo = pci_read_config32(dev, off);
	pci_write_config32(dev, off, lo);
	if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
		bar->io = true;
		bar->start = lo & ~3u;
		mask_lo &= ~3u;
		bar->size = mask_lo ? (uint16_t)(~mask_lo + 1) : 0;
		return i + 1;
	}
	bar->is64 = lo & PCI_BASE_ADDRESS_MEM_TYPE_64;
	bar->prefetch = lo & PCI_BASE_ADDRESS_MEM_PREFETCH;
	if (bar->is64 && i + 1 < PCI_NUM_BARS) {
		hi = pci_read_config32(dev, off + 4);
		pci_write_config32(dev, off + 4, 0xffffffffu);
		mask_hi = pci_read_config32(dev, off + 4);
		pci_write_config32(dev, off + 4, hi);
	}
	mask_lo &= ~0xfu;
	bar->start = ((uint64_t)hi << 32) | (lo & ~0xfu);
	uint64_t mask = ((uint64_t)mask_hi << 32) | mask_lo;
	bar->size = mask_lo || (bar->is64 && mask_hi) ? ~mask + 1 : 0;
	return bar->is64 ? i + 2 : i + 1;
}

static void add_device(uint8_t bus, uint8_t slot, uint8_t func)
{
	struct pci_dev *dev = kzalloc(sizeof(*dev)), **tail = &pci_list;
	uint16_t cmd;

	if (!dev)
		return;
	dev->bus = bus;
	dev->slot = slot;
	dev->func = func;
	dev->vendor = pci_read_config16(dev, PCI_VENDOR_ID);
	dev->device = pci_read_config16(dev, PCI_DEVICE_ID);
	dev->revision = pci_read_config8(dev, PCI_REVISION_ID);
	dev->prog_if = pci_read_config8(dev, PCI_CLASS_PROG);
	dev->class_sub = pci_read_config8(dev, PCI_CLASS_DEVICE);
	dev->class_base = pci_read_config8(dev, PCI_CLASS_DEVICE + 1);
	dev->irq_line = pci_read_config8(dev, PCI_INTERRUPT_LINE);
	dev->irq_pin = pci_read_config8(dev, PCI_INTERRUPT_PIN);
	if ((pci_read_config8(dev, PCI_HEADER_TYPE) & PCI_HEADER_TYPE_MASK) == 0) {
		dev->subsystem_device = pci_read_config16(dev, PCI_SUBSYSTEM_ID);
		cmd = pci_read_config16(dev, PCI_COMMAND);
		pci_write_config16(dev, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
		for (int i = 0; i < PCI_NUM_BARS;)
			i = size_bar(dev, i);
		pci_write_config16(dev, PCI_COMMAND, cmd);
	}
	while (*tail)
		tail = &(*tail)->next;
	*tail = dev;
}

void pci_init(void)
{
	int n = 0;

	for (int bus = 0; bus < PCI_MAX_BUS; bus++) {
		for (int slot = 0; slot < PCI_MAX_SLOT; slot++) {
			int funcs = 1;

			for (int func = 0; func < funcs; func++) {
				uint32_t id = config_read(bus, slot, func, PCI_VENDOR_ID);

				if ((id & 0xffff) == PCI_NO_DEVICE)
					continue;
				if (func == 0 && (config_read(bus, slot, 0, PCI_HEADER_TYPE) >>
						  16) & PCI_HEADER_MULTIFUNC)
					funcs = PCI_MAX_FUNC;
				add_device(bus, slot, func);
				n++;
			}
		}
	}
	printk(KERN_INFO "PCI: %d device%s found\n", n, n == 1 ? "" : "s");
}

struct pci_dev *pci_devices(void)
{
	return pci_list;
}

void pci_enable_device(struct pci_dev *dev)
{
	uint16_t cmd = pci_read_config16(dev, PCI_COMMAND);

	pci_write_config16(dev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
}

void *pci_iomap(struct pci_dev *dev, int i)
{
	struct pci_bar *bar;

	if (i < 0 || i >= PCI_NUM_BARS)
		return NULL;
	bar = &dev->bar[i];
	if (bar->io || !bar->size || !bar->start)
		return NULL;
	if (!bar->virt)
		bar->virt = ioremap(bar->start, bar->size);
	return bar->virt;
}

static volatile uint32_t *msix_entry(struct pci_dev *dev, int entry)
{
	unsigned int cap = pci_find_capability(dev, PCI_CAP_ID_MSIX, 0);
	uint32_t table;
	char *base;

	if (!cap || entry < 0 || entry >= pci_msix_table_size(dev))
		return NULL;
	table = pci_read_config32(dev, cap + PCI_MSIX_TABLE);
	base = pci_iomap(dev, (int)(table & PCI_MSIX_TABLE_BIR));
	if (!base || (table & ~PCI_MSIX_TABLE_BIR) + (uint64_t)(entry + 1) * PCI_MSIX_ENTRY_SIZE >
			     dev->bar[table & PCI_MSIX_TABLE_BIR].size)
		return NULL;
	return (volatile uint32_t *)(base + (table & ~PCI_MSIX_TABLE_BIR) +
				     (size_t)entry * PCI_MSIX_ENTRY_SIZE);
}

int pci_msix_table_size(struct pci_dev *dev)
{
	unsigned int cap = pci_find_capability(dev, PCI_CAP_ID_MSIX, 0);

	if (!cap)
		return 0;
	return (pci_read_config16(dev, cap + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_QSIZE) + 1;
}

int pci_msix_set_vector(struct pci_dev *dev, int entry, int vector, uint32_t apic_id)
{
	volatile uint32_t *e = msix_entry(dev, entry);

	if (!e)
		return -ENODEV;
	e[PCI_MSIX_ENTRY_LOWER_ADDR / 4] = MSI_ADDR_BASE | apic_id << MSI_ADDR_DEST_SHIFT;
	e[PCI_MSIX_ENTRY_UPPER_ADDR / 4] = 0;
	e[PCI_MSIX_ENTRY_DATA / 4] = (uint32_t)vector; /* fixed delivery, edge */
	e[PCI_MSIX_ENTRY_VECTOR_CTRL / 4] = 0; /* unmasked */
	return 0;
}

/* MSI-X on, and the legacy INTx line off: the device now interrupts only by messages. */
void pci_msix_enable(struct pci_dev *dev)
{
	unsigned int cap = pci_find_capability(dev, PCI_CAP_ID_MSIX, 0);
	uint16_t ctl;

	if (!cap)
		return;
	ctl = pci_read_config16(dev, cap + PCI_MSIX_FLAGS);
	pci_write_config16(dev, cap + PCI_MSIX_FLAGS,
			   (ctl | PCI_MSIX_FLAGS_ENABLE) & ~PCI_MSIX_FLAGS_MASKALL);
	pci_write_config16(dev, PCI_COMMAND,
			   pci_read_config16(dev, PCI_COMMAND) | PCI_COMMAND_INTX_DISABLE);
}


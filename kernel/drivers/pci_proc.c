/*
 * /proc/bus/pci, Linux's (drivers/pci/proc.c): what pciutils' lspci reads when a kernel has no
 * sysfs, as Lucid has none.
 *
 *   /proc/bus/pci/devices     one line per function, tab-separated: bus and devfn ("0018" is
 *                             00:03.0), vendor and device ("8086100e"), the IRQ, then the six
 *                             BARs and the ROM as start | flags (the BAR's low bits: 1 I/O, 4
 *                             64-bit, 8 prefetchable), then their sizes, then the driver's name.
 *   /proc/bus/pci/BB/DD.F     the function's configuration space, 256 bytes (read-only here; Linux
 *                             lets root write it): the class and revision lspci prints come from
 *                             here.
 *
 * Lucid does not size expansion ROMs or bind drivers by name: the ROM columns are 0 and the
 * driver column empty.
 */
#include "arch/x86_64/pci.h"
#include "kernel/drivers/pci_proc.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/seq_file.h"
#include "lib/errno.h"
#include "lib/printf.h"

#define PCI_CFG_SPACE_SIZE 256 /* a conventional PCI function's configuration space */
#define PCI_ROM_RESOURCE PCI_NUM_BARS /* Linux's resource index of the ROM, after the BARs */
#define PCI_DEVFN(slot, func) ((((slot) & 0x1f) << 3) | ((func) & 0x07))

/* The BAR's own low bits, as Linux keeps them in the resource's flags (PCI_REGION_FLAG_MASK). */
static unsigned long bar_flags(const struct pci_bar *bar)
{
	if (bar->io)
		return PCI_BASE_ADDRESS_SPACE_IO;
	return (bar->is64 ? PCI_BASE_ADDRESS_MEM_TYPE_64 : 0) |
	       (bar->prefetch ? PCI_BASE_ADDRESS_MEM_PREFETCH : 0);
}

static int devices_show(struct seq_file *m, void *v)
{
	(void)v;
	for (struct pci_dev *d = pci_devices(); d; d = d->next) {
		seq_printf(m, "%02x%02x\t%04x%04x\t%x", d->bus, PCI_DEVFN(d->slot, d->func),
			   d->vendor, d->device, d->irq_pin ? d->irq_line : 0);
		for (int i = 0; i <= PCI_ROM_RESOURCE; i++) {
			const struct pci_bar *b = i < PCI_NUM_BARS ? &d->bar[i] : NULL;

			seq_printf(m, "\t%16lx",
				   b && b->size ? (unsigned long)(b->start | bar_flags(b)) : 0UL);
		}
		for (int i = 0; i <= PCI_ROM_RESOURCE; i++)
			seq_printf(m, "\t%16lx",
				   i < PCI_NUM_BARS ? (unsigned long)d->bar[i].size : 0UL);
		seq_puts(m, "\t\n"); /* no driver's name */
	}
	return 0;
}

static int devices_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, devices_show, NULL);
}

static const struct file_operations devices_fops = {
	.open = devices_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* Config space bytes [*pos, *pos + count), as far as its end. */
static ssize_t config_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct pci_dev *d = file_inode(file)->i_private;
	size_t n = 0;

	if (*pos < 0)
		return -EINVAL;
	for (; n < count && *pos + (loff_t)n < PCI_CFG_SPACE_SIZE; n++)
		buf[n] = (char)pci_read_config8(d, (unsigned int)(*pos + (loff_t)n));
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static loff_t config_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t to = whence == SEEK_SET ? offset :
		    whence == SEEK_CUR ? file->f_pos + offset :
		    whence == SEEK_END ? PCI_CFG_SPACE_SIZE + offset : -1;

	if (to < 0)
		return -EINVAL;
	file->f_pos = to;
	return to;
}

static const struct file_operations config_fops = {
	.read = config_read,
	.llseek = config_llseek,
};

int pci_proc_init(void)
{
	struct dentry *bus_dir = proc_mkdir("bus", NULL);
	struct dentry *pci_dir = bus_dir ? proc_mkdir("pci", bus_dir) : NULL;
	struct dentry *dir = NULL;
	int last_bus = -1;
	char name[8];

	if (!pci_dir || !proc_create("devices", 0444, pci_dir, &devices_fops))
		return -ENOMEM;
	for (struct pci_dev *d = pci_devices(); d; d = d->next) {
		if (d->bus != last_bus) { /* in bus order: one directory per bus */
			snprintf(name, sizeof(name), "%02x", d->bus);
			dir = proc_mkdir(name, pci_dir);
			last_bus = d->bus;
		}
		snprintf(name, sizeof(name), "%02x.%x", d->slot, d->func);
		if (!dir || !proc_create_data(name, 0444, dir, &config_fops, d))
			return -ENOMEM;
	}
	return 0;
}

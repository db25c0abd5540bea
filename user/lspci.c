/*
 * lspci: one line per PCI function, as pciutils' lspci prints it, from what Linux's kernel
 * shows in /proc (Lucid's sysfs has no /sys/bus/pci): the list in /proc/bus/pci/devices, and
 * each function's class and revision from its configuration space, /proc/bus/pci/BB/DD.F.
 *
 *	lspci		00:00.0 Host bridge: Device 8086:1237 (rev 02)
 *	lspci -n	00:00.0 0600: 8086:1237 (rev 02)
 *
 * Lucid has no pci.ids database: vendors and devices are numbers, as lspci prints those its
 * database does not know ("Device 8086:1237"); classes are named from a small table of
 * pci.ids's names, the base class alone followed by the code ("Unclassified device [0002]")
 * when only it is known, and "Class 0002" when not even that.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEVICES "/proc/bus/pci/devices"
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_DEVICE 0x0a /* sub class, then base class at 0x0b */
#define PCI_CONFIG_HEAD 0x10 /* the bytes read: through the class code */
#define ANY_SUB 0x100 /* a base class's own name */
#define EXIT_USAGE 1 /* pciutils' lspci for a bad option */

static const struct {
	unsigned int base, sub;
	const char *name;
} class_names[] = {
	{0x00, 0x00, "Non-VGA unclassified device"},
	{0x01, 0x00, "SCSI storage controller"},
	{0x01, 0x01, "IDE interface"},
	{0x01, 0x06, "SATA controller"},
	{0x01, 0x08, "Non-Volatile memory controller"},
	{0x02, 0x00, "Ethernet controller"},
	{0x03, 0x00, "VGA compatible controller"},
	{0x04, 0x01, "Multimedia audio controller"},
	{0x04, 0x03, "Audio device"},
	{0x06, 0x00, "Host bridge"},
	{0x06, 0x01, "ISA bridge"},
	{0x06, 0x04, "PCI bridge"},
	{0x06, 0x80, "Bridge"},
	{0x07, 0x00, "Serial controller"},
	{0x07, 0x80, "Communication controller"},
	{0x0c, 0x03, "USB controller"},
	{0x0c, 0x05, "SMBus"},
	{0x00, ANY_SUB, "Unclassified device"},
	{0x01, ANY_SUB, "Mass storage controller"},
	{0x02, ANY_SUB, "Network controller"},
	{0x03, ANY_SUB, "Display controller"},
	{0x04, ANY_SUB, "Multimedia controller"},
	{0x05, ANY_SUB, "Memory controller"},
	{0x06, ANY_SUB, "Bridge"},
	{0x07, ANY_SUB, "Communication controller"},
	{0x08, ANY_SUB, "Generic system peripheral"},
	{0x0c, ANY_SUB, "Serial bus controller"},
};

/* "Host bridge", "Unclassified device [0002]" or "Class 0002", as pciutils' names.c. */
static void print_class(unsigned int base, unsigned int sub)
{
	const char *only = NULL;

	for (size_t i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++) {
		if (class_names[i].base != base)
			continue;
		if (class_names[i].sub == sub) {
			fputs(class_names[i].name, stdout);
			return;
		}
		if (class_names[i].sub == ANY_SUB)
			only = class_names[i].name;
	}
	if (only)
		printf("%s [%02x%02x]", only, base, sub);
	else
		printf("Class %02x%02x", base, sub);
}

int main(int argc, char **argv)
{
	unsigned int bdf, ids;
	unsigned char cfg[PCI_CONFIG_HEAD];
	char line[512], path[64];
	int numeric = 0, c;
	FILE *f;

	while ((c = getopt(argc, argv, "n")) != -1) {
		if (c != 'n') {
			fprintf(stderr, "Usage: lspci [-n]\n\n-n\tShow numeric ID's\n");
			return EXIT_USAGE;
		}
		numeric = 1;
	}
	f = fopen(DEVICES, "r");
	if (!f) {
		fprintf(stderr, "lspci: Cannot open %s: %s\n", DEVICES, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int bus, slot, func, base, sub;
		int fd;

		if (sscanf(line, "%x %x", &bdf, &ids) != 2)
			continue;
		bus = bdf >> 8;
		slot = (bdf >> 3) & 0x1f;
		func = bdf & 0x7;
		snprintf(path, sizeof(path), "/proc/bus/pci/%02x/%02x.%x", bus, slot, func);
		fd = open(path, O_RDONLY);
		if (fd < 0 || pread(fd, cfg, sizeof(cfg), 0) != (ssize_t)sizeof(cfg)) {
			fprintf(stderr, "lspci: Cannot read %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(fd);
		base = cfg[PCI_CLASS_DEVICE + 1];
		sub = cfg[PCI_CLASS_DEVICE];
		printf("%02x:%02x.%x ", bus, slot, func);
		if (numeric) {
			printf("%02x%02x: %04x:%04x", base, sub, ids >> 16, ids & 0xffff);
		} else {
			print_class(base, sub);
			printf(": Device %04x:%04x", ids >> 16, ids & 0xffff);
		}
		if (cfg[PCI_REVISION_ID])
			printf(" (rev %02x)", cfg[PCI_REVISION_ID]);
		putchar('\n');
	}
	fclose(f);
	return 0;
}

/*
 * lspci: one line per PCI function, in pciutils' format. Lucid has no pci.ids database, so
 * vendors and devices are numbers, as lspci prints them when its database does not know them
 * ("Device 8086:1237"); the class names come from a small table of pci.ids's (arch/x86_64/pci.c).
 *	lspci		00:00.0 Host bridge: Device 8086:1237 (rev 02)
 *	lspci -n	00:00.0 0600: 8086:1237 (rev 02)
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "arch/x86_64/pci.h"

static int cmd_lspci(int argc, char **argv)
{
	bool numeric = false, base_only;
	struct getopt g;
	int c;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "n")) != -1) {
		if (c == '?')
			return 2;
		numeric = true;
	}
	for (struct pci_dev *d = pci_devices(); d; d = d->next) {
		const char *name = pci_class_name(d->class_base, d->class_sub, &base_only);

		printf("%02x:%02x.%d ", d->bus, d->slot, d->func);
		if (numeric)
			printf("%02x%02x: %04x:%04x", d->class_base, d->class_sub, d->vendor,
			       d->device);
		else if (!name)
			printf("Class %02x%02x: Device %04x:%04x", d->class_base, d->class_sub,
			       d->vendor, d->device);
		else if (base_only)
			printf("%s [%02x%02x]: Device %04x:%04x", name, d->class_base, d->class_sub,
			       d->vendor, d->device);
		else
			printf("%s: Device %04x:%04x", name, d->vendor, d->device);
		printf(d->revision ? " (rev %02x)\n" : "\n", d->revision);
	}
	return 0;
}
SHELL_CMD("lspci", "lspci [-n]: list the PCI devices", cmd_lspci);

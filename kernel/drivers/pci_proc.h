/* /proc/bus/pci: the PCI devices, for lspci (kernel/drivers/pci_proc.c). */
#ifndef KERNEL_DRIVERS_PCI_PROC_H
#define KERNEL_DRIVERS_PCI_PROC_H

int pci_proc_init(void); /* after pci_init(); 0 or -ENOMEM */

#endif

/*
 * ioremap: a device's registers (a PCI memory BAR) given kernel virtual addresses.
 *
 * The direct map covers physical memory below 4 GiB and treats only the top 32 MiB as device
 * registers (uncached); a BAR may lie anywhere, even above 4 GiB (a 64-bit BAR). So each one is
 * mapped page by page into an area of its own, uncached (PCD|PWT): a register read must reach the
 * device every time, and a write must not sit in a cache. Mappings are never undone: devices
 * stay for the life of the kernel, and the area is a gigabyte for a few pages each.
 */
#include "arch/x86_64/ioremap.h"
#include "arch/x86_64/mmu.h"
#include "kernel/locking/spinlock.h"
#include "lib/compiler.h"

static DEFINE_SPINLOCK(ioremap_lock);
static uintptr_t ioremap_next = IOREMAP_AREA;

void *ioremap(uintptr_t phys, size_t size)
{
	uintptr_t first = ALIGN_DOWN(phys, PAGE_SIZE);
	size_t len = ALIGN_UP(phys + size, PAGE_SIZE) - first;
	unsigned long irq;
	uintptr_t va;

	if (size == 0 || phys + size < phys)
		return NULL;
	irq = spin_lock_irqsave(&ioremap_lock);
	va = ioremap_next;
	if (len > IOREMAP_AREA + IOREMAP_AREA_SIZE - va) {
		spin_unlock_irqrestore(&ioremap_lock, irq);
		return NULL;
	}
	ioremap_next += len;
	spin_unlock_irqrestore(&ioremap_lock, irq);
	for (size_t off = 0; off < len; off += PAGE_SIZE) {
		if (mmu_map_page(va + off, first + off, MMU_WRITE | MMU_NOCACHE))
			return NULL; /* the pages mapped so far stay: a few bytes of page table */
	}
	return (void *)(va + (phys - first));
}

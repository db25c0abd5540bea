/*
 * The I/O APIC: a table of redirection entries, one per interrupt line, each saying which vector
 * to raise on which CPU. Lucid routes only what it uses (the serial port) and masks the rest.
 * The registers are reached indirectly: write a register number to IOREGSEL, then read or write
 * IOWIN.
 */
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/mmu.h"

#define IOREGSEL 0x00
#define IOWIN 0x10
#define IOAPIC_VER 0x01
#define IOAPIC_REDTBL(n) (0x10 + 2 * (n))
#define REDIR_MASKED 0x10000

uintptr_t ioapic_phys = IOAPIC_DEFAULT_PHYS;
uint32_t isa_irq_to_gsi[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
static volatile uint32_t *ioapic;

static uint32_t ioapic_read(uint32_t reg)
{
	ioapic[IOREGSEL / 4] = reg;
	return ioapic[IOWIN / 4];
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	ioapic[IOREGSEL / 4] = reg;
	ioapic[IOWIN / 4] = v;
}

void ioapic_init(void)
{
	ioapic = __va(ioapic_phys);
	uint32_t entries = ((ioapic_read(IOAPIC_VER) >> 16) & 0xff) + 1;
	for (uint32_t i = 0; i < entries; i++) {
		ioapic_write(IOAPIC_REDTBL(i), REDIR_MASKED);
		ioapic_write(IOAPIC_REDTBL(i) + 1, 0);
	}
}

/* Edge triggered, active high, fixed delivery: what ISA devices such as the UART use. */
void ioapic_route(uint32_t gsi, int vector, uint32_t dest_apic_id)
{
	ioapic_write(IOAPIC_REDTBL(gsi) + 1, dest_apic_id << 24);
	ioapic_write(IOAPIC_REDTBL(gsi), (uint32_t)vector);
}

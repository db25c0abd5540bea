/*
 * The legacy 8259 PICs. Lucid routes device interrupts through the IOAPIC instead, but the old
 * PICs still power up unmasked and, worse, deliver at vectors 8-15, where the CPU's own
 * exceptions live. So we move them out of the way (vectors 0x20-0x2f) and mask every line.
 */
#include "arch/x86_64/io.h"
#include "arch/x86_64/pic.h"

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define ICW1_INIT_ICW4 0x11  /* start initialization, ICW4 follows */
#define ICW4_8086 0x01
#define PIC1_VECTOR_BASE 0x20
#define PIC2_VECTOR_BASE 0x28
#define PIC_CASCADE_IRQ 2
#define MASK_ALL 0xff

void pic_disable(void)
{
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	io_wait();
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	io_wait();
	outb(PIC1_DATA, PIC1_VECTOR_BASE);
	io_wait();
	outb(PIC2_DATA, PIC2_VECTOR_BASE);
	io_wait();
	outb(PIC1_DATA, 1 << PIC_CASCADE_IRQ); /* master: a slave is on line 2 */
	io_wait();
	outb(PIC2_DATA, PIC_CASCADE_IRQ);     /* slave: your cascade identity is 2 */
	io_wait();
	outb(PIC1_DATA, ICW4_8086);
	io_wait();
	outb(PIC2_DATA, ICW4_8086);
	io_wait();
	outb(PIC1_DATA, MASK_ALL);
	outb(PIC2_DATA, MASK_ALL);
}

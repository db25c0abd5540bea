/* qemu_exit: ask QEMU's isa-debug-exit device to end the VM (see qemu.h). */
#include "arch/x86_64/qemu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"

/* Not traced: it is the last thing a panic does. */
notrace void qemu_exit(int value)
{
	outl(QEMU_DEBUG_EXIT_PORT, (uint32_t)value);
	/* Without the device (real hardware, or QEMU without it) just stop here. */
	for (;;) {
		local_irq_disable();
		halt();
	}
}

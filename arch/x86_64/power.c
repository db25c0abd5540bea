/*
 * Power off and reboot.
 *
 * Power off writes "sleep type 5, enable" to the ACPI PM1a control register, where QEMU's PIIX4
 * chipset puts it (port 0x604); QEMU then exits with status 0. Parsing the FADT and DSDT for the
 * real port and value would be the general way; on QEMU this is enough. QEMU acts on the write
 * in its main loop, a moment after the CPU made it, so we wait for it; if it has not ended the
 * machine by then (no ACPI there), the isa-debug-exit device ends QEMU instead, with status 1.
 * Without the wait, the second write usually won that race, and a clean power off exited 1.
 *
 * Reboot pulses the CPU reset line through the keyboard controller, the oldest trick on a PC.
 */
#include "arch/x86_64/power.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/qemu.h"
#include "kernel/time/time.h"

#define QEMU_PM1A_CONTROL 0x604
#define PM1_SLP_TYP5_EN 0x2000 /* SLP_TYP = 5 (S5, soft off) on QEMU, with SLP_EN */
#define POWER_OFF_WAIT_MS 2000 /* for QEMU to act on the ACPI write, even on a loaded host */
#define USEC_PER_MSEC 1000
#define KBC_COMMAND 0x64
#define KBC_PULSE_RESET 0xfe

void machine_power_off(void)
{
	outw(QEMU_PM1A_CONTROL, PM1_SLP_TYP5_EN);
	for (int ms = 0; ms < POWER_OFF_WAIT_MS; ms++)
		udelay(USEC_PER_MSEC);
	qemu_exit(QEMU_EXIT_SUCCESS);
}

void machine_restart(void)
{
	outb(KBC_COMMAND, KBC_PULSE_RESET);
	for (;;) {
		local_irq_disable();
		halt();
	}
}

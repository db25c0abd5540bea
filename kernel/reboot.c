/*
 * reboot(2): power off or restart the machine, as Linux's kernel/reboot.c. The caller passes two
 * magic numbers first, so that a stray call with a random first argument cannot switch the
 * machine off: LINUX_REBOOT_MAGIC1 and one of the four MAGIC2 values (Linus's and his
 * daughters' birthdays, in hex). Everyone is root on Lucid, so CAP_SYS_BOOT is never missing.
 *
 * The kernel writes nothing back: user space syncs first (busybox's poweroff and Lucid's init
 * call sync(2)), as on Linux, where reboot(2) does not sync either. Power off ends QEMU through
 * the same path as the rescue console's `poweroff` (arch/x86_64/power.c): QEMU exits with status 0.
 *
 * Lucid lacks halt (stopping every CPU with the machine still on), kexec and suspend: those
 * commands get EINVAL, as Linux's answer for a command it was built without.
 */
#include "kernel/syscalls.h"
#include "kernel/printk.h"
#include "arch/x86_64/power.h"
#include "lib/errno.h"

#define LINUX_REBOOT_MAGIC1 0xfee1deadU
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_MAGIC2A 85072278
#define LINUX_REBOOT_MAGIC2B 369367448
#define LINUX_REBOOT_MAGIC2C 537993216

#define LINUX_REBOOT_CMD_RESTART 0x01234567U
#define LINUX_REBOOT_CMD_CAD_ON 0x89ABCDEFU
#define LINUX_REBOOT_CMD_CAD_OFF 0x00000000U
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321FEDCU

long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg)
{
	(void)arg;
	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		printk(KERN_EMERG "reboot: Power down\n"); /* Linux's pr_emerg: always shown */
		machine_power_off();
		return 0; /* not reached: QEMU has ended */
	case LINUX_REBOOT_CMD_RESTART:
		printk(KERN_EMERG "reboot: Restarting system\n");
		machine_restart();
		return 0;
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		/* what Ctrl-Alt-Del does: Lucid's console has no such key, nothing to set */
		return 0;
	default:
		return -EINVAL;
	}
}

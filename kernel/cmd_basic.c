/* The shell's basic commands: help, echo, dmesg, uptime, clear, reboot, poweroff. */
#include "kernel/shell.h"
#include "kernel/stdio.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/kmalloc.h"
#include "arch/x86_64/power.h"
#include "lib/string.h"

#define CLEAR_LINES 50 /* `clear` scrolls with newlines: no cursor codes on a console programs read */

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (const struct shell_cmd *c = shell_cmd_first(); c; c = shell_cmd_next(c))
		printf("%-12s %s\n", c->name, c->help);
	return 0;
}
SHELL_CMD("help", "list the commands", cmd_help);

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf(i > 1 ? " %s" : "%s", argv[i]);
	printf("\n");
	return 0;
}
SHELL_CMD("echo", "print the arguments", cmd_echo);

static int cmd_dmesg(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char buf[512];
	size_t off = 0, n;
	while ((n = printk_log_copy(buf, sizeof(buf), off)) > 0) {
		fd_write(STDOUT_FILENO, buf, n);
		off += n;
	}
	return 0;
}
SHELL_CMD("dmesg", "print the kernel log", cmd_dmesg);

static int cmd_uptime(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	uint64_t ns = ktime_get_ns();
	printf("%lu.%06lu\n", (unsigned long)(ns / NSEC_PER_SEC),
	       (unsigned long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
	return 0;
}
SHELL_CMD("uptime", "seconds since boot", cmd_uptime);

static int cmd_clear(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < CLEAR_LINES; i++)
		printf("\n");
	return 0;
}
SHELL_CMD("clear", "scroll the screen clear", cmd_clear);

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	machine_reboot();
	return 1;
}
SHELL_CMD("reboot", "restart the machine", cmd_reboot);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk(KERN_INFO "reboot: Power down\n");
	machine_power_off();
	return 1;
}
SHELL_CMD("poweroff", "switch the machine off", cmd_poweroff);

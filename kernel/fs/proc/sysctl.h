/* /proc/sys/kernel/NAME: a number in the kernel, readable and writable as a file. */
#ifndef KERNEL_SYSCTL_H
#define KERNEL_SYSCTL_H

#include <stdbool.h>

/*
 * One sysctl, as a line of a table: Linux's struct ctl_table cut down to what Lucid's sysctls
 * need. A write is one decimal number (the newline echo adds is fine) between min and max;
 * anything else fails with EINVAL and leaves the value as it was. proc_handler, if set, is
 * called with the new value before it is stored and may refuse it with a negative errno (to
 * start or stop what the value controls).
 */
struct ctl_table {
	const char *procname;
	unsigned long *data;
	unsigned short mode; /* 0644 or 0444 */
	unsigned long min, max;
	int (*proc_handler)(const struct ctl_table *table, unsigned long val);
};

/* Makes /proc/sys/kernel/NAME for each line; returns 0 or -ENOMEM. */
int register_sysctl_table(const struct ctl_table *table, int n);

/*
 * An int sysctl as Linux's proc_dointvec takes it, for a value that may be negative: the file's
 * data (proc_create_data) points at the int; a write is one decimal int and a newline at most,
 * anything else (a number an int cannot hold too) fails with EINVAL and changes nothing.
 */
extern const struct file_operations proc_dointvec_fops;

#endif

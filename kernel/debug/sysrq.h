/*
 * The magic SysRq key: a few emergency actions, whatever the kernel is doing
 * (kernel/debug/sysrq.c).
 */
#ifndef KERNEL_SYSRQ_H
#define KERNEL_SYSRQ_H

/* Ctrl-O on the console, then the key: Lucid's stand-in for the serial BREAK. */
#define SYSRQ_CONSOLE_PREFIX 0x0f

/* Runs the action of key ('z': dump the trace, ...), or prints the list. Any context. */
void handle_sysrq(int key);
/* Boot: /proc/sysrq-trigger. */
void sysrq_init(void);

#endif

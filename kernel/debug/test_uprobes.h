/* A uprobe consumer that sends a signal from its handler (kernel/debug/test_uprobes.c). */
#ifndef KERNEL_DEBUG_TEST_UPROBES_H
#define KERNEL_DEBUG_TEST_UPROBES_H

/* Boot: /sys/kernel/debug/uprobe_signal. */
void uprobe_signal_init(void);

#endif

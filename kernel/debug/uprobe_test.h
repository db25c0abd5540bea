/* /sys/kernel/debug/uprobe_test (kernel/debug/uprobe_test.c): the uprobe mechanism alone. */
#ifndef KERNEL_DEBUG_UPROBE_TEST_H
#define KERNEL_DEBUG_UPROBE_TEST_H

void uprobe_test_init(void);

#endif

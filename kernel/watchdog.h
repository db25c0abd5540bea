/* The soft-lockup watchdog (kernel/watchdog.c). */
#ifndef KERNEL_WATCHDOG_H
#define KERNEL_WATCHDOG_H

#include "arch/x86_64/regs.h"

void watchdog_init(void);
void watchdog_tick(struct pt_regs *regs);
extern void (*softlockup_dump_hook)(void);

#endif

/* Switching the machine off or restarting it (arch/x86_64/power.c). */
#ifndef ARCH_POWER_H
#define ARCH_POWER_H
void machine_power_off(void);
void machine_restart(void);
#endif

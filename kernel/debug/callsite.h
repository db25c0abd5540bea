/* A function's patchable call site, as it is now (kernel/debug/callsite.c). */
#ifndef KERNEL_CALLSITE_H
#define KERNEL_CALLSITE_H

/* Boot: /sys/kernel/debug/callsite, what /bin/callsite runs through. */
void callsite_init(void);

#endif

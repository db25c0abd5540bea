/* /dev/ttyS1, COM2 as a raw output channel (kernel/drivers/serial_dev.c). */
#ifndef KERNEL_SERIAL_DEV_H
#define KERNEL_SERIAL_DEV_H

/* Boot: makes /dev/ttyS1 if the machine has a COM2. */
int serial_dev_init(void);

#endif

/* Leaving QEMU with a status code, through its isa-debug-exit device. */
#ifndef ARCH_QEMU_H
#define ARCH_QEMU_H

/*
 * QEMU exits with status (value << 1) | 1 when the guest writes value to this port
 * (-device isa-debug-exit,iobase=0xf4,iosize=0x04). So 0 gives 1, and 1 gives 3.
 */
#define QEMU_DEBUG_EXIT_PORT 0xf4
#define QEMU_EXIT_SUCCESS 0 /* QEMU exits with 1: what `make run` treats as a clean poweroff */
#define QEMU_EXIT_FAILURE 1 /* QEMU exits with 3: an oops or a panic */

void __attribute__((noreturn)) qemu_exit(int value);

#endif

/* The version the banner prints. */
#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H
#define LUCID_VERSION "0.1"
/*
 * uname -r, Linux's UTS_RELEASE: the Linux release whose ABI Lucid speaks. Modules live in
 * /lib/modules/UTS_RELEASE (modprobe looks there): the Makefile reads this line for the path.
 */
#define UTS_RELEASE "6.1.0-lucid"
#endif

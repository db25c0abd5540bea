/* The version the banner prints. */
#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H
#define LUCID_VERSION "0.1"
#endif

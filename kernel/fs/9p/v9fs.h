/* 9p: the host's shared folder as a file system (kernel/fs/9p/). */
#ifndef KERNEL_FS_9P_V9FS_H
#define KERNEL_FS_9P_V9FS_H

#include <stdbool.h>
#include "kernel/fs/9p/client.h"

/* trans_virtio.c: the virtio-9p devices, each a channel to a server named by its mount tag. */
void p9_virtio_init(void);
bool p9_virtio_has_channel(void);
int p9_virtio_client(const char *tag, struct p9_client **clientp);

/*
 * Registers the "9p" file system and the virtio-9p driver, then mounts the channel tagged
 * "host" at /mnt/host if there is one. It waits for the device: call it from a task, not from
 * the boot CPU's idle task.
 */
void v9fs_init(void);

#endif

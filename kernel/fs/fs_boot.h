/* The file tree at boot (kernel/fs/fs_boot.c). */
#ifndef KERNEL_FS_BOOT_H
#define KERNEL_FS_BOOT_H

/* Builds it all, or panics: there is no Lucid without its files. */
void fs_boot_init(void);

#endif

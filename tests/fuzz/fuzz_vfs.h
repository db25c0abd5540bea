/* What the VFS fuzz target (fuzz_vfs.c) and its pseudo files (fuzz_vfs_files.c) share. */
#ifndef TESTS_FUZZ_FUZZ_VFS_H
#define TESTS_FUZZ_FUZZ_VFS_H

#include "kernel/fs/vfs.h"

/* Makes the tracefs files the operations reach: fz_value, fz_list, instances/. */
void fuzz_files_init(void);
/* Removes fz_tmp if it is there, else creates it: a tracing file vanishing under its readers. */
void fuzz_files_toggle_tmp(void);
/* Back to what fuzz_files_init() made (call with every file closed). */
void fuzz_files_reset(void);
/* A character device's operations, as /dev/null's: for vfs_mknod(). */
extern const struct file_operations fuzz_null_fops;

#endif

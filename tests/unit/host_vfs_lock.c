/*
 * The kernel's VFS lock is a mutex (kernel/fs/vfs_lock.c). In the VFS unit tests it is a depth
 * counter, which checks that every entry point takes it once, never twice, and always lets it
 * go; a test checks that it is 0 again after each call.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/vfs_internal.h"
#include "tests/unit/host_vfs_lock.h"

int host_vfs_lock_depth;

void vfs_lock(void)
{
	assert_int_equal(host_vfs_lock_depth, 0);
	host_vfs_lock_depth++;
}

void vfs_unlock(void)
{
	assert_int_equal(host_vfs_lock_depth, 1);
	host_vfs_lock_depth--;
}

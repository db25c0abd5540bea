UNIT_TESTS += initramfs
initramfs_SRCS := tests/unit/test_initramfs.c kernel/fs/initramfs.c lib/string.c lib/errno.c

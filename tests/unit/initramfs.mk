UNIT_TESTS += initramfs
initramfs_SRCS := tests/unit/test_initramfs.c kernel/initramfs.c lib/string.c lib/errno.c

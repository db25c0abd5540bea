FUZZ_TARGETS += initramfs
fuzz_initramfs_SRCS := tests/fuzz/fuzz_initramfs.c kernel/fs/initramfs.c lib/string.c

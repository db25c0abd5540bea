UNIT_TESTS += vfs
vfs_SRCS := tests/unit/test_vfs.c kernel/vfs.c kernel/namei.c kernel/dcache.c kernel/file.c \
	kernel/mount.c kernel/ramfs.c kernel/pseudofs.c kernel/seq_file.c lib/printf.c lib/string.c \
	tests/unit/host_kmalloc.c

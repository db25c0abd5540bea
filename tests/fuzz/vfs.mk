FUZZ_TARGETS += vfs
fuzz_vfs_SRCS := tests/fuzz/fuzz_vfs.c tests/fuzz/fuzz_vfs_files.c kernel/vfs.c kernel/namei.c \
	kernel/dcache.c kernel/file.c kernel/mount.c kernel/ramfs.c kernel/pseudofs.c \
	kernel/seq_file.c lib/printf.c lib/string.c lib/kstrtox.c tests/unit/host_kmalloc.c

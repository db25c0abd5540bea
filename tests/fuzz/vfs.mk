FUZZ_TARGETS += vfs
fuzz_vfs_SRCS := tests/fuzz/fuzz_vfs.c tests/fuzz/fuzz_vfs_files.c kernel/fs/vfs.c kernel/fs/namei.c \
	kernel/fs/dcache.c kernel/fs/file.c kernel/fs/mount.c kernel/fs/ramfs.c kernel/fs/pseudofs.c \
	kernel/fs/seq_file.c lib/printf.c lib/string.c lib/kstrtox.c tests/unit/host_kmalloc.c tests/unit/host_rlimit.c tests/unit/host_page.c kernel/mm/filemap.c tests/unit/host_time.c

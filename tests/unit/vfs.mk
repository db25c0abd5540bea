UNIT_TESTS += vfs
vfs_SRCS := tests/unit/test_vfs.c kernel/fs/vfs.c kernel/fs/namei.c kernel/fs/dcache.c kernel/fs/file.c \
	kernel/fs/mount.c kernel/fs/ramfs.c kernel/fs/pseudofs.c kernel/fs/seq_file.c lib/printf.c lib/string.c \
	tests/unit/host_kmalloc.c tests/unit/host_rlimit.c tests/unit/host_vfs_lock.c tests/unit/host_page.c kernel/mm/filemap.c tests/unit/host_time.c

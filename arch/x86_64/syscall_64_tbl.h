/*
 * The system calls Lucid implements, by Linux's x86_64 number, and the function each calls:
 * the same list as Linux's arch/x86/entry/syscalls/syscall_64.tbl, less what Lucid lacks.
 * arch/x86_64/syscall_64.c expands it into sys_call_table; a number not listed returns -ENOSYS
 * (arch/x86_64/syscall_64_names.h names every number, for the message).
 *
 *	   number  name               entry point
 */
__SYSCALL(0, read, sys_read)
__SYSCALL(1, write, sys_write)
__SYSCALL(9, mmap, sys_mmap)
__SYSCALL(11, munmap, sys_munmap)
__SYSCALL(12, brk, sys_brk)
__SYSCALL(13, rt_sigaction, sys_rt_sigaction)
__SYSCALL(14, rt_sigprocmask, sys_rt_sigprocmask)
__SYSCALL(16, ioctl, sys_ioctl)
__SYSCALL(19, readv, sys_readv)
__SYSCALL(20, writev, sys_writev)
__SYSCALL(39, getpid, sys_getpid)
__SYSCALL(60, exit, sys_exit)
__SYSCALL(63, uname, sys_newuname)
__SYSCALL(102, getuid, sys_getuid)
__SYSCALL(104, getgid, sys_getgid)
__SYSCALL(107, geteuid, sys_geteuid)
__SYSCALL(108, getegid, sys_getegid)
__SYSCALL(110, getppid, sys_getppid)
__SYSCALL(158, arch_prctl, sys_arch_prctl)
__SYSCALL(186, gettid, sys_gettid)
__SYSCALL(218, set_tid_address, sys_set_tid_address)
__SYSCALL(231, exit_group, sys_exit_group)

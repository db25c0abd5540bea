/*
 * Each system call's arguments, by type and name, as Linux declares them with SYSCALL_DEFINEn
 * (fs/read_write.c: SYSCALL_DEFINE3(write, unsigned int, fd, const char __user *, buf, size_t,
 * count)): the one place they are written down. trace/trace_events_syscalls.c expands this
 * list into the syscalls:sys_enter_NAME and sys_exit_NAME events, their format files and
 * lines, as Linux's SYSCALL_DEFINEn makes its syscall metadata. NAME is the entry point less
 * its "sys_" (newstat for stat, as in Linux); the number comes from the entry point's line in
 * arch/x86_64/syscall_64_tbl.h. A call in the table but not here has no syscalls:* events
 * (raw_syscalls:* still see it): a new system call adds its line here too.
 *
 * The types are Linux's, not Lucid's prototypes' (kernel/syscalls.h), since tools read them
 * from the format files; __user vanishes from them as it does in Linux's.
 *
 *		   name              type, argument, ...
 */
SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)
SYSCALL_DEFINE3(write, unsigned int, fd, const char __user *, buf, size_t, count)
SYSCALL_DEFINE3(open, const char __user *, filename, int, flags, umode_t, mode)
SYSCALL_DEFINE2(creat, const char __user *, pathname, umode_t, mode)
SYSCALL_DEFINE1(close, unsigned int, fd)
SYSCALL_DEFINE3(close_range, unsigned int, fd, unsigned int, max_fd, unsigned int, flags)
SYSCALL_DEFINE1(fsync, unsigned int, fd)
SYSCALL_DEFINE1(fdatasync, unsigned int, fd)
SYSCALL_DEFINE2(newstat, const char __user *, filename, struct stat __user *, statbuf)
SYSCALL_DEFINE2(newfstat, unsigned int, fd, struct stat __user *, statbuf)
SYSCALL_DEFINE2(newlstat, const char __user *, filename, struct stat __user *, statbuf)
SYSCALL_DEFINE3(lseek, unsigned int, fd, off_t, offset, unsigned int, whence)
SYSCALL_DEFINE6(mmap, unsigned long, addr, unsigned long, len, unsigned long, prot,
		unsigned long, flags, unsigned long, fd, unsigned long, off)
SYSCALL_DEFINE2(munmap, unsigned long, addr, size_t, len)
SYSCALL_DEFINE3(madvise, unsigned long, start, size_t, len_in, int, behavior)
SYSCALL_DEFINE1(brk, unsigned long, brk)
SYSCALL_DEFINE4(rt_sigaction, int, sig, const struct sigaction __user *, act,
		struct sigaction __user *, oact, size_t, sigsetsize)
SYSCALL_DEFINE4(rt_sigprocmask, int, how, sigset_t __user *, nset, sigset_t __user *, oset,
		size_t, sigsetsize)
SYSCALL_DEFINE3(ioctl, unsigned int, fd, unsigned int, cmd, unsigned long, arg)
SYSCALL_DEFINE3(readv, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen)
SYSCALL_DEFINE3(writev, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen)
SYSCALL_DEFINE5(preadv, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen,
		unsigned long, pos_l, unsigned long, pos_h)
SYSCALL_DEFINE5(pwritev, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen,
		unsigned long, pos_l, unsigned long, pos_h)
SYSCALL_DEFINE6(preadv2, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen,
		unsigned long, pos_l, unsigned long, pos_h, rwf_t, flags)
SYSCALL_DEFINE6(pwritev2, unsigned long, fd, const struct iovec __user *, vec, unsigned long, vlen,
		unsigned long, pos_l, unsigned long, pos_h, rwf_t, flags)
SYSCALL_DEFINE1(pipe, int __user *, fildes)
SYSCALL_DEFINE0(sched_yield)
SYSCALL_DEFINE1(dup, unsigned int, fildes)
SYSCALL_DEFINE2(dup2, unsigned int, oldfd, unsigned int, newfd)
SYSCALL_DEFINE0(pause)
SYSCALL_DEFINE2(nanosleep, struct __kernel_timespec __user *, rqtp,
		struct __kernel_timespec __user *, rmtp)
SYSCALL_DEFINE0(getpid)
SYSCALL_DEFINE5(clone, unsigned long, clone_flags, unsigned long, newsp, int __user *,
		parent_tidptr, int __user *, child_tidptr, unsigned long, tls)
SYSCALL_DEFINE2(clone3, struct clone_args __user *, uargs, size_t, size)
SYSCALL_DEFINE0(fork)
SYSCALL_DEFINE0(vfork)
SYSCALL_DEFINE3(execve, const char __user *, filename, const char __user *const __user *, argv,
		const char __user *const __user *, envp)
SYSCALL_DEFINE1(exit, int, error_code)
SYSCALL_DEFINE4(wait4, pid_t, upid, int __user *, stat_addr, int, options,
		struct rusage __user *, ru)
SYSCALL_DEFINE5(waitid, int, which, pid_t, upid, struct siginfo __user *, infop, int, options,
		struct rusage __user *, ru)
SYSCALL_DEFINE1(newuname, struct new_utsname __user *, name)
SYSCALL_DEFINE3(fcntl, unsigned int, fd, unsigned int, cmd, unsigned long, arg)
SYSCALL_DEFINE2(getcwd, char __user *, buf, unsigned long, size)
SYSCALL_DEFINE1(chdir, const char __user *, filename)
SYSCALL_DEFINE1(fchdir, unsigned int, fd)
SYSCALL_DEFINE2(rename, const char __user *, oldname, const char __user *, newname)
SYSCALL_DEFINE2(mkdir, const char __user *, pathname, umode_t, mode)
SYSCALL_DEFINE1(rmdir, const char __user *, pathname)
SYSCALL_DEFINE1(unlink, const char __user *, pathname)
SYSCALL_DEFINE2(gettimeofday, struct __kernel_old_timeval __user *, tv,
		struct timezone __user *, tz)
SYSCALL_DEFINE1(adjtimex, struct __kernel_timex __user *, txc_p)
SYSCALL_DEFINE2(settimeofday, struct __kernel_old_timeval __user *, tv,
		struct timezone __user *, tz)
SYSCALL_DEFINE0(getuid)
SYSCALL_DEFINE0(getgid)
SYSCALL_DEFINE0(geteuid)
SYSCALL_DEFINE0(getegid)
SYSCALL_DEFINE0(getppid)
SYSCALL_DEFINE2(arch_prctl, int, option, unsigned long, arg2)
SYSCALL_DEFINE0(gettid)
SYSCALL_DEFINE3(getdents64, unsigned int, fd, struct linux_dirent64 __user *, dirent,
		unsigned int, count)
SYSCALL_DEFINE1(set_tid_address, int __user *, tidptr)
SYSCALL_DEFINE2(clock_settime, const clockid_t, which_clock,
		const struct __kernel_timespec __user *, tp)
SYSCALL_DEFINE2(clock_adjtime, const clockid_t, which_clock, struct __kernel_timex __user *,
		utx)
SYSCALL_DEFINE2(clock_gettime, const clockid_t, which_clock, struct __kernel_timespec __user *,
		tp)
SYSCALL_DEFINE3(timer_create, const clockid_t, which_clock,
		struct sigevent __user *, timer_event_spec, timer_t __user *, created_timer_id)
SYSCALL_DEFINE4(timer_settime, timer_t, timer_id, int, flags,
		const struct __kernel_itimerspec __user *, new_setting,
		struct __kernel_itimerspec __user *, old_setting)
SYSCALL_DEFINE2(timer_gettime, timer_t, timer_id, struct __kernel_itimerspec __user *, setting)
SYSCALL_DEFINE1(timer_getoverrun, timer_t, timer_id)
SYSCALL_DEFINE1(timer_delete, timer_t, timer_id)
SYSCALL_DEFINE4(clock_nanosleep, const clockid_t, which_clock, int, flags,
		const struct __kernel_timespec __user *, rqtp, struct __kernel_timespec __user *,
		rmtp)
SYSCALL_DEFINE1(exit_group, int, error_code)
SYSCALL_DEFINE4(openat, int, dfd, const char __user *, filename, int, flags, umode_t, mode)
SYSCALL_DEFINE4(newfstatat, int, dfd, const char __user *, filename, struct stat __user *,
		statbuf, int, flag)
SYSCALL_DEFINE2(set_robust_list, struct robust_list_head __user *, head, size_t, len)
SYSCALL_DEFINE3(get_robust_list, int, pid, struct robust_list_head __user * __user *, head_ptr,
		size_t __user *, len_ptr)
SYSCALL_DEFINE3(dup3, unsigned int, oldfd, unsigned int, newfd, int, flags)
SYSCALL_DEFINE2(pipe2, int __user *, fildes, int, flags)
SYSCALL_DEFINE2(getrlimit, unsigned int, resource, struct rlimit __user *, rlim)
SYSCALL_DEFINE2(setrlimit, unsigned int, resource, struct rlimit __user *, rlim)
SYSCALL_DEFINE4(prlimit64, pid_t, pid, unsigned int, resource,
		const struct rlimit64 __user *, new_rlim, struct rlimit64 __user *, old_rlim)
SYSCALL_DEFINE3(getrandom, char __user *, ubuf, size_t, len, unsigned int, flags)
SYSCALL_DEFINE0(rt_sigreturn)
SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)
SYSCALL_DEFINE2(rt_sigpending, sigset_t __user *, uset, size_t, sigsetsize)
SYSCALL_DEFINE2(rt_sigsuspend, sigset_t __user *, unewset, size_t, sigsetsize)
SYSCALL_DEFINE4(rt_sigtimedwait, const sigset_t __user *, uthese, siginfo_t __user *, uinfo,
		const struct __kernel_timespec __user *, uts, size_t, sigsetsize)
SYSCALL_DEFINE2(tkill, pid_t, pid, int, sig)
SYSCALL_DEFINE0(restart_syscall)
SYSCALL_DEFINE6(futex, u32 __user *, uaddr, int, op, u32, val,
		const struct __kernel_timespec __user *, utime, u32 __user *, uaddr2, u32, val3)
SYSCALL_DEFINE3(tgkill, pid_t, tgid, pid_t, pid, int, sig)
SYSCALL_DEFINE3(rt_sigqueueinfo, pid_t, pid, int, sig, siginfo_t __user *, uinfo)
SYSCALL_DEFINE4(rt_tgsigqueueinfo, pid_t, tgid, pid_t, pid, int, sig, siginfo_t __user *, uinfo)
SYSCALL_DEFINE3(poll, struct pollfd __user *, ufds, unsigned int, nfds, int, timeout_msecs)
SYSCALL_DEFINE5(select, int, n, fd_set __user *, inp, fd_set __user *, outp,
		fd_set __user *, exp, struct __kernel_old_timeval __user *, tvp)
SYSCALL_DEFINE2(setpgid, pid_t, pid, pid_t, pgid)
SYSCALL_DEFINE0(getpgrp)
SYSCALL_DEFINE0(setsid)
SYSCALL_DEFINE1(getpgid, pid_t, pid)
SYSCALL_DEFINE1(getsid, pid_t, pid)
SYSCALL_DEFINE6(pselect6, int, n, fd_set __user *, inp, fd_set __user *, outp,
		fd_set __user *, exp, struct __kernel_timespec __user *, tsp, void __user *, sig)
SYSCALL_DEFINE5(ppoll, struct pollfd __user *, ufds, unsigned int, nfds,
		struct __kernel_timespec __user *, tsp, const sigset_t __user *, sigmask,
		size_t, sigsetsize)
SYSCALL_DEFINE3(socket, int, family, int, type, int, protocol)
SYSCALL_DEFINE4(socketpair, int, family, int, type, int, protocol, int __user *, usockvec)
SYSCALL_DEFINE3(bind, int, fd, struct sockaddr __user *, umyaddr, int, addrlen)
SYSCALL_DEFINE2(listen, int, fd, int, backlog)
SYSCALL_DEFINE3(connect, int, fd, struct sockaddr __user *, uservaddr, int, addrlen)
SYSCALL_DEFINE3(accept, int, fd, struct sockaddr __user *, upeer_sockaddr,
		int __user *, upeer_addrlen)
SYSCALL_DEFINE4(accept4, int, fd, struct sockaddr __user *, upeer_sockaddr,
		int __user *, upeer_addrlen, int, flags)
SYSCALL_DEFINE3(getsockname, int, fd, struct sockaddr __user *, usockaddr,
		int __user *, usockaddr_len)
SYSCALL_DEFINE3(getpeername, int, fd, struct sockaddr __user *, usockaddr,
		int __user *, usockaddr_len)
SYSCALL_DEFINE6(sendto, int, fd, void __user *, buff, size_t, len, unsigned int, flags,
		struct sockaddr __user *, addr, int, addr_len)
SYSCALL_DEFINE6(recvfrom, int, fd, void __user *, ubuf, size_t, size, unsigned int, flags,
		struct sockaddr __user *, addr, int __user *, addr_len)
SYSCALL_DEFINE3(sendmsg, int, fd, struct user_msghdr __user *, msg, unsigned int, flags)
SYSCALL_DEFINE3(recvmsg, int, fd, struct user_msghdr __user *, msg, unsigned int, flags)
SYSCALL_DEFINE4(sendmmsg, int, fd, struct mmsghdr __user *, mmsg, unsigned int, vlen,
		unsigned int, flags)
SYSCALL_DEFINE5(recvmmsg, int, fd, struct mmsghdr __user *, mmsg, unsigned int, vlen,
		unsigned int, flags, struct __kernel_timespec __user *, timeout)
SYSCALL_DEFINE2(shutdown, int, fd, int, how)
SYSCALL_DEFINE5(setsockopt, int, fd, int, level, int, optname, char __user *, optval, int, optlen)
SYSCALL_DEFINE5(getsockopt, int, fd, int, level, int, optname, char __user *, optval,
		int __user *, optlen)
SYSCALL_DEFINE4(sendfile64, int, out_fd, int, in_fd, loff_t __user *, offset, size_t, count)
SYSCALL_DEFINE3(syslog, int, type, char __user *, buf, int, len)
SYSCALL_DEFINE2(getgroups, int, gidsetsize, gid_t __user *, grouplist)
SYSCALL_DEFINE5(prctl, int, option, unsigned long, arg2, unsigned long, arg3, unsigned long, arg4,
		unsigned long, arg5)
SYSCALL_DEFINE1(time, __kernel_old_time_t __user *, tloc)
SYSCALL_DEFINE2(sched_setparam, pid_t, pid, struct sched_param __user *, param)
SYSCALL_DEFINE2(sched_getparam, pid_t, pid, struct sched_param __user *, param)
SYSCALL_DEFINE3(sched_setscheduler, pid_t, pid, int, policy, struct sched_param __user *, param)
SYSCALL_DEFINE3(sched_setattr, pid_t, pid, struct sched_attr __user *, uattr, unsigned int, flags)
SYSCALL_DEFINE4(sched_getattr, pid_t, pid, struct sched_attr __user *, uattr, unsigned int, usize,
		unsigned int, flags)
SYSCALL_DEFINE1(sched_getscheduler, pid_t, pid)
SYSCALL_DEFINE1(sched_get_priority_max, int, policy)
SYSCALL_DEFINE1(sched_get_priority_min, int, policy)
SYSCALL_DEFINE3(sched_setaffinity, pid_t, pid, unsigned int, len, unsigned long __user *,
		user_mask_ptr)
SYSCALL_DEFINE3(sched_getaffinity, pid_t, pid, unsigned int, len, unsigned long __user *,
		user_mask_ptr)
SYSCALL_DEFINE3(init_module, void __user *, umod, unsigned long, len, const char __user *, uargs)
SYSCALL_DEFINE2(delete_module, const char __user *, name_user, unsigned int, flags)
SYSCALL_DEFINE3(finit_module, int, fd, const char __user *, uargs, int, flags)

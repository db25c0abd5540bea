/*
 * The system calls' C functions, named as Linux names them (include/linux/syscalls.h). Each
 * takes its arguments as the registers carried them; arch/x86_64/syscall_64.c calls them from
 * its table. Where Linux splits a call into sys_NAME and ksys_NAME (so the kernel can call the
 * second itself), Lucid does too, so that traces read as Linux's.
 */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "lib/compiler.h"

#define __user /* a pointer into user memory: only uaccess.h's functions may follow it */

struct pt_regs;
struct task;

/* kernel/fs/read_write.c */
long sys_read(unsigned int fd, char __user *buf, size_t count);
long sys_write(unsigned int fd, const char __user *buf, size_t count);
long ksys_read(unsigned int fd, char __user *buf, size_t count);
long ksys_write(unsigned int fd, const char __user *buf, size_t count);
long sys_readv(unsigned long fd, const void __user *vec, unsigned long vlen);
long sys_writev(unsigned long fd, const void __user *vec, unsigned long vlen);
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
long ksys_pread64(unsigned int fd, char __user *buf, size_t count, long pos);
long ksys_pwrite64(unsigned int fd, const char __user *buf, size_t count, long pos);
long sys_pread64(unsigned int fd, char __user *buf, size_t count, long pos);
long sys_preadv(unsigned long fd, const void __user *vec, unsigned long vlen, unsigned long pos_l,
		unsigned long pos_h);
long sys_pwritev(unsigned long fd, const void __user *vec, unsigned long vlen, unsigned long pos_l,
		 unsigned long pos_h);
long sys_preadv2(unsigned long fd, const void __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h, int flags);
long sys_pwritev2(unsigned long fd, const void __user *vec, unsigned long vlen,
		  unsigned long pos_l, unsigned long pos_h, int flags);
long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, long pos);

/* kernel/fs/open.c */
struct stat;
typedef unsigned short umode_t;
long sys_open(const char __user *filename, int flags, umode_t mode);
long sys_creat(const char __user *pathname, umode_t mode);
long sys_openat(int dfd, const char __user *filename, int flags, umode_t mode);
long sys_close(unsigned int fd);
long sys_close_range(unsigned int fd, unsigned int max_fd, unsigned int flags);
long sys_lseek(unsigned int fd, long offset, unsigned int whence);
long sys_dup(unsigned int fildes);
long sys_dup2(unsigned int oldfd, unsigned int newfd);
long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long sys_pipe(int __user *fildes);
long sys_pipe2(int __user *fildes, int flags);
long sys_chdir(const char __user *filename);
long sys_fchdir(unsigned int fd);
long sys_getcwd(char __user *buf, unsigned long size);
long sys_mkdir(const char __user *pathname, umode_t mode);
long sys_rmdir(const char __user *pathname);
long sys_unlink(const char __user *pathname);
long sys_rename(const char __user *oldname, const char __user *newname);
long sys_newstat(const char __user *filename, struct stat __user *statbuf);
long sys_newlstat(const char __user *filename, struct stat __user *statbuf);
long sys_newfstat(unsigned int fd, struct stat __user *statbuf);
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag);
long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode);
long sys_unlinkat(int dfd, const char __user *pathname, int flag);
long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname);
long sys_renameat2(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		   unsigned int flags);
long sys_umask(int mask);
long sys_chmod(const char __user *filename, umode_t mode);
long sys_fchmod(unsigned int fd, umode_t mode);
long sys_fchmodat(int dfd, const char __user *filename, umode_t mode);
long sys_truncate(const char __user *path, long length);
long sys_access(const char __user *filename, int mode);
long sys_faccessat(int dfd, const char __user *filename, int mode);
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags);
long sys_symlink(const char __user *oldname, const char __user *newname);
long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname);
long sys_readlink(const char __user *path, char __user *buf, int bufsiz);
long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz);
long sys_ftruncate(unsigned int fd, unsigned long length);
struct timespec64;
long sys_utimensat(int dfd, const char __user *filename, const struct timespec64 __user *utimes,
		   int flags);

/* kernel/fs/readdir.c */
long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count);

/* kernel/sys.c */
long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
struct statfs;
long sys_statfs(const char __user *pathname, struct statfs __user *buf);
long sys_fstatfs(unsigned int fd, struct statfs __user *buf);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_newuname(void __user *name);
long sys_set_tid_address(int __user *tidptr);

long sys_getrandom(char __user *buf, size_t count, unsigned int flags);
long sys_set_robust_list(void __user *head, size_t len);
long sys_get_robust_list(int pid, unsigned long __user *head_ptr, size_t __user *len_ptr);
long sys_prlimit64(int pid, unsigned int resource, const void __user *new_rlim,
		   void __user *old_rlim);
long sys_getrlimit(unsigned int resource, void __user *rlim);
long sys_setrlimit(unsigned int resource, const void __user *rlim);
long sys_sched_yield(void);

/* kernel/net/socket.c */
struct user_msghdr;
long sys_socket(int family, int type, int protocol);
long sys_socketpair(int family, int type, int protocol, int __user *usockvec);
long sys_bind(int fd, void __user *umyaddr, int addrlen);
long sys_listen(int fd, int backlog);
long sys_connect(int fd, void __user *uservaddr, int addrlen);
long sys_accept(int fd, void __user *upeer_sockaddr, int __user *upeer_addrlen);
long sys_accept4(int fd, void __user *upeer_sockaddr, int __user *upeer_addrlen, int flags);
long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len);
long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len);
long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags, void __user *addr,
		int addr_len);
long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags, void __user *addr,
		  int __user *addr_len);
long sys_sendmsg(int fd, struct user_msghdr __user *msg, unsigned int flags);
long sys_recvmsg(int fd, struct user_msghdr __user *msg, unsigned int flags);
struct mmsghdr;
struct timespec_user;
long sys_sendmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags);
long sys_recvmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags,
		  struct timespec_user __user *timeout);
long sys_shutdown(int fd, int how);
long sys_setsockopt(int fd, int level, int optname, void __user *optval, int optlen);
long sys_getsockopt(int fd, int level, int optname, void __user *optval, int __user *optlen);

/* kernel/reboot.c, kernel/fs/sync.c, kernel/fs/mount.c */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg);
long sys_sync(void);
long sys_fsync(unsigned int fd);
long sys_fdatasync(unsigned int fd);
long sys_fchownat(int dfd, const char __user *filename, unsigned int user, unsigned int group,
		  int flag); /* the chowns: kernel/fs/open.c */
long sys_chown(const char __user *filename, unsigned int user, unsigned int group);
long sys_lchown(const char __user *filename, unsigned int user, unsigned int group);
long sys_fchown(unsigned int fd, unsigned int user, unsigned int group);
long sys_mount(char __user *dev_name, char __user *dir_name, char __user *type,
	       unsigned long flags, void __user *data);
long sys_umount(char __user *name, int flags);

/* kernel/session.c */
long sys_setsid(void);
long sys_getsid(int pid);
long sys_setpgid(int pid, int pgid);
long sys_getpgid(int pid);
long sys_getpgrp(void);

/* kernel/fs/select.c */
long sys_poll(void __user *ufds, unsigned int nfds, int timeout_msecs);
long sys_ppoll(void __user *ufds, unsigned int nfds, const void __user *tsp,
	       const uint64_t __user *sigmask, size_t sigsetsize);
long sys_select(int n, void __user *inp, void __user *outp, void __user *exp,
		void __user *tvp);
long sys_pselect6(int n, void __user *inp, void __user *outp, void __user *exp,
		  void __user *tsp, void __user *sig);
long sys_sysinfo(void __user *info);
long sys_rseq(void __user *rseq, uint32_t rseq_len, int flags, uint32_t sig);
long sys_getgroups(int gidsetsize, unsigned int __user *grouplist);
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5);
long sys_sched_setaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr);
struct sched_param;
long sys_sched_setparam(int pid, struct sched_param __user *param);
long sys_sched_getparam(int pid, struct sched_param __user *param);
long sys_sched_setscheduler(int pid, int policy, struct sched_param __user *param);
struct sched_attr;
long sys_sched_setattr(int pid, struct sched_attr __user *uattr, unsigned int flags);
long sys_sched_getattr(int pid, struct sched_attr __user *uattr, unsigned int usize,
		       unsigned int flags);
long sys_sched_getscheduler(int pid);
long sys_sched_get_priority_max(int policy);
long sys_sched_get_priority_min(int policy);
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr);
long sys_syslog(int type, char __user *buf, int len); /* kernel/printk.c */
long sys_sendfile64(int out_fd, int in_fd, long __user *offset, size_t count); /* read_write.c */
long sys_splice(int fd_in, long __user *off_in, int fd_out, long __user *off_out, size_t len,
		unsigned int flags); /* kernel/fs/splice.c */

/* kernel/time/time.c */
struct __kernel_timespec;
struct __kernel_old_timeval;
long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp);
long sys_clock_getres(int which_clock, struct __kernel_timespec __user *tp);
long sys_gettimeofday(struct __kernel_old_timeval __user *tv, void __user *tz);
long sys_clock_settime(int which_clock, const struct __kernel_timespec __user *tp);
struct timezone;
long sys_settimeofday(const struct __kernel_old_timeval __user *tv,
		      const struct timezone __user *tz);
/* kernel/time/ntp.c */
struct __kernel_timex;
long sys_adjtimex(struct __kernel_timex __user *utx);
long sys_clock_adjtime(int which_clock, struct __kernel_timex __user *utx);
long sys_nanosleep(const struct __kernel_timespec __user *rqtp,
		   struct __kernel_timespec __user *rmtp);
long sys_clock_nanosleep(int which_clock, int flags, const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp);
long sys_restart_syscall(void);
long sys_time(long __user *tloc);
/* kernel/time/posix-timers.c */
struct sigevent_user;
struct __kernel_itimerspec;
long sys_timer_create(int which_clock, const struct sigevent_user __user *uev,
		      int __user *created_timer_id);
long sys_timer_settime(int timer_id, int flags, const struct __kernel_itimerspec __user *unew,
		       struct __kernel_itimerspec __user *uold);
long sys_timer_gettime(int timer_id, struct __kernel_itimerspec __user *setting);
long sys_timer_getoverrun(int timer_id);
long sys_timer_delete(int timer_id);
/* kernel/fs/pidfd.c */
long sys_pidfd_open(int pid, unsigned int flags);
long sys_pidfd_send_signal(int pidfd, int sig, const void __user *info, unsigned int flags);
long sys_mknodat(int dfd, const char __user *filename, umode_t mode, unsigned int dev);
long sys_mknod(const char __user *filename, umode_t mode, unsigned int dev);
long sys_getcpu(unsigned int __user *cpup, unsigned int __user *nodep, void __user *unused);
long sys_membarrier(int cmd, unsigned int flags, int cpu_id); /* kernel/sched/membarrier.c */
long sys_unshare(unsigned long unshare_flags); /* kernel/fork.c */
struct open_how;
long sys_openat2(int dfd, const char __user *filename, struct open_how __user *how, size_t usize);
/* kernel/mm/process_vm_access.c */
struct iovec;
long sys_process_vm_readv(int pid, const struct iovec __user *lvec, unsigned long liovcnt,
			  const struct iovec __user *rvec, unsigned long riovcnt,
			  unsigned long flags);
long sys_process_vm_writev(int pid, const struct iovec __user *lvec, unsigned long liovcnt,
			   const struct iovec __user *rvec, unsigned long riovcnt,
			   unsigned long flags);
/* kernel/mm/memfd.c */
long sys_memfd_create(const char __user *uname, unsigned int flags);
/* kernel/fs/eventfd.c */
long sys_eventfd(unsigned int count);
long sys_eventfd2(unsigned int count, int flags);
/* kernel/fs/signalfd.c and timerfd.c */
long sys_signalfd(int ufd, const uint64_t __user *user_mask, size_t sizemask);
long sys_signalfd4(int ufd, const uint64_t __user *user_mask, size_t sizemask, int flags);
struct itimerspec64;
long sys_timerfd_create(int clockid, int flags);
long sys_timerfd_settime(int ufd, int flags, const struct itimerspec64 __user *utmr,
			 struct itimerspec64 __user *otmr);
long sys_timerfd_gettime(int ufd, struct itimerspec64 __user *otmr);
/* kernel/fs/eventpoll.c */
struct epoll_event;
struct timespec64;
long sys_epoll_create(int size);
long sys_epoll_create1(int flags);
long sys_epoll_ctl(int epfd, int op, int fd, struct epoll_event __user *event);
long sys_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents, int timeout);
long sys_epoll_pwait(int epfd, struct epoll_event __user *events, int maxevents, int timeout,
		     const uint64_t __user *sigmask, size_t sigsetsize);
long sys_epoll_pwait2(int epfd, struct epoll_event __user *events, int maxevents,
		      const struct timespec64 __user *timeout, const uint64_t __user *sigmask,
		      size_t sigsetsize);
/* kernel/time/itimer.c */
long sys_alarm(unsigned int seconds);
struct itimerval;
long sys_getitimer(int which, struct itimerval __user *value);
long sys_setitimer(int which, const struct itimerval __user *value,
		   struct itimerval __user *ovalue);
/* kernel/sched/cputime.c */
struct rusage;
struct tms;
long sys_getrusage(int who, struct rusage __user *ru);
long sys_times(struct tms __user *tbuf);

/* kernel/exit.c */
long sys_exit(int error_code);
long sys_exit_group(int error_code);
void __noreturn do_exit(int code); /* code: wait4's status word */
/* pid 1, which adopts orphans: init, or the rescue console (kernel/shell/shell.c). */
extern struct task *child_reaper;
long sys_wait4(int upid, int __user *stat_addr, int options, void __user *ru);
long sys_waitid(int which, int upid, void __user *infop, int options, void __user *ru);
void forget_original_parent(struct task *p);
void release_self(struct task *t); /* t, a kernel thread's child, ends unreaped */
/* Frees p's children that exited while it ignored SIGCHLD (fork, before it counts p's). */
void reap_ignored_children(struct task *p);

/* kernel/fork.c */
long sys_fork(void);
long sys_vfork(void);
long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls);
struct clone_args;
long sys_clone3(struct clone_args __user *uargs, size_t size);
void mm_release(struct task *t);      /* t execed or exits: its vfork parent goes on */
struct mm_struct;
struct fpu;
/* t's memory and FPU area become mm and fpu (execve's; NULL at exit), the old ones dropped. */
void task_replace_mm(struct task *t, struct mm_struct *mm, struct fpu *fpu);
void set_child_subreaper(bool on);    /* prctl(PR_SET_CHILD_SUBREAPER) */
int max_user_procs(void);             /* processes at once (RLIMIT_NPROC) */
extern int nr_user_procs;              /* processes now: counted in by fork, out by a reap */
/*
 * A fault in user mode that nothing fixes: the process's handler for sig runs, or the one-line
 * report, then the process dies.
 */
void force_sig_fault(struct pt_regs *regs, int sig, unsigned long addr);
/*
 * The same with the siginfo given, and what the handler's sigcontext says of the fault (the
 * CPU's vector and error code): the #DB of a single step, the #GP of a return to a
 * non-canonical address (arch/x86_64/signal.c).
 */
struct ksiginfo;
void force_sig_trap(struct pt_regs *regs, const struct ksiginfo *info, unsigned long trap_nr,
		    unsigned long error_code);

/* kernel/signal.c */
struct k_sigaction;
long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize);
long sys_rt_sigprocmask(int how, const uint64_t __user *set, uint64_t __user *oset,
			size_t sigsetsize);
long sys_rt_sigpending(uint64_t __user *uset, size_t sigsetsize);
long sys_rt_sigsuspend(const uint64_t __user *unewset, size_t sigsetsize);
long sys_rt_sigtimedwait(const uint64_t __user *uthese, void __user *uinfo,
			 const struct __kernel_timespec __user *uts, size_t sigsetsize);
long sys_pause(void);
long sys_kill(int pid, int sig);
long sys_tkill(int pid, int sig);
long sys_tgkill(int tgid, int pid, int sig);
long sys_rt_sigqueueinfo(int pid, int sig, const void __user *uinfo);
long sys_rt_tgsigqueueinfo(int tgid, int pid, int sig, const void __user *uinfo);
long sys_futex(uint32_t __user *uaddr, int op, uint32_t val, const void __user *utime,
	       uint32_t __user *uaddr2, uint32_t val3);

/* arch/x86_64/signal.c */
long sys_rt_sigreturn(void);
struct sigaltstack; /* stack_t, kernel/signal.h */
long sys_sigaltstack(const struct sigaltstack __user *uss, struct sigaltstack __user *uoss);

/* arch/x86_64/process_64.c */
long sys_arch_prctl(int option, unsigned long arg2);

/* kernel/fs/exec.c: run a program in the calling kernel thread; returns only on failure. */
int kernel_execve(const char *filename, char *const argv[], char *const envp[]);
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp);
#define PROGRAM_PATH_MAX 256 /* init=PATH's path */

/* kernel/module/main.c: the module loader's calls (kmod's insmod, rmmod). */
long sys_init_module(void __user *umod, unsigned long len, const char __user *uargs);
long sys_finit_module(int fd, const char __user *uargs, int flags);
long sys_delete_module(const char __user *name_user, unsigned int flags);

#endif

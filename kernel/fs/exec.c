/*
 * exec: a kernel thread becomes a user program.
 *
 * Lucid's processes start as Linux's first one does (kernel_execve from a kernel thread): the
 * shell runs each command of a pipeline in a thread of its own (kernel/shell/sh_exec.c) with the
 * command's fds in place; for a program on disk, that thread calls kernel_execve(), which
 *	1. checks the file (kernel/fs/binfmt_elf.c: an x86_64 ELF program; a dynamic one names
 *	   its interpreter, ld.so, which is read and loaded too: load_elf_interp),
 *	2. builds a new address space: each PT_LOAD segment an area with its permissions that
 *	   maps the file's own pages, faulted in as the program touches them (a ramfs file: its
 *	   pages are the page cache; kernel/mm/filemap.c), or for any other file, copied into
 *	   fresh pages; an empty heap after the highest segment; a stack below STACK_TOP holding
 *	   argv, envp and the auxiliary vector (build_user_stack),
 *	3. past the point of no return, makes them the thread's: its mm, a fresh FPU state, its
 *	   name (comm) the file's name, and leaves for ring 3 at the entry point (start_thread).
 * Failures before 3 free what was built and return the error; the thread is unchanged.
 * docs/design/exec.md tells the story with the stack's picture.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/binfmt_elf.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/signal.h"
#include "kernel/fs/vfs.h"
#include "kernel/drivers/random.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/timer.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/events/sched.h"
#include "trace/trace.h"
#include "lib/printf.h"
#include "kernel/shell/stdio.h"

#define EXEC_MAX_FILE (16UL << 20) /* the largest program Lucid reads whole */
#define ARG_PAGES 8 /* argv, envp and auxv must fit in 32 KiB */
#define USER_HZ 100 /* AT_CLKTCK: the unit of times() and /proc's ticks */
#define S_IXUGO 0111

DEFINE_TRACE(sched_process_exec); /* trace/events/sched.h */

/* Opens the program and checks it may run; returns the fd (its size in *size) or the error. */
static int open_program(const char *filename, size_t *size)
{
	struct kstat st;
	int fd = vfs_open(filename, O_RDONLY, 0);
	int err;

	if (fd < 0)
		return fd;
	err = vfs_fstat(fd, &st);
	if (!err && (!S_ISREG(st.mode) || !(st.mode & S_IXUGO)))
		err = -EACCES; /* Linux's answer for a directory or a file without x too */
	if (!err && (uint64_t)st.size > EXEC_MAX_FILE)
		err = -ENOMEM;
	if (err) {
		vfs_close(fd);
		return err;
	}
	*size = (size_t)st.size;
	return fd;
}

/* Reads the whole file into pages; returns them (*npages of them) or NULL with *err. */
static void *read_program(int fd, size_t size, size_t *npages, int *err)
{
	*npages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	void *buf = alloc_pages(*npages ? *npages : 1);
	size_t got = 0;

	*err = buf ? 0 : -ENOMEM;
	while (buf && got < size) {
		ssize_t n = vfs_read(fd, (char *)buf + got, size - got);
		if (n <= 0) {
			*err = n < 0 ? (int)n : -EIO;
			break;
		}
		got += (size_t)n;
	}
	if (*err) {
		free_pages(buf, *npages ? *npages : 1);
		return NULL;
	}
	return buf;
}

/*
 * Can the segments map the file's pages as they are? Each must have a page of its own: two
 * that share one (a small program linked without page alignment) need it built from both, so
 * such a program is copied in whole. (elf_parse already checked that each segment's file
 * offset and address agree within a page, and the ELF rules keep PT_LOADs in address order.)
 */
static bool segments_mappable(const struct elf_info *elf)
{
	for (int i = 1; i < elf->nsegs; i++) {
		const struct elf_segment *prev = &elf->segs[i - 1];

		if (ALIGN_DOWN(elf->segs[i].vaddr, PAGE_SIZE) <
		    ALIGN_UP(prev->vaddr + prev->memsz, PAGE_SIZE))
			return false;
	}
	return true;
}

/*
 * The program's headers from the first page of fp, the file's pages (ramfs): 0 if they are
 * there and the segments can map the pages, else the caller reads the file whole.
 */
static int parse_mapped(const struct file_pages *fp, size_t size, uint64_t base,
			struct elf_info *elf)
{
	const void *first = file_pages_page(fp, 0);

	if (!first)
		return -ENOEXEC; /* empty, or a hole where the header should be */
	int err = elf_parse_headers(first, MIN(size, PAGE_SIZE), size, base, elf);

	return err ? err : segments_mappable(elf) ? 0 : -EINVAL;
}

/*
 * An ELF file as exec loads it: its pages (fp, a ramfs file: the segments map them), or, for
 * any other file or one whose segments cannot map its pages, its bytes read whole (bytes,
 * npages pages of them).
 */
struct elf_file {
	size_t size;
	struct file_pages *fp;
	uint8_t *bytes;
	size_t npages;
};

/* The headers parsed again with the lowest page at base (ELF_ET_DYN_BASE for a PIE at first). */
static int elf_file_parse(struct elf_file *f, uint64_t base, struct elf_info *elf)
{
	return f->fp ? parse_mapped(f->fp, f->size, base, elf)
		     : elf_parse(f->bytes, f->size, base, elf);
}

/*
 * Takes the f->size bytes of the file open at fd: its pages if they will do, else a copy;
 * then parses the headers. On an error, what was taken is still for elf_file_put.
 */
static int elf_file_get(int fd, uint64_t base, struct elf_info *elf, struct elf_file *f)
{
	int err;

	f->fp = vfs_mmap_pages(fd, &err);
	if (f->fp && !parse_mapped(f->fp, f->size, base, elf))
		return 0;
	file_pages_put(f->fp);
	f->fp = NULL;
	f->bytes = read_program(fd, f->size, &f->npages, &err);
	return f->bytes ? elf_parse(f->bytes, f->size, base, elf) : err;
}

static void elf_file_put(struct elf_file *f)
{
	file_pages_put(f->fp);
	if (f->bytes)
		free_pages(f->bytes, f->npages ? f->npages : 1);
	f->fp = NULL;
	f->bytes = NULL;
}

/* Copies len bytes to user address va of mm, whose pages are all mapped: through the direct map. */
static void copy_to_mm(struct mm_struct *mm, unsigned long va, const void *src, size_t len)
{
	const uint8_t *s = src;

	while (len) {
		size_t in_page = MIN(len, PAGE_SIZE - (va & (PAGE_SIZE - 1)));
		uint8_t *page = mmu_user_page(mm->pgd, ALIGN_DOWN(va, PAGE_SIZE), NULL);

		memcpy(page + (va & (PAGE_SIZE - 1)), s, in_page);
		va += in_page;
		s += in_page;
		len -= in_page;
	}
}

/* The code's bounds, as Linux's mm keeps them: /proc/PID/stat shows them. */
static void note_segment(struct mm_struct *mm, const struct elf_segment *seg)
{
	if (seg->vaddr < mm->start_code || !mm->start_code)
		mm->start_code = seg->vaddr;
	if (seg->flags & PF_X)
		mm->end_code = MAX(mm->end_code, seg->vaddr + seg->memsz);
}

static unsigned long segment_vm_flags(const struct elf_segment *seg)
{
	return VM_READ | (seg->flags & PF_W ? VM_WRITE : 0) | (seg->flags & PF_X ? VM_EXEC : 0);
}

/*
 * Each segment an area mapping the file's own pages (fp), as Linux's elf_map does: nothing is
 * copied or mapped now; a page comes when the program first touches it (kernel/mm/memory.c),
 * the text shared read-only with every other process running the program, the data copied on
 * its first write. A segment with a bss has its file's bytes end at vaddr + filesz: the page
 * there is copied with zeroes after them, and the pages past it are zeroed ones.
 */
static int map_segments(struct mm_struct *mm, const struct elf_info *elf, struct file_pages *fp,
			struct vma_name *name)
{
	for (int i = 0; i < elf->nsegs; i++) {
		const struct elf_segment *seg = &elf->segs[i];
		unsigned long start = ALIGN_DOWN(seg->vaddr, PAGE_SIZE);
		unsigned long end = ALIGN_UP(seg->vaddr + seg->memsz, PAGE_SIZE);
		unsigned long file_end = seg->memsz > seg->filesz ? seg->vaddr + seg->filesz : end;
		int err = 0;

		if (start < end)
			err = insert_file_vma(mm, start, end, segment_vm_flags(seg), VMA_ELF,
					      seg->filesz ? fp : NULL,
					      (seg->offset - (seg->vaddr - start)) / PAGE_SIZE,
					      file_end, name);
		if (err)
			return err;
		note_segment(mm, seg);
	}
	return 0;
}

/* Each segment copied into fresh pages: for a file that is not in pages (9p), or odd segments. */
static int load_segments(struct mm_struct *mm, const struct elf_info *elf, const uint8_t *file,
			 struct vma_name *name)
{
	for (int i = 0; i < elf->nsegs; i++) {
		const struct elf_segment *seg = &elf->segs[i];
		int flags =
			(seg->flags & PF_W ? MMU_WRITE : 0) | (seg->flags & PF_X ? MMU_EXEC : 0);
		unsigned long start = ALIGN_DOWN(seg->vaddr, PAGE_SIZE);
		unsigned long end = ALIGN_UP(seg->vaddr + seg->memsz, PAGE_SIZE);
		/* The pages with the file's bytes now; the bss's pages past them come on demand. */
		unsigned long file_end = ALIGN_UP(seg->vaddr + seg->filesz, PAGE_SIZE);
		int err = mm_map_zeroed(mm, start, file_end, flags);
		struct vm_area_struct *prev = find_vma(mm, start);

		/* Its area: from where the one before ends, if they share a page. */
		if (prev && prev->vm_start < start)
			start = prev->vm_end;
		if (!err && start < end)
			err = insert_file_vma(mm, start, end, segment_vm_flags(seg), VMA_ELF, NULL,
					      0, 0, name);
		if (err)
			return err;
		copy_to_mm(mm, seg->vaddr, file + seg->offset, seg->filesz);
		note_segment(mm, seg);
	}
	return 0;
}

/*
 * A dynamic program's interpreter (Linux's load_elf_interp): the file PT_INTERP names, itself
 * an ELF program (Debian's ld-linux-x86-64.so.2 is ET_DYN, linked at 0), loaded into mm with the
 * same load_segments as the program. An ET_DYN interpreter goes just below mm->mmap_base, where
 * Linux's first mmap would put it, so the libraries it then maps go below it, top-down. Returns
 * its load bias (AT_BASE) and entry point, where the program starts. Linux's errors: the path's
 * own (ENOENT, EACCES), ELIBBAD for a file that is not an x86_64 ELF program.
 */
static int load_elf_interp(struct mm_struct *mm, const char *path, uint64_t *base, uint64_t *entry)
{
	struct elf_info *elf = kmalloc(sizeof(*elf));
	struct elf_file f = {0};
	char *realpath = kmalloc(PATH_MAX);
	struct vma_name *name = NULL;
	int err;

	if (!elf || !realpath) {
		kfree(elf);
		kfree(realpath);
		return -ENOMEM;
	}
	int fd = open_program(path, &f.size);
	if (fd < 0) {
		kfree(elf);
		kfree(realpath);
		return fd;
	}
	/* Its areas are named by the file's own path, as Linux's maps shows the loader. */
	if (vfs_fd_path(fd, realpath, PATH_MAX) >= 0)
		name = vma_name_new(realpath);
	kfree(realpath);
	err = elf_file_get(fd, ELF_ET_DYN_BASE, elf, &f);
	vfs_close(fd);
	if (!err && elf->type == ET_DYN) {
		/*
		 * Parsed once to learn its size (its lowest page went to ELF_ET_DYN_BASE), again at
		 * the base that leaves room for it below mmap_base.
		 */
		uint64_t span = ALIGN_UP(elf->end, PAGE_SIZE) - ELF_ET_DYN_BASE;

		err = span < mm->mmap_base - ELF_ET_DYN_BASE ? 0 : -ENOMEM;
		if (!err)
			err = elf_file_parse(&f, mm->mmap_base - span, elf);
	}
	if (err == -ENOEXEC)
		err = -ELIBBAD; /* not an interpreter Lucid can run */
	if (!err) {
		/* The program's code stays what /proc/PID/stat's startcode and endcode show. */
		unsigned long start_code = mm->start_code, end_code = mm->end_code;

		err = f.fp ? map_segments(mm, elf, f.fp, name) : load_segments(mm, elf, f.bytes, name);
		mm->start_code = start_code;
		mm->end_code = end_code;
	}
	if (!err) {
		*base = elf->load_bias;
		*entry = elf->entry;
	}
	elf_file_put(&f); /* the areas hold their own references */
	vma_name_put(name);
	kfree(elf);
	return err;
}

#define CPUID_LEAF_FEATURES 1 /* EDX: the feature bits Linux's ELF_HWCAP gives (x86's AT_HWCAP) */

static uint64_t cpuid_hwcap(void)
{
	uint32_t a, b, c, d;

	cpuid(CPUID_LEAF_FEATURES, 0, &a, &b, &c, &d);
	return d;
}

static int setup_stack(struct mm_struct *mm, const struct elf_info *elf, uint64_t interp_base,
		       const char *filename, char *const argv[], char *const envp[],
		       struct exec_stack_layout *lay)
{
	uint8_t *buf = alloc_pages(ARG_PAGES);
	struct exec_stack_info info = {
		.elf = elf,
		.execfn = filename,
		.platform = "x86_64",
		.hwcap = cpuid_hwcap(),
		.clktck = USER_HZ,
		.interp_base = interp_base,
	};
	size_t size = ARG_PAGES * PAGE_SIZE;

	if (!buf)
		return -ENOMEM;
	get_random_bytes(info.random, sizeof(info.random)); /* AT_RANDOM: 16 bytes */
	int err = build_user_stack(buf, size, STACK_TOP, argv, envp, &info, lay);
	/*
	 * The stack's area: the pages in use (the words and strings between sp and the top),
	 * mapped now, and STACK_EXPAND below them that will come on demand, as Linux's
	 * setup_arg_pages leaves it; below that the area grows on faults (kernel/mm/memory.c).
	 */
	size_t used = STACK_TOP - ALIGN_DOWN(lay->sp, PAGE_SIZE);
	if (!err)
		err = mm_map_zeroed(mm, STACK_TOP - used, STACK_TOP, MMU_WRITE);
	if (!err)
		err = insert_vma(mm, STACK_TOP - used - STACK_EXPAND, STACK_TOP,
				 VM_READ | VM_WRITE | VM_GROWSDOWN, VMA_STACK);
	if (!err)
		copy_to_mm(mm, STACK_TOP - used, buf + size - used, used);
	free_pages(buf, ARG_PAGES);
	return err;
}

static const char *kbasename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The work of exec. args, if not NULL, is what sys_execve copied the strings into (two runs of
 * ARG_PAGES pages): past the point of no return nothing needs them, and nothing would free
 * them after, so this does.
 */
static int do_execve(const char *filename, char *const argv[], char *const envp[], void *args[2])
{
	struct task *t = current;
	struct elf_info *elf = kmalloc(sizeof(*elf));
	struct elf_file f = {0};
	struct exec_stack_layout lay;
	int err;

	if (!elf)
		return -ENOMEM;
	int fd = open_program(filename, &f.size);
	if (fd < 0) {
		kfree(elf);
		return fd;
	}
	/* A file in pages (ramfs) is mapped, as Linux maps its page cache; any other is read. */
	err = elf_file_get(fd, ELF_ET_DYN_BASE, elf, &f);
	vfs_close(fd);
	if (!f.fp && !f.bytes) {
		kfree(elf);
		return err;
	}
	struct mm_struct *mm = err ? NULL : mm_alloc();
	struct fpu *fpu = mm ? fpu_alloc() : NULL;
	struct sighand_struct *sighand = fpu ? sighand_alloc() : NULL;
	if (!err && (!mm || !fpu || !sighand))
		err = -ENOMEM;
	if (!err)
		err = f.fp ? map_segments(mm, elf, f.fp, NULL) : load_segments(mm, elf, f.bytes, NULL);
	/* A dynamic program starts in its interpreter, which is told where the program is. */
	uint64_t interp_base = 0, entry = err ? 0 : elf->entry;
	if (!err && elf->interp_len) {
		/* Its path: in the bytes read, or in the first page (parse_mapped checked it). */
		const char *interp = (const char *)(f.bytes ? f.bytes : file_pages_page(f.fp, 0));

		err = load_elf_interp(mm, interp + elf->interp_offset, &interp_base, &entry);
	}
	if (!err)
		err = setup_stack(mm, elf, interp_base, filename, argv, envp, &lay);
	elf_file_put(&f); /* the areas hold their own references */
	if (err) {
		mmput(mm);
		if (fpu)
			fpu_free(fpu);
		sighand_free(sighand);
		kfree(elf);
		return err;
	}

	/* The point of no return: the thread becomes the program. */
	mm->start_brk = mm->brk = ALIGN_UP(elf->end, PAGE_SIZE);
	mm->start_stack = lay.sp;
	mm->arg_start = lay.arg_start;
	mm->arg_end = lay.arg_end;
	mm->env_start = lay.env_start;
	mm->env_end = lay.env_end;
	/* The file itself, as Linux's /proc/PID/exe names it: /bin/sh runs /bin/busybox. */
	if (vfs_realpath(filename, mm->exe_path, sizeof(mm->exe_path)) < 0)
		strlcpy(mm->exe_path, filename, sizeof(mm->exe_path));
	kfree(elf);
	struct mm_struct *old_mm = t->mm; /* execve from a program: its old self goes */
	struct fpu *old_fpu = t->fpu;
	local_irq_disable(); /* a switch now must see all of it or none */
	/* Under the lock /proc/PID reads its memory with (kernel/fs/proc/base.c). */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	t->mm = mm;
	spin_unlock_irqrestore(&task_list_lock, flags);
	t->fpu = fpu;
	switch_mm(mm);
	local_irq_enable();
	mm_release(t); /* a vfork child: its parent's memory is its parent's again */
	mmput(old_mm); /* a vfork child's: only its share of it */
	if (old_fpu)
		fpu_free(old_fpu);
	strlcpy(t->comm, kbasename(filename), sizeof(t->comm));
	tracing_task_renamed(t); /* the trace's TASK column names it anew */
	vfs_close_on_exec(); /* O_CLOEXEC and FD_CLOEXEC descriptors end with the old program */
	trace_sched_process_exec(t, t->pid, filename); /* one thread: the pid stays */
	if (args) {
		free_pages(args[0], ARG_PAGES);
		free_pages(args[1], ARG_PAGES);
	}
	/* Handled signals back to their default; ignored ones and the mask stay, as Linux's. */
	attach_sighand(t, sighand);
	t->execed = true;
	local_irq_disable();
	t->fsbase = 0;
	start_thread(entry, lay.sp);
}

int kernel_execve(const char *filename, char *const argv[], char *const envp[])
{
	return do_execve(filename, argv, envp, NULL);
}

/*
 * execve from a program: the file name, argv and envp are copied in from user memory (they
 * live in the address space about to be replaced), at most ARG_PAGES of them together.
 */
#define MAX_ARG_STRINGS 1024

/* Copies the NULL-terminated vector uvec of user strings into block at *used; NULL-ended. */
static long copy_strings(const char __user *const __user *uvec, char **vec, char *block,
			 size_t *used, size_t size)
{
	int n = 0;

	for (; uvec; n++) {
		const char __user *ustr;

		if (n == MAX_ARG_STRINGS)
			return -E2BIG;
		if (copy_from_user(&ustr, &uvec[n], sizeof(ustr)))
			return -EFAULT;
		if (!ustr)
			break;
		long len = strncpy_from_user(block + *used, ustr, (long)(size - *used));
		if (len < 0)
			return len;
		if ((size_t)len == size - *used)
			return -E2BIG;
		vec[n] = block + *used;
		*used += (size_t)len + 1;
	}
	vec[n] = NULL;
	return 0;
}

long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	size_t size = ARG_PAGES * PAGE_SIZE, used = 0;
	char *block = alloc_pages(ARG_PAGES);
	char **vecs = alloc_pages(ARG_PAGES); /* argv's pointers, then envp's */
	long err = -ENOMEM;

	if (block && vecs) {
		char **kargv = vecs, **kenvp = vecs + MAX_ARG_STRINGS + 1;
		long len = strncpy_from_user(block, filename, PATH_MAX);

		err = len < 0 ? len : len == 0 ? -ENOENT : len == PATH_MAX ? -ENAMETOOLONG : 0;
		used = (size_t)len + 1;
		if (!err)
			err = copy_strings(argv, kargv, block, &used, size);
		if (!err)
			err = copy_strings(envp, kenvp, block, &used, size);
		void *args[2] = {block, vecs};
		if (!err)
			err = do_execve(block, kargv, kenvp, args); /* returns only on failure */
	}
	if (block)
		free_pages(block, ARG_PAGES);
	if (vecs)
		free_pages(vecs, ARG_PAGES);
	return err;
}

/*
 * The kernel shell's side (kernel/shell/sh_exec.c): a command that is not one of the shell's own runs
 * as a program if it names a file, either by a path with a slash or as /bin/NAME (PATH=/bin).
 */
#define STATUS_NOT_FOUND 127 /* bash's statuses: no such command... */
#define STATUS_CANNOT_EXEC 126 /* ... or a file that cannot be run */

static char *const default_envp[] = {"HOME=/root", "PATH=/bin", "TERM=linux", NULL};

bool find_program(const char *name, char *path, size_t size)
{
	struct kstat st;

	if (strchr(name, '/')) {
		strlcpy(path, name, size);
		return true; /* run_program reports what is wrong with it */
	}
	if (!name[0] || snprintf(path, size, "/bin/%s", name) >= (int)size)
		return false;
	return vfs_stat(path, &st) == 0 && S_ISREG(st.mode);
}

/* Runs path in this thread, or prints bash's message and returns its status. */
int run_program(const char *path, char *const argv[])
{
	struct kstat st;
	int err;

	if (vfs_stat(path, &st) == 0 && S_ISDIR(st.mode))
		err = -EISDIR; /* bash checks this itself: Linux says only EACCES */
	else
		err = kernel_execve(path, argv, default_envp);
	if (err == -ENOEXEC)
		dprintf(STDERR_FILENO, "sh: %s: cannot execute binary file: %s\n", argv[0],
			errno_text(ENOEXEC));
	else
		dprintf(STDERR_FILENO, "sh: %s: %s\n", argv[0], errno_text(-err));
	return err == -ENOENT ? STATUS_NOT_FOUND : STATUS_CANNOT_EXEC;
}

/*
 * exec: a kernel thread becomes a user program.
 *
 * Lucid's first process starts as Linux's does: pid 1, a kernel thread, calls kernel_execve()
 * (kernel/main.c: init, or the rescue console's `exec`); every other one is forked from it and
 * calls execve(2). Either way
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
#include "trace/events/task.h"
#include "kernel/syscalls.h"
#include "kernel/fs/binfmt_elf.h"
#include "kernel/fs/binfmt_script.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/events/uprobes.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/fs/vfs.h"
#include "kernel/drivers/random.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/timer.h"
#include "kernel/time/posix-timers.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/uaccess.h"
#include "arch/x86_64/vdso.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/events/sched.h"
#include "trace/trace.h"
#include "lib/printf.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/sched/cputime.h"

#define EXEC_MAX_FILE (16UL << 20) /* the largest program Lucid reads whole */
#define ELFMAG "\177ELF" /* an ELF file's first bytes */
#define SELFMAG 4
#define USER_HZ 100 /* AT_CLKTCK: the unit of times() and /proc's ticks */
#define S_IXUGO 0111

DEFINE_TRACE(sched_process_exec); /* trace/events/sched.h */
DEFINE_TRACE(task_rename); /* trace/events/task.h: here, prctl's in kernel/sys.c */

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
	void *buf = size <= EXEC_MAX_FILE ? alloc_pages(*npages ? *npages : 1) : NULL;
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
 * An ELF file as exec loads it: its pages (fp, a ramfs file: the segments map them); or, for
 * any other file (9p), its first page (head, where the headers are) and the file still open
 * (fd): each segment is read from the file straight into the new program's pages, so a
 * program of any size loads without a copy of the whole file; or, for a file whose headers
 * are not all in its first page, or whose segments cannot map its pages, its bytes read whole
 * (bytes, npages pages of them, up to EXEC_MAX_FILE).
 */
struct elf_file {
	size_t size;
	struct file_pages *fp;
	uint8_t *head;
	int fd;
	uint8_t *bytes;
	size_t npages;
};

/* The headers parsed again with the lowest page at base (ELF_ET_DYN_BASE for a PIE at first). */
static int elf_file_parse(struct elf_file *f, uint64_t base, struct elf_info *elf)
{
	if (f->fp)
		return parse_mapped(f->fp, f->size, base, elf);
	if (f->head)
		return elf_parse_headers(f->head, MIN(f->size, PAGE_SIZE), f->size, base, elf);
	return elf_parse(f->bytes, f->size, base, elf);
}

/* The file's first bytes, where PT_INTERP's path is (elf_parse checked it is inside them). */
static const char *elf_file_start(const struct elf_file *f)
{
	return (const char *)(f->fp ? file_pages_page(f->fp, 0) : f->head ? f->head : f->bytes);
}

/*
 * Takes the f->size bytes of the file open at fd, and fd itself (elf_file_put closes it): its
 * pages if they will do, else its first page if the headers are there, else a copy; then
 * parses the headers. On an error, what was taken is still for elf_file_put.
 */
static int elf_file_get(int fd, uint64_t base, struct elf_info *elf, struct elf_file *f)
{
	int err;

	f->fd = fd;
	f->fp = vfs_mmap_pages(fd, &err);
	if (f->fp && !parse_mapped(f->fp, f->size, base, elf))
		return 0;
	file_pages_put(f->fp);
	f->fp = NULL;
	f->head = alloc_page_zeroed();
	if (!f->head)
		return -ENOMEM;
	ssize_t n = vfs_pread(fd, f->head, PAGE_SIZE, 0);
	if (n < 0)
		return (int)n;
	if ((size_t)n != MIN(f->size, PAGE_SIZE))
		err = -EIO; /* the file changed under us: try reading it whole */
	else
		err = elf_parse_headers(f->head, (size_t)n, f->size, base, elf);
	/*
	 * Read whole only what could parse then: an ELF file whose headers go past its first
	 * page. Anything else has had its answer (not ELF: ENOEXEC, whatever its size).
	 */
	if (!err || (err != -EIO && (f->size <= PAGE_SIZE || memcmp(f->head, ELFMAG, SELFMAG))))
		return err;
	free_pages(f->head, 1);
	f->head = NULL;
	f->bytes = read_program(fd, f->size, &f->npages, &err);
	return f->bytes ? elf_parse(f->bytes, f->size, base, elf) : err;
}

static void elf_file_put(struct elf_file *f)
{
	file_pages_put(f->fp);
	if (f->head)
		free_pages(f->head, 1);
	if (f->bytes)
		free_pages(f->bytes, f->npages ? f->npages : 1);
	if (f->fd >= 0)
		vfs_close(f->fd);
	f->fp = NULL;
	f->head = NULL;
	f->bytes = NULL;
	f->fd = -1;
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

/* Reads len bytes of the file at fd from pos to user address va of mm, whose pages are mapped. */
static int read_to_mm(struct mm_struct *mm, unsigned long va, int fd, loff_t pos, size_t len)
{
	while (len) {
		size_t in_page = MIN(len, PAGE_SIZE - (va & (PAGE_SIZE - 1)));
		uint8_t *page = mmu_user_page(mm->pgd, ALIGN_DOWN(va, PAGE_SIZE), NULL);
		ssize_t n = vfs_pread(fd, page + (va & (PAGE_SIZE - 1)), in_page, pos);

		if (n <= 0)
			return n < 0 ? (int)n : -EIO; /* the file ended before its segment did */
		va += (size_t)n;
		pos += n;
		len -= (size_t)n;
	}
	return 0;
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
			struct vma_name *name, const struct inode *inode)
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
		if (start < end)
			vma_set_inode(mm, start, inode); /* for uprobes on the program */
		note_segment(mm, seg);
	}
	return 0;
}

/*
 * Each segment in fresh pages, for a file that is not in pages (9p) or odd segments: read from
 * the file (f->head: only the headers are in memory), or copied from its bytes.
 */
static int load_segments(struct mm_struct *mm, const struct elf_info *elf, const struct elf_file *f,
			 struct vma_name *name, const struct inode *inode)
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

		/* The file page at start: where the segment's first page comes from. */
		unsigned long pgoff = (seg->offset - (seg->vaddr - start)) / PAGE_SIZE;

		/* Its area: from where the one before ends, if they share a page. */
		if (prev && prev->vm_start < start) {
			pgoff += (prev->vm_end - start) / PAGE_SIZE;
			start = prev->vm_end;
		}
		if (!err && start < end)
			err = insert_file_vma(mm, start, end, segment_vm_flags(seg), VMA_ELF, NULL,
					      pgoff, 0, name);
		if (err)
			return err;
		if (start < end)
			vma_set_inode(mm, start, inode); /* for uprobes on the program */
		if (f->head)
			err = read_to_mm(mm, seg->vaddr, f->fd, (loff_t)seg->offset, seg->filesz);
		else
			copy_to_mm(mm, seg->vaddr, f->bytes + seg->offset, seg->filesz);
		if (err)
			return err;
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
	struct elf_file f = {.fd = -1};
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
	err = elf_file_get(fd, ELF_ET_DYN_BASE, elf, &f); /* f has fd now */
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

		const struct inode *inode = vfs_fd_inode(f.fd);

		err = f.fp ? map_segments(mm, elf, f.fp, name, inode)
			   : load_segments(mm, elf, &f, name, inode);
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

/* The bytes of a NULL-ended vector of kernel strings, each NUL included. */
static size_t strings_size(char *const vec[])
{
	size_t n = 0;

	for (; vec && *vec; vec++)
		n += strlen(*vec) + 1;
	return n;
}

static size_t strings_count(char *const vec[])
{
	size_t n = 0;

	while (vec && vec[n])
		n++;
	return n;
}

static int setup_stack(struct mm_struct *mm, const struct elf_info *elf, uint64_t interp_base,
		       const char *filename, char *const argv[], char *const envp[],
		       struct exec_stack_layout *lay)
{
	/*
	 * The buffer the stack is laid out in: the strings and their pointers, and a page for
	 * the rest (the file name, the platform, AT_RANDOM, auxv, the alignment). sys_execve
	 * already held argv and envp to Linux's limit; build_user_stack checks what it lays out.
	 */
	size_t words = (strings_count(argv) + strings_count(envp) + 2) * sizeof(char *);
	size_t size = ALIGN_UP(strings_size(argv) + strings_size(envp) + strlen(filename) + words,
			       PAGE_SIZE) +
		      PAGE_SIZE;
	uint8_t *buf = kmalloc(size);
	struct exec_stack_info info = {
		.elf = elf,
		.execfn = filename,
		.platform = "x86_64",
		.hwcap = cpuid_hwcap(),
		.clktck = USER_HZ,
		.interp_base = interp_base,
		.sysinfo_ehdr = mm->vdso,
	};

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
	kfree(buf);
	return err;
}

static const char *kbasename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * What exec carries from the file it was given to the program it starts, as Linux's struct
 * linux_binprm: the path as given (the new program's AT_EXECFN and comm, the tracepoint's
 * filename), the file run now (after a "#!", the script's interpreter), and argv, rewritten at
 * each script in vec: room is left before the caller's argv for each script's words.
 */
#define SCRIPT_NEW_ARGS 2 /* a script's words replace argv[0] by three: two more at most */
struct binprm {
	const char *filename;
	const char *interp;
	char *const *argv;
	char **vec; /* NULL until the first script */
	/* Each file's first bytes: a script's line, its words in place. */
	char buf[BINPRM_MAX_SCRIPTS + 1][BINPRM_BUF_SIZE];
};

/*
 * argv for a script, as Linux's load_script splices it: [interpreter, argument (if the line
 * has one), the script's path (argv[0] dropped), argv[1], ...].
 */
static int script_argv(struct binprm *bprm, const char *name, const char *arg)
{
	if (!bprm->vec) {
		size_t argc = strings_count(bprm->argv);
		size_t room = (BINPRM_MAX_SCRIPTS + 1) * SCRIPT_NEW_ARGS;

		bprm->vec = kmalloc((room + argc + 1) * sizeof(char *));
		if (!bprm->vec)
			return -ENOMEM;
		memcpy(bprm->vec + room, bprm->argv, (argc + 1) * sizeof(char *));
		bprm->argv = bprm->vec + room;
	}
	char **argv = (char **)bprm->argv;

	if (argv[0])
		argv++; /* remove_arg_zero: the script's path takes its place */
	/* The room left: each of the BINPRM_MAX_SCRIPTS + 1 scripts takes two slots at most. */
	BUG_ON(argv - (arg ? 3 : 2) < bprm->vec);
	*--argv = (char *)bprm->interp;
	if (arg)
		*--argv = (char *)arg;
	*--argv = (char *)name;
	bprm->argv = argv;
	return 0;
}

/*
 * Opens the program to run (Linux's exec_binprm over binfmt_script and binfmt_elf): while the
 * file is a script, its interpreter instead. A script's interpreter may be a script too, at
 * most BINPRM_MAX_SCRIPTS of them: the file after that is ELOOP, found once it is open, as
 * Linux's. Returns the fd of the file that is not a script, its size in *size.
 */
static int prepare_binprm(struct binprm *bprm, size_t *size)
{
	for (int depth = 0;; depth++) {
		int fd = open_program(bprm->interp, size);
		const char *name, *arg;
		int err;

		if (fd < 0)
			return fd;
		if (depth > BINPRM_MAX_SCRIPTS) {
			vfs_close(fd);
			return -ELOOP;
		}
		char *buf = bprm->buf[depth];
		ssize_t n = vfs_pread(fd, buf, BINPRM_BUF_SIZE, 0);

		if (n < 0) {
			vfs_close(fd);
			return (int)n;
		}
		memset(buf + n, 0, BINPRM_BUF_SIZE - (size_t)n); /* a short file: NULs after it */
		if (buf[0] != '#' || buf[1] != '!')
			return fd; /* not a script: binfmt_elf's to judge */
		vfs_close(fd);
		err = script_parse(buf, &name, &arg);
		/*
		 * "#!" and NULs: an empty name, which Linux's open_exec looks up as the cwd, a
		 * directory: EACCES. (Lucid's lookup refuses "", so this says it.)
		 */
		if (!err && !*name)
			err = -EACCES;
		if (!err)
			err = script_argv(bprm, name, arg);
		if (err)
			return err;
		bprm->interp = name;
	}
}

static void binprm_free(struct binprm *bprm)
{
	kfree(bprm->vec);
	kfree(bprm);
}

/*
 * The work of exec. args, if not NULL, is what sys_execve copied the strings and their
 * vectors into: past the point of no return nothing needs them, and nothing would free them
 * after, so this does (kfree).
 */
static int do_execve(const char *filename, char *const argv[], char *const envp[], void *args[2])
{
	static char *const empty_argv[] = {"", NULL};
	struct task *t = current;
	struct elf_info *elf = kmalloc(sizeof(*elf));
	struct binprm *bprm = kmalloc(sizeof(*bprm));
	struct elf_file f = {.fd = -1};
	struct exec_stack_layout lay;
	int err;

	if (!elf || !bprm) {
		kfree(elf);
		kfree(bprm);
		return -ENOMEM;
	}
	/*
	 * No argv at all: Linux (5.18 on) gives the program "" as its argv[0], and says so (in
	 * the log only here: at KERN_DEBUG, so that the console stays the program's).
	 */
	if (!argv || !argv[0]) {
		pr_debug("process '%s' launched '%s' with NULL argv: empty string added\n", t->comm,
			 filename);
		argv = empty_argv;
	}
	*bprm = (struct binprm){.filename = filename, .interp = filename, .argv = argv};
	int fd = prepare_binprm(bprm, &f.size);
	if (fd < 0) {
		binprm_free(bprm);
		kfree(elf);
		return fd;
	}
	/* A file in pages (ramfs) is mapped, as Linux maps its page cache; any other is read. */
	err = elf_file_get(fd, ELF_ET_DYN_BASE, elf, &f); /* f has fd now */
	if (!f.fp && !f.head && !f.bytes) {
		elf_file_put(&f);
		binprm_free(bprm);
		kfree(elf);
		return err;
	}
	struct mm_struct *mm = err ? NULL : mm_alloc();
	struct fpu *fpu = mm ? fpu_alloc() : NULL;
	struct sighand_struct *sighand = fpu ? sighand_alloc() : NULL;
	if (!err && (!mm || !fpu || !sighand))
		err = -ENOMEM;
	if (!err) {
		const struct inode *inode = vfs_fd_inode(f.fd);

		err = f.fp ? map_segments(mm, elf, f.fp, NULL, inode)
			   : load_segments(mm, elf, &f, NULL, inode);
	}
	/* A dynamic program starts in its interpreter, which is told where the program is. */
	uint64_t interp_base = 0, entry = err ? 0 : elf->entry;
	if (!err && elf->interp_len) {
		/* Its path: in the first page or the bytes read (the parse checked it). */
		const char *interp = elf_file_start(&f);

		err = load_elf_interp(mm, interp + elf->interp_offset, &interp_base, &entry);
	}
	/* [vvar] and [vdso], below ld.so as Linux's: the stack's auxv says where (vma.c). */
	if (!err)
		err = arch_setup_additional_pages(mm);
	if (!err)
		err = setup_stack(mm, elf, interp_base, filename, bprm->argv, envp, &lay);
	elf_file_put(&f); /* the areas hold their own references */
	/* The other threads of a process end before its new program starts (Linux's de_thread). */
	int old_pid = err ? 0 : de_thread(t);
	if (old_pid < 0)
		err = old_pid;
	if (err) {
		mmput(mm);
		if (fpu)
			fpu_free(fpu);
		sighand_free(sighand);
		binprm_free(bprm);
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
	/*
	 * The file itself, as Linux's /proc/PID/exe names it: /bin/sh runs /bin/busybox, and a
	 * script's process is its interpreter's.
	 */
	if (vfs_realpath(bprm->interp, mm->exe_path, sizeof(mm->exe_path)) < 0)
		strlcpy(mm->exe_path, bprm->interp, sizeof(mm->exe_path));
	binprm_free(bprm);
	kfree(elf);
	task_replace_mm(t, mm, fpu); /* execve from a program: its old self goes */
	uprobe_exec(mm); /* the probes on the program and its interpreter, now it is on the list */
	/* The name it was run by, a script's too (Linux: kbasename(bprm->filename)). */
	trace_task_rename(t, kbasename(filename));
	strlcpy(t->comm, kbasename(filename), sizeof(t->comm));
	tracing_task_renamed(t); /* the trace's TASK column names it anew */
	/*
	 * Execed, before the O_CLOEXEC descriptors close, as Linux's begin_new_exec clears
	 * PF_FORKNOEXEC first: a parent that learns of the execve from a close-on-exec pipe's EOF
	 * must find setpgid refused (EACCES).
	 */
	t->execed = true;
	t->forknoexec = false;
	do_close_on_exec(); /* O_CLOEXEC and FD_CLOEXEC descriptors end with the old program */
	/* Its POSIX timers too, and their signals pending (Linux's begin_new_exec): not alarm. */
	exit_posix_timers(t->group_leader);
	flush_itimer_signals(t);
	/* old_pid: the thread id it had, when a thread other than the leader execs. */
	trace_sched_process_exec(t, old_pid, filename);
	if (args) {
		kfree(args[0]);
		kfree(args[1]);
	}
	/* Handled signals back to their default; ignored ones and the mask stay, as Linux's. */
	attach_sighand(t, sighand);
	t->sas_ss_sp = t->sas_ss_size = 0; /* no alternate stack; its flags stay, as Linux's */
	if (args)
		syscall_exit_exec(); /* the trace sees execve return, as on Linux */
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
 * live in the address space about to be replaced), within Linux's limits: each string at most
 * MAX_ARG_STRLEN, all of them and their pointers at most a quarter of RLIMIT_STACK (no more than
 * 6 MiB, no less than ARG_MAX), else E2BIG (Linux's bprm_stack_limits).
 */
#define MAX_ARG_STRLEN (32 * PAGE_SIZE) /* 128 KiB: one string, its NUL included */
#define ARG_MAX (32 * PAGE_SIZE) /* the room they have whatever the stack limit */
#define ARG_LIMIT_MAX (_STK_LIM / 4 * 3) /* 6 MiB: the most, however large the stack limit */
#define _STK_LIM (8UL << 20) /* RLIMIT_STACK's default */
#define STRLEN_CHUNK 256 /* strnlen_user's steps */

static size_t arg_limit(void)
{
	size_t limit = MIN(ARG_LIMIT_MAX, rlimit(RLIMIT_STACK) / 4);

	return MAX(limit, ARG_MAX);
}

/* A user string's length with its NUL, up to max (max + 1: longer); 0 for a fault. */
static size_t strnlen_user(const char __user *s, size_t max)
{
	char chunk[STRLEN_CHUNK];
	size_t len = 0;

	while (len <= max) {
		long n = strncpy_from_user(chunk, s + len, STRLEN_CHUNK);

		if (n < 0)
			return 0;
		if (n < STRLEN_CHUNK)
			return MIN(len + (size_t)n + 1, max + 1);
		len += STRLEN_CHUNK;
	}
	return max + 1;
}

/*
 * First pass over a user vector: its strings counted into *count and their bytes (NULs
 * included) into *bytes, E2BIG as soon as one is too long or they and their pointers are past
 * limit.
 */
static long measure_strings(const char __user *const __user *uvec, size_t *count, size_t *bytes,
			    size_t limit)
{
	for (size_t n = 0; uvec; n++) {
		const char __user *ustr;

		if (copy_from_user(&ustr, &uvec[n], sizeof(ustr)))
			return -EFAULT;
		if (!ustr)
			break;
		size_t len = strnlen_user(ustr, MAX_ARG_STRLEN);
		if (!len)
			return -EFAULT;
		if (len > MAX_ARG_STRLEN)
			return -E2BIG;
		*bytes += len;
		*count += 1;
		if (*bytes + *count * sizeof(char *) > limit)
			return -E2BIG;
	}
	return 0;
}

/* Second pass: the strings copied into block at *used, their addresses into vec, NULL-ended. */
static long copy_strings(const char __user *const __user *uvec, size_t count, char **vec,
			 char *block, size_t *used, size_t size)
{
	for (size_t n = 0; n < count; n++) {
		const char __user *ustr;

		if (copy_from_user(&ustr, &uvec[n], sizeof(ustr)))
			return -EFAULT;
		if (!ustr)
			return -EFAULT; /* the vector changed under us: Linux would see it too */
		long len = strncpy_from_user(block + *used, ustr, (long)(size - *used));
		if (len < 0)
			return len;
		if ((size_t)len == size - *used)
			return -E2BIG; /* a string grew between the passes */
		vec[n] = block + *used;
		*used += (size_t)len + 1;
	}
	vec[count] = NULL;
	return 0;
}

long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	char *path = kmalloc(PATH_MAX); /* not on the kernel stack: a page of it */
	size_t argc = 0, envc = 0, bytes, used = 0, limit = arg_limit();

	if (!path)
		return -ENOMEM;
	long len = strncpy_from_user(path, filename, PATH_MAX);
	long err = len < 0 ? len : len == 0 ? -ENOENT : len == PATH_MAX ? -ENAMETOOLONG : 0;

	if (err) {
		kfree(path);
		return err;
	}
	/*
	 * Linux counts the file name's copy and a pointer for argv[0], present or not, too. The
	 * strings must also fit in the stack RLIMIT_STACK allows: Linux copies them into the new
	 * stack's area, whose growth that limit stops (get_arg_page), so a small limit is E2BIG
	 * before the quarter is reached.
	 */
	bytes = (size_t)len + 1 + sizeof(char *);
	err = measure_strings(argv, &argc, &bytes, limit);
	if (!err)
		err = measure_strings(envp, &envc, &bytes, limit);
	if (!err && ALIGN_UP(bytes, PAGE_SIZE) > rlimit(RLIMIT_STACK))
		err = -E2BIG;
	char *block = err ? NULL : kmalloc(bytes);
	char **vecs = block ? kmalloc((argc + envc + 2) * sizeof(char *)) : NULL; /* argv, envp */
	if (!err && (!block || !vecs))
		err = -ENOMEM;
	if (!err) {
		memcpy(block, path, (size_t)len + 1);
		kfree(path); /* the block has it now, for do_execve to free too */
		path = NULL;
		used = (size_t)len + 1;
		err = copy_strings(argv, argc, vecs, block, &used, bytes);
	}
	if (!err)
		err = copy_strings(envp, envc, vecs + argc + 1, block, &used, bytes);
	void *args[2] = {block, vecs};
	if (!err)
		err = do_execve(block, vecs, vecs + argc + 1, args); /* returns only on failure */
	kfree(path);
	kfree(block);
	kfree(vecs);
	return err;
}

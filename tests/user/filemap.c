/*
 * exec maps the program's file: each PT_LOAD segment's memory is the file's bytes, page for
 * page, from the page start before the segment to the page end after it (Linux maps whole
 * pages of the file), except that a segment with a bss has zeroes after its file bytes. A write
 * to the data is the process's own: the file keeps its bytes (private, copy-on-write), and
 * after a fork neither process sees the other's write. The text pages are counted as the
 * file's (RssFile in /proc/self/status). The program reads its own file through
 * /proc/self/exe and compares; the output has no addresses: the same on Linux
 * (tests/qemu/user/test_user_memory.py compares).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL
#define MAX_PHDRS 16

static int data = 1; /* in the writable segment's file bytes */

static Elf64_Phdr loads[MAX_PHDRS];
static int nloads;

/* The program headers of the PT_LOAD segments, from the file. */
static int read_loads(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		return -1;
	for (int i = 0; i < eh.e_phnum && nloads < MAX_PHDRS; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD)
			loads[nloads++] = ph;
	}
	return 0;
}

/* Does memory [addr, addr + len) hold the file's bytes at off? */
static int same_as_file(int fd, unsigned long addr, unsigned long off, unsigned long len)
{
	static char buf[PAGE];

	while (len) {
		unsigned long n = len < PAGE ? len : PAGE;

		if (pread(fd, buf, n, (off_t)off) != (ssize_t)n)
			memset(buf, 0, n); /* past the file's end: a mapping reads zeroes */
		if (memcmp(buf, (const void *)addr, n))
			return 0;
		addr += n;
		off += n;
		len -= n;
	}
	return 1;
}

static int all_zero(unsigned long addr, unsigned long len)
{
	for (unsigned long i = 0; i < len; i++) {
		if (((const char *)addr)[i])
			return 0;
	}
	return 1;
}

/* The file's copy of the variable at addr (in a segment's file bytes). */
static int file_int(int fd, const int *addr)
{
	unsigned long a = (unsigned long)addr;
	int v = -1;

	for (int i = 0; i < nloads; i++) {
		if (a >= loads[i].p_vaddr && a + sizeof(v) <= loads[i].p_vaddr + loads[i].p_filesz)
			pread(fd, &v, sizeof(v), (off_t)(loads[i].p_offset + a - loads[i].p_vaddr));
	}
	return v;
}

static long status_kb(const char *key)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)))
			kb = atol(line + strlen(key));
	}
	fclose(f);
	return kb;
}

int main(void)
{
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0 || read_loads(fd)) {
		perror("/proc/self/exe");
		return 1;
	}
	for (int i = 0; i < nloads; i++) {
		const Elf64_Phdr *p = &loads[i];
		unsigned long start = p->p_vaddr & ~(PAGE - 1);
		unsigned long file_end = p->p_vaddr + p->p_filesz;
		unsigned long end = (p->p_vaddr + p->p_memsz + PAGE - 1) & ~(PAGE - 1);
		unsigned long page_end = (file_end + PAGE - 1) & ~(PAGE - 1);
		int bss = p->p_memsz > p->p_filesz;

		printf("segment %d (%c%c%c): ", i, p->p_flags & PF_R ? 'r' : '-',
		       p->p_flags & PF_W ? 'w' : '-', p->p_flags & PF_X ? 'x' : '-');
		if (p->p_flags & PF_W) {
			/* The C library has written its data and bss: what comes before them. */
			printf("before its bytes in the page, the file's: %s\n",
			       same_as_file(fd, start, p->p_offset - (p->p_vaddr - start),
					    p->p_vaddr - start)
				       ? "yes"
				       : "NO");
			continue;
		}
		/* The file from the page's start; after the file bytes, the file or zeroes. */
		printf("file bytes %s",
		       same_as_file(fd, start, p->p_offset - (p->p_vaddr - start), file_end - start)
			       ? "match"
			       : "DIFFER");
		if (bss)
			printf(", bss %s\n",
			       all_zero(file_end, end - file_end) ? "zero" : "NOT ZERO");
		else
			printf(", rest of its page %s\n",
			       same_as_file(fd, file_end, p->p_offset + p->p_filesz,
					    page_end - file_end)
				       ? "the file's"
				       : "DIFFERS");
	}
	data = 2;
	printf("data written: %d, in the file: %d\n", data, file_int(fd, &data));
	fflush(stdout);
	pid_t pid = fork();

	if (pid == 0) {
		data = 3;
		printf("child wrote: %d, in the file: %d\n", data, file_int(fd, &data));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("parent after the child's write: %d\n", data);
	printf("text counted as the file's pages (RssFile): %s\n",
	       status_kb("RssFile:") > 0 ? "yes" : "no");
	return 0;
}

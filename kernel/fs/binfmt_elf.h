/*
 * Reading an ELF64 program and laying out its first stack (kernel/fs/binfmt_elf.c): pure
 * functions over buffers, so the unit tests and the fuzzers run the kernel's code. kernel/fs/exec.c
 * does the mapping.
 */
#ifndef KERNEL_BINFMT_ELF_H
#define KERNEL_BINFMT_ELF_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "arch/x86_64/page_64_types.h"

#define ELF_MAX_LOADS 16 /* PT_LOAD segments Lucid accepts (a static program has 4 or 5) */
#define ELF_MAX_PHNUM 64
#define ELF_MIN_ADDR MMAP_MIN_ADDR /* nothing maps below 64 KiB */
#define ELF_USER_END TASK_SIZE_MAX /* segments must end below */
#define ELF_PAGE_SIZE 4096UL
#define ELF_INTERP_MIN 2 /* PT_INTERP: a one-letter path and its NUL at least... */
#define ELF_INTERP_MAX 4096 /* ... and at most PATH_MAX bytes, as Linux */

#define PF_X 0x1 /* p_flags */
#define PF_W 0x2
#define PF_R 0x4
#define ET_EXEC 2
#define ET_DYN 3

struct elf_segment {
	uint64_t vaddr; /* where it goes, load bias included */
	uint64_t memsz; /* bytes in memory: beyond filesz, zeroes (the bss) */
	uint64_t offset; /* where its bytes are in the file */
	uint64_t filesz;
	uint32_t flags; /* PF_R | PF_W | PF_X */
};

struct elf_info {
	uint16_t type; /* ET_EXEC or ET_DYN (a PIE, static or dynamic) */
	uint64_t load_bias; /* added to every address: 0 for ET_EXEC */
	uint64_t entry; /* AT_ENTRY, bias included */
	uint64_t phdr; /* AT_PHDR: where the program headers are in memory, or 0 */
	uint16_t phnum; /* AT_PHNUM */
	uint16_t phent; /* AT_PHENT */
	struct elf_segment segs[ELF_MAX_LOADS];
	int nsegs;
	uint64_t end; /* the end of the highest segment: brk starts here (page-aligned) */
	/* PT_INTERP: the interpreter's path is file[interp_offset..+interp_len), NUL included. */
	uint64_t interp_offset, interp_len; /* interp_len 0: a static program */
};

/*
 * Checks and reads the program in buf[0..len). An ET_DYN program (a PIE, or an interpreter) is
 * placed at dyn_base. Returns 0, -ENOEXEC for a file that is not an x86_64 ELF executable Lucid
 * can run (not ELF, another machine, headers cut short, a bad PT_INTERP path), or
 * -EINVAL for bad segments (outside the file, overlapping the kernel half, below 64 KiB, both
 * writable and executable).
 */
int elf_parse(const void *buf, size_t len, uint64_t dyn_base, struct elf_info *out);
/*
 * The same from the file's first len bytes, which must hold the headers, of a file of file_len
 * bytes: exec looks at the first page of a file it maps without reading the rest.
 */
int elf_parse_headers(const void *buf, size_t len, size_t file_len, uint64_t dyn_base,
		      struct elf_info *out);

/* What the new program's stack starts with besides argv and envp (Linux's create_elf_tables). */
struct exec_stack_info {
	const struct elf_info *elf;
	const char *execfn; /* AT_EXECFN: the path it was run by */
	const char *platform; /* AT_PLATFORM: "x86_64" */
	uint8_t random[16]; /* AT_RANDOM: 16 bytes the C library seeds its canary from */
	uint64_t hwcap; /* AT_HWCAP: CPUID 1's EDX */
	uint64_t clktck; /* AT_CLKTCK: USER_HZ */
	uint64_t uid, gid; /* AT_UID/EUID, AT_GID/EGID */
	uint64_t interp_base; /* AT_BASE: where the interpreter is loaded, 0 without one */
	uint64_t sysinfo_ehdr; /* AT_SYSINFO_EHDR: the vDSO's ELF header, 0: none (left out) */
};

/*
 * Lays out the initial stack in buf, which will be the size bytes of user memory just below
 * user address top: argc, argv[], NULL, envp[], NULL, the auxiliary vector, then the strings,
 * as Linux's (the ABI the C library's _start reads). On return *sp is the user RSP to start
 * with (16-byte aligned, pointing at argc), and the other fields the argument and environment
 * areas for /proc. Returns 0 or -E2BIG when it does not fit in size bytes.
 */
struct exec_stack_layout {
	uint64_t sp, arg_start, arg_end, env_start, env_end;
};
int build_user_stack(uint8_t *buf, size_t size, uint64_t top, char *const argv[],
		     char *const envp[], const struct exec_stack_info *info,
		     struct exec_stack_layout *out);

#endif

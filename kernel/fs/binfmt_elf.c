/*
 * ELF64 programs: checking their headers and laying out their first stack.
 *
 * An ELF file starts with a header (the machine, the type, the entry point, where the program
 * headers are); each program header of type PT_LOAD says "map file bytes [offset, offset +
 * filesz) at vaddr, followed by zeroes up to memsz" with permissions. A static program (what
 * musl-gcc -static makes) needs nothing else: no interpreter, no relocations by the kernel. A
 * static-pie (ET_DYN without PT_INTERP) is the same, placed at a base the kernel chooses; its
 * own start-up code relocates itself.
 *
 * A dynamic program names its interpreter in PT_INTERP ("/lib64/ld-linux-x86-64.so.2"): the
 * kernel loads that file too (kernel/fs/exec.c, load_elf_interp) and starts there; the
 * interpreter finds the program through the auxiliary vector (AT_PHDR, AT_ENTRY) and maps the
 * libraries itself. Here elf_parse only notes where the interpreter's path is in the file.
 *
 * Everything here works on buffers and trusts no field: the loader is fuzzed on the host
 * (tests/fuzz/fuzz_binfmt_elf.c) and tested in tests/unit/test_binfmt_elf.c.
 */
#include "kernel/fs/binfmt_elf.h"
#include "lib/errno.h"
#include "lib/string.h"

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define EI_OSABI 7
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ELFOSABI_SYSV 0
#define ELFOSABI_GNU 3 /* glibc's static programs say GNU */
#define EM_X86_64 62
#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6

struct elf64_hdr {
	uint8_t e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

static bool ident_ok(const struct elf64_hdr *h)
{
	static const uint8_t magic[] = {0x7f, 'E', 'L', 'F'};

	return !memcmp(h->e_ident, magic, sizeof(magic)) && h->e_ident[EI_CLASS] == ELFCLASS64 &&
	       h->e_ident[EI_DATA] == ELFDATA2LSB && h->e_ident[EI_VERSION] == EV_CURRENT &&
	       (h->e_ident[EI_OSABI] == ELFOSABI_SYSV || h->e_ident[EI_OSABI] == ELFOSABI_GNU) &&
	       h->e_machine == EM_X86_64 && (h->e_type == ET_EXEC || h->e_type == ET_DYN);
}

/* One PT_LOAD, checked and added with the load bias. */
static int add_segment(struct elf_info *out, const struct elf64_phdr *ph, size_t len)
{
	uint64_t bias = out->load_bias;

	if (out->nsegs == ELF_MAX_LOADS)
		return -ENOEXEC;
	if (ph->p_filesz > ph->p_memsz || ph->p_offset > len || ph->p_filesz > len - ph->p_offset)
		return -EINVAL; /* bytes that are not in the file */
	if ((ph->p_flags & PF_W) && (ph->p_flags & PF_X))
		return -EINVAL; /* Lucid never maps user memory writable and executable at once */
	if ((ph->p_vaddr - ph->p_offset) % ELF_PAGE_SIZE)
		return -EINVAL; /* file and memory must agree within a page, for mmap */
	uint64_t va = ph->p_vaddr + bias;
	if (va < ph->p_vaddr || va < ELF_MIN_ADDR || va >= ELF_USER_END ||
	    ph->p_memsz > ELF_USER_END - va)
		return -EINVAL; /* wraps, below 64 KiB, or reaching the kernel half */
	out->segs[out->nsegs++] =
		(struct elf_segment){va, ph->p_memsz, ph->p_offset, ph->p_filesz, ph->p_flags};
	if (va + ph->p_memsz > out->end)
		out->end = va + ph->p_memsz;
	return 0;
}

/*
 * The interpreter's path, as Linux's load_elf_binary checks it: inside the file, at least two
 * bytes, at most PATH_MAX, and ending in its NUL (else ENOEXEC). Only the first PT_INTERP counts.
 * It must be in the len bytes at hand: exec, given a mapped file's first page only, reads the
 * whole file and parses again when it is not.
 */
static int note_interp(struct elf_info *out, const struct elf64_phdr *ph, const uint8_t *file,
		       size_t len)
{
	if (ph->p_filesz < ELF_INTERP_MIN || ph->p_filesz > ELF_INTERP_MAX || ph->p_offset > len ||
	    ph->p_filesz > len - ph->p_offset)
		return -ENOEXEC;
	if (file[ph->p_offset + ph->p_filesz - 1] != '\0')
		return -ENOEXEC;
	out->interp_offset = ph->p_offset;
	out->interp_len = ph->p_filesz;
	return 0;
}

int elf_parse_headers(const void *buf, size_t len, size_t file_len, uint64_t dyn_base,
		      struct elf_info *out)
{
	const uint8_t *file = buf;
	struct elf64_hdr h;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(h) || file_len < len)
		return -ENOEXEC;
	memcpy(&h, file, sizeof(h)); /* the buffer may not be aligned */
	if (!ident_ok(&h))
		return -ENOEXEC;
	if (h.e_phentsize != sizeof(struct elf64_phdr) || h.e_phnum == 0 ||
	    h.e_phnum > ELF_MAX_PHNUM || h.e_phoff > len ||
	    (uint64_t)h.e_phnum * sizeof(struct elf64_phdr) > len - h.e_phoff)
		return -ENOEXEC;

	/* A static-pie is linked at 0: its first segment goes to dyn_base. */
	uint64_t lowest = UINT64_MAX;
	for (int i = 0; i < h.e_phnum; i++) {
		struct elf64_phdr ph;

		memcpy(&ph, file + h.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_INTERP && !out->interp_len) {
			int err = note_interp(out, &ph, file, len);

			if (err)
				return err;
		}
		if (ph.p_type == PT_LOAD && ph.p_vaddr < lowest)
			lowest = ph.p_vaddr;
	}
	if (lowest == UINT64_MAX)
		return -ENOEXEC; /* nothing to load */
	out->type = h.e_type;
	if (h.e_type == ET_DYN)
		out->load_bias = dyn_base - (lowest & ~(ELF_PAGE_SIZE - 1));
	out->phnum = h.e_phnum;
	out->phent = h.e_phentsize;

	uint64_t phdr_from_load = 0;
	for (int i = 0; i < h.e_phnum; i++) {
		struct elf64_phdr ph;
		int err;

		memcpy(&ph, file + h.e_phoff + i * sizeof(ph), sizeof(ph));
		switch (ph.p_type) {
		case PT_LOAD:
			err = add_segment(out, &ph, file_len);
			if (err)
				return err;
			/* The headers are in memory if a segment maps the bytes they are in. */
			if (!phdr_from_load && h.e_phoff >= ph.p_offset &&
			    h.e_phoff - ph.p_offset < ph.p_filesz)
				phdr_from_load =
					ph.p_vaddr + out->load_bias + (h.e_phoff - ph.p_offset);
			break;
		case PT_PHDR:
			out->phdr = ph.p_vaddr + out->load_bias;
			break;
		/*
		 * Nothing to do for PT_TLS (the C library finds it through AT_PHDR and sets its
		 * TLS up itself) or PT_GNU_STACK (the stack is never executable, whatever its
		 * flags ask: Lucid has no READ_IMPLIES_EXEC).
		 */
		}
	}
	if (!out->phdr)
		out->phdr = phdr_from_load;
	out->entry = h.e_entry + out->load_bias;
	if (out->entry < ELF_MIN_ADDR || out->entry >= ELF_USER_END)
		return -EINVAL;
	return 0;
}

int elf_parse(const void *buf, size_t len, uint64_t dyn_base, struct elf_info *out)
{
	return elf_parse_headers(buf, len, len, dyn_base, out);
}

/* The auxiliary vector's keys, Linux's values (include/uapi/linux/auxvec.h). */
#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_EXECFN 31
#define AT_SYSINFO_EHDR 33
#define AUXV_PAIRS 19 /* the pairs below at most, AT_NULL included */
#define STACK_ALIGN 16

/* Copies a string just below *p (moving it down); false if it would pass lo. */
static bool push_string(uint8_t *lo, uint8_t **p, const char *s)
{
	size_t n = strlen(s) + 1;

	if ((size_t)(*p - lo) < n)
		return false;
	*p -= n;
	memcpy(*p, s, n);
	return true;
}

static int count_strings(char *const v[])
{
	int n = 0;

	while (v && v[n])
		n++;
	return n;
}

int build_user_stack(uint8_t *buf, size_t size, uint64_t top, char *const argv[],
		     char *const envp[], const struct exec_stack_info *info,
		     struct exec_stack_layout *out)
{
	uint8_t *end = buf + size, *p = end;
	int argc = count_strings(argv), envc = count_strings(envp);
#define USER_ADDR(kp) (top - (uint64_t)(end - (kp)))

	/* At the very top, as Linux: 8 zero bytes, then the file name. */
	if (size < sizeof(uint64_t))
		return -E2BIG;
	p -= sizeof(uint64_t);
	memset(p, 0, sizeof(uint64_t));
	if (!push_string(buf, &p, info->execfn))
		return -E2BIG;
	uint64_t execfn = USER_ADDR(p);
	/* The strings go in order upwards: push them last to first. */
	out->env_end = USER_ADDR(p);
	for (int i = envc - 1; i >= 0; i--)
		if (!push_string(buf, &p, envp[i]))
			return -E2BIG;
	out->env_start = USER_ADDR(p);
	out->arg_end = USER_ADDR(p);
	for (int i = argc - 1; i >= 0; i--)
		if (!push_string(buf, &p, argv[i]))
			return -E2BIG;
	out->arg_start = USER_ADDR(p);
	if (!push_string(buf, &p, info->platform))
		return -E2BIG;
	uint64_t platform = USER_ADDR(p);
	if ((size_t)(p - buf) < sizeof(info->random))
		return -E2BIG;
	p -= sizeof(info->random);
	memcpy(p, info->random, sizeof(info->random));
	uint64_t random = USER_ADDR(p);

	/* Then the words: argc, argv[], NULL, envp[], NULL, auxv; argc 16-byte aligned. */
	size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * AUXV_PAIRS;
	uint64_t sp = (USER_ADDR(p) - words * sizeof(uint64_t)) & ~(uint64_t)(STACK_ALIGN - 1);
	if (top - sp > size)
		return -E2BIG;
	uint64_t *w = (uint64_t *)(end - (top - sp));
	uint64_t argp = out->arg_start, envp_addr = out->env_start;

	*w++ = (uint64_t)argc;
	for (int i = 0; i < argc; i++) {
		*w++ = argp;
		argp += strlen(argv[i]) + 1;
	}
	*w++ = 0;
	for (int i = 0; i < envc; i++) {
		*w++ = envp_addr;
		envp_addr += strlen(envp[i]) + 1;
	}
	*w++ = 0;
	/*
	 * Linux's order: the architecture's entries first (ARCH_DLINFO: the vDSO, when there is
	 * one), then the rest. The words counted above hold the most: a missing vDSO leaves
	 * an unused pair past AT_NULL.
	 */
	uint64_t auxv[AUXV_PAIRS][2];
	int n = 0;

	if (info->sysinfo_ehdr) {
		auxv[n][0] = AT_SYSINFO_EHDR;
		auxv[n++][1] = info->sysinfo_ehdr;
	}
	const uint64_t common[][2] = {
		{AT_HWCAP, info->hwcap},
		{AT_PAGESZ, ELF_PAGE_SIZE},
		{AT_CLKTCK, info->clktck},
		{AT_PHDR, info->elf->phdr},
		{AT_PHENT, info->elf->phent},
		{AT_PHNUM, info->elf->phnum},
		{AT_BASE, info->interp_base},
		{AT_FLAGS, 0},
		{AT_ENTRY, info->elf->entry},
		{AT_UID, info->uid},
		{AT_EUID, info->uid},
		{AT_GID, info->gid},
		{AT_EGID, info->gid},
		{AT_SECURE, 0},
		{AT_RANDOM, random},
		{AT_EXECFN, execfn},
		{AT_PLATFORM, platform},
		{AT_NULL, 0},
	};
	_Static_assert(sizeof(common) / sizeof(common[0]) + 1 == AUXV_PAIRS,
		       "AUXV_PAIRS counts them");
	memcpy(auxv[n], common, sizeof(common));
	n += (int)(sizeof(common) / sizeof(common[0]));
	memcpy(w, auxv, n * sizeof(auxv[0]));
	out->sp = sp;
	return 0;
#undef USER_ADDR
}

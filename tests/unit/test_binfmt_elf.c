/*
 * Tests for kernel/fs/binfmt_elf.c: ELF headers built here field by field (a static program, a
 * static-pie, and each way one can be wrong), and the initial stack read back word by word as
 * the C library's _start reads it.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/binfmt_elf.h"
#include "lib/errno.h"

#define PT_LOAD 1
#define PT_INTERP 3
#define PT_TLS 7
#define PT_GNU_STACK 0x6474e551
#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define DYN_BASE 0x555555554000UL
#define TOP 0x7ffffffff000UL

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

static uint8_t file[8192];

/* A two-segment static program: text at 0x401000 (file 0x1000), data+bss at 0x402000. */
static size_t make_elf(uint16_t type, uint64_t base)
{
	struct phdr ph[4] = {
		{PT_LOAD, PF_R, 0, base, 0, 0x200, 0x200, 0x1000},
		{PT_LOAD, PF_R | PF_X, 0x1000, base + 0x1000, 0, 0x100, 0x100, 0x1000},
		{PT_LOAD, PF_R | PF_W, 0x1100, base + 0x2100, 0, 0x10, 0x3000, 0x1000},
		{PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 16},
	};
	uint16_t phnum = 4, phent = PHDR_SIZE, ehsize = EHDR_SIZE, machine = 62;
	uint32_t version = 1;
	uint64_t entry = base + 0x1000, phoff = EHDR_SIZE;

	memset(file, 0, sizeof(file));
	memcpy(file, "\177ELF\2\1\1", 7);
	memcpy(file + 16, &type, 2);
	memcpy(file + 18, &machine, 2);
	memcpy(file + 20, &version, 4);
	memcpy(file + 24, &entry, 8);
	memcpy(file + 32, &phoff, 8);
	memcpy(file + 52, &ehsize, 2);
	memcpy(file + 54, &phent, 2);
	memcpy(file + 56, &phnum, 2);
	memcpy(file + EHDR_SIZE, ph, sizeof(ph));
	return 0x1200;
}

static struct phdr *phdr(int i)
{
	return (struct phdr *)(file + EHDR_SIZE + i * PHDR_SIZE);
}

static int parse(size_t len, struct elf_info *info)
{
	uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees any overread */
	memcpy(copy, file, len);
	int ret = elf_parse(copy, len, DYN_BASE, info);
	free(copy);
	return ret;
}

static void test_static_exec(void **state)
{
	struct elf_info info;
	size_t len = make_elf(ET_EXEC, 0x400000);

	(void)state;
	assert_int_equal(parse(len, &info), 0);
	assert_int_equal(info.type, ET_EXEC);
	assert_int_equal(info.load_bias, 0);
	assert_int_equal(info.entry, 0x401000);
	assert_int_equal(info.nsegs, 3);
	assert_int_equal(info.phdr, 0x400000 + EHDR_SIZE); /* inside the first segment */
	assert_int_equal(info.phnum, 4);
	assert_int_equal(info.phent, PHDR_SIZE);
	assert_int_equal(info.segs[2].vaddr, 0x402100);
	assert_int_equal(info.segs[2].filesz, 0x10);
	assert_int_equal(info.segs[2].memsz, 0x3000);
	assert_int_equal(info.end, 0x405100);
}

static void test_static_pie(void **state)
{
	struct elf_info info;
	size_t len = make_elf(ET_DYN, 0);

	(void)state;
	assert_int_equal(parse(len, &info), 0);
	assert_int_equal(info.load_bias, DYN_BASE);
	assert_int_equal(info.entry, DYN_BASE + 0x1000);
	assert_int_equal(info.segs[0].vaddr, DYN_BASE);
	assert_int_equal(info.phdr, DYN_BASE + EHDR_SIZE);
}

static void test_not_elf_or_wrong_kind(void **state)
{
	struct elf_info info;
	size_t len;

	(void)state;
	memset(file, 'x', sizeof(file));
	assert_int_equal(parse(100, &info), -ENOEXEC);
	len = make_elf(ET_EXEC, 0x400000);
	assert_int_equal(parse(10, &info), -ENOEXEC);       /* cut inside the header */
	assert_int_equal(parse(EHDR_SIZE + 10, &info), -ENOEXEC); /* cut in the phdrs */
	file[4] = 1;                                          /* ELFCLASS32 */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	len = make_elf(1, 0x400000);                          /* ET_REL */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	len = make_elf(ET_EXEC, 0x400000);
	file[18] = 40;                                        /* EM_ARM */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	len = make_elf(ET_EXEC, 0x400000);
	file[7] = 3;                                          /* ELFOSABI_GNU: fine */
	assert_int_equal(parse(len, &info), 0);
}

/* A dynamic program: the interpreter's path is noted, checked as Linux checks it. */
static void test_interp(void **state)
{
	static const char ld[] = "/lib64/ld-linux-x86-64.so.2";
	struct elf_info info;
	size_t len;

	(void)state;
	len = make_elf(ET_DYN, 0);
	memcpy(file + 0x200 - sizeof(ld), ld, sizeof(ld)); /* inside the first segment's bytes */
	*phdr(3) = (struct phdr){PT_INTERP, PF_R, 0x200 - sizeof(ld), 0x200 - sizeof(ld), 0,
				 sizeof(ld), sizeof(ld), 1};
	assert_int_equal(parse(len, &info), 0);
	assert_int_equal(info.interp_len, sizeof(ld));
	assert_string_equal((char *)file + info.interp_offset, ld);
	assert_int_equal(info.load_bias, DYN_BASE); /* a PIE goes at the base all the same */
	assert_int_equal(info.nsegs, 3);
	phdr(3)->filesz = sizeof(ld) - 1; /* the NUL left out */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	phdr(3)->filesz = 1; /* shorter than "/" and its NUL */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	phdr(3)->filesz = ELF_INTERP_MAX + 1; /* longer than PATH_MAX */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	phdr(3)->filesz = sizeof(ld);
	phdr(3)->offset = len - 4; /* running past the file's end */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	phdr(3)->offset = UINT64_MAX - 2; /* wrapping */
	assert_int_equal(parse(len, &info), -ENOEXEC);
	len = make_elf(ET_EXEC, 0x400000); /* a static program has none */
	assert_int_equal(parse(len, &info), 0);
	assert_int_equal(info.interp_len, 0);
}

static void test_bad_segments(void **state)
{
	struct elf_info info;
	size_t len;

	(void)state;
	len = make_elf(ET_EXEC, 0x400000);
	assert_int_equal(parse(0x1105, &info), -EINVAL);      /* the data segment cut off */
	len = make_elf(ET_EXEC, 0x400000);
	phdr(2)->filesz = 0x4000;                             /* filesz > memsz */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0x400000);
	phdr(2)->vaddr = 0xffffffff80002100UL;                /* in the kernel half */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0x400000);
	phdr(2)->vaddr = 0x7ffffffff100UL;                    /* runs into the kernel half */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0x400000);
	phdr(2)->memsz = UINT64_MAX;                          /* wraps around */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0x400000);
	phdr(1)->flags = PF_R | PF_W | PF_X;                  /* writable and executable */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0);                           /* page 0 */
	assert_int_equal(parse(len, &info), -EINVAL);
	len = make_elf(ET_EXEC, 0x400000);
	phdr(1)->vaddr = 0x401800;                            /* file and memory disagree */
	assert_int_equal(parse(len, &info), -EINVAL);
}

/* Reads a word of the laid-out stack at user address ua. */
static uint64_t word(const uint8_t *buf, size_t size, uint64_t ua)
{
	uint64_t v;

	memcpy(&v, buf + size - (TOP - ua), sizeof(v));
	return v;
}

static const char *str(const uint8_t *buf, size_t size, uint64_t ua)
{
	return (const char *)buf + size - (TOP - ua);
}

/*
 * exec parses a mapped file from its first page only: the headers must be in that part, and
 * the segments are checked against the whole file's size, not the part's.
 */
static int parse_headers(size_t part, size_t file_len, struct elf_info *info)
{
	uint8_t *copy = malloc(part ? part : 1); /* exact size: ASan sees any overread */
	memcpy(copy, file, part);
	int ret = elf_parse_headers(copy, part, file_len, DYN_BASE, info);
	free(copy);
	return ret;
}

static void test_headers_from_the_first_page(void **state)
{
	struct elf_info info;
	size_t len = make_elf(ET_EXEC, 0x400000);

	(void)state;
	assert_int_equal(parse_headers(0x1000, len, &info), 0);
	assert_int_equal(info.nsegs, 3);
	assert_int_equal(info.segs[2].offset, 0x1100);
	/* The part has the headers, but the file is too short for the last segment's bytes. */
	assert_int_equal(parse_headers(0x1000, 0x1105, &info), -EINVAL);
	/* The program headers cut short by the part: not parsed (exec then reads the file). */
	assert_int_equal(parse_headers(EHDR_SIZE + PHDR_SIZE, len, &info), -ENOEXEC);
	/* A part longer than the file is a caller's error. */
	assert_int_equal(parse_headers(0x1000, 0x800, &info), -ENOEXEC);
}

static void test_stack_layout(void **state)
{
	struct elf_info elf;
	static uint8_t buf[8192] __attribute__((aligned(16)));
	char *argv[] = {"prog", "one", NULL};
	char *envp[] = {"HOME=/root", NULL};
	struct exec_stack_info info = {&elf,
				       "/bin/prog",
				       "x86_64",
				       {1, 2, 3},
				       0x178bfbff,
				       100,
				       0,
				       0,
				       .interp_base = 0x7ffff7fc3000,
				       .sysinfo_ehdr = 0x7ffff7fc1000};
	struct exec_stack_layout lay;

	(void)state;
	make_elf(ET_EXEC, 0x400000);
	assert_int_equal(parse(0x1200, &elf), 0);
	assert_int_equal(build_user_stack(buf, sizeof(buf), TOP, argv, envp, &info, &lay), 0);
	assert_int_equal(lay.sp % 16, 0);
	uint64_t sp = lay.sp;
	assert_int_equal(word(buf, sizeof(buf), sp), 2);                         /* argc */
	assert_string_equal(str(buf, sizeof(buf), word(buf, sizeof(buf), sp + 8)), "prog");
	assert_string_equal(str(buf, sizeof(buf), word(buf, sizeof(buf), sp + 16)), "one");
	assert_int_equal(word(buf, sizeof(buf), sp + 24), 0);
	assert_string_equal(str(buf, sizeof(buf), word(buf, sizeof(buf), sp + 32)), "HOME=/root");
	assert_int_equal(word(buf, sizeof(buf), sp + 40), 0);
	/* The auxv: AT_SYSINFO_EHDR (33) first, as Linux's ARCH_DLINFO; then find each key. */
	assert_int_equal(word(buf, sizeof(buf), sp + 48), 33);
	assert_int_equal(word(buf, sizeof(buf), sp + 56), 0x7ffff7fc1000);
	uint64_t seen_execfn = 0, seen_phdr = 0, seen_random = 0, seen_entry = 0, n = 0;
	for (uint64_t a = sp + 48;; a += 16, n++) {
		uint64_t key = word(buf, sizeof(buf), a), val = word(buf, sizeof(buf), a + 8);
		if (key == 0)
			break;
		if (key == 31)
			seen_execfn = val;
		if (key == 3)
			seen_phdr = val;
		if (key == 25)
			seen_random = val;
		if (key == 9)
			seen_entry = val;
		if (key == 6)
			assert_int_equal(val, 4096);
		if (key == 7) /* AT_BASE: the interpreter's load bias */
			assert_int_equal(val, 0x7ffff7fc3000);
	}
	assert_int_equal(n, 18);
	assert_string_equal(str(buf, sizeof(buf), seen_execfn), "/bin/prog");
	assert_int_equal(seen_phdr, 0x400040);
	assert_int_equal(seen_entry, 0x401000);
	assert_memory_equal(str(buf, sizeof(buf), seen_random), "\1\2\3", 3);
	assert_string_equal(str(buf, sizeof(buf), lay.arg_start), "prog");
	assert_int_equal(lay.arg_end - lay.arg_start, sizeof("prog") + sizeof("one"));
	assert_int_equal(word(buf, sizeof(buf), TOP - 8), 0); /* the end marker */
}

static void test_stack_too_big(void **state)
{
	struct elf_info elf;
	static uint8_t buf[256] __attribute__((aligned(16)));
	char big[300];
	char *argv[] = {big, NULL};
	struct exec_stack_info info = {&elf, "/bin/prog", "x86_64", {0}, 0, 100, 0, 0, 0, 0};
	struct exec_stack_layout lay;

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	make_elf(ET_EXEC, 0x400000);
	assert_int_equal(parse(0x1200, &elf), 0);
	assert_int_equal(build_user_stack(buf, sizeof(buf), TOP, argv, NULL, &info, &lay), -E2BIG);
	big[100] = 0; /* strings fit, the words do not */
	assert_int_equal(build_user_stack(buf, sizeof(buf), TOP, argv, NULL, &info, &lay), -E2BIG);
	for (size_t size = 0; size < sizeof(buf); size += 16)
		assert_true(build_user_stack(buf + sizeof(buf) - size, size, TOP, argv, NULL, &info,
					     &lay) == -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_exec),
		cmocka_unit_test(test_static_pie),
		cmocka_unit_test(test_not_elf_or_wrong_kind),
		cmocka_unit_test(test_interp),
		cmocka_unit_test(test_bad_segments),
		cmocka_unit_test(test_headers_from_the_first_page),
		cmocka_unit_test(test_stack_layout),
		cmocka_unit_test(test_stack_too_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Fuzzing the ELF loader's checks and the initial stack builder (kernel/fs/binfmt_elf.c).
 *
 * The input is the program file, in a heap buffer of exactly its size (ASan reports a read one
 * byte past it). When it parses, every segment must lie inside the file and the user half, and
 * the stack is then built from argv and envp strings cut from the input's last bytes, into a
 * buffer whose size the input also picks: the stack pointer must land inside it, 16-aligned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/fs/binfmt_elf.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"

#define TOP 0x7ffffffff000UL
#define DYN_BASE 0x555555554000UL
#define MAX_STRINGS 16
#define STACK_BUF 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t stack[STACK_BUF] __attribute__((aligned(16)));
	struct elf_info info;
	uint8_t *file = malloc(size ? size : 1);

	memcpy(file, data, size);
	int err = elf_parse(file, size, DYN_BASE, &info);
	CHECK(err == 0 || err == -ENOEXEC || err == -EINVAL);
	if (err) {
		free(file);
		return 0;
	}
	CHECK(info.nsegs >= 1 && info.nsegs <= ELF_MAX_LOADS);
	for (int i = 0; i < info.nsegs; i++) {
		const struct elf_segment *s = &info.segs[i];
		CHECK(s->filesz <= s->memsz && s->offset <= size && s->filesz <= size - s->offset);
		CHECK(s->vaddr >= ELF_MIN_ADDR && s->vaddr + s->memsz <= ELF_USER_END);
		CHECK(!((s->flags & PF_W) && (s->flags & PF_X)));
	}
	CHECK(info.entry >= ELF_MIN_ADDR && info.entry < ELF_USER_END);

	/* argv and envp: the file's bytes as NUL-terminated strings (a copy that ends in one). */
	char *strings = malloc(size + 1), *argv[MAX_STRINGS + 1], *envp[2] = {NULL, NULL};
	int n = 0;
	memcpy(strings, data, size);
	strings[size] = 0;
	for (size_t off = 0; off <= size && n < MAX_STRINGS; off += strlen(strings + off) + 1)
		argv[n++] = strings + off;
	argv[n] = NULL;
	if (n > 1) {
		envp[0] = argv[n - 1];
		argv[n - 1] = NULL;
	}
	struct exec_stack_info si = {
		&info, "/bin/fuzz", "x86_64", {0}, 0, 100, 0, 0, 0, .sysinfo_ehdr = 0x7ffff7fc1000};
	struct exec_stack_layout lay;
	size_t ssize = (size_t)data[0] * 16 % (STACK_BUF + 16);
	err = build_user_stack(stack + STACK_BUF - ssize, ssize, TOP, argv, envp, &si, &lay);
	CHECK(err == 0 || err == -E2BIG);
	if (!err)
		CHECK(lay.sp % 16 == 0 && lay.sp < TOP && TOP - lay.sp <= ssize);
	free(strings);
	free(file);
	return 0;
}

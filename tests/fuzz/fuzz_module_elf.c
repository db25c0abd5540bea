/*
 * Fuzzing the module loader's ELF steps (kernel/module/module_elf.c) and x86_64's relocations
 * (arch/x86_64/module.c): the input is a .ko file, in a heap buffer of exactly its size (ASan
 * reports a read one byte past it). It goes through every memory-only step of load_module()
 * (tests/unit/host_module.h), the module's memory below 2 GiB as the kernel's is in its top
 * 2 GiB. Whatever the bytes, nothing may be read outside the file or written outside the
 * module's memory, and the error must be one the loader gives. A module that loads must have
 * its sections, its struct module and its __mcount_loc inside its own memory.
 *
 * Seeds: tests/fuzz/corpus/module_elf/ (foo.ko and ticktock.ko as `make modules` built them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/host_module.h"
#include "tests/fuzz/fuzz_check.h"

static bool inside(const struct host_module *hm, uintptr_t addr, size_t len)
{
	uintptr_t base = (uintptr_t)hm->base;

	return addr >= base && len <= hm->size && addr - base <= hm->size - len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct host_module hm;
	uint8_t *file = malloc(size ? size : 1);

	memcpy(file, data, size);
	int err = host_load_module(file, size, &hm);
	CHECK(err == 0 || err == -ENOEXEC || err == -ENOENT || err == -ENOMEM);
	if (!err) {
		const Elf64_Shdr *s = hm.info.sechdrs;

		CHECK(inside(&hm, (uintptr_t)hm.mod, sizeof(*hm.mod)));
		CHECK(hm.info.layout.text_size <= hm.info.layout.ro_size &&
		      hm.info.layout.ro_size <= hm.info.layout.size);
		for (unsigned int i = 1; i < hm.info.hdr->e_shnum; i++)
			if (s[i].sh_flags & SHF_ALLOC)
				CHECK(inside(&hm, s[i].sh_addr, s[i].sh_size));
		if (hm.mod->num_ftrace_callsites)
			CHECK(inside(&hm, (uintptr_t)hm.mod->ftrace_callsites,
				     hm.mod->num_ftrace_callsites * sizeof(unsigned long)));
	}
	host_module_free(&hm);
	free(file);
	return 0;
}

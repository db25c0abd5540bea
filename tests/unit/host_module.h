/*
 * The module loader's memory-only steps (kernel/module/module_elf.c, arch/x86_64/module.c) in
 * load_module()'s order, on the host: for tests/unit/test_module_elf.c and
 * tests/fuzz/fuzz_module_elf.c. The module's memory comes from mmap(MAP_32BIT), below 2 GiB,
 * where -mcmodel=kernel's 32-bit absolute relocations (R_X86_64_32S) fit as they do in the
 * kernel's top 2 GiB; undefined symbols resolve to HOST_MODULE_KERNEL + a small hash of the
 * name, "near" the module as the kernel is, or to 0 for names starting with "no_such".
 */
#ifndef TESTS_UNIT_HOST_MODULE_H
#define TESTS_UNIT_HOST_MODULE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "kernel/module/internal.h"
#include "lib/errno.h"

#define HOST_MODULE_MAX (1UL << 20) /* bigger layouts are not loaded on the host */
#define HOST_MODULE_KERNEL 0x10000000UL

/* The loader's messages: kept, the last one, for the tests to read. */
static char host_module_msg[256];

int printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(host_module_msg, sizeof(host_module_msg), fmt, ap);
	va_end(ap);
	return n;
}

static unsigned long host_resolve(const char *name, void *data)
{
	unsigned long h = 0;

	(void)data;
	if (!strncmp(name, "no_such", 7))
		return 0;
	for (const char *p = name; *p; p++)
		h = h * 31 + (unsigned char)*p;
	return HOST_MODULE_KERNEL + (h % 0x100000) * 16;
}

struct host_module {
	struct load_info info;
	void *base;
	size_t size;
	struct module *mod;
};

/* 0, or the step's error; hm->base is to be freed with host_module_free either way. */
static int host_load_module(void *buf, size_t len, struct host_module *hm)
{
	int err;

	memset(hm, 0, sizeof(*hm));
	hm->info.hdr = buf;
	hm->info.len = len;
	err = elf_validity_check(&hm->info);
	if (!err)
		err = setup_load_info(&hm->info);
	if (!err)
		err = layout_sections(&hm->info);
	if (err)
		return err;
	if (hm->info.layout.size > HOST_MODULE_MAX)
		return -ENOMEM;
	hm->base = mmap(NULL, hm->info.layout.size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (hm->base == MAP_FAILED) {
		hm->base = NULL;
		return -ENOMEM;
	}
	hm->size = hm->info.layout.size;
	move_module(&hm->info, hm->base);
	hm->mod = (struct module *)hm->info.sechdrs[hm->info.index.mod].sh_addr;
	err = simplify_symbols(&hm->info, host_resolve, NULL);
	if (!err)
		err = apply_relocations(&hm->info);
	if (!err)
		err = setup_module_struct(&hm->info, hm->mod);
	return err;
}

static void host_module_free(struct host_module *hm)
{
	if (hm->base)
		munmap(hm->base, hm->size);
}

#endif

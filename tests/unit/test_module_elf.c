/*
 * Tests for the module loader's ELF steps (kernel/module/module_elf.c) and x86_64's relocations
 * (arch/x86_64/module.c), on the host: build/modules/foo.ko loaded whole into memory below
 * 2 GiB (tests/unit/host_module.h), then one field at a time spoiled, each refused with the
 * error and the message Linux's loader gives.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "tests/unit/host_module.h"

#define CALL_OPCODE 0xe8
#define CALL_SIZE 5

static uint8_t *foo;
static size_t foo_len;

static int read_foo(void **state)
{
	FILE *f = fopen(FOO_KO, "rb");

	(void)state;
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	foo_len = (size_t)ftell(f);
	rewind(f);
	foo = malloc(foo_len);
	if (fread(foo, 1, foo_len, f) != foo_len)
		return -1;
	fclose(f);
	return 0;
}

static int free_foo(void **state)
{
	(void)state;
	free(foo);
	return 0;
}

/* A fresh copy of foo.ko (the loader writes to its file buffer). */
static uint8_t *copy(void)
{
	uint8_t *b = malloc(foo_len);

	memcpy(b, foo, foo_len);
	return b;
}

static Elf64_Ehdr *hdr(uint8_t *b)
{
	return (Elf64_Ehdr *)b;
}

static Elf64_Shdr *shdr(uint8_t *b, unsigned int i)
{
	return (Elf64_Shdr *)(b + hdr(b)->e_shoff) + i;
}

static unsigned int find(uint8_t *b, const char *name)
{
	const char *names = (const char *)b + shdr(b, hdr(b)->e_shstrndx)->sh_offset;

	for (unsigned int i = 1; i < hdr(b)->e_shnum; i++)
		if (!strcmp(names + shdr(b, i)->sh_name, name))
			return i;
	fail_msg("no section %s", name);
	return 0;
}

static Elf64_Sym *symbol(uint8_t *b, const char *name)
{
	Elf64_Shdr *st = shdr(b, find(b, ".symtab"));
	const char *strs = (const char *)b + shdr(b, st->sh_link)->sh_offset;
	Elf64_Sym *sym = (Elf64_Sym *)(b + st->sh_offset);

	for (size_t i = 0; i < st->sh_size / sizeof(*sym); i++)
		if (!strcmp(strs + sym[i].st_name, name))
			return &sym[i];
	fail_msg("no symbol %s", name);
	return NULL;
}

static Elf64_Rela *first_rela(uint8_t *b, const char *sec)
{
	return (Elf64_Rela *)(b + shdr(b, find(b, sec))->sh_offset);
}

/* Loads b (len bytes), expects err and, if msg, that the last message says it. */
static void expect(uint8_t *b, size_t len, int err, const char *msg)
{
	struct host_module hm;

	host_module_msg[0] = '\0';
	assert_int_equal(host_load_module(b, len, &hm), err);
	if (msg)
		assert_non_null(strstr(host_module_msg, msg));
	host_module_free(&hm);
	free(b);
}

static void test_foo_loads(void **state)
{
	struct host_module hm;
	uint8_t *b = copy();

	(void)state;
	assert_int_equal(host_load_module(b, foo_len, &hm), 0);
	assert_string_equal(hm.mod->name, "foo");
	assert_non_null(hm.mod->init);
	assert_non_null(hm.mod->exit);
	/* Regions: whole pages, text first; init and exit are in the text. */
	const struct module_layout *l = &hm.info.layout;
	assert_true(l->text_size > 0 && l->text_size % MODULE_PAGE_SIZE == 0);
	assert_true(l->ro_size > l->text_size && l->size > l->ro_size);
	uintptr_t base = (uintptr_t)hm.base;
	assert_in_range((uintptr_t)hm.mod->init, base, base + l->text_size - 1);
	assert_in_range((uintptr_t)hm.mod->exit, base, base + l->text_size - 1);
	/* struct module is writable data */
	assert_in_range((uintptr_t)hm.mod, base + l->ro_size, base + l->size - 1);
	/* Every recorded site is a call to (the resolved) __fentry__, in the text. */
	assert_int_equal(hm.mod->num_ftrace_callsites, 2);
	assert_int_equal((uintptr_t)hm.mod->ftrace_callsites % sizeof(long), 0);
	for (unsigned int i = 0; i < hm.mod->num_ftrace_callsites; i++) {
		uint8_t *site = (uint8_t *)hm.mod->ftrace_callsites[i];
		int32_t rel;

		assert_in_range((uintptr_t)site, base, base + l->text_size - CALL_SIZE);
		assert_int_equal(site[0], CALL_OPCODE);
		memcpy(&rel, site + 1, sizeof(rel));
		assert_int_equal((uintptr_t)site + CALL_SIZE + rel,
				 host_resolve("__fentry__", NULL));
	}
	/* Its two trace_printk formats, relocated to its own rodata. */
	assert_int_equal(hm.mod->num_trace_bprintk_fmt, 2);
	int found = 0;
	for (unsigned int i = 0; i < 2; i++) {
		const char *fmt = hm.mod->trace_bprintk_fmt_start[i];

		found += !strcmp(fmt, "read foo %d out of bar %p\n") ||
			 !strcmp(fmt, "foo says goodbye\n");
		assert_in_range((uintptr_t)fmt, base + l->text_size, base + l->ro_size - 1);
	}
	assert_int_equal(found, 2);
	assert_string_equal(get_modinfo(&hm.info, "license"), "GPL");
	host_module_free(&hm);
	free(b);
}

static void test_bad_header(void **state)
{
	uint8_t *b;

	(void)state;
	expect(copy(), 32, -ENOEXEC, "Invalid ELF header len 32");
	b = copy();
	b[0] = 'X';
	expect(b, foo_len, -ENOEXEC, "Invalid ELF header magic");
	b = copy();
	hdr(b)->e_type = 2;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF header type: 2 != 1");
	b = copy();
	hdr(b)->e_machine = 3;
	expect(b, foo_len, -ENOEXEC, "Invalid architecture in ELF header: 3");
	b = copy();
	b[EI_CLASS] = 1; /* 32-bit */
	expect(b, foo_len, -ENOEXEC, "Invalid architecture in ELF header");
	b = copy();
	hdr(b)->e_shentsize = 40;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section header size");
	b = copy();
	hdr(b)->e_shoff = UINT64_MAX - 8;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section header overflow");
	b = copy();
	hdr(b)->e_shoff += 4; /* misaligned: the headers are read in place */
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section header overflow");
	expect(copy(), foo_len / 2, -ENOEXEC, "Invalid ELF section header overflow");
	b = copy();
	hdr(b)->e_shstrndx = hdr(b)->e_shnum;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section name index");
}

static void test_bad_sections(void **state)
{
	uint8_t *b;

	(void)state;
	b = copy();
	shdr(b, find(b, ".text"))->sh_offset = UINT64_MAX;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".text"))->sh_size = foo_len; /* runs off the end */
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".bss"))->sh_size = 1UL << 40; /* memory, not file: still bounded */
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".data"))->sh_addralign = 3;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".text"))->sh_name = UINT32_MAX;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, 0)->sh_size = 1;
	expect(b, foo_len, -ENOEXEC, "section 0 type");
	/* The section names' table must end in a NUL. */
	b = copy();
	Elf64_Shdr *names = shdr(b, hdr(b)->e_shstrndx);
	b[names->sh_offset + names->sh_size - 1] = 'x';
	expect(b, foo_len, -ENOEXEC, "isn't null terminated");
	/* The symbol table: a whole number of entries, one table, linked to a string table. */
	b = copy();
	shdr(b, find(b, ".symtab"))->sh_size -= 1;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF sh_link");
	b = copy();
	shdr(b, find(b, ".symtab"))->sh_link = find(b, ".text");
	expect(b, foo_len, -ENOEXEC, "Invalid ELF sh_link");
	b = copy();
	shdr(b, find(b, ".symtab"))->sh_type = SHT_PROGBITS;
	expect(b, foo_len, -ENOEXEC, "no symbols (stripped?)");
	b = copy();
	Elf64_Shdr *strs = shdr(b, shdr(b, find(b, ".symtab"))->sh_link);
	b[strs->sh_offset + strs->sh_size - 1] = 'x';
	expect(b, foo_len, -ENOEXEC, "Invalid ELF sh_link");
	/* Relocation tables: whole, linked to the symbol table, for a section that exists. */
	b = copy();
	shdr(b, find(b, ".rela.text"))->sh_info = hdr(b)->e_shnum;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".rela.text"))->sh_link = find(b, ".strtab");
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".rela.text"))->sh_entsize = 16;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF section in module");
	b = copy();
	shdr(b, find(b, ".rela.text"))->sh_type = SHT_REL;
	expect(b, foo_len, -ENOEXEC, "REL relocation unsupported");
	/* The tables the kernel reads as C arrays. */
	b = copy();
	shdr(b, find(b, "__mcount_loc"))->sh_size -= 1;
	expect(b, foo_len, -ENOEXEC, "invalid section __mcount_loc");
}

static void test_bad_module_section(void **state)
{
	uint8_t *b;

	(void)state;
	b = copy();
	shdr(b, find(b, ".gnu.linkonce.this_module"))->sh_size -= 8;
	expect(b, foo_len, -ENOEXEC, "section size must match");
	b = copy();
	shdr(b, find(b, ".gnu.linkonce.this_module"))->sh_flags &= ~(uint64_t)SHF_WRITE;
	expect(b, foo_len, -ENOEXEC, "section size must match");
	b = copy();
	char *name = (char *)b + shdr(b, find(b, ".gnu.linkonce.this_module"))->sh_offset +
		     offsetof(struct module, name);
	memset(name, 'x', MODULE_NAME_LEN);
	expect(b, foo_len, -ENOEXEC, "Invalid module name");
	b = copy();
	b[shdr(b, hdr(b)->e_shstrndx)->sh_offset +
	  shdr(b, find(b, ".gnu.linkonce.this_module"))->sh_name + 1] = 'X';
	expect(b, foo_len, -ENOEXEC, "No module found in object");
}

static void test_bad_symbols(void **state)
{
	uint8_t *b;

	(void)state;
	b = copy();
	symbol(b, "foo_bar")->st_name = UINT32_MAX;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF symbol");
	b = copy();
	symbol(b, "foo_bar")->st_shndx = hdr(b)->e_shnum;
	expect(b, foo_len, -ENOEXEC, "Invalid ELF symbol");
	b = copy();
	symbol(b, "foo_bar")->st_value = 1UL << 40; /* far past the end of its section */
	expect(b, foo_len, -ENOEXEC, "Invalid ELF symbol");
	b = copy();
	symbol(b, "foo_bar")->st_shndx = SHN_COMMON;
	expect(b, foo_len, -ENOEXEC, "foo: please compile with -fno-common");
	/* An undefined symbol nobody exports: ENOENT, the name in the message. */
	b = copy();
	Elf64_Shdr *strs = shdr(b, shdr(b, find(b, ".symtab"))->sh_link);
	char *name = (char *)b + strs->sh_offset + symbol(b, "__trace_bputs")->st_name;
	memcpy(name, "no_such", 7);
	expect(b, foo_len, -ENOENT, "foo: Unknown symbol no_such_bputs (err -2)");
	/* ... unless the reference is weak. */
	b = copy();
	name = (char *)b + shdr(b, shdr(b, find(b, ".symtab"))->sh_link)->sh_offset +
	       symbol(b, "__trace_bputs")->st_name;
	Elf64_Sym *s = symbol(b, "__trace_bputs");
	memcpy(name, "no_such", 7);
	s->st_info = (unsigned char)(STB_WEAK << 4 | ELF64_ST_TYPE(s->st_info));
	expect(b, foo_len, 0, NULL);
}

static void test_bad_relocations(void **state)
{
	uint8_t *b;

	(void)state;
	b = copy();
	first_rela(b, ".rela.text")->r_info =
		ELF64_R_SYM(first_rela(b, ".rela.text")->r_info) << 32 | 42;
	expect(b, foo_len, -ENOEXEC, "foo: Unknown rela relocation: 42");
	b = copy();
	first_rela(b, ".rela.text")->r_offset = 1UL << 40;
	expect(b, foo_len, -ENOEXEC, "foo: invalid relocation 0");
	b = copy();
	/* the last bytes of the section, for a 4-byte field: one past */
	first_rela(b, ".rela.text")->r_offset = shdr(b, find(b, ".text"))->sh_size - 3;
	expect(b, foo_len, -ENOEXEC, "foo: invalid relocation 0");
	b = copy();
	first_rela(b, ".rela.text")->r_info |= 0xffffUL << 32; /* symbol index past the table */
	expect(b, foo_len, -ENOEXEC, "foo: invalid relocation 0");
	/* A place relocated twice: its bytes are no longer 0. */
	b = copy();
	Elf64_Rela *r = first_rela(b, ".rela.text");
	b[shdr(b, find(b, ".text"))->sh_offset + r->r_offset] = 0x55;
	expect(b, foo_len, -ENOEXEC, "existing value is nonzero");
	/* A call out of reach of a 32-bit displacement: refused, never cut short. */
	b = copy();
	symbol(b, "__fentry__")->st_shndx = SHN_ABS;
	symbol(b, "__fentry__")->st_value = 0x7fff00000000UL;
	expect(b, foo_len, -ENOEXEC, "likely not compiled with -mcmodel=kernel");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_foo_loads),    cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_sections), cmocka_unit_test(test_bad_module_section),
		cmocka_unit_test(test_bad_symbols),  cmocka_unit_test(test_bad_relocations),
	};
	return cmocka_run_group_tests(tests, read_foo, free_foo);
}

/*
 * Tests for trace/ftrace_mod_map.c: the names of an unloaded module's functions, found by any
 * address inside them, and nothing outside them.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "trace/ftrace_mod_map.h"
#include "tests/unit/host_kmalloc.h"
#include "lib/string.h"

#define BASE 0xffffffffc0000000UL

/* Given out of order, as a module's __mcount_loc need not be. */
static const struct ftrace_mod_site sites[] = {
	{BASE + 0x40, "foo_init", 0x40},
	{BASE + 0x0, "bar_read", 0x30},
	{BASE + 0x90, "foo_exit", 0x10},
	{BASE + 0xa0, "tiny", 0}, /* no size: its first byte only */
};

static const char *name_at(const struct ftrace_mod_map *map, unsigned long addr)
{
	const struct ftrace_mod_func *f = ftrace_mod_map_find(map, addr);

	return f ? f->name : NULL;
}

static void test_lookup(void **state)
{
	char name[16] = "foo_init";
	struct ftrace_mod_site copy[ARRAY_SIZE(sites)];

	(void)state;
	memcpy(copy, sites, sizeof(copy));
	copy[0].name = name;
	struct ftrace_mod_map *map = ftrace_mod_map_alloc("foo", copy, ARRAY_SIZE(copy));

	assert_non_null(map);
	name[0] = 'X'; /* the map has its own copy: the module's strings go away */
	assert_string_equal(map->modname, "foo");
	assert_string_equal(name_at(map, BASE + 0x40), "foo_init");
	assert_string_equal(name_at(map, BASE + 0x52), "foo_init");
	assert_string_equal(name_at(map, BASE + 0x7f), "foo_init");
	assert_string_equal(name_at(map, BASE + 0x0), "bar_read");
	assert_string_equal(name_at(map, BASE + 0x2f), "bar_read");
	assert_null(name_at(map, BASE + 0x30)); /* between two functions */
	assert_string_equal(name_at(map, BASE + 0x90), "foo_exit");
	assert_null(name_at(map, BASE + 0x80));
	assert_string_equal(name_at(map, BASE + 0xa0), "tiny");
	assert_null(name_at(map, BASE + 0xa1));
	assert_null(name_at(map, BASE - 1));
	assert_null(name_at(map, 0));
	assert_null(name_at(map, ~0UL));
	const struct ftrace_mod_func *f = ftrace_mod_map_find(map, BASE + 0x52);
	assert_int_equal(f->ip, BASE + 0x40);
	assert_int_equal(f->size, 0x40);
	kfree(map);
	assert_int_equal(host_kmalloc_live, 0);
}

static void test_empty_and_no_memory(void **state)
{
	(void)state;
	assert_null(ftrace_mod_map_alloc("foo", sites, 0));
	assert_null(ftrace_mod_map_find(NULL, BASE));
	host_kmalloc_fail_at = 1;
	assert_null(ftrace_mod_map_alloc("foo", sites, ARRAY_SIZE(sites)));
	host_kmalloc_fail_at = 0;
	assert_int_equal(host_kmalloc_live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_empty_and_no_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

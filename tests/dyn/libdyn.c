/*
 * A small shared library for tests/qemu/trace/test_dynamic.py: data, bss and a function ld.so must
 * relocate, mapped from a file other than libc. Built under three sonames: libdyn.so (packed),
 * libdynmissing.so (never packed) and libdyntrunc.so (packed cut short).
 */
int dyn_counter = 40; /* .data: a copy of the file's bytes */
static int dyn_calls; /* .bss: zero-filled past the file's bytes */

int dyn_add(int n)
{
	dyn_calls++;
	dyn_counter += n;
	return dyn_counter + dyn_calls;
}

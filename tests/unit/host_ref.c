/*
 * The host C library's snprintf, the reference test_printf compares Lucid's with. It lives in
 * its own file because lib/printf.h renames snprintf to lucid_snprintf for every file that
 * includes it; this one must not, so that here snprintf means glibc's.
 */
#include <stdarg.h>
#include <stdio.h>

int host_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

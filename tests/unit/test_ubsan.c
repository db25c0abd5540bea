/*
 * Tests for kernel/debug/ubsan.c, the kernel's undefined behaviour sanitizer runtime, on the host.
 *
 * This file is compiled with -fsanitize=undefined like every unit test, but recoverable
 * (ubsan.mk), so gcc's checks call the plain __ubsan_handle_* functions, and ubsan.c's
 * definitions take precedence over the host's libubsan. Each case commits one kind of undefined
 * behaviour in a child process; the stand-ins below for printk, dump_stack and panic send the
 * report down a pipe and end the child with status 3, as QEMU would. The parent compares the
 * report with what Linux prints for the same mistake. Only `crash ubsan` (signed overflow)
 * can be tried in QEMU; this covers every handler.
 */
/* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include "lib/compiler.h"
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "lib/printf.h"

static int report_fd = -1;
static char report[4096];
static size_t report_len;

/* ---- stand-ins for the kernel functions ubsan.c calls ----------------------------------- */

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (fmt[0] == '\001' && fmt[1]) /* the KERN_ level */
		fmt += 2;
	va_start(ap, fmt);
	n = vscnprintf(report + report_len, sizeof(report) - report_len, fmt, ap);
	va_end(ap);
	report_len += n;
	return n;
}

void oops_begin(void)
{
}

void dump_stack(void)
{
	printk("Call Trace:\n");
}

void panic(const char *fmt, ...)
{
	va_list ap;

	printk("Kernel panic - not syncing: ");
	va_start(ap, fmt);
	report_len += vscnprintf(report + report_len, sizeof(report) - report_len, fmt, ap);
	va_end(ap);
	if (write(report_fd, report, report_len) < 0)
		_exit(2);
	_exit(3);
}

/* ---- undefined behaviour, one kind per function ------------------------------------------- */

static volatile int int_max = INT_MAX, int_min = INT_MIN, zero, minus_one = -1, one = 1;
static volatile int thirty_two = 32, five = 5;
static volatile long long llong_max = LLONG_MAX;
static volatile long long sink; /* results go here, so that no check is optimized away */

static void add(void)
{
	sink = int_max + one;
}
static void sub(void)
{
	sink = int_min - one;
}
static void mul(void)
{
	sink = llong_max * 2;
}
static void negate(void)
{
	sink = -int_min;
}
static void div_zero(void)
{
	sink = one / zero;
}
static void div_minus_one(void)
{
	sink = int_min / minus_one;
}
static void shift_too_far(void)
{
	sink = one << thirty_two;
}
static void shift_negative(void)
{
	sink = one << minus_one;
}
static void shift_negative_value(void)
{
	sink = minus_one << one;
}
static void shift_overflow(void)
{
	sink = int_max << one;
}

static void index_out_of_bounds(void)
{
	volatile int a[4] = {0};

	sink = a[five];
}

static void vla_negative(void)
{
	volatile int n = minus_one;
	volatile char v[n];

	(void)v;
}

static void bool_load(void)
{
	volatile unsigned char byte = 5;
	bool b;

	memcpy(&b, (const void *)&byte, 1);
	if (*(volatile bool *)&b)
		sink = 1;
}

static void misaligned(void)
{
	static char buf[16] __aligned(8);
	volatile int *p = (volatile int *)(buf + 1);

	sink = *p;
}

static void null_store(void)
{
	volatile int *volatile p = NULL;

	*p = 1;
}

static void clz_zero(void)
{
	sink = __builtin_clz((unsigned int)zero);
}

static void unreachable(void)
{
	if (!zero)
		__builtin_unreachable();
}

static void pointer_wraps(void)
{
	volatile uintptr_t top = UINTPTR_MAX - 4;
	char *volatile p = (char *)top;

	p = p + int_max;
}

/* Runs fn in a child; returns its report. The child must end through panic(), status 3. */
static const char *report_of(void (*fn)(void))
{
	static char buf[4096];
	int fds[2], status;
	ssize_t n, len = 0;

	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		report_fd = fds[1];
		fn();
		_exit(0); /* no report */
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	return buf;
}

/* The report names the kind and this file, says what, and panics with the same kind. */
static void check(void (*fn)(void), const char *kind, const char *what)
{
	const char *r = report_of(fn);
	char head[128], tail[128];

	snprintf(head, sizeof(head), "UBSAN: %s in tests/unit/test_ubsan.c:", kind);
	snprintf(tail, sizeof(tail), "Kernel panic - not syncing: UBSAN: %s in tests/unit/", kind);
	if (!strstr(r, head) || !strstr(r, what) || !strstr(r, "Call Trace:") || !strstr(r, tail))
		fail_msg("want \"%s\" and \"%s\", got:\n%s", head, what, r);
}

static void test_overflow(void **state)
{
	(void)state;
	check(add, "signed-integer-overflow",
	      "\n2147483647 + 1 cannot be represented in type 'int'\n");
	check(sub, "signed-integer-overflow",
	      "\n-2147483648 - 1 cannot be represented in type 'int'\n");
	check(mul, "signed-integer-overflow",
	      "\n9223372036854775807 * 2 cannot be represented in type 'long long int'\n");
	check(negate, "negation-overflow",
	      "\nnegation of -2147483648 cannot be represented in type 'int'\n");
}

static void test_division(void **state)
{
	(void)state;
	check(div_zero, "division-overflow", "\ndivision by zero\n");
	check(div_minus_one, "division-overflow",
	      "\ndivision of -2147483648 by -1 cannot be represented in type 'int'\n");
}

static void test_shift(void **state)
{
	(void)state;
	check(shift_too_far, "shift-out-of-bounds",
	      "\nshift exponent 32 is too large for 32-bit type 'int'\n");
	check(shift_negative, "shift-out-of-bounds", "\nshift exponent -1 is negative\n");
	check(shift_negative_value, "shift-out-of-bounds", "\nleft shift of negative value -1\n");
	check(shift_overflow, "shift-out-of-bounds",
	      "\nleft shift of 2147483647 by 1 places cannot be represented in type 'int'\n");
}

static void test_memory(void **state)
{
	(void)state;
	check(index_out_of_bounds, "array-index-out-of-bounds",
	      "\nindex 5 is out of range for type 'int [4]'\n");
	check(misaligned, "misaligned-access", "\nwhich requires 4 byte alignment\n");
	check(null_store, "null-ptr-deref", "\nstore to null pointer of type 'volatile int'\n");
	/* %p as Linux prints it: 16 digits, no 0x */
	check(pointer_wraps, "pointer-overflow",
	      "\naddition to pointer fffffffffffffffb wrapped around to 000000007ffffffa\n");
}

static void test_other(void **state)
{
	(void)state;
	check(vla_negative, "variable-length-array",
	      "\nvariable length array bound evaluates to non-positive value -1\n");
	check(bool_load, "invalid-load",
	      "\nload of value 5 is not a valid value for type '_Bool'\n");
	check(clz_zero, "invalid-builtin-use",
	      "\npassing zero to clz(), which is not a valid argument\n");
	check(unreachable, "unreachable", "\ncalling __builtin_unreachable()\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overflow), cmocka_unit_test(test_division),
		cmocka_unit_test(test_shift),	 cmocka_unit_test(test_memory),
		cmocka_unit_test(test_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

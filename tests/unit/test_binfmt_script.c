/*
 * Tests for kernel/fs/binfmt_script.c: `#!` lines as Linux's load_script reads them, each in a
 * 256-byte buffer padded with NULs as exec fills it.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/binfmt_script.h"
#include "lib/errno.h"

static char buf[BINPRM_BUF_SIZE];

/* Parses line (len bytes, NULs after); returns script_parse's answer. */
static int parse(const char *line, size_t len, const char **name, const char **arg)
{
	memset(buf, 0, sizeof(buf));
	memcpy(buf, line, len < sizeof(buf) ? len : sizeof(buf));
	return script_parse(buf, name, arg);
}

static int parse_str(const char *line, const char **name, const char **arg)
{
	return parse(line, strlen(line), name, arg);
}

static void test_name_and_one_argument(void **state)
{
	const char *name, *arg;

	(void)state;
	assert_int_equal(parse_str("#!/bin/sh\necho\n", &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_null(arg);
	assert_int_equal(parse_str("#!/bin/sh -x\n", &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_string_equal(arg, "-x");
	/* Every word after the name is one argument, trimmed at both ends. */
	assert_int_equal(parse_str("#! \t/bin/echo  a b\t c \t\n", &name, &arg), 0);
	assert_string_equal(name, "/bin/echo");
	assert_string_equal(arg, "a b\t c");
	/* No newline in a short file: the NULs after it end the line. */
	assert_int_equal(parse_str("#!/bin/sh", &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_null(arg);
	/* A NUL ends the name, and there is no argument then. */
	assert_int_equal(parse("#!/bin/sh\0 -x\n", 14, &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_null(arg);
	/* Trailing blanks are not an argument. */
	assert_int_equal(parse_str("#!/bin/sh  \t \n", &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_null(arg);
}

static void test_crlf_is_part_of_the_line(void **state)
{
	const char *name, *arg;

	(void)state;
	assert_int_equal(parse_str("#!/bin/sh\r\n", &name, &arg), 0);
	assert_string_equal(name, "/bin/sh\r");
	assert_int_equal(parse_str("#!/bin/sh -x\r\n", &name, &arg), 0);
	assert_string_equal(arg, "-x\r");
}

static void test_not_a_usable_line(void **state)
{
	const char *name, *arg;

	(void)state;
	assert_int_equal(parse_str("echo hi\n", &name, &arg), -ENOEXEC);
	assert_int_equal(parse_str("#\n", &name, &arg), -ENOEXEC);
	assert_int_equal(parse_str("#!\n", &name, &arg), -ENOEXEC);
	assert_int_equal(parse_str("#!   \n", &name, &arg), -ENOEXEC);
	/* Only NULs after "#!": an empty name (exec then finds the cwd, a directory: EACCES). */
	assert_int_equal(parse_str("#!", &name, &arg), 0);
	assert_string_equal(name, "");
}

static void test_past_the_buffer(void **state)
{
	char line[400];
	const char *name, *arg;

	(void)state;
	/* The name ends inside the buffer: the argument is what fits, less its last byte. */
	memset(line, 'a', sizeof(line));
	memcpy(line, "#!/bin/sh ", 10);
	assert_int_equal(parse(line, sizeof(line), &name, &arg), 0);
	assert_string_equal(name, "/bin/sh");
	assert_int_equal(strlen(arg), BINPRM_BUF_SIZE - 10 - 1);
	/* A name the buffer cuts would be the wrong file. */
	memset(line, 'a', sizeof(line));
	memcpy(line, "#!/", 3);
	assert_int_equal(parse(line, sizeof(line), &name, &arg), -ENOEXEC);
	/* All blanks. */
	memset(line, ' ', sizeof(line));
	memcpy(line, "#!", 2);
	assert_int_equal(parse(line, sizeof(line), &name, &arg), -ENOEXEC);
	/* Blanks up to the buffer's end after an option: trimmed. */
	memset(line, ' ', sizeof(line));
	memcpy(line, "#!/bin/sh -x", 12);
	assert_int_equal(parse(line, sizeof(line), &name, &arg), 0);
	assert_string_equal(arg, "-x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_and_one_argument),
		cmocka_unit_test(test_crlf_is_part_of_the_line),
		cmocka_unit_test(test_not_a_usable_line),
		cmocka_unit_test(test_past_the_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

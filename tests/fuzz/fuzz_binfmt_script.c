/*
 * Fuzzing script_parse (kernel/fs/binfmt_script.c): any first 256 bytes of a file, as exec
 * hands them over (NUL-padded). Besides ASan's bounds on the exact 256-byte buffer, each answer
 * is checked against the rules the parser states: a name and an argument inside the buffer and
 * NUL-terminated there, the name free of blanks, the argument trimmed of them at both ends
 * (unless a NUL of the file's own ends it early, as it does on Linux).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/fs/binfmt_script.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s lies in buf and ends with a NUL inside it. */
static bool inside(const char *buf, const char *s)
{
	return s >= buf && s < buf + BINPRM_BUF_SIZE && memchr(s, 0, buf + BINPRM_BUF_SIZE - s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(BINPRM_BUF_SIZE); /* exactly the buffer: ASan catches a step past it */
	char orig[BINPRM_BUF_SIZE];
	const char *name = NULL, *arg = NULL;

	memset(buf, 0, BINPRM_BUF_SIZE);
	memcpy(buf, data, size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE);
	memcpy(orig, buf, BINPRM_BUF_SIZE);
	bool shebang = buf[0] == '#' && buf[1] == '!';
	int err = script_parse(buf, &name, &arg);

	CHECK(err == 0 || err == -ENOEXEC);
	CHECK(shebang || err == -ENOEXEC);
	if (!err) {
		CHECK(inside(buf, name));
		for (const char *p = name; *p; p++)
			CHECK(!blank(*p) && *p != '\n');
		if (arg) {
			CHECK(inside(buf, arg) && arg > name);
			size_t len = strlen(arg);

			/* Empty, or ending in a blank, only where the file's own NUL cut it. */
			CHECK(len || orig[arg - buf] == '\0');
			CHECK(!len || !blank(arg[0]));
			CHECK(!len || !blank(arg[len - 1]) || orig[arg - buf + len] == '\0');
			CHECK(!strchr(arg, '\n'));
		}
	}
	free(buf);
	return 0;
}

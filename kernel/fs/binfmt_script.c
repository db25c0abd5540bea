/*
 * `#!` scripts, as Linux's fs/binfmt_script.c reads them.
 *
 * A file exec is given that starts with "#!" names the program that runs it: exec runs that
 * program instead, with the script's path among its arguments. The line is
 *	#! interpreter [argument]
 * read from the file's first BINPRM_BUF_SIZE (256) bytes: the interpreter's path ends at the
 * first space, tab or NUL; everything after it, spaces and tabs trimmed from both ends, is
 * ONE argument, however many words it has ("#!/bin/echo a b" passes "a b"). Only spaces and
 * tabs separate: a '\r' (a line written on Windows) is part of the path or the argument, so
 * "#!/bin/sh\r" names a file that is not there (ENOENT), as on Linux.
 *
 * A line longer than the buffer: if a newline is not in it, the interpreter's path must still
 * end inside it (a space, tab or NUL after it), and the argument is what fits; a path cut by
 * the buffer's end would run the wrong file, so that is -ENOEXEC. The interpreter reads the
 * script itself and sees the whole line.
 *
 * exec (kernel/fs/exec.c) then makes argv [interpreter, argument?, script path, argv[1]...]
 * and starts over with the interpreter, which may be a script too, up to BINPRM_MAX_SCRIPTS.
 */
#include "kernel/fs/binfmt_script.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <stdbool.h>
#include <stddef.h>

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* The first byte in [first, last] that is not a space or tab, or NULL. */
static char *next_non_spacetab(char *first, char *last)
{
	for (; first <= last; first++)
		if (!spacetab(*first))
			return first;
	return NULL;
}

/* The first space, tab or NUL in [first, last], or NULL: where a path ends. */
static char *next_terminator(char *first, char *last)
{
	for (; first <= last; first++)
		if (spacetab(*first) || !*first)
			return first;
	return NULL;
}

int script_parse(char *buf, const char **name, const char **arg)
{
	char *buf_end = buf + BINPRM_BUF_SIZE - 1;
	char *i_end, *i_name, *i_sep;

	if (buf[0] != '#' || buf[1] != '!')
		return -ENOEXEC;
	i_end = memchr(buf, '\n', BINPRM_BUF_SIZE);
	if (!i_end) {
		/* No newline: the path must end inside the buffer, the argument may be cut. */
		i_end = next_non_spacetab(buf + 2, buf_end);
		if (!i_end || !next_terminator(i_end, buf_end))
			return -ENOEXEC;
		i_end = buf_end;
	}
	while (spacetab(i_end[-1])) /* buf[1] is '!': this stops there at the latest */
		i_end--;
	i_name = next_non_spacetab(buf + 2, i_end);
	if (!i_name || i_name == i_end)
		return -ENOEXEC; /* "#!" and nothing */
	*arg = NULL;
	i_sep = next_terminator(i_name, i_end);
	if (i_sep && *i_sep)
		*arg = next_non_spacetab(i_sep, i_end);
	*i_end = '\0'; /* the argument (or the path) ends where the line's last word ends */
	if (*arg)
		*i_sep = '\0';
	*name = i_name;
	return 0;
}

/* The kernel command line: space-separated words, some of them name=value (as Linux's). */

/*
 * Linux hands every word to the option's parser, in order (parse_args calls the __setup
 * function once per occurrence): a parser that copies or assigns the value lets the last
 * occurrence win (ftrace=, trace_buf_size=, ftrace_filter= ...), one that only sets a flag
 * (tp_printk, stacktrace) is never undone by a later word. cmdline_get() is the first kind,
 * cmdline_has() the second, and cmdline_next() walks the occurrences one by one for a parser
 * that needs both.
 */
#include <limits.h>
#include "kernel/cmdline.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/printk.h"
#include "lib/compiler.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

static char cmdline[BOOT_CMDLINE_MAX];

void cmdline_init(const char *s)
{
	strlcpy(cmdline, s, sizeof(cmdline));
}

const char *cmdline_get_all(void)
{
	return cmdline;
}

/* The first word at or after p that is name or starts with "name="; NULL if none. */
static const char *find_word(const char *p, const char *name)
{
	size_t n = strlen(name);

	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) && (p[n] == '\0' || p[n] == ' ' || p[n] == '='))
			return p;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

/* Copies s up to the end of its word into buf; the length of the whole word. */
static size_t copy_word(const char *s, char *buf, size_t size)
{
	size_t len = 0;

	while (s[len] && s[len] != ' ')
		len++;
	strlcpy(buf, s, MIN(len + 1, size));
	return len;
}

bool cmdline_has(const char *name)
{
	return find_word(cmdline, name) != NULL;
}

bool cmdline_next(const char *name, const char **pos, char *buf, size_t size)
{
	const char *w = find_word(*pos ? *pos : cmdline, name);

	if (!w || size == 0)
		return false;
	*pos = w + strlen(name);
	copy_word(*pos, buf, size);
	return true;
}

#define FLAG_REST_MAX 8 /* "=off" and room: a longer value, cut, is still neither =0 nor =off */

bool cmdline_flag_on(const char *name)
{
	char rest[FLAG_REST_MAX];
	bool on = false;

	for (const char *pos = NULL; cmdline_next(name, &pos, rest, sizeof(rest));)
		on |= strcmp(rest, "=0") && strcmp(rest, "=off");
	return on;
}

bool cmdline_get(const char *name, char *buf, size_t size)
{
	const char *value = NULL;

	for (const char *w = cmdline; (w = find_word(w, name)); w += strlen(name))
		if (w[strlen(name)] == '=')
			value = w + strlen(name) + 1; /* the last one wins */
	if (!value || size == 0)
		return false;
	if (copy_word(value, buf, size) >= size) {
		/* Cut short, 0000000000000005 would read as 0: better not to use it at all. */
		printk(KERN_WARNING "%s=: value longer than %lu characters, ignored\n", name,
		       (unsigned long)size - 1);
		return false;
	}
	return true;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	static const char suffixes[] = "kmgtpe"; /* each one more factor of 1024 */
	char *end;
	unsigned long long v = simple_strtoul(ptr, &end, 0);
	const char *s = end != ptr ? strchr(suffixes, *end | 0x20) : NULL;

	if (s && *end) {
		unsigned int shift = 10 * (unsigned int)(s - suffixes + 1);

		/*
		 * Linux shifts without looking, so trace_buf_size=16777216T was 0 bytes and the
		 * smallest buffer. A size too big to hold is the largest one: whoever uses it then
		 * finds it too big, and says so.
		 */
		v = v > ULLONG_MAX >> shift ? ULLONG_MAX : v << shift;
		end++;
	}
	if (retptr)
		*retptr = end;
	return v;
}

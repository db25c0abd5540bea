/* The kernel command line: space-separated words, some of them name=value (as Linux's). */
#include "kernel/cmdline.h"
#include "kernel/multiboot2.h"
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

/* Finds the word that is name or starts with "name="; returns a pointer to it or NULL. */
static const char *find_word(const char *name)
{
	size_t n = strlen(name);
	for (const char *p = cmdline; *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) && (p[n] == '\0' || p[n] == ' ' || p[n] == '='))
			return p;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

bool cmdline_has(const char *name)
{
	return find_word(name) != NULL;
}

bool cmdline_get(const char *name, char *buf, size_t size)
{
	const char *w = find_word(name);
	if (!w || w[strlen(name)] != '=' || size == 0)
		return false;
	w += strlen(name) + 1;
	size_t i = 0;
	for (; i + 1 < size && w[i] && w[i] != ' '; i++)
		buf[i] = w[i];
	buf[i] = '\0';
	return true;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	static const char suffixes[] = "kmgtpe"; /* each one more factor of 1024 */
	char *end;
	unsigned long long v = simple_strtoul(ptr, &end, 0);
	const char *s = end != ptr ? strchr(suffixes, *end | 0x20) : NULL;

	if (s && *end) {
		v <<= 10 * (s - suffixes + 1);
		end++;
	}
	if (retptr)
		*retptr = end;
	return v;
}

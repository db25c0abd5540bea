/*
 * String and memory functions.
 *
 * gcc emits calls to memcpy, memset, memmove and memcmp on its own (struct copies, large
 * initialisers), so the kernel must provide them under exactly those names. The three copy/fill
 * functions use the x86 string instructions (rep movs/stos), which modern CPUs run at full
 * speed; that also stops gcc from "optimising" a byte loop inside memset into a call to memset,
 * which would recurse forever. The rest are plain byte loops: short, obviously correct.
 *
 * Not traced (lib/ is built without -pg): the tracer formats its output with these functions.
 */
#include "lib/string.h"
#include "lib/compiler.h"
#include "lib/ctype.h"

/*
 * Eight bytes a step, then the rest a byte at a time: a CPU without fast byte strings (ERMS;
 * QEMU's default qemu64 has none) takes a step per byte of rep movsb, and exec copies whole
 * programs with this.
 */
void *memcpy(void *dest, const void *src, size_t n)
{
	void *d = dest;
	size_t qwords = n / 8, bytes = n % 8;

	__asm__ __volatile__("rep movsq" : "+D"(d), "+S"(src), "+c"(qwords) : : "memory");
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(src), "+c"(bytes) : : "memory");
	return dest;
}

void *memset(void *s, int c, size_t n)
{
	void *d = s;
	size_t qwords = n / 8, bytes = n % 8;
	unsigned long pattern = 0x0101010101010101UL * (unsigned char)c; /* c in every byte */

	__asm__ __volatile__("rep stosq" : "+D"(d), "+c"(qwords) : "a"(pattern) : "memory");
	__asm__ __volatile__("rep stosb" : "+D"(d), "+c"(bytes) : "a"(pattern) : "memory");
	return s;
}

/*
 * When dest is above an overlapping src, a forward copy would overwrite src bytes before reading
 * them, so copy backwards: set the direction flag, copy from the last byte down, clear it again
 * (the ABI and our interrupt entry both rely on it being clear).
 */
void *memmove(void *dest, const void *src, size_t n)
{
	if (dest <= src || (const char *)src + n <= (char *)dest)
		return memcpy(dest, src, n);

	void *d = (char *)dest + n - 1;
	const void *s = (const char *)src + n - 1;

	__asm__ __volatile__("std; rep movsb; cld" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return dest;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

/* Comparisons are of unsigned chars, as C requires, so "\xff" sorts after "a". */
int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		unsigned char c1 = *a, c2 = *b;

		if (c1 != c2)
			return c1 - c2;
		if (!c1)
			break;
	}
	return 0;
}

int strcasecmp(const char *a, const char *b)
{
	return strncasecmp(a, b, (size_t)-1);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int c1 = tolower((unsigned char)*a), c2 = tolower((unsigned char)*b);

		if (c1 != c2)
			return c1 - c2;
		if (!c1)
			break;
	}
	return 0;
}

char *strcpy(char *dest, const char *src)
{
	char *d = dest;

	while ((*d++ = *src++))
		;
	return dest;
}

char *strncpy(char *dest, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dest[i] = src[i];
	for (; i < n; i++)
		dest[i] = '\0';
	return dest;
}

size_t strlcpy(char *dest, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dest, src, n);
		dest[n] = '\0';
	}
	return len;
}

char *strcat(char *dest, const char *src)
{
	strcpy(dest + strlen(dest), src);
	return dest;
}

/* As in C, the terminating NUL counts as part of the string: strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

/* The simple quadratic search: haystacks in a kernel shell are short. */
char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strsep(char **s, const char *delim)
{
	char *tok = *s;

	if (!tok)
		return NULL;
	char *end = tok + strcspn(tok, delim);

	if (*end) {
		*end = '\0';
		*s = end + 1;
	} else {
		*s = NULL; /* the last token: the next call returns NULL */
	}
	return tok;
}

char *skip_spaces(const char *str)
{
	while (isspace((unsigned char)*str))
		str++;
	return (char *)str;
}

/*
 * The next blank-separated word of *s, cut in place, with *s moved past it; NULL when only
 * blanks are left. How the tracing files split a write into words (Linux's trace_get_user).
 */
char *next_word(char **s)
{
	char *w = skip_spaces(*s), *e;

	if (!*w)
		return NULL;
	for (e = w; *e && !isspace((unsigned char)*e); e++)
		;
	*s = *e ? e + 1 : e;
	*e = '\0';
	return w;
}

char *strim(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	s[len] = '\0';
	return skip_spaces(s);
}

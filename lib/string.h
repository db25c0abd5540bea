/*
 * String and memory functions: the C library's, plus Linux's strlcpy, strsep, strim, skip_spaces.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

/*
 * Host unit tests link these next to the host's libc. Renaming our copies keeps libc (and the
 * sanitizers, which intercept libc's memcpy) intact while the tests call Lucid's code. A host test
 * must therefore include system headers before this one.
 */
#ifdef LUCID_HOST
#define memcpy lucid_memcpy
#define memmove lucid_memmove
#define memset lucid_memset
#define memcmp lucid_memcmp
#define memchr lucid_memchr
#define strlen lucid_strlen
#define strnlen lucid_strnlen
#define strcmp lucid_strcmp
#define strncmp lucid_strncmp
#define strcasecmp lucid_strcasecmp
#define strncasecmp lucid_strncasecmp
#define strcpy lucid_strcpy
#define strncpy lucid_strncpy
#define strlcpy lucid_strlcpy
#define strcat lucid_strcat
#define strchr lucid_strchr
#define strrchr lucid_strrchr
#define strstr lucid_strstr
#define strspn lucid_strspn
#define strcspn lucid_strcspn
#define strsep lucid_strsep
#endif

void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);

char *strcpy(char *dest, const char *src);
/* Copies at most n bytes and pads with NULs; does NOT terminate when src is n bytes or longer. */
char *strncpy(char *dest, const char *src, size_t n);
/* Copies what fits in size bytes, always NUL-terminated (if size > 0); returns strlen(src). */
size_t strlcpy(char *dest, const char *src, size_t size);
char *strcat(char *dest, const char *src);

char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
/* Returns the next token of *s ending at any byte of delim (which is overwritten by NUL). */
char *strsep(char **s, const char *delim);

/* Returns str past its leading whitespace. */
char *skip_spaces(const char *str);
/* Cuts trailing whitespace off s in place; returns s past its leading whitespace. */
char *strim(char *s);
/* The next blank-separated word of *s, cut in place; NULL if none is left. */
char *next_word(char **s);

#endif

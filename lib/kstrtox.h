/* Strict string-to-integer conversion with Linux's kstrto* rules, for sysfs-style control files. */
#ifndef LIB_KSTRTOX_H
#define LIB_KSTRTOX_H

/*
 * base 0 picks the base from the prefix: "0x"/"0X" hex, "0" octal, else decimal; base 16 also
 * accepts a "0x" prefix. A leading '+' is allowed ('-' only for the signed forms), one trailing
 * newline is allowed (what `echo` writes), anything else is -EINVAL, as is an empty string.
 * A value that does not fit the result type is -ERANGE. *res is written only on success.
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/*
 * The old lenient parser: converts as many digits as it can, sets *endp (if endp is not NULL) to
 * the first character it did not use, and silently wraps on overflow. Prefer kstrto*.
 */
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);

#endif

/*
 * Reading and writing user memory from the kernel (arch/x86_64/copy_user.S does the access).
 *
 * Every user pointer a system call gets goes through these: access_ok() refuses a range that
 * reaches the kernel half (a program must never make the kernel read or write kernel memory for
 * it), and a fault on an unmapped user page becomes a short copy, which the callers turn into
 * -EFAULT. Lucid runs on CPUs without SMAP (qemu64), so the kernel can touch user pages
 * directly once the process's page tables are loaded, which they are during its system calls.
 */
#ifndef ARCH_UACCESS_H
#define ARCH_UACCESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "lib/errno.h"
#include "arch/x86_64/page_64_types.h" /* TASK_SIZE_MAX */

unsigned long __copy_user(void *to, const void *from, unsigned long n);
long __strncpy_from_user(char *dst, const char *src, long count);
unsigned long __clear_user(void *to, unsigned long n);

static inline bool access_ok(const void *addr, unsigned long size)
{
	unsigned long a = (unsigned long)addr;

	return size <= TASK_SIZE_MAX && a <= TASK_SIZE_MAX - size;
}

/* Both return the number of bytes that could not be copied: 0 on success. */
static inline unsigned long copy_from_user(void *to, const void *from, unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	return __copy_user(to, from, n);
}

static inline unsigned long copy_to_user(void *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return __copy_user(to, from, n);
}

static inline unsigned long clear_user(void *to, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return __clear_user(to, n);
}

/* The length of the string copied (without its NUL), count if it did not fit, or -EFAULT. */
static inline long strncpy_from_user(char *dst, const char *src, long count)
{
	unsigned long a = (unsigned long)src;

	if (count <= 0)
		return 0;
	if (a >= TASK_SIZE_MAX)
		return -EFAULT;
	if ((unsigned long)count <= TASK_SIZE_MAX - a)
		return __strncpy_from_user(dst, src, count);
	/*
	 * The string would run past the user half: copy what lies below it, and if no NUL came
	 * by then, the rest is not the program's to give, so -EFAULT, as Linux's
	 * strncpy_from_user() says. Returning the shortened count would look like "did not fit"
	 * with no NUL in dst, which callers take as a full buffer of a string.
	 */
	long max = (long)(TASK_SIZE_MAX - a);
	long n = __strncpy_from_user(dst, src, max);

	return n == max ? -EFAULT : n;
}

int __futex_cmpxchg_user(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur);

/* An atomic compare-and-exchange of the user word at uaddr (futexes): 0, or -EFAULT. */
static inline int futex_cmpxchg_user(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur)
{
	if (!access_ok(uaddr, sizeof(*uaddr)) || ((uintptr_t)uaddr % sizeof(*uaddr)))
		return -EFAULT;
	return __futex_cmpxchg_user(uaddr, old, new, cur);
}

/* The exception table (copy_user.S): where to resume after a fault at ip, or 0. */
unsigned long search_exception_tables(unsigned long ip);

#endif

/*
 * Heapsort, as Linux's lib/sort.c: in place, O(n log n) even for adversarial input, and with no
 * allocation, which suits a kernel better than quicksort's worst case or mergesort's buffer.
 *
 * The array is first arranged as a max-heap (each element >= its children 2i+1 and 2i+2); then
 * the largest, at the root, is swapped to the end, the heap shrinks by one, and the new root
 * sinks to its place. Repeat until the heap is empty.
 */
#include <stdbool.h>
#include <stdint.h>
#include "lib/sort.h"

/*
 * Elements whose size is a multiple of 8, in an array aligned to 8, swap a word at a time (as
 * Linux's swap_words_64): a 24-byte record is three swaps, not twenty-four.
 */
static bool words_swappable(const void *base, size_t size)
{
	return size % sizeof(uint64_t) == 0 && (uintptr_t)base % _Alignof(uint64_t) == 0;
}

static void swap_words(char *a, char *b, size_t size)
{
	for (size_t i = 0; i < size; i += sizeof(uint64_t)) {
		uint64_t x, y; /* through memcpy: the elements are not uint64_t to the compiler */

		__builtin_memcpy(&x, a + i, sizeof(x));
		__builtin_memcpy(&y, b + i, sizeof(y));
		__builtin_memcpy(a + i, &y, sizeof(y));
		__builtin_memcpy(b + i, &x, sizeof(x));
	}
}

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

static void swap_elems(char *a, char *b, size_t size, bool words)
{
	if (words)
		swap_words(a, b, size);
	else
		swap_bytes(a, b, size);
}

/* Lets element i sink in the heap of n elements until it is >= both its children. */
static void sift_down(char *base, size_t i, size_t n, size_t size, cmp_r_func_t cmp,
		      const void *priv, bool words)
{
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size, priv) < 0)
			child++;
		if (cmp(base + i * size, base + child * size, priv) >= 0)
			return;
		swap_elems(base + i * size, base + child * size, size, words);
		i = child;
	}
}

void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp, const void *priv)
{
	char *b = base;
	bool words = words_swappable(base, size);

	for (size_t i = num / 2; i-- > 0;)
		sift_down(b, i, num, size, cmp, priv, words);
	for (size_t n = num; n > 1; n--) {
		swap_elems(b, b + (n - 1) * size, size, words);
		sift_down(b, 0, n - 1, size, cmp, priv, words);
	}
}

/* sort() is sort_r() with a comparison that needs nothing but the two elements. */
struct plain_cmp {
	int (*cmp)(const void *, const void *);
};

static int call_plain_cmp(const void *a, const void *b, const void *priv)
{
	return ((const struct plain_cmp *)priv)->cmp(a, b);
}

void sort(void *base, size_t num, size_t size, int (*cmp)(const void *, const void *))
{
	struct plain_cmp plain = {cmp};

	sort_r(base, num, size, call_plain_cmp, &plain);
}

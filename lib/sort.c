/*
 * Heapsort, as Linux's lib/sort.c: in place, O(n log n) even for adversarial input, and with no
 * allocation, which suits a kernel better than quicksort's worst case or mergesort's buffer.
 *
 * The array is first arranged as a max-heap (each element >= its children 2i+1 and 2i+2); then
 * the largest, at the root, is swapped to the end, the heap shrinks by one, and the new root
 * sinks to its place. Repeat until the heap is empty.
 */
#include "lib/sort.h"

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Lets element i sink in the heap of n elements until it is >= both its children. */
static void sift_down(char *base, size_t i, size_t n, size_t size, cmp_r_func_t cmp,
		      const void *priv)
{
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size, priv) < 0)
			child++;
		if (cmp(base + i * size, base + child * size, priv) >= 0)
			return;
		swap_bytes(base + i * size, base + child * size, size);
		i = child;
	}
}

void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp, const void *priv)
{
	char *b = base;

	for (size_t i = num / 2; i-- > 0;)
		sift_down(b, i, num, size, cmp, priv);
	for (size_t n = num; n > 1; n--) {
		swap_bytes(b, b + (n - 1) * size, size);
		sift_down(b, 0, n - 1, size, cmp, priv);
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

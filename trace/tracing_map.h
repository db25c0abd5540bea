/*
 * tracing_map: the lock-free hash table behind hist triggers, Linux's kernel/trace/tracing_map.h
 * interface (trace/tracing_map.c tells how it works).
 */
#ifndef TRACE_TRACING_MAP_H
#define TRACE_TRACING_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux's limits: size= is rounded up to a power of two between 2^7 and 2^17, 2^11 unless said. */
#define TRACING_MAP_BITS_DEFAULT 11
#define TRACING_MAP_BITS_MAX 17
#define TRACING_MAP_BITS_MIN 7

#define TRACING_MAP_KEYS_MAX 3 /* keys=a,b,c */
#define TRACING_MAP_VALS_MAX 3 /* hitcount and two more */
#define TRACING_MAP_FIELDS_MAX (TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX 16 /* per-entry variables (name=$field: trace_events_hist.c) */
#define TRACING_MAP_SORT_KEYS_MAX 2 /* sort=a,b */

struct tracing_map;
struct tracing_map_elt;

/* Compares two keys' fields (a field's bytes in each key): negative, 0, positive. */
typedef int (*tracing_map_cmp_fn_t)(const void *val_a, const void *val_b);

/* One field of an entry: a key's part (its offset in the key) or a sum. */
struct tracing_map_field {
	tracing_map_cmp_fn_t cmp_fn; /* a key's: NULL for a sum */
	unsigned int offset; /* a key's: where in the key */
	unsigned int sum_idx; /* a sum's: which of the entry's sums */
};

/*
 * An entry: its key, its sums and variables. Entries are allocated at tracing_map_init(), never
 * on the hit path: an insertion takes the next unused one (map->next_elt).
 */
struct tracing_map_elt {
	struct tracing_map *map;
	void *key; /* key_size bytes, written once, before the entry is published */
	uint64_t *sums; /* n_sums, added to with atomics from any CPU */
	uint64_t *vars; /* n_vars: the last value set */
	bool *var_set; /* vars[i] holds a value */
	void *private_data; /* the user's elt_priv_size bytes (hist: .execname's comm), or NULL */
};

/*
 * What the user keeps per entry (Linux's tracing_map_ops): elt_alloc at init for every entry
 * (0 or -ENOMEM), elt_free when the map goes, elt_init when an entry is first used (from the
 * hit path: no allocation, no lock), elt_clear when the map is cleared.
 */
struct tracing_map_ops {
	int (*elt_alloc)(struct tracing_map_elt *elt);
	void (*elt_free)(struct tracing_map_elt *elt);
	void (*elt_init)(struct tracing_map_elt *elt);
	void (*elt_clear)(struct tracing_map_elt *elt);
};

/* A slot of the open-addressing table: the key's 32-bit hash (0: free) and its entry. */
struct tracing_map_entry {
	uint32_t key;
	struct tracing_map_elt *val;
};

struct tracing_map {
	unsigned int key_size; /* bytes, a multiple of 8 */
	unsigned int map_bits; /* max_elts is 1 << map_bits */
	unsigned int map_size; /* slots: twice max_elts, so the table is at most half full */
	unsigned int max_elts;
	struct tracing_map_entry *map;
	struct tracing_map_elt *elts; /* max_elts of them, and their memory: */
	char *elt_mem;
	unsigned int elt_stride;
	int next_elt; /* the next unused entry (atomic) */
	uint64_t hits, drops; /* atomic: insertions counted, and refused (table full) */
	struct tracing_map_field fields[TRACING_MAP_FIELDS_MAX];
	unsigned int n_fields, n_keys, n_sums, n_vars;
	/* bytes of the user's own per entry, in the entry's block; set before tracing_map_init */
	unsigned int elt_priv_size;
	const struct tracing_map_ops *ops;
	void *private_data;
};

/* A sort key: a field's index (as add_*_field returned it) and the order. */
struct tracing_map_sort_key {
	unsigned int field_idx;
	bool descending;
};

/* What tracing_map_sort_entries() returns: the entries in order. */
struct tracing_map_sort_entry {
	void *key;
	struct tracing_map_elt *elt;
};

/*
 * Making one: create, then the fields (sums first: their indexes are the sums' numbers too),
 * then init, which allocates every entry. NULL if memory is short or map_bits is out of range.
 */
struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size,
				       const struct tracing_map_ops *ops, void *private_data);
int tracing_map_add_sum_field(struct tracing_map *map);
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn);
int tracing_map_add_var(struct tracing_map *map);
int tracing_map_init(struct tracing_map *map);
void tracing_map_destroy(struct tracing_map *map);

/*
 * From any context, any CPU, without a lock: the entry of key, made if it is new (NULL if the
 * map is full: counted as dropped). lookup only finds.
 */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, const void *key);
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, const void *key);

static inline void tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i, uint64_t n)
{
	__atomic_fetch_add(&elt->sums[i], n, __ATOMIC_RELAXED);
}
static inline uint64_t tracing_map_read_sum(const struct tracing_map_elt *elt, unsigned int i)
{
	return __atomic_load_n(&elt->sums[i], __ATOMIC_RELAXED);
}
static inline void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, uint64_t n)
{
	__atomic_store_n(&elt->vars[i], n, __ATOMIC_RELAXED);
	__atomic_store_n(&elt->var_set[i], true, __ATOMIC_RELEASE);
}
static inline bool tracing_map_var_set(const struct tracing_map_elt *elt, unsigned int i)
{
	return __atomic_load_n(&elt->var_set[i], __ATOMIC_ACQUIRE);
}
static inline uint64_t tracing_map_read_var(const struct tracing_map_elt *elt, unsigned int i)
{
	return __atomic_load_n(&elt->vars[i], __ATOMIC_RELAXED);
}
/* Reads the variable and unsets it (a value used once: onmatch's timestamps). */
static inline uint64_t tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i)
{
	__atomic_store_n(&elt->var_set[i], false, __ATOMIC_RELAXED);
	return __atomic_load_n(&elt->vars[i], __ATOMIC_RELAXED);
}

/* Empties the map (:clear): the caller makes sure no hit is running. */
void tracing_map_clear(struct tracing_map *map);

static inline uint64_t tracing_map_hits(const struct tracing_map *map)
{
	return __atomic_load_n(&map->hits, __ATOMIC_RELAXED);
}
static inline uint64_t tracing_map_drops(const struct tracing_map *map)
{
	return __atomic_load_n(&map->drops, __ATOMIC_RELAXED);
}

/*
 * The used entries sorted by sort_keys (one or two: the second orders entries equal in the
 * first), into *sort_entries (the caller frees it with tracing_map_destroy_sort_entries):
 * their number, or -ENOMEM.
 */
int tracing_map_sort_entries(struct tracing_map *map, struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry **sort_entries);
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry *entries, int n_entries);

/* Key comparisons: a number of size bytes (signed or not), a NUL-terminated string, none. */
tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed);
int tracing_map_cmp_string(const void *val_a, const void *val_b);
int tracing_map_cmp_none(const void *val_a, const void *val_b);

#endif

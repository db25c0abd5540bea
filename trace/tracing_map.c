/* tracing_map: a hash table that any CPU adds to from inside a trace event, without a lock. */

/*
 * A hist trigger runs in the event's probe: in an interrupt, inside the scheduler, on several
 * CPUs at once. It can neither sleep, nor allocate, nor take a lock another CPU might hold
 * while it is interrupted. So the map is Linux's design (kernel/trace/tracing_map.c):
 *
 *  - Every entry (struct tracing_map_elt: key, sums, variables) is allocated up front by
 *    tracing_map_init(), 2^map_bits of them. A new key takes the next unused one with one
 *    atomic increment of next_elt; when none is left, the event is counted in drops.
 *  - The table is open addressing with linear probing: 2^(map_bits+1) slots, twice the
 *    entries, so it is never more than half full and a probe ends soon. A slot holds the key's
 *    32-bit hash (0 means free) and a pointer to its entry.
 *  - A CPU claims a free slot with a compare-and-swap of its hash word, then fills an entry
 *    (key, the user's elt_init) and publishes it with a release store of the pointer. Another
 *    CPU that finds the hash but no pointer yet waits for it (the claimer is at most a few
 *    instructions away; the wait is bounded and counts as a drop if it is not); one that
 *    finds another key under the same hash probes on.
 *  - Sums are 64-bit atomic adds: two CPUs hitting one entry lose nothing.
 *
 * Entries are never removed one by one: tracing_map_clear() empties the whole map while no hit
 * can be running (the caller's job), and reading sorts the used entries into an array.
 *
 * Pure memory work (no kernel state): the host unit test runs it as it is, threads included.
 * Not traced, as all of trace/.
 */
#include "trace/tracing_map.h"
#include "kernel/mm/kmalloc.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/sort.h"
#include "lib/string.h"

#define TRACING_MAP_HASH_BITS 32

struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size,
				       const struct tracing_map_ops *ops, void *private_data)
{
	struct tracing_map *map;

	if (map_bits < TRACING_MAP_BITS_MIN || map_bits > TRACING_MAP_BITS_MAX || !key_size ||
	    key_size % sizeof(uint64_t))
		return NULL;
	map = kzalloc(sizeof(*map));
	if (!map)
		return NULL;
	map->map_bits = map_bits;
	map->max_elts = 1U << map_bits;
	map->map_size = 1U << (map_bits + 1);
	map->key_size = key_size;
	map->ops = ops;
	map->private_data = private_data;
	return map;
}

static int tracing_map_add_field(struct tracing_map *map, tracing_map_cmp_fn_t cmp_fn,
				 unsigned int offset)
{
	struct tracing_map_field *f;

	if (map->n_fields >= TRACING_MAP_FIELDS_MAX || map->elts)
		return -EINVAL;
	f = &map->fields[map->n_fields];
	f->cmp_fn = cmp_fn;
	f->offset = offset;
	if (cmp_fn)
		map->n_keys++;
	else
		f->sum_idx = map->n_sums++;
	return (int)map->n_fields++;
}

int tracing_map_add_sum_field(struct tracing_map *map)
{
	return tracing_map_add_field(map, NULL, 0);
}

int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn)
{
	if (!cmp_fn || offset >= map->key_size)
		return -EINVAL;
	return tracing_map_add_field(map, cmp_fn, offset);
}

int tracing_map_add_var(struct tracing_map *map)
{
	if (map->n_vars >= TRACING_MAP_VARS_MAX || map->elts)
		return -EINVAL;
	return (int)map->n_vars++;
}

/*
 * One block per entry: key, sums, vars, the user's bytes, var_set; 8-byte aligned so the sums
 * are atomic. One allocation for them all: making and removing maps leaves no fragments.
 */
static unsigned int elt_priv_offset(const struct tracing_map *map)
{
	return map->key_size + (map->n_sums + map->n_vars) * (unsigned int)sizeof(uint64_t);
}

static unsigned int elt_stride(const struct tracing_map *map)
{
	return (unsigned int)ALIGN_UP(elt_priv_offset(map) +
					      ALIGN_UP(map->elt_priv_size, sizeof(uint64_t)) +
					      map->n_vars * sizeof(bool),
				      sizeof(uint64_t));
}

static void free_elts(struct tracing_map *map)
{
	if (map->elts && map->ops && map->ops->elt_free)
		for (unsigned int i = 0; i < map->max_elts; i++)
			map->ops->elt_free(&map->elts[i]);
	kfree(map->elts);
	kfree(map->elt_mem);
	map->elts = NULL;
	map->elt_mem = NULL;
}

int tracing_map_init(struct tracing_map *map)
{
	if (map->elts)
		return -EINVAL;
	map->elt_stride = elt_stride(map);
	map->map = kzalloc((size_t)map->map_size * sizeof(*map->map));
	map->elts = kzalloc((size_t)map->max_elts * sizeof(*map->elts));
	map->elt_mem = kzalloc((size_t)map->max_elts * map->elt_stride);
	if (!map->map || !map->elts || !map->elt_mem)
		goto nomem;
	for (unsigned int i = 0; i < map->max_elts; i++) {
		struct tracing_map_elt *elt = &map->elts[i];
		char *mem = map->elt_mem + (size_t)i * map->elt_stride;

		elt->map = map;
		elt->key = mem;
		elt->sums = (uint64_t *)(mem + map->key_size);
		elt->vars = elt->sums + map->n_sums;
		elt->private_data = map->elt_priv_size ? mem + elt_priv_offset(map) : NULL;
		elt->var_set = (bool *)(mem + elt_priv_offset(map) +
					ALIGN_UP(map->elt_priv_size, sizeof(uint64_t)));
		if (map->ops && map->ops->elt_alloc && map->ops->elt_alloc(elt))
			goto nomem;
	}
	return 0;
nomem:
	free_elts(map);
	kfree(map->map);
	map->map = NULL;
	return -ENOMEM;
}

void tracing_map_destroy(struct tracing_map *map)
{
	if (!map)
		return;
	free_elts(map);
	kfree(map->map);
	kfree(map);
}

/*
 * Fibonacci hashing over the key's words (whole u64s, maybe unaligned): each is mixed in and
 * multiplied by 2^64 / phi, and the product's high half is the hash. Its top bits pick the
 * slot, so consecutive numbers (system call ids, pids) spread over the table. Cheap: a hit
 * of a one-word key costs two multiplies.
 */
#define GOLDEN_RATIO_64 0x9e3779b97f4a7c15ULL
static uint32_t tracing_map_hash(const void *key, unsigned int size)
{
	uint64_t h = 0;

	for (unsigned int i = 0; i < size; i += sizeof(uint64_t)) {
		uint64_t w;

		__builtin_memcpy(&w, (const char *)key + i, sizeof(w));
		h = (h ^ w) * GOLDEN_RATIO_64;
		h ^= h >> 29; /* the high bits feed the next word's low ones */
	}
	return (uint32_t)((h * GOLDEN_RATIO_64) >> 32);
}

/* Keys are whole u64s: compared a word at a time, inline (a hit compares one key at least). */
static bool keys_match(const void *a, const void *b, unsigned int size)
{
	for (unsigned int i = 0; i < size; i += sizeof(uint64_t)) {
		uint64_t wa, wb;

		__builtin_memcpy(&wa, (const char *)a + i, sizeof(wa));
		__builtin_memcpy(&wb, (const char *)b + i, sizeof(wb));
		if (wa != wb)
			return false;
	}
	return true;
}

/* The next unused entry, or NULL: all are taken. next_elt stops growing at max_elts. */
static struct tracing_map_elt *get_free_elt(struct tracing_map *map)
{
	int idx = __atomic_load_n(&map->next_elt, __ATOMIC_RELAXED);

	do {
		if (idx >= (int)map->max_elts)
			return NULL;
	} while (!__atomic_compare_exchange_n(&map->next_elt, &idx, idx + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return &map->elts[idx];
}

static struct tracing_map_elt *__tracing_map_insert(struct tracing_map *map, const void *key,
						    bool lookup_only)
{
	uint32_t key_hash = tracing_map_hash(key, map->key_size);
	unsigned int idx, dup_try = 0;

	if (!key_hash)
		key_hash = 1; /* 0 marks a free slot */
	idx = key_hash >> (TRACING_MAP_HASH_BITS - (map->map_bits + 1));
	for (;;) {
		struct tracing_map_entry *entry = &map->map[idx];
		uint32_t test_key = __atomic_load_n(&entry->key, __ATOMIC_ACQUIRE);

		if (test_key == key_hash) {
			struct tracing_map_elt *val =
				__atomic_load_n(&entry->val, __ATOMIC_ACQUIRE);

			if (val && keys_match(key, val->key, map->key_size)) {
				if (!lookup_only)
					__atomic_fetch_add(&map->hits, 1, __ATOMIC_RELAXED);
				return val;
			}
			if (!val) {
				/* another CPU is filling this slot: its key may be ours */
				if (++dup_try > map->map_size) {
					__atomic_fetch_add(&map->drops, 1, __ATOMIC_RELAXED);
					return NULL;
				}
				continue;
			}
		}
		if (!test_key) {
			uint32_t expected = 0;
			struct tracing_map_elt *elt;

			if (lookup_only)
				return NULL;
			if (!__atomic_compare_exchange_n(&entry->key, &expected, key_hash, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue; /* taken meanwhile: look at it again */
			elt = get_free_elt(map);
			if (!elt) {
				__atomic_fetch_add(&map->drops, 1, __ATOMIC_RELAXED);
				__atomic_store_n(&entry->key, 0, __ATOMIC_RELEASE);
				return NULL;
			}
			memcpy(elt->key, key, map->key_size);
			if (map->ops && map->ops->elt_init)
				map->ops->elt_init(elt);
			__atomic_store_n(&entry->val, elt, __ATOMIC_RELEASE);
			__atomic_fetch_add(&map->hits, 1, __ATOMIC_RELAXED);
			return elt;
		}
		idx = (idx + 1) & (map->map_size - 1);
	}
}

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, const void *key)
{
	return __tracing_map_insert(map, key, false);
}

struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, const void *key)
{
	return __tracing_map_insert(map, key, true);
}

void tracing_map_clear(struct tracing_map *map)
{
	unsigned int used = (unsigned int)MIN(__atomic_load_n(&map->next_elt, __ATOMIC_RELAXED),
					      (int)map->max_elts);

	for (unsigned int i = 0; i < used; i++) {
		struct tracing_map_elt *elt = &map->elts[i];

		memset(elt->key, 0, map->elt_stride);
		if (map->ops && map->ops->elt_clear)
			map->ops->elt_clear(elt);
	}
	memset(map->map, 0, (size_t)map->map_size * sizeof(*map->map));
	__atomic_store_n(&map->next_elt, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->drops, 0, __ATOMIC_RELAXED);
}

/* --- reading: the used entries, sorted -------------------------------------------------------- */

#define DEFINE_TRACING_MAP_CMP_FN(type)                                         \
	static int tracing_map_cmp_##type(const void *val_a, const void *val_b) \
	{                                                                       \
		type a, b;                                                      \
		__builtin_memcpy(&a, val_a, sizeof(a));                         \
		__builtin_memcpy(&b, val_b, sizeof(b));                         \
		return a > b ? 1 : a < b ? -1 : 0;                              \
	}

DEFINE_TRACING_MAP_CMP_FN(int64_t)
DEFINE_TRACING_MAP_CMP_FN(uint64_t)
DEFINE_TRACING_MAP_CMP_FN(int32_t)
DEFINE_TRACING_MAP_CMP_FN(uint32_t)
DEFINE_TRACING_MAP_CMP_FN(int16_t)
DEFINE_TRACING_MAP_CMP_FN(uint16_t)
DEFINE_TRACING_MAP_CMP_FN(int8_t)
DEFINE_TRACING_MAP_CMP_FN(uint8_t)

tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed)
{
	switch (field_size) {
	case 8:
		return field_is_signed ? tracing_map_cmp_int64_t : tracing_map_cmp_uint64_t;
	case 4:
		return field_is_signed ? tracing_map_cmp_int32_t : tracing_map_cmp_uint32_t;
	case 2:
		return field_is_signed ? tracing_map_cmp_int16_t : tracing_map_cmp_uint16_t;
	case 1:
		return field_is_signed ? tracing_map_cmp_int8_t : tracing_map_cmp_uint8_t;
	default:
		return tracing_map_cmp_none;
	}
}

int tracing_map_cmp_string(const void *val_a, const void *val_b)
{
	return strcmp(val_a, val_b);
}

int tracing_map_cmp_none(const void *val_a, const void *val_b)
{
	(void)val_a;
	(void)val_b;
	return 0;
}

struct sort_ctx {
	const struct tracing_map *map;
	const struct tracing_map_sort_key *keys;
	unsigned int n_keys;
};

static int cmp_field(const struct tracing_map *map, const struct tracing_map_sort_key *sk,
		     const struct tracing_map_sort_entry *a, const struct tracing_map_sort_entry *b)
{
	const struct tracing_map_field *f = &map->fields[sk->field_idx];
	int ret;

	if (f->cmp_fn) {
		ret = f->cmp_fn((const char *)a->key + f->offset, (const char *)b->key + f->offset);
	} else {
		uint64_t va = tracing_map_read_sum(a->elt, f->sum_idx);
		uint64_t vb = tracing_map_read_sum(b->elt, f->sum_idx);

		ret = va > vb ? 1 : va < vb ? -1 : 0;
	}
	return sk->descending ? -ret : ret;
}

/*
 * The sort keys in turn; entries equal in all of them by their keys, field by field (Linux
 * leaves their order to its heapsort: any order is Linux's, this one reads best).
 */
static int cmp_entries(const void *pa, const void *pb, const void *priv)
{
	const struct sort_ctx *ctx = priv;
	const struct tracing_map_sort_entry *a = pa, *b = pb;

	for (unsigned int i = 0; i < ctx->n_keys; i++) {
		int ret = cmp_field(ctx->map, &ctx->keys[i], a, b);

		if (ret)
			return ret;
	}
	for (unsigned int i = 0; i < ctx->map->n_fields; i++) {
		const struct tracing_map_field *f = &ctx->map->fields[i];
		int ret;

		if (!f->cmp_fn)
			continue;
		ret = f->cmp_fn((const char *)a->key + f->offset, (const char *)b->key + f->offset);
		if (ret)
			return ret;
	}
	return memcmp(a->key, b->key, ctx->map->key_size);
}

int tracing_map_sort_entries(struct tracing_map *map, struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys, struct tracing_map_sort_entry **sort_entries)
{
	struct tracing_map_sort_entry *entries;
	struct sort_ctx ctx = {map, sort_keys, n_sort_keys};
	int n = 0;

	*sort_entries = NULL;
	if (n_sort_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < n_sort_keys; i++)
		if (sort_keys[i].field_idx >= map->n_fields)
			return -EINVAL;
	entries = kmalloc((size_t)map->max_elts * sizeof(*entries) + 1);
	if (!entries)
		return -ENOMEM;
	for (unsigned int i = 0; i < map->map_size; i++) {
		struct tracing_map_elt *elt = __atomic_load_n(&map->map[i].val, __ATOMIC_ACQUIRE);

		if (!elt || n >= (int)map->max_elts)
			continue;
		entries[n].key = elt->key;
		entries[n].elt = elt;
		n++;
	}
	sort_r(entries, (size_t)n, sizeof(*entries), cmp_entries, &ctx);
	*sort_entries = entries;
	return n;
}

void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry *entries, int n_entries)
{
	(void)n_entries;
	kfree(entries);
}

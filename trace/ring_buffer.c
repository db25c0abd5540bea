/* The tracer's ring buffer: Linux's kernel/trace/ring_buffer.c, redone small. */

/*
 * One ring of pages per CPU. Only code running on that CPU writes to it, so writers take no
 * lock: all that can come in the middle of a write are interrupts and NMIs on the same CPU,
 * which write events of their own and always finish before the code they interrupted goes on.
 * Readers (the trace, trace_pipe and trace_pipe_raw files) run on any CPU meanwhile; they take
 * a small lock among themselves but never make a writer wait.
 *
 * Not traced (trace/ is built without -pg): the function tracer writes into this buffer, so
 * a traced function in here would record an event while recording an event, forever.
 *
 * PAGES AND RECORDS -- Linux's layout, so that trace-cmd can read raw pages
 *
 *   +------------+------------+--------+--------+-----+--------+---------+
 *   | time_stamp |   commit   | record | record | ... | record | padding |
 *   +------------+------------+--------+--------+-----+--------+---------+
 *      8 bytes      8 bytes    <-------------- data[]: 4080 bytes ------->
 *
 *   record:  | type_len:5 | time_delta:27 | array[0] | payload ...
 *
 * time_stamp is absolute; each record's time_delta is its time minus the previous record's
 * (the first record's is 0). A delta too big for 27 bits goes into a TIME_EXTEND record just
 * before it (59 bits); a writer that does not know the previous record's time writes an
 * absolute TIME_STAMP record instead (59 bits too: clocks must stay below 2^59 ns, 18 years).
 * commit is the number of bytes of data[] that are complete: readers never look past it.
 *
 * THE RING
 *
 * Each time the writer starts on a page, that page gets the next sequence number, seq: pages
 * are reused, numbers never are. The ring is an array of n slots, and seq s sits in slot s % n.
 * A slot is one 64-bit word: the seq, which page holds it (an index into the CPU's array of
 * n + 1 pages) and an EMPTY bit. The words "tail" and "commit" name a page the same way. The
 * reader owns the extra page, outside the ring. With n = 4:
 *
 *       slot 0      slot 1      slot 2      slot 3
 *    +---------+ +---------+ +---------+ +---------+        the reader's page
 *    | seq 8 A | | seq 9 B | | seq 6 C | | seq 7 D |        +---------+
 *    +---------+ +---------+ +---------+ +---------+        | seq 5 E |  being read
 *                  tail        oldest                        +---------+
 *                  commit
 *
 * The writer fills the tail page. When a record does not fit, it pads the rest of that page
 * and "turns" the next slot, (tail + 1) % n, which holds the oldest page, seq tail + 1 - n:
 *  - in overwrite mode the oldest page's events are lost (counted in overrun) and the page is
 *    reused as seq tail + 1;
 *  - in producer/consumer mode that happens only if the reader already took the page (EMPTY):
 *    otherwise the new event is refused (dropped_events).
 * Turning is a compare-and-swap (CAS) of the slot from "seq s, page P" to "seq s+n, page P".
 *
 * When the reader has read all of its page, it swaps it for the oldest page in the ring with a
 * CAS of that slot from "seq s, page P" to "seq s, page E, EMPTY". Writer and reader thus race
 * for one word, and exactly one of them wins: either the writer dropped P (the reader's CAS
 * fails, so it moves on to the next slot), or the reader got P and the writer reuses E, which
 * holds no events to count. That word is the whole of the protocol between writer and reader.
 *
 * WRITING: RESERVE, THEN COMMIT
 *
 * Each page has a write word:   | generation (low 32 bits of seq) | entries:16 | offset:16 |
 * A writer reserves room with a CAS of the tail page's write word from "offset o" to "offset
 * o + size, one more entry". An interrupt that writes between the writer's reading of the word
 * and its CAS makes the CAS fail; the writer just starts again behind the interrupt's record.
 * Records are thus placed in the order of their CAS: an interrupted writer that had reserved
 * comes before the interrupt, as in Linux.
 *
 * Readers must not see a record that is reserved but not yet written. So commit moves only
 * when the outermost writer -- the one no other writer on this CPU interrupted -- commits:
 * nesting counts the writers in progress, and the one that finds it at 1 publishes everything
 * reserved so far: its own record and those of the interrupts that came while it was busy,
 * which are all finished.
 *
 *   task:  reserve A ........................................ commit: publishes A, B and C
 *   irq:              reserve B ......... commit (nested: publishes nothing)
 *   nmi:                         reserve C, commit (nested)
 *   page:  [ A | B | C ]
 *
 * A page turn can be interrupted halfway by another writer that needs a new page too. Each
 * step -- pad the full page, turn the slot, reset the new page's write word, move the tail --
 * is a CAS that only succeeds if the step is not done yet, so whoever comes second finds it
 * done and goes on. A page is never reused while commit is on it (an interrupted writer is
 * still filling an event there): events that would need it are refused (commit_overrun).
 *
 * TIME STAMPS
 *
 * The outermost writer remembers its record's time and the page's write word just after its
 * record. If the next outermost writer finds that same write word, nobody wrote in between and
 * it writes a delta. Otherwise (an interrupt wrote meanwhile, or it is an interrupt itself) it
 * writes an absolute TIME_STAMP first: right without knowing what came before, 8 bytes more.
 * This is why reserving is a CAS and not Linux's atomic add: the writer decides the record's
 * size (time record or not) from the very word its CAS checks. The clock is read after that
 * word, and a writer that an interrupt got ahead of starts again with a new reading, so times
 * never go backwards along a CPU's buffer.
 *
 * READING
 *
 * The consumer (ring_buffer_consume, ring_buffer_read_page) reads only its own page, up to its
 * commit. The writer may still be appending to that page (it was the tail page when taken) but
 * never changes a byte below commit, and the page goes back into the ring only once commit has
 * moved past it. The iterator (the trace file) reads pages still in the ring, which an
 * overwriting writer may reuse as it reads: it copies each record out, then checks that the
 * slot still holds the same seq; if not, the copy may be torn and is thrown away. Linux's
 * iterator makes the same check.
 *
 * COUNTING
 *
 * Every event a writer tries to record is counted in written, then ends up in exactly one
 * place: on a page (entries), read, lost with its page (overrun: the page's entry count, added
 * by the writer whose CAS turned the slot), refused (dropped_events, commit_overrun). entries
 * is not counted: it is written minus the others.
 */
#include "trace/ring_buffer.h"
#include "kernel/mm/kmalloc.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"
#ifndef LUCID_HOST
#include "kernel/time/time.h"
#include "arch/x86_64/tsc.h"
#endif

/*
 * Payload alignment. Linux uses 4 on x86 (small records then have type_len 1..28) and 8 on
 * machines that need aligned 64-bit loads (every record has type_len 0). We use 8 so that
 * tracers may store uint64_t fields without breaking C's alignment rules; -DRB_ALIGNMENT=4
 * gives the x86 layout. trace-cmd reads both.
 */
#ifndef RB_ALIGNMENT
#define RB_ALIGNMENT 8
#endif

#define RB_EVNT_HDR_SIZE 4
#define RB_LEN_TIME_EXTEND 8
#define RB_MAX_SMALL_DATA (4 * RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
#define TS_SHIFT 27
#define TS_MASK ((1ULL << TS_SHIFT) - 1)
#define TS_MSB (~0ULL << 59) /* the bits a TIME_STAMP record cannot hold */
#define RB_MAX_PAGES 65535 /* page ids are 16 bits; the reader's page is the last one */

#define RB_BUFFER_OFF (1U << 31) /* in record_disabled: ring_buffer_record_off() */
#define RB_DUMP_LOCK_SPINS 1000000UL /* how long a dumper waits for a reader lock */

/* A position (slot, tail and commit words): | seq:47 | EMPTY:1 | page id:16 | */
#define POS_EMPTY (1ULL << 16)
#define POS_SEQ_SHIFT 17

/* A page's write word: | generation:32 | entries:16 | offset:16 | */
#define WR_ENTRY (1ULL << 16)

/* Writers in progress, "committing" (low half), and reservations started, "commits" (high). */
#define NEST_ONE ((1ULL << 32) | 1)

struct buffer_page {
	uint64_t write; /* write word */
	struct buffer_data_page *page; /* what readers and trace-cmd see */
};

struct ring_buffer_per_cpu {
	struct ring_buffer *buffer;
	int cpu;
	unsigned int nr_pages; /* slots in the ring */
	struct buffer_page *pages; /* nr_pages + 1 of them, by page id */
	uint64_t *slots;

	/* Changed only by writers on this CPU. */
	uint64_t tail; /* position of the page being written */
	uint64_t commit; /* position of the page readers may read up to (its commit) */
	uint64_t nesting; /* low half: writers in progress; high half: reservations begun */
	uint64_t write_stamp; /* time of the outermost writer's last record, */
	uint64_t stamp_tail; /* ... the tail then, */
	uint64_t stamp_write; /* ... and the write word just after that record */
	unsigned int record_disabled;

	/* The counters of ring_buffer.h. Only read is changed by readers. */
	unsigned long written, overrun, commit_overrun, dropped_events, read;

	/* The reader side: under reader_lock. */
	int reader_lock;
	unsigned int reader_page; /* its id */
	uint64_t reader_seq;
	unsigned int reader_off; /* next byte to read in it */
	uint64_t read_stamp; /* time of the record before reader_off */
	unsigned long lost_events;
	unsigned long last_overrun;
	unsigned long generation; /* bumped by reset and resize, for iterators */
};

struct ring_buffer {
	unsigned int flags;
	unsigned int record_disabled; /* RB_BUFFER_OFF | nesting count of record_disable() */
	int nr_cpus;
	int dumper; /* ring_buffer_dump_begin()'s CPU + 1, or 0 */
	uint64_t (*clock)(void);
	struct ring_buffer_per_cpu **buffers;
};

struct ring_buffer_iter {
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long generation;
	uint64_t seq; /* page of the next record */
	unsigned int off; /* ... and its offset */
	uint64_t stamp; /* time of the record before it (not used at offset 0) */
	uint64_t end_seq; /* where the writer was at read_start: stop there */
	unsigned int end_off;
	bool dropped;
	bool cached; /* event holds the next event, peeked but not yet passed */
	uint64_t cached_ts;
	unsigned int cached_len;
	uint64_t event[BUF_PAGE_SIZE / sizeof(uint64_t)];
};

/*
 * Atomics. Writers and readers share these words; __atomic builtins work alike in the kernel
 * and on the host. On x86 all loads are acquire and all stores release anyway: the orders
 * written here say what the code relies on.
 */
#define rb_load(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define rb_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define rb_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define rb_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define rb_count(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

static inline bool rb_cmpxchg(uint64_t *p, uint64_t old, uint64_t new)
{
	return __atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/*
 * Orders the loads before it with the loads after it: Linux's smp_rmb(). x86 never reorders
 * loads with loads, so only the compiler has to be stopped.
 */
static inline void rb_smp_rmb(void)
{
	barrier();
}

static inline void rb_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

static inline uint64_t pos_make(uint64_t seq, bool empty, unsigned int id)
{
	return (seq << POS_SEQ_SHIFT) | (empty ? POS_EMPTY : 0) | id;
}

static inline uint64_t pos_seq(uint64_t pos)
{
	return pos >> POS_SEQ_SHIFT;
}

static inline unsigned int pos_id(uint64_t pos)
{
	return pos & 0xffff;
}

static inline bool pos_empty(uint64_t pos)
{
	return pos & POS_EMPTY;
}

static inline uint64_t wr_make(uint64_t seq, unsigned int entries, unsigned int off)
{
	return ((uint64_t)(uint32_t)seq << 32) | ((uint64_t)entries << 16) | off;
}

static inline unsigned int wr_off(uint64_t w)
{
	return w & 0xffff;
}

static inline unsigned int wr_entries(uint64_t w)
{
	return (w >> 16) & 0xffff;
}

static inline bool wr_is_seq(uint64_t w, uint64_t seq)
{
	return (uint32_t)(w >> 32) == (uint32_t)seq;
}

static inline struct buffer_page *rb_page(struct ring_buffer_per_cpu *cb, uint64_t pos)
{
	return &cb->pages[pos_id(pos)];
}

static inline unsigned int rb_page_commit(struct buffer_data_page *dpage)
{
	return rb_load_acquire(&dpage->commit);
}

/* ---- Records ------------------------------------------------------------------------- */

/* Bytes a data record with a payload of length bytes takes (header included). */
static inline unsigned int rb_event_size(unsigned long length)
{
	if (!length)
		length = 1;
	if (RB_ALIGNMENT == 4 && length <= RB_MAX_SMALL_DATA)
		return RB_EVNT_HDR_SIZE + ALIGN_UP(length, 4);
	return ALIGN_UP(length + RB_EVNT_HDR_SIZE + sizeof(uint32_t), RB_ALIGNMENT);
}

/* The header word in one store: type_len is its low 5 bits, time_delta the other 27. */
static inline void rb_set_header(struct ring_buffer_event *event, unsigned int type_len,
				 uint64_t delta)
{
	uint32_t word = type_len | (uint32_t)(delta & TS_MASK) << 5;

	__builtin_memcpy(event, &word, sizeof(word)); /* one 32-bit store, not a call */
}

static inline void rb_set_data_header(struct ring_buffer_event *event, unsigned int size,
			       uint64_t delta)
{
	if (RB_ALIGNMENT == 4 && size <= RB_EVNT_HDR_SIZE + RB_MAX_SMALL_DATA) {
		rb_set_header(event, (size - RB_EVNT_HDR_SIZE) / 4, delta);
	} else {
		rb_set_header(event, 0, delta);
		event->array[0] = size - RB_EVNT_HDR_SIZE;
	}
}

/* Bytes the record at event takes; avail is what is left of the page's committed data. */
static unsigned int rb_record_length(const struct ring_buffer_event *event,
				     unsigned int avail)
{
	switch (event->type_len) {
	case RINGBUF_TYPE_PADDING:
		return event->time_delta ? event->array[0] + RB_EVNT_HDR_SIZE : avail;
	case RINGBUF_TYPE_TIME_EXTEND:
	case RINGBUF_TYPE_TIME_STAMP:
		return RB_LEN_TIME_EXTEND;
	case 0:
		return event->array[0] + RB_EVNT_HDR_SIZE;
	default:
		return event->type_len * 4 + RB_EVNT_HDR_SIZE;
	}
}

/* The reader's running time after the time record event, if it is one (padding is not). */
static uint64_t rb_apply_time(const struct ring_buffer_event *event, uint64_t now)
{
	uint64_t t;

	if (event->type_len != RINGBUF_TYPE_TIME_EXTEND &&
	    event->type_len != RINGBUF_TYPE_TIME_STAMP)
		return now;
	t = event->time_delta | ((uint64_t)event->array[0] << TS_SHIFT);
	return event->type_len == RINGBUF_TYPE_TIME_EXTEND ? now + t : (now & TS_MSB) | t;
}

unsigned int ring_buffer_event_length(struct ring_buffer_event *event)
{
	if (event->type_len > RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
		return rb_record_length(event, 0);
	return event->type_len ? event->type_len * 4 : event->array[0] - sizeof(uint32_t);
}

/* ---- Setting up ---------------------------------------------------------------------- */

/* One CPU's pages: the ring's slots and nr_pages + 1 pages, the last for the reader. */
struct rb_pages {
	unsigned int nr_pages;
	struct buffer_page *pages;
	uint64_t *slots;
};

static void rb_free_pages(struct rb_pages *p)
{
	if (p->pages)
		for (unsigned int i = 0; i <= p->nr_pages; i++)
			kfree(p->pages[i].page);
	kfree(p->pages);
	kfree(p->slots);
	p->pages = NULL;
	p->slots = NULL;
}

static int rb_alloc_pages(struct rb_pages *p, unsigned int nr_pages)
{
	p->nr_pages = nr_pages;
	p->pages = kzalloc((nr_pages + 1) * sizeof(*p->pages));
	p->slots = kzalloc(nr_pages * sizeof(*p->slots));
	if (!p->pages || !p->slots)
		goto fail;
	for (unsigned int i = 0; i <= nr_pages; i++) {
		p->pages[i].page = kmalloc(RB_PAGE_SIZE); /* page aligned in the kernel */
		if (!p->pages[i].page)
			goto fail;
	}
	return 0;
fail:
	rb_free_pages(p);
	return -ENOMEM;
}

/*
 * Pages for size bytes, rounded up. Not Linux's DIV_ROUND_UP (size + BUF_PAGE_SIZE - 1): for a
 * size near ULONG_MAX that sum wraps, and a request for everything became two pages.
 */
static unsigned long rb_size_to_pages(unsigned long size)
{
	unsigned long nr = size / BUF_PAGE_SIZE + (size % BUF_PAGE_SIZE != 0);

	return nr < 2 ? 2 : nr;
}

/*
 * An empty buffer. The first page written is seq n in slot 0. Slots 1 .. n-1 hold pages
 * standing for seq 1 .. n-1: empty, as if read already. The reader's page stands for seq n-1,
 * read to its (empty) end, so its first read swaps it for seq n. Called with writers stopped
 * and the reader lock held.
 */
static void rb_reset_locked(struct ring_buffer_per_cpu *cb)
{
	lockdep_assert(rb_load(&cb->reader_lock)); /* locked: it records no holder to compare */
	unsigned int n = cb->nr_pages;

	for (unsigned int id = 0; id <= n; id++) {
		rb_store(&cb->pages[id].page->time_stamp, 0);
		rb_store(&cb->pages[id].page->commit, 0);
		rb_store(&cb->pages[id].write, wr_make(id < n ? id : n - 1, 0, 0));
		if (id > 0 && id < n)
			rb_store(&cb->slots[id], pos_make(id, true, id));
	}
	rb_store(&cb->pages[0].write, wr_make(n, 0, 0));
	rb_store(&cb->slots[0], pos_make(n, false, 0));
	rb_store(&cb->tail, pos_make(n, false, 0));
	rb_store(&cb->commit, pos_make(n, false, 0));
	rb_store(&cb->stamp_tail, ~0ULL); /* matches no tail: the first record gets a full stamp */
	rb_store(&cb->stamp_write, 0);
	rb_store(&cb->write_stamp, 0);

	rb_store(&cb->written, 0);
	rb_store(&cb->overrun, 0);
	rb_store(&cb->commit_overrun, 0);
	rb_store(&cb->dropped_events, 0);
	rb_store(&cb->read, 0);

	cb->reader_page = n;
	cb->reader_seq = n - 1;
	cb->reader_off = 0;
	cb->read_stamp = 0;
	cb->lost_events = 0;
	cb->last_overrun = 0;
	rb_store(&cb->generation, cb->generation + 1);
}

static void rb_install_pages(struct ring_buffer_per_cpu *cb, struct rb_pages *p)
{
	cb->nr_pages = p->nr_pages;
	cb->pages = p->pages;
	cb->slots = p->slots;
}

/*
 * The reader lock of the dumper (ring_buffer_dump_begin) gives up waiting: the holder may be a
 * CPU the panic stopped, the reader this interrupt came into, or the code that oopsed. Past a
 * bounded wait the dumper takes the lock over and reads anyway; the reader it overrode may have
 * left the reader page half swapped, so this CPU's buffer records nothing any more (Linux's
 * rb_reader_lock does the same for a reader in NMI context: reading there is a one-shot).
 */
static void rb_reader_lock_dumper(struct ring_buffer_per_cpu *cb)
{
	for (unsigned long spins = 0; spins < RB_DUMP_LOCK_SPINS; spins++) {
		if (!__atomic_exchange_n(&cb->reader_lock, 1, __ATOMIC_ACQUIRE))
			return;
		rb_relax();
	}
	__atomic_fetch_add(&cb->record_disabled, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&cb->reader_lock, 1, __ATOMIC_SEQ_CST); /* ours now */
}

static void rb_reader_lock(struct ring_buffer_per_cpu *cb)
{
	if (unlikely(rb_load(&rb_load(&cb->buffer)->dumper) == ring_buffer_cpu_id() + 1)) {
		rb_reader_lock_dumper(cb);
		return;
	}
	while (__atomic_exchange_n(&cb->reader_lock, 1, __ATOMIC_ACQUIRE))
		while (rb_load(&cb->reader_lock))
			rb_relax();
}

static void rb_reader_unlock(struct ring_buffer_per_cpu *cb)
{
	__atomic_store_n(&cb->reader_lock, 0, __ATOMIC_RELEASE);
}

/*
 * Stops this CPU's writers (for reset and resize): new writers see record_disabled and leave,
 * and we wait for those already in. The writer increments nesting before it looks at
 * record_disabled, and we set record_disabled before we look at nesting (both seq_cst): so
 * either it sees our flag or we see its count.
 */
static void rb_disable_writers(struct ring_buffer_per_cpu *cb)
{
	__atomic_fetch_add(&cb->record_disabled, 1, __ATOMIC_SEQ_CST);
	while ((uint32_t)__atomic_load_n(&cb->nesting, __ATOMIC_SEQ_CST))
		rb_relax();
}

static void rb_enable_writers(struct ring_buffer_per_cpu *cb)
{
	__atomic_fetch_sub(&cb->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/* ... and readers too, when the pages themselves change. */
static void rb_stop_writers(struct ring_buffer_per_cpu *cb)
{
	rb_disable_writers(cb);
	rb_reader_lock(cb);
}

static void rb_start_writers(struct ring_buffer_per_cpu *cb)
{
	rb_reader_unlock(cb);
	rb_enable_writers(cb);
}

static uint64_t rb_counter_clock(void)
{
	static uint64_t counter;

	return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

struct ring_buffer *ring_buffer_alloc(unsigned long size, unsigned int flags, int nr_cpus)
{
	unsigned long nr_pages = rb_size_to_pages(size);
	struct ring_buffer *buffer;

	if (nr_cpus < 1 || nr_pages > RB_MAX_PAGES)
		return NULL;
	buffer = kzalloc(sizeof(*buffer));
	if (!buffer)
		return NULL;
	buffer->flags = flags;
	buffer->nr_cpus = nr_cpus;
	buffer->clock = rb_counter_clock;
	buffer->buffers = kzalloc(nr_cpus * sizeof(*buffer->buffers));
	if (!buffer->buffers)
		goto fail;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *cb = kzalloc(sizeof(*cb));
		struct rb_pages p;

		if (!cb)
			goto fail;
		buffer->buffers[cpu] = cb;
		cb->buffer = buffer;
		cb->cpu = cpu;
		if (rb_alloc_pages(&p, nr_pages))
			goto fail;
		rb_install_pages(cb, &p);
		rb_reader_lock(cb); /* nobody else sees cb yet: taken for the rule's sake */
		rb_reset_locked(cb);
		rb_reader_unlock(cb);
	}
	return buffer;
fail:
	ring_buffer_free(buffer);
	return NULL;
}

/* The caller makes sure nobody writes or reads any more. */
void ring_buffer_free(struct ring_buffer *buffer)
{
	if (!buffer)
		return;
	for (int cpu = 0; buffer->buffers && cpu < buffer->nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *cb = buffer->buffers[cpu];
		struct rb_pages p = {cb ? cb->nr_pages : 0, cb ? cb->pages : NULL,
				     cb ? cb->slots : NULL};

		rb_free_pages(&p);
		kfree(cb);
	}
	kfree(buffer->buffers);
	kfree(buffer);
}

static bool rb_valid_cpu(struct ring_buffer *buffer, int cpu)
{
	return cpu >= 0 && cpu < buffer->nr_cpus;
}

void ring_buffer_set_clock(struct ring_buffer *buffer, uint64_t (*clock)(void))
{
	__atomic_store_n(&buffer->clock, clock ? clock : rb_counter_clock, __ATOMIC_RELEASE);
}

uint64_t ring_buffer_time_stamp(struct ring_buffer *buffer)
{
	return __atomic_load_n(&buffer->clock, __ATOMIC_ACQUIRE)();
}

int ring_buffer_nr_cpus(struct ring_buffer *buffer)
{
	return buffer->nr_cpus;
}

unsigned long ring_buffer_size(struct ring_buffer *buffer, int cpu)
{
	if (!rb_valid_cpu(buffer, cpu))
		return 0;
	return (unsigned long)buffer->buffers[cpu]->nr_pages * BUF_PAGE_SIZE;
}

/*
 * All the new pages are allocated before anything changes, so a failure leaves the buffer as
 * it was. Then each CPU in turn: stop its writers, swap the pages, start again empty.
 */
int ring_buffer_resize(struct ring_buffer *buffer, unsigned long size, int cpu_id)
{
	unsigned long nr_pages = rb_size_to_pages(size);
	int first = cpu_id, last = cpu_id, cpu;
	struct rb_pages *new;

	if (cpu_id == RING_BUFFER_ALL_CPUS) {
		first = 0;
		last = buffer->nr_cpus - 1;
	} else if (!rb_valid_cpu(buffer, cpu_id)) {
		return -EINVAL;
	}
	/* more than a ring can number: too big, as Linux says of any size */
	if (nr_pages > RB_MAX_PAGES)
		return -ENOMEM;
	new = kzalloc(buffer->nr_cpus * sizeof(*new));
	if (!new)
		return -ENOMEM;
	for (cpu = first; cpu <= last; cpu++) {
		if (buffer->buffers[cpu]->nr_pages == nr_pages)
			continue; /* same size: keep what it holds */
		if (rb_alloc_pages(&new[cpu], nr_pages)) {
			for (cpu = first; cpu <= last; cpu++)
				rb_free_pages(&new[cpu]);
			kfree(new);
			return -ENOMEM;
		}
	}
	for (cpu = first; cpu <= last; cpu++) {
		struct ring_buffer_per_cpu *cb = buffer->buffers[cpu];
		struct rb_pages old = {cb->nr_pages, cb->pages, cb->slots};

		if (!new[cpu].pages)
			continue;
		rb_stop_writers(cb);
		rb_install_pages(cb, &new[cpu]);
		rb_reset_locked(cb);
		rb_start_writers(cb);
		rb_free_pages(&old);
	}
	kfree(new);
	return 0;
}

void ring_buffer_reset_cpu(struct ring_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cb;

	if (!rb_valid_cpu(buffer, cpu))
		return;
	/* Once: a swap may move buffers[cpu] meanwhile, and the lock must go back where it came */
	cb = __atomic_load_n(&buffer->buffers[cpu], __ATOMIC_SEQ_CST);
	rb_stop_writers(cb);
	rb_reset_locked(cb);
	rb_start_writers(cb);
}

void ring_buffer_reset(struct ring_buffer *buffer)
{
	for (int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		ring_buffer_reset_cpu(buffer, cpu);
}

/*
 * cpu's parts of a and b change places, each told its new buffer; the writers of both are
 * stopped (record_disabled) and none is inside a write.
 */
static void rb_swap_parts(struct ring_buffer *a, struct ring_buffer *b, int cpu)
{
	struct ring_buffer_per_cpu *ca = a->buffers[cpu], *cbb = b->buffers[cpu];

	__atomic_store_n(&ca->buffer, b, __ATOMIC_SEQ_CST);
	__atomic_store_n(&cbb->buffer, a, __ATOMIC_SEQ_CST);
	__atomic_store_n(&a->buffers[cpu], cbb, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->buffers[cpu], ca, __ATOMIC_SEQ_CST);
}

/*
 * A snapshot: a and b trade their per-CPU buffers, pages, counters, readers' places and all.
 * Writers find their CPU's buffer through buffer->buffers[cpu] at reserve and again at commit,
 * so the two must never straddle a swap. Every CPU's writers are stopped first (the same
 * record_disabled/nesting handshake as a reset), then all the pointers change, then writing
 * goes on: the snapshot is of one instant on every CPU, and events that come during the swap
 * are not recorded. A writer that loaded buffers[cpu] just before the swap and counts itself
 * in just after finds its per-CPU buffer now belongs to the other ring buffer (cb->buffer)
 * and leaves without writing (ring_buffer_lock_reserve).
 *
 * Readers are not stopped: a reader works on one per-CPU buffer from its lock to its unlock,
 * and that one stays whole wherever it now belongs (an open trace file goes on showing what it
 * began with). Nothing is freed, so the caller only has to keep swaps from running together.
 */
int ring_buffer_swap(struct ring_buffer *a, struct ring_buffer *b)
{
	int cpu;

	if (a == b || a->nr_cpus != b->nr_cpus)
		return -EINVAL;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		rb_disable_writers(a->buffers[cpu]);
		rb_disable_writers(b->buffers[cpu]);
	}
	for (cpu = 0; cpu < a->nr_cpus; cpu++)
		rb_swap_parts(a, b, cpu);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		rb_enable_writers(a->buffers[cpu]);
		rb_enable_writers(b->buffers[cpu]);
	}
	return 0;
}

/* cpu's parts of a and b may trade places: two buffers alike in CPUs, parts of one size. */
static bool rb_parts_swappable(struct ring_buffer *a, struct ring_buffer *b, int cpu)
{
	return a != b && a->nr_cpus == b->nr_cpus && rb_valid_cpu(a, cpu) &&
	       a->buffers[cpu]->nr_pages == b->buffers[cpu]->nr_pages;
}

/*
 * Linux's ring_buffer_swap_cpu: the same trade for one CPU's part only (per_cpu/cpuN/snapshot),
 * with that CPU's writers held off. Both parts must be the same size, as in Linux: a swap must
 * not change the buffer's sizes.
 */
int ring_buffer_swap_cpu(struct ring_buffer *a, struct ring_buffer *b, int cpu)
{
	struct ring_buffer_per_cpu *ca, *cbb;

	if (!rb_parts_swappable(a, b, cpu))
		return -EINVAL;
	ca = a->buffers[cpu];
	cbb = b->buffers[cpu];
	rb_disable_writers(ca);
	rb_disable_writers(cbb);
	rb_swap_parts(a, b, cpu);
	rb_enable_writers(ca);
	rb_enable_writers(cbb);
	return 0;
}

int ring_buffer_swap_cpu_nowait(struct ring_buffer *a, struct ring_buffer *b, int cpu)
{
	struct ring_buffer_per_cpu *ca, *cbb;
	int ret = 0;

	if (!rb_parts_swappable(a, b, cpu))
		return -EINVAL;
	ca = a->buffers[cpu];
	cbb = b->buffers[cpu];
	/*
	 * Writers that come now stay out; one already in (nesting) makes us give up, and so does
	 * a part whose writers someone else had stopped (a reset or resize under way, as Linux's
	 * record_disabled check: swapped in the middle, it would unlock the other part).
	 */
	unsigned int was_a = __atomic_fetch_add(&ca->record_disabled, 1, __ATOMIC_SEQ_CST);
	unsigned int was_b = __atomic_fetch_add(&cbb->record_disabled, 1, __ATOMIC_SEQ_CST);

	if (was_a || was_b || (uint32_t)__atomic_load_n(&ca->nesting, __ATOMIC_SEQ_CST) ||
	    (uint32_t)__atomic_load_n(&cbb->nesting, __ATOMIC_SEQ_CST)) {
		ret = -EBUSY;
	} else {
		rb_swap_parts(a, b, cpu);
	}
	rb_enable_writers(ca);
	rb_enable_writers(cbb);
	return ret;
}

/*
 * How long a swap from atomic context waits for another CPU's write to end: a write is short,
 * but its CPU may be spinning, inside it, on a lock the swapper holds (a run queue's).
 */
#define RB_SWAP_SPIN_MAX 100000

static bool rb_writers_gone(struct ring_buffer_per_cpu *cb, bool wait)
{
	for (int spins = 0; (uint32_t)__atomic_load_n(&cb->nesting, __ATOMIC_SEQ_CST); spins++) {
		if (!wait || spins >= RB_SWAP_SPIN_MAX)
			return false;
		rb_relax();
	}
	return true;
}

int ring_buffer_swap_nowait(struct ring_buffer *a, struct ring_buffer *b)
{
	int cpu, self = ring_buffer_cpu_id(), ret = 0;

	if (a == b || a->nr_cpus != b->nr_cpus)
		return -EINVAL;
	/* As ring_buffer_swap_cpu_nowait: a part whose writers another had stopped is busy. */
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		if (__atomic_fetch_add(&a->buffers[cpu]->record_disabled, 1, __ATOMIC_SEQ_CST))
			ret = -EBUSY;
		if (__atomic_fetch_add(&b->buffers[cpu]->record_disabled, 1, __ATOMIC_SEQ_CST))
			ret = -EBUSY;
	}
	for (cpu = 0; cpu < a->nr_cpus && !ret; cpu++)
		if (a->buffers[cpu]->nr_pages != b->buffers[cpu]->nr_pages ||
		    !rb_writers_gone(a->buffers[cpu], cpu != self) ||
		    !rb_writers_gone(b->buffers[cpu], cpu != self))
			ret = -EBUSY;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		struct ring_buffer_per_cpu *ca = a->buffers[cpu], *cbb = b->buffers[cpu];

		if (!ret)
			rb_swap_parts(a, b, cpu);
		rb_enable_writers(ca);
		rb_enable_writers(cbb);
	}
	return ret;
}

void ring_buffer_change_overwrite(struct ring_buffer *buffer, int val)
{
	if (val)
		__atomic_fetch_or(&buffer->flags, RB_FL_OVERWRITE, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&buffer->flags, ~RB_FL_OVERWRITE, __ATOMIC_RELAXED);
}

bool ring_buffer_overwrite(struct ring_buffer *buffer)
{
	return rb_load(&buffer->flags) & RB_FL_OVERWRITE;
}

/* ---- Writing ------------------------------------------------------------------------- */

/* Fills the rest of a full page with a padding record, unless someone did already. */
static void rb_pad_page(struct buffer_page *bpage, uint64_t seq)
{
	for (;;) {
		uint64_t w = rb_load(&bpage->write);
		unsigned int off = wr_off(w);
		struct ring_buffer_event *pad;

		if (!wr_is_seq(w, seq) || off >= BUF_PAGE_SIZE)
			return;
		if (!rb_cmpxchg(&bpage->write, w, w - off + BUF_PAGE_SIZE))
			continue;
		/* Linux's two paddings: 4 bytes left is a bare header, else a sized record. */
		pad = (struct ring_buffer_event *)&bpage->page->data[off];
		rb_set_header(pad, RINGBUF_TYPE_PADDING,
			      BUF_PAGE_SIZE - off > RB_EVNT_HDR_SIZE ? 1 : 0);
		if (BUF_PAGE_SIZE - off > RB_EVNT_HDR_SIZE)
			pad->array[0] = BUF_PAGE_SIZE - off - RB_EVNT_HDR_SIZE;
		return;
	}
}

/*
 * The tail page (seq) is full: make the page after it the tail. Returns 0 when the tail has
 * moved on (maybe by someone else), -EAGAIN when our idea of the tail is out of date (look
 * again), -ENOSPC when producer/consumer mode refuses, -EBUSY when the page we would reuse
 * still holds an uncommitted event.
 */
static int rb_move_tail(struct ring_buffer_per_cpu *cb, uint64_t tail)
{
	uint64_t seq = pos_seq(tail) + 1;
	uint64_t *slot = &cb->slots[seq % cb->nr_pages];
	struct buffer_page *bpage;
	uint64_t s;

	rb_pad_page(rb_page(cb, tail), pos_seq(tail));

	/* Turn the slot from the oldest page (seq - n) to seq, unless someone did. */
	for (;;) {
		uint64_t w;

		s = rb_load_acquire(slot);
		if (pos_seq(s) == seq)
			break;
		if (pos_seq(s) + cb->nr_pages != seq)
			return -EAGAIN;
		if (pos_seq(s) >= pos_seq(rb_load(&cb->commit)))
			return -EBUSY;
		if (!pos_empty(s) && !(rb_load(&rb_load(&cb->buffer)->flags) & RB_FL_OVERWRITE))
			return -ENOSPC;
		/*
		 * Counted only if our CAS wins: then the page never left the slot, and its
		 * write word, final since the page is behind commit, is the one we read.
		 */
		w = rb_load(&rb_page(cb, s)->write);
		if (rb_cmpxchg(slot, s, pos_make(seq, false, pos_id(s)))) {
			if (!pos_empty(s))
				rb_count(&cb->overrun, wr_entries(w));
			break;
		}
	}

	/* Reset the page for its new life, unless someone did. */
	bpage = rb_page(cb, s);
	for (;;) {
		uint64_t w = rb_load(&bpage->write);

		if (wr_is_seq(w, seq) || rb_cmpxchg(&bpage->write, w, wr_make(seq, 0, 0)))
			break;
	}

	/* Make it the tail, unless someone did. */
	rb_cmpxchg(&cb->tail, tail, pos_make(seq, false, pos_id(s)));
	return 0;
}

/*
 * The time of a new record, for the fast path: false if the caller must take the slow one. In
 * the kernel only the default clock, ktime_get_ns, is read here, inline: a call would cost as
 * much as the read and make the writer save registers around it (Linux's rb_time_stamp() makes
 * the same exception for its local clock). The host tests' clocks are called.
 */
static __always_inline bool rb_clock_fast(struct ring_buffer *buffer, uint64_t *ts)
{
	uint64_t (*clock)(void) = __atomic_load_n(&buffer->clock, __ATOMIC_RELAXED);

#ifdef LUCID_HOST
	*ts = clock();
#else
	if (unlikely(clock != ktime_get_ns))
		return false;
	*ts = tsc_ktime_get_ns();
#endif
	return true;
}

/*
 * The common case, tried first: the outermost writer finds the tail page's write word just as
 * its own last record left it (so nobody wrote on this CPU since, and the tail has not moved:
 * the word holds the page's generation), the time since that record fits in the 27-bit delta,
 * the record fits on the page, and the clock is the default one. Then there is no time record to
 * add and no page to turn: rb_reserve_next() would take the same decisions in more steps. NULL
 * sends the writer there, for the general case. This is most events, so it is kept short: a
 * clock read, a CAS and four stores.
 */
static __always_inline struct ring_buffer_event *
rb_reserve_fast(struct ring_buffer_per_cpu *cb, unsigned int size)
{
	uint64_t tail = rb_load_acquire(&cb->tail);
	struct buffer_page *bpage = rb_page(cb, tail);
	uint64_t w = rb_load(&bpage->write), ts, delta;
	unsigned int off = wr_off(w);
	struct ring_buffer_event *event;

	if (w != rb_load(&cb->stamp_write) || off + size > BUF_PAGE_SIZE)
		return NULL;
	if (!rb_clock_fast(rb_load(&cb->buffer), &ts))
		return NULL;
	delta = ts - rb_load(&cb->write_stamp); /* a clock gone backwards wraps: too big */
	if (delta > TS_MASK || !rb_cmpxchg(&bpage->write, w, w + WR_ENTRY + size))
		return NULL;
	event = (void *)&bpage->page->data[off];
	rb_set_data_header(event, size, delta);
	rb_store(&cb->write_stamp, ts);
	rb_store(&cb->stamp_write, w + WR_ENTRY + size);
	return event;
}

/* Finds room for a record with a payload of length bytes on the tail page; NULL if none. */
static struct ring_buffer_event *rb_reserve_next(struct ring_buffer_per_cpu *cb,
						 unsigned long length, bool outermost)
{
	unsigned int size = rb_event_size(length);

	for (;;) {
		uint64_t tail = rb_load_acquire(&cb->tail);
		struct buffer_page *bpage = rb_page(cb, tail);
		uint64_t w = rb_load(&bpage->write), ts, delta = 0;
		unsigned int off = wr_off(w), need = size, time_type = 0;
		struct ring_buffer_event *event;
		int ret;

		if (!wr_is_seq(w, pos_seq(tail)))
			continue; /* interrupts moved the tail on and reused this page */

		ts = __atomic_load_n(&rb_load(&cb->buffer)->clock, __ATOMIC_RELAXED)();
		if (off == 0) {
			/* The first record of a page: delta 0 from the page's time_stamp. */
		} else if (outermost && tail == rb_load(&cb->stamp_tail) &&
			   w == rb_load(&cb->stamp_write) && ts >= rb_load(&cb->write_stamp)) {
			delta = ts - rb_load(&cb->write_stamp);
			if (delta > TS_MASK)
				time_type = (delta & TS_MSB) ? RINGBUF_TYPE_TIME_STAMP
							  : RINGBUF_TYPE_TIME_EXTEND;
		} else {
			time_type = RINGBUF_TYPE_TIME_STAMP;
		}
		if (time_type)
			need += RB_LEN_TIME_EXTEND;

		if (off + need > BUF_PAGE_SIZE) {
			ret = rb_move_tail(cb, tail);
			if (ret == -ENOSPC) {
				rb_count(&cb->dropped_events, 1);
				return NULL;
			}
			if (ret == -EBUSY) {
				rb_count(&cb->commit_overrun, 1);
				return NULL;
			}
			continue;
		}
		if (!rb_cmpxchg(&bpage->write, w, w + WR_ENTRY + need))
			continue; /* an interrupt reserved first: go again, behind it */

		/* [off, off + need) is ours. */
		event = (void *)&bpage->page->data[off];
		if (off == 0)
			rb_store(&bpage->page->time_stamp, ts);
		if (time_type) {
			uint64_t t = time_type == RINGBUF_TYPE_TIME_EXTEND ? delta : ts;

			rb_set_header(event, time_type, t);
			event->array[0] = (uint32_t)(t >> TS_SHIFT);
			event = (void *)&bpage->page->data[off + RB_LEN_TIME_EXTEND];
			delta = 0;
		}
		rb_set_data_header(event, size, delta);
		if (outermost) {
			rb_store(&cb->write_stamp, ts);
			rb_store(&cb->stamp_tail, tail);
			rb_store(&cb->stamp_write, w + WR_ENTRY + need);
		}
		return event;
	}
}

/*
 * Publishes everything reserved so far: moves commit up to the tail. Only the outermost writer
 * calls it, when every writer that interrupted it has finished; an interrupt may still come in
 * while it runs, so it loops until the tail stands still.
 */
static void rb_set_commit_to_write(struct ring_buffer_per_cpu *cb)
{
	for (;;) {
		uint64_t commit = rb_load(&cb->commit);
		uint64_t tail = rb_load_acquire(&cb->tail);
		struct buffer_page *bpage = rb_page(cb, commit);
		uint64_t next;

		rb_store_release(&bpage->page->commit, wr_off(rb_load(&bpage->write)));
		if (pos_seq(commit) == pos_seq(tail)) {
			if (rb_load_acquire(&cb->tail) == tail)
				return;
			continue;
		}
		/* The commit page is full and published: the next page becomes the commit page. */
		next = rb_load_acquire(&cb->slots[(pos_seq(commit) + 1) % cb->nr_pages]);
		rb_store(&rb_page(cb, next)->page->commit, 0);
		rb_store_release(&cb->commit, pos_make(pos_seq(commit) + 1, false, pos_id(next)));
	}
}

/*
 * The common case of publishing, inline: commit and tail on the same page, and no interrupt
 * moving the tail meanwhile. False when rb_set_commit_to_write()'s loop is needed.
 */
static __always_inline bool rb_commit_fast(struct ring_buffer_per_cpu *cb)
{
	uint64_t tail = rb_load_acquire(&cb->tail);
	struct buffer_page *bpage = rb_page(cb, tail);

	if (unlikely(rb_load(&cb->commit) != tail))
		return false;
	rb_store_release(&bpage->page->commit, wr_off(rb_load(&bpage->write)));
	return likely(rb_load_acquire(&cb->tail) == tail);
}

/*
 * A writer leaving finds nesting at after, having found it at before on arrival: is it done?
 * Yes if other writers are still in (the outermost of them publishes), or if no writer began
 * meanwhile. Otherwise an interrupt came after the outermost writer's last look at the tail
 * but before it left, found itself nested and published nothing.
 */
static inline bool rb_left(uint64_t before, uint64_t after)
{
	return (uint32_t)after != 0 || (after >> 32) == (before >> 32);
}

/*
 * Then the outermost writer comes back in to publish again -- as a new writer would, so a reset
 * that saw nesting at 0 meanwhile is respected (rb_stop_writers).
 */
static noinline void rb_end_commit_again(struct ring_buffer_per_cpu *cb)
{
	for (;;) {
		uint64_t before;

		__atomic_add_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&cb->record_disabled, __ATOMIC_SEQ_CST)) {
			__atomic_sub_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST);
			return;
		}
		before = rb_load(&cb->nesting);
		if ((uint32_t)before == 1)
			rb_set_commit_to_write(cb);
		if (rb_left(before, __atomic_sub_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST)))
			return;
	}
}

/* Publishing the slow way, then leaving. */
static noinline void rb_end_commit_slow(struct ring_buffer_per_cpu *cb, uint64_t before)
{
	rb_set_commit_to_write(cb);
	if (!rb_left(before, __atomic_sub_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST)))
		rb_end_commit_again(cb);
}

/*
 * The end of a write, committed or not: the outermost writer publishes, then leaves. The
 * common case inline; the rest is out of line and called last, so this saves no registers.
 */
static __always_inline void rb_end_commit(struct ring_buffer_per_cpu *cb)
{
	uint64_t before = rb_load(&cb->nesting);

	if ((uint32_t)before == 1 && unlikely(!rb_commit_fast(cb))) {
		rb_end_commit_slow(cb, before);
		return;
	}
	if (unlikely(!rb_left(before, __atomic_sub_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST))))
		rb_end_commit_again(cb);
}

static bool rb_recording(struct ring_buffer *buffer, struct ring_buffer_per_cpu *cb)
{
	return !__atomic_load_n(&buffer->record_disabled, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&cb->record_disabled, __ATOMIC_SEQ_CST);
}

/*
 * Everything but the fast case: a nested writer, a time record, a page to turn, a lost race.
 * Out of line, so that the fast case in ring_buffer_lock_reserve() stays a leaf that saves no
 * registers.
 */
static noinline struct ring_buffer_event *
rb_reserve_slow(struct ring_buffer_per_cpu *cb, unsigned long length, bool outermost)
{
	struct ring_buffer_event *event = rb_reserve_next(cb, length, outermost);

	if (!event)
		rb_end_commit(cb);
	return event;
}

/*
 * Reserves length bytes on this CPU's buffer; NULL, and *err says why, if it cannot: -EBUSY
 * when recording is off (on this CPU, or everywhere), -E2BIG when length is more than a page
 * holds, -ENOSPC when the buffer is full (producer/consumer mode and nothing read, or the page
 * to reuse still holds a write in progress). Inline: ring_buffer_lock_reserve(), which every
 * event takes, ignores *err, and the compiler drops the stores.
 */
static __always_inline struct ring_buffer_event *
rb_lock_reserve(struct ring_buffer *buffer, unsigned long length, int *err)
{
	int cpu = ring_buffer_cpu_id();
	struct ring_buffer_per_cpu *cb;
	struct ring_buffer_event *event;
	uint64_t nesting;

	if (!rb_valid_cpu(buffer, cpu)) {
		*err = -EBUSY; /* no buffer for this CPU: as Linux's cpumask check */
		return NULL;
	}
	if (length > BUF_MAX_DATA_SIZE) {
		*err = -E2BIG;
		return NULL;
	}
	cb = rb_load_acquire(&buffer->buffers[cpu]);
	nesting = __atomic_add_fetch(&cb->nesting, NEST_ONE, __ATOMIC_SEQ_CST);
	/*
	 * cb may have been swapped into the other buffer between our load and our count: then it
	 * is not ours to write (ring_buffer_swap), and the commit would look for another one.
	 */
	if (!rb_recording(buffer, cb) || rb_load_acquire(&cb->buffer) != buffer) {
		/* Leave without touching the pages: a reset may be working on them. */
		__atomic_sub_fetch(&cb->nesting, 1, __ATOMIC_SEQ_CST);
		*err = -EBUSY;
		return NULL;
	}
	rb_count(&cb->written, 1);
	if (likely((uint32_t)nesting == 1)) {
		event = rb_reserve_fast(cb, rb_event_size(length));
		if (likely(event))
			return event;
	}
	event = rb_reserve_slow(cb, length, (uint32_t)nesting == 1);
	if (!event)
		*err = -ENOSPC; /* rb_reserve_next: dropped, or commit overrun */
	return event;
}

struct ring_buffer_event *ring_buffer_lock_reserve(struct ring_buffer *buffer,
						   unsigned long length)
{
	int unused;

	return rb_lock_reserve(buffer, length, &unused);
}

void ring_buffer_unlock_commit(struct ring_buffer *buffer)
{
	rb_end_commit(buffer->buffers[ring_buffer_cpu_id()]);
}

int ring_buffer_write(struct ring_buffer *buffer, unsigned long length, const void *data)
{
	int err = 0;
	struct ring_buffer_event *event = rb_lock_reserve(buffer, length, &err);

	if (!event)
		return err;
	memcpy(ring_buffer_event_data(event), data, length);
	ring_buffer_unlock_commit(buffer);
	return 0;
}

/* ---- Recording on and off ------------------------------------------------------------ */

void ring_buffer_record_off(struct ring_buffer *buffer)
{
	__atomic_fetch_or(&buffer->record_disabled, RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_on(struct ring_buffer *buffer)
{
	__atomic_fetch_and(&buffer->record_disabled, ~RB_BUFFER_OFF, __ATOMIC_SEQ_CST);
}

bool ring_buffer_record_is_on(struct ring_buffer *buffer)
{
	return !rb_load(&buffer->record_disabled);
}

bool ring_buffer_record_is_set_on(struct ring_buffer *buffer)
{
	return !(rb_load(&buffer->record_disabled) & RB_BUFFER_OFF);
}

void ring_buffer_record_disable(struct ring_buffer *buffer)
{
	__atomic_fetch_add(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_enable(struct ring_buffer *buffer)
{
	__atomic_fetch_sub(&buffer->record_disabled, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_disable_cpu(struct ring_buffer *buffer, int cpu)
{
	if (rb_valid_cpu(buffer, cpu))
		__atomic_fetch_add(&buffer->buffers[cpu]->record_disabled, 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_record_enable_cpu(struct ring_buffer *buffer, int cpu)
{
	if (rb_valid_cpu(buffer, cpu))
		__atomic_fetch_sub(&buffer->buffers[cpu]->record_disabled, 1, __ATOMIC_SEQ_CST);
}

/* ---- Consuming ----------------------------------------------------------------------- */

void ring_buffer_dump_begin(struct ring_buffer *buffer)
{
	lockdep_assert_irqs_disabled();
	__atomic_store_n(&buffer->dumper, ring_buffer_cpu_id() + 1, __ATOMIC_SEQ_CST);
}

void ring_buffer_dump_end(struct ring_buffer *buffer)
{
	__atomic_store_n(&buffer->dumper, 0, __ATOMIC_SEQ_CST);
}

/*
 * Called when the reader has read all of its page that is committed. If the writer has left
 * that page, swap it for the oldest page of the ring (skipping pages that were overwritten).
 * Returns true if there may be more to read on the reader's page now.
 */
static bool rb_get_reader_page(struct ring_buffer_per_cpu *cb)
{
	struct buffer_page *reader = &cb->pages[cb->reader_page];
	unsigned int n = cb->nr_pages;
	uint64_t seq = cb->reader_seq + 1;

	if (pos_seq(rb_load_acquire(&cb->commit)) == cb->reader_seq)
		return false; /* the writer is still on our page, and we read all it committed */
	if (cb->reader_off < rb_page_commit(reader->page))
		return true; /* it committed more before leaving */

	while (seq <= pos_seq(rb_load_acquire(&cb->commit))) {
		uint64_t *slot = &cb->slots[seq % n];
		uint64_t s = rb_load_acquire(slot);
		unsigned long overrun;

		if (pos_seq(s) > seq) { /* overwritten: the oldest page left is at least ... */
			seq = MAX(seq + 1, pos_seq(s) - n + 1);
			continue;
		}
		if (pos_seq(s) < seq || pos_empty(s))
			return false; /* cannot happen: pages up to commit are in the ring */
		/*
		 * Our page goes in empty, write word ready for the writer's next turn of the slot.
		 */
		rb_store(&reader->write, wr_make(seq, 0, 0));
		if (!rb_cmpxchg(slot, s, pos_make(seq, true, cb->reader_page)))
			continue; /* the writer turned the slot first: look again */

		cb->reader_page = pos_id(s);
		cb->reader_seq = seq;
		cb->reader_off = 0;
		overrun = rb_load(&cb->overrun);
		cb->lost_events += overrun - cb->last_overrun;
		cb->last_overrun = overrun;
		return true;
	}
	return false;
}

/* The next event on the reader's page, time records applied; NULL if none. Reader lock held. */
static struct ring_buffer_event *rb_reader_peek(struct ring_buffer_per_cpu *cb,
						uint64_t *ts)
{
	lockdep_assert(rb_load(&cb->reader_lock));
	for (;;) {
		struct buffer_data_page *dpage = cb->pages[cb->reader_page].page;
		unsigned int size = rb_page_commit(dpage), off = cb->reader_off, len;
		struct ring_buffer_event *event;

		if (off >= size) {
			if (!rb_get_reader_page(cb))
				return NULL;
			continue;
		}
		if (off == 0)
			cb->read_stamp = rb_load(&dpage->time_stamp);
		event = (struct ring_buffer_event *)&dpage->data[off];
		len = rb_record_length(event, size - off);
		if (len < RB_EVNT_HDR_SIZE || len > size - off)
			len = size - off; /* a broken record: never loop on it */
		if (event->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX) {
			*ts = cb->read_stamp + event->time_delta;
			return event;
		}
		cb->read_stamp = rb_apply_time(event, cb->read_stamp);
		cb->reader_off = off + len;
	}
}

static void rb_reader_advance(struct ring_buffer_per_cpu *cb,
			      struct ring_buffer_event *event, uint64_t ts)
{
	struct buffer_data_page *dpage = cb->pages[cb->reader_page].page;

	cb->reader_off += rb_record_length(event, rb_page_commit(dpage) - cb->reader_off);
	cb->read_stamp = ts;
	rb_count(&cb->read, 1);
}

/* The next event of cpu's buffer and the events lost before it; consume: also read past it. */
static struct ring_buffer_event *rb_peek_or_consume(struct ring_buffer *buffer, int cpu,
						     uint64_t *ts, unsigned long *lost_events,
						     bool consume)
{
	struct ring_buffer_per_cpu *cb;
	struct ring_buffer_event *event;
	uint64_t t = 0;

	if (!rb_valid_cpu(buffer, cpu))
		return NULL;
	cb = buffer->buffers[cpu];
	rb_reader_lock(cb);
	event = rb_reader_peek(cb, &t);
	if (lost_events)
		*lost_events = event ? cb->lost_events : 0;
	if (event && consume) {
		cb->lost_events = 0;
		rb_reader_advance(cb, event, t);
	}
	rb_reader_unlock(cb);
	if (ts)
		*ts = t;
	return event;
}

struct ring_buffer_event *ring_buffer_peek(struct ring_buffer *buffer, int cpu,
					   uint64_t *ts, unsigned long *lost_events)
{
	return rb_peek_or_consume(buffer, cpu, ts, lost_events, false);
}

struct ring_buffer_event *ring_buffer_consume(struct ring_buffer *buffer, int cpu,
					      uint64_t *ts, unsigned long *lost_events)
{
	return rb_peek_or_consume(buffer, cpu, ts, lost_events, true);
}

struct ring_buffer_event *ring_buffer_peek_oldest(struct ring_buffer *buffer, int *cpu,
						  uint64_t *ts, unsigned long *lost_events)
{
	struct ring_buffer_event *best = NULL;
	unsigned long best_lost = 0;
	uint64_t best_ts = 0;

	for (int c = 0; c < buffer->nr_cpus; c++) {
		unsigned long lost;
		uint64_t t;
		struct ring_buffer_event *event = ring_buffer_peek(buffer, c, &t, &lost);

		if (event && (!best || t < best_ts)) {
			best = event;
			best_ts = t;
			best_lost = lost;
			if (cpu)
				*cpu = c;
		}
	}
	if (ts)
		*ts = best_ts;
	if (lost_events)
		*lost_events = best_lost;
	return best;
}

bool ring_buffer_empty_cpu(struct ring_buffer *buffer, int cpu)
{
	return !ring_buffer_peek(buffer, cpu, NULL, NULL);
}

bool ring_buffer_empty(struct ring_buffer *buffer)
{
	for (int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		if (!ring_buffer_empty_cpu(buffer, cpu))
			return false;
	return true;
}

/*
 * Linux's take the buffer and CPU, to keep a freed page for that CPU's next reader; these
 * pages come from the heap, for any buffer and CPU, so they need neither.
 */
void *ring_buffer_alloc_read_page(void)
{
	return kzalloc(RB_PAGE_SIZE);
}

void ring_buffer_free_read_page(void *data)
{
	kfree(data);
}

/*
 * Copies records, not pages: the reader's page may still be the writer's, and a copy is
 * simple. A time record is only copied together with the record it stamps.
 */
int ring_buffer_read_page(struct ring_buffer *buffer, void **data_page, size_t len, int cpu,
			  int full)
{
	struct buffer_data_page *dst = data_page ? *data_page : NULL;
	struct ring_buffer_per_cpu *cb;
	struct buffer_data_page *dpage;
	unsigned int size, pos = 0, nr = 0;
	uint64_t stamp, ts, commit;
	int ret = -EAGAIN;

	if (!dst || !rb_valid_cpu(buffer, cpu) || len <= BUF_PAGE_HDR_SIZE)
		return -EINVAL;
	len = MIN(len, (size_t)RB_PAGE_SIZE) - BUF_PAGE_HDR_SIZE;
	cb = buffer->buffers[cpu];
	rb_reader_lock(cb);
	if (!rb_reader_peek(cb, &ts))
		goto out;
	if (full && pos_seq(rb_load_acquire(&cb->commit)) == cb->reader_seq)
		goto out; /* the writer is still on this page */

	dpage = cb->pages[cb->reader_page].page;
	size = rb_page_commit(dpage);
	stamp = cb->read_stamp; /* the first record copied is a data record, relative to this */
	while (cb->reader_off < size) {
		struct ring_buffer_event *rec = (void *)&dpage->data[cb->reader_off];
		unsigned int rlen = rb_record_length(rec, size - cb->reader_off), unit = rlen;

		if (rlen < RB_EVNT_HDR_SIZE || rlen > size - cb->reader_off)
			break;
		if (rec->type_len == RINGBUF_TYPE_PADDING) {
			cb->reader_off += rlen;
			continue;
		}
		if (rec->type_len > RINGBUF_TYPE_DATA_TYPE_LEN_MAX && rlen < size - cb->reader_off)
			unit += rb_record_length((void *)&dpage->data[cb->reader_off + rlen],
						 size - cb->reader_off - rlen);
		if (pos + unit > len)
			break;
		memcpy(&dst->data[pos], rec, rlen);
		pos += rlen;
		cb->reader_off += rlen;
		if (rec->type_len > RINGBUF_TYPE_DATA_TYPE_LEN_MAX) {
			cb->read_stamp = rb_apply_time(rec, cb->read_stamp);
		} else {
			cb->read_stamp += rec->time_delta;
			nr++;
		}
	}
	if (!nr) {
		ret = -EINVAL; /* len too small for the next event */
		goto out;
	}
	commit = pos;
	if (cb->lost_events) {
		commit |= RB_MISSED_EVENTS;
		if (pos + sizeof(uint64_t) <= len) {
			uint64_t lost = cb->lost_events;

			memcpy(&dst->data[pos], &lost, sizeof(lost));
			pos += sizeof(lost);
			commit |= RB_MISSED_STORED;
		}
		cb->lost_events = 0;
	}
	memset(&dst->data[pos], 0, len - pos);
	dst->time_stamp = stamp;
	dst->commit = commit;
	rb_count(&cb->read, nr);
	ret = commit & RB_COMMIT_MASK;
out:
	rb_reader_unlock(cb);
	return ret;
}

/* ---- Iterating ----------------------------------------------------------------------- */

struct ring_buffer_iter *ring_buffer_read_prepare(struct ring_buffer *buffer, int cpu)
{
	struct ring_buffer_iter *iter;

	if (!rb_valid_cpu(buffer, cpu))
		return NULL;
	iter = kzalloc(sizeof(*iter));
	if (iter)
		iter->cpu_buffer = buffer->buffers[cpu];
	return iter;
}

/*
 * To the oldest unread event: where the consumer is, or if it has read all of its page, the
 * oldest page left in the ring. The end is where the writer is. Reader lock held.
 */
static void rb_iter_reset(struct ring_buffer_iter *iter)
{
	lockdep_assert(rb_load(&iter->cpu_buffer->reader_lock));
	struct ring_buffer_per_cpu *cb = iter->cpu_buffer;
	uint64_t commit = rb_load_acquire(&cb->commit);

	iter->generation = rb_load(&cb->generation);
	iter->seq = cb->reader_seq;
	iter->off = cb->reader_off;
	iter->stamp = cb->read_stamp;
	if (pos_seq(commit) != cb->reader_seq &&
	    iter->off >= rb_page_commit(cb->pages[cb->reader_page].page)) {
		uint64_t oldest = pos_seq(rb_load_acquire(&cb->tail)) + 1 - cb->nr_pages;

		iter->seq = MAX(cb->reader_seq + 1, oldest);
		iter->off = 0;
	}
	iter->end_seq = pos_seq(commit);
	iter->end_off = rb_page_commit(rb_page(cb, commit)->page);
	iter->dropped = false;
	iter->cached = false;
}

void ring_buffer_read_start(struct ring_buffer_iter *iter)
{
	rb_reader_lock(iter->cpu_buffer);
	rb_iter_reset(iter);
	rb_reader_unlock(iter->cpu_buffer);
}

void ring_buffer_iter_reset(struct ring_buffer_iter *iter)
{
	ring_buffer_read_start(iter);
}

void ring_buffer_read_finish(struct ring_buffer_iter *iter)
{
	kfree(iter);
}

int ring_buffer_iter_cpu(struct ring_buffer_iter *iter)
{
	return iter->cpu_buffer->cpu;
}

/*
 * Copies the record at src (avail bytes of committed data left) into dst. Returns its length,
 * 0 if it makes no sense (then it was being overwritten: the caller's check will tell).
 */
static unsigned int rb_iter_copy(void *dst, const unsigned char *src, unsigned int avail)
{
	struct ring_buffer_event *event = dst;
	unsigned int len;

	memcpy(dst, src, MIN(avail, (unsigned int)RB_LEN_TIME_EXTEND));
	len = rb_record_length(event, avail);
	if (len < RB_EVNT_HDR_SIZE || len > avail || len % 4)
		return 0;
	if (event->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
		memcpy(dst, src, len);
	return len;
}

/* Finds the iterator's next event and copies it into iter->event. Reader lock held. */
static bool rb_iter_fetch(struct ring_buffer_iter *iter)
{
	lockdep_assert(rb_load(&iter->cpu_buffer->reader_lock));
	struct ring_buffer_per_cpu *cb = iter->cpu_buffer;
	unsigned int n = cb->nr_pages;

	if (iter->generation != rb_load(&cb->generation))
		rb_iter_reset(iter); /* the buffer was reset or resized */
	for (;;) {
		struct buffer_data_page *dpage;
		uint64_t *slot = NULL, s = 0, stamp;
		unsigned int size, len;
		struct ring_buffer_event *event = (struct ring_buffer_event *)iter->event;

		/* The consumer may have gone past us: what it read is gone. */
		if (iter->seq < cb->reader_seq ||
		    (iter->seq == cb->reader_seq && iter->off < cb->reader_off)) {
			iter->seq = cb->reader_seq;
			iter->off = cb->reader_off;
			iter->stamp = cb->read_stamp;
		}
		if (iter->seq > iter->end_seq)
			return false;
		if (iter->seq == cb->reader_seq) {
			dpage = cb->pages[cb->reader_page].page; /* ours: nobody rewrites it */
		} else {
			slot = &cb->slots[iter->seq % n];
			s = rb_load_acquire(slot);
			if (pos_seq(s) != iter->seq || pos_empty(s)) {
				if (pos_seq(s) <= iter->seq)
					return false; /* cannot happen */
				iter->dropped = true; /* overwritten: go to the oldest page left */
				iter->seq = MAX(iter->seq + 1, pos_seq(s) - n + 1);
				iter->off = 0;
				continue;
			}
			dpage = rb_page(cb, s)->page;
		}

		size = rb_page_commit(dpage);
		if (iter->seq == iter->end_seq)
			size = MIN(size, iter->end_off);
		if (iter->off >= size) {
			if (iter->seq == iter->end_seq)
				return false;
			/* If the page was reused meanwhile, what we did not read of it is lost. */
			if (slot && rb_load_acquire(slot) != s)
				iter->dropped = true;
			iter->seq++;
			iter->off = 0;
			continue;
		}
		stamp = iter->off ? iter->stamp : rb_load(&dpage->time_stamp);
		len = rb_iter_copy(iter->event, &dpage->data[iter->off], size - iter->off);
		if (slot) {
			/* Did the writer reuse the page while we copied? Then the copy is junk. */
			rb_smp_rmb();
			if (rb_load_acquire(slot) != s) {
				iter->dropped = true;
				continue;
			}
		}
		if (!len)
			return false; /* cannot happen: the page was not touched */
		if (event->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX) {
			iter->cached = true;
			iter->cached_ts = stamp + event->time_delta;
			iter->cached_len = len;
			return true;
		}
		iter->stamp = rb_apply_time(event, stamp);
		iter->off += len;
	}
}

struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter, uint64_t *ts)
{
	if (!iter->cached) {
		rb_reader_lock(iter->cpu_buffer);
		rb_iter_fetch(iter);
		rb_reader_unlock(iter->cpu_buffer);
	}
	if (!iter->cached)
		return NULL;
	if (ts)
		*ts = iter->cached_ts;
	return (struct ring_buffer_event *)iter->event;
}

void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	if (!ring_buffer_iter_peek(iter, NULL))
		return;
	iter->off += iter->cached_len;
	iter->stamp = iter->cached_ts;
	iter->cached = false;
}

bool ring_buffer_iter_peek_after(struct ring_buffer_iter *iter, uint64_t *ts)
{
	unsigned long generation = iter->generation;
	uint64_t seq = iter->seq, stamp = iter->stamp;
	unsigned int off = iter->off;
	bool dropped = iter->dropped, found;

	if (!ring_buffer_iter_peek(iter, NULL))
		return false;
	/* The place, not the copied event (a page): that is fetched again below. */
	ring_buffer_iter_advance(iter);
	found = ring_buffer_iter_peek(iter, ts) != NULL;
	iter->generation = generation;
	iter->seq = seq;
	iter->off = off;
	iter->stamp = stamp;
	iter->dropped = dropped;
	iter->cached = false;
	ring_buffer_iter_peek(iter, NULL); /* the current event, back where the caller has it */
	return found;
}

bool ring_buffer_iter_empty(struct ring_buffer_iter *iter)
{
	return !ring_buffer_iter_peek(iter, NULL);
}

bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter)
{
	bool dropped = iter->dropped;

	iter->dropped = false;
	return dropped;
}

struct ring_buffer_event *ring_buffer_iter_peek_oldest(struct ring_buffer_iter **iters,
						       int nr, int *which, uint64_t *ts)
{
	struct ring_buffer_event *best = NULL;
	uint64_t best_ts = 0;

	for (int i = 0; i < nr; i++) {
		uint64_t t;
		struct ring_buffer_event *event =
			iters[i] ? ring_buffer_iter_peek(iters[i], &t) : NULL;

		if (event && (!best || t < best_ts)) {
			best = event;
			best_ts = t;
			if (which)
				*which = i;
		}
	}
	if (ts)
		*ts = best_ts;
	return best;
}

/* ---- Counters ------------------------------------------------------------------------ */

unsigned long ring_buffer_overrun_cpu(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? rb_load_acquire(&buffer->buffers[cpu]->overrun) : 0;
}

unsigned long ring_buffer_commit_overrun_cpu(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? rb_load_acquire(&buffer->buffers[cpu]->commit_overrun)
					 : 0;
}

unsigned long ring_buffer_dropped_events_cpu(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? rb_load_acquire(&buffer->buffers[cpu]->dropped_events)
					 : 0;
}

unsigned long ring_buffer_read_events_cpu(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? rb_load_acquire(&buffer->buffers[cpu]->read) : 0;
}

unsigned long ring_buffer_written_cpu(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? rb_load_acquire(&buffer->buffers[cpu]->written) : 0;
}

/* What is left of written. Read last, written is never behind the others: no underflow. */
unsigned long ring_buffer_entries_cpu(struct ring_buffer *buffer, int cpu)
{
	unsigned long gone;

	if (!rb_valid_cpu(buffer, cpu))
		return 0;
	gone = ring_buffer_read_events_cpu(buffer, cpu) + ring_buffer_overrun_cpu(buffer, cpu) +
	       ring_buffer_commit_overrun_cpu(buffer, cpu) +
	       ring_buffer_dropped_events_cpu(buffer, cpu);
	return ring_buffer_written_cpu(buffer, cpu) - gone;
}

unsigned long ring_buffer_entries(struct ring_buffer *buffer)
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		sum += ring_buffer_entries_cpu(buffer, cpu);
	return sum;
}

unsigned long ring_buffer_overruns(struct ring_buffer *buffer)
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < buffer->nr_cpus; cpu++)
		sum += ring_buffer_overrun_cpu(buffer, cpu);
	return sum;
}

/*
 * What cpu's buffer holds unread: the unread part of the reader's page plus the committed bytes
 * of the ring's unread pages, and how many of those pages hold some (the reader's if part of it
 * is unread). One walk for ring_buffer_bytes_cpu and ring_buffer_nr_dirty_pages.
 */
static void rb_count_unread(struct ring_buffer *buffer, int cpu, unsigned long *bytes,
			    unsigned long *pages)
{
	struct ring_buffer_per_cpu *cb;
	uint64_t commit;

	*bytes = *pages = 0;
	if (!rb_valid_cpu(buffer, cpu))
		return;
	cb = buffer->buffers[cpu];
	rb_reader_lock(cb);
	commit = rb_load_acquire(&cb->commit);
	*bytes = rb_page_commit(cb->pages[cb->reader_page].page) - cb->reader_off;
	*pages = *bytes > 0;
	for (uint64_t seq = MAX(cb->reader_seq + 1, pos_seq(commit) + 1 - cb->nr_pages);
	     seq <= pos_seq(commit); seq++) {
		uint64_t s = rb_load_acquire(&cb->slots[seq % cb->nr_pages]);
		unsigned long committed;

		if (pos_seq(s) != seq || pos_empty(s))
			continue;
		committed = rb_page_commit(rb_page(cb, s)->page);
		*bytes += committed;
		*pages += committed > 0;
	}
	rb_reader_unlock(cb);
}

unsigned long ring_buffer_bytes_cpu(struct ring_buffer *buffer, int cpu)
{
	unsigned long bytes, pages;

	rb_count_unread(buffer, cpu, &bytes, &pages);
	return bytes;
}

/* Linux's ring_buffer_nr_dirty_pages(): the pages holding events not yet read. */
unsigned long ring_buffer_nr_dirty_pages(struct ring_buffer *buffer, int cpu)
{
	unsigned long bytes, pages;

	rb_count_unread(buffer, cpu, &bytes, &pages);
	return pages;
}

unsigned long ring_buffer_nr_pages(struct ring_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) ? buffer->buffers[cpu]->nr_pages : 0;
}

uint64_t ring_buffer_oldest_event_ts(struct ring_buffer *buffer, int cpu)
{
	uint64_t ts = 0;

	ring_buffer_peek(buffer, cpu, &ts, NULL);
	return ts;
}

/* The tracer's ring buffer: per-CPU pages in Linux's binary format, lockless for writers. */
#ifndef TRACE_RING_BUFFER_H
#define TRACE_RING_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"

/*
 * How it works is told at the top of trace/ring_buffer.c and in docs/design/ring_buffer.md.
 * What a caller must know:
 *
 * - Writers (ring_buffer_lock_reserve ... ring_buffer_unlock_commit, ring_buffer_write) write
 *   to the buffer of the CPU they run on, found with ring_buffer_cpu_id(), with preemption
 *   disabled from reserve to commit. Interrupts and NMIs may write in between: their events are
 *   placed after the interrupted one and everything becomes readable when the outermost writer
 *   commits. Writers never wait and never allocate.
 * - Readers (peek/consume, read_page, iterators, statistics, reset, resize) run in task
 *   context on any CPU. Readers of one CPU's buffer exclude each other with a small lock inside
 *   the buffer; they never make a writer wait.
 * - An event pointer returned by ring_buffer_peek()/ring_buffer_consume() stays valid until the
 *   next consuming call (peek, consume, read_page, reset, resize) on that CPU. An iterator
 *   returns a copy, valid until that iterator's next call.
 */

struct ring_buffer;
struct ring_buffer_iter;

/* Every record starts with this header: Linux's include/linux/ring_buffer.h, bit for bit. */
struct ring_buffer_event {
	uint32_t type_len : 5, time_delta : 27;
	uint32_t array[];
};

/*
 * type_len 1..28: a data record whose payload is type_len * 4 bytes, at array[0].
 * type_len 0:     a data record whose array[0] holds the payload length + 4; payload at array[1].
 * The others carry no payload for the reader of events.
 */
enum ring_buffer_type {
	RINGBUF_TYPE_DATA_TYPE_LEN_MAX = 28,
	/* end-of-page filler; array[0] = its length - 4, if time_delta != 0 */
	RINGBUF_TYPE_PADDING,
	RINGBUF_TYPE_TIME_EXTEND, /* delta = time_delta + (array[0] << 27), for the next record */
	RINGBUF_TYPE_TIME_STAMP, /* absolute time = time_delta + (array[0] << 27) */
};

/* A page as trace-cmd reads it (per_cpu/cpuN/trace_pipe_raw): Linux's buffer_data_page. */
struct buffer_data_page {
	uint64_t time_stamp; /* absolute time the first record's delta is relative to */
	uint64_t commit; /* bytes of records in data[]; the high bits flag missed events */
	unsigned char data[];
};

#define RB_PAGE_SIZE 4096
#define BUF_PAGE_HDR_SIZE 16 /* time_stamp + commit */
#define BUF_PAGE_SIZE (RB_PAGE_SIZE - BUF_PAGE_HDR_SIZE) /* 4080 bytes of records */
#define BUF_MAX_DATA_SIZE (BUF_PAGE_SIZE - 2 * sizeof(uint32_t)) /* largest payload: 4072 */
#define RB_MISSED_EVENTS (1UL << 31) /* in commit: events were lost before this page */
#define RB_MISSED_STORED (1UL << 30) /* ... and their count is the word after the data */
#define RB_COMMIT_MASK ((1UL << 27) - 1) /* commit without those flags */

/*
 * events/header_page and events/header_event: the two structs above described for tools, in
 * Linux's words (trace/trace_events_text.c).
 */
struct trace_seq;
void ring_buffer_print_page_header(struct trace_seq *s);
void ring_buffer_print_entry_header(struct trace_seq *s);

#define RB_FL_OVERWRITE (1 << 0) /* when full, drop the oldest page (default for tracing) */
#define RING_BUFFER_ALL_CPUS (-1)

/*
 * The CPU the caller runs on. In the kernel it is smp_processor_id(), inline because writers ask
 * on every event; the host tests, where threads stand for CPUs, define their own.
 */
#ifdef LUCID_HOST
int ring_buffer_cpu_id(void);
#else
#include "kernel/percpu.h"
static notrace inline int ring_buffer_cpu_id(void)
{
	return smp_processor_id();
}
#endif

/*
 * A buffer of size bytes of records per CPU (rounded up to whole pages, at least 2), for CPUs
 * 0 .. nr_cpus-1. Pages come from kmalloc(4096). The clock is a plain counter until
 * ring_buffer_set_clock(). NULL when memory is short.
 */
struct ring_buffer *ring_buffer_alloc(unsigned long size, unsigned int flags, int nr_cpus);
void ring_buffer_free(struct ring_buffer *buffer);
/* clock must be notrace and safe in NMI context; reset the buffer when changing it. */
void ring_buffer_set_clock(struct ring_buffer *buffer, uint64_t (*clock)(void));
uint64_t ring_buffer_time_stamp(struct ring_buffer *buffer);
int ring_buffer_nr_cpus(struct ring_buffer *buffer);
/* Bytes of records one CPU's buffer holds (pages * 4080). */
unsigned long ring_buffer_size(struct ring_buffer *buffer, int cpu);
/*
 * New size for one CPU or RING_BUFFER_ALL_CPUS. A CPU whose size changes loses its contents and
 * its counters. -ENOMEM (everything as before): no memory, or over 65535 pages; -EINVAL: bad cpu.
 */
int ring_buffer_resize(struct ring_buffer *buffer, unsigned long size, int cpu);
/* Overwrite (1) or producer/consumer (0) mode; takes effect for the next full page. */
void ring_buffer_change_overwrite(struct ring_buffer *buffer, int val);
bool ring_buffer_overwrite(struct ring_buffer *buffer);
/* Empties the buffer and zeroes its counters. Waits for writers on that CPU to finish. */
void ring_buffer_reset_cpu(struct ring_buffer *buffer, int cpu);
void ring_buffer_reset(struct ring_buffer *buffer);

/*
 * Swaps the contents of a and b on every CPU at one instant (the snapshot file): pages,
 * counters and settings of each CPU's part, not the buffers' own settings (clock, overwrite).
 * Task context; waits for writes in progress. -EINVAL if their CPU counts differ.
 */
int ring_buffer_swap(struct ring_buffer *a, struct ring_buffer *b);
/* The same for one CPU's part; -EINVAL if the two parts differ in size. */
int ring_buffer_swap_cpu(struct ring_buffer *a, struct ring_buffer *b, int cpu);
/*
 * The same from any context, interrupts off, without waiting (a latency tracer's new max, as
 * Linux's ring_buffer_swap_cpu): -EBUSY if a write is in progress on either part (an interrupted
 * writer on this CPU would never finish while we wait for it).
 */
int ring_buffer_swap_cpu_nowait(struct ring_buffer *a, struct ring_buffer *b, int cpu);
/* Every CPU's part so (Linux's update_max_tr): other CPUs' writes are waited for a bounded time. */
int ring_buffer_swap_nowait(struct ring_buffer *a, struct ring_buffer *b);

/* Writing. reserve returns NULL if recording is off, length > BUF_MAX_DATA_SIZE or no room. */
struct ring_buffer_event *ring_buffer_lock_reserve(struct ring_buffer *buffer,
						   unsigned long length);
void ring_buffer_unlock_commit(struct ring_buffer *buffer);
/*
 * reserve + copy + commit: 0, or why the event was not recorded: -EBUSY recording is off,
 * -E2BIG length > BUF_MAX_DATA_SIZE, -ENOSPC the buffer is full (and may not overwrite).
 */
int ring_buffer_write(struct ring_buffer *buffer, unsigned long length, const void *data);
/* Where a data record's payload starts (inline: every writer asks, between reserve and commit). */
static notrace inline void *ring_buffer_event_data(struct ring_buffer_event *event)
{
	return event->type_len ? &event->array[0] : &event->array[1];
}
/* Payload bytes of a data record (the length asked for, rounded up to the alignment). */
unsigned int ring_buffer_event_length(struct ring_buffer_event *event);

/* tracing_on: record_off/on is the switch, record_disable/enable nest (a counter). */
void ring_buffer_record_off(struct ring_buffer *buffer);
void ring_buffer_record_on(struct ring_buffer *buffer);
bool ring_buffer_record_is_on(struct ring_buffer *buffer); /* switch on, nothing disabled */
bool ring_buffer_record_is_set_on(struct ring_buffer *buffer); /* switch on */
void ring_buffer_record_disable(struct ring_buffer *buffer);
void ring_buffer_record_enable(struct ring_buffer *buffer);
void ring_buffer_record_disable_cpu(struct ring_buffer *buffer, int cpu);
void ring_buffer_record_enable_cpu(struct ring_buffer *buffer, int cpu);

/*
 * Consuming (trace_pipe). peek returns the next event of a CPU without consuming it, consume
 * returns it and moves past it; NULL when there is none. *ts gets its time; *lost_events (if
 * not NULL) the events overwritten since the previous one read. peek_oldest looks at every CPU
 * and returns the event with the smallest time, its CPU in *cpu: consume that CPU next.
 */
struct ring_buffer_event *ring_buffer_peek(struct ring_buffer *buffer, int cpu, uint64_t *ts,
					   unsigned long *lost_events);
struct ring_buffer_event *ring_buffer_consume(struct ring_buffer *buffer, int cpu, uint64_t *ts,
					      unsigned long *lost_events);
struct ring_buffer_event *ring_buffer_peek_oldest(struct ring_buffer *buffer, int *cpu,
						  uint64_t *ts, unsigned long *lost_events);
bool ring_buffer_empty_cpu(struct ring_buffer *buffer, int cpu);
bool ring_buffer_empty(struct ring_buffer *buffer);

/*
 * ftrace_dump's reading, from an oops or an interrupt: between dump_begin and dump_end, the
 * calling CPU's readers (peek, consume) wait a bounded time for a reader lock and then take
 * it over, since its holder may never let go. A CPU's buffer whose lock was taken over records
 * nothing more. The caller keeps interrupts off and recording off meanwhile.
 */
void ring_buffer_dump_begin(struct ring_buffer *buffer);
void ring_buffer_dump_end(struct ring_buffer *buffer);

/*
 * Consuming whole pages (trace_pipe_raw). read_page copies the CPU's oldest unread records, as
 * many as fit in len bytes, into *data_page as a page in Linux's format (time_stamp, commit with
 * RB_MISSED_* flags, records) and consumes them. Returns the bytes of records copied, or
 * -EAGAIN if there is nothing (or, with full, if the writer is still on the oldest page).
 */
void *ring_buffer_alloc_read_page(void);
void ring_buffer_free_read_page(void *data);
int ring_buffer_read_page(struct ring_buffer *buffer, void **data_page, size_t len, int cpu,
			  int full);

/*
 * Iterating without consuming (the trace file). read_prepare allocates an iterator for one CPU
 * (NULL if memory is short); read_start places it at the oldest unread event and notes where
 * the writer is: the iterator stops there, so a trace file shows the buffer as it was when it
 * was opened. Writers go on meanwhile; events they overwrite under the iterator are skipped and
 * ring_buffer_iter_dropped() says so once. iter_peek_oldest merges several iterators (NULLs
 * allowed) by time: it returns the earliest next event and its index in *which.
 */
struct ring_buffer_iter *ring_buffer_read_prepare(struct ring_buffer *buffer, int cpu);
void ring_buffer_read_start(struct ring_buffer_iter *iter);
void ring_buffer_read_finish(struct ring_buffer_iter *iter);
struct ring_buffer_event *ring_buffer_iter_peek(struct ring_buffer_iter *iter, uint64_t *ts);
/*
 * The time of the event after the one peek returns, the iterator left where it was (the
 * latency format's delay mark); false if there is none. The current event is fetched again:
 * it stays valid, at the same place.
 */
bool ring_buffer_iter_peek_after(struct ring_buffer_iter *iter, uint64_t *ts);
void ring_buffer_iter_advance(struct ring_buffer_iter *iter);
void ring_buffer_iter_reset(struct ring_buffer_iter *iter);
bool ring_buffer_iter_empty(struct ring_buffer_iter *iter);
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter);
int ring_buffer_iter_cpu(struct ring_buffer_iter *iter);
struct ring_buffer_event *ring_buffer_iter_peek_oldest(struct ring_buffer_iter **iters, int nr,
						       int *which, uint64_t *ts);

/*
 * Counters, per CPU, as in per_cpu/cpuN/stats. written counts every event a writer tried to
 * record while recording was on; each one is then exactly one of: still readable (entries),
 * read by a consumer, overwritten (overrun), refused because the buffer was full in
 * producer/consumer mode (dropped_events) or because interrupted writers held every page
 * (commit_overrun). So when no writer is in the middle of an event:
 *     written == entries + read + overrun + dropped_events + commit_overrun
 */
unsigned long ring_buffer_entries_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_overrun_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_commit_overrun_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_dropped_events_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_read_events_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_written_cpu(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_bytes_cpu(struct ring_buffer *buffer, int cpu); /* unread bytes */
/* Pages with unread events (the reader's page too), and the pages of the CPU's ring. */
unsigned long ring_buffer_nr_dirty_pages(struct ring_buffer *buffer, int cpu);
unsigned long ring_buffer_nr_pages(struct ring_buffer *buffer, int cpu);
uint64_t ring_buffer_oldest_event_ts(struct ring_buffer *buffer, int cpu); /* 0 if empty */
unsigned long ring_buffer_entries(struct ring_buffer *buffer); /* sums over all CPUs */
unsigned long ring_buffer_overruns(struct ring_buffer *buffer);

#endif

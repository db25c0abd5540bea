/* tracing_cpumask: which CPUs record, as a hex mask, as Linux's. */

/*
 * "echo 1 > tracing_cpumask" on a 2-CPU machine stops CPU 1 from recording anything: its ring
 * buffer refuses every event (Linux's ring_buffer_record_disable_cpu), so trace, trace_pipe
 * and per_cpu/cpu1/ show nothing new from it; "echo 3" lets it record again. The file reads
 * as Linux's "%*pb": nr_cpu_ids bits in hex, most significant first, in groups of 32 bits
 * separated by commas, the first group zero-padded to as many digits as its bits need ("3" on
 * 2 CPUs, "0f" on 5).
 *
 * A write is parsed as Linux's bitmap_parse(), from the end: groups of at most 8 hex digits
 * separated by commas or blanks, the last group the lowest bits. A character that is no hex
 * digit is EINVAL; a group of more than 8 digits, more groups than the mask has, or a bit set
 * past the last CPU is EOVERFLOW; nothing at all is an empty mask (every CPU stops). Only
 * what comes before the first newline is read, as Linux.
 *
 * The trace array keeps the CPUs the mask clears (cpumask_cleared: zero, every CPU records,
 * is a new trace array's state with nothing to set up). trace_types_lock orders writers.
 * Not traced, as all of trace/.
 */
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CPUMASK_CHUNK_BITS 32 /* Linux's CHUNKSZ: a comma every 32 bits */
#define HEX_DIGIT_BITS 4
#define CPUMASK_TEXT_MAX 128 /* what a read prints: NR_CPUS bits in hex need far less */

static unsigned long all_cpus(const struct trace_array *tr)
{
	return (1UL << tr->nr_cpus) - 1;
}

/* Linux's hex_to_bin: the digit's value, or -1. */
static int hex_to_bin(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20); /* lower case */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool end_of_region(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

/* Linux's bitmap_parse() for a mask of nbits (<= 64) bits: 0 or -EINVAL / -EOVERFLOW. */
static int cpumask_parse(const char *buf, size_t len, int nbits, unsigned long *maskp)
{
	const char *nl = memchr(buf, '\n', len);
	long end = (nl ? nl - buf : (long)len) - 1; /* the last character read */
	int chunks = (nbits + CPUMASK_CHUNK_BITS - 1) / CPUMASK_CHUNK_BITS;
	unsigned long mask = 0;

	for (int chunk = 0;; chunk++) {
		uint64_t num = 0;

		while (end >= 0 && end_of_region(buf[end]))
			end--;
		if (end < 0)
			break;
		if (!chunks--)
			return -EOVERFLOW;
		for (int i = 0;; i += HEX_DIGIT_BITS) {
			int c;

			if (i == CPUMASK_CHUNK_BITS)
				return hex_to_bin(buf[end]) >= 0 ? -EOVERFLOW : -EINVAL;
			c = hex_to_bin(buf[end--]);
			if (c < 0)
				return -EINVAL;
			num |= (uint64_t)c << i;
			if (end < 0 || end_of_region(buf[end]))
				break;
		}
		mask |= (unsigned long)(num << (chunk * CPUMASK_CHUNK_BITS));
	}
	if (mask & ~((1UL << nbits) - 1))
		return -EOVERFLOW; /* a CPU that does not exist */
	*maskp = mask;
	return 0;
}

/* Linux's bitmap_string(): "%*pb". */
static void cpumask_print(char *buf, size_t size, unsigned long mask, int nbits)
{
	int chunksz = nbits % CPUMASK_CHUNK_BITS ? nbits % CPUMASK_CHUNK_BITS : CPUMASK_CHUNK_BITS;
	int first = (nbits + CPUMASK_CHUNK_BITS - 1) / CPUMASK_CHUNK_BITS * CPUMASK_CHUNK_BITS -
		    CPUMASK_CHUNK_BITS;
	size_t len = 0;

	buf[0] = '\0';
	for (int i = first; i >= 0 && len < size; i -= CPUMASK_CHUNK_BITS) {
		unsigned long val = (mask >> i) & ((1UL << chunksz) - 1);

		len += (size_t)snprintf(buf + len, size - len, "%s%0*lx", i == first ? "" : ",",
					(chunksz + HEX_DIGIT_BITS - 1) / HEX_DIGIT_BITS, val);
		chunksz = CPUMASK_CHUNK_BITS;
	}
}

static struct trace_array *cpumask_tr(struct file *file)
{
	return tracing_get_tr(file_inode(file));
}

static ssize_t tracing_cpumask_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = cpumask_tr(file);
	char buf[CPUMASK_TEXT_MAX];

	cpumask_print(buf, sizeof(buf) - 1, all_cpus(tr) & ~tr->cpumask_cleared, tr->nr_cpus);
	strcat(buf, "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

/* Linux's tracing_set_cpumask(): each CPU that changes has its buffer stopped or let go. */
static void tracing_set_cpumask(struct trace_array *tr, unsigned long mask)
{
	lockdep_assert_held(&trace_types_lock);
	unsigned long cleared = all_cpus(tr) & ~mask;

	for (int cpu = 0; cpu < tr->nr_cpus; cpu++) {
		bool was = tr->cpumask_cleared & (1UL << cpu), now = cleared & (1UL << cpu);

		if (!was && now)
			ring_buffer_record_disable_cpu(tr->buffer, cpu);
		else if (was && !now)
			ring_buffer_record_enable_cpu(tr->buffer, cpu);
	}
	tr->cpumask_cleared = cleared;
}

static ssize_t tracing_cpumask_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = cpumask_tr(file);
	unsigned long mask;
	int ret;

	ret = cpumask_parse(ubuf, cnt, tr->nr_cpus, &mask);
	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	tracing_set_cpumask(tr, mask);
	mutex_unlock(&trace_types_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations tracing_cpumask_fops = {
	.read = tracing_cpumask_read,
	.write = tracing_cpumask_write,
};

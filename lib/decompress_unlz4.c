/*
 * LZ4, the decompressor Lucid's initramfs is packed for (`lz4 -l -9`, one of the formats Linux's
 * initramfs takes: lib/decompress_unlz4.c there). Why not gzip, Linux's default: under QEMU
 * without KVM (TCG), GRUB reads the archive through the BIOS at some 16 MB/s and inflate runs at
 * about 25 MB/s, so gzip's halving is eaten by inflating; LZ4 packs these binaries as small
 * (-9: 5.5 of 12 MB) and decodes with byte copies only, several times faster.
 *
 * A block is a run of sequences, each a token byte, literals, then a match:
 *	token: high nibble = literal count, low nibble = match length - 4 (15: more bytes follow,
 *	       each added, while they are 255)
 *	literals: copied as they are
 *	offset: 2 bytes little-endian, how far back in the output the match starts (1..65535;
 *	        a match may overlap what it writes: offset 1 repeats one byte)
 * The last sequence has literals only: the block ends after them.
 *
 * The legacy frame: the magic 0x184C2102, then blocks, each a 4-byte little-endian compressed
 * size and the block; each decompresses to LZ4_LEGACY_BLOCK_MAX bytes but the last. A frame
 * may follow another (concatenated archives), starting with the magic again.
 */
#include "lib/decompress_unlz4.h"
#include "lib/errno.h"
#include "lib/unaligned.h"

#define LZ4_MIN_MATCH 4
#define LZ4_RUN_MASK 15 /* a nibble of 15: the length goes on in the next bytes */
#define LZ4_LEN_MORE 255 /* a length byte of 255: another follows */
#define LZ4_OFFSET_BYTES 2
#define LZ4_MAGIC_BYTES 4
#define LZ4_BLOCK_HDR_BYTES 4

/*
 * Copies n bytes forward, 8 at a time while they fit, then byte by byte: src may be behind
 * dst by 8 or more (a match's output so far), and each 8-byte step reads only bytes already
 * there. Plain loads and stores: under QEMU's TCG a `rep movs` (memcpy) costs a loop of the
 * emulator per step, and the sequences here are short and many.
 */
#define COPY_STEP 8

static inline void copy_forward(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (; n >= COPY_STEP; n -= COPY_STEP, dst += COPY_STEP, src += COPY_STEP)
		__builtin_memcpy(dst, src, COPY_STEP);
	while (n--)
		*dst++ = *src++;
}

/* Reads a length's extra bytes after a nibble of 15; false if in ends first. */
static bool read_length(const uint8_t **ip, const uint8_t *iend, size_t *len)
{
	uint8_t b;

	do {
		if (*ip >= iend)
			return false;
		b = *(*ip)++;
		*len += b;
	} while (b == LZ4_LEN_MORE);
	return true;
}

long lz4_decompress_block(const uint8_t *in, size_t len, uint8_t *out, size_t size)
{
	const uint8_t *ip = in, *iend = in + len;
	uint8_t *op = out, *oend = out + size;

	while (ip < iend) {
		uint8_t token = *ip++;
		size_t lit = token >> 4, mlen = token & LZ4_RUN_MASK, offset;

		if (lit == LZ4_RUN_MASK && !read_length(&ip, iend, &lit))
			return -EINVAL;
		if (lit > (size_t)(iend - ip) || lit > (size_t)(oend - op))
			return -EINVAL;
		copy_forward(op, ip, lit);
		ip += lit;
		op += lit;
		if (ip == iend)
			break; /* the last sequence: literals only */
		if (iend - ip < LZ4_OFFSET_BYTES)
			return -EINVAL;
		offset = (size_t)ip[0] | (size_t)ip[1] << 8;
		ip += LZ4_OFFSET_BYTES;
		if (offset == 0 || offset > (size_t)(op - out))
			return -EINVAL;
		if (mlen == LZ4_RUN_MASK && !read_length(&ip, iend, &mlen))
			return -EINVAL;
		mlen += LZ4_MIN_MATCH;
		if (mlen > (size_t)(oend - op))
			return -EINVAL;
		const uint8_t *match = op - offset;

		/*
		 * A match closer than 8 bytes repeats a pattern of offset bytes (offset 1: a run
		 * of one byte, as the zero padding in binaries). Its first bytes are written one by
		 * one, up to a whole multiple of offset that is 8 or more; from there the output
		 * also repeats with that longer period, and 8-byte steps read only what is written.
		 */
		size_t period = offset;

		while (period < COPY_STEP)
			period += offset;
		size_t head = mlen < period ? mlen : period;

		if (offset >= COPY_STEP)
			head = 0;
		for (size_t i = 0; i < head; i++)
			op[i] = match[i];
		copy_forward(op + head, op + head - period, mlen - head);
		op += mlen;
	}
	return (long)(op - out);
}

bool lz4_legacy_magic(const void *buf, size_t len)
{
	return len >= LZ4_MAGIC_BYTES && get_unaligned_le32(buf) == LZ4_LEGACY_MAGIC;
}

size_t unlz4_bound(const void *in, size_t len)
{
	const uint8_t *ip = in;
	size_t pos = 0, bound = 0;

	if (!lz4_legacy_magic(in, len))
		return 0;
	while (pos < len) {
		if (lz4_legacy_magic(ip + pos, len - pos)) {
			pos += LZ4_MAGIC_BYTES;
			continue;
		}
		if (len - pos < LZ4_BLOCK_HDR_BYTES)
			return 0;
		size_t blen = get_unaligned_le32(ip + pos);

		pos += LZ4_BLOCK_HDR_BYTES;
		if (blen > len - pos)
			return 0;
		pos += blen;
		bound += LZ4_LEGACY_BLOCK_MAX;
	}
	return bound;
}

long unlz4(const void *in, size_t len, void *out, size_t size)
{
	const uint8_t *ip = in;
	uint8_t *op = out;
	size_t pos = 0, done = 0;

	if (!lz4_legacy_magic(in, len))
		return -EINVAL;
	while (pos < len) {
		if (lz4_legacy_magic(ip + pos, len - pos)) {
			pos += LZ4_MAGIC_BYTES;
			continue;
		}
		if (len - pos < LZ4_BLOCK_HDR_BYTES)
			return -EINVAL;
		size_t blen = get_unaligned_le32(ip + pos);

		pos += LZ4_BLOCK_HDR_BYTES;
		if (blen > len - pos)
			return -EINVAL;
		size_t room =
			size - done < LZ4_LEGACY_BLOCK_MAX ? size - done : LZ4_LEGACY_BLOCK_MAX;
		long n = lz4_decompress_block(ip + pos, blen, op + done, room);

		if (n < 0)
			return n;
		pos += blen;
		done += (size_t)n;
	}
	return (long)done;
}

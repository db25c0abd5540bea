/*
 * The kernel's random bytes (Linux's drivers/char/random.c, in miniature): get_random_bytes()
 * for the kernel and getrandom(2), and the character devices /dev/random and /dev/urandom.
 *
 * The bytes come from a xorshift64 generator seeded at each call by the TSC and a counter
 * (so two calls in the same cycle still differ). There is no entropy pool: good enough for
 * hash seeds, canaries and a program's AT_RANDOM in a teaching kernel, not for keys. As on
 * Linux since 5.6, /dev/random never blocks once the kernel is up, so the two devices are one.
 */
#include "kernel/drivers/random.h"
#include "kernel/fs/vfs.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15UL /* an odd constant with well-mixed bits */

static unsigned long random_calls; /* bumped atomically: the seed's second half */

void get_random_bytes(void *buf, size_t n)
{
	unsigned long seed = __atomic_add_fetch(&random_calls, GOLDEN_GAMMA, __ATOMIC_RELAXED);
	uint64_t x = (rdtsc() ^ seed) | 1; /* xorshift's state must never be 0 */
	unsigned char *p = buf;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 32);
	}
}

/* A read gets count fresh bytes; there is no position (Linux's urandom_read_iter). */
static ssize_t random_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)pos;
	get_random_bytes(buf, count);
	return (ssize_t)count;
}

/* Writing mixes the bytes into the pool on Linux; Lucid has none, so they are taken and dropped. */
static ssize_t random_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)pos;
	return (ssize_t)count;
}

/* lseek succeeds and means nothing, as Linux's noop_llseek: the position stays as it was. */
static loff_t random_llseek(struct file *file, loff_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return file->f_pos;
}

static const struct file_operations random_fops = {
	.read = random_read,
	.write = random_write,
	.llseek = random_llseek,
};

int random_devs_init(void)
{
	int err = vfs_mknod("/dev/random", S_IFCHR | 0666, &random_fops);

	if (!err)
		err = vfs_mknod("/dev/urandom", S_IFCHR | 0666, &random_fops);
	return err;
}

/*
 * eventfd (Linux's fs/eventfd.c): a 64-bit counter behind a descriptor, for one thread or
 * process to tell another "something happened" in a way poll and epoll can wait for.
 *
 * write adds its 8-byte value to the counter; read returns the counter and sets it to 0, or
 * with EFD_SEMAPHORE returns 1 and takes 1 away. A read of 0 waits (EAGAIN with EFD_NONBLOCK),
 * as does a write that would take the counter past ULLONG_MAX - 1, the largest it may hold.
 * The waiting is vfs_block's (kernel/fs/vfs_lock.c): the operations here answer -EAGAIN and
 * name the wait queue, which every change wakes, as a pipe's. Readable while the counter is
 * not 0, writable while 1 more fits. Everything runs under the VFS lock.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/wait.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"

#define EFD_SEMAPHORE 1
#define EFD_CLOEXEC O_CLOEXEC
#define EFD_NONBLOCK O_NONBLOCK
#define EFD_FLAGS_SET (EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK)
#define EVENTFD_MAX UINT64_MAX /* the counter holds at most one less */

struct eventfd_ctx {
	wait_queue_head_t wqh; /* woken at every change of count */
	uint64_t count;
	unsigned int flags; /* EFD_SEMAPHORE */
};

static ssize_t eventfd_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t ucnt;

	(void)pos;
	if (count < sizeof(ucnt))
		return -EINVAL;
	if (!ctx->count)
		return -EAGAIN;
	ucnt = (ctx->flags & EFD_SEMAPHORE) ? 1 : ctx->count;
	ctx->count -= ucnt;
	wake_up(&ctx->wqh);
	memcpy(buf, &ucnt, sizeof(ucnt));
	return sizeof(ucnt);
}

static ssize_t eventfd_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t ucnt;

	(void)pos;
	if (count < sizeof(ucnt))
		return -EINVAL;
	memcpy(&ucnt, buf, sizeof(ucnt));
	if (ucnt == EVENTFD_MAX)
		return -EINVAL;
	if (EVENTFD_MAX - ctx->count <= ucnt)
		return -EAGAIN; /* no room: wait for a read */
	ctx->count += ucnt;
	if (ucnt)
		wake_up(&ctx->wqh);
	return sizeof(ucnt);
}

static unsigned int eventfd_poll(struct file *file)
{
	struct eventfd_ctx *ctx = file->private_data;
	unsigned int events = 0;

	if (ctx->count > 0)
		events |= POLLIN | POLLRDNORM;
	if (ctx->count == EVENTFD_MAX)
		events |= POLLERR;
	if (EVENTFD_MAX - 1 > ctx->count)
		events |= POLLOUT | POLLWRNORM;
	return events;
}

static struct wait_queue_head *eventfd_wait_queue(struct file *file)
{
	return &((struct eventfd_ctx *)file->private_data)->wqh;
}

static int eventfd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
	return 0;
}

static const struct file_operations eventfd_fops = {
	.read = eventfd_read,
	.write = eventfd_write,
	.release = eventfd_release,
	.poll = eventfd_poll,
	.wait_queue = eventfd_wait_queue,
};

long sys_eventfd2(unsigned int count, int flags)
{
	struct eventfd_ctx *ctx;
	int fd;

	if (flags & ~EFD_FLAGS_SET)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	init_waitqueue_head(&ctx->wqh);
	ctx->count = count;
	ctx->flags = (unsigned int)flags & EFD_SEMAPHORE;
	fd = anon_inode_getfd("[eventfd]", &eventfd_fops, ctx, flags & (O_NONBLOCK | O_CLOEXEC));
	if (fd < 0)
		kfree(ctx);
	return fd;
}

long sys_eventfd(unsigned int count)
{
	return sys_eventfd2(count, 0);
}

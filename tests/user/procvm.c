/*
 * process_vm_readv and process_vm_writev, judged against Linux (tests/qemu/user/test_fd_events.py):
 * a child's memory read and written by its parent, iovecs of different shapes on the two sides,
 * a copy that stops at an unmapped page (the bytes so far), a read-only page, and the errors
 * (flags, too many iovecs, a negative length, no such process, bad addresses).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define MANY_IOVECS 1025 /* one more than UIO_MAXIOV */

static char secret[64] = "the child's secret";

static void show(const char *what, long ret)
{
	printf("%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

int main(void)
{
	int ready[2], go[2], status;
	char buf[64] = "", a[8] = "", b[64] = "";
	static struct iovec many[MANY_IOVECS];
	pid_t pid, me = getpid();

	setvbuf(stdout, NULL, _IONBF, 0);
	pipe(ready);
	pipe(go);
	pid = fork();
	if (pid == 0) {
		char c;

		write(ready[1], "r", 1);
		read(go[0], &c, 1); /* the parent reads and writes meanwhile */
		printf("child sees: %s\n", secret);
		_exit(0);
	}
	read(ready[0], buf, 1);

	struct iovec local = {buf, sizeof(buf)}, remote = {secret, 18};
	show("readv(child)", process_vm_readv(pid, &local, 1, &remote, 1, 0));
	printf("read: %s\n", buf);
	/* 3 + 5 bytes into two local pieces from one remote one. */
	struct iovec two[2] = {{a, 3}, {b, 5}};
	show("readv(two local pieces)", process_vm_readv(pid, two, 2, &remote, 1, 0));
	printf("pieces: %.3s|%.5s\n", a, b);
	/* One local piece from two remote ones. */
	struct iovec rtwo[2] = {{secret + 4, 5}, {secret + 12, 6}};
	memset(buf, 0, sizeof(buf));
	show("readv(two remote pieces)", process_vm_readv(pid, &local, 1, rtwo, 2, 0));
	printf("joined: %s\n", buf);
	struct iovec rzero = {secret, 0};
	show("readv(remote total 0)", process_vm_readv(pid, &local, 1, &rzero, 1, 0));

	const char *news = "written by the parent";
	struct iovec wl = {(void *)news, strlen(news) + 1}, wr = {secret, strlen(news) + 1};
	show("writev(child)", process_vm_writev(pid, &wl, 1, &wr, 1, 0));
	write(go[1], "g", 1);
	waitpid(pid, &status, 0);

	/* The errors. */
	show("readv(flags 1)", process_vm_readv(me, &local, 1, &remote, 1, 1));
	for (int i = 0; i < MANY_IOVECS; i++)
		many[i] = (struct iovec){buf, 1};
	show("readv(1025 local iovecs)", process_vm_readv(me, many, MANY_IOVECS, &remote, 1, 0));
	show("readv(1025 remote iovecs)", process_vm_readv(me, &local, 1, many, MANY_IOVECS, 0));
	struct iovec negative = {buf, (size_t)-1};
	show("readv(negative length)", process_vm_readv(me, &negative, 1, &remote, 1, 0));
	show("readv(reaped child)", process_vm_readv(pid, &local, 1, &remote, 1, 0));
	struct iovec empty = {buf, 0};
	show("readv(nothing, reaped child)", process_vm_readv(pid, &empty, 1, &remote, 1, 0));
	show("readv(local iovecs fault)", process_vm_readv(me, (void *)8, 1, &remote, 1, 0));
	show("readv(remote iovecs fault)", process_vm_readv(me, &local, 1, (void *)8, 1, 0));
	struct iovec rnull = {NULL, 8};
	show("readv(remote NULL)", process_vm_readv(me, &local, 1, &rnull, 1, 0));
	struct iovec lnull = {NULL, 8};
	show("readv(local NULL)", process_vm_readv(me, &lnull, 1, &remote, 1, 0));

	/* A copy that runs into an unmapped page: the bytes before it. */
	char *pages =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(pages, 'p', PAGE);
	munmap(pages + PAGE, PAGE);
	struct iovec across = {pages + PAGE - 10, 20};
	show("readv(across an unmapped page)", process_vm_readv(me, &local, 1, &across, 1, 0));
	struct iovec lacross = {pages + PAGE - 10, 20};
	show("readv(into an unmapped page)", process_vm_readv(me, &lacross, 1, &remote, 1, 0));
	/* A read-only page reads, and refuses a write. */
	mprotect(pages, PAGE, PROT_READ);
	struct iovec ro = {pages, 8};
	show("readv(read-only page)", process_vm_readv(me, &local, 1, &ro, 1, 0));
	show("writev(read-only page)", process_vm_writev(me, &local, 1, &ro, 1, 0));
	mprotect(pages, PAGE, PROT_NONE);
	show("readv(PROT_NONE page)", process_vm_readv(me, &local, 1, &ro, 1, 0));
	munmap(pages, PAGE);
	return 0;
}

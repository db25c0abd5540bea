/*
 * Files through the system calls, on the VFS the kernel shell uses: each step prints what it
 * got, so the test compares the whole output with what Linux prints for the same program.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MSG "written by a user program\n"

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

int main(void)
{
	char buf[64], cwd[64];
	struct stat st;
	int p[2];

	step("mkdir", mkdir("/tmp/files", 0755));
	step("mkdir again", mkdir("/tmp/files", 0755));
	step("chdir", chdir("/tmp/files"));
	step("getcwd", getcwd(cwd, sizeof(cwd)) ? (long)strlen(cwd) : -1);
	printf("cwd=%s\n", cwd);
	int fd = open("f", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	step("open", fd >= 0 ? 0 : -1);
	step("write", write(fd, MSG, strlen(MSG)));
	step("close", close(fd));
	step("close again", close(fd));
	step("stat", stat("/tmp/files/f", &st));
	printf("size=%ld regular=%d\n", (long)st.st_size, S_ISREG(st.st_mode));
	fd = open("f", O_RDONLY);
	step("lseek", lseek(fd, 8, SEEK_SET));
	memset(buf, 0, sizeof(buf));
	step("read", read(fd, buf, sizeof(buf) - 1));
	printf("buf=%s", buf);
	step("fstat", fstat(fd, &st));
	printf("size=%ld\n", (long)st.st_size);
	step("dup2", dup2(fd, 9));
	step("close dup", close(9));
	close(fd);
	step("open missing", open("nothere", O_RDONLY));
	step("open excl", open("f", O_WRONLY | O_CREAT | O_EXCL, 0644));
	step("rename", rename("f", "g"));
	step("stat old", stat("f", &st));
	step("pipe", pipe(p));
	step("pipe write", write(p[1], "ping", 4));
	memset(buf, 0, sizeof(buf));
	step("pipe read", read(p[0], buf, sizeof(buf)));
	printf("got=%s\n", buf);
	/* readv returns what the pipe has: a full first iovec does not wait to fill the second. */
	step("pipe write", write(p[1], "pong", 4));
	struct iovec iov[2] = {{buf, 4}, {buf + 4, 4}};
	step("pipe readv", readv(p[0], iov, 2));
	step("lseek pipe", lseek(p[0], 0, SEEK_SET));
	close(p[0]);
	close(p[1]);
	step("unlink", unlink("g"));
	step("chdir /", chdir("/"));
	step("rmdir", rmdir("/tmp/files"));
	step("rmdir again", rmdir("/tmp/files"));
	return 0;
}

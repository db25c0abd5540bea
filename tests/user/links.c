/*
 * Symbolic links from a user program: symlink(at), readlink(at), lstat against stat, links
 * followed in the middle and at the end of a path, O_NOFOLLOW, dangling links, loops (ELOOP),
 * and unlink/rename working on the link itself. tests/qemu/user/test_syscalls.py compares the
 * output with Linux's. Usage: links DIR (works in DIR/ln, which it makes and removes).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

static void readlink_of(const char *what, const char *path, size_t size)
{
	char buf[64];
	ssize_t n = readlink(path, buf, size);

	if (n < 0)
		step(what, n);
	else
		printf("%s: %zd %.*s\n", what, n, (int)n, buf);
}

static void kinds(const char *what, const char *path)
{
	struct stat st, lst;
	int s = stat(path, &st), l = lstat(path, &lst);

	printf("%s: stat %s lstat %s", what,
	       s		     ? strerror(errno)
	       : S_ISDIR(st.st_mode) ? "dir"
	       : S_ISREG(st.st_mode) ? "file"
				     : "other",
	       l		      ? "-"
	       : S_ISLNK(lst.st_mode) ? "link"
	       : S_ISDIR(lst.st_mode) ? "dir"
				      : "file");
	if (!l && S_ISLNK(lst.st_mode))
		printf(" size %ld mode 0%o", (long)lst.st_size, lst.st_mode & 07777);
	printf("\n");
}

int main(int argc, char **argv)
{
	char dir[256], buf[32] = {0};
	struct dirent *de;
	DIR *d;
	int fd, dfd;

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(dir, sizeof(dir), "%s/ln", argv[1]);
	step("mkdir", mkdir(dir, 0755));
	step("chdir", chdir(dir));
	mkdir("real", 0755);
	fd = open("real/file", O_WRONLY | O_CREAT, 0644);
	step("write", write(fd, "through", 7));
	close(fd);

	step("symlink to dir", symlink("real", "dirlink"));
	step("symlink to file", symlink("real/file", "filelink"));
	step("symlink absolute", symlink(dir, "abslink"));
	step("symlink dangling", symlink("nowhere", "dangling"));
	step("symlink loop a", symlink("loopb", "loopa"));
	step("symlink loop b", symlink("loopa", "loopb"));
	step("symlink exists", symlink("x", "filelink"));
	step("symlink empty target", symlink("", "empty"));
	step("symlink in missing dir", symlink("x", "missing/l"));
	kinds("dirlink", "dirlink");
	kinds("filelink", "filelink");
	kinds("dangling", "dangling");
	kinds("loopa", "loopa");
	kinds("real", "real");
	readlink_of("readlink filelink", "filelink", 64);
	readlink_of("readlink short buffer", "filelink", 4);
	{
		char b[256];
		ssize_t n = readlink("abslink", b, sizeof(b));

		step("readlink abslink is the directory",
		     n == (ssize_t)strlen(dir) && !memcmp(b, dir, n));
	}
	readlink_of("readlink not a link", "real", 64);
	readlink_of("readlink missing", "missing", 64);
	readlink_of("readlink through dirlink", "dirlink/file", 64);
	readlink_of("readlink zero size", "filelink", 0);

	fd = open("dirlink/file", O_RDONLY);
	step("read through dirlink", read(fd, buf, sizeof(buf) - 1));
	printf("buf=%s\n", buf);
	close(fd);
	fd = open("abslink/filelink", O_RDONLY);
	step("open abslink/filelink", fd >= 0 ? 0 : -1);
	close(fd);
	step("open dangling", open("dangling", O_RDONLY));
	step("open loop", open("loopa", O_RDONLY));
	step("open loop/x", open("loopa/x", O_RDONLY));
	step("open O_NOFOLLOW link", open("filelink", O_RDONLY | O_NOFOLLOW));
	fd = open("dirlink/file", O_RDONLY | O_NOFOLLOW);
	step("open O_NOFOLLOW link in the middle", fd >= 0 ? 0 : -1);
	close(fd);
	fd = open("filelink", O_WRONLY | O_CREAT | O_APPEND, 0644);
	step("O_CREAT on a link to a file", fd >= 0 ? 0 : -1);
	step("append through it", write(fd, "+", 1));
	close(fd);
	step("O_CREAT|O_EXCL on a link", open("filelink", O_WRONLY | O_CREAT | O_EXCL, 0644));
	step("chdir dirlink", chdir("dirlink"));
	getcwd(buf, sizeof(buf));
	printf("cwd ends in /real: %d\n",
	       strlen(buf) >= 5 && !strcmp(buf + strlen(buf) - 5, "/real"));
	step("chdir ..", chdir(".."));
	step("mkdir through link", mkdir("dirlink/sub", 0755));
	step("rmdir through link", rmdir("real/sub"));
	step("mkdir over a link", mkdir("dangling", 0755));
	step("rmdir a link", rmdir("dirlink"));
	dfd = open(".", O_RDONLY | O_DIRECTORY);
	step("symlinkat", symlinkat("real/file", dfd, "atlink"));
	{
		char b[64];
		ssize_t n = readlinkat(dfd, "atlink", b, sizeof(b));

		printf("readlinkat: %zd %.*s\n", n, (int)(n > 0 ? n : 0), b);
	}
	{
		struct stat st;

		step("fstatat nofollow",
		     fstatat(dfd, "atlink", &st, AT_SYMLINK_NOFOLLOW) ? -1 : S_ISLNK(st.st_mode));
		step("fstatat follow", fstatat(dfd, "atlink", &st, 0) ? -1 : (long)st.st_size);
	}
	close(dfd);
	/* one name at a time: the order of a directory differs between file systems */
	const char *typed[] = {"filelink", "real"};
	for (size_t i = 0; i < 2; i++) {
		d = opendir(".");
		while ((de = readdir(d)))
			if (!strcmp(de->d_name, typed[i]))
				printf("d_type %s: %d\n", de->d_name, de->d_type);
		closedir(d);
	}
	step("rename link", rename("filelink", "renamed"));
	readlink_of("readlink renamed", "renamed", 64);
	step("unlink link", unlink("renamed"));
	step("target still there", access("real/file", F_OK));
	step("access R_OK", access("real/file", R_OK));
	step("access X_OK on a plain file", access("real/file", X_OK));
	step("access X_OK on a directory", access("real", X_OK));
	step("access through a dangling link", access("dangling", F_OK));
	step("access bad mode", access("real/file", 8));
	step("faccessat", faccessat(AT_FDCWD, "dirlink/file", R_OK, 0));
	{
		struct timespec t[2] = {{2000000000, 0}, {2000000000, 0}};
		struct stat st;

		step("utimensat nofollow on a link",
		     utimensat(AT_FDCWD, "dangling", t, AT_SYMLINK_NOFOLLOW));
		step("link's mtime", lstat("dangling", &st) ? -1 : st.st_mtim.tv_sec);
		step("utimensat following a dangling link", utimensat(AT_FDCWD, "dangling", t, 0));
	}
	const char *names[] = {"dirlink", "abslink", "dangling", "loopa", "loopb", "atlink"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(names[i]);
	unlink("real/file");
	step("rmdir real", rmdir("real"));
	step("chdir ..", chdir(".."));
	step("rmdir", rmdir("ln"));
	return 0;
}

/*
 * Root and the mode bits: Linux's root has CAP_DAC_OVERRIDE, so it opens a
 * 0444 or 0000 file for reading and writing, truncates it, and access() grants R_OK and W_OK;
 * X_OK still needs an x bit on a file. /proc's read-only files open for writing too, and
 * their write fails with EIO. Run as root on the host, for tests/qemu/user/test_syscalls.py.
 *
 * Usage: rootperm DIR
 */
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

static void file_with_mode(const char *path, mode_t mode)
{
	char buf[16] = "";
	int fd;

	printf("mode 0%03o\n", (unsigned)mode);
	step("chmod", chmod(path, mode));
	fd = open(path, O_WRONLY | O_TRUNC);
	step("open O_WRONLY|O_TRUNC", fd < 0 ? -1 : 0);
	step("write", write(fd, "root", 4));
	close(fd);
	fd = open(path, O_RDWR | O_APPEND);
	step("open O_RDWR|O_APPEND", fd < 0 ? -1 : 0);
	step("write", write(fd, "!", 1));
	step("pread", pread(fd, buf, sizeof(buf) - 1, 0));
	printf("data: %s\n", buf);
	close(fd);
	step("access R_OK|W_OK", access(path, R_OK | W_OK));
	step("access X_OK", access(path, X_OK));
	step("truncate", truncate(path, 2));
}

int main(int argc, char **argv)
{
	char path[256];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: rootperm DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(path, sizeof(path), "%s/rootperm.f", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0444);
	step("create 0444", fd < 0 ? -1 : 0);
	close(fd);
	file_with_mode(path, 0444);
	file_with_mode(path, 0);
	file_with_mode(path, 0100);
	step("access X_OK on a directory", access(argv[1], X_OK));
	step("unlink", unlink(path));
	/* /proc/uptime: 0444, no write handler. */
	fd = open("/proc/uptime", O_WRONLY);
	step("open /proc/uptime O_WRONLY", fd < 0 ? -1 : 0);
	step("write /proc/uptime", write(fd, "1", 1));
	close(fd);
	return 0;
}

/*
 * Reads its own /proc/self/stat and /proc/self/cmdline and prints what it found beside what
 * getpid() says, so a test can check that /proc/self is the reader.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int main(void)
{
	char buf[1024];
	int pid = -1;
	ssize_t n;

	if (slurp("/proc/self/stat", buf, sizeof(buf)) < 0 || sscanf(buf, "%d", &pid) != 1)
		return 1;
	printf("getpid %d stat %d\n", getpid(), pid);
	n = slurp("/proc/self/cmdline", buf, sizeof(buf));
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	printf("cmdline %s\n", n > 0 ? buf : "");
	return 0;
}

/*
 * set_graph_function and tracing turned on in the middle: this program's first vfs_write()
 * runs with tracing off, so its entry is not recorded (and its return not hooked); then it
 * turns tracing on from inside another vfs_write(). What follows outside vfs_write (getpid,
 * an open and a close) must not be traced as if inside it; the last write is
 * (tests/qemu/trace/test_function_graph.py). trace-cmd record -F starts its program so.
 */
#include <fcntl.h>
#include <unistd.h>

#define TRACING_ON "/sys/kernel/tracing/tracing_on"

int main(void)
{
	int on = open(TRACING_ON, O_WRONLY), null = open("/dev/null", O_WRONLY);

	if (on < 0 || null < 0 || write(on, "0", 1) != 1)
		return 1;
	if (write(null, "x", 1) != 1 || write(on, "1", 1) != 1)
		return 1;
	getpid();
	close(open("/dev/null", O_RDONLY));
	return write(null, "y", 1) == 1 ? 0 : 1;
}

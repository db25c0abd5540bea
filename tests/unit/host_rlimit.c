/*
 * The host builds of the VFS (unit tests, fuzzer) have no task to keep limits in: rlimit()
 * answers RLIMIT_NOFILE from one variable, the descriptor table's first size unless a test
 * raises it to make the table grow.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/resource.h"
#include "tests/unit/host_rlimit.h"

uint64_t host_nofile = NR_OPEN_DEFAULT;

uint64_t rlimit(unsigned int resource)
{
	(void)resource;
	return host_nofile;
}

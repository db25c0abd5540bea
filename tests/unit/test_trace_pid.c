/*
 * The pid filters (trace/trace_pid.c) on the host: the four files' writes and reads, who is
 * left out (the notrace list wins), and the fork options' following.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/trace_pid.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"

struct trace_array global_trace;
struct trace_array *trace_instances; /* none: the top level's lists only */
struct mutex trace_types_lock;
/* A top-level file's inode: no data, so tracing_get_tr() says global_trace. */
static struct inode top_inode;

void mutex_lock(struct mutex *m)
{
	(void)m;
}

void mutex_unlock(struct mutex *m)
{
	(void)m;
}

ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos, const void *from,
				size_t available)
{
	size_t n = (size_t)*ppos >= available ? 0 : available - (size_t)*ppos;

	n = n < count ? n : count;
	memcpy(to, (const char *)from + *ppos, n);
	*ppos += (loff_t)n;
	return (ssize_t)n;
}

/* echo TEXT > FILE (trunc) or >> FILE: open, write, release, as the VFS would. */
static ssize_t write_file(const struct file_operations *fops, const char *text, bool trunc)
{
	struct file f = {.f_op = fops, .f_mode = FMODE_WRITE, .f_flags = trunc ? O_TRUNC : 0,
			 .f_inode = &top_inode};
	loff_t pos = 0;
	ssize_t ret;

	assert_int_equal(fops->open(NULL, &f), 0);
	ret = text ? fops->write(&f, text, strlen(text), &pos) : 0;
	fops->release(NULL, &f);
	return ret;
}

static const char *read_file(const struct file_operations *fops)
{
	static char buf[512];
	struct file f = {.f_op = fops, .f_mode = FMODE_READ, .f_inode = &top_inode};
	loff_t pos = 0;
	ssize_t n;

	assert_int_equal(fops->open(NULL, &f), 0);
	n = fops->read(&f, buf, sizeof(buf) - 1, &pos);
	fops->release(NULL, &f);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

static int setup(void **state)
{
	const struct file_operations *all[] = {&ftrace_pid_fops, &ftrace_no_pid_fops,
					       &event_pid_fops, &event_no_pid_fops};

	(void)state;
	global_trace.trace_flags = 0;
	global_trace.event_pids = &event_pid_filter;
	global_trace.function_pids = &ftrace_pid_filter;
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		write_file(all[i], NULL, true);
	return 0;
}

static void test_files_read_write_and_refuse(void **state)
{
	(void)state;
	assert_string_equal(read_file(&ftrace_pid_fops), "no pid\n");
	assert_string_equal(read_file(&ftrace_no_pid_fops), "no pid\n");
	assert_string_equal(read_file(&event_pid_fops), "");
	assert_string_equal(read_file(&event_no_pid_fops), "");
	assert_false(event_pid_filter.in_force);

	assert_int_equal(write_file(&event_pid_fops, "5 7\n", true), 4);
	assert_int_equal(write_file(&event_pid_fops, "0x10 7", false), 6);
	assert_string_equal(read_file(&event_pid_fops), "5\n7\n16\n");
	assert_true(event_pid_filter.in_force);
	assert_false(ftrace_pid_filter.in_force); /* the other pair is its own */

	/* A bad word fails the whole write, even its O_TRUNC. */
	assert_int_equal(write_file(&event_pid_fops, "8 x", true), -EINVAL);
	assert_int_equal(write_file(&event_pid_fops, "-1", true), -EINVAL);
	assert_int_equal(write_file(&event_pid_fops, "1073741824", true), -EPERM);
	assert_string_equal(read_file(&event_pid_fops), "5\n7\n16\n");

	/* ">" and close without a write, or a write of no pid: no list. */
	write_file(&event_pid_fops, NULL, true);
	assert_string_equal(read_file(&event_pid_fops), "");
	assert_false(event_pid_filter.in_force);
	assert_int_equal(write_file(&event_pid_fops, "3", true), 1);
	assert_int_equal(write_file(&event_pid_fops, "\n", true), 1);
	assert_false(event_pid_filter.in_force);
}

static void test_notrace_wins(void **state)
{
	struct trace_pid_filter *f = &ftrace_pid_filter;

	(void)state;
	assert_int_equal(write_file(&ftrace_no_pid_fops, "7", true), 1);
	assert_true(f->in_force);
	assert_false(trace_ignore_this_task(f, 5)); /* no set_ftrace_pid: everyone but 7 */
	assert_true(trace_ignore_this_task(f, 7));
	assert_int_equal(write_file(&ftrace_pid_fops, "5 7", true), 3);
	assert_false(trace_ignore_this_task(f, 5));
	assert_true(trace_ignore_this_task(f, 7)); /* in both: left out */
	assert_true(trace_ignore_this_task(f, 6)); /* in neither, and a set_ftrace_pid is set */
	write_file(&ftrace_no_pid_fops, NULL, true);
	assert_true(f->in_force);
	assert_false(trace_ignore_this_task(f, 7));
	write_file(&ftrace_pid_fops, NULL, true);
	assert_false(f->in_force);
}

static void test_fork_options_follow(void **state)
{
	(void)state;
	assert_int_equal(write_file(&event_pid_fops, "5", true), 1);
	assert_int_equal(write_file(&event_no_pid_fops, "6", true), 1);
	assert_int_equal(write_file(&ftrace_pid_fops, "5", true), 1);

	trace_pid_follow_fork(5, 9); /* no option set: nobody follows */
	assert_string_equal(read_file(&event_pid_fops), "5\n");

	global_trace.trace_flags = TRACE_ITER_EVENT_FORK;
	trace_pid_follow_fork(5, 9);
	trace_pid_follow_fork(6, 10);
	trace_pid_follow_fork(8, 11); /* a parent in no list: its child neither */
	assert_string_equal(read_file(&event_pid_fops), "5\n9\n");
	assert_string_equal(read_file(&event_no_pid_fops), "6\n10\n");
	assert_string_equal(read_file(&ftrace_pid_fops), "5\n"); /* function-fork is off */

	trace_pid_follow_exit(5);
	trace_pid_follow_exit(9);
	/* Emptied by exits: in force, and nobody is recorded. */
	assert_string_equal(read_file(&event_pid_fops), "");
	assert_true(event_pid_filter.in_force);
	assert_true(trace_ignore_this_task(&event_pid_filter, 12));

	global_trace.trace_flags = TRACE_ITER_FUNCTION_FORK;
	trace_pid_follow_fork(5, 13);
	assert_string_equal(read_file(&ftrace_pid_fops), "5\n13\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_files_read_write_and_refuse, setup),
		cmocka_unit_test_setup(test_notrace_wins, setup),
		cmocka_unit_test_setup(test_fork_options_follow, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

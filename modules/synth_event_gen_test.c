/*
 * synth_event_gen_test: Linux's kernel/trace/synth_event_gen_test.c, the in-kernel side of
 * synthetic events, cut to its core. At load it makes synthetic/gen_synth_test with
 * synth_event_create() (a number, strings of fixed size and of any size), takes its event file
 * with trace_get_event_file() (which holds the event: '!gen_synth_test' is EBUSY meanwhile),
 * enables it and writes two records, one with synth_event_trace() and one with
 * synth_event_trace_array(). At unload it lets go and deletes the event:
 *
 *     [~]# insmod synth_event_gen_test; grep gen_synth_test /sys/kernel/tracing/trace
 *     insmod-52 [000] .....  3.141592: gen_synth_test: next_pid_field=777
 *         next_comm_field=hula hoops ...
 */
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "trace/trace.h"
#include "trace/trace_synth.h"
#include "lib/errno.h"

#define GEN_EVENT "gen_synth_test"
#define GEN_NR_FIELDS 8
#define STR_VAL(s) ((uint64_t)(uintptr_t)(s)) /* a string's value: its address */

static struct synth_field_desc gen_fields[GEN_NR_FIELDS] = {
	{.type = "pid_t", .name = "next_pid_field"},
	{.type = "char[16]", .name = "next_comm_field"},
	{.type = "u64", .name = "ts_ns"},
	{.type = "char[]", .name = "dynstring_field"},
	{.type = "u64", .name = "ts_ms"},
	{.type = "unsigned int", .name = "cpu"},
	{.type = "char[64]", .name = "my_string_field"},
	{.type = "int", .name = "my_int_field"},
};

static struct trace_event_file *gen_file;

static int synth_event_gen_test_init(void)
{
	/* the second record, field by field: what synth_event_trace_array() takes */
	uint64_t vals[GEN_NR_FIELDS] = {
		[0] = 999,
		[1] = STR_VAL("now"),
		[2] = 2000000,
		[3] = STR_VAL("from an array"),
		[4] = 2000,
		[5] = 1,
		[6] = STR_VAL("the second"),
		[7] = (uint64_t)-1,
	};
	int ret;

	ret = synth_event_create(GEN_EVENT, gen_fields, GEN_NR_FIELDS, THIS_MODULE);
	if (ret)
		return ret;
	gen_file = trace_get_event_file(NULL, SYNTH_SYSTEM, GEN_EVENT);
	if (!gen_file) {
		synth_event_delete(GEN_EVENT);
		return -ENOENT;
	}
	ret = trace_array_set_clr_event(gen_file->tr, SYNTH_SYSTEM, GEN_EVENT, true);
	if (!ret)
		ret = synth_event_trace(gen_file, GEN_NR_FIELDS, (uint64_t)777,
					STR_VAL("hula hoops"), (uint64_t)1000000,
					STR_VAL("dynamic string"), (uint64_t)1000, (uint64_t)0,
					STR_VAL("thneed"), (uint64_t)598);
	if (!ret)
		ret = synth_event_trace_array(gen_file, vals, GEN_NR_FIELDS);
	/* a wrong count is refused, and writes nothing */
	if (!ret && synth_event_trace(gen_file, 1, (uint64_t)1) != -EINVAL)
		ret = -EINVAL;
	if (ret) {
		trace_array_set_clr_event(gen_file->tr, SYNTH_SYSTEM, GEN_EVENT, false);
		trace_put_event_file(gen_file);
		synth_event_delete(GEN_EVENT);
		return ret;
	}
	pr_info("synth_event_gen_test: wrote 2 records of %s\n", GEN_EVENT);
	return 0;
}

static void synth_event_gen_test_exit(void)
{
	trace_array_set_clr_event(gen_file->tr, SYNTH_SYSTEM, GEN_EVENT, false);
	trace_put_event_file(gen_file);
	if (synth_event_delete(GEN_EVENT))
		pr_warn("synth_event_gen_test: could not delete %s\n", GEN_EVENT);
}

module_init(synth_event_gen_test_init);
module_exit(synth_event_gen_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Makes a synthetic event and writes it from the kernel (Linux's sample)");

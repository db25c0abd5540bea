/* The sched_switch tracer: every context switch and wakeup, while it is current_tracer. */

/*
 * Before trace events existed, Linux had a tracer for this: "echo sched_switch >
 * current_tracer" recorded each switch and wakeup. Lucid's is that tracer rebuilt on the
 * events: while it is current it holds sched:sched_switch, sched:sched_wakeup and
 * sched:sched_wakeup_new on (trace_event_tracer_hold), so their probes record, and the trace
 * shows the events' own lines:
 *
 *   <idle>-0     [001] d..1    12.345678: sched_switch: prev_comm=swapper/1 prev_pid=0 ...
 *
 * The hold is not the user's switch: events/sched/sched_switch/enable and set_event still show
 * what the user asked for, and the events stay as the user left them when another tracer
 * takes over. Not traced, as all of trace/.
 */
#include "trace/trace.h"
#include "trace/trace_events.h"
#include "lib/compiler.h"

static const char *const sched_switch_events[] = {
	"sched_switch",
	"sched_wakeup",
	"sched_wakeup_new",
};

/* Take (hold) or drop the holds; on a failure to take, drop those taken and fail. */
static int sched_switch_hold(bool hold)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sched_switch_events); i++) {
		ret = trace_event_tracer_hold("sched", sched_switch_events[i], hold);
		if (ret && hold)
			break;
	}
	if (ret && hold)
		while (i--)
			trace_event_tracer_hold("sched", sched_switch_events[i], false);
	return hold ? ret : 0;
}

static int sched_switch_trace_init(struct trace_array *tr)
{
	(void)tr;
	return sched_switch_hold(true);
}

static void sched_switch_trace_reset(struct trace_array *tr)
{
	(void)tr;
	sched_switch_hold(false);
}

static struct tracer sched_switch_trace = {
	.name = "sched_switch",
	.init = sched_switch_trace_init,
	.reset = sched_switch_trace_reset,
};
REGISTER_TRACER(sched_switch_trace);

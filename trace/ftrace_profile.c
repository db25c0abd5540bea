/*
 * The function profiler: for every traced function, on every CPU, how often it ran and for how
 * long in all (trace_stat/functionN).
 *
 * It uses the function graph hook: the return callback knows the function and its duration,
 * and adds them to this CPU's row for that function (one row per call site record, so no hash
 * table is needed). Options as Linux's: without graph-time a function's time leaves out the time
 * of the traced functions it called; without sleep-time it leaves out time its task spent
 * switched out. Rows are sorted by total time only when read.
 *
 * Not traced: a tracer callback.
 */
#include "trace/ftrace_profile.h"
#include "trace/fgraph.h"
#include "trace/ftrace.h"
#include "trace/trace_graph_fmt.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/time64.h"


const char ftrace_profile_header[] =
	"  Function                               Hit    Time            Avg             s^2\n"
	"  --------                               ---    ----            ---             ---\n";

bool profile_graph_time = true;
bool profile_sleep_time = true;
static struct profile_row *stats[NR_CPUS]; /* [cpu][record] */
static bool enabled;

static bool profile_entry(struct ftrace_graph_ent *e, struct fgraph_ops *gops)
{
	(void)e;
	(void)gops;
	return true; /* every call: we want its return */
}

static void profile_return(struct ftrace_graph_ret *r, struct fgraph_ops *gops)
{
	(void)gops;
	struct profile_row *row = stats[smp_processor_id()];
	int rec = ftrace_find_rec(r->func);
	if (!row || rec < 0)
		return;
	uint64_t d = r->rettime - r->calltime;
	if (!profile_graph_time)
		d -= MIN(d, r->childtime);
	if (!profile_sleep_time)
		d -= MIN(d, r->sleeptime);
	row[rec].hits++;
	row[rec].time_ns += d;
	row[rec].time_sq += (unsigned __int128)d * d;
}

/* Every traced function (its ops's filter stays empty), beside any function_graph tracer. */
static struct ftrace_ops profile_ops;
static struct fgraph_ops profile_gops = {
	.entryfunc = profile_entry,
	.retfunc = profile_return,
	.ops = &profile_ops,
};

static void free_stats(void)
{
	for (int c = 0; c < NR_CPUS; c++) {
		kfree(stats[c]);
		stats[c] = NULL;
	}
}

/* Turning it on starts from zero, as Linux's does. */
int ftrace_profile_enable(bool on)
{
	if (on == enabled)
		return 0;
	if (!on) {
		unregister_ftrace_graph(&profile_gops);
		enabled = false;
		return 0;
	}
	free_stats();
	for (int c = 0; c < num_online_cpus(); c++) {
		stats[c] = kzalloc(sizeof(struct profile_row) * (size_t)ftrace_nr_records());
		if (!stats[c]) {
			free_stats();
			return -ENOMEM;
		}
	}
	int ret = register_ftrace_graph(&profile_gops);
	if (ret)
		free_stats();
	else
		enabled = true;
	return ret;
}

bool ftrace_profile_enabled(void)
{
	return enabled;
}

int ftrace_profile_snapshot(int cpu, struct profile_row **rows)
{
	int n = 0, nr = ftrace_nr_records();
	*rows = NULL;
	if (cpu < 0 || cpu >= NR_CPUS || !stats[cpu])
		return 0;
	for (int i = 0; i < nr; i++)
		n += stats[cpu][i].hits > 0;
	struct profile_row *out = kmalloc(sizeof(*out) * (size_t)(n ? n : 1));
	if (!out)
		return -ENOMEM;
	n = 0;
	for (int i = 0; i < nr; i++) {
		if (stats[cpu][i].hits) {
			out[n] = stats[cpu][i];
			out[n++].rec = i;
		}
	}
	/* Insertion sort by total time, longest first: read rarely, a few hundred rows. */
	for (int i = 1; i < n; i++) {
		struct profile_row tmp = out[i];
		int j = i;
		for (; j > 0 && out[j - 1].time_ns < tmp.time_ns; j--)
			out[j] = out[j - 1];
		out[j] = tmp;
	}
	*rows = out;
	return n;
}

/* 128-by-64-bit division, one bit at a time: the kernel has no libgcc, and this runs only when
 * the file is read. The quotient is clamped to 64 bits. */
static uint64_t div128(unsigned __int128 n, uint64_t d)
{
	unsigned __int128 q = 0, r = 0;
	for (int bit = 127; bit >= 0; bit--) {
		r = (r << 1) | (uint64_t)((n >> bit) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << bit;
		}
	}
	return q >> 64 ? UINT64_MAX : (uint64_t)q;
}

size_t ftrace_profile_format_row(const struct profile_row *r, char *buf, size_t size)
{
	uint64_t avg = r->time_ns / r->hits;
	/* Sample variance in us^2: (sum(x^2) - n*avg^2) / (n - 1), 0 for a single hit. */
	uint64_t var = 0;
	if (r->hits > 1) {
		unsigned __int128 mean_sq = (unsigned __int128)avg * avg * r->hits;
		unsigned __int128 diff = r->time_sq > mean_sq ? r->time_sq - mean_sq : 0;
		var = div128(diff, r->hits - 1) / NSEC_PER_USEC;
	}
	size_t n = scnprintf(buf, size, "  %-30.30s  %10lu    ", ftrace_rec_name(r->rec), r->hits);
	n += trace_graph_duration(buf + n, size - n, r->time_ns);
	n += scnprintf(buf + n, size - n, "    ");
	n += trace_graph_duration(buf + n, size - n, avg);
	n += scnprintf(buf + n, size - n, "    ");
	n += trace_graph_duration(buf + n, size - n, var);
	return n + scnprintf(buf + n, size - n, "\n");
}

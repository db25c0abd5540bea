/*
 * kpevstress: kprobe events on function after function, through kprobe_events, as a user
 * would make them (tests/qemu/trace/test_kprobe_stress.py). For every STEP-th function of
 * available_filter_functions (from the FIRST-th), one round:
 *
 *	p:kps/e FUNC       a kprobe event on its entry (the ftrace site)
 *	p:kps/i FUNC+K     one on an inner instruction: the first K = 1, 2, ... that is not
 *	                   refused with EILSEQ (not an instruction boundary, as Linux's)
 *	r:kps/r FUNC       a kretprobe event
 *
 * enabled together for a moment (whatever runs meanwhile hits them), disabled, checked,
 * removed. Every third round gives the events a filter (common_pid != 0: the idle task's and
 * its interrupts' records go), every fourth turns options/stacktrace on. The checks, for each
 * event of the round, with h1 its kprobe_profile hits just before the disable and h2 just
 * after, and n its records in the buffer:
 *
 *	n <= h2                 a record is a hit (the dispatcher counts, then records)
 *	n >= h1 - NCPUS         unfiltered: every hit counted before the disable records, but for
 *	                        one still between its count and its record on each CPU (handlers
 *	                        run with interrupts off). The hits between the event's disable and
 *	                        the probe's disarm count without a record, as in Linux.
 *	filtered: no record of pid 0
 *	stacktrace: one "<stack trace>" per record
 *	nothing lost: entries-in-buffer == entries-written, records well formed and at FUNC
 *
 * Refusals (EINVAL: blacklisted, not steppable or a static branch's site; ENOENT: a name
 * kallsyms does not know; an EILSEQ at every K tried) are counted; anything else is a failure.
 * Prints one summary line (and up to ERRORS_SHOWN lines about failures); exits 1 if anything
 * failed.
 *
 * usage: kpevstress STEP [FIRST [NCPUS]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define MAX_FUNCS 16384
#define NAME_LEN 128
#define MAX_INNER_OFFSET 15 /* the longest x86 instruction */
#define DWELL_US 2000
#define BUF_KB "4096" /* per CPU: no round comes near it (checked: nothing lost) */
#define ERRORS_SHOWN 8
#define FILTER_EVERY 3
#define STACK_EVERY 4
#define NR_EV 3

static const char *const ev_names[NR_EV] = {"e", "i", "r"};
static int failed;
static char *trace_text; /* the trace file, read whole */
static size_t trace_cap;

static void fail(const char *fmt, const char *func, long a, long b)
{
	if (failed++ < ERRORS_SHOWN) {
		printf("kpevstress: %s: ", func);
		printf(fmt, a, b);
		printf("\n");
	}
}

/* Writes text to a tracing file: 0 or the errno. */
static int put(const char *file, const char *text, int append)
{
	int fd = open(file, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void must_put(const char *file, const char *text, int append)
{
	int err = put(file, text, append);

	if (err) {
		printf("kpevstress: %s < %s: %s\n", file, text, strerror(err));
		exit(1);
	}
}

/* The whole file into trace_text (NUL-terminated); its length. */
static size_t slurp(const char *file)
{
	int fd = open(file, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	if (fd < 0) {
		perror(file);
		exit(1);
	}
	for (;;) {
		if (trace_cap - len < 65536) {
			trace_cap = trace_cap ? trace_cap * 2 : 1 << 20;
			trace_text = realloc(trace_text, trace_cap);
			if (!trace_text)
				exit(1);
		}
		n = read(fd, trace_text + len, trace_cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	trace_text[len] = '\0';
	return len;
}

/* kprobe_profile's hits of each of the round's events (-1: not listed). */
static void profile(long hits[NR_EV])
{
	char *line;

	slurp(T "kprobe_profile");
	for (int i = 0; i < NR_EV; i++)
		hits[i] = -1;
	for (line = strtok(trace_text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[NAME_LEN];
		long h, m;

		if (sscanf(line, " %127s %ld %ld", name, &h, &m) != 3)
			continue;
		for (int i = 0; i < NR_EV; i++)
			if (!strcmp(name, ev_names[i]))
				hits[i] = h;
	}
}

/* The pid of a trace line: "   comm-PID   [001] ...". */
static long line_pid(const char *line)
{
	const char *br = strstr(line, " [");
	const char *p = br;

	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] != '-')
		p--;
	return br && p > line ? strtol(p, NULL, 10) : -1;
}

/* The round's records: counted per event and checked. */
static void count_records(const char *func, long n[NR_EV], long *stacks, int filtered)
{
	char pat[NAME_LEN + 16];
	long in_buf = -1, written = -2;
	char *line;

	slurp(T "trace");
	for (int i = 0; i < NR_EV; i++)
		n[i] = 0;
	*stacks = 0;
	snprintf(pat, sizeof(pat), "%s+0x", func);
	for (line = strtok(trace_text, "\n"); line; line = strtok(NULL, "\n")) {
		const char *ev;

		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld", &in_buf,
			   &written) == 2)
			continue;
		if (line[0] == '#' || strncmp(line, " => ", 4) == 0)
			continue;
		if (strstr(line, "<stack trace>")) {
			(*stacks)++;
			continue;
		}
		if (strstr(line, "LOST"))
			fail("events lost: %ld %ld", func, 0, 0);
		ev = strstr(line, ": (");
		if (!ev || ev < line + 2 || ev[-2] != ' ') {
			fail("not a record (%ld, %ld)", func, 0, 0);
			if (failed <= ERRORS_SHOWN)
				printf("  %s\n", line);
			continue;
		}
		for (int i = 0; i < NR_EV; i++) {
			if (ev[-1] != ev_names[i][0])
				continue;
			n[i]++;
			/* e and i: (FUNC+0x..); r: (CALLER+0x.. <- FUNC) */
			if (i < 2 ? !strstr(ev, pat) : !strstr(ev, func))
				fail("record %ld not at the function (%ld)", func, i, 0);
			if (filtered && line_pid(line) == 0)
				fail("event %ld: a record of pid 0 got past the filter (%ld)", func,
				     i, 0);
		}
	}
	if (in_buf != written)
		fail("%ld entries in the buffer, %ld written", func, in_buf, written);
}

static char *funcs[MAX_FUNCS];

static int read_functions(void)
{
	int nr = 0;
	char *line;

	slurp(T "available_filter_functions");
	for (line = strtok(trace_text, "\n"); line && nr < MAX_FUNCS; line = strtok(NULL, "\n")) {
		char *sp = strchr(line, ' '); /* "name [module]" */

		if (sp)
			*sp = '\0';
		funcs[nr++] = strdup(line);
	}
	return nr;
}

/* A definition; 0 or the errno. */
static int define(const char *fmt, const char *func, int off)
{
	char def[NAME_LEN * 2];

	snprintf(def, sizeof(def), fmt, func, off);
	return put(T "kprobe_events", def, 1);
}

int main(int argc, char **argv)
{
	int step = argc > 1 ? atoi(argv[1]) : 0, first = argc > 2 ? atoi(argv[2]) : 0;
	long ncpus = argc > 3 ? atol(argv[3]) : 4;
	long planted = 0, refused = 0, rounds = 0, total_hits = 0, total_records = 0;
	long filtered_rounds = 0, stack_rounds = 0, total_stacks = 0;
	char old_size[32];
	int nr;

	if (step < 1 || first < 0 || ncpus < 1 || argc > 4) {
		fprintf(stderr, "usage: kpevstress STEP [FIRST [NCPUS]]\n");
		return 2;
	}
	must_put(T "events/enable", "0", 0);
	must_put(T "kprobe_events", "", 0);
	must_put(T "tracing_on", "1", 0); /* a hit before the disable must find a record */
	slurp(T "buffer_size_kb"); /* as it was, afterwards */
	snprintf(old_size, sizeof(old_size), "%ld", strtol(trace_text, NULL, 10));
	must_put(T "buffer_size_kb", BUF_KB, 0);
	must_put(T "trace", "", 0);
	nr = read_functions();
	for (int f = first; f < nr; f += step) {
		const char *func = funcs[f];
		int filtered = rounds % FILTER_EVERY == 0, stack = rounds % STACK_EVERY == 1;
		int have[NR_EV], err[NR_EV], off = 0;
		long h1[NR_EV], h2[NR_EV], n[NR_EV], stacks, records = 0;

		rounds++;
		err[0] = define("p:kps/e %s", func, 0);
		err[1] = EILSEQ;
		for (off = 1; off <= MAX_INNER_OFFSET && err[1] == EILSEQ; off++)
			err[1] = define("p:kps/i %s+%d", func, off);
		err[2] = define("r:kps/r %s", func, 0);
		for (int i = 0; i < NR_EV; i++) {
			have[i] = !err[i];
			if (have[i])
				planted++;
			else if (err[i] == EINVAL || err[i] == EILSEQ || err[i] == ENOENT)
				refused++;
			else
				fail("event %ld: errno %ld", func, i, err[i]);
		}
		if (!have[0] && !have[1] && !have[2])
			continue;
		if (filtered) {
			filtered_rounds++;
			must_put(T "events/kps/filter", "common_pid != 0", 0);
		}
		if (stack) {
			stack_rounds++;
			must_put(T "options/stacktrace", "1", 0);
		}
		must_put(T "events/kps/enable", "1", 0);
		usleep(DWELL_US);
		profile(h1);
		must_put(T "events/kps/enable", "0", 0);
		profile(h2);
		if (stack)
			must_put(T "options/stacktrace", "0", 0);
		count_records(func, n, &stacks, filtered);
		for (int i = 0; i < NR_EV; i++) {
			if (!have[i]) {
				if (n[i])
					fail("event %ld refused but %ld records", func, i, n[i]);
				continue;
			}
			if (h2[i] < 0 || n[i] > h2[i])
				fail("%ld records, %ld hits", func, n[i], h2[i]);
			if (!filtered && n[i] < h1[i] - ncpus)
				fail("%ld records, %ld hits before the disable", func, n[i], h1[i]);
			records += n[i];
			total_hits += h2[i];
		}
		total_records += records;
		if (stack && stacks != records)
			fail("%ld records, %ld stack traces", func, records, stacks);
		total_stacks += stacks;
		if (!stack && stacks)
			fail("%ld stack traces without options/stacktrace (%ld)", func, stacks, 0);
		must_put(T "trace", "", 0);
		if (put(T "kprobe_events", "", 0))
			fail("kprobe_events would not empty (%ld %ld)", func, 0, 0);
	}
	must_put(T "buffer_size_kb", old_size, 0);
	printf("kpevstress: %ld functions, %ld probes planted, %ld refused, %d failed; "
	       "hits %ld, records %ld; %ld rounds filtered, %ld with stacks (%ld traces)\n",
	       rounds, planted, refused, failed, total_hits, total_records, filtered_rounds,
	       stack_rounds, total_stacks);
	return failed ? 1 : 0;
}

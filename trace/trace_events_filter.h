/*
 * Event filters: "prev_pid == 0 && next_comm ~ \"ksoft*\"" compiled into a small program that
 * says, for one record, whether it is kept (trace/trace_events_filter.c tells how).
 */
#ifndef TRACE_TRACE_EVENTS_FILTER_H
#define TRACE_TRACE_EVENTS_FILTER_H

#include <stdbool.h>
#include "trace/trace_events.h"

#define MAX_FILTER_STR_VAL 256 /* Linux's: the longest quoted string in a predicate */

/* A compiled filter and the text it came from, as the filter file shows it. */
struct filter_pred;
struct event_filter {
	struct prog_entry *prog; /* NULL if the text did not parse */
	char *filter_string; /* the text written, or it and Linux's error report */
	/* A program of one predicate: that predicate; a record is kept if its result differs
	 * from single_invert (trace/trace_events_filter.c, find_single_pred). */
	const struct filter_pred *single;
	bool single_invert;
	/* Some predicate reads the record's header (a common_* field): it must be there first. */
	bool needs_header;
};

/*
 * Parses str (no trailing newline) for call's fields. Returns 0 and sets *filterp to the
 * filter, or a negative errno: then *filterp is NULL (no memory) or holds no program and, as
 * its filter_string, the text with Linux's report ("\n    ^\nparse_error: Field not found\n").
 * The errnos are Linux's, -EINVAL mostly, but -EPERM, -ENOENT or -ESRCH for some errors of
 * form (see the .c). With subsys, any error is reported as a system filter's is: "Couldn't
 * find or set field in one of a subsystem's events", at column 0.
 */
int create_event_filter(const struct trace_event_call *call, const char *str, bool subsys,
			struct event_filter **filterp);
int create_event_filter_tr(struct trace_array *tr, const struct trace_event_call *call,
			   const char *str, bool subsys, struct event_filter **filterp);
void free_event_filter(struct event_filter *filter);

/* True if the record rec (len bytes, its struct trace_entry first) passes filter. */
bool filter_match_preds(const struct event_filter *filter, const void *rec, unsigned int len);

/* Linux's text for the system filter file when no error is to be shown. */
#define DEFAULT_SYS_FILTER_MESSAGE                                \
	"### global filter ###\n"                                 \
	"# Use this to set filters for multiple events.\n"        \
	"# Only events with the given fields will be affected.\n" \
	"# If no events are modified, an error message will be displayed here"

#endif

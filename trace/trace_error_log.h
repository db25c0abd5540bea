/*
 * error_log: why the last writes were refused, as Linux's tracing_log_err() keeps them
 * (trace/trace_error_log.c).
 */
#ifndef TRACE_TRACE_ERROR_LOG_H
#define TRACE_TRACE_ERROR_LOG_H

#include <stdint.h>

#define TRACING_LOG_ERRS_MAX 8 /* Linux's: the oldest entry goes when a ninth comes */
#define TRACING_LOG_LOC_MAX 128 /* "LOCATION: error: ", as Linux cuts it */

struct tracing_log_err;

/* A trace array's log: zero is an empty one, so a new trace array needs no set-up. */
struct trace_err_log {
	struct tracing_log_err *errs[TRACING_LOG_ERRS_MAX]; /* a ring, oldest at first */
	unsigned int first, nr;
};

struct trace_array;

/*
 * Linux's tracing_log_err(): remembers that cmd was refused at loc (the parser: "event filter
 * parse error") for errs[type], the caret under column pos of cmd. tr NULL: the top level's.
 * Task context; a failure to allocate loses the entry, never the caller's error.
 */
#if !defined(LUCID_HOST) || defined(HOST_TRACING_LOG_ERR) /* a host test may catch them */
void tracing_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		     const char *const *errs, unsigned int type, unsigned int pos);
#else
static inline void tracing_log_err(struct trace_array *tr, const char *loc, const char *cmd,
				   const char *const *errs, unsigned int type, unsigned int pos)
{
	(void)tr, (void)loc, (void)cmd, (void)errs, (void)type, (void)pos;
}
#endif

/* Linux's err_pos(): the column of str's first occurrence in cmd, or 0. */
unsigned int err_pos(const char *cmd, const char *str);

/* Empties tr's log (echo > error_log; an instance's rmdir). */
void clear_tracing_err_log(struct trace_array *tr);

struct file_operations;
extern const struct file_operations tracing_err_log_fops; /* error_log */

#endif

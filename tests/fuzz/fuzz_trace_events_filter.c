/*
 * Fuzzing the event filter parser and matcher (trace/trace_events_filter.c): any text, on a
 * test event with fields of every kind, must compile or be refused with one of Linux's errnos
 * and a report that begins with the text, never crash or loop. What compiles must run on a
 * record (the input's first bytes) and agree with itself: "!(X)" decides the opposite of X,
 * "(X) && (X)" and "(X) || (X)" the same as X, whenever those compile too.
 *
 * Input: sizeof(struct fuzz_rec) bytes of record, then the filter text (up to a NUL).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/trace_events_filter.h"
#include "tests/fuzz/fuzz_check.h"

/* Errno values as lib/errno.h has them (Linux's). */
#define L_EPERM 1
#define L_ENOENT 2
#define L_ESRCH 3
#define L_ENOMEM 12
#define L_EINVAL 22

#define FILTER_MAX 4095 /* a filter file takes less than a page */

int filter_current_cpu(void)
{
	return 1;
}

const char *filter_current_comm(void)
{
	return "fuzz";
}

struct fuzz_rec {
	struct trace_entry ent;
	char comm[16];
	int pid;
	unsigned int u32;
	int64_t s64;
	uint64_t u64;
	int16_t s16;
	uint8_t u8;
	uint32_t __data_loc_name; /* may point anywhere: the matcher must check */
	char tail[24];
};

#define FR struct fuzz_rec
static const struct trace_event_field fuzz_fields[] = {
	TRACE_FIELD_ARRAY(FR, char, comm, 16),
	TRACE_FIELD(FR, int, pid),
	TRACE_FIELD(FR, unsigned int, u32),
	TRACE_FIELD(FR, int64_t, s64),
	TRACE_FIELD(FR, uint64_t, u64),
	TRACE_FIELD(FR, int16_t, s16),
	TRACE_FIELD(FR, uint8_t, u8),
	TRACE_FIELD_STRING(FR, name),
	TRACE_FIELD_END,
};

static struct trace_event_call fuzz_call = {
	.system = "fuzz",
	.name = "fuzz",
	.fields = fuzz_fields,
	.size = sizeof(struct fuzz_rec),
};

/* -1: did not compile; else whether rec passes. */
static int run(const char *text, const struct fuzz_rec *rec, bool subsys)
{
	struct event_filter *f;
	int ret = create_event_filter(&fuzz_call, text, subsys, &f), m;

	if (ret == -L_ENOMEM)
		return -1;
	CHECK(f != NULL);
	CHECK(strncmp(f->filter_string, text, strlen(text)) == 0);
	if (ret) {
		CHECK(ret == -L_EINVAL || ret == -L_EPERM || ret == -L_ENOENT || ret == -L_ESRCH);
		CHECK(f->prog == NULL);
		CHECK(strlen(f->filter_string) > strlen(text)); /* the report follows */
		free_event_filter(f);
		return -1;
	}
	CHECK(strcmp(f->filter_string, text) == 0);
	m = filter_match_preds(f, rec, sizeof(*rec));
	free_event_filter(f);
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[FILTER_MAX + 1], wrapped[2 * FILTER_MAX + 32];
	struct fuzz_rec rec;
	size_t len;
	int x, y;

	if (size < sizeof(rec))
		return 0;
	memcpy(&rec, data, sizeof(rec));
	data += sizeof(rec);
	size -= sizeof(rec);
	for (len = 0; len < size && len < FILTER_MAX && data[len]; len++)
		text[len] = (char)data[len];
	text[len] = '\0';

	x = run(text, &rec, false);
	run(text, &rec, true);
	if (x < 0)
		return 0;
	/* the grammar must be finished: text ending in an operator never compiles */
	while (len && strchr(" \t\n\v\f\r", text[len - 1]))
		len--;
	CHECK(len < 2 || (strncmp(text + len - 2, "&&", 2) && strncmp(text + len - 2, "||", 2)));
	snprintf(wrapped, sizeof(wrapped), "!(%s)", text);
	y = run(wrapped, &rec, false);
	CHECK(y < 0 || y == !x);
	snprintf(wrapped, sizeof(wrapped), "(%s) && (%s)", text, text);
	y = run(wrapped, &rec, false);
	CHECK(y < 0 || y == x);
	snprintf(wrapped, sizeof(wrapped), "(%s) || (%s)", text, text);
	y = run(wrapped, &rec, false);
	CHECK(y < 0 || y == x);
	return 0;
}

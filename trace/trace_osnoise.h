/* Between the osnoise/timerlat tracers (trace/trace_osnoise.c) and hwlat (trace/trace_hwlat.c). */
#ifndef TRACE_TRACE_OSNOISE_H
#define TRACE_TRACE_OSNOISE_H

#include <stdint.h>
#include "kernel/fs/vfs.h"
#include "trace/trace_events.h"

struct mutex;

/* A uint64_t member described as Linux's format files do: "u64". */
#define OSNOISE_FIELD_U64(st, item)                                                        \
	{                                                                                  \
		.type = "u64", .name = #item, .offset = offsetof(st, item),                \
		.size = sizeof(((st *)0)->item) + __TRACE_FIELD_CHECK(st, uint64_t, item), \
		.is_signed = 0,                                                            \
	}

/*
 * A number file with bounds (Linux's trace_min_max_param), its struct the file's i_private:
 * a write outside [min, max] (or below *min_ptr, above *max_ptr: another setting's value) is
 * EINVAL. max 0: no fixed bound.
 */
struct osnoise_param {
	struct mutex *lock;
	uint64_t *val;
	uint64_t min, max;
	uint64_t *min_ptr, *max_ptr;
};
extern const struct file_operations osnoise_param_fops;
ssize_t osnoise_param_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos);
ssize_t osnoise_param_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos);

void osnoise_init_tracefs(void); /* osnoise/ */
void hwlat_init_tracefs(void); /* hwlat_detector/ */

#endif

/* panic and oops: stopping the kernel when it cannot go on (kernel/panic.c). */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <stdbool.h>
#include "lib/compiler.h"
#include "arch/x86_64/regs.h"

void panic(const char *fmt, ...) __printf(1, 2) __noreturn;
/* Called first by every oops: serializes oopses and makes printk stop waiting for locks. */
void oops_begin(void);
bool cpu_stop_requested(void);
void cpu_stop_this(void) __noreturn;
/* Functions to run when the kernel oopses, before the CPUs stop (ftrace_dump_on_oops). */
typedef void (*panic_notifier_t)(void);
void panic_notifier_register(panic_notifier_t fn);

#define BUG() panic("kernel BUG at %s:%d!", __FILE__, __LINE__)
#define BUG_ON(cond)                                                                               \
	do {                                                                                       \
		if (unlikely(cond))                                                                \
			BUG();                                                                     \
	} while (0)
/* A WARN reports and goes on; first it stops the trace if traceoff_on_warning says so. */
void __warn(const char *file, int line, const char *func);
#define WARN_ON(cond)                                                                              \
	({                                                                                         \
		bool __w = !!(cond);                                                               \
		if (unlikely(__w))                                                                 \
			__warn(__FILE__, __LINE__, __func__);                                      \
		__w;                                                                               \
	})
/* The same, reported only the first time this place fires: for checks on paths that run often. */
#define WARN_ON_ONCE(cond)                                                                         \
	({                                                                                         \
		static bool __warned;                                                              \
		bool __w = !!(cond);                                                               \
		if (unlikely(__w) && !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))      \
			__warn(__FILE__, __LINE__, __func__);                                      \
		__w;                                                                               \
	})

#endif

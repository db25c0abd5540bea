/* Compiler helpers shared by the kernel and its host-built unit tests. */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#include <stddef.h>

/*
 * notrace keeps gcc's -pg from instrumenting a function: the tracer itself and anything it calls
 * must never call back into the tracer, or one traced event would trace itself forever.
 * It only matters where -pg is: kernel/ and arch/ (the Makefile's TRACED_OBJS). lib/ and trace/
 * are never built with it, so their .c files go without; their headers' inline functions keep
 * it, as a traced file that includes them compiles them with -pg.
 */
#define notrace __attribute__((no_instrument_function))
#define __noreturn __attribute__((noreturn))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __used __attribute__((used))
#define __unused __attribute__((unused))
#define __section(s) __attribute__((section(s)))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define noinline __attribute__((noinline))
/*
 * No stack-protector canary in this function (kernel/debug/stackprotector.h says when that
 * matters).
 */
#define __no_stack_protector __attribute__((no_stack_protector))
#undef __always_inline /* glibc defines it too, for host builds */
#define __always_inline inline __attribute__((always_inline))

/*
 * After a label: the path it starts is rarely taken, so gcc moves it out of line (the hooks of
 * arch/x86_64/cpu.h and kernel/sched/preempt.h). clang has no cold labels (the host's fuzzers
 * build with it): there it is an empty statement.
 */
#ifdef __clang__
#define __label_cold
#else
#define __label_cold __attribute__((cold))
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#define ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* A compiler barrier: the compiler may not move memory accesses across it. */
#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif

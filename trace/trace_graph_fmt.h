/* The function graph tracer's columns, header and markers (trace/trace_graph_fmt.c). */
#ifndef TRACE_TRACE_GRAPH_FMT_H
#define TRACE_TRACE_GRAPH_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The function_graph tracer's options (options/funcgraph-*), Linux's bits. */
#define TRACE_GRAPH_PRINT_OVERRUN 0x1   /* funcgraph-overrun: " (Overruns: n)" after a return */
#define TRACE_GRAPH_PRINT_CPU 0x2       /* funcgraph-cpu: " 0) " */
#define TRACE_GRAPH_PRINT_OVERHEAD 0x4  /* funcgraph-overhead: the + ! # * @ $ marks */
#define TRACE_GRAPH_PRINT_PROC 0x8      /* funcgraph-proc: "  ftest-8    | " */
#define TRACE_GRAPH_PRINT_DURATION 0x10 /* funcgraph-duration: the DURATION column */
#define TRACE_GRAPH_PRINT_ABS_TIME 0x20 /* funcgraph-abstime: "   56.622374 |  " */
#define TRACE_GRAPH_PRINT_IRQS 0x80     /* funcgraph-irqs: trace hard irqs, with arrows */
#define TRACE_GRAPH_PRINT_TAIL 0x100    /* funcgraph-tail: the name after every closing brace */
#define TRACE_GRAPH_SLEEP_TIME 0x200    /* sleep-time: durations include time switched out */
#define TRACE_GRAPH_GRAPH_TIME 0x400    /* graph-time: the profiler counts callees' time */
/* funcgraph-retval (6.5): "= -2" after a brace or leaf (errors in decimal, the rest in hex) */
#define TRACE_GRAPH_PRINT_RETVAL 0x800
#define TRACE_GRAPH_PRINT_RETVAL_HEX 0x1000 /* funcgraph-retval-hex: every value in hex */
#define TRACE_GRAPH_PRINT_RETADDR 0x2000    /* funcgraph-retaddr (6.13): "<-caller+0x1c/0x40" */
#define TRACE_GRAPH_ARGS 0x4000             /* funcgraph-args (6.15): "func(fd=3, buf=0x...)" */

/* '$' > 1 s, '@' > 100 ms, '*' > 10 ms, '#' > 1 ms, '!' > 100 us, '+' > 10 us, else ' '. */
char trace_find_mark(uint64_t ns);
/* "1.382 us    ": the duration in microseconds, at most 7 digits, padded to a fixed width. */
size_t trace_graph_duration(char *buf, size_t size, uint64_t ns);
/* The whole column: mark (if overhead), duration, "|  "; or blanks and "|  " (ns unknown). */
size_t trace_graph_duration_column(char *buf, size_t size, uint64_t ns, bool known, bool overhead);

/* The two header lines after "# tracer: function_graph" and "#", for these options. */
size_t trace_graph_header(char *buf, size_t size, uint32_t flags);
/* " 2) ": the CPU, as wide as the highest CPU number of nr_cpus. */
size_t trace_graph_cpu(char *buf, size_t size, int cpu, int nr_cpus);
/* "  ftest-8     ": comm (7 characters at most) and pid, centred in 14 columns. */
size_t trace_graph_proc(char *buf, size_t size, const char *comm, int pid);
/* "   56.622374 |  ": a time in seconds, to the microsecond (truncated, not rounded). */
size_t trace_graph_abs_time(char *buf, size_t size, uint64_t ns);

#endif

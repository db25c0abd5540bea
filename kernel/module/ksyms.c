/*
 * What a module may call: the kernel's exports (kernel/module/export.h), in one list.
 *
 * Linux writes EXPORT_SYMBOL() under each function's definition. Lucid keeps them here instead,
 * so that the whole interface a module has is one page to read, and so that lib/ (a leaf, which
 * includes nothing of the kernel) and assembly can export too. A module that needs another
 * function adds one line here; nothing else of the kernel is reachable from a module.
 */
#include "kernel/module/module.h"
#include "kernel/printk.h"
#include "kernel/kprobes.h"
#include "kernel/jump_label.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/timer.h"
#include "kernel/time/time.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "kernel/debug/stackprotector.h"
#include "trace/trace.h"
#include "trace/trace_printk.h"
#include "trace/trace_synth.h"
#include "arch/x86_64/ftrace.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Messages: the log, and the trace buffer (trace_printk's macros call these). */
EXPORT_SYMBOL(printk);
EXPORT_SYMBOL(__trace_bprintk);
EXPORT_SYMBOL(__trace_printk);
EXPORT_SYMBOL(__trace_bputs);
EXPORT_SYMBOL(__trace_puts);
EXPORT_SYMBOL(tracing_on);
EXPORT_SYMBOL(tracing_off);

/* Static keys (kernel/jump_label.h; tests/modules/test_static_keys.c). */
EXPORT_SYMBOL(static_key_enable);
EXPORT_SYMBOL(static_key_disable);
EXPORT_SYMBOL(static_key_slow_inc);
EXPORT_SYMBOL(static_key_slow_dec);
EXPORT_SYMBOL(jump_label_count_sites);

/* Kprobes (kernel/kprobes.h; modules/kprobe_example.c). */
EXPORT_SYMBOL(register_kprobe);
EXPORT_SYMBOL(unregister_kprobe);
EXPORT_SYMBOL(register_kprobes);
EXPORT_SYMBOL(unregister_kprobes);
EXPORT_SYMBOL(register_kretprobe);
EXPORT_SYMBOL(unregister_kretprobe);
EXPORT_SYMBOL(enable_kprobe);
EXPORT_SYMBOL(disable_kprobe);
EXPORT_SYMBOL(get_kretprobe);
EXPORT_SYMBOL(regs_within_kernel_stack);
EXPORT_SYMBOL(regs_query_register_offset);

/* Synthetic events (trace/trace_synth.h; modules/synth_event_gen_test.c). */
EXPORT_SYMBOL(synth_event_create);
EXPORT_SYMBOL(synth_event_delete);
EXPORT_SYMBOL(trace_get_event_file);
EXPORT_SYMBOL(trace_put_event_file);
EXPORT_SYMBOL(synth_event_trace);
EXPORT_SYMBOL(synth_event_trace_array);
EXPORT_SYMBOL(trace_array_set_clr_event);

/* A tracer of one's own (available_tracers). */
EXPORT_SYMBOL(register_tracer);
EXPORT_SYMBOL(unregister_tracer);

/* Locks: a module built with -pg calls the out-of-line, traceable forms (spinlock.h). */
EXPORT_SYMBOL(_raw_spin_lock);
EXPORT_SYMBOL(_raw_spin_trylock);
EXPORT_SYMBOL(_raw_spin_unlock);
EXPORT_SYMBOL(_raw_spin_lock_irqsave);
EXPORT_SYMBOL(_raw_spin_unlock_irqrestore);
EXPORT_SYMBOL(_raw_spin_lock_irq);
EXPORT_SYMBOL(_raw_spin_unlock_irq);
EXPORT_SYMBOL(mutex_lock);
EXPORT_SYMBOL(mutex_trylock);
EXPORT_SYMBOL(mutex_unlock);

/* Memory and time. */
EXPORT_SYMBOL(kmalloc);
EXPORT_SYMBOL(kzalloc);
EXPORT_SYMBOL(kfree);
EXPORT_SYMBOL(add_timer);
EXPORT_SYMBOL(del_timer);
EXPORT_SYMBOL(ktime_get_ns);
EXPORT_SYMBOL(msleep);
EXPORT_SYMBOL(udelay);

/*
 * Interrupts and preemption: local_irq_disable(), preempt_disable() and friends are inline, and
 * their tracing hooks (arch/x86_64/cpu.h, kernel/sched/preempt.h) are what a module calls.
 */
EXPORT_SYMBOL(irqflags_hook_key);
EXPORT_SYMBOL(trace_hardirqs_on);
EXPORT_SYMBOL(trace_hardirqs_off);
EXPORT_SYMBOL(preempt_hook_key);
EXPORT_SYMBOL(preemptirq_hook_key);
EXPORT_SYMBOL(trace_preempt_on);
EXPORT_SYMBOL(trace_preempt_off);
EXPORT_SYMBOL(preempt_schedule);

/* module_param()'s types (kernel/module/params.c). */
EXPORT_SYMBOL(param_ops_int);
EXPORT_SYMBOL(param_ops_uint);
EXPORT_SYMBOL(param_ops_ulong);
EXPORT_SYMBOL(param_ops_bool);
EXPORT_SYMBOL(param_set_uint);
EXPORT_SYMBOL(param_get_uint);

/* The C library's own functions: gcc may call memcpy and memset for a struct copy. */
EXPORT_SYMBOL(memcpy);
EXPORT_SYMBOL(memmove);
EXPORT_SYMBOL(memset);
EXPORT_SYMBOL(memcmp);
EXPORT_SYMBOL(strlen);
EXPORT_SYMBOL(strcmp);
EXPORT_SYMBOL(strncmp);
EXPORT_SYMBOL(snprintf);

/* What the compiler's flags make every module call: -pg -mfentry, -fstack-protector. */
EXPORT_SYMBOL(__fentry__);
#ifdef CONFIG_STACKPROTECTOR
void __stack_chk_fail(void);
EXPORT_SYMBOL(__stack_chk_fail);
EXPORT_SYMBOL(__stack_chk_guard);
#endif

/* UBSAN=1 builds modules with the checks too: their reports go to kernel/debug/ubsan.c. */
#ifdef CONFIG_UBSAN
#define UBSAN_HANDLER(name) \
	void name(void);    \
	EXPORT_SYMBOL(name)
UBSAN_HANDLER(__ubsan_handle_add_overflow);
UBSAN_HANDLER(__ubsan_handle_sub_overflow);
UBSAN_HANDLER(__ubsan_handle_mul_overflow);
UBSAN_HANDLER(__ubsan_handle_negate_overflow);
UBSAN_HANDLER(__ubsan_handle_divrem_overflow);
UBSAN_HANDLER(__ubsan_handle_shift_out_of_bounds);
UBSAN_HANDLER(__ubsan_handle_out_of_bounds);
UBSAN_HANDLER(__ubsan_handle_type_mismatch_v1);
UBSAN_HANDLER(__ubsan_handle_vla_bound_not_positive);
UBSAN_HANDLER(__ubsan_handle_load_invalid_value);
UBSAN_HANDLER(__ubsan_handle_builtin_unreachable);
UBSAN_HANDLER(__ubsan_handle_pointer_overflow);
UBSAN_HANDLER(__ubsan_handle_invalid_builtin);
#endif

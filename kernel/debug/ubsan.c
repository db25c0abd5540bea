/*
 * The undefined behaviour sanitizer's runtime, for `make UBSAN=1`.
 *
 * With -fsanitize=..., gcc puts a check before each operation that could be undefined (a signed
 * add, a shift, an array index, a pointer dereference) and, when the check fails, calls one of
 * the __ubsan_handle_* functions below with a static description of the place: the source
 * location and the C types involved. The operands come as "value handles": an integer that
 * fits in a pointer is passed in it directly, a wider one by address. The handlers describe
 * what went wrong, in Linux's words:
 *
 *	UBSAN: signed-integer-overflow in kernel/debug/lkdtm.c:96:12
 *	2147483647 + 1 cannot be represented in type 'int'
 *
 * then show the stack and panic: in a teaching kernel undefined behaviour is a bug to fix at
 * once, not a warning to scroll past.
 *
 * This file is built without -fsanitize (a check in a handler would call the handler again)
 * and is notrace: it runs in the middle of arbitrary code, the tracer included. A second report
 * while one is printed (undefined behaviour in printk, say) is dropped rather than recursing.
 */
#include <stdbool.h>
#include <stdint.h>
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/traps.h"
#include "lib/compiler.h"
#include "lib/printf.h"

struct source_location {
	const char *file;
	uint32_t line;
	uint32_t column;
};

struct type_descriptor {
	uint16_t kind; /* TYPE_KIND_* */
	uint16_t info; /* integers: bit 0 signed, bits 1.. log2 of the width in bits */
	char name[]; /* as written in the source, quoted: "'int'" */
};

#define TYPE_KIND_INT 0

struct overflow_data {
	struct source_location loc;
	struct type_descriptor *type;
};

struct shift_out_of_bounds_data {
	struct source_location loc;
	struct type_descriptor *lhs_type;
	struct type_descriptor *rhs_type;
};

struct out_of_bounds_data {
	struct source_location loc;
	struct type_descriptor *array_type;
	struct type_descriptor *index_type;
};

struct type_mismatch_data_v1 {
	struct source_location loc;
	struct type_descriptor *type;
	unsigned char log_alignment;
	unsigned char type_check_kind; /* an index into type_check_kinds[] */
};

struct vla_bound_data {
	struct source_location loc;
	struct type_descriptor *type;
};

struct invalid_value_data {
	struct source_location loc;
	struct type_descriptor *type;
};

struct unreachable_data {
	struct source_location loc;
};

struct pointer_overflow_data {
	struct source_location loc;
};

struct invalid_builtin_data {
	struct source_location loc;
	unsigned char kind; /* 0: ctz, 1: clz */
};

static const char *const type_check_kinds[] = {
	"load of",
	"store to",
	"reference binding to",
	"member access within",
	"member call on",
	"constructor call on",
	"downcast of",
	"downcast of",
	"upcast of",
	"cast to virtual base of",
	"_Nonnull binding to",
	"dynamic operation on",
};

static bool reporting;

/* ---- values ------------------------------------------------------------------------------ */

static notrace bool type_is_int(const struct type_descriptor *t)
{
	return t->kind == TYPE_KIND_INT;
}

static notrace bool type_is_signed(const struct type_descriptor *t)
{
	return type_is_int(t) && (t->info & 1);
}

/* An integer's width in bits; 0 for anything else (a float's info is not a log2). */
static notrace unsigned int type_bits(const struct type_descriptor *t)
{
	unsigned int log2 = t->info >> 1;

	return type_is_int(t) && log2 <= 7 ? 1u << log2 : 0;
}

/* Integers up to 64 bits travel in the handle itself; wider ones (__int128) by address. */
static notrace bool value_inline(const struct type_descriptor *t)
{
	return type_bits(t) && type_bits(t) <= 64;
}

static notrace int64_t signed_value(const struct type_descriptor *t, void *val)
{
	unsigned int extra = 64 - type_bits(t);

	/* Shift the value's sign bit up to bit 63 and back: that sign-extends it. */
	return (int64_t)((uint64_t)(uintptr_t)val << extra) >> extra;
}

static notrace uint64_t unsigned_value(const struct type_descriptor *t, void *val)
{
	unsigned int extra = 64 - type_bits(t);

	return extra ? (uint64_t)(uintptr_t)val & ((1ULL << (64 - extra)) - 1) : (uintptr_t)val;
}

/* The value as the source would write it, into buf. */
static notrace const char *format_value(char *buf, size_t size, const struct type_descriptor *t,
					void *val)
{
	if (!type_is_int(t) || !value_inline(t))
		scnprintf(buf, size, "<value of type %s>", t->name);
	else if (type_is_signed(t))
		scnprintf(buf, size, "%lld", (long long)signed_value(t, val));
	else
		scnprintf(buf, size, "%llu", (unsigned long long)unsigned_value(t, val));
	return buf;
}

static notrace bool is_negative(const struct type_descriptor *t, void *val)
{
	return type_is_signed(t) && value_inline(t) && signed_value(t, val) < 0;
}

/* ---- the report ---------------------------------------------------------------------------- */

#define RULE "================================================================================"

/* Starts a report; false if one is already being printed (then this one is dropped). */
static notrace bool ubsan_begin(const struct source_location *loc, const char *what)
{
	if (__atomic_exchange_n(&reporting, true, __ATOMIC_ACQUIRE))
		return false;
	oops_begin(); /* from here on this CPU alone prints; another one reporting stops */
	printk(KERN_EMERG RULE "\n");
	printk(KERN_EMERG "UBSAN: %s in %s:%u:%u\n", what, loc->file, loc->line, loc->column);
	return true;
}

static notrace __noreturn void ubsan_end(const struct source_location *loc, const char *what)
{
	dump_stack();
	printk(KERN_EMERG RULE "\n");
	panic("UBSAN: %s in %s:%u:%u", what, loc->file, loc->line, loc->column);
}

/* ---- the handlers gcc calls (the description comes as void *, as gcc declares them) ---- */

static notrace void overflow(struct overflow_data *d, void *lhs, void *rhs, char op)
{
	const char *what =
		type_is_signed(d->type) ? "signed-integer-overflow" : "unsigned-integer-overflow";
	char l[40], r[40];

	if (!ubsan_begin(&d->loc, what))
		return;
	printk(KERN_EMERG "%s %c %s cannot be represented in type %s\n",
	       format_value(l, sizeof(l), d->type, lhs), op,
	       format_value(r, sizeof(r), d->type, rhs), d->type->name);
	ubsan_end(&d->loc, what);
}

notrace void __ubsan_handle_add_overflow(void *data, void *lhs, void *rhs)
{
	overflow(data, lhs, rhs, '+');
}

notrace void __ubsan_handle_sub_overflow(void *data, void *lhs, void *rhs)
{
	overflow(data, lhs, rhs, '-');
}

notrace void __ubsan_handle_mul_overflow(void *data, void *lhs, void *rhs)
{
	overflow(data, lhs, rhs, '*');
}

notrace void __ubsan_handle_negate_overflow(void *data, void *old)
{
	struct overflow_data *d = data;
	char v[40];

	if (!ubsan_begin(&d->loc, "negation-overflow"))
		return;
	printk(KERN_EMERG "negation of %s cannot be represented in type %s\n",
	       format_value(v, sizeof(v), d->type, old), d->type->name);
	ubsan_end(&d->loc, "negation-overflow");
}

notrace void __ubsan_handle_divrem_overflow(void *data, void *lhs, void *rhs)
{
	struct overflow_data *d = data;
	char l[40];

	if (!ubsan_begin(&d->loc, "division-overflow"))
		return;
	if (type_is_signed(d->type) && value_inline(d->type) && signed_value(d->type, rhs) == -1)
		printk(KERN_EMERG "division of %s by -1 cannot be represented in type %s\n",
		       format_value(l, sizeof(l), d->type, lhs), d->type->name);
	else
		printk(KERN_EMERG "division by zero\n");
	ubsan_end(&d->loc, "division-overflow");
}

notrace void __ubsan_handle_shift_out_of_bounds(void *data, void *lhs, void *rhs)
{
	struct shift_out_of_bounds_data *d = data;
	struct type_descriptor *lt = d->lhs_type, *rt = d->rhs_type;
	char l[40], r[40];

	if (!ubsan_begin(&d->loc, "shift-out-of-bounds"))
		return;
	format_value(l, sizeof(l), lt, lhs);
	format_value(r, sizeof(r), rt, rhs);
	if (is_negative(rt, rhs))
		printk(KERN_EMERG "shift exponent %s is negative\n", r);
	else if (value_inline(rt) && unsigned_value(rt, rhs) >= type_bits(lt))
		printk(KERN_EMERG "shift exponent %s is too large for %u-bit type %s\n", r,
		       type_bits(lt), lt->name);
	else if (is_negative(lt, lhs))
		printk(KERN_EMERG "left shift of negative value %s\n", l);
	else
		printk(KERN_EMERG
		       "left shift of %s by %s places cannot be represented in type %s\n",
		       l, r, lt->name);
	ubsan_end(&d->loc, "shift-out-of-bounds");
}

notrace void __ubsan_handle_out_of_bounds(void *data, void *index)
{
	struct out_of_bounds_data *d = data;
	char i[40];

	if (!ubsan_begin(&d->loc, "array-index-out-of-bounds"))
		return;
	printk(KERN_EMERG "index %s is out of range for type %s\n",
	       format_value(i, sizeof(i), d->index_type, index), d->array_type->name);
	ubsan_end(&d->loc, "array-index-out-of-bounds");
}

/* -fsanitize=null, alignment and object-size all come here. */
notrace void __ubsan_handle_type_mismatch_v1(void *data, void *ptr)
{
	struct type_mismatch_data_v1 *d = data;
	unsigned long align = 1UL << d->log_alignment;
	const char *kind = d->type_check_kind < ARRAY_SIZE(type_check_kinds)
				   ? type_check_kinds[d->type_check_kind]
				   : "access to";
	const char *what = !ptr ? "null-ptr-deref"
			   : d->log_alignment && ((uintptr_t)ptr & (align - 1))
				   ? "misaligned-access"
				   : "object-size-mismatch";

	if (!ubsan_begin(&d->loc, what))
		return;
	if (!ptr)
		printk(KERN_EMERG "%s null pointer of type %s\n", kind, d->type->name);
	else if (what[0] == 'm')
		printk(KERN_EMERG "%s misaligned address %p for type %s\n"
				  "which requires %lu byte alignment\n",
		       kind, ptr, d->type->name, align);
	else
		printk(KERN_EMERG
		       "%s address %p with insufficient space for an object of type %s\n",
		       kind, ptr, d->type->name);
	ubsan_end(&d->loc, what);
}

notrace void __ubsan_handle_vla_bound_not_positive(void *data, void *bound)
{
	struct vla_bound_data *d = data;
	char b[40];

	if (!ubsan_begin(&d->loc, "variable-length-array"))
		return;
	printk(KERN_EMERG "variable length array bound evaluates to non-positive value %s\n",
	       format_value(b, sizeof(b), d->type, bound));
	ubsan_end(&d->loc, "variable-length-array");
}

/* -fsanitize=bool: a bool in memory that is neither 0 nor 1. */
notrace void __ubsan_handle_load_invalid_value(void *data, void *val)
{
	struct invalid_value_data *d = data;
	char v[40];

	if (!ubsan_begin(&d->loc, "invalid-load"))
		return;
	printk(KERN_EMERG "load of value %s is not a valid value for type %s\n",
	       format_value(v, sizeof(v), d->type, val), d->type->name);
	ubsan_end(&d->loc, "invalid-load");
}

/* Returning is not an option here: past the call there is no code, so this one never does. */
notrace void __ubsan_handle_builtin_unreachable(void *data)
{
	struct unreachable_data *d = data;

	if (ubsan_begin(&d->loc, "unreachable"))
		printk(KERN_EMERG "calling __builtin_unreachable()\n");
	ubsan_end(&d->loc, "unreachable");
}

notrace void __ubsan_handle_pointer_overflow(void *data, void *base, void *result)
{
	struct pointer_overflow_data *d = data;
	if (!ubsan_begin(&d->loc, "pointer-overflow"))
		return;
	if (!base != !result)
		printk(KERN_EMERG "pointer arithmetic turned %p into %p (to or from NULL)\n", base,
		       result);
	else if ((uintptr_t)result < (uintptr_t)base)
		printk(KERN_EMERG "addition to pointer %p wrapped around to %p\n", base, result);
	else
		printk(KERN_EMERG "subtraction from pointer %p wrapped around to %p\n", base,
		       result);
	ubsan_end(&d->loc, "pointer-overflow");
}

/* -fsanitize=builtin: __builtin_clz(0) and __builtin_ctz(0) are undefined. */
notrace void __ubsan_handle_invalid_builtin(void *data)
{
	struct invalid_builtin_data *d = data;
	if (!ubsan_begin(&d->loc, "invalid-builtin-use"))
		return;
	printk(KERN_EMERG "passing zero to %s, which is not a valid argument\n",
	       d->kind ? "clz()" : "ctz()");
	ubsan_end(&d->loc, "invalid-builtin-use");
}

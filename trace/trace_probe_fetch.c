/* Probe events' fetch programs run at a hit: the values into the record (Linux's fetch code). */

/*
 * A hit runs each argument's fetch_insn program (trace/trace_probe.h) in two passes, as Linux
 * does: first only the strings' lengths (traceprobe_get_data_size), so the record can be
 * reserved at its exact size, then the values themselves into it (store_trace_args).
 *
 * Runs in the probe's context: interrupts off, inside the int3 handler or a tracepoint, on any
 * task. So every read of memory a user named is one that cannot oops: kernel memory through the
 * exception-table copy (a fault resumes at its fixup), refused outright below the kernel half
 * (Linux's copy_from_kernel_nofault_allowed); user memory with page faults disabled, so a page
 * that is not present is a fault here rather than a page-in that would sleep. A string that
 * cannot be read is recorded with length 0 and prints "(fault)"; a number reads as 0.
 */
#include "trace/trace_probe.h"
#include "arch/x86_64/ptrace.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/unaligned.h"
#ifndef LUCID_HOST
#include "arch/x86_64/regs.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/kallsyms.h"
#else
#include "tests/unit/host_probe_fetch.h"
#endif

#define SYM_BUF_LEN 160 /* "name+0x.../0x... [module]" */

/* --- memory that may not be there ------------------------------------------------------------- */

#ifndef LUCID_HOST
/* The canonical upper half, where the kernel lives: any other address is not kernel memory. */
#define KERNEL_HALF_START 0xffff800000000000UL

static bool kernel_range_ok(unsigned long a, unsigned long n)
{
	return a >= KERNEL_HALF_START && a + n >= a;
}

static int probe_kernel_read(void *dst, unsigned long src, unsigned long n)
{
	if (!kernel_range_ok(src, n))
		return -EFAULT;
	return __copy_user(dst, (const void *)src, n) ? -EFAULT : 0;
}

static int probe_user_read(void *dst, unsigned long src, unsigned long n)
{
	unsigned long left;

	pagefault_disable();
	left = copy_from_user(dst, (const void *)src, n);
	pagefault_enable();
	return left ? -EFAULT : 0;
}

/*
 * Up to max bytes of a kernel string from src into dst: the length copied without the NUL, max
 * if no NUL came, or -EFAULT. __strncpy_from_user is the exception-table byte copy (a fault
 * resumes at its fixup), about five instructions a byte, where a probe_kernel_read() a byte
 * cost a call and a rep movsb each. Only the bytes below the top of the address space may be
 * read (kernel_range_ok): a string that runs on to it without a NUL is a fault.
 */
static long kernel_strncpy_nofault(char *dst, unsigned long src, long max)
{
	unsigned long room = ~0UL - src; /* the readable bytes from src on */
	long n;

	if (!kernel_range_ok(src, 1))
		return -EFAULT;
	if ((unsigned long)max <= room)
		return __strncpy_from_user(dst, (const char *)src, max);
	n = __strncpy_from_user(dst, (const char *)src, (long)room);
	return n == (long)room ? -EFAULT : n;
}

/*
 * Up to max bytes of a NUL-terminated string: its length with the NUL, or -EFAULT. dst NULL:
 * only the length, the text copied through a small buffer.
 */
static long probe_kernel_strncpy(char *dst, unsigned long src, long max)
{
	char buf[64];
	long n, done = 0;

	if (max <= 0)
		return 0;
	if (dst) {
		n = kernel_strncpy_nofault(dst, src, max);
		if (n < 0)
			return n;
		if (n < max)
			return n + 1;
		dst[max - 1] = '\0'; /* cut: still a string */
		return max;
	}
	while (done < max) {
		long chunk = max - done < (long)sizeof(buf) ? max - done : (long)sizeof(buf);

		n = kernel_strncpy_nofault(buf, src + (unsigned long)done, chunk);
		if (n < 0)
			return n;
		if (n < chunk)
			return done + n + 1;
		done += chunk;
	}
	return max;
}

static long probe_user_strncpy(char *dst, unsigned long src, long max)
{
	char buf[64];
	long ret, done = 0;

	if (max <= 0)
		return 0;
	pagefault_disable();
	if (dst) {
		ret = strncpy_from_user(dst, (const char *)src, max);
		if (ret >= 0 && ret == max)
			dst[max - 1] = '\0';
		ret = ret < 0 ? ret : (ret < max ? ret + 1 : max);
	} else {
		/* only the length: copy it through a small buffer */
		ret = 0;
		while (done < max) {
			long chunk =
				max - done < (long)sizeof(buf) ? max - done : (long)sizeof(buf);
			long n = strncpy_from_user(buf, (const char *)(src + (unsigned long)done),
						   chunk);

			if (n < 0) {
				ret = n;
				break;
			}
			if (n < chunk) {
				ret = done + n + 1;
				break;
			}
			done += chunk;
			ret = max;
		}
	}
	pagefault_enable();
	return ret;
}

static const char *probe_current_comm(void)
{
	return current->comm;
}

static void probe_sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	sprint_symbol(buf, size, addr, true);
}
#endif

static int probe_mem_read(const struct fetch_context *fc, void *dst, unsigned long src,
			  unsigned long n)
{
	return fc->user ? probe_user_read(dst, src, n) : probe_kernel_read(dst, src, n);
}

/* --- stage 1: the value a program starts from ------------------------------------------------- */

/* A field of the attached event's record (eprobes): a string field is its text's address. */
static unsigned long get_event_field(const struct fetch_context *fc,
				     const struct trace_event_field *f)
{
	const char *addr = (const char *)fc->rec + f->offset;

	if (!strncmp(f->type, "__data_loc", 10))
		return (unsigned long)((const char *)fc->rec +
				       get_loc_offs(*(const uint32_t *)addr));
	if (strchr(f->type, '['))
		return (unsigned long)addr; /* an array, char comm[16]: where it is */
	switch (f->size) {
	case 1:
		return f->is_signed ? (unsigned long)(long)*(const int8_t *)addr
				    : *(const uint8_t *)addr;
	case 2:
		return f->is_signed ? (unsigned long)(long)*(const int16_t *)addr
				    : *(const uint16_t *)addr;
	case 4:
		return f->is_signed ? (unsigned long)(long)*(const int32_t *)addr
				    : *(const uint32_t *)addr;
	default:
		return *(const unsigned long *)addr;
	}
}

/* 0, or -EFAULT if the value could not be read. */
static int fetch_stage1(const struct fetch_insn *code, const struct fetch_context *fc,
			unsigned long *val)
{
	*val = 0;
	switch (code->op) {
	case FETCH_OP_REG:
		*val = *(const unsigned long *)((const char *)fc->regs + code->param);
		return 0;
	case FETCH_OP_STACK:
		if (!fc->user) { /* 0 past the stack's end, as Linux */
			*val = regs_get_kernel_stack_nth(fc->regs, code->param);
			return 0;
		}
		return probe_user_read(val, fc->regs->rsp + code->param * sizeof(unsigned long),
				       sizeof(*val));
	case FETCH_OP_STACKP:
		*val = fc->regs->rsp;
		return 0;
	case FETCH_OP_RETVAL:
		*val = fc->regs->rax;
		return 0;
	case FETCH_OP_IMM:
		*val = code->immediate;
		return 0;
	case FETCH_OP_COMM:
		*val = (unsigned long)probe_current_comm();
		return 0;
	case FETCH_OP_DATA:
		*val = (unsigned long)code->data;
		return 0;
	case FETCH_OP_ARG:
		*val = regs_get_kernel_argument(fc->regs, code->param);
		return 0;
	case FETCH_OP_FOFFS:
		if (!fc->foffs_to_vaddr)
			return -EFAULT;
		*val = fc->foffs_to_vaddr(fc, code->immediate);
		return 0;
	case FETCH_OP_TP_ARG:
		*val = get_event_field(fc, code->data);
		return 0;
	default:
		return -EILSEQ;
	}
}

/* --- stages 2 to 5 ---------------------------------------------------------------------------- */

/*
 * The arguments are packed one after the other, as Linux's, so a value may sit at any byte:
 * stored and loaded with byte copies (x86-64 is little-endian, so the low bytes come first).
 * __builtin_memcpy of a constant size is one unaligned move: -ffreestanding makes a plain
 * memcpy() a call to lib/string.c's, a dozen instructions for four bytes, several times a hit.
 */
static uint32_t load_loc(const void *p)
{
	uint32_t loc;

	__builtin_memcpy(&loc, p, sizeof(loc));
	return loc;
}

static void store_loc(void *p, uint32_t loc)
{
	__builtin_memcpy(p, &loc, sizeof(loc));
}

/*
 * Strings: the text of a kernel string (COMM, DATA and an eprobe's fields are kernel memory
 * too, even for a uprobe) or a user one. dest NULL: the length only.
 */
static bool string_is_kernel(const struct fetch_insn *s1, const struct fetch_context *fc)
{
	return !fc->user || s1->op == FETCH_OP_COMM || s1->op == FETCH_OP_DATA ||
	       s1->op == FETCH_OP_TP_ARG;
}

static long fetch_string(enum fetch_op op, bool kernel, unsigned long addr, char *dst, long max)
{
	char sym[SYM_BUF_LEN];
	long len;

	if (op == FETCH_OP_ST_SYMSTR) {
		probe_sprint_symbol(sym, sizeof(sym), addr);
		len = (long)strlen(sym) + 1;
		if (len > max)
			len = max;
		if (dst && len > 0) {
			memcpy(dst, sym, (size_t)len - 1);
			dst[len - 1] = '\0';
		}
		return len;
	}
	if (op == FETCH_OP_ST_USTRING || !kernel)
		return probe_user_strncpy(dst, addr, max);
	return probe_kernel_strncpy(dst, addr, max);
}

/* Stores the string at addr at the room *dest's data_loc points to; its length, or < 0. */
static long fetch_store_string(enum fetch_op op, bool kernel, unsigned long addr, void *dest,
			       void *base)
{
	uint32_t loc = load_loc(dest);
	long maxlen = get_loc_len(loc), ret;
	char *to = (char *)base + get_loc_offs(loc);

	if (!maxlen)
		return -ENOMEM;
	ret = fetch_string(op, kernel, addr, to, maxlen);
	if (ret >= 0)
		store_loc(dest, make_data_loc(ret, to - (char *)base));
	return ret;
}

/* The value's low code->size bytes (each size a constant move, as load_loc's; the parser gives
 * a raw store no size but 1, 2, 4 and 8). */
static __always_inline void fetch_store_raw(unsigned long val, const struct fetch_insn *code,
					    void *dest)
{
	put_unaligned_sized(dest, code->size, val);
}

static void fetch_apply_bitfield(const struct fetch_insn *code, void *buf)
{
	unsigned int bits = code->basesize * 8;
	uint64_t v = 0;

	memcpy(&v, buf, code->basesize);
	v <<= 64 - bits + code->lshift; /* the field's top bit to bit 63 */
	v >>= 64 - bits + code->rshift; /* then down, cut to its width */
	memcpy(buf, &v, code->basesize);
}

/*
 * $comm as a kernel string (comm=$comm), the usual way to see which task hit a probe. The
 * current task's name is kernel memory that is always there, NUL-terminated within its
 * array, so it is measured and copied directly instead of through the fault-safe copy and
 * the general walk (some 300 instructions a hit). The same result as that path: the length
 * with the NUL, cut to max; with dest, the text at dest's data_loc room, and dest's data_loc.
 */
static bool is_comm_string(const struct fetch_insn *code)
{
	/* code[1] exists: code[0] is not FETCH_OP_END; and code[2] if code[1] is not either */
	return code->op == FETCH_OP_COMM && code[1].op == FETCH_OP_ST_STRING && !code[1].offset &&
	       code[2].op == FETCH_OP_END;
}

static long fetch_comm_string(void *dest, void *base)
{
	const char *comm = probe_current_comm();
	uint32_t loc = dest ? load_loc(dest) : 0;
	long max = dest ? (long)get_loc_len(loc) : MAX_STRING_SIZE;
	long n = (long)strnlen(comm, (size_t)max);
	char *to;

	if (!dest)
		return n < max ? n + 1 : max;
	if (!max)
		return -ENOMEM;
	to = (char *)base + get_loc_offs(loc);
	if (n >= max)
		n = max - 1; /* cut: still a string */
	memcpy(to, comm, (size_t)n);
	to[n] = '\0';
	store_loc(dest, make_data_loc(n + 1, to - (char *)base));
	return n + 1;
}

/*
 * Runs one argument's program: the value into dest (base: the record, for a string's
 * data_loc), or with dest NULL the length of its strings. Linux's process_fetch_insn() and
 * process_fetch_insn_bottom(). Returns the strings' length stored, or < 0.
 */
static long process_fetch_insn(const struct fetch_insn *code, const struct fetch_context *fc,
			       void *dest, void *base)
{
	const struct fetch_insn *s1, *s3;
	unsigned long val, lval;
	long ret = 0, total = 0;
	unsigned int i = 0;
	uint32_t loc = 0;
	bool kernel;

	if (is_comm_string(code))
		return fetch_comm_string(dest, base);
	if (code->op == FETCH_NOP_SYMBOL)
		code++; /* its address is in the next IMM */
	s1 = code;
	kernel = string_is_kernel(s1, fc);
	ret = fetch_stage1(code, fc, &val);
	if (ret)
		return ret;
	code++;
	lval = val;
stage2:
	for (;; code++) {
		if (code->op == FETCH_OP_DEREF) {
			lval = val;
			ret = fc->user ? probe_user_read(&val,
							 val + (unsigned long)(long)code->offset,
							 sizeof(val))
				       : probe_kernel_read(&val,
							   val + (unsigned long)(long)code->offset,
							   sizeof(val));
		} else if (code->op == FETCH_OP_UDEREF) {
			lval = val;
			ret = probe_user_read(&val, val + (unsigned long)(long)code->offset,
					      sizeof(val));
			kernel = false;
		} else {
			break;
		}
		if (ret)
			return ret;
		if (code->op == FETCH_OP_DEREF)
			kernel = !fc->user;
	}
	s3 = code;
stage3:
	if (!dest) {
		switch (code->op) {
		case FETCH_OP_ST_STRING:
		case FETCH_OP_ST_USTRING:
		case FETCH_OP_ST_SYMSTR:
			ret = fetch_string(code->op, kernel,
					   val + (unsigned long)(long)code->offset, NULL,
					   MAX_STRING_SIZE);
			code++;
			goto array;
		default:
			return -EILSEQ;
		}
	}
	switch (code->op) {
	case FETCH_OP_ST_RAW:
		fetch_store_raw(val, code, dest);
		break;
	case FETCH_OP_ST_MEM:
		probe_mem_read(fc, dest, val + (unsigned long)(long)code->offset, code->size);
		break;
	case FETCH_OP_ST_UMEM:
		probe_user_read(dest, val + (unsigned long)(long)code->offset, code->size);
		break;
	case FETCH_OP_ST_STRING:
	case FETCH_OP_ST_USTRING:
	case FETCH_OP_ST_SYMSTR:
		loc = load_loc(dest);
		ret = fetch_store_string(code->op, kernel, val + (unsigned long)(long)code->offset,
					 dest, base);
		break;
	default:
		return -EILSEQ;
	}
	code++;
	if (code->op == FETCH_OP_MOD_BF) {
		fetch_apply_bitfield(code, dest);
		code++;
	}
array:
	if (code->op == FETCH_OP_LP_ARRAY) {
		if (ret > 0)
			total += ret;
		if (++i < code->param) {
			code = s3;
			if (s3->op != FETCH_OP_ST_STRING && s3->op != FETCH_OP_ST_USTRING) {
				dest = (char *)dest + s3->size;
				val += s3->size;
				goto stage3;
			}
			/* an array of strings: the next pointer (re-read by the DEREF), its text */
			code--;
			val = lval + sizeof(char *);
			if (dest) {
				uint32_t used = ret > 0 ? (uint32_t)ret : 0;

				dest = (char *)dest + sizeof(uint32_t);
				store_loc(dest, make_data_loc(get_loc_len(loc) - used,
							      get_loc_offs(loc) + used));
			}
			goto stage2;
		}
		code++;
		ret = total;
	}
	return code->op == FETCH_OP_END ? ret : -EILSEQ;
}

int traceprobe_get_data_size(const struct trace_probe *tp, const struct fetch_context *fc)
{
	int ret = 0;

	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *arg = &tp->args[i];

		if (arg->dynamic) {
			long len = process_fetch_insn(arg->code, fc, NULL, NULL);

			if (len > 0)
				ret += (int)len;
		}
	}
	return ret;
}

/*
 * The most common argument, a register, $retval or $argN stored as it is (%di, $retval:s32):
 * done here without process_fetch_insn()'s general walk, which costs some sixty instructions
 * for it. Such a program is exactly [REG|RETVAL|ARG, ST_RAW, END]: no dereference, bitfield or
 * array, and nothing that can fault. False: not one of these, run the general program.
 */
static __always_inline bool store_reg_fast(const struct fetch_insn *code,
					   const struct fetch_context *fc, void *dest)
{
	unsigned long val;

	switch (code->op) {
	case FETCH_OP_REG:
		val = *(const unsigned long *)((const char *)fc->regs + code->param);
		break;
	case FETCH_OP_RETVAL:
		val = fc->regs->rax;
		break;
	case FETCH_OP_ARG:
		val = regs_get_kernel_argument(fc->regs, code->param);
		break;
	default:
		return false;
	}
	/* code[1] exists: a program ends in FETCH_OP_END, and code[0] is not it */
	if (code[1].op != FETCH_OP_ST_RAW || code[2].op != FETCH_OP_END)
		return false;
	fetch_store_raw(val, &code[1], dest);
	return true;
}

/* The general case: any argument, strings after the fixed part. */
static noinline void store_trace_args_slow(void *data, const struct trace_probe *tp,
					   const struct fetch_context *fc, int header_size,
					   int maxlen)
{
	char *base = (char *)data - header_size;
	char *dyndata = (char *)data + tp->size;

	memset(data, 0, tp->size); /* a number that faults reads 0 */
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *arg = &tp->args[i];
		char *dl = (char *)data + arg->offset;
		long ret;

		if (!arg->dynamic && store_reg_fast(arg->code, fc, dl))
			continue;
		if (arg->dynamic)
			store_loc(dl, make_data_loc(maxlen, dyndata - base));
		ret = process_fetch_insn(arg->code, fc, dl, base);
		if (arg->dynamic && ret < 0) {
			store_loc(dl, make_data_loc(0, dyndata - base)); /* "(fault)" */
		} else if (ret > 0) {
			dyndata += ret;
			maxlen -= (int)ret;
		}
	}
}

/* store_trace_regs's rare case, $argN past the sixth (on the stack): apart, by a tail call. */
static noinline void store_trace_regs_slow(void *data, const struct trace_probe *tp,
					   struct pt_regs *regs)
{
	const struct fetch_context fc = {.regs = regs};

	for (unsigned int i = 0; i < tp->nr_args; i++)
		store_reg_fast(tp->args[i].code, &fc, (char *)data + tp->args[i].offset);
}

void store_trace_regs(void *data, const struct trace_probe *tp, struct pt_regs *regs)
{
	if (unlikely(!tp->from_regs)) {
		store_trace_regs_slow(data, tp, regs);
		return;
	}
	/* each a load from pt_regs: the program is [REG|RETVAL|ARG, ST_RAW, END] (no calls here,
	 * so no registers to save) */
	for (unsigned int i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *a = &tp->args[i];

		put_unaligned_sized((char *)data + a->offset, a->code[1].size,
				    *(const unsigned long *)((const char *)regs + a->regs_offset));
	}
}

/*
 * Registers, $retval and $argN alone (tp->cannot_fault, the usual probe): each stored by
 * store_reg_fast in a short loop, with nothing to zero first, and without the general case's
 * frame (a third of a kretprobe's $retval hit went there).
 */
void store_trace_args(void *data, const struct trace_probe *tp, const struct fetch_context *fc,
		      int header_size, int maxlen)
{
	if (!tp->nr_args)
		return; /* a probe with no arguments: no memset() call for nothing */
	if (!tp->cannot_fault) {
		store_trace_args_slow(data, tp, fc, header_size, maxlen);
		return;
	}
	for (unsigned int i = 0; i < tp->nr_args; i++)
		store_reg_fast(tp->args[i].code, fc, (char *)data + tp->args[i].offset);
}

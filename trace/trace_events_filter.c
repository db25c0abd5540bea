/* Event filters: parsing "field OP value && ..." into a program, and running it on a record. */

/*
 * echo 'prev_pid == 0 && next_comm ~ "ksoft*"' > events/sched/sched_switch/filter keeps only
 * the records for which the expression is true. The grammar is Linux's:
 *
 *   predicate:  FIELD OP VALUE
 *               numbers:  ==  !=  <  <=  >  >=  &    (VALUE: decimal, 0x hex, 0 octal, -)
 *               strings:  ==  !=  ~ (a glob: "ksoft*", "*irq*", "sh?", "[ab]*")
 *   expression: predicates joined by && and || (&& binds tighter), ! and parentheses
 *
 * FIELD is one of the event's fields (its format file), a common_* field of struct
 * trace_entry, or a generic one: cpu/CPU (the CPU recording) and comm/COMM (the current task's
 * name), as in Linux; an event's own field of that name comes first.
 *
 * A filter runs for every record of its event, so it is compiled once, when written, into a
 * flat program, Linux's design: one entry per predicate, each saying where to go next
 * depending on that predicate's result. "a || b && c" becomes
 *
 *     0: if (a)  goto TRUE      (when_to_branch 1, target: past 2)
 *     1: if (!b) goto FALSE     (when_to_branch 0, target: past 2 and TRUE)
 *     2: if (!c) goto FALSE
 *        TRUE:  keep            (the entry after the last)
 *        FALSE: drop
 *
 * so a record costs one test per predicate actually needed, short-circuited as C does, with
 * no recursion and no stack. The program is built in one pass over the text with a stack of
 * open parentheses (each remembering whether a ! applies to it and which of && and || still
 * waits to be joined), then two passes over the program: a jump to an entry that would jump
 * on the same result jumps straight to that entry's target, and the !s become inverted
 * branches. The passes are described where they run.
 *
 * Errors are reported as Linux reports them: the filter file then shows the text, a caret
 * under the place and "parse_error: " with Linux's sentence; the column is Linux's too (for
 * an error inside a predicate, one past where it was found, as Linux computes it). And so
 * are the errnos: a write of a bad filter fails with EINVAL, except three errors of form that
 * Linux lets through with its internal codes: a ')' too many, or text after a predicate where
 * && or || should be (EPERM), a '(' never closed (ENOENT), a quote never closed (ESRCH).
 *
 * Pure functions of their arguments but for the generic fields (unit-tested and fuzzed on the
 * host). Not traced, as all of trace/.
 */
#include "trace/trace_events_filter.h"
#include "trace/trace_error_log.h"
#include "kernel/mm/kmalloc.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#ifndef LUCID_HOST
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
/* The generic fields: the CPU recording and the current task's name. */
static int filter_current_cpu(void)
{
	return smp_processor_id();
}
static const char *filter_current_comm(void)
{
	return current->comm;
}
#define FILTER_COMM_LEN TASK_COMM_LEN
#include "kernel/panic.h"
#else
/* On the host (unit tests, fuzzer) a broken invariant stops the program where it broke. */
#define WARN_ON(cond)                     \
	({                                \
		bool __w = !!(cond);      \
		if (__w)                  \
			__builtin_trap(); \
		__w;                      \
	})
int filter_current_cpu(void); /* the host tests say what they are */
const char *filter_current_comm(void);
#define FILTER_COMM_LEN 16
#endif

/* The operators, longest first where one begins another ("<=" before "<"). */
enum filter_op_ids { OP_GLOB, OP_NE, OP_EQ, OP_LE, OP_LT, OP_GE, OP_GT, OP_BAND, OP_MAX };
static const char *const ops[OP_MAX] = {"~", "!=", "==", "<=", "<", ">=", ">", "&"};

/* Linux's error sentences, in Linux's order (the filter file shows them). */
enum {
	FILT_ERR_NONE,
	FILT_ERR_INVALID_OP,
	FILT_ERR_TOO_MANY_OPEN,
	FILT_ERR_TOO_MANY_CLOSE,
	FILT_ERR_MISSING_QUOTE,
	FILT_ERR_OPERAND_TOO_LONG,
	FILT_ERR_EXPECT_STRING,
	FILT_ERR_EXPECT_DIGIT,
	FILT_ERR_ILLEGAL_FIELD_OP,
	FILT_ERR_FIELD_NOT_FOUND,
	FILT_ERR_ILLEGAL_INTVAL,
	FILT_ERR_BAD_SUBSYS_FILTER,
	FILT_ERR_TOO_MANY_PREDS,
	FILT_ERR_INVALID_FILTER,
	FILT_ERR_IP_FIELD_ONLY,
	FILT_ERR_INVALID_VALUE,
	FILT_ERR_ERRNO,
	FILT_ERR_NO_FILTER,
};
static const char *const err_text[] = {
	"No error",
	"Invalid operator",
	"Too many '('",
	"Too few '('",
	"Missing matching quote",
	"Operand too long",
	"Expecting string field",
	"Expecting numeric field",
	"Illegal operation for field type",
	"Field not found",
	"Illegal integer value",
	"Couldn't find or set field in one of a subsystem's events",
	"Too many terms in predicate expression",
	"Meaningless filter expression",
	"Only 'ip' field is supported for function trace",
	"Invalid value (did you forget quotes)?",
	"Error",
	"No filter found",
};

/*
 * Linux's internal codes for errors of form, which its write returns as they are: so the
 * shell says "Operation not permitted", "No such file or directory", "No such process".
 */
#define ERR_TOO_MANY_CLOSE (-EPERM) /* also: text after a predicate */
#define ERR_TOO_MANY_OPEN (-ENOENT)
#define ERR_MISSING_QUOTE (-ESRCH)

#define NUM_BUF_LEN 24 /* the longest number, "0xfeedfacedeadbeef" and then some */

struct filter_parse_error {
	int lasterr; /* FILT_ERR_*, or 0: only the errno is known */
	int lasterr_pos;
};

static void parse_error(struct filter_parse_error *pe, int err, int pos)
{
	pe->lasterr = err;
	pe->lasterr_pos = pos;
}

/* --- predicates ------------------------------------------------------------------------------- */

enum filter_field_kind {
	FILTER_OTHER, /* a number: compared by its size and signedness */
	FILTER_STATIC_STRING, /* char name[N] */
	FILTER_DYN_STRING, /* __data_loc char[] */
	FILTER_COMM, /* the generic comm: the current task's */
	FILTER_CPU, /* the generic cpu: the CPU recording */
};

/* How a string predicate matches: Linux's kinds of glob, the simple ones without glob_match. */
enum regex_type { MATCH_FULL, MATCH_FRONT_ONLY, MATCH_MIDDLE_ONLY, MATCH_END_ONLY, MATCH_GLOB };

struct filter_pred;
/* How a record is matched against a predicate: chosen when it is parsed (pred_fn_for). */
typedef bool (*filter_pred_fn_t)(const struct filter_pred *pred, const unsigned char *rec,
				 unsigned int len);

struct filter_pred {
	filter_pred_fn_t fn;
	enum filter_field_kind kind;
	int op; /* OP_* */
	bool negate; /* != (or a glob starting with '!'): the result inverted */
	unsigned int offset, size; /* of the field in the record */
	bool is_signed;
	unsigned long long val;
	enum regex_type match;
	unsigned int len; /* of pattern */
	char pattern[MAX_FILTER_STR_VAL];
};

static filter_pred_fn_t pred_fn_for(const struct filter_pred *pred);
static void find_single_pred(struct event_filter *filter);
static bool filter_run_prog(const struct event_filter *filter, const void *rec, unsigned int len);

/* One step of the program: run pred; if its result is when_to_branch, go to target + 1. */
struct prog_entry {
	int target;
	int when_to_branch;
	struct filter_pred *pred; /* NULL: the end, target says keep (1) or drop (0) */
};

/* The generic fields, found after the event's own and before the common ones. */
static const struct trace_event_field generic_fields[] = {
	{.type = "int", .name = "CPU", .size = sizeof(int), .is_signed = true},
	{.type = "int", .name = "cpu", .size = sizeof(int), .is_signed = true},
	{.type = "int", .name = "common_cpu", .size = sizeof(int), .is_signed = true},
	{.type = "char *", .name = "COMM", .size = sizeof(char *)},
	{.type = "char *", .name = "comm", .size = sizeof(char *)},
	{.type = "char *", .name = "common_comm", .size = sizeof(char *)},
	TRACE_FIELD_END,
};

static const struct trace_event_field *find_in(const struct trace_event_field *f, const char *name,
					       int len)
{
	for (; f && f->name; f++)
		if ((int)strlen(f->name) == len && memcmp(f->name, name, (size_t)len) == 0)
			return f;
	return NULL;
}

static const struct trace_event_field *find_event_field(const struct trace_event_call *call,
							const char *name, int len)
{
	const struct trace_event_field *f = find_in(call->fields, name, len);

	if (!f)
		f = find_in(generic_fields, name, len);
	if (!f)
		f = find_in(trace_common_fields, name, len);
	return f;
}

static enum filter_field_kind field_kind(const struct trace_event_field *f)
{
	if (f >= generic_fields && f < generic_fields + ARRAY_SIZE(generic_fields))
		return f->type[0] == 'i' ? FILTER_CPU : FILTER_COMM;
	if (strstr(f->type, "__data_loc") && strstr(f->type, "char"))
		return FILTER_DYN_STRING;
	if (strchr(f->type, '[') && strstr(f->type, "char"))
		return FILTER_STATIC_STRING;
	return FILTER_OTHER;
}

static bool is_string_kind(enum filter_field_kind k)
{
	return k == FILTER_STATIC_STRING || k == FILTER_DYN_STRING || k == FILTER_COMM;
}

/*
 * A ~ pattern: "name*" a prefix, "*name" a suffix, "*name*" a substring, any other '*', '?',
 * '[' or '\' a full glob; a leading '!' inverts. Cuts pattern in place as Linux does.
 */
static void filter_build_regex(struct filter_pred *pred)
{
	char *p = pred->pattern;
	unsigned int len = pred->len;

	pred->match = MATCH_FULL;
	if (pred->op != OP_GLOB)
		return;
	if (p[0] == '!') {
		pred->negate = true;
		memmove(p, p + 1, len--);
	}
	if (isdigit(p[0]))
		return; /* Linux's MATCH_INDEX, which it matches in full */
	for (unsigned int i = 0; i < len; i++) {
		if (p[i] == '*') {
			if (i == 0) {
				pred->match = MATCH_END_ONLY;
			} else if (i == len - 1) {
				pred->match = pred->match == MATCH_END_ONLY ? MATCH_MIDDLE_ONLY
									    : MATCH_FRONT_ONLY;
				p[i] = '\0';
				len = i;
				break;
			} else {
				pred->match = MATCH_GLOB;
				return;
			}
		} else if (strchr("[?\\", p[i])) {
			pred->match = MATCH_GLOB;
			return;
		}
	}
	if (p[0] == '*')
		memmove(p, p + 1, len--); /* and its NUL */
	pred->len = len;
}

/*
 * One predicate at str (pos: Linux's column for errors, one past where str starts). Returns
 * the characters it took, or -1 if there is no field name at all (Linux's code, reported as
 * EPERM), or -EINVAL / -ENOMEM.
 */
static int parse_pred(const struct trace_event_call *call, const char *str, int pos,
		      struct filter_parse_error *pe, struct filter_pred **pred_ptr)
{
	const struct trace_event_field *field;
	struct filter_pred *pred;
	char num_buf[NUM_BUF_LEN];
	int i = 0, s, len, op;

	while (isspace(str[i]))
		i++;
	s = i;
	while (isalnum(str[i]) || str[i] == '_')
		i++;
	len = i - s;
	if (!len)
		return -1;
	field = find_event_field(call, str + s, len);
	if (!field) {
		parse_error(pe, FILT_ERR_FIELD_NOT_FOUND, pos + i);
		return -EINVAL;
	}
	if (strncmp(str + i, ".ustring", strlen(".ustring")) == 0)
		i += (int)strlen(".ustring"); /* Linux's: read a user string; Lucid has no char * */
	while (isspace(str[i]))
		i++;
	for (op = 0; op < OP_MAX; op++)
		if (strncmp(str + i, ops[op], strlen(ops[op])) == 0)
			break;
	if (op == OP_MAX) {
		parse_error(pe, FILT_ERR_INVALID_OP, pos + i);
		return -EINVAL;
	}
	i += (int)strlen(ops[op]);
	while (isspace(str[i]))
		i++;
	s = i;

	pred = kmalloc(sizeof(*pred));
	if (!pred)
		return -ENOMEM;
	memset(pred, 0, sizeof(*pred));
	pred->kind = field_kind(field);
	pred->op = op;
	pred->offset = field->offset;
	pred->size = field->size;
	pred->is_signed = field->is_signed;

	if (str[i] == '\'' || str[i] == '"') {
		char q = str[i];

		if (op != OP_NE && op != OP_EQ && op != OP_GLOB) {
			parse_error(pe, FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			goto err;
		}
		pred->negate = op == OP_NE;
		if (!is_string_kind(pred->kind)) {
			parse_error(pe, FILT_ERR_EXPECT_DIGIT, pos + i);
			goto err;
		}
		for (i++; str[i] && str[i] != q; i++)
			;
		if (!str[i]) {
			parse_error(pe, FILT_ERR_MISSING_QUOTE, pos + i);
			goto err;
		}
		s++; /* past the opening quote */
		len = i - s;
		if (len >= MAX_FILTER_STR_VAL) {
			parse_error(pe, FILT_ERR_OPERAND_TOO_LONG, pos + i);
			goto err;
		}
		memcpy(pred->pattern, str + s, (size_t)len);
		pred->pattern[len] = '\0';
		pred->len = (unsigned int)len;
		filter_build_regex(pred);
		i++; /* past the closing quote */
	} else if (isdigit(str[i]) || str[i] == '-') {
		int ret;

		if (is_string_kind(pred->kind)) {
			parse_error(pe, FILT_ERR_EXPECT_STRING, pos + i);
			goto err;
		}
		if (op == OP_GLOB) {
			parse_error(pe, FILT_ERR_ILLEGAL_FIELD_OP, pos + i);
			goto err;
		}
		if (str[i] == '-')
			i++;
		while (isalnum(str[i])) /* 0xdeadbeef; a bad one is caught just below */
			i++;
		len = i - s;
		if (len >= NUM_BUF_LEN) {
			parse_error(pe, FILT_ERR_OPERAND_TOO_LONG, pos + i);
			goto err;
		}
		memcpy(num_buf, str + s, (size_t)len);
		num_buf[len] = '\0';
		if (pred->is_signed)
			ret = kstrtoll(num_buf, 0, (long long *)&pred->val);
		else
			ret = kstrtoull(num_buf, 0, &pred->val);
		if (ret) {
			parse_error(pe, FILT_ERR_ILLEGAL_INTVAL, pos + s);
			goto err;
		}
		pred->negate = op == OP_NE;
	} else {
		parse_error(pe, FILT_ERR_INVALID_VALUE, pos + i);
		goto err;
	}
	pred->fn = pred_fn_for(pred);
	*pred_ptr = pred;
	return i;
err:
	kfree(pred);
	return -EINVAL;
}

/* --- the expression --------------------------------------------------------------------------- */

/*
 * Before parsing, Linux checks the text's form as a whole: quotes closed, parentheses balanced.
 * Returns 0 and the deepest nesting in *parens, or an error with its column in pe.
 */
static int check_form(const char *str, int *parens, struct filter_parse_error *pe)
{
	int open = 1, max_open = 1; /* the whole text counts as one "(...)" */
	int i, quote = 0, last_quote = 0;

	for (i = 0; str[i]; i++) {
		if (isspace(str[i]))
			continue;
		if (quote) {
			if (str[i] == quote)
				quote = 0;
			continue;
		}
		if (str[i] == '\'' || str[i] == '"') {
			quote = str[i];
			last_quote = i;
		} else if (str[i] == '(') {
			if (++open > max_open)
				max_open = open;
		} else if (str[i] == ')') {
			if (open == 1) {
				parse_error(pe, FILT_ERR_TOO_MANY_CLOSE, i);
				return ERR_TOO_MANY_CLOSE;
			}
			open--;
		}
	}
	if (quote) {
		parse_error(pe, FILT_ERR_MISSING_QUOTE, last_quote);
		return ERR_MISSING_QUOTE;
	}
	if (open != 1) {
		/* The column: the '(' left open, found walking back (column 0 if it is first). */
		int level = open, col = 0;

		for (i--; i > 0; i--) {
			if (quote) {
				if (str[i] == quote)
					quote = 0;
			} else if (str[i] == '\'' || str[i] == '"') {
				quote = str[i];
			} else if (str[i] == ')') {
				level++;
			} else if (str[i] == '(') {
				if (level == open) {
					col = i;
					break;
				}
				level--;
			}
		}
		parse_error(pe, FILT_ERR_TOO_MANY_OPEN, col);
		return ERR_TOO_MANY_OPEN;
	}
	*parens = max_open;
	return 0;
}

/* The most predicates str can hold: each has an operator, one of these characters. */
static int max_preds(const char *str)
{
	int n = 1;

	for (; *str; str++)
		if (strchr("=<>~&", *str))
			n++;
	return n;
}

/* What an open parenthesis remembers on the stack. */
enum { INVERT = 1, PROCESS_AND = 2, PROCESS_OR = 4 };

/*
 * Entry n ends an operand of && (invert 0) or || (invert 1): the entry its target names
 * (the last one before this operand still waiting to learn where to jump) now jumps past n
 * when its result is invert, and n takes over that entry's old target.
 */
static void update_preds(struct prog_entry *prog, int n, int invert)
{
	int t = prog[n].target, s = prog[t].target;

	prog[t].when_to_branch = invert;
	prog[t].target = n;
	prog[n].target = s;
}

static void free_prog(struct prog_entry *prog)
{
	if (!prog)
		return;
	for (int i = 0; prog[i].pred; i++)
		kfree(prog[i].pred);
	kfree(prog);
}

/* The first pass: the text into prog[0..*np), each entry's raw target and branch. */
static int first_pass(const struct trace_event_call *call, const char *str, int nr_parens,
		      int nr_preds, struct prog_entry *prog, int *inverts, int *np,
		      struct filter_parse_error *pe)
{
	int *stack = kmalloc(((size_t)nr_parens + 1) * sizeof(*stack)), *top = stack;
	const char *ptr = str;
	int invert = 0, n = 0, ret = -EINVAL;

	if (!stack)
		return -ENOMEM;
	*top = 0;
	while (*ptr) {
		const char *next = ptr++;
		int len;

		if (isspace(*next))
			continue;
		if (*next == '(') {
			if (top - stack >= nr_parens)
				goto out; /* check_form counted them: cannot happen */
			*++top = invert;
			continue;
		}
		if (*next == '!' && next[1] != '=' && next[1] != '~') {
			invert = !invert;
			continue;
		}
		if (n >= nr_preds) {
			parse_error(pe, FILT_ERR_TOO_MANY_PREDS, (int)(next - str));
			goto out;
		}
		inverts[n] = invert;
		prog[n].target = n - 1;
		len = parse_pred(call, next, (int)(ptr - str), pe, &prog[n].pred);
		if (len < 0) {
			ret = len;
			goto out;
		}
		ptr = next + len;
		n++;

		/* After a predicate: ")", "&&", "||" or the end, nothing else. */
		ret = ERR_TOO_MANY_CLOSE; /* Linux's code for what goes wrong from here */
		for (;;) {
			next = ptr++;
			if (isspace(*next))
				continue;
			if ((*next == '&' || *next == '|') && next[1] == next[0]) {
				ptr++;
			} else if (*next != ')' && *next != '\0') {
				parse_error(pe, FILT_ERR_TOO_MANY_PREDS, (int)(next - str));
				goto out;
			}
			invert = *top & INVERT; /* a '!' covers one predicate or one "(...)" */
			if (*top & PROCESS_AND) { /* && binds first: join the pending one now */
				update_preds(prog, n - 1, invert);
				*top &= ~PROCESS_AND;
			}
			if (*next == '&') {
				*top |= PROCESS_AND;
				break;
			}
			if (*top & PROCESS_OR) {
				update_preds(prog, n - 1, !invert);
				*top &= ~PROCESS_OR;
			}
			if (*next == '|') {
				*top |= PROCESS_OR;
				break;
			}
			if (!*next)
				goto end;
			if (top == stack) {
				parse_error(pe, FILT_ERR_TOO_MANY_CLOSE, (int)(ptr - str));
				goto out;
			}
			top--; /* ")": the group is one operand of what encloses it */
		}
	}
	/*
	 * The text ended where an operand was due: after "&&", "||", "!" or "(" (or at once).
	 * The grammar is not finished: an && or || still waits to be joined, so the first
	 * pass left a target naming no entry (-1), which the second pass would follow out of
	 * the program. Linux 6.1 accepts a dangling && or || (and for "a && b || c &&" reads
	 * before its program); Lucid refuses it, with the sentence Linux's older parser gave
	 * for an operator without operands.
	 */
	if (n) {
		parse_error(pe, FILT_ERR_INVALID_FILTER, (int)(ptr - str));
		ret = -EINVAL;
		goto out;
	}
end:
	if (top != stack) {
		parse_error(pe, FILT_ERR_TOO_MANY_OPEN, (int)(ptr - str));
		goto out;
	}
	if (!n) {
		ret = -EINVAL;
		parse_error(pe, FILT_ERR_NO_FILTER, (int)(ptr - str));
		goto out;
	}
	ret = 0;
out:
	*np = n;
	kfree(stack);
	return ret;
}

static int process_preds(const struct trace_event_call *call, const char *str,
			 struct prog_entry **progp, struct filter_parse_error *pe)
{
	int nr_parens, nr_preds, n = 0, ret;
	struct prog_entry *prog;
	int *inverts;

	ret = check_form(str, &nr_parens, pe);
	if (ret)
		return ret;
	if (!str[strspn(str, " \t\n\v\f\r()")])
		return -EINVAL; /* nothing but blanks and parentheses: Linux says no more */
	nr_preds = max_preds(str);
	prog = kmalloc(((size_t)nr_preds + 2) * sizeof(*prog)); /* and TRUE and FALSE */
	inverts = kmalloc((size_t)nr_preds * sizeof(*inverts));
	if (!prog || !inverts) {
		kfree(prog);
		kfree(inverts);
		return -ENOMEM;
	}
	memset(prog, 0, ((size_t)nr_preds + 2) * sizeof(*prog));
	ret = first_pass(call, str, nr_parens, nr_preds, prog, inverts, &n, pe);
	if (ret)
		goto fail;

	/*
	 * A finished grammar leaves every entry but the last jumping forward inside the
	 * program (to a label l# of Linux's comment, # > i): the passes below follow these
	 * targets as indexes, so check it rather than trust it.
	 */
	for (int i = 0; i < n - 1; i++) {
		if (WARN_ON(prog[i].target <= i || prog[i].target >= n)) {
			ret = -EINVAL;
			goto fail;
		}
	}

	/* The ends: past the last entry is TRUE, one further FALSE. The last jumps to FALSE. */
	prog[n].pred = NULL;
	prog[n].target = 1;
	prog[n + 1].pred = NULL;
	prog[n + 1].target = 0;
	prog[n - 1].target = n;
	prog[n - 1].when_to_branch = 0;

	/*
	 * Second pass, from the end: a jump to an entry that branches on the same result goes
	 * straight to where that one goes (a chain of ||s to TRUE becomes one jump each).
	 */
	for (int i = n - 1; i--;) {
		int target = prog[i].target;

		if (prog[i].when_to_branch == prog[target].when_to_branch)
			prog[i].target = prog[target].target;
	}
	/* Third pass: the !s, folded into the branches. Every jump goes forward. */
	for (int i = 0; i < n; i++) {
		prog[i].when_to_branch ^= inverts[i];
		if (prog[i].target <= i) {
			ret = -EINVAL; /* cannot happen; a loop would hang the probe */
			goto fail;
		}
	}
	kfree(inverts);
	*progp = prog;
	return 0;
fail:
	kfree(inverts);
	free_prog(prog);
	return ret;
}

/* Linux's report: the text, then a caret under the column and the sentence. */
static char *filter_err_string(const char *str, const struct filter_parse_error *pe)
{
	int len = (int)strlen(str), pos = pe->lasterr_pos, size;
	char *buf;

	if (pos > len)
		pos = len;
	if (pos)
		pos++; /* Linux: "indexing is off by one" */
	size = len + pos + 128;
	buf = kmalloc((size_t)size);
	if (!buf)
		return NULL;
	if (pe->lasterr > 0)
		snprintf(buf, (size_t)size, "%s\n%*s\nparse_error: %s\n", str, pos, "^",
			 err_text[pe->lasterr]);
	else
		snprintf(buf, (size_t)size, "%s\nError: (%d)\n", str, pe->lasterr);
	return buf;
}

static char *dup_string(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = kmalloc(len);

	if (d)
		memcpy(d, s, len);
	return d;
}

int create_event_filter(const struct trace_event_call *call, const char *str, bool subsys,
			struct event_filter **filterp)
{
	return create_event_filter_tr(NULL, call, str, subsys, filterp);
}

/* tr: whose error_log hears of a refused filter (NULL: the top level's). */
int create_event_filter_tr(struct trace_array *tr, const struct trace_event_call *call,
			   const char *str, bool subsys, struct event_filter **filterp)
{
	struct filter_parse_error pe = {0, 0};
	struct event_filter *filter = kmalloc(sizeof(*filter));
	int ret;

	*filterp = NULL;
	if (!filter)
		return -ENOMEM;
	filter->prog = NULL;
	filter->single = NULL; /* an error's filter has no program: it matches everything */
	filter->needs_header = true;
	ret = process_preds(call, str, &filter->prog, &pe);
	if (ret == -ENOMEM) {
		kfree(filter);
		return ret;
	}
	if (ret && subsys)
		parse_error(&pe, FILT_ERR_BAD_SUBSYS_FILTER, 0);
	/* Linux's append_filter_err(): error_log's column is the parser's, not the file's + 1. */
	if (ret && pe.lasterr > 0)
		tracing_log_err(tr, "event filter parse error", str, err_text,
				(unsigned int)pe.lasterr, (unsigned int)pe.lasterr_pos);
	else if (ret)
		tracing_log_err(tr, "event filter parse error", str, err_text, FILT_ERR_ERRNO, 0);
	if (!ret)
		find_single_pred(filter);
	filter->filter_string = ret ? filter_err_string(str, &pe) : dup_string(str);
	if (!filter->filter_string) {
		free_event_filter(filter);
		return -ENOMEM;
	}
	*filterp = filter;
	return ret;
}

void free_event_filter(struct event_filter *filter)
{
	if (!filter)
		return;
	free_prog(filter->prog);
	kfree(filter->filter_string);
	kfree(filter);
}

/* --- matching --------------------------------------------------------------------------------- */

/*
 * A number field against val, as C compares two values of the field's type: both are read
 * as that type (val cut to its size, as Linux casts it), then widened to 64 bits, signed or not.
 */
static bool compare(int op, bool is_signed, uint64_t ua, uint64_t ub)
{
	int64_t a = (int64_t)ua, b = (int64_t)ub;

	switch (op) {
	case OP_EQ:
		return ua == ub;
	case OP_NE:
		return ua != ub;
	case OP_LT:
		return is_signed ? a < b : ua < ub;
	case OP_LE:
		return is_signed ? a <= b : ua <= ub;
	case OP_GT:
		return is_signed ? a > b : ua > ub;
	case OP_GE:
		return is_signed ? a >= b : ua >= ub;
	case OP_BAND:
		return (ua & ub) != 0;
	}
	return false;
}

/*
 * The value of size bytes at p (or val's low bytes), sign-extended if is_signed. The fields may
 * sit at any byte, so they are copied out; __builtin_memcpy of a constant size is one move,
 * where -ffreestanding's memcpy() is a call (a filter runs on every hit of its event).
 */
static uint64_t widen(const void *p, unsigned int size, bool is_signed)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		__builtin_memcpy(&u8, p, 1);
		return is_signed ? (uint64_t)(int64_t)(int8_t)u8 : u8;
	case 2:
		__builtin_memcpy(&u16, p, 2);
		return is_signed ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		__builtin_memcpy(&u32, p, 4);
		return is_signed ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	default:
		__builtin_memcpy(&u64, p, 8);
		return u64;
	}
}

static bool match_number(const struct filter_pred *pred, const void *field, unsigned int size)
{
	uint64_t val = pred->val; /* little-endian: its first bytes are its low ones */

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false; /* Linux's: a field of another size matches nothing */
	return compare(pred->op, pred->is_signed, widen(field, size, pred->is_signed),
		       widen(&val, size, pred->is_signed));
}

/* The string str (at most max bytes, NUL-terminated or not) against pred's pattern. */
static bool match_string(const struct filter_pred *pred, const char *str, unsigned int max)
{
	unsigned int len = (unsigned int)strnlen(str, max), plen = pred->len;
	char buf[MAX_FILTER_STR_VAL];
	bool m = false;

	switch (pred->match) {
	case MATCH_FULL:
		m = len == plen && memcmp(str, pred->pattern, len) == 0;
		break;
	case MATCH_FRONT_ONLY:
		m = len >= plen && memcmp(str, pred->pattern, plen) == 0;
		break;
	case MATCH_END_ONLY:
		m = len >= plen && memcmp(str + len - plen, pred->pattern, plen) == 0;
		break;
	case MATCH_MIDDLE_ONLY:
		for (unsigned int i = 0; !m && i + plen <= len; i++)
			m = memcmp(str + i, pred->pattern, plen) == 0;
		break;
	case MATCH_GLOB:
		/* glob_match wants a C string: the first MAX_FILTER_STR_VAL - 1 bytes of it */
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, str, len);
		buf[len] = '\0';
		m = glob_match(pred->pattern, buf);
		break;
	}
	return m != pred->negate;
}

static bool pred_match(const struct filter_pred *pred, const unsigned char *rec, unsigned int len)
{
	switch (pred->kind) {
	case FILTER_CPU: {
		int cpu = filter_current_cpu();

		return match_number(pred, &cpu, sizeof(cpu));
	}
	case FILTER_COMM:
		return match_string(pred, filter_current_comm(), FILTER_COMM_LEN);
	case FILTER_DYN_STRING: {
		uint32_t loc;
		unsigned int off, slen;

		if (pred->offset + sizeof(loc) > len)
			return false;
		memcpy(&loc, rec + pred->offset, sizeof(loc));
		off = loc & DATA_LOC_OFFSET_MASK;
		slen = loc >> DATA_LOC_LEN_SHIFT;
		if (off > len || slen > len - off)
			return false; /* not inside the record: no string to match */
		return match_string(pred, (const char *)rec + off, slen);
	}
	case FILTER_STATIC_STRING:
		if (pred->offset + pred->size > len)
			return false;
		/*
		 * "char buf[]", size 0 (ftrace:print's text): the string runs to the record's end.
		 * Linux 6.1 compares 0 bytes there (so "~ \"*x*\"" never matches); this is what
		 * a filter on a marker's text means.
		 */
		return match_string(pred, (const char *)rec + pred->offset,
				    pred->size ? pred->size : len - pred->offset);
	case FILTER_OTHER:
		if (pred->offset + pred->size > len)
			return false;
		return match_number(pred, rec + pred->offset, pred->size);
	}
	return false;
}

/*
 * A number field of a 1, 2, 4 or 8-byte type against the value, the usual predicate
 * ("id == 99999", "prev_pid > 0"): one function for each type, chosen when the predicate is
 * parsed (as Linux's filter_pred_64 and the rest), so that a hit reads the field as its own
 * type and compares without match_number's switches on size and sign (read as the narrow type,
 * compared as it: the same result as compare() of both widened).
 */
#define DEFINE_NUMBER_PRED(name, type)                                             \
	static bool name(const struct filter_pred *pred, const unsigned char *rec, \
			 unsigned int len)                                         \
	{                                                                          \
		type v, w = (type)pred->val;                                       \
                                                                                   \
		if (pred->offset + sizeof(type) > len)                             \
			return false;                                              \
		__builtin_memcpy(&v, rec + pred->offset, sizeof(type));            \
		switch (pred->op) {                                                \
		case OP_EQ:                                                        \
			return v == w;                                             \
		case OP_NE:                                                        \
			return v != w;                                             \
		case OP_LT:                                                        \
			return v < w;                                              \
		case OP_LE:                                                        \
			return v <= w;                                             \
		case OP_GT:                                                        \
			return v > w;                                              \
		case OP_GE:                                                        \
			return v >= w;                                             \
		case OP_BAND:                                                      \
			return (v & w) != 0;                                       \
		}                                                                  \
		return false;                                                      \
	}

DEFINE_NUMBER_PRED(filter_pred_s8, int8_t)
DEFINE_NUMBER_PRED(filter_pred_u8, uint8_t)
DEFINE_NUMBER_PRED(filter_pred_s16, int16_t)
DEFINE_NUMBER_PRED(filter_pred_u16, uint16_t)
DEFINE_NUMBER_PRED(filter_pred_s32, int32_t)
DEFINE_NUMBER_PRED(filter_pred_u32, uint32_t)
DEFINE_NUMBER_PRED(filter_pred_s64, int64_t)
DEFINE_NUMBER_PRED(filter_pred_u64, uint64_t)

static filter_pred_fn_t pred_fn_for(const struct filter_pred *pred)
{
	if (pred->kind != FILTER_OTHER)
		return pred_match;
	switch (pred->size) {
	case 1:
		return pred->is_signed ? filter_pred_s8 : filter_pred_u8;
	case 2:
		return pred->is_signed ? filter_pred_s16 : filter_pred_u16;
	case 4:
		return pred->is_signed ? filter_pred_s32 : filter_pred_u32;
	case 8:
		return pred->is_signed ? filter_pred_s64 : filter_pred_u64;
	}
	return pred_match; /* another size: match_number says no */
}

/* Does a predicate of this kind read the record (CPU and COMM read the running task)? */
static bool is_record_kind(enum filter_field_kind kind)
{
	return kind != FILTER_CPU && kind != FILTER_COMM;
}

/* Where the program goes for one predicate's result r: its keep (1) or drop (0). */
static int single_pred_outcome(const struct prog_entry *prog, bool r)
{
	int i = (int)r == prog[0].when_to_branch ? prog[0].target + 1 : 1;

	return prog[i].pred ? -1 : prog[i].target;
}

/*
 * A program of one predicate (the usual filter): filter_match_preds calls it directly, its
 * result kept or inverted, without the program's walk.
 */
static void find_single_pred(struct event_filter *filter)
{
	const struct prog_entry *prog = filter->prog;
	int if_false, if_true;

	filter->single = NULL;
	filter->needs_header = false;
	for (int i = 0; prog && prog[i].pred; i++)
		filter->needs_header |= is_record_kind(prog[i].pred->kind) &&
					prog[i].pred->offset < sizeof(struct trace_entry);
	if (!prog || !prog[0].pred || prog[1].pred)
		return;
	if_false = single_pred_outcome(prog, false);
	if_true = single_pred_outcome(prog, true);
	if (if_false < 0 || if_true < 0 || if_false == if_true)
		return;
	filter->single_invert = if_false;
	filter->single = prog[0].pred;
}

bool filter_match_preds(const struct event_filter *filter, const void *rec, unsigned int len)
{
	if (likely(filter && filter->single))
		return filter->single->fn(filter->single, rec, len) != filter->single_invert;
	return filter_run_prog(filter, rec, len);
}

static bool filter_run_prog(const struct event_filter *filter, const void *rec, unsigned int len)
{
	const struct prog_entry *prog;
	const struct filter_pred *pred;
	int i;

	if (!filter || !filter->prog)
		return true; /* no filter keeps everything */
	prog = filter->prog;
	for (i = 0; (pred = prog[i].pred); i++)
		if ((int)pred->fn(pred, rec, len) == prog[i].when_to_branch)
			i = prog[i].target;
	return prog[i].target;
}

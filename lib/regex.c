/*
 * A regex engine that cannot blow up: Thompson's construction plus a Thompson NFA simulation.
 *
 * Compiling: a recursive-descent parser turns the pattern into a graph of at most 256 states.
 * Each piece of pattern becomes a fragment with one entry state and one exit state whose "out"
 * is left open; concatenation links an exit to the next entry, and '*' '+' '?' '|' add a SPLIT
 * state (two ways to go) plus a NOP state as the fragment's single exit. That NOP costs a state
 * but keeps the construction simple: there is never a list of loose ends to patch.
 *
 * Matching: instead of backtracking (which takes exponential time on "(a*)*b"), we keep the SET of
 * states the NFA could be in and advance all of them together, one input character at a time.
 * A state is added at most once per step (a bitmap remembers which are in), so each character
 * costs O(states) and a whole search O(line length * states), whatever the pattern. Empty loops
 * like "()*" terminate for the same reason. The sets live on the stack (256 states fit in bytes).
 *
 * Not traced, like the rest of lib/ (built without -pg).
 */
#include "lib/regex.h"
#include "lib/alloc.h"
#include "lib/bitops.h"
#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <stdint.h>

enum {
	RE_CHAR, /* consume arg */
	RE_ANY, /* consume any character */
	RE_SET, /* consume a character in sets[arg] */
	RE_BOL, /* match at the start of the line only */
	RE_EOL, /* match at the end of the line only */
	RE_NOP, /* go on to out */
	RE_SPLIT, /* go on to both out and out1 */
	RE_MATCH,
};

/* Groups may nest this deep: the parser recurses once per level, on a small kernel stack. */
#define MAX_DEPTH 32

/* Tokens: what the next pattern character(s) mean in the current syntax. */
enum { T_END, T_ATOM, T_ALT, T_OPEN, T_CLOSE, T_STAR, T_PLUS, T_QUEST };

struct parser {
	const char *p;
	struct regex *re;
	bool ere;
	bool at_branch_start; /* BRE: '^' is an anchor only here */
	int depth;
};

struct frag {
	int start, end; /* end's out is still open */
};

static int token(const struct parser *ps, int *len)
{
	const char *ops = "|()*+?";
	const char *op;
	char c = ps->p[0];

	*len = 1;
	if (!c)
		return T_END;
	if (ps->ere || c == '*') {
		op = strchr(ops, c);
		return op ? T_ALT + (op - ops) : T_ATOM;
	}
	/* BRE: the same operators but written with a backslash (\* would be a literal star). */
	if (c == '\\' && ps->p[1] && ps->p[1] != '*' && (op = strchr(ops, ps->p[1]))) {
		*len = 2;
		return T_ALT + (op - ops);
	}
	return T_ATOM;
}

static int new_state(struct parser *ps, int op, int arg, int out, int out1)
{
	struct regex *re = ps->re;

	if (re->nstates == REGEX_MAX_STATES)
		return -EINVAL;
	re->states[re->nstates] = (struct re_state){op, arg, out, out1};
	return re->nstates++;
}

static void set_out(struct parser *ps, int from, int to)
{
	ps->re->states[from].out = to;
}

/* A fragment made of one state (its entry and exit at once). */
static int single(struct parser *ps, struct frag *f, int op, int arg)
{
	int s = new_state(ps, op, arg, 0, 0);

	f->start = f->end = s;
	return s < 0 ? s : 0;
}

/* "[:name:]" inside a bracket expression. */
static const struct {
	const char *name;
	bool (*is)(int c);
} named_sets[] = {
	{"alpha", isalpha},   {"digit", isdigit}, {"alnum", isalnum},
	{"space", isspace},   {"upper", isupper}, {"lower", islower},
	{"xdigit", isxdigit}, {"punct", ispunct}, {"print", isprint},
};

static int add_named_set(const char **pp, unsigned long *map)
{
	const char *name = *pp + 2, *end = strstr(name, ":]");

	if (!end)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(named_sets); i++) {
		if (strlen(named_sets[i].name) == (size_t)(end - name) &&
		    !strncmp(named_sets[i].name, name, end - name)) {
			for (int c = 1; c < 256; c++)
				if (named_sets[i].is(c))
					__set_bit((unsigned long)c, map);
			*pp = end + 2;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parses a bracket expression (ps->p is just past the '[') into a new set; POSIX: no escapes. */
static int parse_set(struct parser *ps, struct frag *f)
{
	struct regex *re = ps->re;
	unsigned long map[REGEX_SET_LONGS] = {0};
	bool negate = *ps->p == '^';
	const char *p = ps->p + negate;
	int err;

	for (bool first = true;; first = false) {
		unsigned char lo = *p, hi;

		if (!lo)
			return -EINVAL; /* no closing ']' */
		if (lo == ']' && !first)
			break;
		if (lo == '[' && p[1] == ':') {
			err = add_named_set(&p, map);
			if (err)
				return err;
			continue;
		}
		hi = lo;
		/* A range; but a '-' first or last is a member. */
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
			if (hi < lo)
				return -EINVAL;
		}
		p++;
		for (int c = lo; c <= hi; c++)
			__set_bit((unsigned long)c, map);
	}
	ps->p = p + 1;
	/* Fold case before negating, so that with -i "[^a]" rejects 'A' too. */
	for (int c = 0; c < 256 && (re->flags & REGEX_ICASE); c++) {
		if (test_bit((unsigned long)c, map)) {
			__set_bit((unsigned long)tolower(c), map);
			__set_bit((unsigned long)toupper(c), map);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(map) && negate; i++)
		map[i] = ~map[i];

	if (re->nsets == REGEX_MAX_STATES)
		return -EINVAL;
	unsigned long(*sets)[REGEX_SET_LONGS] =
		lib_realloc(re->sets, (re->nsets + 1) * sizeof(*sets));

	if (!sets)
		return -ENOMEM;
	re->sets = sets;
	memcpy(sets[re->nsets], map, sizeof(map));
	return single(ps, f, RE_SET, re->nsets++);
}

static int parse_alt(struct parser *ps, struct frag *f);

/* One atom: a character, '.', a set, an anchor or a parenthesised group. */
static int parse_atom(struct parser *ps, struct frag *f)
{
	int len, t = token(ps, &len);
	char c;

	if (t == T_OPEN) {
		int err;

		if (++ps->depth > MAX_DEPTH)
			return -EINVAL;
		ps->p += len;
		err = parse_alt(ps, f);
		if (err)
			return err;
		if (token(ps, &len) != T_CLOSE)
			return -EINVAL; /* unbalanced '(' */
		ps->p += len;
		ps->depth--;
		return 0;
	}
	/* A repetition with nothing before it to repeat is a literal, as in GNU grep. */
	c = ps->p[len - 1];
	ps->p += len;
	if (t != T_ATOM)
		goto literal;
	switch (c) {
	case '.':
		return single(ps, f, RE_ANY, 0);
	case '[':
		return parse_set(ps, f);
	case '^':
		if (ps->ere || ps->at_branch_start)
			return single(ps, f, RE_BOL, 0);
		break;
	case '$':
		/* In BRE '$' anchors only at the end of the pattern or of a group or branch. */
		t = token(ps, &len);
		if (ps->ere || t == T_END || t == T_CLOSE || t == T_ALT)
			return single(ps, f, RE_EOL, 0);
		break;
	case '\\':
		c = *ps->p++;
		if (!c)
			return -EINVAL; /* trailing backslash */
		break;
	}
literal:
	if (ps->re->flags & REGEX_ICASE)
		c = tolower((unsigned char)c);
	return single(ps, f, RE_CHAR, (unsigned char)c);
}

/* An atom followed by any number of '*', '+', '?'. */
static int parse_repeat(struct parser *ps, struct frag *f)
{
	/* BRE: "^*" is an anchor and a literal star, so the star is left for the next atom. */
	bool bre_anchor = !ps->ere && ps->at_branch_start && *ps->p == '^';
	int len, t, err = parse_atom(ps, f);

	if (err || bre_anchor)
		return err;
	while ((t = token(ps, &len)) == T_STAR || t == T_PLUS || t == T_QUEST) {
		int exit = new_state(ps, RE_NOP, 0, 0, 0);
		int split = new_state(ps, RE_SPLIT, 0, f->start, exit);

		if (exit < 0 || split < 0)
			return -EINVAL;
		ps->p += len;
		/* e* and e+ loop back to the split after e; e? goes on to the exit. */
		set_out(ps, f->end, t == T_QUEST ? exit : split);
		if (t != T_PLUS)
			f->start = split; /* e+ must pass through e once before the split */
		f->end = exit;
	}
	return 0;
}

/* A sequence of repeated atoms, up to '|', ')' or the end. An empty one matches the empty string. */
static int parse_concat(struct parser *ps, struct frag *f)
{
	int len, t, err;
	struct frag next;
	bool empty = true;

	ps->at_branch_start = true;
	while ((t = token(ps, &len)) != T_END && t != T_ALT && t != T_CLOSE) {
		err = parse_repeat(ps, empty ? f : &next);
		if (err)
			return err;
		ps->at_branch_start = false;
		if (!empty) {
			set_out(ps, f->end, next.start);
			f->end = next.end;
		}
		empty = false;
	}
	return empty ? single(ps, f, RE_NOP, 0) : 0;
}

/* Branches separated by '|'. */
static int parse_alt(struct parser *ps, struct frag *f)
{
	int len, err = parse_concat(ps, f);
	struct frag other;

	while (!err && token(ps, &len) == T_ALT) {
		ps->p += len;
		err = parse_concat(ps, &other);
		if (err)
			return err;
		int exit = new_state(ps, RE_NOP, 0, 0, 0);
		int split = new_state(ps, RE_SPLIT, 0, f->start, other.start);

		if (exit < 0 || split < 0)
			return -EINVAL;
		set_out(ps, f->end, exit);
		set_out(ps, other.end, exit);
		f->start = split;
		f->end = exit;
	}
	return err;
}

int regex_compile(struct regex *re, const char *pattern, int flags)
{
	struct parser ps = {pattern, re, flags & REGEX_EXTENDED, true, 0};
	struct frag f;
	int len, err, match;

	memset(re, 0, sizeof(*re));
	re->flags = flags;
	re->states = lib_alloc(REGEX_MAX_STATES * sizeof(*re->states));
	if (!re->states)
		return -ENOMEM;
	err = parse_alt(&ps, &f);
	if (!err && token(&ps, &len) != T_END)
		err = -EINVAL; /* an unbalanced ')' */
	if (!err) {
		match = new_state(&ps, RE_MATCH, 0, 0, 0);
		if (match < 0)
			err = match;
		else
			set_out(&ps, f.end, match);
	}
	if (err) {
		regex_free(re);
		return err;
	}
	re->start = f.start;
	return 0;
}

void regex_free(struct regex *re)
{
	lib_free(re->states);
	lib_free(re->sets);
	memset(re, 0, sizeof(*re));
}

/* The set of states the NFA is in, each a consuming state (CHAR, ANY, SET); MATCH sets matched. */
struct nfa_set {
	int n;
	bool matched;
	uint8_t ids[REGEX_MAX_STATES];
	unsigned long in[BITS_TO_LONGS(REGEX_MAX_STATES)]; /* already added in this step */
};

/*
 * Adds state id and everything reachable from it without consuming input (through NOP, SPLIT and
 * anchors that hold at pos). An explicit stack rather than recursion: each state is pushed at
 * most once, so it never holds more than REGEX_MAX_STATES entries.
 */
static void add_state(const struct regex *re, struct nfa_set *set, int id, const char *line,
		      const char *pos)
{
	uint8_t stack[REGEX_MAX_STATES];
	int sp = 0;

#define PUSH(s)                                                 \
	do {                                                    \
		if (!test_bit((unsigned long)(s), set->in)) {   \
			__set_bit((unsigned long)(s), set->in); \
			stack[sp++] = (s);                      \
		}                                               \
	} while (0)

	PUSH(id);
	while (sp) {
		const struct re_state *st = &re->states[stack[--sp]];

		switch (st->op) {
		case RE_NOP:
			PUSH(st->out);
			break;
		case RE_SPLIT:
			PUSH(st->out);
			PUSH(st->out1);
			break;
		case RE_BOL:
			if (pos == line)
				PUSH(st->out);
			break;
		case RE_EOL:
			if (!*pos)
				PUSH(st->out);
			break;
		case RE_MATCH:
			set->matched = true;
			break;
		default:
			set->ids[set->n++] = st - re->states;
			break;
		}
	}
#undef PUSH
}

static bool consumes(const struct regex *re, const struct re_state *st, unsigned char c)
{
	switch (st->op) {
	case RE_CHAR:
		return st->arg == ((re->flags & REGEX_ICASE) ? tolower(c) : c);
	case RE_ANY:
		return true;
	default: /* RE_SET */
		return test_bit(c, re->sets[st->arg]);
	}
}

bool regex_search(const struct regex *re, const char *line)
{
	struct nfa_set sets[2], *cur = &sets[0], *next = &sets[1];
	const char *p = line;

	if (!re->states)
		return false;
	memset(cur, 0, sizeof(*cur));
	add_state(re, cur, re->start, line, p);
	for (;; p++) {
		if (cur->matched)
			return true;
		if (!*p)
			return false;
		memset(next, 0, sizeof(*next));
		for (int i = 0; i < cur->n; i++) {
			const struct re_state *st = &re->states[cur->ids[i]];

			if (consumes(re, st, *p))
				add_state(re, next, st->out, line, p + 1);
		}
		/* A match may also start at the next character: this makes it a search. */
		add_state(re, next, re->start, line, p + 1);

		struct nfa_set *tmp = cur;

		cur = next;
		next = tmp;
	}
}

/* The shell's grammar: a lexer for bash's tokens and a parser that builds struct sh_line. */
#include <stddef.h>
#include <stdbool.h>
#include <limits.h>
#include "kernel/shell/sh_parse.h"
#include "kernel/mm/kmalloc.h"
#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

/*
 * The lexer cuts the line into tokens the way bash does: a word runs until an unquoted blank or
 * operator character, and quotes are only checked for balance here; they are removed later by
 * sh_expand_word(), together with the $? expansion, because $? must have the value it has when
 * the pipeline runs. An all-digit word touching '<' or '>' ("0>" in "echo 0> f") is not a word
 * but the fd that the redirection applies to, which is why "echo 0> f" and "echo 0 > f" differ.
 *
 * The parser reads one token ahead and follows the grammar
 *	line     = { pipeline ( ';' | newline | '&' | '&&' | '||' ) } [ pipeline ]
 *	pipeline = command { '|' command }
 *	command  = { word | redirection }	(at least one of either)
 * reporting the first unexpected token with bash's message. Arrays grow by one element per
 * krealloc: with the limits in sh_parse.h they stay short, and the code stays simple. A count is
 * raised only when its new element is in a state sh_line_free() can free, so that a failure at
 * any point is cleaned up by the caller's sh_line_free().
 */

enum tok_type {
	T_EOF,
	T_NEWLINE,
	T_WORD,
	T_IO_NUMBER, /* the digits of "2>f": the fd of the redirection that follows */
	T_PIPE,
	T_AND,
	T_OR,
	T_SEMI,
	T_AMP, /* "&": run the pipeline before it in the background */
	T_BAD, /* ";;", ";&", ";;&" (end a case item in bash) and ")": always a syntax error */
	T_LESS,
	T_GREAT,
	T_DGREAT,
	T_CLOBBER, /* ">|": bash's ">" that ignores noclobber, which we do not have */
	T_LESSAND,
	T_GREATAND,
	T_UNSUPPORTED, /* an operator bash has and we do not: "&", "(", "<<", ... */
};

struct token {
	enum tok_type type;
	const char *text; /* where it starts in the line */
	size_t len;
};

struct parser {
	const char *pos; /* the next byte to lex */
	struct token tok; /* the current token, not yet consumed */
	enum tok_type prev; /* the token before it */
	bool continues; /* the text ended with a backslash outside quotes: more is to come */
	struct sh_line *line;
};

/* Operators, longest first so that "&&" is not read as two "&". */
static const struct {
	const char *text;
	enum tok_type type;
} operators[] = {
	/* three bytes */
	{"&>>", T_UNSUPPORTED},
	{"<<<", T_UNSUPPORTED},
	{";;&", T_BAD},
	/* two */
	{"&&", T_AND},
	{"||", T_OR},
	{";;", T_BAD},
	{";&", T_BAD},
	{">>", T_DGREAT},
	{">|", T_CLOBBER},
	{">&", T_GREATAND},
	{"<&", T_LESSAND},
	{"<<", T_UNSUPPORTED},
	{"<>", T_UNSUPPORTED},
	{"&>", T_UNSUPPORTED},
	{"|&", T_UNSUPPORTED},
	/* one */
	{"|", T_PIPE},
	{";", T_SEMI},
	{"<", T_LESS},
	{">", T_GREAT},
	{"&", T_AMP},
	{"(", T_UNSUPPORTED},
	{")", T_BAD},
};

/* Bash's metacharacters: unquoted, they end a word. */
static bool is_meta(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '|' || c == '&' || c == ';' || c == '(' ||
	       c == ')' || c == '<' || c == '>';
}

static bool is_redirection(enum tok_type t)
{
	return t == T_LESS || t == T_GREAT || t == T_DGREAT || t == T_CLOBBER || t == T_LESSAND ||
	       t == T_GREATAND;
}

/* Build line->err from three pieces; a long word in the middle is cut to fit. */
static int fail(struct parser *p, int err, const char *head, const char *mid, size_t midlen,
		const char *tail)
{
	char *e = p->line->err;
	size_t n = strlcpy(e, head, SH_ERR_MAX);
	size_t tail_len = strlen(tail);

	if (n + midlen + tail_len >= SH_ERR_MAX)
		midlen = SH_ERR_MAX - 1 - n - tail_len;
	memcpy(e + n, mid, midlen);
	strlcpy(e + n + midlen, tail, SH_ERR_MAX - n - midlen);
	return err;
}

#define TOO_MANY(what, max) "sh: too many " what " (max " SH_STRINGIFY(max) ")"

static int fail_msg(struct parser *p, int err, const char *msg)
{
	return fail(p, err, msg, "", 0, "");
}

static int fail_nomem(struct parser *p)
{
	return fail(p, -ENOMEM, "sh: ", errno_text(ENOMEM), strlen(errno_text(ENOMEM)), "");
}

/*
 * The current token was not expected here; after_command says it follows a complete command.
 * An operator bash has and we lack is reported as unsupported, except "&" and "|&" where no
 * command precedes them ("a && &"), which bash also calls a syntax error.
 */
static int fail_unexpected(struct parser *p, bool after_command)
{
	struct token *t = &p->tok;
	bool ends_command = t->len && t->text[t->len - 1] == '&';

	if (t->type == T_UNSUPPORTED && (after_command || !ends_command))
		return fail(p, -EINVAL, "sh: `", t->text, t->len, "' is not supported");
	if (t->type == T_EOF || t->type == T_NEWLINE)
		return fail_msg(p, -EINVAL, "sh: syntax error near unexpected token `newline'");
	return fail(p, -EINVAL, "sh: syntax error near unexpected token `", t->text, t->len, "'");
}

/* The line ended where bash would have asked for more ("echo a |"): we cannot ask. */
static int fail_eof(struct parser *p)
{
	return fail_msg(p, -EINVAL, "sh: syntax error: unexpected end of file");
}

/*
 * "2" -> 2; -EINVAL if s is not all digits, -EBADF if the number does not fit in an int. Bash
 * reads digits before '<' or '>' as an fd only if they fit in an int ("99999999999>f" is a word
 * and a redirection of stdout); a number that fits but is past the fd table is a redirection
 * that fails when it runs ("sh: 999: Bad file descriptor"), not a syntax error.
 */
static int fd_number(const char *s, size_t len)
{
	long long fd = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit(s[i]))
			return -EINVAL;
		if (fd <= INT_MAX) /* stop growing before long long could overflow */
			fd = fd * 10 + (s[i] - '0');
	}
	return fd > INT_MAX ? -EBADF : (int)fd;
}

/* Scan a word starting at p->pos, checking that its quotes are closed. */
static int lex_word(struct parser *p)
{
	const char *s = p->pos;

	while (*s && !is_meta(*s)) {
		char c = *s++;

		if (c == '\\') {
			if (*s) /* a backslash at the very end stays a backslash */
				s++;
			else
				p->continues = true;
		} else if (c == '\'' || c == '"') {
			while (*s && *s != c) {
				if (c == '"' && *s == '\\' && s[1])
					s++; /* \" does not close a double-quoted string */
				s++;
			}
			if (!*s)
				return fail(p, -EINVAL,
					    "sh: unexpected EOF while looking for matching `", &c,
					    1, "'");
			s++;
		}
	}
	p->tok.type = T_WORD;
	p->tok.len = s - p->pos;
	/* Digits right before a redirection are its fd, except as the target of >& or <&. */
	if ((*s == '<' || *s == '>') && fd_number(p->tok.text, p->tok.len) >= 0 &&
	    p->prev != T_GREATAND && p->prev != T_LESSAND)
		p->tok.type = T_IO_NUMBER;
	p->pos = s;
	return 0;
}

/* Move to the next token. */
static int next(struct parser *p)
{
	const char *s = p->pos;

	p->prev = p->tok.type;
	for (;;) {
		if (*s == ' ' || *s == '\t')
			s++;
		else if (s[0] == '\\' && s[1] == '\n')
			s += 2; /* a line continuation is not even a word break */
		else
			break;
	}
	if (*s == '#') /* a comment, since we are where a word would start */
		while (*s && *s != '\n')
			s++;

	p->pos = s;
	p->tok.text = s;
	p->tok.len = 1;
	if (*s == '\0') {
		p->tok.type = T_EOF;
		p->tok.len = 0;
		return 0;
	}
	if (*s == '\n') {
		p->tok.type = T_NEWLINE;
		p->pos++;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(operators); i++) {
		size_t len = strlen(operators[i].text);

		if (strncmp(s, operators[i].text, len) == 0) {
			p->tok.type = operators[i].type;
			p->tok.len = len;
			p->pos += len;
			return 0;
		}
	}
	return lex_word(p);
}

/* Newlines may follow '|', '&&' and '||' in bash; skip them. */
static int next_skip_newlines(struct parser *p)
{
	int err;

	do {
		err = next(p);
	} while (!err && p->tok.type == T_NEWLINE);
	return err;
}

/* A kmalloc'd copy of the current token's text. */
static char *tok_dup(struct parser *p)
{
	char *s = kmalloc(p->tok.len + 1);

	if (s) {
		memcpy(s, p->tok.text, p->tok.len);
		s[p->tok.len] = '\0';
	}
	return s;
}

/* The current token should be a redirection operator; fd is the N typed before it, or -1. */
static int parse_redirection(struct parser *p, struct sh_command *cmd, int fd)
{
	struct token op = p->tok;
	struct sh_redir r = {.fd = fd, .target_fd = -1};
	struct sh_redir *redirs;
	int err;

	if (!is_redirection(op.type)) /* after "2<", an operator we lack: "2<<", "2<>" */
		return fail_unexpected(p, false);
	err = next(p);
	if (err)
		return err;
	if (p->tok.type != T_WORD)
		return fail_unexpected(p, false);

	switch (op.type) {
	case T_LESS:
		r.kind = SH_REDIR_IN;
		break;
	case T_DGREAT:
		r.kind = SH_REDIR_APPEND;
		break;
	case T_LESSAND:
	case T_GREATAND:
		r.kind = SH_REDIR_DUP;
		break;
	default:
		r.kind = SH_REDIR_OUT;
		break;
	}
	if (r.fd < 0)
		r.fd = (op.type == T_LESS || op.type == T_LESSAND) ? 0 : 1;

	if (r.kind == SH_REDIR_DUP) {
		/* The target is resolved now: it must be a plain number, as typed. */
		r.target_fd = fd_number(p->tok.text, p->tok.len);
		if (p->tok.len == 1 && p->tok.text[0] == '-')
			return fail(p, -EINVAL, "sh: `", op.text, op.len, "-' is not supported");
		if (r.target_fd == -EINVAL)
			return fail(p, -EINVAL, "sh: ", p->tok.text, p->tok.len,
				    ": ambiguous redirect");
		/* Too big for an fd (-EBADF): the redirection fails when it runs, as in bash. */
	}

	if (cmd->nredirs == SH_MAX_REDIRS)
		return fail_msg(p, -E2BIG, TOO_MANY("redirections in a command", SH_MAX_REDIRS));
	redirs = krealloc(cmd->redirs, (cmd->nredirs + 1) * sizeof(*redirs));
	if (!redirs)
		return fail_nomem(p);
	cmd->redirs = redirs;
	r.word = tok_dup(p); /* a dup's target too: its digits name it in an error */
	if (!r.word)
		return fail_nomem(p);
	cmd->redirs[cmd->nredirs++] = r;
	return next(p);
}

static int add_word(struct parser *p, struct sh_command *cmd)
{
	char **words, *word;

	if (cmd->argc == SH_MAX_WORDS)
		return fail_msg(p, -E2BIG, TOO_MANY("words in a command", SH_MAX_WORDS));
	words = krealloc(cmd->words, (cmd->argc + 1) * sizeof(*words));
	if (!words)
		return fail_nomem(p);
	cmd->words = words;
	word = tok_dup(p);
	if (!word)
		return fail_nomem(p);
	cmd->words[cmd->argc++] = word;
	return next(p);
}

static int parse_command(struct parser *p, struct sh_pipeline *pl)
{
	struct sh_command *cmds, *cmd;
	int err = 0;

	if (pl->ncmds == SH_MAX_CMDS)
		return fail_msg(p, -E2BIG, TOO_MANY("commands in a pipeline", SH_MAX_CMDS));
	cmds = krealloc(pl->cmds, (pl->ncmds + 1) * sizeof(*cmds));
	if (!cmds)
		return fail_nomem(p);
	pl->cmds = cmds;
	cmd = &pl->cmds[pl->ncmds++];
	*cmd = (struct sh_command){0};

	while (!err) {
		if (p->tok.type == T_WORD) {
			err = add_word(p, cmd);
		} else if (p->tok.type == T_IO_NUMBER) {
			int fd = fd_number(p->tok.text, p->tok.len); /* lex_word checked it */

			err = next(p);
			if (!err)
				err = parse_redirection(p, cmd, fd);
		} else if (is_redirection(p->tok.type)) {
			err = parse_redirection(p, cmd, -1);
		} else {
			break;
		}
	}
	if (!err && cmd->argc == 0 && cmd->nredirs == 0)
		return fail_unexpected(p, false);
	return err;
}

static int parse_pipeline(struct parser *p, enum sh_op op)
{
	struct sh_line *line = p->line;
	struct sh_pipeline *pls, *pl;
	int err;

	if (line->npipelines == SH_MAX_PIPELINES)
		return fail_msg(p, -E2BIG, TOO_MANY("pipelines on a line", SH_MAX_PIPELINES));
	pls = krealloc(line->pipelines, (line->npipelines + 1) * sizeof(*pls));
	if (!pls)
		return fail_nomem(p);
	line->pipelines = pls;
	pl = &line->pipelines[line->npipelines++];
	*pl = (struct sh_pipeline){.op = op};

	for (;;) {
		err = parse_command(p, pl);
		if (err || p->tok.type != T_PIPE)
			return err;
		err = next_skip_newlines(p);
		if (err)
			return err;
		if (p->tok.type == T_EOF)
			return fail_eof(p);
	}
}

static int parse_line(struct parser *p)
{
	struct sh_line *line = p->line;
	enum sh_op op = SH_OP_SEQ;
	int err = next_skip_newlines(p);

	while (!err) {
		if (p->tok.type == T_EOF)
			return op == SH_OP_SEQ ? 0 : fail_eof(p);
		err = parse_pipeline(p, op);
		if (err)
			return err;
		switch (p->tok.type) {
		case T_EOF:
			return 0;
		case T_SEMI:
		case T_NEWLINE:
			op = SH_OP_SEQ;
			break;
		case T_AMP:
			/* bash puts the whole "a && b" list in the background; we run pipelines. */
			if (line->pipelines[line->npipelines - 1].op != SH_OP_SEQ)
				return fail_msg(p, -EINVAL,
						"sh: `&' after `&&' or `||' is not supported");
			line->pipelines[line->npipelines - 1].background = true;
			op = SH_OP_SEQ;
			break;
		case T_AND:
			op = SH_OP_AND;
			break;
		case T_OR:
			op = SH_OP_OR;
			break;
		default:
			return fail_unexpected(p, true);
		}
		err = next_skip_newlines(p);
	}
	return err;
}

int sh_parse(struct sh_line *line, const char *text)
{
	struct parser p = {.pos = text, .tok.type = T_EOF, .line = line};

	*line = (struct sh_line){0};
	if (strnlen(text, SH_LINE_MAX + 1) > SH_LINE_MAX)
		return fail_msg(&p, -E2BIG, SH_MSG_LINE_TOO_LONG);
	return parse_line(&p);
}

bool sh_line_continues(const char *text)
{
	struct sh_line line;
	struct parser p = {.pos = text, .tok.type = T_EOF, .line = &line};

	/* Only the lexer runs: it allocates nothing, and knows quotes and comments. */
	while (!next(&p) && p.tok.type != T_EOF)
		;
	return p.continues;
}

/* Decimal digits of v into buf (at least 12 bytes); returns their number. */
static size_t format_int(char *buf, int v)
{
	char tmp[12];
	unsigned int u = v < 0 ? 0u - (unsigned int)v : (unsigned int)v;
	size_t n = 0, len = 0;

	do {
		tmp[n++] = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	return len;
}

/*
 * Bash's tilde expansion, for the one user Lucid has: the length of the tilde-prefix at the start
 * of word ("~" or "~root", up to the first '/' or ':') if it becomes SH_HOME, else 0. A prefix
 * with a quote in it is no user's name, so "~'x'" and "~\/" stay as typed, as in bash.
 */
static size_t tilde_prefix(const char *word)
{
	size_t n;

	if (word[0] != '~')
		return 0;
	n = strcspn(word + 1, "/:");
	if (n == 0 || (n == 4 && !strncmp(word + 1, "root", 4)))
		return n + 1;
	return 0;
}

char *sh_expand_word(const char *word, int status)
{
	char num[12];
	size_t numlen = format_int(num, status);
	size_t size = 1, tilde = tilde_prefix(word);
	char quote = 0; /* the quote we are inside, or 0 */
	char *out, *o;

	/* Each byte gives at most one byte, except "$?", which gives the number, and the ~. */
	for (const char *s = word; *s; s++)
		size += *s == '$' ? numlen : 1;
	size += tilde ? strlen(SH_HOME) : 0;
	out = kmalloc(size);
	if (!out)
		return NULL;

	o = out;
	if (tilde) {
		memcpy(o, SH_HOME, strlen(SH_HOME));
		o += strlen(SH_HOME);
		word += tilde;
	}
	for (; *word; word++) {
		char c = *word;

		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				*o++ = c;
		} else if (c == '$' && word[1] == '?') {
			memcpy(o, num, numlen);
			o += numlen;
			word++;
		} else if (c == '\\' && word[1] == '\n') {
			word++; /* a line continuation vanishes, even inside "..." */
		} else if (c == '\\' && word[1] && (!quote || strchr("\\\"$`", word[1]))) {
			*o++ = *++word; /* in "...", only these four lose their backslash */
		} else if (c == '"' && quote == '"') {
			quote = 0;
		} else if ((c == '"' || c == '\'') && !quote) {
			quote = c;
		} else {
			*o++ = c;
		}
	}
	*o = '\0';
	return out;
}

int sh_expand_pipeline(struct sh_pipeline *p, int status)
{
	for (int i = 0; i < p->ncmds; i++) {
		struct sh_command *cmd = &p->cmds[i];

		if (cmd->argv)
			for (int j = 0; j < cmd->argc; j++)
				kfree(cmd->argv[j]);
		kfree(cmd->argv);
		/* Zeroed, so that a failure half-way leaves NULLs for sh_line_free(). */
		cmd->argv = kzalloc((cmd->argc + 1) * sizeof(*cmd->argv));
		if (!cmd->argv)
			return -ENOMEM;
		for (int j = 0; j < cmd->argc; j++) {
			cmd->argv[j] = sh_expand_word(cmd->words[j], status);
			if (!cmd->argv[j])
				return -ENOMEM;
		}
		for (int j = 0; j < cmd->nredirs; j++) {
			struct sh_redir *r = &cmd->redirs[j];

			if (r->kind == SH_REDIR_DUP)
				continue; /* its target is a number, not a path */
			kfree(r->path);
			r->path = sh_expand_word(r->word, status);
			if (!r->path)
				return -ENOMEM;
		}
	}
	return 0;
}

static void free_command(struct sh_command *cmd)
{
	for (int i = 0; i < cmd->argc; i++) {
		kfree(cmd->words[i]);
		if (cmd->argv)
			kfree(cmd->argv[i]);
	}
	kfree(cmd->words);
	kfree(cmd->argv);
	for (int i = 0; i < cmd->nredirs; i++) {
		kfree(cmd->redirs[i].word);
		kfree(cmd->redirs[i].path);
	}
	kfree(cmd->redirs);
}

void sh_line_free(struct sh_line *line)
{
	for (int i = 0; i < line->npipelines; i++) {
		struct sh_pipeline *pl = &line->pipelines[i];

		for (int j = 0; j < pl->ncmds; j++)
			free_command(&pl->cmds[j]);
		kfree(pl->cmds);
	}
	kfree(line->pipelines);
	line->pipelines = NULL;
	line->npipelines = 0;
}

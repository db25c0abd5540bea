/* The shell's grammar: turns one typed line into pipelines, commands, words and redirections. */
#ifndef KERNEL_SH_PARSE_H
#define KERNEL_SH_PARSE_H

#include <stdbool.h>

/*
 * What is understood, with bash's meaning:
 *   words            echo hello world
 *   quotes           'literal $? \ *'   "only \\ \" \$ \` and \<newline> escape; $? expands"
 *   backslash        a\ b is one word "a b"; backslash-newline vanishes (a line continued:
 *                    see sh_line_continues()); a \ at the very end of the text stays a \
 *   $?               the exit status of the previous pipeline, also inside words: a$?b
 *   tilde            ~ and ~root at the start of a word, before a '/' or ':', are SH_HOME:
 *                    cd ~, cat ~/f, > ~/f; quoted ("~", '~', \~) or ~other, a ~ stays a ~
 *   comments         # starts a comment where a word could start: echo a#b #c prints a#b
 *   lists            a ; b     a && b     a || b     (left-associative, as in bash)
 *   background       a &       a | b & c    (the pipeline before '&' runs without waiting)
 *   pipelines        a | b | c
 *   redirections     <f  >f  >|f  >>f  N<f  N>f  N>>f  N>&M  N<&M  >&M  <&M
 *                    placed anywhere among the words: "> f echo hi" is valid; N and M are
 *                    fds if they fit in an int, as in bash (past the fd table, the
 *                    redirection fails when it runs: "sh: 999: Bad file descriptor")
 *   newlines         end a pipeline like ';' (the line editor never sends one)
 *
 * Deliberately not understood: globbing ('*' is a plain character, so echo *lock* needs no
 * quotes), variables other than $? (a '$' before anything else is a plain '$'), `...` and
 * $(...) (plain characters / unsupported '('), '&' after a && or || list, and the operators
 * ( ) << <<< <> &> &>> |& >&- <&-, which give "sh: `(' is not supported" rather than a
 * surprising meaning. Of tilde expansion only HOME's forms: ~+, ~- and "x=~" stay as typed.
 *
 * Two steps, because $? must be expanded when a pipeline is about to run, not when the line
 * is parsed ("false; echo $?" prints 1):
 *   1. sh_parse() checks the whole line and builds the structure below, keeping every word as
 *      typed (quotes and all). A syntax error anywhere means nothing on the line runs, as in an
 *      interactive bash.
 *   2. sh_expand_pipeline() is called just before each pipeline runs, with the status of the
 *      previous one: it fills argv[] and the redirection paths with quotes removed and $?
 *      replaced.
 *
 * How the caller runs a line:
 *
 *	struct sh_line line;
 *	if (sh_parse(&line, text)) {
 *		print(line.err);		// status becomes 2, like bash
 *	} else {
 *		for (i = 0; i < line.npipelines; i++) {
 *			struct sh_pipeline *p = &line.pipelines[i];
 *			if (!sh_should_run(p->op, status))
 *				continue;
 *			if (sh_expand_pipeline(p, status))
 *				...out of memory...
 *			status = run(p);	// argv[] and redirs of p->cmds[0 .. ncmds-1]
 *		}
 *	}
 *	sh_line_free(&line);
 *
 * Memory comes from kmalloc; sh_line_free() releases all of it, whatever state it is in.
 */

#define SH_HOME "/root" /* the shell's HOME: where a bare cd goes, what ~ expands to */
#define SH_LINE_MAX 4096 /* bytes in a line, not counting the NUL */
#define SH_MAX_WORDS 256 /* words in one command (redirections not counted) */
#define SH_MAX_REDIRS 16 /* redirections in one command */
#define SH_MAX_CMDS 16 /* commands in one pipeline */
#define SH_MAX_PIPELINES 64 /* pipelines in one line */
#define SH_ERR_MAX 160 /* size of sh_line.err */

#define SH_STRINGIFY_(x) #x
#define SH_STRINGIFY(x) SH_STRINGIFY_(x)

/* The message for a line over SH_LINE_MAX; the caller prints it for the line editor's too. */
#define SH_MSG_LINE_TOO_LONG "sh: line too long (max " SH_STRINGIFY(SH_LINE_MAX) " bytes)"

enum sh_redir_kind {
	SH_REDIR_IN, /* N<path: open path for reading as fd N */
	SH_REDIR_OUT, /* N>path: open for writing, create, truncate (O_TRUNC) */
	SH_REDIR_APPEND, /* N>>path: open for writing, create, append (O_APPEND) */
	SH_REDIR_DUP, /* N>&M or N<&M: fd N becomes a copy of fd M (dup2(M, N)) */
};

struct sh_redir {
	int fd; /* the fd redirected: N if typed, else 0 for < and <&, 1 for > >> >& */
	enum sh_redir_kind kind;
	int target_fd; /* SH_REDIR_DUP: the fd copied (-EBADF: past INT_MAX); -1 otherwise */
	char *word; /* the path as typed (quotes kept); SH_REDIR_DUP: the target's digits */
	char *path; /* the path expanded by sh_expand_pipeline(); NULL until then */
};

/*
 * A simple command. Redirections are kept in the order typed because the order matters:
 * ">f 2>&1" sends both outputs to f, "2>&1 >f" sends only stdout there. argc may be 0 for a
 * line like "> f", which only performs its redirections (and succeeds), as in bash.
 */
struct sh_command {
	int argc;
	char **words; /* argc words as typed */
	char **argv; /* argc expanded words + NULL, from sh_expand_pipeline(); else NULL */
	int nredirs;
	struct sh_redir *redirs;
};

/* How a pipeline is joined to the one before it; the first pipeline of a line has SH_OP_SEQ. */
enum sh_op {
	SH_OP_SEQ, /* ';' or newline: always run */
	SH_OP_AND, /* '&&': run if the status so far is 0 */
	SH_OP_OR, /* '||': run if the status so far is not 0 */
};

struct sh_pipeline {
	enum sh_op op;
	bool background; /* ended by '&' */
	int ncmds; /* at least 1 */
	struct sh_command *cmds;
};

struct sh_line {
	int npipelines; /* 0 for an empty or comment-only line */
	struct sh_pipeline *pipelines;
	char err[SH_ERR_MAX]; /* when sh_parse() fails: the message to print, "sh: ..." */
};

/*
 * Parse a NUL-terminated line. Returns 0, or -EINVAL (syntax error), -E2BIG (a limit above
 * exceeded) or -ENOMEM, with line->err set. Call sh_line_free() afterwards in every case.
 */
int sh_parse(struct sh_line *line, const char *text);

/* Expand the words and paths of p with $? = status. Returns 0 or -ENOMEM. May be repeated. */
int sh_expand_pipeline(struct sh_pipeline *p, int status);

/* One word as typed -> a kmalloc'd string with quotes removed and $? = status; NULL if no memory. */
char *sh_expand_word(const char *word, int status);

/*
 * Whether a pipeline joined by op runs, given the status of the last pipeline that ran. A
 * skipped pipeline leaves the status alone, which is what makes the lists left-associative:
 * in "false && a || b", a is skipped, the status stays 1, so b runs.
 */
static inline bool sh_should_run(enum sh_op op, int status)
{
	if (op == SH_OP_AND)
		return status == 0;
	if (op == SH_OP_OR)
		return status != 0;
	return true;
}

/*
 * Whether text ends with a backslash that escapes the end of the line (outside quotes and
 * comments): then, as bash, the shell prints its "> " prompt, reads the next line and parses the
 * two as one, joined by a newline, which the backslash then takes away ("echo a\", "b" is
 * "echo ab"). A line with an unclosed quote does not continue: sh_parse() reports it.
 */
bool sh_line_continues(const char *text);

/* Free everything sh_parse() and sh_expand_pipeline() allocated; line becomes empty. */
void sh_line_free(struct sh_line *line);

#endif

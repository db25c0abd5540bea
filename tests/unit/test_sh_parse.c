/* Unit tests for kernel/shell/sh_parse.c: what each line parses into, the errors, and out-of-memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/shell/sh_parse.h"
#include "lib/errno.h"
#include "tests/unit/host_kmalloc.h"

/*
 * A parsed and expanded line is written out in a compact form so that a table can say what each
 * line must become: words in brackets, then the redirections as fd, operator and path, commands
 * joined by " | ", pipelines by the operator before them. "echo 0> f" becomes "[echo] 0>f".
 */
static void dump(const struct sh_line *line, char *out, size_t size)
{
	static const char *const ops[] = {" ; ", " && ", " || "};
	static const char *const kinds[] = {"<", ">", ">>", ">&"};
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < line->npipelines; i++) {
		const struct sh_pipeline *p = &line->pipelines[i];

		if (i && !line->pipelines[i - 1].background)
			n += snprintf(out + n, size - n, "%s", ops[p->op]);
		for (int j = 0; j < p->ncmds; j++) {
			const struct sh_command *c = &p->cmds[j];

			if (j)
				n += snprintf(out + n, size - n, " | ");
			for (int k = 0; k < c->argc; k++)
				n += snprintf(out + n, size - n, "[%s]", c->argv[k]);
			assert_null(c->argv[c->argc]);
			for (int k = 0; k < c->nredirs; k++) {
				const struct sh_redir *r = &c->redirs[k];

				n += snprintf(out + n, size - n, " %d%s", r->fd, kinds[r->kind]);
				/* a dup's target past INT_MAX: its digits, after a '!' */
				if (r->kind == SH_REDIR_DUP && r->target_fd == -EBADF)
					n += snprintf(out + n, size - n, "!%s", r->word);
				else if (r->kind == SH_REDIR_DUP)
					n += snprintf(out + n, size - n, "%d", r->target_fd);
				else
					n += snprintf(out + n, size - n, "%s", r->path);
			}
		}
		if (p->background)
			n += snprintf(out + n, size - n, " & ");
	}
	assert_true(n < size);
}

/* Parse, expand every pipeline with $? = status, dump. Returns sh_parse's result. */
static int parse_and_dump(const char *text, int status, char *out, size_t size)
{
	struct sh_line line;
	int err = sh_parse(&line, text);

	out[0] = '\0';
	for (int i = 0; !err && i < line.npipelines; i++)
		err = sh_expand_pipeline(&line.pipelines[i], status);
	if (!err)
		dump(&line, out, size);
	sh_line_free(&line);
	assert_int_equal(host_kmalloc_live, 0);
	return err;
}

static const struct {
	const char *line;
	int status; /* $? when expanding */
	const char *want;
} good[] = {
	/* Words and blanks. */
	{"", 0, ""},
	{"   \t ", 0, ""},
	{"echo", 0, "[echo]"},
	{"echo hello world", 0, "[echo][hello][world]"},
	{"  echo \t a   b  ", 0, "[echo][a][b]"},
	{"cd /sys/kernel/debug/tracing", 0, "[cd][/sys/kernel/debug/tracing]"},
	/* Single quotes: everything literal. */
	{"echo 'a b'", 0, "[echo][a b]"},
	{"echo '$? \\ \" *'", 0, "[echo][$? \\ \" *]"},
	{"echo ''", 0, "[echo][]"},
	{"echo a'b'c", 0, "[echo][abc]"},
	{"echo '*lock*' > set_ftrace_filter", 0, "[echo][*lock*] 1>set_ftrace_filter"},
	{"echo 'a;b|c&&d>e'", 0, "[echo][a;b|c&&d>e]"},
	{"echo '#x'", 0, "[echo][#x]"},
	/* Double quotes: \\ \" \$ \` and \newline are escapes, other backslashes stay; $? expands. */
	{"echo \"a b\"", 0, "[echo][a b]"},
	{"echo \"\"", 0, "[echo][]"},
	{"echo \"a\\\\b\\\"c\\$d\\`e\"", 0, "[echo][a\\b\"c$d`e]"},
	{"echo \"a\\qb\\n\"", 0, "[echo][a\\qb\\n]"},
	{"echo \"a\\\nb\"", 0, "[echo][ab]"},
	{"echo \"it's\"", 0, "[echo][it's]"},
	{"echo 'say \"hi\"'", 0, "[echo][say \"hi\"]"},
	{"echo \"$?\"", 7, "[echo][7]"},
	{"echo \"\\$?\"", 7, "[echo][$?]"},
	{"echo \"x$?y\"", 42, "[echo][x42y]"},
	{"echo \"a;b | c\"", 0, "[echo][a;b | c]"},
	/* Backslash outside quotes. */
	{"echo a\\ b", 0, "[echo][a b]"},
	{"echo \\'x\\'", 0, "[echo]['x']"},
	{"echo \\\\", 0, "[echo][\\]"},
	{"echo \\>f", 0, "[echo][>f]"},
	{"echo \\;", 0, "[echo][;]"},
	{"echo \\#", 0, "[echo][#]"},
	{"echo a\\", 0, "[echo][a\\]"},
	{"echo a\\qb", 0, "[echo][aqb]"},
	{"echo a\\\nb", 0, "[echo][ab]"},
	{"echo a \\\n b", 0, "[echo][a][b]"},
	/* $? alone, in words, quoted; any other $ is a plain $. */
	{"echo $?", 0, "[echo][0]"},
	{"echo $?", 1, "[echo][1]"},
	{"echo $?", 255, "[echo][255]"},
	{"echo a$?b", 3, "[echo][a3b]"},
	{"echo $?$?", 12, "[echo][1212]"},
	{"echo '$?'", 5, "[echo][$?]"},
	{"echo \\$?", 5, "[echo][$?]"},
	{"echo $ $x $$ a$", 5, "[echo][$][$x][$$][a$]"},
	{"echo $'?'", 5, "[echo][$?]"},
	{"echo $?", -1, "[echo][-1]"},
	/* No globbing. */
	{"echo *", 0, "[echo][*]"},
	{"echo *lock*", 0, "[echo][*lock*]"},
	{"echo '*lock*'", 0, "[echo][*lock*]"},
	{"ls ?[a-z]*", 0, "[ls][?[a-z]*]"},
	/* Comments start only where a word starts. */
	{"# a comment", 0, ""},
	{"#", 0, ""},
	{"echo a # b c", 0, "[echo][a]"},
	{"echo a#b", 0, "[echo][a#b]"},
	{"echo a;#c", 0, "[echo][a]"},
	{"echo \"#\" '#'", 0, "[echo][#][#]"},
	{"echo a # ; | && '", 0, "[echo][a]"},
	/* Lists. */
	{"a; b", 0, "[a] ; [b]"},
	{"a;b;c", 0, "[a] ; [b] ; [c]"},
	{"a;", 0, "[a]"},
	{"a ; ", 0, "[a]"},
	{"a && b", 0, "[a] && [b]"},
	{"a &", 0, "[a] & "},
	{"a&b", 0, "[a] & [b]"},
	{"a | b & c ; d &", 0, "[a] | [b] & [c] ; [d] & "},
	{"a & b && c", 0, "[a] & [b] && [c]"},
	{"a&&b", 0, "[a] && [b]"},
	{"a || b", 0, "[a] || [b]"},
	{"false && echo a || echo b", 0, "[false] && [echo][a] || [echo][b]"},
	{"a; b && c || d; e", 0, "[a] ; [b] && [c] || [d] ; [e]"},
	{"echo 1 > tracing_on; run_test; echo 0 > tracing_on", 0,
	 "[echo][1] 1>tracing_on ; [run_test] ; [echo][0] 1>tracing_on"},
	/* Newlines end a pipeline; they may follow | && ||. */
	{"a\nb", 0, "[a] ; [b]"},
	{"\n\na\n\n", 0, "[a]"},
	{"a &&\n\nb", 0, "[a] && [b]"},
	{"a |\nb", 0, "[a] | [b]"},
	{"a;\nb", 0, "[a] ; [b]"},
	/* Pipelines. */
	{"a | b", 0, "[a] | [b]"},
	{"a|b|c", 0, "[a] | [b] | [c]"},
	{"cat trace | head -10", 0, "[cat][trace] | [head][-10]"},
	{"a | b | c && d | e", 0, "[a] | [b] | [c] && [d] | [e]"},
	/* Redirections, with bash's default fds. */
	{"echo hi > f", 0, "[echo][hi] 1>f"},
	{"echo hi >f", 0, "[echo][hi] 1>f"},
	{"echo hi >> f", 0, "[echo][hi] 1>>f"},
	{"echo hi >| f", 0, "[echo][hi] 1>f"},
	{"cmd 2>| f", 0, "[cmd] 2>f"},
	{"cat < f", 0, "[cat] 0<f"},
	{"cat <f", 0, "[cat] 0<f"},
	{"cmd 2> err", 0, "[cmd] 2>err"},
	{"cmd 2>> err", 0, "[cmd] 2>>err"},
	{"cmd 2>&1", 0, "[cmd] 2>&1"},
	{"cmd 2>& 1", 0, "[cmd] 2>&1"},
	{"echo hi >&2", 0, "[echo][hi] 1>&2"},
	{"cat <&3", 0, "[cat] 0>&3"},
	{"cat 0<&3", 0, "[cat] 0>&3"},
	{"cmd 3< in", 0, "[cmd] 3<in"},
	{"cmd 1>out", 0, "[cmd] 1>out"},
	{"cmd 12>f", 0, "[cmd] 12>f"},
	{"cmd > f 2>&1", 0, "[cmd] 1>f 2>&1"},
	{"cmd 2>&1 > f", 0, "[cmd] 2>&1 1>f"},
	{"cmd 2>&1>f", 0, "[cmd] 2>&1 1>f"},
	{"echo a >&2>f", 0, "[echo][a] 1>&2 1>f"},
	/*
	 * Any fd that fits in an int, as bash: one past the fd table fails when it runs ("sh: 999:
	 * Bad file descriptor"), not here. Digits past INT_MAX are a word, as in bash.
	 */
	{"echo x 999> f", 0, "[echo][x] 999>f"},
	{"echo x 256>f 2>&255", 0, "[echo][x] 256>f 2>&255"},
	{"echo x 2147483647> f", 0, "[echo][x] 2147483647>f"},
	{"echo x 2147483648> f", 0, "[echo][x][2147483648] 1>f"},
	{"echo 99999999999999999999>f", 0, "[echo][99999999999999999999] 1>f"},
	{"echo x 0002> f", 0, "[echo][x] 2>f"},
	{"echo >&256", 0, "[echo] 1>&256"},
	{"echo >&2147483647", 0, "[echo] 1>&2147483647"},
	{"echo >&2147483648", 0, "[echo] 1>&!2147483648"},
	{"echo 3>&99999999999999999999", 0, "[echo] 3>&!99999999999999999999"},
	/* "0>" touching the operator is an fd; "0 >" is a word then stdout. */
	{"echo 0> tracing_on", 0, "[echo] 0>tracing_on"},
	{"echo 0>tracing_on", 0, "[echo] 0>tracing_on"},
	{"echo 0 > tracing_on", 0, "[echo][0] 1>tracing_on"},
	{"echo 1>f", 0, "[echo] 1>f"},
	{"echo a0> f", 0, "[echo][a0] 1>f"},
	{"echo '0'> f", 0, "[echo][0] 1>f"},
	{"echo \\0> f", 0, "[echo][0] 1>f"},
	{"echo 0\\> f", 0, "[echo][0>][f]"},
	/* Anywhere among the words, and several of them. */
	{"> f echo hi", 0, "[echo][hi] 1>f"},
	{"echo > f hi", 0, "[echo][hi] 1>f"},
	{"< in > out cat", 0, "[cat] 0<in 1>out"},
	{"> f", 0, " 1>f"},
	{">f <g 2>>h", 0, " 1>f 0<g 2>>h"},
	{"cmd >a >b", 0, "[cmd] 1>a 1>b"},
	/* Paths are words too: quoted, escaped, expanded. */
	{"echo > 'a b'", 0, "[echo] 1>a b"},
	{"echo > \"f$?\"", 4, "[echo] 1>f4"},
	{"echo > out$?", 4, "[echo] 1>out4"},
	{"echo > '*'", 0, "[echo] 1>*"},
	/* A tilde-prefix at a word's start is HOME (bash's tilde expansion); quoted, it is a ~. */
	{"cd ~", 0, "[cd][/root]"},
	{"cat ~/f ~/", 0, "[cat][/root/f][/root/]"},
	{"echo ~root ~root/x ~:a ~root:b", 0, "[echo][/root][/root/x][/root:a][/root:b]"},
	{"echo a~ \"~\" '~' \\~ ~x ~\"root\" x~/y ~+ ~- ~\\/", 0,
	 "[echo][a~][~][~][~][~x][~root][x~/y][~+][~-][~/]"},
	{"echo ~$? ~/$?", 1, "[echo][~1][/root/1]"},
	{"echo x > ~/f 2>> ~; cat < ~/f", 0, "[echo][x] 1>/root/f 2>>/root ; [cat] 0</root/f"},
	{"echo \"~/a\" ~/'a b'", 0, "[echo][~/a][/root/a b]"},
	/* Redirections inside pipelines and lists. */
	{"a 2>&1 | b > f; c < g", 0, "[a] 2>&1 | [b] 1>f ; [c] 0<g"},
	{"echo nop>current_tracer&&cat trace|head -10", 0,
	 "[echo][nop] 1>current_tracer && [cat][trace] | [head][-10]"},
	/* Non-ASCII bytes and other characters are plain word bytes. */
	{"echo caf\xc3\xa9 {a} ! x=1 [", 0, "[echo][caf\xc3\xa9][{a}][!][x=1][[]"},
	{"echo a\rb", 0, "[echo][a\rb]"},
};

static void test_good_lines(void **state)
{
	char got[8192];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int err = parse_and_dump(good[i].line, good[i].status, got, sizeof(got));

		if (err || strcmp(got, good[i].want))
			fail_msg("line \"%s\": err %d, got \"%s\", want \"%s\"", good[i].line, err,
				 got, good[i].want);
	}
}

static const struct {
	const char *line;
	int err;
	const char *msg;
} bad[] = {
	/* Unclosed quotes. */
	{"echo 'a", -EINVAL, "sh: unexpected EOF while looking for matching `''"},
	{"echo \"a", -EINVAL, "sh: unexpected EOF while looking for matching `\"'"},
	{"echo \"a\\\"", -EINVAL, "sh: unexpected EOF while looking for matching `\"'"},
	{"echo \"a\\", -EINVAL, "sh: unexpected EOF while looking for matching `\"'"},
	{"echo 'it''s", -EINVAL, "sh: unexpected EOF while looking for matching `''"},
	{"echo \"'\" '\"", -EINVAL, "sh: unexpected EOF while looking for matching `''"},
	{"echo 'a\\'", 0, NULL}, /* no escapes in '...': closed */
	/* A redirection without its word. */
	{"echo >", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo >>", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"cat <", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo 2>", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo 2>&", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo > # f", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo >\nf", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo > ; a", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{"echo > | a", -EINVAL, "sh: syntax error near unexpected token `|'"},
	{"echo > > f", -EINVAL, "sh: syntax error near unexpected token `>'"},
	{"echo > >> f", -EINVAL, "sh: syntax error near unexpected token `>>'"},
	{"echo > 2>f", -EINVAL, "sh: syntax error near unexpected token `2'"},
	{"echo 2>&1>", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	/* Operators with a command missing. */
	{"| echo", -EINVAL, "sh: syntax error near unexpected token `|'"},
	{"echo | | cat", -EINVAL, "sh: syntax error near unexpected token `|'"},
	{"| |", -EINVAL, "sh: syntax error near unexpected token `|'"},
	{"echo a |;", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{";", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{"echo a;;", -EINVAL, "sh: syntax error near unexpected token `;;'"},
	{";;", -EINVAL, "sh: syntax error near unexpected token `;;'"},
	{"a;& b", -EINVAL, "sh: syntax error near unexpected token `;&'"},
	{"a ;;& b", -EINVAL, "sh: syntax error near unexpected token `;;&'"},
	{"echo a ;;; b", -EINVAL, "sh: syntax error near unexpected token `;;'"},
	{"a ; ; b", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{"a\n;", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{"a && || b", -EINVAL, "sh: syntax error near unexpected token `||'"},
	{"&& a", -EINVAL, "sh: syntax error near unexpected token `&&'"},
	{"|| a", -EINVAL, "sh: syntax error near unexpected token `||'"},
	{"a; && b", -EINVAL, "sh: syntax error near unexpected token `&&'"},
	{"a && ; b", -EINVAL, "sh: syntax error near unexpected token `;'"},
	{"a | && b", -EINVAL, "sh: syntax error near unexpected token `&&'"},
	/* The line ends where bash would ask for more. */
	{"a &&", -EINVAL, "sh: syntax error: unexpected end of file"},
	{"a ||", -EINVAL, "sh: syntax error: unexpected end of file"},
	{"a |", -EINVAL, "sh: syntax error: unexpected end of file"},
	{"a && # comment", -EINVAL, "sh: syntax error: unexpected end of file"},
	{"a |\n", -EINVAL, "sh: syntax error: unexpected end of file"},
	/* Dup targets must be fd numbers. */
	{"echo 2>&x", -EINVAL, "sh: x: ambiguous redirect"},
	{"echo 2>&1a", -EINVAL, "sh: 1a: ambiguous redirect"},
	{"echo >&file", -EINVAL, "sh: file: ambiguous redirect"},
	{"echo >&-", -EINVAL, "sh: `>&-' is not supported"},
	{"cat <&-", -EINVAL, "sh: `<&-' is not supported"},
	{"echo 2>&1x2", -EINVAL, "sh: 1x2: ambiguous redirect"},
	/* Bash operators this shell does not have. */
	{"a && b &", -EINVAL, "sh: `&' after `&&' or `||' is not supported"},
	{"a || b & c", -EINVAL, "sh: `&' after `&&' or `||' is not supported"},
	{"a & & b", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"a ; & b", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"a&&&b", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"& a", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"a | &", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"a ; |& b", -EINVAL, "sh: syntax error near unexpected token `|&'"},
	{"echo > &", -EINVAL, "sh: syntax error near unexpected token `&'"},
	{"(a)", -EINVAL, "sh: `(' is not supported"},
	{"echo a)", -EINVAL, "sh: syntax error near unexpected token `)'"},
	{")", -EINVAL, "sh: syntax error near unexpected token `)'"},
	{"a (b)", -EINVAL, "sh: `(' is not supported"},
	{"<< EOF cat", -EINVAL, "sh: `<<' is not supported"},
	{"&> f cmd", -EINVAL, "sh: `&>' is not supported"},
	{"echo $(date)", -EINVAL, "sh: `(' is not supported"},
	{"cat << EOF", -EINVAL, "sh: `<<' is not supported"},
	{"cat <<< word", -EINVAL, "sh: `<<<' is not supported"},
	{"cat <> f", -EINVAL, "sh: `<>' is not supported"},
	{"cat 0<> f", -EINVAL, "sh: `<>' is not supported"},
	{"cat 0<<EOF", -EINVAL, "sh: `<<' is not supported"},
	{"cat 0<<<w", -EINVAL, "sh: `<<<' is not supported"},
	{"cmd &> f", -EINVAL, "sh: `&>' is not supported"},
	{"cmd &>> f", -EINVAL, "sh: `&>>' is not supported"},
	{"a |& b", -EINVAL, "sh: `|&' is not supported"},
	/* The first error on the line is the one reported; nothing is half-parsed. */
	{"echo a; echo >", -EINVAL, "sh: syntax error near unexpected token `newline'"},
	{"echo a | | b; echo 'c", -EINVAL, "sh: syntax error near unexpected token `|'"},
};

static void test_bad_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sh_line line;
		int err = sh_parse(&line, bad[i].line);

		if (err != bad[i].err || (bad[i].msg && strcmp(line.err, bad[i].msg)))
			fail_msg("line \"%s\": err %d msg \"%s\", want %d \"%s\"", bad[i].line, err,
				 line.err, bad[i].err, bad[i].msg ? bad[i].msg : "");
		if (!err)
			assert_string_equal(line.err, "");
		sh_line_free(&line);
		assert_int_equal(line.npipelines, 0);
		assert_null(line.pipelines);
		assert_int_equal(host_kmalloc_live, 0);
	}
}

/* The words as typed are kept for later expansion, quotes and all. */
static void test_raw_words(void **state)
{
	struct sh_line line;
	struct sh_command *c;

	(void)state;
	assert_int_equal(sh_parse(&line, "echo 'a b' \"$?\"x >'f g' 2>&1"), 0);
	assert_int_equal(line.npipelines, 1);
	assert_int_equal(line.pipelines[0].op, SH_OP_SEQ);
	assert_int_equal(line.pipelines[0].ncmds, 1);
	c = &line.pipelines[0].cmds[0];
	assert_int_equal(c->argc, 3);
	assert_string_equal(c->words[0], "echo");
	assert_string_equal(c->words[1], "'a b'");
	assert_string_equal(c->words[2], "\"$?\"x");
	assert_null(c->argv);
	assert_int_equal(c->nredirs, 2);
	assert_int_equal(c->redirs[0].kind, SH_REDIR_OUT);
	assert_int_equal(c->redirs[0].fd, 1);
	assert_int_equal(c->redirs[0].target_fd, -1);
	assert_string_equal(c->redirs[0].word, "'f g'");
	assert_null(c->redirs[0].path);
	assert_int_equal(c->redirs[1].kind, SH_REDIR_DUP);
	assert_int_equal(c->redirs[1].fd, 2);
	assert_int_equal(c->redirs[1].target_fd, 1);
	assert_string_equal(c->redirs[1].word, "1");

	/* Expanding twice (a pipeline is expanded again each time it runs) must not leak. */
	assert_int_equal(sh_expand_pipeline(&line.pipelines[0], 0), 0);
	assert_string_equal(c->argv[2], "0x");
	assert_int_equal(sh_expand_pipeline(&line.pipelines[0], 130), 0);
	assert_string_equal(c->argv[1], "a b");
	assert_string_equal(c->argv[2], "130x");
	assert_null(c->argv[3]);
	assert_string_equal(c->redirs[0].path, "f g");
	assert_null(c->redirs[1].path);
	sh_line_free(&line);
	assert_int_equal(host_kmalloc_live, 0);
}

static void test_expand_word(void **state)
{
	static const struct {
		const char *word;
		int status;
		const char *want;
	} t[] = {
		{"", 0, ""},
		{"plain", 0, "plain"},
		{"$?", 2147483647, "2147483647"},
		{"$?", -2147483647 - 1, "-2147483648"},
		{"'$?'\"$?\"$?", 9, "$?99"},
		{"\"'$?'\"", 9, "'9'"},
		{"'\"'", 0, "\""},
		{"\\", 0, "\\"},
		{"$", 0, "$"},
		{"$?$", 1, "1$"},
		{"a\\\n", 0, "a"},
		{"'a\\\nb'", 0, "a\\\nb"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *s = sh_expand_word(t[i].word, t[i].status);

		assert_non_null(s);
		assert_string_equal(s, t[i].want);
		kfree(s);
	}
	host_kmalloc_fail_at = 1;
	assert_null(sh_expand_word("x", 0));
	assert_int_equal(host_kmalloc_live, 0);
}

/* Which texts go on on the next line (bash's "> " prompt), and what the lines join into. */
static void test_line_continues(void **state)
{
	static const struct {
		const char *text;
		bool continues;
	} t[] = {
		{"", false},
		{"echo a", false},
		{"echo a\\", true},
		{"echo a \\", true},
		{"\\", true},
		{"echo a\\\\", false}, /* an escaped backslash */
		{"echo a\\\\\\", true},
		{"echo a\\b", false},
		{"echo 'a\\'", false}, /* literal in single quotes, and the quote is closed */
		{"echo 'a\\", false}, /* an open quote: sh_parse() says so */
		{"echo \"a\\", false},
		{"echo \"a\\\"", false},
		{"echo a # b\\", false}, /* in a comment */
		{"echo a#b\\", true},
		{"echo a\\\n", false}, /* already continued */
		{"echo a\\\nb\\", true},
		{"echo a |\\", true},
		{"echo '\n'\\", true},
	};
	char out[128];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (sh_line_continues(t[i].text) != t[i].continues)
			fail_msg("\"%s\": continues should be %d", t[i].text, t[i].continues);
	}
	assert_int_equal(host_kmalloc_live, 0);
	/* The shell joins the lines with the newline the backslash escaped: bash's meaning. */
	assert_int_equal(parse_and_dump("echo a\\\nb", 0, out, sizeof(out)), 0);
	assert_string_equal(out, "[echo][ab]");
	assert_int_equal(parse_and_dump("echo a \\\n b \\\n| cat", 0, out, sizeof(out)), 0);
	assert_string_equal(out, "[echo][a][b] | [cat]");
	assert_int_equal(parse_and_dump("echo 'a b'\\\n\"c\" > f\\\n2", 0, out, sizeof(out)), 0);
	assert_string_equal(out, "[echo][a bc] 1>f2");
}

/*
 * The caller's loop from sh_parse.h, with three commands: true, false and echo (which appends
 * its words to out). This checks that $? is expanded when each pipeline runs, and that && and ||
 * are left-associative as in bash.
 */
static void run(const char *text, char *out)
{
	struct sh_line line;
	int status = 0;

	out[0] = '\0';
	assert_int_equal(sh_parse(&line, text), 0);
	for (int i = 0; i < line.npipelines; i++) {
		struct sh_pipeline *p = &line.pipelines[i];

		if (!sh_should_run(p->op, status))
			continue;
		assert_int_equal(sh_expand_pipeline(p, status), 0);
		for (int j = 0; j < p->ncmds; j++) {
			char **argv = p->cmds[j].argv;

			if (!strcmp(argv[0], "false")) {
				status = 1;
				continue;
			}
			status = 0;
			for (int k = 1; !strcmp(argv[0], "echo") && argv[k]; k++)
				strcat(strcat(out, argv[k]), " ");
		}
	}
	sh_line_free(&line);
}

static void test_run_order(void **state)
{
	static const char *const t[][2] = {
		{"false; echo $?", "1 "},
		{"echo $?; false; echo $?; echo $?", "0 1 0 "},
		{"false && echo a || echo b", "b "},
		{"true && echo a || echo b", "a "},
		{"true || echo a && echo b", "b "},
		{"false || false || echo c", "c "},
		{"false && echo a && echo b; echo $?", "1 "},
		{"false | true && echo ok", "ok "},
		{"true | false || echo $?", "1 "},
	};
	char out[256];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(t[i][0], out);
		if (strcmp(out, t[i][1]))
			fail_msg("\"%s\" printed \"%s\", want \"%s\"", t[i][0], out, t[i][1]);
	}
	assert_true(sh_should_run(SH_OP_SEQ, 1));
	assert_false(sh_should_run(SH_OP_AND, 1));
	assert_true(sh_should_run(SH_OP_OR, 1));
	assert_int_equal(host_kmalloc_live, 0);
}

/* A line of length len: "echo " then x's. */
static char *long_line(size_t len)
{
	char *s = malloc(len + 1);

	memset(s, 'x', len);
	memcpy(s, "echo ", 5);
	s[len] = '\0';
	return s;
}

/* pattern repeated n times, then tail. */
static char *repeat(const char *pattern, int n, const char *tail)
{
	size_t plen = strlen(pattern);
	char *s = malloc(plen * n + strlen(tail) + 1);

	for (int i = 0; i < n; i++)
		memcpy(s + i * plen, pattern, plen);
	strcpy(s + plen * n, tail);
	return s;
}

static void expect(char *text, int err, const char *msg)
{
	struct sh_line line;

	assert_int_equal(sh_parse(&line, text), err);
	if (msg)
		assert_string_equal(line.err, msg);
	sh_line_free(&line);
	assert_int_equal(host_kmalloc_live, 0);
	free(text);
}

static void test_limits(void **state)
{
	struct sh_line line;
	char *s;

	(void)state;
	/* A 4096-byte line is fine, 4097 and 5000 are not. */
	s = long_line(SH_LINE_MAX);
	assert_int_equal(sh_parse(&line, s), 0);
	assert_int_equal(strlen(line.pipelines[0].cmds[0].words[1]), SH_LINE_MAX - 5);
	sh_line_free(&line);
	free(s);
	expect(long_line(SH_LINE_MAX + 1), -E2BIG, "sh: line too long (max 4096 bytes)");
	expect(long_line(5000), -E2BIG, SH_MSG_LINE_TOO_LONG);
	/* A 5000-byte line is refused even when it would be a syntax error too. */
	expect(repeat("|", 5000, ""), -E2BIG, SH_MSG_LINE_TOO_LONG);

	/* One 4096-byte quoted word, with a $? to expand in it. */
	s = repeat("'a'", 1364, "$?\"");
	s[strlen(s) - 1] = '\0';
	assert_int_equal(strlen(s), 4094);
	assert_int_equal(sh_parse(&line, s), 0);
	assert_int_equal(sh_expand_pipeline(&line.pipelines[0], 123), 0);
	assert_int_equal(strlen(line.pipelines[0].cmds[0].argv[0]), 1364 + 3);
	sh_line_free(&line);
	free(s);

	/* Each limit: the maximum parses, one more is a clear error. */
	expect(repeat(" a", SH_MAX_WORDS, ""), 0, NULL);
	expect(repeat(" a", SH_MAX_WORDS + 1, ""), -E2BIG,
	       "sh: too many words in a command (max 256)");
	expect(repeat("a ", 2048, ""), -E2BIG, "sh: too many words in a command (max 256)");
	expect(repeat("a|", SH_MAX_CMDS - 1, "a"), 0, NULL);
	expect(repeat("a|", SH_MAX_CMDS, "a"), -E2BIG,
	       "sh: too many commands in a pipeline (max 16)");
	expect(repeat("a;", SH_MAX_PIPELINES, ""), 0, NULL);
	expect(repeat("a;", SH_MAX_PIPELINES, "a"), -E2BIG,
	       "sh: too many pipelines on a line (max 64)");
	expect(repeat("a&&", 1365, "a"), -E2BIG, "sh: too many pipelines on a line (max 64)");
	expect(repeat(">f", SH_MAX_REDIRS, ""), 0, NULL);
	expect(repeat(">f", SH_MAX_REDIRS + 1, ""), -E2BIG,
	       "sh: too many redirections in a command (max 16)");
	/* Unclosed after 4000 bytes, and an error message holding a very long word. */
	expect(repeat("x", 4000, "'"), -EINVAL,
	       "sh: unexpected EOF while looking for matching `''");
	s = repeat("x", 4000, "");
	s[0] = '>';
	s[1] = '&';
	assert_int_equal(sh_parse(&line, s), -EINVAL);
	assert_int_equal(strlen(line.err), SH_ERR_MAX - 1);
	assert_memory_equal(line.err, "sh: xxxx", 8);
	assert_string_equal(line.err + SH_ERR_MAX - 1 - 20, ": ambiguous redirect");
	sh_line_free(&line);
	free(s);
	/* 4000 digits: too big for an fd, so a word (as in bash), or a dup that fails when run. */
	expect(repeat("9", 4000, ">f"), 0, NULL);
	s = repeat("9", 4000, "");
	s[0] = '>';
	s[1] = '&';
	assert_int_equal(sh_parse(&line, s), 0);
	assert_int_equal(line.pipelines[0].cmds[0].redirs[0].target_fd, -EBADF);
	assert_string_equal(line.pipelines[0].cmds[0].redirs[0].word, s + 2);
	sh_line_free(&line);
	free(s);
}

/*
 * Fail the 1st allocation, then the 2nd, and so on, until a run needs no more than were allowed:
 * each failure must give -ENOMEM and leak nothing, and the run that succeeds must be right.
 */
static void test_out_of_memory(void **state)
{
	char got[8192];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		for (long n = 1;; n++) {
			struct sh_line line;
			int err;

			host_kmalloc_fail_at = n;
			err = sh_parse(&line, good[i].line);
			if (err) {
				assert_int_equal(err, -ENOMEM);
				assert_string_equal(line.err, "sh: Cannot allocate memory");
			}
			for (int j = 0; !err && j < line.npipelines; j++)
				err = sh_expand_pipeline(&line.pipelines[j], good[i].status);
			if (err)
				assert_int_equal(err, -ENOMEM);
			else
				dump(&line, got, sizeof(got));
			sh_line_free(&line);
			assert_int_equal(host_kmalloc_live, 0);
			if (host_kmalloc_fail_at) { /* fewer than n allocations: done */
				host_kmalloc_fail_at = 0;
				assert_int_equal(err, 0);
				assert_string_equal(got, good[i].want);
				break;
			}
		}
	}
	/* A line that fails late: the memory of what was parsed before is freed too. */
	for (long n = 1; n < 20; n++) {
		struct sh_line line;
		int err;

		host_kmalloc_fail_at = n;
		err = sh_parse(&line, "a b | c > d; e && f 2>&1 >");
		assert_true(err == -ENOMEM || err == -EINVAL);
		sh_line_free(&line);
		assert_int_equal(host_kmalloc_live, 0);
	}
	host_kmalloc_fail_at = 0;
}

/*
 * Random lines made of the characters the grammar cares about: whatever sh_parse() says, it
 * must not crash (ASan watches), must leave a message on failure, and must free everything.
 */
static void test_random_lines(void **state)
{
	static const char chars[] = " \t\n\\'\"$?#|&;<>()012a*-";
	unsigned int seed = 12345;
	char text[64], got[8192];
	struct sh_line line;
	int err;

	(void)state;
	for (int i = 0; i < 50000; i++) {
		int len = i % (int)sizeof(text);

		for (int j = 0; j < len; j++) {
			seed = seed * 1103515245 + 12345; /* the C standard's example rand() */
			text[j] = chars[(seed >> 16) % (sizeof(chars) - 1)];
		}
		text[len] = '\0';
		host_kmalloc_fail_at = i % 7 == 0 ? 1 + i % 13 : 0;
		err = sh_parse(&line, text);
		if (err) {
			assert_true(err == -EINVAL || err == -E2BIG || err == -ENOMEM);
			assert_memory_equal(line.err, "sh: ", 4);
		}
		for (int j = 0; !err && j < line.npipelines; j++) {
			err = sh_expand_pipeline(&line.pipelines[j], i);
			assert_true(err == 0 || err == -ENOMEM);
		}
		if (!err)
			dump(&line, got, sizeof(got));
		sh_line_free(&line);
		assert_int_equal(host_kmalloc_live, 0);
	}
	host_kmalloc_fail_at = 0;
}

/* A failed test leaves its allocations behind: start each test with a clean count. */
static int reset_heap(void **state)
{
	(void)state;
	host_kmalloc_live = 0;
	host_kmalloc_fail_at = 0;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_good_lines, reset_heap),
		cmocka_unit_test_setup(test_bad_lines, reset_heap),
		cmocka_unit_test_setup(test_raw_words, reset_heap),
		cmocka_unit_test_setup(test_expand_word, reset_heap),
		cmocka_unit_test_setup(test_line_continues, reset_heap),
		cmocka_unit_test_setup(test_run_order, reset_heap),
		cmocka_unit_test_setup(test_limits, reset_heap),
		cmocka_unit_test_setup(test_out_of_memory, reset_heap),
		cmocka_unit_test_setup(test_random_lines, reset_heap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

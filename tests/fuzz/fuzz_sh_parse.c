/*
 * Fuzzing the shell's parser (kernel/shell/sh_parse.c): random lines through sh_parse() and
 * sh_expand_pipeline(), the way kernel/shell/shell.c runs them.
 *
 * The first input byte is not part of the line: it picks the $? value and, for a quarter of the
 * inputs, which kmalloc fails, so the out-of-memory paths run as often as the normal ones.
 * Checked, besides ASan and UBSan's silence:
 *   - every limit of sh_parse.h holds in what the parser built, and argv[] ends with NULL;
 *   - a failure returns an errno and an "sh: " message, and any failure frees everything
 *     (host_kmalloc_live is back to 0 after sh_line_free());
 *   - sh_line_continues() only says so for a text ending in a backslash, and allocates nothing;
 *   - expanded words survive a round trip: each argv word, single-quoted, parses and expands
 *     back to itself. That is the property `xargs`-style quoting relies on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/shell/sh_parse.h"
#include "lib/errno.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/fuzz/fuzz_check.h"

/* The word in single quotes, a ' written as '\'' (close, escaped quote, reopen). */
static char *quote_word(const char *w)
{
	char *q = malloc(strlen(w) * 4 + 3), *o = q;

	*o++ = '\'';
	for (; *w; w++) {
		if (*w == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *w;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* Quote one command's argv, parse and expand it again: the same words must come back. */
static void check_round_trip(const struct sh_command *cmd)
{
	size_t len = 1;
	struct sh_line again;

	if (cmd->argc == 0)
		return;
	char **quoted = malloc(cmd->argc * sizeof(*quoted));
	for (int i = 0; i < cmd->argc; i++) {
		quoted[i] = quote_word(cmd->argv[i]);
		len += strlen(quoted[i]) + 1;
	}
	char *text = malloc(len), *o = text;
	for (int i = 0; i < cmd->argc; i++)
		o += sprintf(o, "%s%s", i ? " " : "", quoted[i]);

	if (len - 1 <= SH_LINE_MAX) {
		int err = sh_parse(&again, text);

		CHECK(err == 0);
		CHECK(again.npipelines == 1 && again.pipelines[0].ncmds == 1);
		CHECK(sh_expand_pipeline(&again.pipelines[0], 0) == 0);
		const struct sh_command *c = &again.pipelines[0].cmds[0];
		CHECK(c->argc == cmd->argc && c->nredirs == 0);
		for (int i = 0; i < c->argc; i++)
			CHECK(strcmp(c->argv[i], cmd->argv[i]) == 0);
		sh_line_free(&again);
	}
	for (int i = 0; i < cmd->argc; i++)
		free(quoted[i]);
	free(quoted);
	free(text);
}

static void check_command(const struct sh_command *cmd, bool expanded)
{
	CHECK(cmd->argc >= 0 && cmd->argc <= SH_MAX_WORDS);
	CHECK(cmd->nredirs >= 0 && cmd->nredirs <= SH_MAX_REDIRS);
	CHECK(cmd->argc + cmd->nredirs > 0);
	for (int i = 0; i < cmd->nredirs; i++) {
		const struct sh_redir *r = &cmd->redirs[i];

		CHECK(r->fd >= 0);
		if (r->kind == SH_REDIR_DUP) /* digits; past INT_MAX they fail when run */
			CHECK(r->word && r->word[strspn(r->word, "0123456789")] == '\0' &&
			      (r->target_fd >= 0 || r->target_fd == -EBADF) && !r->path);
		else
			CHECK(r->word && r->target_fd == -1 && (!expanded || r->path));
	}
	if (expanded) {
		CHECK(cmd->argv[cmd->argc] == NULL);
		for (int i = 0; i < cmd->argc; i++)
			CHECK(cmd->argv[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_line line;
	int status, err;

	if (size < 1)
		return 0;
	status = (int8_t)data[0] * 1000003; /* negative, zero, large: all print differently */
	host_kmalloc_fail_at = data[0] < 64 ? data[0] : 0;

	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0'; /* a NUL inside the input just ends the line early */

	err = sh_parse(&line, text);
	if (err) {
		CHECK(err == -EINVAL || err == -E2BIG || err == -ENOMEM);
		CHECK(strnlen(line.err, SH_ERR_MAX) < SH_ERR_MAX);
		CHECK(strncmp(line.err, "sh: ", 4) == 0);
	} else {
		CHECK(line.npipelines >= 0 && line.npipelines <= SH_MAX_PIPELINES);
		for (int i = 0; i < line.npipelines; i++) {
			struct sh_pipeline *p = &line.pipelines[i];

			CHECK(p->ncmds >= 1 && p->ncmds <= SH_MAX_CMDS);
			CHECK(i > 0 || p->op == SH_OP_SEQ);
			for (int j = 0; j < p->ncmds; j++)
				check_command(&p->cmds[j], false);
			if (sh_expand_pipeline(p, status))
				break; /* out of memory: the rest is sh_line_free()'s job */
			for (int j = 0; j < p->ncmds; j++)
				check_command(&p->cmds[j], true);
			/* Expanding twice (the shell never does) must not leak the first one. */
			if (i == 0 && sh_expand_pipeline(p, status + 1))
				break;
			if (!host_kmalloc_fail_at)
				for (int j = 0; j < p->ncmds; j++)
					check_round_trip(&p->cmds[j]);
		}
	}
	sh_line_free(&line);
	host_kmalloc_fail_at = 0;
	CHECK(host_kmalloc_live == 0);
	CHECK(line.npipelines == 0 && line.pipelines == NULL);

	/* A line continued (bash's "> "): it ends in a backslash, and asking allocates nothing. */
	if (sh_line_continues(text))
		CHECK(strlen(text) && text[strlen(text) - 1] == '\\');
	CHECK(host_kmalloc_live == 0);

	/* A word the parser never saw: sh_expand_word() alone must cope with anything. */
	char *w = sh_expand_word(text, status);
	/* "$?" is at most 11 characters, a leading "~" is SH_HOME */
	CHECK(w && strlen(w) <= 11 * strlen(text) + strlen(SH_HOME));
	kfree(w);
	CHECK(host_kmalloc_live == 0);
	free(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Flag uses: every tracked identifier (also inside comments and string
 * literals) with its context: declaration, flag_table, macro_def,
 * call_arg, initializer, assignment, string_table, comment or other.
 */
#include "analyzer/lexint.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_use(struct lexfile *lf, unsigned line, unsigned col,
		    int flag, const char *context, unsigned at)
{
	struct flag_use *u;

	if (lf->nuses == lf->uses_alloc) {
		lf->uses_alloc = lf->uses_alloc ? lf->uses_alloc * 2 : 32;
		lf->uses = xrealloc(lf->uses, lf->uses_alloc * sizeof(*u));
	}
	u = &lf->uses[lf->nuses++];
	memset(u, 0, sizeof(*u));
	u->line = line;
	u->col = col;
	u->flag = flag;
	u->context = context;
	u->function = lx_fn_name(lf, lf->toks[at].fn);
	u->disabled = lf->toks[at].disabled;
}

/* Tracked names inside a comment or string literal token. */
static void uses_in_text(struct lexfile *lf, unsigned i,
			 const struct tracked_flags *tf, const char *context)
{
	const struct tok *t = &lf->toks[i];
	const char *s = lf->buf + t->off;
	unsigned k = 0;

	while (k < t->len) {
		unsigned start;
		int f;

		if (!is_ident_start((unsigned char)s[k])) {
			if (s[k] >= '0' && s[k] <= '9')
				while (k < t->len &&
				       is_ident_char((unsigned char)s[k]))
					k++;
			else
				k++;
			continue;
		}
		start = k;
		while (k < t->len && is_ident_char((unsigned char)s[k]))
			k++;
		f = names_get(&tf->set, s + start, k - start);
		if (f >= 0) {
			unsigned line, col;

			lx_pos_of(lf, i, t->off + start, &line, &col);
			add_use(lf, line, col, f, context, i);
			lf->uses[lf->nuses - 1].macro = lx_define_name(lf, i);
		}
	}
}

/* The innermost call whose argument list holds token I: its name token. */
static int enclosing_call(const struct lexfile *lf, int i, int lo)
{
	int depth = 0, n = 0, j;

	for (j = lx_prev_code(lf, i); j >= lo && n < MAX_SCAN;
	     j = lx_prev_code(lf, j), n++) {
		if (lx_is_punct(lf, j, ")") || lx_is_punct(lf, j, "]")) {
			depth++;
		} else if (lx_is_punct(lf, j, "(") || lx_is_punct(lf, j, "[")) {
			int name;

			if (depth) {
				depth--;
				continue;
			}
			if (lx_is_punct(lf, j, "["))
				continue;
			name = lx_prev_code(lf, j);
			if (name < lo)
				return -1;
			if (lf->toks[name].kind == TK_IDENT)
				return name;
			if (lf->toks[name].kind == TK_KEYWORD &&
			    lx_is_control_kw(lf, name))
				return -1;
		} else if (!depth && (lx_is_punct(lf, j, ";") ||
				      lx_is_punct(lf, j, "{") ||
				      lx_is_punct(lf, j, "}"))) {
			return -1;
		}
	}
	return -1;
}

/* "initializer", "assignment" or NULL for the expression holding I. */
static const char *assign_context(const struct lexfile *lf, int i, int lo)
{
	int depth = 0, n = 0, j, k, pk;

	if (lf->toks[i].brace == BR_INIT)
		return "initializer";
	for (j = lx_prev_code(lf, i); j >= lo && n < MAX_SCAN;
	     j = lx_prev_code(lf, j), n++) {
		if (lx_is_punct(lf, j, ")") || lx_is_punct(lf, j, "]"))
			depth++;
		else if (lx_is_punct(lf, j, "(") || lx_is_punct(lf, j, "["))
			depth = depth ? depth - 1 : 0;
		else if (!depth && (lx_is_punct(lf, j, ";") || lx_is_punct(lf, j, "{") ||
				    lx_is_punct(lf, j, "}") || lx_is_punct(lf, j, ",")))
			return NULL;
		else if (!depth && lx_is_assign_op(lf, j))
			break;
	}
	if (j < lo || n >= MAX_SCAN)
		return NULL;
	if (!lx_tok_is(lf, (unsigned)j, "="))
		return "assignment";
	k = lx_prev_code(lf, j);
	if (k >= 0 && lx_is_punct(lf, k, "]"))
		k = lx_prev_code(lf, lx_match_back(lf, k));
	if (k < 0 || lf->toks[k].kind != TK_IDENT)
		return "assignment";
	pk = lx_prev_code(lf, k);
	if (pk >= 0 && lx_is_word(lf, pk) && !lx_is_control_kw(lf, pk))
		return "initializer"; /* gfp_t flags = ... */
	if (pk >= 0 && lx_is_punct(lf, pk, "*")) {
		int ppk = lx_prev_code(lf, pk);

		if (ppk >= 0 && lx_is_word(lf, ppk))
			return "initializer";
	}
	return "assignment";
}

/* {(unsigned long)GFP_TEMPORARY, "GFP_TEMPORARY"} or flag_string(X). */
static int is_flag_table(const struct lexfile *lf, int i, int call, int lo)
{
	const struct tok *t = &lf->toks[i];
	int j, n;

	if (call >= 0) {
		const struct tok *c = &lf->toks[call];
		const char *s = lf->buf + c->off;

		if (memmem(s, c->len, "flag", 4) &&
		    ((c->len > 7 && !memcmp(s + c->len - 7, "_string", 7)) ||
		     (c->len > 5 && !memcmp(s + c->len - 5, "_name", 5))))
			return 1;
	}
	for (j = i, n = 0; j >= lo && n < 16; j = lx_prev_code(lf, j), n++) {
		if (lx_is_punct(lf, j, "{")) {
			int k, m;

			for (k = lx_next_code(lf, j), m = 0; k >= 0 && m < 24;
			     k = lx_next_code(lf, k), m++) {
				const struct tok *s = &lf->toks[k];

				if (lx_is_punct(lf, k, "}"))
					break;
				if (s->kind == TK_LITERAL && s->len == t->len + 2 &&
				    !memcmp(lf->buf + s->off + 1,
					    lf->buf + t->off, t->len))
					return 1;
			}
			return 0;
		}
		if (lx_is_punct(lf, j, "}") || lx_is_punct(lf, j, ";"))
			return 0;
	}
	return 0;
}

/* Lowest token index context searches may go back to for token I. */
static int search_floor(const struct lexfile *lf, unsigned i)
{
	const struct tok *t = &lf->toks[i];

	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		return d->name >= 0 ? (int)d->body : (int)d->first;
	}
	return 0;
}

static const char *ident_context(struct lexfile *lf, unsigned i,
				 struct flag_use *u)
{
	const struct tok *t = &lf->toks[i];
	int lo = search_floor(lf, i), call, nx;
	char *mac = lx_define_name(lf, i);

	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		if (d->name == (int)i) {
			free(mac);
			return "declaration";
		}
		if (!mac)
			return "other"; /* #ifdef __GFP_MOVABLE and the like */
	}
	u->macro = mac;
	nx = lx_next_code(lf, (int)i);
	if (!mac && t->brace == BR_NONE && nx >= 0 && lx_is_punct(lf, nx, "(")) {
		int pv = lx_prev_code(lf, (int)i);

		if (pv >= 0 && (lx_is_word(lf, pv) || lx_is_punct(lf, pv, "*")))
			return "declaration"; /* int set_migrateflags(...) */
	}
	call = enclosing_call(lf, (int)i, lo);
	if (call >= 0)
		u->call = xstrndup(lf->buf + lf->toks[call].off,
				   lf->toks[call].len);
	if (is_flag_table(lf, (int)i, call, lo))
		return "flag_table";
	if (mac)
		return "macro_def";
	if (call >= 0)
		return "call_arg";
	return assign_context(lf, (int)i, lo) ?: "other";
}

void lx_find_uses(struct lexfile *lf, const struct tracked_flags *tf)
{
	unsigned i;

	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];
		int f;

		if (t->kind == TK_COMMENT) {
			uses_in_text(lf, i, tf, "comment");
			continue;
		}
		if (t->kind == TK_LITERAL) {
			if (memchr(lf->buf + t->off, '"', t->len))
				uses_in_text(lf, i, tf, "string_table");
			continue;
		}
		if (t->kind != TK_IDENT && t->kind != TK_KEYWORD)
			continue;
		f = names_get(&tf->set, lf->buf + t->off, t->len);
		if (f < 0)
			continue;
		add_use(lf, t->line, t->col, f, "other", i);
		lf->uses[lf->nuses - 1].context =
			ident_context(lf, i, &lf->uses[lf->nuses - 1]);
	}
}


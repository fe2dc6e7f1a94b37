// SPDX-License-Identifier: GPL-2.0
/*
 * Frees through a teardown helper of the same file (owner_wrapfree.h).
 * The helper's body is read as tokens: its parameters, the locals it
 * sets from them, and the arguments of its free calls, rewritten into
 * the caller's terms and compared as text with the caller's places.
 */
#include "analyzer/owner_wrapfree.h"
#include "analyzer/names.h"
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16
#define MAX_LOCALS 16
#define MAX_EXPAND 4

void place_norm(char *t)
{
	char *d = t, *s;
	int depth;

	for (s = t; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n')
			*d++ = *s;
	*d = 0;
	/* leading casts: `(type *)` followed by an operand */
	while (*t == '(') {
		char *e = t + 1;

		while (is_ident_char((unsigned char)*e) || *e == '*')
			e++;
		if (*e != ')' || e == t + 1 ||
		    !(is_ident_start((unsigned char)e[1]) || e[1] == '(' ||
		      e[1] == '&' || e[1] == '*'))
			break;
		memmove(t, e + 1, strlen(e + 1) + 1);
	}
	/* every index alike: a free in a loop names a[i], the store a[n] */
	for (d = s = t; *s; s++) {
		*d++ = *s;
		if (*s != '[')
			continue;
		for (depth = 1; s[1] && depth; s++)
			depth += (s[1] == '[') - (s[1] == ']');
		*d++ = ']';
		if (!*s)
			break;
	}
	*d = 0;
}

static void index_release(void *p)
{
	names_free(p);
	free(p);
}

/* The file's functions by name (first definition), once per TU. */
static const struct name_set *fn_index(struct walk_ctx *w)
{
	static const char key;
	const struct lexfile *lf = w->lf;
	struct name_set *s = tu_memo_get(w, &key);
	size_t i;

	if (s)
		return s;
	s = xcalloc(1, sizeof(*s));
	names_init(s);
	for (i = 0; i < lf->nfuncs; i++)
		if (names_get(s, lf->funcs[i].name,
			      strlen(lf->funcs[i].name)) < 0)
			names_put(s, lf->funcs[i].name,
				  strlen(lf->funcs[i].name), (int)i);
	tu_memo_put(w, &key, s, index_release);
	return s;
}

static int code_tok(const struct lexfile *lf, long i)
{
	return lf->toks[i].kind != TK_COMMENT && lf->toks[i].dir < 0;
}

/* The helper as the call sees it. */
struct helper {
	const struct lexfile *lf;
	const struct lex_func *fn;
	long param[MAX_PARAMS]; /* token of each parameter's name, or -1 */
	char *arg[MAX_PARAMS];	/* the call's argument, place_norm'd */
	int nparams;
	long local[MAX_LOCALS]; /* `q = expr;`: q's token */
	char *value[MAX_LOCALS];
	int nlocals;
};

/* Parameter names: the last name of each top-level part of the list. */
static void read_params(struct helper *h)
{
	const struct lexfile *lf = h->lf;
	long j = (long)h->fn->name_tok + 1, name = -1;
	int depth = 0;

	if (!lex_tok_is(lf, j, "("))
		return;
	for (j++; j < (long)h->fn->body_open && h->nparams < MAX_PARAMS;
	     j++) {
		if (!code_tok(lf, j))
			continue;
		if (lex_tok_is(lf, j, "(")) {
			depth++;
			name = -2; /* a function pointer: not followed */
		} else if (lex_tok_is(lf, j, ")") && depth) {
			depth--;
		} else if (!depth && (lex_tok_is(lf, j, ",") ||
				      lex_tok_is(lf, j, ")"))) {
			h->param[h->nparams++] = name;
			name = -1;
			if (lex_tok_is(lf, j, ")"))
				break;
		} else if (!depth && name != -2 &&
			   lf->toks[j].kind == TK_IDENT) {
			name = j;
		}
	}
	for (j = 0; j < h->nparams; j++)
		if (h->param[j] < 0)
			h->param[j] = -1;
}

/* `q = expr;` (or `T *q = expr;`) in the body, first of each name. */
static void read_locals(struct helper *h)
{
	const struct lexfile *lf = h->lf;
	long j, e, b = (long)h->fn->body_open, z = (long)h->fn->body_close;
	int i, depth;

	for (j = b + 1; j + 1 < z && h->nlocals < MAX_LOCALS; j++) {
		struct strbuf sb = STRBUF_INIT;

		if (lf->toks[j].kind != TK_IDENT || !code_tok(lf, j) ||
		    !lex_tok_is(lf, j + 1, "=") || lex_tok_is(lf, j - 1, ".") ||
		    lex_tok_is(lf, j - 1, "->") || lex_tok_is(lf, j - 1, "]"))
			continue;
		for (i = 0; i < h->nlocals; i++)
			if (lex_tok_eq(lf, h->local[i], lf->buf + lf->toks[j].off,
				   lf->toks[j].len))
				break;
		if (i < h->nlocals)
			continue;
		for (e = j + 2, depth = 0; e < z; e++) {
			if (lex_tok_is(lf, e, "(") || lex_tok_is(lf, e, "["))
				depth++;
			else if (lex_tok_is(lf, e, ")") ||
				 lex_tok_is(lf, e, "]"))
				depth--;
			else if (!depth && (lex_tok_is(lf, e, ";") ||
					    lex_tok_is(lf, e, ",")))
				break;
			if (code_tok(lf, e))
				sb_add(&sb, lf->buf + lf->toks[e].off,
				       lf->toks[e].len);
		}
		if (!sb.len) {
			sb_release(&sb);
			continue;
		}
		h->local[h->nlocals] = j;
		h->value[h->nlocals] = sb_detach(&sb);
		place_norm(h->value[h->nlocals++]);
	}
}

/* Is NAME declared or set in the body (a local, not a global)? */
static int body_local(const struct helper *h, const char *name, size_t n)
{
	const struct lexfile *lf = h->lf;
	long j;

	for (j = (long)h->fn->body_open + 1; j < (long)h->fn->body_close; j++)
		if (lex_tok_eq(lf, j, name, n) && code_tok(lf, j) &&
		    (lex_tok_is(lf, j + 1, "=") ||
		     ((lf->toks[j - 1].kind == TK_IDENT ||
		       lf->toks[j - 1].kind == TK_KEYWORD ||
		       lex_tok_is(lf, j - 1, "*")) &&
		      !lex_tok_is(lf, j - 1, "return"))))
			return 1;
	return 0;
}

char *place_join(const char *root, const char *rest)
{
	if (*root == '&' && !strncmp(rest, "->", 2))
		return xasprintf("%s.%s", root + 1, rest + 2);
	return xasprintf("%s%s", root, rest);
}

/* The helper's place T in the caller's terms, or NULL. */
static char *expand(const struct helper *h, const char *t, int level)
{
	const struct lexfile *lf = h->lf;
	size_t n = 0;
	int i;

	if (*t == '&') {
		char *x = expand(h, t + 1, level), *r;

		r = x ? xasprintf("&%s", x) : NULL;
		free(x);
		return r;
	}
	while (is_ident_char((unsigned char)t[n]))
		n++;
	if (!n)
		return NULL;
	for (i = 0; i < h->nparams; i++)
		if (h->param[i] >= 0 && h->arg[i] &&
		    lex_tok_eq(lf, h->param[i], t, n))
			return place_join(h->arg[i], t + n);
	for (i = 0; i < h->nlocals && level < MAX_EXPAND; i++)
		if (lex_tok_eq(lf, h->local[i], t, n)) {
			char *v = expand(h, h->value[i], level + 1), *r;

			if (!v)
				return NULL;
			r = place_join(v, t + n);
			free(v);
			return r;
		}
	return body_local(h, t, n) ? NULL : xstrdup(t);
}

static int helper_frees(struct walk_ctx *w, const struct helper *h,
			char **names, int n)
{
	const struct lexfile *lf = h->lf;
	long j;
	int i, hit = -1;

	for (j = (long)h->fn->body_open + 1;
	     hit < 0 && j < (long)h->fn->body_close; j++) {
		const struct alloc_fn *f;
		char *t, *x;

		if (lf->toks[j].kind != TK_IDENT || !lex_tok_is(lf, j + 1, "("))
			continue;
		f = alloc_lookup(w->allocs, lf->buf + lf->toks[j].off,
				 lf->toks[j].len);
		if (!f || f->kind != AK_FREE)
			continue;
		t = lex_arg_text(lf, j, f->ptr_arg);
		if (!t)
			continue;
		place_norm(t);
		x = expand(h, t, 0);
		for (i = 0; x && i < n && hit < 0; i++)
			if (!strcmp(x, names[i]))
				hit = i;
		free(x);
		free(t);
	}
	return hit;
}

int wrapper_frees(struct walk_ctx *w, long call, char **names, int n)
{
	const struct lexfile *lf = w->lf;
	struct helper h;
	int fi, i, hit;

	if (!w->allocs || lf->toks[call].kind != TK_IDENT)
		return -1;
	fi = names_get(fn_index(w), lf->buf + lf->toks[call].off,
		       lf->toks[call].len);
	if (fi < 0 || fi == lf->toks[call].fn)
		return -1; /* not a function of this file, or a recursion */
	memset(&h, 0, sizeof(h));
	h.lf = lf;
	h.fn = &lf->funcs[fi];
	read_params(&h);
	for (i = 0; i < h.nparams; i++)
		if ((h.arg[i] = lex_arg_text(lf, call, i)))
			place_norm(h.arg[i]);
	read_locals(&h);
	hit = helper_frees(w, &h, names, n);
	for (i = 0; i < h.nparams; i++)
		free(h.arg[i]);
	for (i = 0; i < h.nlocals; i++)
		free(h.value[i]);
	return hit;
}

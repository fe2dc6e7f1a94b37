// SPDX-License-Identifier: GPL-2.0
/*
 * Every hunk checked against its plan before it is written: the C tokens
 * an edit changes must be exactly the replacement the plan made (one
 * token into another, a flag and its `|` dropped, a flag added with `|`).
 * The edit functions are meant to guarantee that already; this is the
 * safety net that keeps a wrong hunk (6.1 mm/slab.c's `local_flags &
 * ~GFP_CONSTRAINT_MASK` rewritten into `local_flags & ~flags`, a dropped
 * flag leaving `gfp & ~0`) out of a series whatever the cause.  Pure.
 */
#include "patches/edit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ctok {
	const char *p;
	size_t n;
};

struct toks {
	struct ctok *t;
	int n, alloc;
};

static int ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* C tokens of s[0..len): comments, blanks and line splices aside. */
static void lex(const char *s, size_t len, struct toks *tk)
{
	static const char *const ops[] = {
		"<<=", ">>=", "...", "->", "++", "--", "<<", ">>",
		"<=",  ">=",  "==",  "!=", "&&", "||", "|=", "&=",
		"^=",  "+=",  "-=",  "*=", "/=", "%=", "##", NULL};
	size_t i = 0, k;
	int o;

	tk->n = 0;
	while (i < len) {
		size_t st = i;

		if (isspace((unsigned char)s[i]) ||
		    (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n')) {
			i++;
			continue;
		}
		if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			for (i += 2;
			     i + 1 < len && !(s[i] == '*' && s[i + 1] == '/');
			     i++)
				;
			i = i + 1 < len ? i + 2 : len;
			continue;
		}
		if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (ident(s[i])) {
			while (i < len &&
			       (ident(s[i]) ||
				(s[i] == '.' && isdigit((unsigned char)s[st]))))
				i++;
		} else if (s[i] == '"' || s[i] == '\'') {
			for (k = i + 1; k < len && s[k] != s[i] && s[k] != '\n';
			     k++)
				if (s[k] == '\\')
					k++;
			i = k < len ? k + 1 : len;
		} else {
			i++;
			for (o = 0; ops[o]; o++) {
				size_t n = strlen(ops[o]);

				if (st + n <= len &&
				    !memcmp(s + st, ops[o], n)) {
					i = st + n;
					break;
				}
			}
		}
		if (tk->n == tk->alloc) {
			tk->alloc = tk->alloc ? 2 * tk->alloc : 16;
			tk->t = xrealloc(tk->t,
					 (size_t)tk->alloc * sizeof(*tk->t));
		}
		tk->t[tk->n].p = s + st;
		tk->t[tk->n++].n = i - st;
	}
}

static int tok_is(const struct ctok *t, const char *s)
{
	return s && t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

static int tok_eq(const struct ctok *a, const struct ctok *b)
{
	return a->n == b->n && !memcmp(a->p, b->p, a->n);
}

/* Tokens a[0..an) equal b[0..bn)? */
static int same(const struct ctok *a, int an, const struct ctok *b, int bn)
{
	int i;

	if (an != bn)
		return 0;
	for (i = 0; i < an; i++)
		if (!tok_eq(&a[i], &b[i]))
			return 0;
	return 1;
}

/* "a b c" of tokens t[0..n), cut to fit. */
static void show(char *dst, size_t size, const struct ctok *t, int n)
{
	size_t len = 0;
	int i;

	dst[0] = '\0';
	for (i = 0; i < n && len + 4 < size; i++) {
		int w = snprintf(dst + len, size - len, "%s%.*s", i ? " " : "",
				 (int)t[i].n, t[i].p);

		if (w < 0 || (size_t)w >= size - len) {
			snprintf(dst + (size > 4 ? size - 4 : 0),
				 size > 4 ? 4 : size, "...");
			return;
		}
		len += (size_t)w;
	}
}

/*
 * The characters around buf[s, t) (blanks aside) let an operand stand
 * alone there: a dropped flag becomes `0` only where it was the whole
 * mask of an argument, assignment, return or `|` operand, never where an
 * operator binds it (`~FLAG`, `gfp & FLAG`).
 */
static int stands_alone(const char *buf, size_t len, size_t s, size_t t)
{
	size_t a = s, b = t, w;

	while (a > 0 && isspace((unsigned char)buf[a - 1]))
		a--;
	while (b < len && isspace((unsigned char)buf[b]))
		b++;
	if (a > 0 && ident(buf[a - 1])) {
		for (w = a; w > 0 && ident(buf[w - 1]); w--)
			;
		if (a - w != 6 || memcmp(buf + w, "return", 6))
			return 0;
	} else if (a > 0 && !strchr("(,=?:", buf[a - 1]) &&
		   !(buf[a - 1] == '|' && (a < 2 || buf[a - 2] != '|'))) {
		return 0;
	}
	if (b < len && !strchr("),;?:", buf[b]) &&
	    !(buf[b] == '|' && (b + 1 >= len || buf[b + 1] != '|')))
		return 0;
	return 1;
}

int edit_check(const char *buf, size_t len, size_t s, size_t t,
	       const char *text, size_t tlen, const struct edit *e, char *why,
	       size_t whylen)
{
	struct toks ot = {NULL, 0, 0}, nt = {NULL, 0, 0};
	const struct ctok *a, *b;
	char was[96], now[96];
	int p = 0, an, bn, ok = 0;

	lex(buf + s, t - s, &ot);
	lex(text, tlen, &nt);
	if (e->kind == EDIT_ARG_ADD) {
		struct ctok tail[3] = {
			{")", 1}, {"|", 1}, {e->to, strlen(e->to)}};

		ok = same(ot.t, ot.n, nt.t, nt.n) ||
		     (ot.n == 1 && tok_is(&ot.t[0], "0") && nt.n == 1 &&
		      tok_is(&nt.t[0], e->to)) ||
		     (nt.n == ot.n + 2 && same(ot.t, ot.n, nt.t, ot.n) &&
		      same(tail + 1, 2, nt.t + ot.n, 2)) ||
		     (nt.n == ot.n + 4 && tok_is(&nt.t[0], "(") &&
		      same(ot.t, ot.n, nt.t + 1, ot.n) &&
		      same(tail, 3, nt.t + ot.n + 1, 3));
		a = ot.t;
		an = ot.n;
		b = nt.t;
		bn = nt.n;
	} else {
		/* What differs between the common head and the common tail. */
		while (p < ot.n && p < nt.n && tok_eq(&ot.t[p], &nt.t[p]))
			p++;
		an = ot.n - p;
		bn = nt.n - p;
		while (an && bn &&
		       tok_eq(&ot.t[p + an - 1], &nt.t[p + bn - 1])) {
			an--;
			bn--;
		}
		a = ot.t + p;
		b = nt.t + p;
		if (e->kind == EDIT_ARG_PARAM)
			ok = an == 1 && bn == 1 && tok_is(&a[0], e->mask) &&
			     tok_is(&b[0], e->to);
		else if (e->kind == EDIT_TOKEN && e->to)
			ok = an == 1 && bn == 1 && tok_is(&a[0], e->from) &&
			     tok_is(&b[0], e->to);
		else if (e->kind == EDIT_TOKEN)
			ok = (an == 2 && !bn &&
			      ((tok_is(&a[0], e->from) && tok_is(&a[1], "|")) ||
			       (tok_is(&a[0], "|") &&
				tok_is(&a[1], e->from)))) ||
			     (an == 1 && bn == 1 && tok_is(&a[0], e->from) &&
			      tok_is(&b[0], "0") &&
			      stands_alone(buf, len, s, t));
	}
	if (!ok) {
		show(was, sizeof(was), a, an);
		show(now, sizeof(now), b, bn);
		if (e->kind == EDIT_ARG_PARAM ||
		    (e->kind == EDIT_TOKEN && e->to))
			snprintf(why, whylen,
				 "the hunk changes '%s' into '%s', the plan "
				 "'%s' into '%s'",
				 was, now,
				 e->kind == EDIT_ARG_PARAM && e->mask ? e->mask
								      : e->from,
				 e->to);
		else
			snprintf(why, whylen,
				 "the hunk changes '%s' into '%s', the plan "
				 "%s %s",
				 was, now,
				 e->kind == EDIT_ARG_ADD ? "adds | " : "drops",
				 e->kind == EDIT_ARG_ADD ? e->to : e->from);
	}
	free(ot.t);
	free(nt.t);
	return ok ? 0 : -1;
}

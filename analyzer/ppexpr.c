// SPDX-License-Identifier: GPL-2.0
/*
 * Recursive-descent evaluator of C constant expressions, following the C
 * operator precedence.  Casts to integer types (`(__force gfp_t)`,
 * `(unsigned long)`, `(slab_flags_t __force)`) are skipped; BIT(),
 * BIT_ULL(), _BITUL() and IS_ENABLED() & co. are understood.
 */
#include "analyzer/ppexpr.h"
#include "analyzer/names.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lx {
	const char *s, *end;
	struct pp_eval *e;
	int bad;
};

struct val {
	int known;
	unsigned long long v;
};

static const char *const type_words[] = {
	"gfp_t", "slab_flags_t", "unsigned", "signed", "int", "long",
	"short", "char", "__force", "u8", "u16", "u32", "u64", "__u32",
	"__u64", "size_t", "uint", "unsigned_long", NULL,
};

static void skip_ws(struct lx *l)
{
	while (l->s < l->end) {
		if (*l->s == ' ' || *l->s == '\t' || *l->s == '\n' ||
		    *l->s == '\r' || *l->s == '\f' || *l->s == '\v')
			l->s++;
		else if (*l->s == '\\' && l->s + 1 < l->end &&
			 (l->s[1] == '\n' || l->s[1] == '\r'))
			l->s += 2;
		else
			break;
	}
}

static int peek(struct lx *l, const char *op)
{
	size_t n = strlen(op);

	skip_ws(l);
	return (size_t)(l->end - l->s) >= n && !memcmp(l->s, op, n);
}

static int accept(struct lx *l, const char *op)
{
	if (!peek(l, op))
		return 0;
	l->s += strlen(op);
	return 1;
}

static size_t ident_len(struct lx *l)
{
	const char *p = l->s;

	skip_ws(l);
	p = l->s;
	if (p >= l->end || !is_ident_start((unsigned char)*p))
		return 0;
	while (p < l->end && is_ident_char((unsigned char)*p))
		p++;
	return (size_t)(p - l->s);
}

static int is_type_word(const char *s, size_t n)
{
	int i;

	for (i = 0; type_words[i]; i++)
		if (strlen(type_words[i]) == n && !memcmp(type_words[i], s, n))
			return 1;
	return 0;
}

static struct val expr(struct lx *l);

/* "(type words)" at l->s: skip it and return 1. */
static int skip_cast(struct lx *l)
{
	const char *save = l->s;
	int words = 0;

	if (!accept(l, "("))
		return 0;
	for (;;) {
		size_t n = ident_len(l);

		if (n && is_type_word(l->s, n)) {
			l->s += n;
			words++;
			continue;
		}
		if (accept(l, "*"))
			continue;
		break;
	}
	if (words && accept(l, ")"))
		return 1;
	l->s = save;
	return 0;
}

static struct val number(struct lx *l)
{
	struct val r = { 1, 0 };
	char *endp;

	r.v = strtoull(l->s, &endp, 0);
	if (endp == l->s || endp > l->end) {
		l->bad = 1;
		return r;
	}
	l->s = endp;
	while (l->s < l->end && (*l->s == 'u' || *l->s == 'U' ||
				 *l->s == 'l' || *l->s == 'L'))
		l->s++;
	return r;
}

/* Argument of NAME(...) as raw text, for BIT() and IS_ENABLED(). */
static struct val call_builtin(struct lx *l, const char *name, size_t n)
{
	struct val r = { 0, 0 }, a;

#define IS(lit) mem_is(name, n, lit)
	if (IS("BIT") || IS("BIT_ULL") || IS("_BITUL") || IS("_BITULL")) {
		a = expr(l);
		r.known = a.known && a.v < 64;
		r.v = r.known ? 1ULL << a.v : 0;
	} else if (IS("IS_ENABLED") || IS("IS_BUILTIN") ||
		   IS("IS_REACHABLE") || IS("IS_MODULE")) {
		size_t m = ident_len(l);
		unsigned long long d = 0;

		if (!m || !l->e->defined) {
			l->bad = 1;
			return r;
		}
		r.known = l->e->defined(l->e, l->s, m, &d) == PP_KNOWN;
		r.v = d;
		if (IS("IS_MODULE"))
			r.v = 0; /* we only know about built-in options */
		l->s += m;
	} else if (IS("set_migrateflags")) {
		/* 2.6.24: (gfp & ~GFP_MOVABLE_MASK) | migrate_flags */
		struct val g = expr(l), m = { 0, 0 }, mask = { 0, 0 };

		if (!accept(l, ",")) {
			l->bad = 1;
			return r;
		}
		m = expr(l);
		mask.known = l->e->ident(l->e, "GFP_MOVABLE_MASK", 16,
					 &mask.v) == PP_KNOWN;
		r.known = g.known && m.known && mask.known;
		r.v = (g.v & ~mask.v) | m.v;
	} else {
		l->bad = 1; /* an unknown function-like macro */
		return r;
	}
#undef IS
	if (!accept(l, ")"))
		l->bad = 1;
	return r;
}

static struct val primary(struct lx *l)
{
	struct val r = { 0, 0 };
	size_t n;

	skip_ws(l);
	if (l->s >= l->end) {
		l->bad = 1;
		return r;
	}
	if (*l->s >= '0' && *l->s <= '9')
		return number(l);
	if (*l->s == '\'' && l->s + 2 < l->end && l->s[2] == '\'') {
		r.known = 1;
		r.v = (unsigned char)l->s[1];
		l->s += 3;
		return r;
	}
	if (accept(l, "(")) {
		r = expr(l);
		if (!accept(l, ")"))
			l->bad = 1;
		return r;
	}
	n = ident_len(l);
	if (!n) {
		l->bad = 1;
		return r;
	}
	if (n == 7 && !memcmp(l->s, "defined", 7)) {
		int paren;
		unsigned long long d = 0;

		l->s += 7;
		paren = accept(l, "(");
		n = ident_len(l);
		if (!n || !l->e->defined) {
			l->bad = 1;
			return r;
		}
		r.known = l->e->defined(l->e, l->s, n, &d) == PP_KNOWN;
		r.v = d;
		l->s += n;
		if (paren && !accept(l, ")"))
			l->bad = 1;
		return r;
	} else {
		const char *name = l->s;
		enum pp_res res;

		l->s += n;
		if (accept(l, "("))
			return call_builtin(l, name, n);
		if (l->e->depth > 32) {
			l->bad = 1;
			return r;
		}
		l->e->depth++;
		res = l->e->ident(l->e, name, n, &r.v);
		l->e->depth--;
		if (res == PP_UNDEFINED && l->e->undefined_is_zero) {
			r.known = 1;
			r.v = 0;
		} else {
			r.known = res == PP_KNOWN;
		}
		return r;
	}
}

static struct val unary(struct lx *l)
{
	struct val r;

	if (accept(l, "!")) {
		r = unary(l);
		r.v = !r.v;
	} else if (accept(l, "~")) {
		r = unary(l);
		r.v = ~r.v;
	} else if (peek(l, "-") && !peek(l, "--")) {
		l->s++;
		r = unary(l);
		r.v = -r.v;
	} else if (peek(l, "+") && !peek(l, "++")) {
		l->s++;
		r = unary(l);
	} else if (skip_cast(l)) {
		r = unary(l);
	} else {
		r = primary(l);
	}
	return r;
}

/* Binary operator levels, lowest precedence first. */
static const char *const levels[][5] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
	{ "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" },
	{ "*", "/", "%" },
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static int match_op(struct lx *l, int lv, const char **op)
{
	int i;

	for (i = 0; i < 5 && levels[lv][i]; i++) {
		const char *o = levels[lv][i];

		if (!peek(l, o))
			continue;
		/* Do not read "|" out of "||" or "&" out of "&&" / "&=". */
		if (strlen(o) == 1 && (size_t)(l->end - l->s) > 1 &&
		    (l->s[1] == o[0] || l->s[1] == '='))
			continue;
		if ((!strcmp(o, "<") || !strcmp(o, ">")) &&
		    (size_t)(l->end - l->s) > 1 && l->s[1] == o[0])
			continue;
		*op = o;
		l->s += strlen(o);
		return 1;
	}
	return 0;
}

static unsigned long long apply(const char *op, unsigned long long a,
				unsigned long long b, int *ok)
{
	switch (op[0]) {
	case '|': return op[1] ? (a || b) : (a | b);
	case '&': return op[1] ? (a && b) : (a & b);
	case '^': return a ^ b;
	case '=': return a == b;
	case '!': return a != b;
	case '<':
		if (op[1] == '<')
			return b < 64 ? a << b : 0;
		return op[1] ? a <= b : a < b;
	case '>':
		if (op[1] == '>')
			return b < 64 ? a >> b : 0;
		return op[1] ? a >= b : a > b;
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/':
	case '%':
		if (!b) {
			*ok = 0;
			return 0;
		}
		return op[0] == '/' ? a / b : a % b;
	}
	*ok = 0;
	return 0;
}

static struct val binary(struct lx *l, int lv)
{
	struct val a, b;
	const char *op;

	if (lv == NLEVELS)
		return unary(l);
	a = binary(l, lv + 1);
	while (!l->bad && match_op(l, lv, &op)) {
		int ok = 1;

		b = binary(l, lv + 1);
		/* Short circuits make some unknowns irrelevant. */
		if (!strcmp(op, "&&") && ((a.known && !a.v) ||
					   (b.known && !b.v))) {
			a.known = 1;
			a.v = 0;
			continue;
		}
		if (!strcmp(op, "||") && ((a.known && a.v) ||
					   (b.known && b.v))) {
			a.known = 1;
			a.v = 1;
			continue;
		}
		a.v = apply(op, a.v, b.v, &ok);
		a.known = a.known && b.known && ok;
	}
	return a;
}

static struct val expr(struct lx *l)
{
	struct val c = binary(l, 0), t, f;

	if (!accept(l, "?"))
		return c;
	t = expr(l);
	if (!accept(l, ":")) {
		l->bad = 1;
		return c;
	}
	f = expr(l);
	if (!c.known)
		return (struct val){ t.known && f.known && t.v == f.v, t.v };
	return c.v ? t : f;
}

int pp_eval(struct pp_eval *e, const char *s, size_t len,
	    unsigned long long *out)
{
	struct lx l = { s, s + len, e, 0 };
	struct val v = expr(&l);

	skip_ws(&l);
	if (l.bad || l.s != l.end || !v.known)
		return 0;
	*out = v.v;
	return 1;
}

char *pp_clean(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	sb_grow(&sb, len + 1);
	while (i < len) {
		if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			const char *e = memmem(s + i + 2, len - i - 2, "*/", 2);

			i = e ? (size_t)(e - s) + 2 : len;
			sb_addc(&sb, ' ');
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (s[i] == '\\' && i + 1 < len &&
			   (s[i + 1] == '\n' || s[i + 1] == '\r')) {
			i += s[i + 1] == '\r' && i + 2 < len &&
					     s[i + 2] == '\n' ? 3 : 2;
			sb_addc(&sb, ' ');
		} else {
			sb_addc(&sb, s[i++]);
		}
	}
	sb_addc(&sb, '\0');
	sb.len--;
	return sb_detach(&sb);
}

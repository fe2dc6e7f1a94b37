// SPDX-License-Identifier: GPL-2.0
/*
 * What a function does with each pointer parameter, from its text
 * (fnsum.h, fnsum_params()).
 */
#include "analyzer/fnsum.h"
#include "analyzer/names.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

struct ptok {
	size_t off, len;
	int depth; /* braces open before it, counted from the body's own */
};

struct ptoks {
	const char *b;
	struct ptok *v;
	size_t n, cap;
};

/*
 * The length of the punctuator at A B: 2 for the two-character ones
 * the reader tells apart (-> == != <= >= && || ++ -- += -= *= /= |= &=
 * ^= << >>), else 1.
 */
static size_t punct_len(char a, char b)
{
	switch (a) {
	case '-':
		return b == '>' || b == '-' || b == '=' ? 2 : 1;
	case '=':
	case '!':
	case '*':
	case '/':
	case '^':
		return b == '=' ? 2 : 1;
	case '<':
	case '>':
	case '&':
	case '|':
	case '+':
		return b == a || b == '=' ? 2 : 1;
	}
	return 1;
}

static void push(struct ptoks *t, size_t off, size_t len, int depth)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n].off = off;
	t->v[t->n].len = len;
	t->v[t->n++].depth = depth;
}

/* Tokens of B[start..end): comments, strings, directives dropped. */
static void tokenize(struct ptoks *t, const char *b, size_t start, size_t end)
{
	size_t i = start;
	int bol = 0, depth = 0;

	t->b = b;
	while (i < end) {
		char c = b[i];

		if (c == '\n') {
			bol = 1;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v' || (c == '\\' && i + 1 < end)) {
			i++;
		} else if (c == '/' && i + 1 < end && b[i + 1] == '*') {
			for (i += 2; i + 1 < end && !(b[i] == '*' && b[i + 1] == '/');)
				i++;
			i += 2;
		} else if (c == '/' && i + 1 < end && b[i + 1] == '/') {
			while (i < end && b[i] != '\n')
				i++;
		} else if (c == '#' && bol) {
			while (i < end && b[i] != '\n')
				i += b[i] == '\\' ? 2 : 1;
		} else if (c == '"' || c == '\'') {
			for (i++; i < end && b[i] != c && b[i] != '\n'; i++)
				i += b[i] == '\\';
			i = i < end ? i + 1 : end;
			push(t, i - 1, 1, depth); /* a literal: one opaque token */
			bol = 0;
		} else if (is_ident_char((unsigned char)c)) {
			size_t s = i;

			while (i < end && is_ident_char((unsigned char)b[i]))
				i++;
			push(t, s, i - s, depth);
			bol = 0;
		} else {
			size_t len = i + 1 < end ? punct_len(c, b[i + 1]) : 1;

			if (c == '}')
				depth--;
			push(t, i, len, depth);
			if (c == '{')
				depth++;
			i += len;
			bol = 0;
		}
	}
}

static int teq(const struct ptoks *t, long i, const char *s)
{
	return i >= 0 && (size_t)i < t->n &&
	       mem_is(t->b + t->v[i].off, t->v[i].len, s);
}

static int tident(const struct ptoks *t, long i)
{
	return i >= 0 && (size_t)i < t->n &&
	       is_ident_start((unsigned char)t->b[t->v[i].off]);
}

/* The '(' matching the ')' at I, or -1. */
static long open_of(const struct ptoks *t, long i)
{
	int d = 0;

	for (; i >= 0; i--) {
		if (teq(t, i, ")"))
			d++;
		else if (teq(t, i, "(") && !--d)
			return i;
		else if (teq(t, i, "{") || teq(t, i, "}") || teq(t, i, ";"))
			return -1;
	}
	return -1;
}

/* Skip back over a cast `(type *)` ending at I: the token before it. */
static long before_casts(const struct ptoks *t, long i)
{
	while (teq(t, i, ")")) {
		long o = open_of(t, i), k;

		if (o < 0 || o + 1 == i)
			return i;
		for (k = o + 1; k < i; k++)
			if (!tident(t, k) && !teq(t, k, "*"))
				return i;
		if (!tident(t, o - 1) || teq(t, o - 1, "return"))
			i = o - 1;
		else
			return i; /* f(x) p: no cast */
	}
	return i;
}

static const char *const keywords[] = {"if", "while", "for", "switch",
				       "return", "sizeof", "typeof",
				       "__typeof__", "likely", "unlikely",
				       "WARN_ON", "BUG_ON", "IS_ERR",
				       "IS_ERR_OR_NULL", NULL};

static int is_keyword(const struct ptoks *t, long i)
{
	int k;

	for (k = 0; keywords[k]; k++)
		if (teq(t, i, keywords[k]))
			return 1;
	return 0;
}

#define MAX_ALIAS 4

struct pstate {
	int stores, unknown, frees, some_frees;
	struct strbuf hand;
	long alias[MAX_ALIAS]; /* tokens naming locals that copy it */
	int nalias;
};

/*
 * `T *q = p;`, or `q = p;` for a q declared a pointer in the body: q's
 * uses are p's.
 */
static int alias(const struct ptoks *t, long q, struct pstate *s)
{
	long k;
	int decl = 0;

	if (!tident(t, q) || s->nalias == MAX_ALIAS)
		return 0;
	if (teq(t, q - 1, "*") && (tident(t, q - 2) || teq(t, q - 2, "*")))
		decl = 1; /* void *q = p; */
	for (k = 0; !decl && k < q; k++)
		if (t->v[k].len == t->v[q].len &&
		    !memcmp(t->b + t->v[k].off, t->b + t->v[q].off,
			    t->v[q].len) &&
		    teq(t, k - 1, "*") && tident(t, k - 2))
			decl = 1;
	if (!decl)
		return 0;
	s->alias[s->nalias++] = q;
	return 1;
}

/* Note a hand-over once: `!` when one of its calls runs on every path. */
static void hand(struct pstate *s, int uncond, const char *dot, const char *n,
		 size_t len, int arg)
{
	char *k = xasprintf("%s%.*s/%d", dot, (int)len, n, arg);
	char *p = s->hand.buf;
	size_t kl = strlen(k);

	while (p && (p = strstr(p, k))) {
		if ((p[-1] == '>' || p[-1] == '!') &&
		    (p[kl] == 0 || p[kl] == '>' || p[kl] == '!')) {
			if (uncond)
				p[-1] = '!';
			free(k);
			return;
		}
		p += kl;
	}
	sb_addc(&s->hand, uncond ? '!' : '>');
	sb_adds(&s->hand, k);
	free(k);
}

/*
 * P's occurrence at I is a whole argument: the call's name token and
 * the argument's index, or -1.
 */
static long call_of(const struct ptoks *t, long i, long prev, int *arg)
{
	long j;
	int d = 0;

	if (!teq(t, i + 1, ",") && !teq(t, i + 1, ")"))
		return -1;
	if (!teq(t, prev, ",") && !teq(t, prev, "("))
		return -1;
	*arg = 0;
	for (j = prev; j >= 0; j--) {
		if (teq(t, j, ")") || teq(t, j, "]")) {
			d++;
		} else if ((teq(t, j, "(") || teq(t, j, "[")) && d) {
			d--;
		} else if (teq(t, j, "(")) {
			return tident(t, j - 1) ? j - 1 : -1;
		} else if (!d && teq(t, j, ",")) {
			(*arg)++;
		} else if (teq(t, j, ";") || teq(t, j, "{") || teq(t, j, "}")) {
			return -1;
		}
	}
	return -1;
}

static int stmt_start(const struct ptoks *t, long i)
{
	return teq(t, i - 1, ";") || teq(t, i - 1, "{") || teq(t, i - 1, "}") ||
	       teq(t, i - 1, ":");
}

/* `if (P)` ends at the ')' at I, the `if` a statement of the top level. */
static int null_guard(const struct ptoks *t, long i, const struct ptok *p)
{
	return teq(t, i, ")") && teq(t, i - 2, "(") && teq(t, i - 3, "if") &&
	       t->v[i - 1].len == p->len &&
	       !memcmp(t->b + t->v[i - 1].off, t->b + p->off, p->len) &&
	       t->v[i - 3].depth == 1 && stmt_start(t, i - 3);
}

/*
 * A statement of its own at the body's top level, or guarded only by
 * `if (p)` (a null check: the caller's buffer is never null): runs on
 * every path the caller's buffer takes.
 */
static int unconditional(const struct ptoks *t, long callee, long at)
{
	long j;

	if (t->v[callee].depth == 1 && stmt_start(t, callee))
		return 1;
	if (t->v[callee].depth == 1 && null_guard(t, callee - 1, &t->v[at]))
		return 1; /* if (p) kfree(p); */
	if (t->v[callee].depth != 2 || !stmt_start(t, callee))
		return 0;
	/* if (p) { ...; kfree(p); }: the block's '{' */
	for (j = callee - 1; j >= 0 && !(teq(t, j, "{") && t->v[j].depth == 1);
	     j--)
		;
	/* do { ...; kfree(p); } while (0) runs once, a macro's body */
	if (j > 0 && teq(t, j - 1, "do") && stmt_start(t, j - 1))
		return 1;
	return j > 0 && null_guard(t, j - 1, &t->v[at]);
}

/*
 * Is the call at C, to which token I is passed, a write of the pointer
 * into its own object (`WRITE_ONCE(list->next, list)`, an empty list
 * head pointing at itself)?
 */
static int self_write(const struct ptoks *t, long c, long i)
{
	return teq(t, c + 1, "(") && c + 2 < i &&
	       t->v[c + 2].len == t->v[i].len &&
	       !memcmp(t->b + t->v[c + 2].off, t->b + t->v[i].off,
		       t->v[i].len) &&
	       (teq(t, c + 3, "->") || teq(t, c + 3, "."));
}

static void use(const struct ptoks *t, long i, struct pstate *s,
		const struct alloc_table *allocs,
		const struct name_set *lifetime)
{
	long prev = before_casts(t, i - 1), c;
	int arg;

	if (teq(t, i - 1, ".") || teq(t, i - 1, "->"))
		return; /* a member of that name */
	if (teq(t, i + 1, "=") && teq(t, i - 1, "*") &&
	    (teq(t, i - 2, ";") || teq(t, i - 2, "{") || teq(t, i - 2, "}")))
		return; /* *p = v: written through */
	/*
	 * p++, p += n: the function's own copy of the pointer walks the
	 * caller's buffer (`memcpy(p, s, LEN); p += LEN;`); the caller
	 * still owns it, and a free of the moved pointer would be a bug
	 */
	if (teq(t, i + 1, "++") || teq(t, i + 1, "--") ||
	    teq(t, i + 1, "+=") || teq(t, i + 1, "-="))
		return;
	if (teq(t, i + 1, "=") ||
	    (teq(t, prev, "return") && teq(t, i + 1, ";"))) {
		s->unknown = 1; /* moved on, or handed back to the caller */
		return;
	}
	if (teq(t, prev, "&") && teq(t, i + 1, "->"))
		return; /* &p->member: member_store() */
	if (teq(t, prev, "=") && (teq(t, i + 1, ";") || teq(t, i + 1, ","))) {
		/* x = p: lasting when x is a member, *out, a[i] */
		if (teq(t, prev - 2, ".") &&
		    (teq(t, prev - 3, "{") || teq(t, prev - 3, ",")))
			return; /* { .buf = p, }: a local's initialiser */
		if (alias(t, prev - 1, s))
			return;
		if (teq(t, prev - 2, "->") && prev >= 3 &&
		    t->v[prev - 3].len == t->v[i].len &&
		    !memcmp(t->b + t->v[prev - 3].off, t->b + t->v[i].off,
			    t->v[i].len) &&
		    stmt_start(t, prev - 3))
			return; /* list->next = list: points at itself */
		if (teq(t, prev - 1, "]") || teq(t, prev - 2, "->") ||
		    teq(t, prev - 2, ".") || teq(t, prev - 1, ")") ||
		    (teq(t, prev - 2, "*") &&
		     (teq(t, prev - 3, ";") || teq(t, prev - 3, "{") ||
		      teq(t, prev - 3, "}"))))
			s->stores = 1;
		else
			s->unknown = 1; /* an alias, or a global */
		return;
	}
	c = call_of(t, i, prev, &arg);
	if (c < 0)
		return; /* p->x, p[i], !p, p + n: read through */
	if (is_keyword(t, c))
		return;
	if (teq(t, c - 1, ".") || teq(t, c - 1, "->")) {
		/* through a member: the functions assigned to it decide */
		hand(s, unconditional(t, c - 2, i), ".", t->b + t->v[c].off,
		     t->v[c].len, arg);
		return;
	}
	{
		const char *n = t->b + t->v[c].off;
		size_t len = t->v[c].len;
		const struct alloc_fn *a =
			allocs ? alloc_lookup(allocs, n, len) : NULL;
		int sa;

		if (a && a->kind == AK_FREE) {
			if (a->ptr_arg == arg && unconditional(t, c, i))
				s->frees = 1;
			else if (a->ptr_arg == arg)
				s->some_frees = 1;
			return;
		}
		if (a) {
			s->unknown = 1; /* krealloc(p, ...) */
			return;
		}
		if (lifetime_borrows(lifetime, n, len))
			return;
		sa = lifetime_store_arg(lifetime, n, len);
		if (sa >= 0) {
			/* the list head of list_add(new, head): written */
			s->stores |= sa == arg && !self_write(t, c, i);
			return;
		}
		hand(s, unconditional(t, c, i), "", n, len, arg);
	}
}

/*
 * &p->member as an argument of a store function (list_add(&p->node)), or
 * of a put (kref_put(&p->kref, release)).
 */
static void member_store(const struct ptoks *t, long i, struct pstate *s,
			 const struct name_set *lifetime)
{
	long j, k;
	int d = 0, arg = 0;

	if (!lifetime || !teq(t, i - 1, "&") || !teq(t, i + 1, "->"))
		return;
	if (!teq(t, i - 2, "(") && !teq(t, i - 2, ","))
		return;
	for (j = i - 2; j >= 0; j--) {
		if (teq(t, j, ")"))
			d++;
		else if (teq(t, j, "(") && d)
			d--;
		else if (teq(t, j, "(") || teq(t, j, ";") || teq(t, j, "{"))
			break;
		else if (teq(t, j, ",") && !d)
			arg++;
	}
	if (teq(t, j, "(") && tident(t, j - 1) &&
	    lifetime_store_arg(lifetime, t->b + t->v[j - 1].off,
			       t->v[j - 1].len) == arg)
		s->stores = 1;
	/*
	 * kref_put(&p->kref, release): the last reference frees p; not
	 * kref_put(&p->ah->ref, ...), which puts what p points to
	 */
	for (k = i + 2; tident(t, k) && teq(t, k + 1, "."); k += 2)
		;
	if (!tident(t, k) || !(teq(t, k + 1, ",") || teq(t, k + 1, ")")))
		return;
	if (teq(t, j, "(") && tident(t, j - 1) &&
	    lifetime_put_arg(lifetime, t->b + t->v[j - 1].off,
			     t->v[j - 1].len) == arg) {
		if (unconditional(t, j - 1, i))
			s->frees = 1;
		else
			s->some_frees = 1;
	}
}

/* Every use of the name N (LEN) from token FROM on. */
static void uses(const struct ptoks *t, const char *n, size_t len, long from,
		 struct pstate *s, const struct alloc_table *allocs,
		 const struct name_set *lifetime)
{
	long u;

	for (u = from; (size_t)u < t->n; u++)
		if (t->v[u].len == len && t->b[t->v[u].off] == n[0] &&
		    !memcmp(t->b + t->v[u].off, n, len)) {
			use(t, u, s, allocs, lifetime);
			member_store(t, u, s, lifetime);
		}
}

char *fnsum_params(const char *buf, size_t decl, size_t body, size_t end,
		   const struct alloc_table *allocs,
		   const struct name_set *lifetime)
{
	struct ptoks h = {0}, t = {0};
	struct strbuf out = STRBUF_INIT;
	long i, first, k;
	int any = 0, d = 0;

	tokenize(&h, buf, decl, body);
	/* the parameter list: the first '(' after the name */
	for (first = 0; (size_t)first < h.n && !teq(&h, first, "("); first++)
		;
	for (i = first; (size_t)i < h.n && !teq(&h, i, "*"); i++)
		;
	if ((size_t)first >= h.n || (size_t)i >= h.n)
		goto done; /* no pointer parameter: the body is not read */
	tokenize(&t, buf, body, end + 1);
	for (i = first + 1, k = first + 1; (size_t)i < h.n; i++) {
		int last = 0;

		if (teq(&h, i, "(")) {
			d++;
		} else if (teq(&h, i, ")") && d) {
			d--;
		} else if (!d && (teq(&h, i, ",") || (last = teq(&h, i, ")")))) {
			/* K..I-1: one parameter; a pointer if it has '*' */
			long j, name = -1, star = 0, paren = 0;

			for (j = k; j < i; j++) {
				star |= teq(&h, j, "*");
				paren |= teq(&h, j, "(");
				if (tident(&h, j))
					name = j;
			}
			if (out.len)
				sb_addc(&out, ' ');
			if (!star || paren || name < 0) {
				sb_addc(&out, '-');
			} else {
				struct pstate s;
				long u;

				memset(&s, 0, sizeof(s));
				uses(&t, buf + h.v[name].off, h.v[name].len, 0,
				     &s, allocs, lifetime);
				for (u = 0; u < s.nalias; u++)
					uses(&t, buf + t.v[s.alias[u]].off,
					     t.v[s.alias[u]].len,
					     s.alias[u] + 1, &s, allocs,
					     lifetime);
				sb_addc(&out, s.stores	   ? 'S'
					      : s.frees	   ? 'F'
					      : s.unknown || s.some_frees ? 'U'
									  : 'B');
				if (s.hand.buf)
					sb_adds(&out, s.hand.buf);
				sb_release(&s.hand);
				any = 1;
			}
			k = i + 1;
			if (last)
				break;
		}
	}
done:
	free(h.v);
	free(t.v);
	if (!any) {
		sb_release(&out);
		return NULL;
	}
	return sb_detach(&out);
}

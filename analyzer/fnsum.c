// SPDX-License-Identifier: GPL-2.0
/*
 * Function summaries from a file's text (see fnsum.h).
 */
#include "analyzer/fnsum.h"
#include "analyzer/fnsum_gfp.h"
#include "analyzer/fnsum_int.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Names that take a parenthesised operand but are no calls, with their
 * lengths: the test runs at every `name (` of the tree.
 */
#define NC(s) { s, sizeof(s) - 1 }
static const struct {
	const char *s;
	size_t n;
} not_calls[] = {
	NC("if"),
	NC("while"),
	NC("for"),
	NC("switch"),
	NC("return"),
	NC("sizeof"),
	NC("typeof"),
	NC("__typeof__"),
	NC("__typeof"),
	NC("_Generic"),
	NC("__attribute__"),
	NC("__attribute"),
	NC("asm"),
	NC("__asm__"),
	NC("__asm"),
	NC("volatile"),
	NC("__volatile__"),
	NC("defined"),
	NC("_Static_assert"),
	NC("static_assert"),
	NC("__builtin_expect"),
	NC("likely"),
	NC("unlikely"),
	NC("offsetof"),
	NC("__alignof__"),
	NC("_Alignof"),
	NC("alignof"),
	NC("case"),
	NC("do"),
	NC("else"),
};
#undef NC

static int is_not_call(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(not_calls) / sizeof(not_calls[0]); i++)
		if (not_calls[i].n == n && !memcmp(not_calls[i].s, p, n))
			return 1;
	return 0;
}

/* Skip blanks, comments, strings and preprocessor lines up to a token. */
static void skip_space(struct lx *x)
{
	while (x->i < x->len) {
		char c = x->b[x->i];

		if (c == '\n') {
			x->line++;
			x->bol = 1;
			x->i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			x->i++;
		} else if (c == '\\' && x->i + 1 < x->len &&
			   x->b[x->i + 1] == '\n') {
			x->i++;
		} else if (c == '/' && x->i + 1 < x->len &&
			   x->b[x->i + 1] == '*') {
			x->i += 2;
			while (x->i + 1 < x->len &&
			       !(x->b[x->i] == '*' && x->b[x->i + 1] == '/'))
				x->line += x->b[x->i++] == '\n';
			x->i += 2;
		} else if (c == '/' && x->i + 1 < x->len &&
			   x->b[x->i + 1] == '/') {
			const char *nl = memchr(x->b + x->i, '\n', x->len - x->i);

			x->i = nl ? (size_t)(nl - x->b) : x->len;
		} else if (c == '#' && x->bol) {
			/* a directive, with its continuation lines */
			while (x->i < x->len && x->b[x->i] != '\n') {
				if (x->b[x->i] == '\\' && x->i + 1 < x->len &&
				    x->b[x->i + 1] == '\n') {
					x->line++;
					x->i++;
				}
				x->i++;
			}
		} else {
			return;
		}
	}
}

static void skip_quoted(struct lx *x, char q)
{
	x->i++;
	while (x->i < x->len && x->b[x->i] != q && x->b[x->i] != '\n') {
		if (x->b[x->i] == '\\' && x->i + 1 < x->len)
			x->i++;
		x->i++;
	}
	x->i++;
}

/* The next non-blank byte, or 0. */
static char peek(struct lx *x)
{
	skip_space(x);
	return x->i < x->len ? x->b[x->i] : 0;
}

void fnsum_add_name(char **list, size_t *cap, const char *p, size_t n)
{
	size_t have = *list ? strlen(*list) : 0;
	const char *s = *list;

	/* each name once: functions call a few dozen names at most */
	while (s && *s) {
		const char *e = strchr(s, ' ');
		size_t l = e ? (size_t)(e - s) : strlen(s);

		if (l == n && !memcmp(s, p, n))
			return;
		s = e ? e + 1 : s + l;
	}
	if (have + n + 2 > *cap) {
		*cap = (have + n + 2) * 2;
		*list = xrealloc(*list, *cap);
	}
	if (have)
		(*list)[have++] = ' ';
	memcpy(*list + have, p, n);
	(*list)[have + n] = 0;
}

/*
 * The allocator call's argument list, from its '(' at x->i: do the flags
 * allow direct reclaim?  A flag after '~' is cleared, not set.
 */
static int alloc_sleeps(const struct lx *x, int gfp_arg)
{
	size_t i = x->i + 1, start = i;
	int depth = 0, arg = 0, yes = 0;

	for (; i < x->len && i - x->i < 4096; i++) {
		char c = x->b[i];

		if (c == '(') {
			depth++;
		} else if (c == ')' && depth) {
			depth--;
		} else if ((c == ',' || c == ')') && !depth) {
			if (arg == gfp_arg) {
				char *t = xstrndup(x->b + start, i - start);
				char *tilde = strchr(t, '~');

				if (tilde)
					*tilde = 0;
				yes = gfp_text_may_sleep(t);
				free(t);
				break;
			}
			if (c == ')')
				break;
			arg++;
			start = i + 1;
		}
	}
	return yes;
}

/*
 * The ARG-th argument of the call whose '(' is at x->i, when it is a
 * plain name (`&name` too) with a lower-case letter (not a constant):
 * its offset, length into *LEN; else 0 with *LEN 0.
 */
static size_t name_arg(const struct lx *x, int arg, size_t *len)
{
	size_t i = x->i + 1, start = i, s, e;
	int depth = 0, k = 0, lower = 0;

	*len = 0;
	for (; i < x->len && i - x->i < 4096; i++) {
		char c = x->b[i];

		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
		} else if ((c == ',' || c == ')') && !depth) {
			if (k == arg)
				break;
			if (c == ')')
				return 0;
			k++;
			start = i + 1;
		}
	}
	if (i >= x->len || k != arg)
		return 0;
	for (s = start; s < i && (x->b[s] == ' ' || x->b[s] == '\t' ||
				   x->b[s] == '\n' || x->b[s] == '&');)
		s++;
	for (e = s; e < i && is_ident_char((unsigned char)x->b[e]); e++)
		lower |= x->b[e] >= 'a' && x->b[e] <= 'z';
	if (e == s || !is_ident_start((unsigned char)x->b[s]) || !lower)
		return 0;
	for (i = e; i < x->len && i - x->i < 4096 &&
		    (x->b[i] == ' ' || x->b[i] == '\t' || x->b[i] == '\n');)
		i++;
	if (i >= x->len || (x->b[i] != ',' && x->b[i] != ')'))
		return 0;
	*len = e - s;
	return s;
}

static void note_call(struct lx *x, struct body *b, const char *p, size_t n,
		      const struct name_set *sleepers,
		      const struct alloc_table *allocs,
		      const struct name_set *atomic,
		      const struct name_set *lifetime)
{
	struct fn_summary *f = b->f;
	const struct alloc_fn *a;
	int arg = lifetime ? names_get(&lifetime[LT_CALLS], p, n) : -1;

	if (arg >= 0) {
		size_t len, at = name_arg(x, arg, &len);

		if (len) {
			char *pair = xasprintf("%.*s/%.*s", (int)n, p,
					       (int)len, x->b + at);

			fnsum_add_name(&f->callbacks, &b->ccap, pair,
				       strlen(pair));
			free(pair);
		}
	}

	if (atomic && names_get(&atomic[AT_ENTER], p, n) >= 0) {
		fnsum_section(x, b, p, 1);
		return;
	}
	if (atomic && names_get(&atomic[AT_LEAVE], p, n) >= 0) {
		fnsum_section(x, b, p, -1);
		return;
	}
	if (atomic && fnsum_other_lock(&atomic[AT_ENTER], p, n))
		fnsum_lock_only(x, b);
	/* a wrapper is a call too: it is outside the section it opens */
	if (x->wrap && names_get(&x->wrap[1], p, n) >= 0)
		fnsum_section(x, b, p, -1);
	fnsum_add_name(&f->callees, &b->cap, p, n);
	if (b->gp.n || b->gfp_text)
		fnsum_gfp_call(x->b, x->len, x->i, p, n, x->line, &b->gp,
			       allocs, f, &b->gcap);
	if (b->adepth)
		fnsum_add_name(&f->atomic_callees, &b->acap, p, n);
	if (b->rel < 0)
		fnsum_add_name(&f->unlocked_callees, &b->ucap, p, n);
	if (x->wrap && names_get(&x->wrap[0], p, n) >= 0)
		fnsum_section(x, b, p, 1);
	if (f->sleeps)
		return;
	if (names_get(sleepers, p, n) >= 0) {
		f->sleeps = xasprintf("%.*s() at line %u", (int)n, p, x->line);
		return;
	}
	a = allocs ? alloc_lookup(allocs, p, n) : NULL;
	if (a && a->kind == AK_ALLOC &&
	    (a->gfp_arg >= 0 ? alloc_sleeps(x, a->gfp_arg)
			     : alloc_call_may_sleep(a, NULL) > 0))
		f->sleeps = xasprintf("%.*s() at line %u", (int)n, p, x->line);
}

/*
 * `.member = name,` (or `}` or `;` after the name, `&name` too): a
 * function a call through the member may reach.  X is at the '='.
 */
static void member_init(const struct lx *x, const char *m, size_t mn,
			unsigned line, const struct name_set *atomic,
			struct fn_summaries *out)
{
	size_t i = x->i + 1, s, e;
	char *pair;

	if (i < x->len && x->b[i] == '=')
		return; /* == */
	while (i < x->len && (x->b[i] == ' ' || x->b[i] == '\t'))
		i++;
	if (i < x->len && x->b[i] == '&')
		i++;
	if (i >= x->len || !is_ident_start((unsigned char)x->b[i]))
		return;
	for (s = i; i < x->len && is_ident_char((unsigned char)x->b[i]);)
		i++;
	while (i < x->len && (x->b[i] == ' ' || x->b[i] == '\t'))
		i++;
	if (i >= x->len || (x->b[i] != ',' && x->b[i] != '}' &&
			    x->b[i] != ';' && x->b[i] != '\n'))
		return;
	/*
	 * Not a function: a constant (no lower-case letter: NULL,
	 * FOO_FLAGS), or a local of the member's own name (.len = len).
	 */
	for (e = s; e < i && !(x->b[e] >= 'a' && x->b[e] <= 'z');)
		e++;
	if (e == i)
		return;
	for (e = s; e < i && is_ident_char((unsigned char)x->b[e]);)
		e++;
	/*
	 * E: the end of the name.  A name the member's own (.uni2char =
	 * uni2char) is written `m=`: the summaries take it only for a
	 * function this file defines, not for a local (.len = len).
	 */
	if (e - s == mn && !memcmp(x->b + s, m, mn))
		e = s;
	pair = xasprintf("%.*s=%.*s", (int)mn, m, (int)(e - s), x->b + s);
	fnsum_add_name(&out->inits, &out->icap, pair, strlen(pair));
	free(pair);
	/*
	 * A data/atomic.txt `member` (.ndo_start_xmit = foo_xmit): foo_xmit
	 * is called in atomic context, a callback registration whose API is
	 * the member, `.ndo_start_xmit`.
	 */
	if (atomic && names_get(&atomic[AT_MEMBER], m, mn) >= 0) {
		pair = xasprintf("%s:%.*s:.%.*s:%u", atomic_kinds[AT_CALLBACK],
				 (int)(e - s), x->b + s, (int)mn, m, line);
		fnsum_add_name(&out->callbacks, &out->ccap, pair, strlen(pair));
		free(pair);
	}
}

int fnsum_has_word(const char *buf, size_t from, size_t to, const char *p,
		   size_t n)
{
	size_t i;

	for (i = from; i + n <= to; i++)
		if (!memcmp(buf + i, p, n) &&
		    (i == from || !is_ident_char((unsigned char)buf[i - 1])) &&
		    (i + n == to || !is_ident_char((unsigned char)buf[i + n])))
			return 1;
	return 0;
}

/*
 * One name of a registration's argument at BUF[S..E): a function's name,
 * or no name to record?  Not a member (`->fn`, `.fn`), not what is read
 * through (`p->x`, `tbl[i]`) or called (`get_fn()`), not a constant (no
 * lower-case letter: NULL), not a parameter of the enclosing function
 * (a wrapper handing on its `handler`: the call site of the wrapper
 * names the function).
 */
static int callback_name(const struct lx *x, const struct body *b, size_t s,
			 size_t e)
{
	size_t i = e, k;

	if (s && (x->b[s - 1] == '.' || (s > 1 && x->b[s - 1] == '>' &&
					  x->b[s - 2] == '-')))
		return 0;
	while (i < x->len && (x->b[i] == ' ' || x->b[i] == '\t'))
		i++;
	if (i < x->len && (x->b[i] == '(' || x->b[i] == '[' ||
			   x->b[i] == '.' ||
			   (x->b[i] == '-' && i + 1 < x->len &&
			    x->b[i + 1] == '>')))
		return 0;
	for (k = s; k < e && !(x->b[k] >= 'a' && x->b[k] <= 'z');)
		k++;
	if (k == e)
		return 0;
	return !b->f ||
	       !fnsum_has_word(x->b, b->decl, b->open, x->b + s, e - s);
}

/*
 * `request_irq(irq, NAME, ...)`: the names in the WANT-th argument of a
 * data/atomic.txt `callback` or `thread` call API (X at its '('), any
 * name counting (`threaded ? NULL : my_isr`, a cast).  The function may
 * be defined in another file, so the summaries step, not the TU, makes
 * it atomic.  Outside a body (DEFINE_TIMER(t, fn);) the argument must be
 * one name alone: a declaration of API (`irq_handler_t handler`) is no
 * registration.
 */
static void registration(const struct lx *x, const struct body *b,
			 const char *api, size_t an, unsigned line, int kind,
			 int want, struct fn_summaries *out)
{
	size_t i, s, found[8];
	int depth = 0, arg = 0, names = 0, nf = 0, k;

	for (i = x->i + 1; i < x->len && i - x->i < 4096; i++) {
		char c = x->b[i];

		if (c == '"' || c == '\'') {
			for (i++; i < x->len && x->b[i] != c; i++)
				i += x->b[i] == '\\';
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth--)
				break;
		} else if (c == ',' && !depth && arg++ == want) {
			break;
		} else if (arg == want && is_ident_start((unsigned char)c) &&
			   !is_ident_char((unsigned char)x->b[i - 1])) {
			for (s = i; i < x->len &&
				    is_ident_char((unsigned char)x->b[i]);)
				i++;
			names++;
			if (callback_name(x, b, s, i) && nf < 8) {
				found[nf++] = s;
				found[nf++] = i;
			}
			i--;
		}
	}
	if (!b->f && names != 1)
		return;
	for (k = 0; k + 1 < nf; k += 2) {
		char *e = xasprintf("%s:%.*s:%.*s:%u", atomic_kinds[kind],
				    (int)(found[k + 1] - found[k]),
				    x->b + found[k], (int)an, api, line);

		fnsum_add_name(&out->callbacks, &out->ccap, e, strlen(e));
		free(e);
	}
}

static void extract(const char *buf, size_t len, unsigned line0,
		    const struct name_set *sleepers,
		    const struct alloc_table *allocs,
		    const struct name_set *atomic,
		    const struct name_set *lifetime, struct fn_summaries *out,
		    const struct name_set *wrap);

static void add_fn(struct fn_summaries *out, size_t *alloc,
		   const struct fn_summary *f)
{
	if (out->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		out->v = xrealloc(out->v, *alloc * sizeof(*out->v));
	}
	out->v[out->n++] = *f;
}

/* Does TEXT hold a name right before a '(' (a call, or a macro's)? */
static int body_calls(const char *p, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (p[i] == '(' && is_ident_char((unsigned char)p[i - 1]))
			return 1;
	return 0;
}

/*
 * A function-like macro is read as a static function of its file (a
 * header's is used where no function of the name is defined): its
 * calls hide sleeps (devm_regmap_init_i2c) and frees as a function's
 * do.  BUF[I] is the directive's '#'; the directive is rewritten as
 * `NAME(args) { body }` and read by the function reader.
 */
static void macro_fn(const char *buf, size_t len, size_t i, unsigned line,
		     const struct name_set *sleepers,
		     const struct alloc_table *allocs,
		     const struct name_set *atomic,
		     const struct name_set *lifetime, struct fn_summaries *out,
		     size_t *alloc, const struct name_set *wrap)
{
	struct strbuf sb = STRBUF_INIT;
	struct fn_summaries one;
	size_t e, n, k, j;

	for (i++; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++)
		;
	if (len - i < 7 || memcmp(buf + i, "define", 6) ||
	    (buf[i + 6] != ' ' && buf[i + 6] != '\t'))
		return;
	for (i += 7; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++)
		;
	for (n = i; n < len && is_ident_char((unsigned char)buf[n]);)
		n++;
	if (n == i || n >= len || buf[n] != '(')
		return; /* an object-like macro */
	/* the directive, its continuation lines joined */
	for (e = n; e < len && buf[e] != '\n'; e++)
		if (buf[e] == '\\' && e + 1 < len && buf[e + 1] == '\n')
			e++;
	for (k = n; k < e && buf[k] != ')'; k++)
		;
	if (k >= e || !body_calls(buf + k, e - k))
		return; /* no call in the body */
	/* untyped parameters: any may be a pointer */
	sb_add(&sb, buf + i, n + 1 - i);
	for (j = n + 1; j < k;) {
		size_t a, b;

		while (j < k && (buf[j] == ' ' || buf[j] == '\t' ||
				 buf[j] == ',' || buf[j] == '\\' ||
				 buf[j] == '\n'))
			j++;
		for (a = j; j < k && buf[j] != ',';)
			j++;
		for (b = j; b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\t');)
			b--;
		if (b > a) {
			if (a > n + 1 && sb.buf[sb.len - 1] != '(')
				sb_adds(&sb, ", ");
			if (is_ident_start((unsigned char)buf[a]))
				sb_adds(&sb, "void *");
			sb_add(&sb, buf + a, b - a);
		}
	}
	sb_adds(&sb, ") {");
	for (k++; k < e; k++)
		if (!(buf[k] == '\\' && k + 1 < e && buf[k + 1] == '\n'))
			sb_addc(&sb, buf[k] == '\n' ? ' ' : buf[k]);
	sb_adds(&sb, "\n}\n");
	extract(sb.buf, sb.len, line, sleepers, allocs, atomic, lifetime,
		&one, wrap);
	if (one.n == 1 && one.v[0].callees) {
		one.v[0].is_static = 1;
		add_fn(out, alloc, &one.v[0]);
		one.n = 0;
	}
	fnsum_free(&one);
	sb_release(&sb);
}

/* The function-like macros of BUF (fnsum_extract() skips directives). */
static void macros(const char *buf, size_t len,
		   const struct name_set *sleepers,
		   const struct alloc_table *allocs,
		   const struct name_set *atomic,
		   const struct name_set *lifetime, struct fn_summaries *out,
		   size_t *alloc, const struct name_set *wrap)
{
	size_t i = 0;
	unsigned line = 1;

	while (i < len) {
		size_t j = i;

		while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
			j++;
		if (j < len && buf[j] == '#')
			macro_fn(buf, len, j, line, sleepers, allocs, atomic,
				 lifetime, out, alloc, wrap);
		/* to the next line, past continuations (a `\` before it) */
		for (;;) {
			const char *nl = memchr(buf + j, '\n', len - j);

			if (!nl) {
				j = len;
				break;
			}
			if ((size_t)(nl - buf) == j || nl[-1] != '\\') {
				j = (size_t)(nl - buf);
				break;
			}
			j = (size_t)(nl - buf) + 1;
			line++;
		}
		i = j + 1;
		line++;
	}
}

/* Wrappers of the file's functions and macros, into WRAP[2]; how many. */
static int lock_wrappers(const struct fn_summaries *s, struct name_set *wrap)
{
	size_t i;
	int n = 0;

	for (i = 0; i < s->n; i++) {
		const struct fn_summary *f = &s->v[i];

		if (!f->lock)
			continue;
		if (!n++) {
			names_init(&wrap[0]);
			names_init(&wrap[1]);
		}
		names_put(&wrap[f->lock > 0 ? 0 : 1], f->name, strlen(f->name),
			  1);
	}
	return n;
}

void fnsum_extract(const char *buf, size_t len, const struct name_set *sleepers,
		   const struct alloc_table *allocs,
		   const struct name_set *atomic,
		   const struct name_set *lifetime, struct fn_summaries *out)
{
	struct name_set wrap[2];
	size_t alloc;

	extract(buf, len, 1, sleepers, allocs, atomic, lifetime, out, NULL);
	alloc = out->n;
	macros(buf, len, sleepers, allocs, atomic, lifetime, out, &alloc,
	       NULL);
	/*
	 * A file that takes its locks through its own helpers
	 * (`foo_lock(n) { write_lock_bh(&n->lock); }`) is read again with
	 * them as the sections' enter and leave calls, so that what its
	 * functions call between them is called in an atomic section.
	 */
	if (!lock_wrappers(out, wrap))
		return;
	fnsum_free(out);
	extract(buf, len, 1, sleepers, allocs, atomic, lifetime, out, wrap);
	alloc = out->n;
	macros(buf, len, sleepers, allocs, atomic, lifetime, out, &alloc,
	       wrap);
	names_free(&wrap[0]);
	names_free(&wrap[1]);
}

static void extract(const char *buf, size_t len, unsigned line0,
		    const struct name_set *sleepers,
		    const struct alloc_table *allocs,
		    const struct name_set *atomic,
		    const struct name_set *lifetime, struct fn_summaries *out,
		    const struct name_set *wrap)
{
	struct lx x = {buf, len, 0, line0, 1, wrap};
	const char *cand = NULL; /* file scope: NAME of `NAME (` */
	size_t cand_len = 0, alloc = 0;
	unsigned cand_line = 0;
	int depth = 0, is_static = 0, is_init = 0, assigned = 0,
	    after_paren = 0, k, want;
	struct body b = {0}; /* b.f: the body we are in */

	memset(out, 0, sizeof(*out));
	b.gfp_text = mem_find(buf, len, "GFP", 3) != NULL;
	while (peek(&x)) {
		char c = x.b[x.i];
		int closed = b.closed;

		b.closed = 0;
		x.bol = 0;
		if (c == '"' || c == '\'') {
			skip_quoted(&x, c);
			after_paren = 0;
			continue;
		}
		if (is_ident_start((unsigned char)c)) {
			const char *p = x.b + x.i;
			size_t n = 0;
			int member = x.i && (x.b[x.i - 1] == '.' ||
					     (x.i > 1 && x.b[x.i - 1] == '>' &&
					      x.b[x.i - 2] == '-'));
			unsigned line = x.line;

			while (x.i < x.len &&
			       is_ident_char((unsigned char)x.b[x.i]))
				x.i++, n++;
			after_paren = 0;
			if (closed && b.f && n == 4 && !memcmp(p, "else", 4)) {
				b.adepth = b.else_adepth;
				b.rel = b.else_rel;
			}
			if (!depth && n == 6 && !memcmp(p, "static", 6))
				is_static = 1;
			if (!depth && n == 6 && !memcmp(p, "__init", 6))
				is_init = 1;
			if (member && peek(&x) == '=')
				member_init(&x, p, n, line, atomic, out);
			if (peek(&x) != '(' || is_not_call(p, n))
				continue;
			for (k = AT_CALLBACK; atomic && !member && k <= AT_BOOT;
			     k++)
				if ((want = names_get(&atomic[k], p, n)) >= 0)
					registration(&x, &b, p, n, line, k,
						     want, out);
			if (!depth && !cand) {
				cand = p;
				cand_len = n;
				cand_line = line;
			} else if (b.f && !member) {
				b.depth = depth;
				note_call(&x, &b, p, n, sleepers, allocs,
					  atomic, lifetime);
			} else if (b.f) {
				char *m = xasprintf(".%.*s", (int)n, p);

				fnsum_add_name(&b.f->callees, &b.cap, m, n + 1);
				free(m);
			}
			continue;
		}
		x.i++;
		if (c == ')') {
			after_paren = 1;
			continue;
		}
		if (c == '{') {
			if (!depth && cand && after_paren && !assigned) {
				if (out->n == alloc) {
					alloc = alloc ? alloc * 2 : 16;
					out->v = xrealloc(
						out->v,
						alloc * sizeof(*out->v));
				}
				b.f = &out->v[out->n++];
				memset(b.f, 0, sizeof(*b.f));
				b.f->name = xstrndup(cand, cand_len);
				b.f->line = cand_line;
				b.f->is_static = is_static;
				b.cap = b.acap = b.ccap = b.gcap = 0;
				b.adepth = b.opens = b.closes = b.cond = 0;
				b.rel = b.nheld = 0;
				b.ucap = 0;
				b.f->is_init = is_init;
				b.decl = (size_t)(cand - x.b);
				b.open = x.i - 1;
				fnsum_gfp_params(x.b, b.decl, b.open, &b.gp);
			}
			depth++;
			if (b.f && depth < MAX_BLOCKS) {
				b.blk_adepth[depth] = b.adepth;
				b.blk_rel[depth] = b.rel;
			}
		} else if (c == '}') {
			/* a block that jumps away leaves the sections as they were */
			if (b.f && depth > 1 && depth < MAX_BLOCKS &&
			    fnsum_block_jumps(x.b, b.open, x.i - 1)) {
				b.adepth = b.blk_adepth[depth];
				b.rel = b.blk_rel[depth];
			}
			if (b.f && depth > 1 && depth < MAX_BLOCKS) {
				b.closed = 1;
				b.else_adepth = b.blk_adepth[depth];
				b.else_rel = b.blk_rel[depth];
			}
			/* a closing brace in column 0 ends any function */
			if (depth)
				depth--;
			if (x.i == 1 || x.b[x.i - 2] == '\n')
				depth = 0;
			if (!depth && b.f) {
				b.f->params = fnsum_params(x.b, b.decl, b.open,
							   x.i - 1, allocs,
							   lifetime);
				/*
				 * only opens, or only closes, each on
				 * every path: a wrapper
				 */
				b.f->lock = b.cond		   ? 0
					    : b.opens && !b.closes ? 1
					    : b.closes && !b.opens ? -1
								   : 0;
			}
			if (!depth) {
				b.f = NULL;
				cand = NULL;
				is_static = is_init = assigned = 0;
			}
		} else if (!depth && c == ';') {
			cand = NULL;
			is_static = is_init = assigned = 0;
		} else if (!depth && c == '=') {
			assigned = 1;
		}
		/*
		 * Only a `)` right before the `{` makes a definition;
		 * `) __acquires(x) {` still does, through the attribute's `)`.
		 */
		after_paren = 0;
	}
}

void fnsum_free(struct fn_summaries *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].sleeps);
		free(s->v[i].callees);
		free(s->v[i].atomic_callees);
		free(s->v[i].unlocked_callees);
		free(s->v[i].callbacks);
		free(s->v[i].params);
		free(s->v[i].gfp_sleeps);
		free(s->v[i].gfp_calls);
	}
	free(s->v);
	free(s->inits);
	free(s->callbacks);
	memset(s, 0, sizeof(*s));
}

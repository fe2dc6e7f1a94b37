// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the token stream of a function (owner_lex.h): statements,
 * assignments, parentheses, loops.  The token-level ownership walk of
 * owner_lex.c and the macro bodies of owner_macro.c are its users.
 */
#include "analyzer/owner_lex.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

int lex_tok_eq(const struct lexfile *lf, long i, const char *s, size_t n)
{
	return i >= 0 && (size_t)i < lf->ntoks && lf->toks[i].len == n &&
	       !memcmp(lf->buf + lf->toks[i].off, s, n);
}

int lex_tok_is(const struct lexfile *lf, long i, const char *s)
{
	return i >= 0 && (size_t)i < lf->ntoks &&
	       mem_is(lf->buf + lf->toks[i].off, lf->toks[i].len, s);
}

int lex_same_tok(const struct lexfile *lf, long a, long b)
{
	return lf->toks[a].len == lf->toks[b].len &&
	       !memcmp(lf->buf + lf->toks[a].off, lf->buf + lf->toks[b].off,
		       lf->toks[a].len);
}

long lex_tok_at(const struct lexfile *lf, unsigned line, unsigned col)
{
	size_t lo = 0, hi = lf->ntoks;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct tok *t = &lf->toks[mid];

		if (t->line < line || (t->line == line && t->col < col))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lf->ntoks && lf->toks[lo].line == line &&
			       lf->toks[lo].col == col
		       ? (long)lo
		       : -1;
}

long lex_prev(const struct lexfile *lf, long i)
{
	while (--i >= 0 && lf->toks[i].kind == TK_COMMENT)
		;
	return i;
}

long lex_next(const struct lexfile *lf, long i)
{
	while (++i < (long)lf->ntoks && lf->toks[i].kind == TK_COMMENT)
		;
	return i;
}

static long open_of(const struct lexfile *lf, long j, const char *open,
		    const char *close)
{
	int depth = 0;

	for (; j >= 0; j--) {
		if (lex_tok_is(lf, j, close))
			depth++;
		else if (lex_tok_is(lf, j, open) && !--depth)
			return j;
	}
	return -1;
}

long lex_paren_open(const struct lexfile *lf, long j)
{
	return open_of(lf, j, "(", ")");
}

long lex_brace_open(const struct lexfile *lf, long j)
{
	return open_of(lf, j, "{", "}");
}

long lex_if_open(const struct lexfile *lf, long j)
{
	long o;

	if (!lex_tok_is(lf, j, ")") || (o = lex_paren_open(lf, j)) <= 0 ||
	    !lex_tok_is(lf, lex_prev(lf, o), "if"))
		return -1;
	return o;
}

long lex_paren_close(const struct lexfile *lf, long i, long end)
{
	int depth = 0;

	for (; i < end; i++) {
		if (lex_tok_is(lf, i, "("))
			depth++;
		else if (lex_tok_is(lf, i, ")") && !--depth)
			return i;
	}
	return end;
}

/* Skip back over a cast `(void *)` ending at token I. */
long lex_before_cast(const struct lexfile *lf, long j)
{
	if (!lex_tok_is(lf, j, ")"))
		return j;
	return lex_prev(lf, lex_paren_open(lf, j));
}

/*
 * The first token of the left side of the `=` at J.  A parenthesised
 * part is passed whole: `per_cpu(ptr, cpu) = p` starts at per_cpu.
 */
long lex_stmt_start(const struct lexfile *lf, long j)
{
	long start, p;

	for (start = lex_prev(lf, j); start > 0; start = p) {
		p = lex_prev(lf, start);
		if (lex_tok_is(lf, start, ")")) {
			p = lex_paren_open(lf, start);
			if (p <= 0)
				break;
			start = p;
			p = lex_prev(lf, p);
		}
		if (p < 0 || lex_tok_is(lf, p, ";") || lex_tok_is(lf, p, "{") ||
		    lex_tok_is(lf, p, "}") || lex_tok_is(lf, p, ","))
			break;
		/* `#ifdef CONFIG_X` on the line before: no part of it */
		if (lf->toks[p].dir >= 0 && lf->toks[j].dir < 0)
			break;
	}
	return start;
}

int lex_local_aggregate(const struct lexfile *lf, long i)
{
	long j = lex_before_cast(lf, lex_prev(lf, i)), start, k, d, p;
	const struct lex_func *fn;

	if (!lex_tok_is(lf, j, "=") || lf->toks[i].fn < 0)
		return 0;
	fn = &lf->funcs[lf->toks[i].fn];
	start = lex_stmt_start(lf, j);
	if (start < 0 || lf->toks[start].kind != TK_IDENT ||
	    !(lex_tok_is(lf, start + 1, ".") || lex_tok_is(lf, start + 1, "[")))
		return 0;
	for (k = start; k < j; k++)
		if (lex_tok_is(lf, k, "->"))
			return 0;
	/* its declaration: a type name right before it, not `*` */
	for (d = fn->name_tok + 1; d < start; d++) {
		if (!lex_same_tok(lf, d, start))
			continue;
		p = lex_prev(lf, d);
		if (p >= 0 && (lf->toks[p].kind == TK_IDENT ||
			       lf->toks[p].kind == TK_KEYWORD) &&
		    !lex_tok_is(lf, p, "return") && !lex_tok_is(lf, p, "else"))
			return lex_tok_is(lf, start + 1, ".") ||
			       lex_tok_is(lf, d + 1, "[");
	}
	return 0;
}

enum lex_use lex_consumer(const struct lexfile *lf, long i, long *var)
{
	long j = lex_before_cast(lf, lex_prev(lf, i)), k, start;
	int plain = 1;

	*var = -1;
	if (lex_tok_is(lf, j, "return"))
		return LEX_RETURN;
	if (!lex_tok_is(lf, j, "="))
		return LEX_OTHER;
	/* the left side: back to the start of the statement */
	start = lex_stmt_start(lf, j);
	for (k = start; k < j; k++)
		if (lex_tok_is(lf, k, "->") || lex_tok_is(lf, k, ".") ||
		    lex_tok_is(lf, k, "[") ||
		    (k == start && lex_tok_is(lf, k, "*") && k + 2 == j))
			plain = 0;
	/* a macro that names a location: per_cpu(ptr, cpu) = p */
	if (lf->toks[start].kind == TK_IDENT && lex_tok_is(lf, start + 1, "(") &&
	    lex_tok_is(lf, lex_prev(lf, j), ")"))
		plain = 0;
	if (!plain)
		return LEX_STORE;
	k = lex_prev(lf, j);
	if (k < 0 || lf->toks[k].kind != TK_IDENT)
		return LEX_OTHER;
	*var = k;
	return LEX_VAR;
}

long lex_returns_var(const struct lexfile *lf, const struct lex_func *fn,
		     long from, long var)
{
	long k;

	for (k = from; k + 2 < (long)fn->body_close; k++)
		if (lex_tok_is(lf, k, "return") && lex_same_tok(lf, k + 1, var) &&
		    lex_tok_is(lf, k + 2, ";"))
			return k;
	return -1;
}

/*
 * Past what opens a statement before its expression, from START up to
 * J: `if (...)`, `while (...)`, `for (...)`, `switch (...)`, `else`,
 * `return`, `do`, a loop macro's `(...)`, a `case X:` or a label.
 */
long lex_past_control(const struct lexfile *lf, long start, long j)
{
	static const char *const heads[] = {"if", "while", "for", "switch"};
	static const char *const words[] = {"else", "return", "do"};
	long k, c;
	size_t h;
	int again = 1;

	while (again && start < j) {
		again = 0;
		for (h = 0; h < sizeof(heads) / sizeof(*heads); h++)
			if (lex_tok_is(lf, start, heads[h]) &&
			    lex_tok_is(lf, start + 1, "(")) {
				k = lex_paren_close(lf, start + 1, j);
				if (k >= j)
					return start;
				start = k + 1;
				again = 1;
			}
		for (h = 0; h < sizeof(words) / sizeof(*words); h++)
			if (lex_tok_is(lf, start, words[h])) {
				start++;
				again = 1;
			}
		/*
		 * A macro's `NAME (...)` before the place itself: a loop
		 * (`for_each_cpu(c, m) per_cpu(p, c) = v`), not the place
		 * (`foo(x)->buf`, `per_cpu(p, c)` alone).
		 */
		if (lf->toks[start].kind == TK_IDENT &&
		    lex_tok_is(lf, start + 1, "(")) {
			k = lex_paren_close(lf, start + 1, j);
			if (k + 1 < j && (lf->toks[k + 1].kind == TK_IDENT ||
					  lex_tok_is(lf, k + 1, "*"))) {
				start = k + 1;
				again = 1;
			}
		}
		/* `case X:` or `label:` (no `?` before it: no ternary) */
		for (c = start; c < j && !lex_tok_is(lf, c, "?"); c++)
			if (lex_tok_is(lf, c, ":") && !lex_tok_is(lf, c + 1, ":")) {
				start = c + 1;
				again = 1;
				break;
			}
	}
	return start;
}

char *lex_lhs_text(const struct lexfile *lf, long i)
{
	struct strbuf sb = STRBUF_INIT;
	long j = lex_before_cast(lf, lex_prev(lf, i)), start, k;

	start = lex_past_control(lf, lex_stmt_start(lf, j), j);
	/* `x->priv = p = kzalloc(...)`: the first place, up to its `=` */
	for (k = start; k >= 0 && k < j && !lex_tok_is(lf, k, "="); k++)
		if (lf->toks[k].kind != TK_COMMENT)
			sb_add(&sb, lf->buf + lf->toks[k].off, lf->toks[k].len);
	return sb.len ? sb_detach(&sb) : (sb_release(&sb), xstrdup("?"));
}

long lex_chain_var(const struct lexfile *lf, long i)
{
	long j = lex_before_cast(lf, lex_prev(lf, i)), v = lex_prev(lf, j);

	if (!lex_tok_is(lf, j, "=") || v < 1 || lf->toks[v].kind != TK_IDENT ||
	    !lex_tok_is(lf, lex_prev(lf, v), "="))
		return -1;
	return v;
}

/* Is the `)` at J the end of a loop's header? */
static int loop_header(const struct lexfile *lf, long j, long start)
{
	long o;

	if (!lex_tok_is(lf, j, ")") || (o = lex_paren_open(lf, j)) <= start)
		return 0;
	return lex_tok_is(lf, o - 1, "for") || lex_tok_is(lf, o - 1, "while") ||
	       (lf->toks[o - 1].kind == TK_IDENT &&
		memmem(lf->buf + lf->toks[o - 1].off, lf->toks[o - 1].len,
		       "for_each", 8));
}

/*
 * Where the body of the innermost loop that holds token K opens: its
 * `{` (`for (...) {`, `while (...) {`, `do {`, a `list_for_each_entry
 * (...) {` macro), or the header's `)` when the body is the statement
 * that starts at K; -1 outside loops.  START is the function's `{`.
 */
long lex_loop_of(const struct lexfile *lf, long k, long start)
{
	long j;
	int depth = 0;

	if (loop_header(lf, k - 1, start))
		return k - 1;
	for (j = k - 1; j > start; j--) {
		if (lex_tok_is(lf, j, "}")) {
			depth++;
			continue;
		}
		if (!lex_tok_is(lf, j, "{") || depth-- > 0)
			continue;
		depth = 0;
		if (lex_tok_is(lf, j - 1, "do") ||
		    loop_header(lf, j - 1, start))
			return j;
	}
	return -1;
}

/* The end of the loop body that opens at O (lex_loop_of()). */
long lex_loop_close(const struct lexfile *lf, long o, long end)
{
	int depth = 0;

	if (!lex_tok_is(lf, o, "{")) {
		for (o++; o < end && !lex_tok_is(lf, o, ";"); o++)
			;
		return o;
	}
	for (; o < end; o++)
		if (lex_tok_is(lf, o, "{"))
			depth++;
		else if (lex_tok_is(lf, o, "}") && !--depth)
			return o;
	return end;
}

/* The token after the statement that starts at K (before END). */
long lex_stmt_end(const struct lexfile *lf, long k, long end)
{
	int depth = 0;

	if (k >= end)
		return end;
	if (lex_tok_is(lf, k, "{")) {
		for (; k < end; k++)
			if (lex_tok_is(lf, k, "{"))
				depth++;
			else if (lex_tok_is(lf, k, "}") && !--depth)
				return k + 1;
		return end;
	}
	if ((lex_tok_is(lf, k, "if") || lex_tok_is(lf, k, "while") ||
	     lex_tok_is(lf, k, "for") || lex_tok_is(lf, k, "switch")) &&
	    lex_tok_is(lf, k + 1, "(")) {
		int is_if = lex_tok_is(lf, k, "if");

		k = lex_stmt_end(lf, lex_paren_close(lf, k + 1, end) + 1, end);
		if (is_if && lex_tok_is(lf, k, "else"))
			k = lex_stmt_end(lf, k + 1, end);
		return k;
	}
	if (lex_tok_is(lf, k, "else") || lex_tok_is(lf, k, "do")) {
		int is_do = lex_tok_is(lf, k, "do");

		k = lex_stmt_end(lf, k + 1, end);
		/* do ... while (...); */
		return is_do ? lex_stmt_end(lf, k, end) : k;
	}
	for (; k < end; k++)
		if (lex_tok_is(lf, k, "(") || lex_tok_is(lf, k, "{"))
			depth++;
		else if (lex_tok_is(lf, k, ")") || lex_tok_is(lf, k, "}"))
			depth--;
		else if (lex_tok_is(lf, k, ";") && depth <= 0)
			return k + 1;
	return end;
}

/*
 * Is the `else` at K the other branch of an `if` whose then-branch
 * holds token I?  Then the token after that branch (a path that made
 * I's statement does not run it), else -1.
 */
long lex_else_skip(const struct lexfile *lf, long k, long i, long end)
{
	long j = lex_prev(lf, k), o;

	if (!lex_tok_is(lf, k, "else") || j < 0 || j <= i)
		return -1;
	if (lex_tok_is(lf, j, "}")) {
		/* the then-block's `{`, preceded by the condition's `)` */
		o = lex_brace_open(lf, j);
		if (o < 0 || o > i)
			return -1;
		if (lex_if_open(lf, lex_prev(lf, o)) < 0)
			return -1;
	} else {
		/* an unbraced then-statement: it starts after `if (...)` */
		for (o = lex_prev(lf, j); o >= 0; o = lex_prev(lf, o)) {
			if (lex_tok_is(lf, o, ";") || lex_tok_is(lf, o, "{") ||
			    lex_tok_is(lf, o, "}"))
				return -1;
			if (!lex_tok_is(lf, o, ")"))
				continue;
			o = lex_paren_open(lf, o);
			if (o <= 0)
				return -1;
			if (lex_tok_is(lf, lex_prev(lf, o), "if"))
				break;
		}
		if (o < 0 || lex_paren_close(lf, o, end) >= i)
			return -1;
	}
	return lex_stmt_end(lf, lex_next(lf, k), end);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Sites: every allocator name followed by '(' that is a call (not a
 * prototype or a member), its arguments as written, flags through a local
 * variable, and this file's allocator macros and their uses.
 */
#include "analyzer/lexint.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct arg {
	unsigned a, b; /* token range [a, b) */
};

/* Split the argument list opening at token OPEN; returns the count. */
static int split_args(const struct lexfile *lf, int open, struct arg *args,
		      int max, int *close)
{
	int depth = 0, n = 0, j, start = -1;

	for (j = lx_next_code(lf, open); j >= 0; j = lx_next_code(lf, j)) {
		if (lx_is_punct(lf, j, "(") || lx_is_punct(lf, j, "[") ||
		    lx_is_punct(lf, j, "{")) {
			depth++;
		} else if (lx_is_punct(lf, j, ")") || lx_is_punct(lf, j, "]") ||
			   lx_is_punct(lf, j, "}")) {
			if (depth-- == 0)
				break;
		} else if (depth == 0 && lx_is_punct(lf, j, ",")) {
			if (n < max)
				args[n] = (struct arg){
					start < 0 ? (unsigned)j : (unsigned)start,
					(unsigned)j };
			n++;
			start = -1;
			continue;
		} else if (depth == 0 && lx_is_punct(lf, j, ";")) {
			break; /* not a call after all (or broken code) */
		}
		if (start < 0)
			start = j;
	}
	*close = j;
	if (j >= 0 && lx_is_punct(lf, j, ")") && (start >= 0 || n > 0)) {
		if (n < max)
			args[n] = (struct arg){
				start < 0 ? (unsigned)j : (unsigned)start,
				(unsigned)j };
		n++;
	}
	return n;
}

/* End of the expression starting at token A (at ';' or ',' depth 0). */
static int expr_end(const struct lexfile *lf, int a, int limit)
{
	int depth = 0, j;

	for (j = a; j >= 0 && j < limit; j = lx_next_code(lf, j)) {
		if (lx_is_punct(lf, j, "(") || lx_is_punct(lf, j, "[") ||
		    lx_is_punct(lf, j, "{"))
			depth++;
		else if (lx_is_punct(lf, j, ")") || lx_is_punct(lf, j, "]") ||
			 lx_is_punct(lf, j, "}")) {
			if (depth-- == 0)
				return j;
		} else if (!depth && (lx_is_punct(lf, j, ";") ||
				      lx_is_punct(lf, j, ",")))
			return j;
	}
	return j < 0 ? limit : j;
}

/* The `{` of the block that holds token J, or -1. */
static int block_of(const struct lexfile *lf, int j, int stop)
{
	int depth = 0;

	for (j = lx_prev_code(lf, j); j > stop; j = lx_prev_code(lf, j)) {
		if (lx_is_punct(lf, j, "}"))
			depth++;
		else if (lx_is_punct(lf, j, "{") && depth-- == 0)
			return j;
	}
	return -1;
}

/* Does the block opened at token OPEN still hold token AT? */
static int holds(const struct lexfile *lf, int open, int at)
{
	int depth = 0, j;

	for (j = open; j >= 0 && j < at; j = lx_next_code(lf, j))
		if (lx_is_punct(lf, j, "{"))
			depth++;
		else if (lx_is_punct(lf, j, "}") && --depth == 0)
			return 0;
	return 1;
}

/*
 * Is the statement at token J an arm of an `if` that does not hold token
 * CALL (a path to CALL that it may not be on)?  The `(` of the if's
 * condition for its first arm (`if (c) x = a;`, or any statement of `if
 * (c) { ... }`), 0 for its `else` arm, -1 when it is no such arm.
 */
static int arm_of(const struct lexfile *lf, int j, int stop, int call)
{
	int p = lx_prev_code(lf, j), q;

	if (p > stop && (lx_is_punct(lf, p, ";") || lx_is_punct(lf, p, "}") ||
			 lx_is_punct(lf, p, "{"))) {
		/* the `{` of the block the statement is in */
		p = lx_is_punct(lf, p, "{") ? p : block_of(lf, j, stop);
		if (p <= stop || holds(lf, p, call))
			return -1;
		p = lx_prev_code(lf, p);
	}
	if (p > stop && lx_tok_is(lf, (unsigned)p, "else"))
		return 0;
	if (p <= stop || !lx_is_punct(lf, p, ")") ||
	    (q = lx_match_back(lf, p)) <= stop ||
	    !lx_tok_is(lf, (unsigned)lx_prev_code(lf, q), "if"))
		return -1;
	return q;
}

/* The text of the condition of the `if` whose `(` is token COND. */
static char *cond_text(const struct lexfile *lf, int cond)
{
	int depth = 0, j;

	for (j = cond; j >= 0; j = lx_next_code(lf, j))
		if (lx_is_punct(lf, j, "("))
			depth++;
		else if (lx_is_punct(lf, j, ")") && --depth == 0)
			break;
	return j < 0 ? NULL
		     : lex_text(lf, (unsigned)lx_next_code(lf, cond), (unsigned)j);
}

/*
 * flags passed through a local variable: the last `VAR = expr` before the
 * call in the same function, with later `VAR |= x` / `VAR &= x` folded in.
 * When that assignment is an arm of an `if` and an earlier one reaches
 * the call on the other path (`gfp = GFP_KERNEL; if (atomic) gfp =
 * GFP_ATOMIC;`, or an if/else), the path picks the flags, as if written
 * `atomic ? GFP_ATOMIC : GFP_KERNEL` (the context step leaves a path's
 * choice to the path).
 */
static void resolve_via(struct lexfile *lf, struct lex_site *ls,
			const struct arg *ga)
{
	const struct tok *v = &lf->toks[ga->a];
	const struct lex_func *f;
	struct strbuf sb = STRBUF_INIT;
	char *ops[16], *rhs[16], *other = NULL;
	int nops = 0, j, k, found = 0, arm = -1, other_arm = -1;

	if (ls->fn < 0 || v->kind != TK_IDENT || lx_next_code(lf, ga->a) != (int)ga->b)
		return;
	if (menv_get(&lf->local, lf->buf + v->off, v->len))
		return;
	f = &lf->funcs[ls->fn];
	for (j = (int)ls->tok - 1; j > (int)f->body_open; j--) {
		const struct tok *t = &lf->toks[j];
		int op, pv, end;

		if (t->kind != TK_IDENT || t->len != v->len ||
		    memcmp(lf->buf + t->off, lf->buf + v->off, v->len) ||
		    t->dir >= 0)
			continue;
		op = lx_next_code(lf, j);
		pv = lx_prev_code(lf, j);
		if (op < 0 || !lx_is_assign_op(lf, op) ||
		    (pv >= 0 && (lx_is_punct(lf, pv, ".") ||
				 lx_is_punct(lf, pv, "->"))))
			continue;
		end = expr_end(lf, lx_next_code(lf, op), (int)ls->tok);
		if (found) {
			/* the value the other path brings, if plain */
			if (lx_tok_is(lf, (unsigned)op, "=")) {
				other = lex_text(lf, (unsigned)lx_next_code(lf, op),
						 (unsigned)end);
				other_arm = arm_of(lf, j, (int)f->body_open,
						   (int)ls->tok);
			}
			break;
		}
		if (lx_tok_is(lf, (unsigned)op, "=")) {
			found = 1;
			arm = arm_of(lf, j, (int)f->body_open, (int)ls->tok);
		}
		if (nops < 16) {
			ops[nops] = xstrndup(lf->buf + lf->toks[op].off, 1);
			rhs[nops++] = lex_text(lf, (unsigned)lx_next_code(lf, op),
					       (unsigned)end);
		}
		if (found && arm < 0)
			break;
	}
	if (found) {
		/* ops[nops-1] is the plain assignment; fold the rest. */
		char *c = NULL;

		if (other && arm > 0)
			c = cond_text(lf, arm);
		else if (other && arm == 0 && other_arm > 0)
			c = cond_text(lf, other_arm);
		if (c && arm > 0)
			sb_addf(&sb, "%s ? %s : %s", c, rhs[nops - 1], other);
		else if (c)
			sb_addf(&sb, "%s ? %s : %s", c, other, rhs[nops - 1]);
		else
			sb_adds(&sb, rhs[nops - 1]);
		free(c);
		for (k = nops - 2; k >= 0; k--) {
			char *prev = sb_detach(&sb);

			sb_addf(&sb, "(%s) %s %s", prev, ops[k], rhs[k]);
			free(prev);
		}
		ls->s.flags_via = xstrndup(lf->buf + v->off, v->len);
		ls->s.flags_resolved = sb_detach(&sb);
	}
	free(other);
	for (k = 0; k < nops; k++) {
		free(ops[k]);
		free(rhs[k]);
	}
}

static struct lex_site *new_site(struct lexfile *lf)
{
	struct lex_site *ls;

	if (lf->nsites == lf->sites_alloc) {
		lf->sites_alloc = lf->sites_alloc ? lf->sites_alloc * 2 : 16;
		lf->sites = xrealloc(lf->sites,
				     lf->sites_alloc * sizeof(*lf->sites));
	}
	ls = &lf->sites[lf->nsites++];
	memset(ls, 0, sizeof(*ls));
	ls->s.gfp_arg = -1;
	ls->s.held_across_sleep = -1;
	ls->s.flag_effective = -1;
	return ls;
}

/* Is the allocator name at I a call (not a prototype or a member)? */
static int is_call_site(const struct lexfile *lf, unsigned i, int *open)
{
	const struct tok *t = &lf->toks[i];
	int pv = lx_prev_code(lf, (int)i);

	*open = lx_next_code(lf, (int)i);
	if (*open < 0 || !lx_is_punct(lf, *open, "("))
		return 0;
	if (pv >= 0 && (lx_is_punct(lf, pv, ".") || lx_is_punct(lf, pv, "->")))
		return 0;
	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		return !strcmp(d->kind, "define") && d->name != (int)i;
	}
	/* At file scope `void *kmalloc(size_t, gfp_t)` is a declaration. */
	if (t->brace == BR_NONE || t->brace == BR_AGG)
		return !(pv >= 0 && (lx_is_word(lf, pv) || lx_is_punct(lf, pv, "*") ||
				     lx_is_punct(lf, pv, ")")));
	return 1;
}

static void add_site(struct lexfile *lf, unsigned i,
		     const struct alloc_fn *af, int open)
{
	struct arg args[16];
	struct lex_site *ls;
	int nargs, close;
	const struct tok *t = &lf->toks[i];

	nargs = split_args(lf, open, args, 16, &close);
	ls = new_site(lf);
	ls->tok = i;
	ls->off = t->off;
	ls->fn = t->fn;
	ls->afn = af;
	ls->s.path = xstrdup(lf->path);
	ls->s.line = t->line;
	ls->s.col = t->col;
	ls->s.function = lx_fn_name(lf, t->fn);
	ls->s.api = xstrdup(af->name);
	ls->s.api_origin = af->learned ? "learned" : "builtin";
	ls->s.gfp_arg = af->gfp_arg;
	ls->s.macro = lx_define_name(lf, i);
	ls->s.in_disabled_branch = t->disabled;
	if (af->gfp_arg >= 0 && af->gfp_arg < nargs && af->gfp_arg < 16) {
		const struct arg *ga = &args[af->gfp_arg];

		ls->s.flags = lex_text(lf, ga->a, ga->b);
		ls->s.flags_line = lf->toks[ga->a].line;
		ls->s.flags_col = lf->toks[ga->a].col;
		resolve_via(lf, ls, ga);
	}
	if (af->size_arg >= 0 && af->size_arg < nargs && af->size_arg < 16)
		ls->s.size = lex_text(lf, args[af->size_arg].a,
				      args[af->size_arg].b);
}

/* Is the function at F declared static (a specifier before its name)? */
static int func_static(const struct lexfile *lf, const struct lex_func *fn)
{
	int i = (int)fn->name_tok, k;

	for (k = 0; k < 64; k++) {
		i = lx_prev_code(lf, i);
		if (i < 0 || lf->toks[i].dir >= 0 || lx_is_punct(lf, i, ";") ||
		    lx_is_punct(lf, i, "}") || lx_is_punct(lf, i, "{"))
			break;
		if (lx_tok_is(lf, (unsigned)i, "static"))
			return 1;
	}
	return 0;
}

/* Does parameter K of FN's definition have type gfp_t? */
static int param_is_gfp(const struct lexfile *lf, const struct lex_func *fn,
			int k)
{
	int i = lx_next_code(lf, (int)fn->name_tok), depth = 0, at = 0;

	if (i < 0 || !lx_is_punct(lf, i, "("))
		return 0;
	for (i = lx_next_code(lf, i); i >= 0 && (unsigned)i < fn->body_open;
	     i = lx_next_code(lf, i)) {
		if (lx_is_punct(lf, i, "(") || lx_is_punct(lf, i, "["))
			depth++;
		else if (lx_is_punct(lf, i, ")") || lx_is_punct(lf, i, "]")) {
			if (!depth--)
				return 0;
		} else if (!depth && lx_is_punct(lf, i, ","))
			at++;
		else if (at == k && lx_tok_is(lf, (unsigned)i, "gfp_t"))
			return 1;
	}
	return 0;
}

/*
 * A learned allocator of another file that this file's own static
 * function of the same name hides: calls here are calls of that one, and
 * when it has no gfp_t where the other takes its flags it is another
 * function altogether (`alloc_msg(len)` of ipc/ against mlx5's
 * `alloc_msg(dev, size, gfp)`; `alloc_buffer(bus, fill)` of the ehci and
 * ohci debug files against dm-bufio's).  One that does take them there
 * (a !CONFIG stub in a header, the same helper in another driver) is the
 * same allocator.
 */
static int shadowed(const struct lexfile *lf, const struct alloc_fn *af)
{
	size_t f;

	if (!af->learned || !af->path || af->gfp_arg < 0 ||
	    !strcmp(af->path, lf->path))
		return 0;
	for (f = 0; f < lf->nfuncs; f++) {
		const struct lex_func *fn = &lf->funcs[f];

		if (!strcmp(fn->name, af->name) && func_static(lf, fn) &&
		    !param_is_gfp(lf, fn, af->gfp_arg))
			return 1;
	}
	return 0;
}

void lx_find_sites(struct lexfile *lf, const struct alloc_table *at)
{
	unsigned i;

	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];
		const struct alloc_fn *af;
		int open;

		if (t->kind != TK_IDENT)
			continue;
		af = alloc_lookup(at, lf->buf + t->off, t->len);
		if (!af || af->kind == AK_FREE || !is_call_site(lf, i, &open) ||
		    shadowed(lf, af))
			continue;
		add_site(lf, i, af, open);
		/* A learned macro defined here is handled by find_macro_sites. */
		if (af->learned && af->family && !strcmp(af->family, "macro") &&
		    menv_get(&lf->local, af->name, strlen(af->name)))
			site_release(&lf->sites[--lf->nsites].s);
	}
}

/* Parameter index of NAME (possibly in parentheses) in define D, or -1. */
/* Token index of the K-th parameter of function-like define D, or -1. */
static int param_tok(const struct lexfile *lf, const struct directive *d,
		     int k)
{
	unsigned j;

	for (j = (unsigned)d->name + 2; j < d->body && j < d->end; j++) {
		const struct tok *t = &lf->toks[j];

		if ((t->kind == TK_IDENT || t->kind == TK_KEYWORD) && k-- == 0)
			return (int)j;
	}
	return -1;
}

/* The parameter of D named by identifier S[0..n), or -1. */
static int param_named(const struct lexfile *lf, const struct directive *d,
		       const char *s, size_t n)
{
	int k, t;

	for (k = 0; (t = param_tok(lf, d, k)) >= 0; k++)
		if (lf->toks[t].len == n && !memcmp(lf->buf + lf->toks[t].off, s, n))
			return k;
	return -1;
}

/* The first parameter of D that TEXT (a body argument) mentions, or -1. */
static int first_param_in(const struct lexfile *lf, const struct directive *d,
			  const char *text)
{
	size_t i = 0, n = strlen(text);

	while (i < n) {
		size_t st = i;
		int k;

		if (!is_ident_start((unsigned char)text[i])) {
			i++;
			continue;
		}
		while (i < n && is_ident_char((unsigned char)text[i]))
			i++;
		k = param_named(lf, d, text + st, i - st);
		if (k >= 0)
			return k;
	}
	return -1;
}

/* TEXT with D's parameters replaced by the use's argument texts. */
static char *substitute(const struct lexfile *lf, const struct directive *d,
			const char *text, char **args, int nargs)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0, n = strlen(text);

	sb_adds(&sb, "");
	while (i < n) {
		size_t st = i;
		int k;

		if (!is_ident_start((unsigned char)text[i]) ||
		    (i && is_ident_char((unsigned char)text[i - 1]))) {
			sb_addc(&sb, text[i++]);
			continue;
		}
		while (i < n && is_ident_char((unsigned char)text[i]))
			i++;
		k = param_named(lf, d, text + st, i - st);
		if (k >= 0 && k < nargs)
			sb_adds(&sb, args[k]);
		else
			sb_add(&sb, text + st, i - st);
	}
	return sb_detach(&sb);
}

/*
 * A macro of this file into lf->macros, with the line of its #define and
 * the site in its body ((size_t)-1 for a free macro, which has none).
 */
static void add_macro(struct lexfile *lf, const struct alloc_fn *a,
		      unsigned line, size_t site)
{
	struct alloc_fn m = *a;

	m.path = (char *)lf->path;
	alloc_table_add(&lf->macros, &m);
	lf->macro_line = xrealloc(lf->macro_line,
				  lf->macros.n * sizeof(unsigned));
	lf->macro_site = xrealloc(lf->macro_site,
				  lf->macros.n * sizeof(size_t));
	lf->macro_line[lf->macros.n - 1] = line;
	lf->macro_site[lf->macros.n - 1] = site;
}

void lx_learn_macros(struct lexfile *lf, const struct alloc_table *at)
{
	size_t i, nsites = lf->nsites;

	for (i = 0; i < nsites; i++) {
		struct lex_site *ls = &lf->sites[i];
		const struct directive *d;
		const struct alloc_fn *g;
		struct alloc_fn a = { 0 };

		if (!ls->s.macro || lf->toks[ls->tok].dir < 0)
			continue;
		d = &lf->dirs[lf->toks[ls->tok].dir];
		if (d->body <= (unsigned)d->name + 1 ||
		    !lx_is_punct(lf, (unsigned)d->name + 1, "(") ||
		    alloc_lookup(&lf->macros, ls->s.macro, strlen(ls->s.macro)))
			continue;
		g = alloc_lookup(at, ls->s.macro, strlen(ls->s.macro));
		if (g && !g->learned)
			continue; /* builtin entries win */
		a.name = ls->s.macro;
		a.kind = ls->afn->kind == AK_CACHE_CREATE ? AK_CACHE_CREATE :
							     AK_ALLOC;
		a.family = "macro";
		/* The parameter the flags (size) flow from, if any. */
		a.gfp_arg = ls->s.flags ? first_param_in(lf, d, ls->s.flags) : -1;
		a.size_arg = ls->s.size ? first_param_in(lf, d, ls->s.size) : -1;
		a.ptr_arg = -1;
		a.learned = 1;
		a.via = ls->s.api;
		add_macro(lf, &a, lf->toks[d->name].line, i);
	}
}

/*
 * `#define __putname(name) kmem_cache_free(names_cachep, (void *)(name))`:
 * a function-like macro whose whole body is a call of a free function,
 * the pointer freed being the macro's first parameter, frees what a use
 * names first, as a free wrapper does (a learned free frees argument 0:
 * tables.c).  Family "macro": such a macro frees unconditionally, so a
 * path walk in another file may take a use as the free itself.
 */
void lx_learn_free_macros(struct lexfile *lf, const struct alloc_table *at)
{
	size_t k;

	for (k = 0; k < lf->ndirs; k++) {
		const struct directive *d = &lf->dirs[k];
		unsigned b = d->body, e = d->end, j;
		const struct alloc_fn *f, *g;
		struct alloc_fn a = { 0 };
		struct arg args[16];
		int close, n, ptr, ok;
		char *t;

		if (strcmp(d->kind, "define") || d->name < 0 ||
		    b <= (unsigned)d->name + 1 ||
		    !lx_is_punct(lf, (unsigned)d->name + 1, "("))
			continue;
		while (b < e && lx_is_punct(lf, b, "("))
			b++;
		if (b + 1 >= e || lf->toks[b].kind != TK_IDENT ||
		    !lx_is_punct(lf, b + 1, "("))
			continue;
		f = alloc_lookup(at, lf->buf + lf->toks[b].off,
				 lf->toks[b].len);
		if (!f || f->kind != AK_FREE)
			continue;
		n = split_args(lf, (int)b + 1, args, 16, &close);
		ptr = f->ptr_arg < 0 ? 0 : f->ptr_arg;
		if (n > 16 || ptr >= n || close < 0 || (unsigned)close >= e ||
		    !lx_is_punct(lf, (unsigned)close, ")"))
			continue;
		/* nothing after the call but the parentheses around it */
		ok = 1;
		for (j = (unsigned)close + 1; j < e && ok; j++)
			ok = lx_is_punct(lf, j, ")") ||
			     lf->toks[j].kind == TK_COMMENT;
		if (!ok)
			continue;
		t = lex_text(lf, args[ptr].a, args[ptr].b);
		ok = first_param_in(lf, d, t) == 0;
		free(t);
		if (!ok)
			continue;
		a.name = xstrndup(lf->buf + lf->toks[d->name].off,
				  lf->toks[d->name].len);
		g = alloc_lookup(at, a.name, strlen(a.name));
		if ((g && !g->learned) ||
		    alloc_lookup(&lf->macros, a.name, strlen(a.name))) {
			free(a.name);
			continue;
		}
		a.kind = AK_FREE;
		a.family = "macro";
		a.gfp_arg = a.size_arg = -1;
		a.ptr_arg = 0;
		a.learned = 1;
		a.via = f->name;
		add_macro(lf, &a, lf->toks[d->name].line, (size_t)-1);
		free(a.name);
	}
}

static int has_site_at(const struct lexfile *lf, unsigned off)
{
	size_t i;

	for (i = 0; i < lf->nsites; i++)
		if (lf->sites[i].off == off)
			return 1;
	return 0;
}

/*
 * A use of an allocator macro of this file: its flags and size are the
 * body's with the parameters replaced by the use's arguments, as the
 * preprocessor would.
 */
static void expand_use(struct lexfile *lf, struct lex_site *ls, int open,
		       const struct site *body, const struct directive *d)
{
	struct arg args[16];
	char *texts[16];
	int close, n = split_args(lf, open, args, 16, &close), k;

	if (n > 16)
		n = 16;
	for (k = 0; k < n; k++)
		texts[k] = lex_text(lf, args[k].a, args[k].b);
	free(ls->s.flags);
	free(ls->s.size);
	ls->s.flags = body->flags ? substitute(lf, d, body->flags, texts, n) :
				    NULL;
	ls->s.size = body->size ? substitute(lf, d, body->size, texts, n) : NULL;
	if (ls->afn->gfp_arg < 0 || ls->afn->gfp_arg >= n) {
		ls->s.flags_line = body->flags_line;
		ls->s.flags_col = body->flags_col;
	}
	for (k = 0; k < n; k++)
		free(texts[k]);
}

/* Uses of this file's allocator macros are sites of their own. */
void lx_find_macro_sites(struct lexfile *lf)
{
	unsigned i;

	for (i = 0; i < lf->ntoks && lf->macros.n; i++) {
		const struct tok *t = &lf->toks[i];
		const struct alloc_fn *af;
		const struct lex_site *body;
		int open, at;

		if (t->kind != TK_IDENT)
			continue;
		af = alloc_lookup(&lf->macros, lf->buf + t->off, t->len);
		if (!af || af->kind == AK_FREE || !is_call_site(lf, i, &open) ||
		    has_site_at(lf, t->off))
			continue;
		at = names_get(&lf->macros.index, af->name, strlen(af->name));
		add_site(lf, i, af, open);
		body = &lf->sites[lf->macro_site[at]];
		expand_use(lf, &lf->sites[lf->nsites - 1], open, &body->s,
			   &lf->dirs[lf->toks[body->tok].dir]);
	}
}

int lx_by_offset(const void *a, const void *b)
{
	const struct lex_site *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}


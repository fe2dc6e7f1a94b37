// SPDX-License-Identifier: GPL-2.0
/*
 * The structured interpreter of flow.h.  Statements are executed in
 * source order with a state mask; joins are unions.  Loops run their body
 * until the state at the head stops growing (the masks are small, so a
 * few rounds do), and the whole body is re-run while a goto adds states
 * to its label: the kernel's `goto out_free;` error paths then reach the
 * free at the label with the states of every jump.
 */
#include "analyzer/flow.h"
#include "analyzer/ast.h"
#include "analyzer/owner_lex.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 6
#define MAX_LOOP_ROUNDS 4

struct label {
	char *name;
	unsigned in;
};

/* The innermost break (loop or switch) and continue (loop) targets. */
struct jump_ctx {
	unsigned brk, cont;
	int is_switch;
	unsigned sw_in;	 /* switch: state at the case labels */
	int has_default; /* switch: saw default: */
	struct jump_ctx *up;
};

struct engine {
	const struct walk_ctx *w;
	const struct flow_domain *d;
	struct label *labels;
	size_t nlabels;
	int changed;
	struct jump_ctx *jc;
};

static unsigned exec(struct engine *e, CXCursor s, unsigned st);
static unsigned exec_loop(struct engine *e, enum CXCursorKind kind,
			  CXCursor *k, unsigned n, unsigned st);

/* The label NAME (a string the engine keeps or frees). */
static struct label *label_named(struct engine *e, char *name)
{
	size_t i;

	for (i = 0; i < e->nlabels; i++)
		if (!strcmp(e->labels[i].name, name)) {
			free(name);
			return &e->labels[i];
		}
	e->labels = xrealloc(e->labels, (e->nlabels + 1) * sizeof(*e->labels));
	e->labels[e->nlabels].name = name;
	e->labels[e->nlabels].in = 0;
	return &e->labels[e->nlabels++];
}

static struct label *label(struct engine *e, CXCursor c)
{
	return label_named(e, ast_name(c));
}

static void jump_to(struct engine *e, struct label *l, unsigned st)
{
	if ((l->in | st) != l->in) {
		l->in |= st;
		e->changed = 1;
	}
}

/* Is the test opened at `(` O one of something's absence? */
static int absence_test(const struct lexfile *lf, long o)
{
	long c = lex_paren_close(lf, o, (long)lf->ntoks), k;

	if (lex_tok_is(lf, o + 1, "!") ||
	    (lex_tok_is(lf, o + 1, "unlikely") && lex_tok_is(lf, o + 3, "!")))
		return 1;
	for (k = o + 1; k < c; k++)
		if (lex_tok_is(lf, k, "NULL") || lex_tok_is(lf, k, "IS_ERR") ||
		    lex_tok_is(lf, k, "IS_ERR_OR_NULL"))
			return 1;
	return 0;
}

/*
 * May the `goto` at token G, in text the parse dropped from offset FROM
 * on, jump with the state the text before it leaves?  The domain reads
 * only the calls such text makes unconditionally, so not when its block
 * or its test makes a call before it (`if (read(dev)) { kfree(buf);
 * goto out; }`: what the call does is not in that state), nor when the
 * test is of something's absence (`if (!p) goto out;`, a failed
 * allocation's exit, which a parsed test would have told apart).  The
 * first token of the dropped statement that holds it when it may, else
 * -1.
 */
static long gap_goto_plain(const struct lexfile *lf, unsigned from, long g)
{
	long k = g, o, outer = g, close;
	int depth = 0;

	if ((o = lex_if_open(lf, lex_prev(lf, g))) > 0 && absence_test(lf, o))
		return -1;
	/* out through the blocks that hold it, as far as the text goes */
	while ((k = lex_prev(lf, k)) >= 0 && lf->toks[k].off >= from) {
		if (lex_tok_is(lf, k, "}") || lex_tok_is(lf, k, ")")) {
			depth++;
		} else if (lex_tok_is(lf, k, "(")) {
			depth--;
		} else if (lex_tok_is(lf, k, "{") && !depth) {
			o = lex_if_open(lf, lex_prev(lf, k));
			if (o > 0 && absence_test(lf, o))
				return -1;
			outer = k;
		} else if (lex_tok_is(lf, k, "{")) {
			depth--;
		}
	}
	/* the first token of the outermost statement that holds it */
	for (k = outer, depth = 0; (o = lex_prev(lf, k)) >= 0 &&
				   lf->toks[o].off >= from;
	     k = o) {
		if (lex_tok_is(lf, o, ")"))
			depth++;
		else if (lex_tok_is(lf, o, "("))
			depth--;
		else if (!depth && (lex_tok_is(lf, o, ";") ||
				    lex_tok_is(lf, o, "{") ||
				    lex_tok_is(lf, o, "}") ||
				    lex_tok_is(lf, o, ":")))
			break;
	}
	/*
	 * A call of that statement before the goto is one the domain did
	 * not apply; a loop macro's header (`list_for_each_entry(...) {`)
	 * is none.
	 */
	for (o = k; o < g; o++) {
		if (lf->toks[o].kind != TK_IDENT || !lex_tok_is(lf, o + 1, "("))
			continue;
		close = lex_paren_close(lf, o + 1, g);
		if (close >= g || !lex_tok_is(lf, close + 1, "{"))
			return -1;
	}
	return k;
}

/*
 * Give the domain the main-file text [FROM, TO) that the parse kept no
 * statement of (a loop macro's header it could not read, a statement
 * naming what a header declares), and take a `goto NAME` in it as a
 * jump made with the state the text before its statement leaves
 * (gap_goto_plain() says which): `list_for_each_entry_rcu(i, &l, link)
 * { if (...) goto found; }` when the parse dropped the loop.  The text
 * runs on past the goto, as the branch that does not take it.
 */
static unsigned gap_run(struct engine *e, unsigned from, unsigned to,
			unsigned st)
{
	const struct lexfile *lf = e->w->lf;
	unsigned k, seg = from;

	for (k = lf ? ast_tok_at(e->w, from) : 0;
	     lf && k + 1 < lf->ntoks && lf->toks[k + 1].off < to && st; k++) {
		long at;

		if (!lex_tok_is(lf, (long)k, "goto") ||
		    lf->toks[k + 1].kind != TK_IDENT ||
		    (at = gap_goto_plain(lf, from, (long)k)) < 0)
			continue;
		/* the text up to the statement that holds it, whole */
		if (e->d->gap && lf->toks[at].off > seg)
			st = e->d->gap(e->d->ctx, seg, lf->toks[at].off, st);
		if (lf->toks[at].off > seg)
			seg = lf->toks[at].off;
		jump_to(e, label_named(e, xstrndup(lf->buf +
						   lf->toks[k + 1].off,
						   lf->toks[k + 1].len)),
			st);
	}
	if (e->d->gap && st && to > seg)
		st = e->d->gap(e->d->ctx, seg, to, st);
	return st;
}

static unsigned eval(struct engine *e, CXCursor c, unsigned st)
{
	return e->d->eval(e->d->ctx, c, st);
}

static void branch(struct engine *e, CXCursor c, unsigned st, unsigned *t,
		   unsigned *f)
{
	if (e->d->branch)
		e->d->branch(e->d->ctx, c, st, t, f);
	else
		*t = *f = eval(e, c, st);
}

struct seq {
	struct engine *e;
	unsigned st;
	unsigned done; /* main-file offset up to which the block is seen */
};

/* Give the domain the text before the statement at START, if any. */
static void seq_gap(struct seq *q, unsigned start)
{
	if (q->done && start > q->done && q->st)
		q->st = gap_run(q->e, q->done, start, q->st);
}

/*
 * The same in a switch's body, where a `case CHIP_ID:` on a constant of a
 * header a single-file parse has not seen is dropped by the parse with
 * the statement it labels, and the statements after it are kept: the
 * tokens before a statement are what says the switch enters here, and
 * the dropped statement's calls run after that entry, so the text up to
 * the `case` goes with the state before it and the rest with the entry.
 */
static void seq_gap_case(struct seq *q, unsigned start)
{
	unsigned c = 0;

	if (q->done && start > q->done && q->e->jc && q->e->jc->is_switch)
		c = ast_gap_find(q->e->w, q->done, start, "case");
	if (c) {
		seq_gap(q, c);
		q->st |= q->e->jc->sw_in;
		q->done = c;
	}
	seq_gap(q, start);
}

/*
 * Is the block C (starting at offset S) the body of a loop macro,
 * `list_for_each_entry(pos, head, member) { ... }`: a `{` right after the
 * `)` of a `name(...)` that starts a statement?  A single-file parse has
 * no definition of the macro and keeps a call and a block; the block is
 * the loop's body, which runs any number of times and is what its
 * `break` and `continue` leave.
 */
static int macro_loop_body(const struct walk_ctx *w, CXCursor c, unsigned s)
{
	const struct lexfile *lf = w->lf;
	long i, o;

	if (!lf || clang_getCursorKind(c) != CXCursor_CompoundStmt)
		return 0;
	i = lex_prev(lf, (long)ast_tok_at(w, s));
	if (i < 0 || !lex_tok_is(lf, i, ")"))
		return 0;
	o = lex_prev(lf, lex_paren_open(lf, i));
	if (o < 0 || lf->toks[o].kind != TK_IDENT)
		return 0;
	o = lex_prev(lf, o);
	return o < 0 || lex_tok_is(lf, o, ";") || lex_tok_is(lf, o, "{") ||
	       lex_tok_is(lf, o, "}") || lex_tok_is(lf, o, ":") ||
	       lex_tok_is(lf, o, ")") || lex_tok_is(lf, o, "else");
}

static enum CXChildVisitResult seq_step(CXCursor c, CXCursor parent,
					CXClientData data)
{
	struct seq *q = data;
	unsigned s, e;
	int known = ast_span(q->e->w, c, &s, &e) ||
		    ast_expansion_span(q->e->w, c, &s, &e);

	(void)parent;
	if (known)
		seq_gap_case(q, s);
	/* a `for` with a body alone: zero or more rounds, left by break */
	if (known && macro_loop_body(q->e->w, c, s))
		q->st = exec_loop(q->e, CXCursor_ForStmt, &c, 1, q->st);
	else
		q->st = exec(q->e, c, q->st);
	if (known && e > q->done)
		q->done = e;
	return CXChildVisit_Continue;
}

static unsigned exec_compound(struct engine *e, CXCursor s, unsigned st)
{
	struct seq q = {e, st, 0};
	unsigned start, end = 0;

	if (ast_span(e->w, s, &start, &end))
		q.done = start + 1; /* after the { */
	clang_visitChildren(s, seq_step, &q);
	if (q.done && end > q.done)
		seq_gap_case(&q, end - 1); /* before the } */
	return q.st;
}

static unsigned exec_if(struct engine *e, CXCursor *k, unsigned n, unsigned st)
{
	unsigned t, f, out;

	if (n < 2)
		return n ? eval(e, k[0], st) : st;
	branch(e, k[0], st, &t, &f);
	out = exec(e, k[1], t);
	return out | (n > 2 ? exec(e, k[2], f) : f);
}

static void jump_push(struct engine *e, struct jump_ctx *j, int is_switch)
{
	memset(j, 0, sizeof(*j));
	j->is_switch = is_switch;
	j->up = e->jc;
	e->jc = j;
}

static unsigned exec_loop(struct engine *e, enum CXCursorKind kind,
			  CXCursor *k, unsigned n, unsigned st)
{
	struct jump_ctx j;
	unsigned head = st, out = 0, t, f, i, round;

	jump_push(e, &j, 0);
	for (round = 0; round < MAX_LOOP_ROUNDS; round++) {
		unsigned before = head, body;

		if (kind == CXCursor_WhileStmt && n == 2) {
			branch(e, k[0], head, &t, &f);
			out |= f;
			body = exec(e, k[1], t);
		} else if (kind == CXCursor_DoStmt && n == 2) {
			body = exec(e, k[0], head);
			branch(e, k[1], body | j.cont, &t, &f);
			out |= f;
			body = t;
		} else {
			/*
			 * for (init; cond; inc): libclang omits the absent
			 * parts, so all but the body are evaluated in turn.
			 */
			unsigned h = head;

			for (i = 0; i + 1 < n; i++)
				h = eval(e, k[i], h);
			out |= h;
			body = n ? exec(e, k[n - 1], h) : h;
		}
		head |= body | j.cont;
		if (head == before && round)
			break;
	}
	e->jc = j.up;
	return out | j.brk;
}

static unsigned exec_switch(struct engine *e, CXCursor *k, unsigned n,
			    unsigned st)
{
	struct jump_ctx j;
	unsigned out;

	if (n < 2)
		return st;
	jump_push(e, &j, 1);
	j.sw_in = eval(e, k[0], st);
	out = exec(e, k[n - 1], 0);
	e->jc = j.up;
	return out | j.brk | (j.has_default ? 0 : j.sw_in);
}

static unsigned exec(struct engine *e, CXCursor s, unsigned st)
{
	CXCursor k[AST_MAX_KIDS];
	unsigned n;
	struct jump_ctx *j;
	struct label *l;

	if (e->d->skip && e->d->skip(e->d->ctx, s))
		return st;
	/*
	 * A do { } while (0) from a macro (local_irq_save(), wait_event())
	 * is one leaf: the domains read what it does from the invocation.
	 */
	if (clang_getCursorKind(s) == CXCursor_DoStmt && ast_from_macro(s))
		return eval(e, s, st);
	switch (clang_getCursorKind(s)) {
	case CXCursor_CompoundStmt:
		return exec_compound(e, s, st);
	case CXCursor_IfStmt:
		n = ast_children(s, k);
		return exec_if(e, k, n, st);
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ForStmt:
		n = ast_children(s, k);
		return exec_loop(e, clang_getCursorKind(s), k, n, st);
	case CXCursor_SwitchStmt:
		n = ast_children(s, k);
		return exec_switch(e, k, n, st);
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		for (j = e->jc; j && !j->is_switch; j = j->up)
			;
		if (j) {
			st |= j->sw_in;
			if (clang_getCursorKind(s) == CXCursor_DefaultStmt)
				j->has_default = 1;
		}
		n = ast_children(s, k);
		return n ? exec(e, k[n - 1], st) : st;
	case CXCursor_LabelStmt:
		l = label(e, s);
		st |= l->in;
		n = ast_children(s, k);
		return n ? exec(e, k[n - 1], st) : st;
	case CXCursor_GotoStmt:
		n = ast_children(s, k);
		if (n)
			jump_to(e, label(e, k[0]), st);
		return 0;
	case CXCursor_IndirectGotoStmt:
		return 0;
	case CXCursor_ReturnStmt:
		n = ast_children(s, k);
		if (n)
			st = eval(e, k[0], st);
		if (st)
			e->d->ret(e->d->ctx, s, st);
		return 0;
	case CXCursor_BreakStmt:
		if (e->jc)
			e->jc->brk |= st;
		return 0;
	case CXCursor_ContinueStmt:
		for (j = e->jc; j && j->is_switch; j = j->up)
			;
		if (j)
			j->cont |= st;
		return 0;
	case CXCursor_NullStmt:
		return st;
	default:
		return eval(e, s, st);
	}
}

void flow_run(const struct walk_ctx *w, CXCursor fn,
	      const struct flow_domain *d, unsigned init)
{
	struct engine e = {w, d, NULL, 0, 0, NULL};
	CXCursor body = ast_body(fn);
	unsigned i, round, end = 0;

	if (clang_Cursor_isNull(body))
		return;
	for (round = 0; round < MAX_ROUNDS; round++) {
		e.changed = 0;
		end = exec(&e, body, init);
		if (!e.changed)
			break;
	}
	if (end)
		d->ret(d->ctx, clang_getNullCursor(), end);
	for (i = 0; i < e.nlabels; i++)
		free(e.labels[i].name);
	free(e.labels);
}

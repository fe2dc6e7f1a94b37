// SPDX-License-Identifier: GPL-2.0
/*
 * The conditions an allocation was made under (owner_int.h, struct
 * own.guard): a later test of the same condition, or of the one it
 * negates, is true exactly on the paths that made the object
 * (`if (cmd & IOC_IN) p = memdup_user(...); ... if (cmd & IOC_IN)
 * kfree(p);`).
 */
#include "analyzer/owner_int.h"
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/owner_lex.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Is token I written: `I = `, `I += `, `I++`, `++I`, `&I` passed (not
 * `&I->member`, which leaves the pointer I as it is)?
 */
static int tok_written(const struct lexfile *lf, long i)
{
	static const char *const ops[] = {"=", "+=", "-=", "|=", "&=",
					  "^=", "<<=", ">>=", "*=", "/=",
					  "++", "--", NULL};
	int k;

	for (k = 0; ops[k]; k++)
		if (lex_tok_is(lf, i + 1, ops[k]))
			return 1;
	return i > 0 &&
	       (lex_tok_is(lf, i - 1, "++") || lex_tok_is(lf, i - 1, "--") ||
		(lex_tok_is(lf, i - 1, "&") && !lex_tok_is(lf, i + 1, "->") &&
		 (lex_tok_is(lf, i - 2, "(") || lex_tok_is(lf, i - 2, ","))));
}

/*
 * Is a variable the condition COND reads (not a called name, not a
 * member) written anywhere from FROM (the allocation, or the test that
 * exits before it) to FN's end?  Then a later test of it may not mean
 * what it did (`dmaaddr = map(...)`).
 */
static int cond_written(struct own *o, CXCursor cond, CXCursor from,
			CXCursor fn)
{
	const struct lexfile *lf = o->w->lf;
	unsigned cs, ce, as, ae, fs, fe;
	long i, j;

	if (!lf || !ast_span(o->w, cond, &cs, &ce) ||
	    !ast_span(o->w, from, &as, &ae) || !ast_span(o->w, fn, &fs, &fe))
		return 1;
	for (i = ast_tok_at(o->w, cs);
	     i < (long)lf->ntoks && lf->toks[i].off < ce; i++) {
		if (lf->toks[i].kind != TK_IDENT ||
		    lex_tok_is(lf, i + 1, "(") || lex_tok_is(lf, i - 1, "->") ||
		    lex_tok_is(lf, i - 1, "."))
			continue;
		for (j = ast_tok_at(o->w, as);
		     j < (long)lf->ntoks && lf->toks[j].off < fe; j++)
			if (lf->toks[j].len == lf->toks[i].len &&
			    !memcmp(lf->buf + lf->toks[j].off,
				    lf->buf + lf->toks[i].off, lf->toks[i].len) &&
			    !lex_tok_is(lf, j - 1, "->") &&
			    !lex_tok_is(lf, j - 1, ".") && tok_written(lf, j))
				return 1;
	}
	return 0;
}

/*
 * Does statement C leave the block: `return ...;`, `goto out;`, or a
 * block that ends with one?
 */
static int exits(CXCursor c)
{
	CXCursor k[AST_MAX_KIDS];
	enum CXCursorKind kind = clang_getCursorKind(c);
	unsigned n;

	if (kind == CXCursor_ReturnStmt || kind == CXCursor_GotoStmt)
		return 1;
	if (kind != CXCursor_CompoundStmt || !(n = ast_children(c, k)))
		return 0;
	/* the last of up to AST_MAX_KIDS statements */
	return n < AST_MAX_KIDS && exits(k[n - 1]);
}

struct exit_scan {
	CXCursor upto;	 /* the block's statement that holds the call */
	CXCursor ifs[MAX_GUARDS];
	int n, done;
};

/*
 * The block's statements before UPTO: the last MAX_GUARDS `if (X) exit;`
 * with no else; a label forgets those before it (a goto may come in).
 */
static enum CXChildVisitResult exit_visit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	struct exit_scan *e = data;
	CXCursor k[AST_MAX_KIDS];
	int i;

	(void)parent;
	if (ast_same(c, e->upto)) {
		e->done = 1;
		return CXChildVisit_Break;
	}
	if (clang_getCursorKind(c) == CXCursor_LabelStmt) {
		e->n = 0;
	} else if (clang_getCursorKind(c) == CXCursor_IfStmt &&
		   ast_children(c, k) == 2 && exits(k[1])) {
		if (e->n == MAX_GUARDS) {
			for (i = 1; i < MAX_GUARDS; i++)
				e->ifs[i - 1] = e->ifs[i];
			e->n--;
		}
		e->ifs[e->n++] = c;
	}
	return CXChildVisit_Continue;
}

/*
 * C's text without blanks and without the parentheses around it all: as
 * written, for a parse that could not type a member (`iommu->x` of a
 * header's structure) keeps only the base under ast_strip().
 */
static char *cond_text(struct own *o, CXCursor c)
{
	char *t = own_squeezed(o, c);
	size_t n = strlen(t), i;
	int depth;

	while (n >= 2 && t[0] == '(' && t[n - 1] == ')') {
		for (i = 0, depth = 0; i < n - 1; i++) {
			depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
			if (!depth)
				break;
		}
		if (i < n - 1)
			break; /* `(a)&&(b)` */
		memmove(t, t + 1, n - 2);
		t[n -= 2] = 0;
	}
	return t;
}

/* One operand: a name, a member, an element or a call, no operator. */
static int operand(const char *t)
{
	size_t i;

	if (!*t)
		return 0;
	for (i = 0; t[i]; i++)
		if (!is_ident_char((unsigned char)t[i]) &&
		    !strchr(".()[],", t[i]) &&
		    !(t[i] == '-' && t[i + 1] == '>') &&
		    !(t[i] == '>' && i && t[i - 1] == '-'))
			return 0;
	return 1;
}

/*
 * What an early exit says at the call: `if (!urb) goto error;` ahead of
 * it in a block that holds it, so `urb` is true wherever the object is
 * made (and `if (urb) free(buf)` later frees it on every such path).
 * The condition's text as a guard: `!X` and `X==NULL` give X, a plain
 * operand X gives `!X`; other shapes say nothing that same_guard() could
 * match.
 */
static char *exit_fact(struct own *o, CXCursor cond)
{
	char *t = cond_text(o, cond), *r = NULL;
	size_t n = strlen(t);

	if (t[0] == '!' && operand(t + 1))
		r = xstrdup(t + 1);
	else if (n > 6 && !strcmp(t + n - 6, "==NULL") &&
		 (t[n - 6] = 0, operand(t)))
		r = xstrdup(t);
	else if (operand(t))
		r = xasprintf("!%s", t);
	free(t);
	return r;
}

static void exits_of(struct own *o, const CXCursor *path, int n,
		     CXCursor loop, CXCursor fn)
{
	struct exit_scan e;
	CXCursor k[AST_MAX_KIDS];
	char *fact;
	int i, j;

	for (i = n - 2; i >= 0 && o->nguards < MAX_GUARDS; i--) {
		if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
			continue;
		memset(&e, 0, sizeof(e));
		e.upto = path[i + 1];
		clang_visitChildren(path[i], exit_visit, &e);
		for (j = e.n - 1; e.done && j >= 0 && o->nguards < MAX_GUARDS;
		     j--) {
			ast_children(e.ifs[j], k);
			if (cond_written(o, k[0], e.ifs[j], fn) ||
			    (!ast_same(loop, o->call) &&
			     cond_written(o, k[0], loop, fn)))
				continue;
			fact = exit_fact(o, k[0]);
			if (fact)
				o->guard[o->nguards++] = fact;
		}
	}
}

/*
 * A `goto` after the call to a label before it: the path may come back
 * and test again what it has changed since (`way_up_top:` ... `found =
 * find(); if (!found) { p = alloc(); goto way_up_top; }`).
 */
static int jumps_back(struct own *o, CXCursor fn)
{
	const struct lexfile *lf = o->w->lf;
	unsigned as, ae, fs, fe;
	long g, l, from, call;

	if (!lf || !ast_span(o->w, o->call, &as, &ae) ||
	    !ast_span(o->w, fn, &fs, &fe))
		return 1;
	from = ast_tok_at(o->w, fs);
	call = ast_tok_at(o->w, as);
	for (g = ast_tok_at(o->w, ae);
	     g + 1 < (long)lf->ntoks && lf->toks[g].off < fe; g++) {
		if (!lex_tok_is(lf, g, "goto") || lf->toks[g + 1].kind != TK_IDENT)
			continue;
		for (l = from + 1; l + 1 < call; l++)
			if (lex_tok_is(lf, l + 1, ":") && lex_same_tok(lf, l, g + 1) &&
			    (lex_tok_is(lf, l - 1, ";") || lex_tok_is(lf, l - 1, "{") ||
			     lex_tok_is(lf, l - 1, "}")))
				return 1;
	}
	return 0;
}

/*
 * The conditions of the `if`s whose then-branch holds the call, and of
 * the early exits before it (exits_of()), when what they read stays as
 * it was.  A loop around the call may change them before it comes back:
 * what they read must then stay as it was from the loop's start; a jump
 * back before the call leaves no guard.
 */
void guards_of(struct own *o, const CXCursor *path, int n, CXCursor fn)
{
	CXCursor k[AST_MAX_KIDS], from = o->call;
	enum CXCursorKind kind;
	int i;

	if (jumps_back(o, fn))
		return;
	for (i = n - 1; i >= 0; i--) {
		kind = clang_getCursorKind(path[i]);
		if (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt ||
		    kind == CXCursor_DoStmt)
			from = path[i];
	}
	for (i = 0; i + 1 < n && o->nguards < MAX_GUARDS; i++)
		if (clang_getCursorKind(path[i]) == CXCursor_IfStmt &&
		    ast_children(path[i], k) >= 2 && ast_same(k[1], path[i + 1]) &&
		    !cond_written(o, k[0], from, fn))
			o->guard[o->nguards++] = cond_text(o, k[0]);
	exits_of(o, path, n, from, fn);
}

/* Copy FROM's guards into O (the same allocation walked again). */
void guards_copy(struct own *o, const struct own *from)
{
	for (o->nguards = 0; o->nguards < from->nguards; o->nguards++)
		o->guard[o->nguards] = xstrdup(from->guard[o->nguards]);
}

/*
 * A test of a condition the allocation was made under, after it may
 * have been made: true where it was (with the object held, freed or
 * failed), false where it was not.  Not when the condition names the
 * object, nor for a test that comes before the call in the text: a
 * loop (`restart: if (list_empty(l)) { p = alloc(); add(p, l); goto
 * restart; }`) tests again what the object's own path changed.
 */
int same_guard(struct own *o, CXCursor c, unsigned st, unsigned *t,
	       unsigned *f)
{
	unsigned cs, ce, as, ae;
	char *text, *q;
	int i, hit = 0;

	if (!o->nguards || !(st & ~OW_NONE) ||
	    !ast_span(o->w, c, &cs, &ce) ||
	    !ast_span(o->w, o->call, &as, &ae) || cs < ae)
		return 0;
	text = cond_text(o, c);
	/* 1: the same condition; -1: the one it negates (`if (!x) ... if (x)`) */
	for (i = 0; i < o->nguards && !hit; i++)
		hit = !strcmp(text, o->guard[i])		? 1
		      : o->guard[i][0] == '!' &&
				!strcmp(text, o->guard[i] + 1) ? -1
							       : 0;
	for (q = text; hit && *q; q++)
		if ((q == text || !is_ident_char((unsigned char)q[-1])) &&
		    own_var_at(o, q))
			hit = 0;
	free(text);
	if (!hit)
		return 0;
	st = own_ev(o, c, st);
	*(hit > 0 ? t : f) = st & ~OW_NONE;
	*(hit > 0 ? f : t) = st & OW_NONE;
	return 1;
}

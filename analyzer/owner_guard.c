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

/* Is token I written: `I = `, `I += `, `I++`, `++I`, `&I` passed? */
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
		(lex_tok_is(lf, i - 1, "&") &&
		 (lex_tok_is(lf, i - 2, "(") || lex_tok_is(lf, i - 2, ","))));
}

/*
 * Is a variable the condition COND reads (not a called name, not a
 * member) written anywhere from the allocation to FN's end?  Then a
 * later test of it may not mean what it did (`dmaaddr = map(...)`).
 */
static int cond_written(struct own *o, CXCursor cond, CXCursor fn)
{
	const struct lexfile *lf = o->w->lf;
	unsigned cs, ce, as, ae, fs, fe;
	long i, j;

	if (!lf || !ast_span(o->w, cond, &cs, &ce) ||
	    !ast_span(o->w, o->call, &as, &ae) || !ast_span(o->w, fn, &fs, &fe))
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
 * The conditions of the `if`s whose then-branch holds the call, when
 * what they read stays as it was.
 */
void guards_of(struct own *o, const CXCursor *path, int n, CXCursor fn)
{
	CXCursor k[AST_MAX_KIDS];
	int i;

	for (i = 0; i + 1 < n && o->nguards < MAX_GUARDS; i++)
		if (clang_getCursorKind(path[i]) == CXCursor_IfStmt &&
		    ast_children(path[i], k) >= 2 && ast_same(k[1], path[i + 1]) &&
		    !cond_written(o, k[0], fn))
			o->guard[o->nguards++] = own_squeezed(o, ast_strip(k[0]));
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
 * object.
 */
int same_guard(struct own *o, CXCursor c, unsigned st, unsigned *t,
	       unsigned *f)
{
	char *text, *q;
	int i, hit = 0;

	if (!o->nguards || !(st & ~OW_NONE) || !(st & OW_NONE))
		return 0;
	text = own_squeezed(o, c);
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

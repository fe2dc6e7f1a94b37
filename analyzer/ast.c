// SPDX-License-Identifier: GPL-2.0
/*
 * AST helpers shared by the classifiers (see ast.h).
 */
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/owner_lex.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

struct kids {
	CXCursor *v;
	unsigned n;
};

static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent,
				       CXClientData data)
{
	struct kids *k = data;

	(void)parent;
	if (k->n < AST_MAX_KIDS)
		k->v[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

unsigned ast_children(CXCursor c, CXCursor *kids)
{
	struct kids k = {kids, 0};

	clang_visitChildren(c, add_kid, &k);
	return k.n < AST_MAX_KIDS ? k.n : AST_MAX_KIDS;
}

CXCursor ast_strip(CXCursor c)
{
	CXCursor kids[AST_MAX_KIDS];

	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		unsigned n;

		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr)
			return c;
		n = ast_children(c, kids);
		/* A cast's children are the type reference, then the operand.
		 */
		if (!n)
			return c;
		c = kids[n - 1];
	}
}

char *ast_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

char *ast_callee(CXCursor call)
{
	CXCursor kids[AST_MAX_KIDS], f;

	if (clang_getCursorKind(call) != CXCursor_CallExpr ||
	    !ast_children(call, kids))
		return xstrdup("");
	f = ast_strip(kids[0]);
	if (clang_getCursorKind(f) != CXCursor_DeclRefExpr)
		return xstrdup("");
	return ast_name(f);
}

int ast_nargs(CXCursor call)
{
	return clang_Cursor_getNumArguments(call);
}

CXCursor ast_arg(CXCursor call, int n)
{
	if (n < 0 || n >= clang_Cursor_getNumArguments(call))
		return clang_getNullCursor();
	return clang_Cursor_getArgument(call, (unsigned)n);
}

CXCursor ast_ref_decl(CXCursor c)
{
	c = ast_strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	return clang_getCursorReferenced(c);
}

int ast_refers_to(CXCursor c, CXCursor var)
{
	CXCursor d = ast_ref_decl(c);

	return !clang_Cursor_isNull(d) && ast_same(d, var);
}

int ast_is_local(CXCursor var)
{
	enum CXCursorKind k = clang_getCursorKind(var);

	if (k == CXCursor_ParmDecl)
		return 1;
	if (k != CXCursor_VarDecl)
		return 0;
	if (clang_Cursor_getStorageClass(var) == CX_SC_Static ||
	    clang_Cursor_getStorageClass(var) == CX_SC_Extern)
		return 0;
	return clang_getCursorKind(clang_getCursorSemanticParent(var)) ==
	       CXCursor_FunctionDecl;
}

unsigned ast_line(CXCursor c)
{
	unsigned line = 0;

	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL,
				  NULL);
	return line;
}

static int main_offset(const struct walk_ctx *w, CXSourceLocation loc,
		       unsigned *off)
{
	CXFile f;

	clang_getSpellingLocation(loc, &f, NULL, NULL, off);
	return f && w->file && clang_File_isEqual(f, w->file);
}

/*
 * The flow walks run over a function once for each site in it and again
 * for each answer a site needs, and clang_getCursorExtent() is one of
 * libclang's dearer calls: each cursor's span is kept for the TU.
 */
struct span_ent {
	const void *d0, *d1;
	int kind, xdata;
	unsigned start, end;
	int ok; /* 0 free slot, 1 in the main file, -1 not */
};

struct ast_spans {
	struct span_ent *v;
	size_t cap, n;
};

static size_t span_hash(CXCursor c, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)c.data[1] * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(uintptr_t)c.data[0] * 0xc2b2ae3d27d4eb4full ^
		     (uint64_t)(unsigned)c.kind << 7 ^ (uint64_t)(unsigned)c.xdata;

	return (size_t)(h ^ h >> 29) & (cap - 1);
}

static struct span_ent *span_slot(struct ast_spans *sp, CXCursor c)
{
	size_t i = span_hash(c, sp->cap);

	while (sp->v[i].ok &&
	       (sp->v[i].d0 != c.data[0] || sp->v[i].d1 != c.data[1] ||
		sp->v[i].kind != (int)c.kind || sp->v[i].xdata != c.xdata))
		i = (i + 1) & (sp->cap - 1);
	return &sp->v[i];
}

static void span_grow(struct ast_spans *sp)
{
	struct ast_spans old = *sp;
	size_t i;

	sp->cap = old.cap ? old.cap * 2 : 1024;
	sp->v = xcalloc(sp->cap, sizeof(*sp->v));
	for (i = 0; i < old.cap; i++)
		if (old.v[i].ok) {
			CXCursor c = {0};

			c.kind = (enum CXCursorKind)old.v[i].kind;
			c.xdata = old.v[i].xdata;
			c.data[0] = old.v[i].d0;
			c.data[1] = old.v[i].d1;
			*span_slot(sp, c) = old.v[i];
		}
	free(old.v);
}

void ast_spans_init(struct walk_ctx *w)
{
	if (!w->spans)
		w->spans = xcalloc(1, sizeof(*w->spans));
}

void ast_spans_free(struct walk_ctx *w)
{
	if (w->spans)
		free(w->spans->v);
	free(w->spans);
	w->spans = NULL;
}

static int span_of(const struct walk_ctx *w, CXCursor c, unsigned *start,
		   unsigned *end)
{
	CXSourceRange r = clang_getCursorExtent(c);

	return main_offset(w, clang_getRangeStart(r), start) &&
	       main_offset(w, clang_getRangeEnd(r), end) && *start < *end;
}

int ast_span(const struct walk_ctx *w, CXCursor c, unsigned *start,
	     unsigned *end)
{
	struct ast_spans *sp = w->spans;
	struct span_ent *e;
	int ok;

	if (!sp)
		return span_of(w, c, start, end);
	if (sp->cap && (e = span_slot(sp, c))->ok) {
		*start = e->start;
		*end = e->end;
		return e->ok > 0;
	}
	ok = span_of(w, c, start, end);
	if (2 * (sp->n + 1) > sp->cap)
		span_grow(sp);
	e = span_slot(sp, c);
	e->d0 = c.data[0];
	e->d1 = c.data[1];
	e->kind = (int)c.kind;
	e->xdata = c.xdata;
	e->start = *start;
	e->end = *end;
	e->ok = ok ? 1 : -1;
	sp->n++;
	return ok;
}

unsigned ast_tok_at(const struct walk_ctx *w, unsigned off)
{
	const struct lexfile *lf = w->lf;
	size_t lo = 0, hi = lf ? lf->ntoks : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (lf->toks[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (unsigned)lo;
}

/* The punctuator token at index I, copied into BUF, or NULL. */
static const char *punct_at(const struct walk_ctx *w, unsigned i, char buf[4])
{
	const struct tok *t;

	while (w->lf && i < w->lf->ntoks && w->lf->toks[i].kind == TK_COMMENT)
		i++;
	if (!w->lf || i >= w->lf->ntoks)
		return NULL;
	t = &w->lf->toks[i];
	if (t->kind != TK_PUNCT || t->len > 3)
		return NULL;
	memcpy(buf, w->lf->buf + t->off, t->len);
	buf[t->len] = 0;
	return buf;
}

static int is_pointer(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer;
}

/* When the operator is in a macro body: guess it from the types. */
static const char *guess_operator(CXCursor c, CXCursor *kids, unsigned n)
{
	CXType t = clang_getCursorType(c);

	if (clang_getCursorKind(c) == CXCursor_UnaryOperator && n == 1) {
		CXType a = clang_getCursorType(kids[0]);

		if (is_pointer(a) && !is_pointer(t))
			return t.kind == CXType_Int ? "!" : "*";
		if (is_pointer(t) && !is_pointer(a))
			return "&";
		return t.kind == CXType_Int ? "!" : "";
	}
	if (n == 2 && is_pointer(t) && is_pointer(clang_getCursorType(kids[1])))
		return "=";
	return "";
}

const char *ast_operator(const struct walk_ctx *w, CXCursor c, char buf[4])
{
	CXCursor kids[AST_MAX_KIDS];
	unsigned n = ast_children(c, kids), s, e, ks, ke;
	const char *p;

	buf[0] = 0;
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator && n == 1) {
		if (ast_span(w, c, &s, &e) && ast_span(w, kids[0], &ks, &ke)) {
			if (ks > s && (p = punct_at(w, ast_tok_at(w, s), buf)))
				return p;
			if (ke < e && (p = punct_at(w, ast_tok_at(w, ke), buf)))
				return p;
		}
		return guess_operator(c, kids, n);
	}
	/*
	 * The token after the left operand.  A right operand spelled in no
	 * file of ours (`unlikely(p == NULL)`: NULL of the command line, in
	 * a macro's argument) has no span to check it against.
	 */
	if (n == 2 && ast_span(w, kids[0], &s, &ks) &&
	    (!ast_span(w, kids[1], &ke, &e) || ks <= ke) &&
	    (p = punct_at(w, ast_tok_at(w, ks), buf)))
		return p;
	return guess_operator(c, kids, n);
}

char *ast_text(const struct walk_ctx *w, CXCursor c)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned s, e, i;

	if (!w->lf || !ast_span(w, c, &s, &e))
		return ast_name(c);
	for (i = ast_tok_at(w, s); i < w->lf->ntoks && w->lf->toks[i].off < e;
	     i++) {
		const struct tok *t = &w->lf->toks[i];

		if (t->kind == TK_COMMENT)
			continue;
		if (sb.len &&
		    (t->kind == TK_IDENT || t->kind == TK_KEYWORD ||
		     t->kind == TK_LITERAL) &&
		    (sb.buf[sb.len - 1] == ',' ||
		     is_ident_char((unsigned char)sb.buf[sb.len - 1])))
			sb_addc(&sb, ' ');
		sb_add(&sb, w->lf->buf + t->off, t->len);
	}
	return sb_detach(&sb);
}

int ast_spelled_plain(const struct walk_ctx *w, CXCursor c)
{
	const struct lexfile *lf = w->lf;
	unsigned s, e, i;
	char *t;
	int plain;

	/*
	 * Inside the body of one of the file's macros the extent is the
	 * macro's whole use (`PAGE_0_ATTR(...)`), not this expression's
	 * text: trust the AST there.
	 */
	if (lf && ast_span(w, c, &s, &e)) {
		long n = (long)lf->ntoks, close;

		i = ast_tok_at(w, s);
		if ((long)i + 1 < n && lf->toks[i].kind == TK_IDENT &&
		    lex_tok_is(lf, (long)i + 1, "(") &&
		    menv_get(&lf->local, lf->buf + lf->toks[i].off,
			     lf->toks[i].len) &&
		    (close = lex_paren_close(lf, (long)i + 1, n)) < n &&
		    lf->toks[close].off + lf->toks[close].len == e)
			return 1;
	}
	t = ast_text(w, c);
	plain = !strstr(t, "->") && !strchr(t, '.') && !strchr(t, '[') &&
		t[0] != '*';

	free(t);
	return plain;
}

/* Does the parameter's declaration say gfp_t (as written or as typed)? */
static int param_is_gfp(const struct walk_ctx *w, CXCursor p)
{
	CXString ts = clang_getTypeSpelling(clang_getCursorType(p));
	int yes = strstr(clang_getCString(ts), "gfp_t") != NULL;
	unsigned s, e, i;

	clang_disposeString(ts);
	/* Without the headers (single-file parse) gfp_t has no type. */
	if (!yes && w->lf && ast_span(w, p, &s, &e))
		for (i = ast_tok_at(w, s);
		     !yes && i < w->lf->ntoks && w->lf->toks[i].off < e; i++)
			yes = w->lf->toks[i].len == 5 &&
			      !memcmp(w->lf->buf + w->lf->toks[i].off, "gfp_t",
				      5);
	return yes;
}

int ast_gfp_param(const struct walk_ctx *w, CXCursor fn, char **name)
{
	int i, n = clang_Cursor_getNumArguments(fn);

	for (i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);

		if (param_is_gfp(w, p)) {
			*name = ast_name(p);
			if (**name)
				return i;
			free(*name);
		}
	}
	*name = NULL;
	return -1;
}

int ast_param_index(CXCursor fn, const char *name, size_t len)
{
	int i, n = clang_Cursor_getNumArguments(fn);

	for (i = 0; i < n; i++) {
		CXString s = clang_getCursorSpelling(
			clang_Cursor_getArgument(fn, (unsigned)i));
		const char *p = clang_getCString(s);
		int eq = strlen(p) == len && !memcmp(p, name, len);

		clang_disposeString(s);
		if (eq)
			return i;
	}
	return -1;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
					 CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)data = c;
	return CXChildVisit_Continue;
}

CXCursor ast_body(CXCursor fn)
{
	CXCursor body = clang_getNullCursor();

	clang_visitChildren(fn, find_body, &body);
	return body;
}

int ast_from_macro(CXCursor c)
{
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile sf, ef;
	unsigned so, eo;

	clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
	clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
	return so != eo || !sf || !ef || !clang_File_isEqual(sf, ef);
}

int ast_expansion_span(const struct walk_ctx *w, CXCursor c, unsigned *start,
		       unsigned *end)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;

	clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL,
				   start);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, end);
	return f1 && f2 && w->file && clang_File_isEqual(f1, w->file) &&
	       clang_File_isEqual(f2, w->file) && *start < *end;
}

unsigned ast_expansion_offset(CXCursor c)
{
	unsigned off = 0;

	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL,
				   &off);
	return off;
}

int text_mentions(const char *text, const char *name)
{
	return str_find_word(text, name) != NULL;
}

int ast_same(CXCursor a, CXCursor b)
{
	CXSourceRange ra, rb;

	if (clang_equalCursors(a, b))
		return 1;
	if (clang_getCursorKind(a) != clang_getCursorKind(b) ||
	    !clang_equalLocations(clang_getCursorLocation(a),
				  clang_getCursorLocation(b)))
		return 0;
	ra = clang_getCursorExtent(a);
	rb = clang_getCursorExtent(b);
	return clang_equalLocations(clang_getRangeEnd(ra),
				    clang_getRangeEnd(rb));
}

int ast_disabled(const struct walk_ctx *w, CXCursor c)
{
	unsigned s, e, i;

	if (!w->lf || !ast_span(w, c, &s, &e))
		return 0;
	i = ast_tok_at(w, s);
	return i < w->lf->ntoks && w->lf->toks[i].disabled;
}

static size_t gap_calls(const struct walk_ctx *w, unsigned start,
			unsigned end, int skip_disabled, int all, unsigned *out,
			size_t max);

size_t ast_gap_calls(const struct walk_ctx *w, unsigned start, unsigned end,
		     int skip_disabled, unsigned *out, size_t max)
{
	return gap_calls(w, start, end, skip_disabled, 0, out, max);
}

size_t ast_gap_calls_all(const struct walk_ctx *w, unsigned start,
			 unsigned end, int skip_disabled, unsigned *out,
			 size_t max)
{
	return gap_calls(w, start, end, skip_disabled, 1, out, max);
}

static size_t gap_calls(const struct walk_ctx *w, unsigned start,
			unsigned end, int skip_disabled, int all, unsigned *out,
			size_t max)
{
	const struct lexfile *lf = w->lf;
	size_t n = 0;
	unsigned i;
	int depth = 0;

	if (!lf)
		return 0;
	int cond = 0, parens = 0, at_start = 1;

	for (i = ast_tok_at(w, start); i < lf->ntoks && lf->toks[i].off < end;
	     i++) {
		const struct tok *t = &lf->toks[i];
		char c = lf->buf[t->off];
		int punct = t->kind == TK_PUNCT && t->len == 1;

		if (t->kind == TK_COMMENT || (skip_disabled && t->disabled) ||
		    t->dir >= 0)
			continue;
		/* `if (x) call();`: conditional up to its `;` */
		if (at_start && t->kind == TK_KEYWORD &&
		    (ast_tok_eq(w, i, "if") || ast_tok_eq(w, i, "else") ||
		     ast_tok_eq(w, i, "for") || ast_tok_eq(w, i, "while") ||
		     ast_tok_eq(w, i, "switch") || ast_tok_eq(w, i, "do")))
			cond = 1;
		at_start = 0;
		if (punct && c == '(')
			parens++;
		else if (punct && c == ')')
			parens--;
		if (punct && c == '{') {
			depth++;
		} else if (punct && c == '}') {
			depth--;
			at_start = !depth;
			cond = depth ? cond : 0;
		} else if (punct && c == ';' && !parens && !depth) {
			cond = 0;
			at_start = 1;
		} else if ((all || (!depth && !cond)) && t->kind == TK_IDENT &&
			   n < max &&
			   i + 1 < lf->ntoks && lf->toks[i + 1].len == 1 &&
			   lf->buf[lf->toks[i + 1].off] == '(') {
			out[n++] = i;
		}
	}
	return n;
}

int ast_tok_eq(const struct walk_ctx *w, unsigned i, const char *s)
{
	return w->lf && lex_tok_is(w->lf, i, s);
}

unsigned ast_gap_find(const struct walk_ctx *w, unsigned start,
		      unsigned end, const char *s)
{
	unsigned i;

	if (!w->lf)
		return 0;
	for (i = ast_tok_at(w, start);
	     i < w->lf->ntoks && w->lf->toks[i].off < end; i++)
		if (lex_tok_is(w->lf, i, s))
			return w->lf->toks[i].off;
	return 0;
}

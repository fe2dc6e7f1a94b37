// SPDX-License-Identifier: GPL-2.0
/*
 * Per-TU function facts (see tufacts.h).  The walker's visit of the TU's
 * function definitions records each function's calls; sleeping and
 * freeing then propagate through the TU's own call graph until nothing
 * changes.
 */
#include "analyzer/tufacts.h"
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/summaries.h"
#include "analyzer/tables.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

struct call_rec {
	char *callee;
	unsigned line;
	unsigned param0_args; /* bit k: argument k is the first parameter */
	int sleeps;	      /* an allocation whose flags sleep */
};

struct fn_rec {
	struct fn_fact f;
	struct call_rec *calls;
	size_t ncalls;
};

struct memo {
	const void *key;
	void *val;
	void (*release)(void *);
};

/* A function registered as a callback (enum atomic_kind). */
struct cb_mark {
	char *fn, *evidence;
	int kind;
};

struct tu_facts {
	struct fn_rec *cur;	/* the function whose body is visited */
	CXCursor param0;	/* its first parameter, or a null cursor */
	struct cb_mark *marks;
	size_t nmarks;
	struct fn_rec *fns;
	size_t nfns;
	struct name_set index; /* name -> fns index */
	struct memo *memo;
	size_t nmemo;
};

static struct tu_facts *facts(struct walk_ctx *w)
{
	if (!w->facts) {
		w->facts = xcalloc(1, sizeof(*w->facts));
		names_init(&w->facts->index);
		w->facts->param0 = clang_getNullCursor();
	}
	return w->facts;
}

static const char *const sleeping_gfp[] = {
	"GFP_KERNEL",
	"GFP_KERNEL_ACCOUNT",
	"GFP_NOFS",
	"GFP_NOIO",
	"GFP_USER",
	"GFP_HIGHUSER",
	"GFP_HIGHUSER_MOVABLE",
	"GFP_TEMPORARY",
	"__GFP_DIRECT_RECLAIM",
	"__GFP_WAIT",
	"__GFP_RECLAIM",
	NULL,
};

int gfp_text_may_sleep(const char *text)
{
	const char *p = text;
	size_t i;

	if (!text)
		return 0;
	while (*p) {
		const char *q = p;

		if (!is_ident_start((unsigned char)*p)) {
			p++;
			continue;
		}
		while (is_ident_char((unsigned char)*q))
			q++;
		for (i = 0; sleeping_gfp[i]; i++)
			if (strlen(sleeping_gfp[i]) == (size_t)(q - p) &&
			    !memcmp(sleeping_gfp[i], p, (size_t)(q - p)))
				return 1;
		p = q;
	}
	return 0;
}

/*
 * Flags a condition picks, one choice that may sleep and one that may
 * not (`may_sleep ? GFP_KERNEL : GFP_ATOMIC`, or a variable set on two
 * paths, analyzer/lexsites.c): the path decides whether it sleeps.
 */
int gfp_text_path_picks(const char *text)
{
	const char *q = text ? strchr(text, '?') : NULL, *p, *colon = NULL;
	int depth = 0, nest = 0, a, b;
	char *t;

	if (!q)
		return 0;
	/* the second choice ends with the parenthesis that holds the `?` */
	for (p = q + 1; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth < 0)
			break;
		else if (*p == '?')
			nest++;
		else if (*p == ':' && !colon && !nest--)
			colon = p;
	}
	if (!colon)
		return 0;
	t = xstrndup(q + 1, (size_t)(colon - q - 1));
	a = gfp_text_may_sleep(t);
	free(t);
	t = xstrndup(colon + 1, (size_t)(p - colon - 1));
	b = gfp_text_may_sleep(t);
	free(t);
	return a != b;
}

/* --- recording the TU's functions ----------------------------------- */

int table_free_arg(struct walk_ctx *w, const char *name)
{
	const struct alloc_fn *a;

	if (!w->allocs)
		return -1;
	a = alloc_lookup(w->allocs, name, strlen(name));
	return a && a->kind == AK_FREE ? (a->ptr_arg < 0 ? 0 : a->ptr_arg) : -1;
}

static const struct alloc_fn *is_alloc(struct walk_ctx *w, const char *name)
{
	const struct alloc_fn *a;

	if (!w->allocs)
		return NULL;
	a = alloc_lookup(w->allocs, name, strlen(name));
	return a && a->kind == AK_ALLOC ? a : NULL;
}

int alloc_call_may_sleep(const struct alloc_fn *a, const char *gfp_text)
{
	if (a->gfp_arg >= 0)
		return gfp_text_may_sleep(gfp_text);
	if (a->implied)
		return gfp_text_may_sleep(a->implied);
	return -1;
}

/* `&var->m.n`: an address inside VAR's object (lifetime_put_place()). */
static int points_into(const struct walk_ctx *w, CXCursor a, CXCursor var)
{
	CXCursor k[AST_MAX_KIDS];
	char op[4], *t = ast_text(w, a);
	int own = lifetime_put_place(t) > 0;

	free(t);
	a = ast_strip(a);
	if (!own || clang_getCursorKind(a) != CXCursor_UnaryOperator ||
	    ast_children(a, k) != 1 || strcmp(ast_operator(w, a, op), "&"))
		return 0;
	a = ast_strip(k[0]);
	while (clang_getCursorKind(a) == CXCursor_MemberRefExpr ||
	       clang_getCursorKind(a) == CXCursor_ArraySubscriptExpr) {
		if (!ast_children(a, k))
			return 0;
		a = ast_strip(k[0]);
	}
	return ast_refers_to(a, var);
}

void tu_facts_call(struct walk_ctx *w, CXCursor c)
{
	struct tu_facts *t = facts(w);
	struct fn_rec *fn = t->cur;
	struct call_rec *cr;
	char *name;
	const struct alloc_fn *a;
	int i, n, put;

	if (!fn)
		return;
	name = ast_callee(c);
	if (!*name) {
		free(name);
		return;
	}
	fn->calls = xrealloc(fn->calls, (fn->ncalls + 1) * sizeof(*fn->calls));
	cr = &fn->calls[fn->ncalls++];
	memset(cr, 0, sizeof(*cr));
	cr->callee = name;
	cr->line = ast_line(c);
	n = ast_nargs(c);
	put = lifetime_put_arg(w->lifetime, name, strlen(name));
	for (i = 0; i < n && i < 16; i++)
		if (!clang_Cursor_isNull(t->param0) &&
		    ((ast_refers_to(ast_arg(c, i), t->param0) &&
		      ast_spelled_plain(w, ast_arg(c, i))) ||
		     (i == put && points_into(w, ast_arg(c, i), t->param0))))
			/* not kfree(p->buf), but kref_put(&p->kref, ...) */
			cr->param0_args |= 1u << i;
	a = is_alloc(w, name);
	if (a) {
		char *g = a->gfp_arg >= 0 ? ast_text(w, ast_arg(c, a->gfp_arg))
					  : NULL;

		cr->sleeps = alloc_call_may_sleep(a, g) > 0;
		free(g);
	}
}

static int in_main(struct walk_ctx *w, CXCursor c)
{
	CXFile f;

	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL,
				   NULL);
	return f && clang_File_isEqual(f, w->file);
}

/*
 * Does the declaration return irqreturn_t?  Without the headers (a
 * single-file parse) the type is unknown: read the tokens before the
 * parameter list.
 */
static int returns_irqreturn(struct walk_ctx *w, CXCursor fn)
{
	CXString s = clang_getTypeSpelling(clang_getCursorResultType(fn));
	int yes = !strcmp(clang_getCString(s), "irqreturn_t");
	unsigned start, end, i;
	const struct tok *t;

	clang_disposeString(s);
	if (yes || !w->lf || !ast_span(w, fn, &start, &end))
		return yes;
	for (i = ast_tok_at(w, start); i < w->lf->ntoks; i++) {
		t = &w->lf->toks[i];
		if (t->off >= end || (t->len == 1 && w->lf->buf[t->off] == '('))
			break;
		if (t->len == 11 &&
		    !memcmp(w->lf->buf + t->off, "irqreturn_t", 11))
			return 1;
	}
	return 0;
}

int tu_facts_function(struct walk_ctx *w, CXCursor c)
{
	struct tu_facts *t = facts(w);
	struct fn_rec *fn;

	t->cur = NULL;
	if (!in_main(w, c))
		return 0;
	t->fns = xrealloc(t->fns, (t->nfns + 1) * sizeof(*t->fns));
	fn = &t->fns[t->nfns];
	memset(fn, 0, sizeof(*fn));
	fn->f.name = ast_name(c);
	fn->f.line = ast_line(c);
	fn->f.irq_handler = returns_irqreturn(w, c);
	names_put(&t->index, fn->f.name, strlen(fn->f.name), (int)t->nfns);
	t->nfns++;
	t->cur = fn;
	t->param0 = clang_Cursor_getNumArguments(c) > 0
			    ? clang_Cursor_getArgument(c, 0)
			    : clang_getNullCursor();
	return 1;
}

static struct fn_rec *rec_of(struct tu_facts *t, const char *name)
{
	int i = names_get(&t->index, name, strlen(name));

	return i < 0 ? NULL : &t->fns[i];
}

/* Sleeping and freeing through the TU's own calls, to a fixpoint. */
static void propagate(struct walk_ctx *w, struct tu_facts *t)
{
	int changed = 1;
	size_t i, j;

	while (changed) {
		changed = 0;
		for (i = 0; i < t->nfns; i++) {
			struct fn_rec *fn = &t->fns[i];

			for (j = 0; j < fn->ncalls; j++) {
				struct call_rec *c = &fn->calls[j];
				struct fn_rec *callee = rec_of(t, c->callee);
				int arg;

				if (!fn->f.sleeps &&
				    (c->sleeps ||
				     (w->sleepers &&
				      names_get(w->sleepers, c->callee,
						strlen(c->callee)) >= 0) ||
				     (callee && callee != fn &&
				      callee->f.sleeps))) {
					fn->f.sleeps =
						xasprintf("%s() at line %u",
							  c->callee, c->line);
					changed = 1;
				}
				arg = table_free_arg(w, c->callee);
				if (arg < 0)
					arg = lifetime_put_arg(
						w->lifetime, c->callee,
						strlen(c->callee));
				if (arg < 0 && callee && callee != fn &&
				    callee->f.frees_param)
					arg = 0;
				if (!fn->f.frees_param && arg >= 0 &&
				    arg < 16 && (c->param0_args >> arg & 1)) {
					fn->f.frees_param = xstrdup(c->callee);
					changed = 1;
				}
			}
		}
	}
}

static void add_mark(struct tu_facts *t, const struct lexfile *lf,
		     unsigned name_tok, unsigned arg_tok, int kind)
{
	const struct tok *n = &lf->toks[name_tok], *a = &lf->toks[arg_tok];

	t->marks = xrealloc(t->marks, (t->nmarks + 1) * sizeof(*t->marks));
	t->marks[t->nmarks].fn = xstrndup(lf->buf + a->off, a->len);
	t->marks[t->nmarks].evidence =
		xasprintf("registered with %.*s() at line %u", (int)n->len,
			  lf->buf + n->off, n->line);
	t->marks[t->nmarks].kind = kind;
	t->nmarks++;
}

/*
 * Registrations from the tokens (a single-file parse drops calls with
 * arguments it cannot type): the names in the ARG-th argument of
 * `request_irq(irq, NAME, ...)`; those that are functions of the TU count.
 */
static void find_marks(struct walk_ctx *w, struct tu_facts *t)
{
	const struct lexfile *lf = w->lf;
	size_t i, j;
	int kind, arg, want, depth;

	for (i = 0; lf && w->atomic && i + 1 < lf->ntoks; i++) {
		const struct tok *tk = &lf->toks[i];

		if (tk->kind != TK_IDENT || tk->disabled ||
		    !ast_tok_eq(w, (unsigned)i + 1, "("))
			continue;
		for (kind = AT_CALLBACK; kind <= AT_BOOT; kind++) {
			want = names_get(&w->atomic[kind], lf->buf + tk->off,
					 tk->len);
			if (want < 0)
				continue;
			arg = 0;
			depth = 0;
			for (j = i + 2; j + 1 < lf->ntoks; j++) {
				if (ast_tok_eq(w, (unsigned)j, "("))
					depth++;
				else if (ast_tok_eq(w, (unsigned)j, ")") &&
					 !depth--)
					break;
				else if (!depth &&
					 ast_tok_eq(w, (unsigned)j, ","))
					arg++;
				else if (arg == want &&
					 lf->toks[j].kind == TK_IDENT &&
					 !ast_tok_eq(w, (unsigned)j + 1, "("))
					/* any name in it: `i ? f : g` too */
					add_mark(t, lf, (unsigned)i,
						 (unsigned)j, kind);
			}
		}
	}
}

/*
 * Functions handed to request_irq(), timer_setup(), ... run in atomic
 * context; a threaded irq handler runs in process context even though it
 * returns irqreturn_t.  One a boot table names (IRQCHIP_DECLARE(),
 * data/atomic.txt `boot`) runs while booting, which the evidence says.
 */
static void mark_callbacks(struct walk_ctx *w, struct tu_facts *t)
{
	size_t i;

	find_marks(w, t);
	for (i = 0; i < t->nmarks; i++) {
		struct fn_rec *fn = rec_of(t, t->marks[i].fn);

		if (!fn)
			continue;
		if (t->marks[i].kind == AT_THREAD) {
			fn->f.threaded = 1;
			free(fn->f.atomic);
			fn->f.atomic = NULL;
		} else if (!fn->f.threaded && !fn->f.atomic) {
			const char *ev = t->marks[i].evidence;

			fn->f.atomic =
				t->marks[i].kind == AT_BOOT
					? xasprintf(CTX_EV_BOOT_TABLE_FMT, ev)
					: xstrdup(ev);
		}
	}
}

void tu_facts_done(struct walk_ctx *w)
{
	struct tu_facts *t;

	/* no visit of the bodies: no facts (tu_facts_get() makes them none) */
	if (!w->tu || w->depth < DEPTH_SINGLE_FILE)
		return;
	t = facts(w);
	t->cur = NULL;
	propagate(w, t);
	mark_callbacks(w, t);
}

const struct tu_facts *tu_facts_get(struct walk_ctx *w)
{
	return facts(w);
}

const struct fn_fact *tu_fact(const struct tu_facts *t, const char *name)
{
	int i;

	if (!t || !name)
		return NULL;
	i = names_get(&t->index, name, strlen(name));
	return i < 0 ? NULL : &t->fns[i].f;
}

size_t tu_fact_count(const struct tu_facts *t)
{
	return t ? t->nfns : 0;
}

const struct fn_fact *tu_fact_at(const struct tu_facts *t, size_t i)
{
	return &t->fns[i].f;
}

int call_may_sleep(struct walk_ctx *w, const char *name, const char *gfp_text)
{
	const struct alloc_fn *a;
	const struct fn_fact *f;

	if (w->sleepers && names_get(w->sleepers, name, strlen(name)) >= 0)
		return 1;
	a = is_alloc(w, name);
	if (a && alloc_call_may_sleep(a, gfp_text) >= 0)
		return alloc_call_may_sleep(a, gfp_text);
	f = tu_fact(tu_facts_get(w), name);
	return f && f->sleeps;
}

int call_frees(struct walk_ctx *w, const char *name)
{
	const struct fn_fact *f;
	int arg = table_free_arg(w, name);

	if (arg >= 0)
		return arg;
	/* a free macro of this file (lx_learn_free_macros()) */
	if (w->lf) {
		const struct alloc_fn *m =
			alloc_lookup(&w->lf->macros, name, strlen(name));

		if (m && m->kind == AK_FREE)
			return m->ptr_arg;
	}
	f = tu_fact(tu_facts_get(w), name);
	return f && f->frees_param ? 0 : -1;
}

void *tu_memo_get(struct walk_ctx *w, const void *key)
{
	struct tu_facts *t = facts(w);
	size_t i;

	for (i = t->nmemo; i-- > 0;)
		if (t->memo[i].key == key)
			return t->memo[i].val;
	return NULL;
}

void tu_memo_put(struct walk_ctx *w, const void *key, void *val,
		 void (*release)(void *))
{
	struct tu_facts *t = facts(w);

	t->memo = xrealloc(t->memo, (t->nmemo + 1) * sizeof(*t->memo));
	t->memo[t->nmemo].key = key;
	t->memo[t->nmemo].val = val;
	t->memo[t->nmemo].release = release;
	t->nmemo++;
}

void tu_facts_free(struct walk_ctx *w)
{
	struct tu_facts *t = w->facts;
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nfns; i++) {
		struct fn_rec *fn = &t->fns[i];

		free(fn->f.name);
		free(fn->f.sleeps);
		free(fn->f.frees_param);
		free(fn->f.atomic);
		for (j = 0; j < fn->ncalls; j++)
			free(fn->calls[j].callee);
		free(fn->calls);
	}
	free(t->fns);
	names_free(&t->index);
	for (i = 0; i < t->nmarks; i++) {
		free(t->marks[i].fn);
		free(t->marks[i].evidence);
	}
	free(t->marks);
	for (i = 0; i < t->nmemo; i++)
		if (t->memo[i].release)
			t->memo[i].release(t->memo[i].val);
	free(t->memo);
	free(t);
	w->facts = NULL;
}

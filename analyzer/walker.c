// SPDX-License-Identifier: GPL-2.0
/*
 * The shared walker: runs the registered classifiers over one file's
 * sites in the order documented in walker.h.  With an AST (single-file or
 * full depth) each site found by the token scan is matched to its
 * CallExpr by the spelling location of the call, so a call written in a
 * #define body is matched through any of its expansions.
 */
#include "analyzer/walker.h"
#include "analyzer/ast.h"
#include "analyzer/summaries.h"
#include "analyzer/emit.h"
#include "analyzer/tufacts.h"
#include "analyzer/analyzer.h"
#include "analyzer/walk.h"
#include "db/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASSIFIER(var) extern const struct classifier var;
#include "analyzer/check_list.h"
#undef CLASSIFIER

/* analyzer/check_list.h, in its order */
static const struct classifier *const all_classifiers[] = {
#define CLASSIFIER(var) &var,
#include "analyzer/check_list.h"
#undef CLASSIFIER
};
#define NR_ALL (sizeof(all_classifiers) / sizeof(all_classifiers[0]))

/* The ones that run: all of them unless classifiers_select() said not. */
static const struct classifier *classifiers[NR_ALL + 8] = {
#define CLASSIFIER(var) &var,
#include "analyzer/check_list.h"
#undef CLASSIFIER
};
static int nclassifiers = NR_ALL;

const char *classifier_name(int i)
{
	return i >= 0 && (size_t)i < NR_ALL ? all_classifiers[i]->name : NULL;
}

static int known(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NR_ALL; i++)
		if (strlen(all_classifiers[i]->name) == len &&
		    !strncmp(all_classifiers[i]->name, name, len))
			return 1;
	return 0;
}

static int listed(const char *csv, const char *name)
{
	size_t n = strlen(name);
	const char *p = csv;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

const char *classifiers_select(const char *enable, const char *disable)
{
	static char bad[64];
	const char *lists[2] = { enable, disable };
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		const char *p = lists[k];

		while (p && *p) {
			size_t len = strcspn(p, ",");

			if (len && !known(p, len)) {
				snprintf(bad, sizeof(bad), "%.*s",
					 (int)(len < 60 ? len : 60), p);
				return bad;
			}
			p += len + (p[len] == ',');
		}
	}
	nclassifiers = 0;
	for (i = 0; i < NR_ALL; i++) {
		const char *n = all_classifiers[i]->name;

		if ((enable && !listed(enable, n)) ||
		    (disable && listed(disable, n)))
			continue;
		classifiers[nclassifiers++] = all_classifiers[i];
	}
	return NULL;
}

void walker_append_classifier(const struct classifier *c)
{
	if ((size_t)nclassifiers < sizeof(classifiers) / sizeof(classifiers[0]))
		classifiers[nclassifiers++] = c;
}

int walker_classifier_count(void)
{
	return nclassifiers;
}

int analyzer_link(sqlite3 *db)
{
	int i;

	int summaries = 0;

	for (i = 0; i < nclassifiers; i++) {
		if (classifiers[i]->link && classifiers[i]->link(db))
			return -1;
		summaries |= classifiers[i]->summaries;
	}
	if (summaries && summaries_link(db))
		return -1;
	/* every row holds its answers now (linkmemo.h) */
	return db_exec(db, "UPDATE files SET linked = 1 WHERE linked = 0");
}

void walker_interesting(void (*fn)(const char *name, void *arg), void *arg)
{
	int i;
	const char *const *n;

	for (i = 0; i < nclassifiers; i++)
		for (n = classifiers[i]->interesting; n && *n; n++)
			fn(*n, arg);
}

/* --- emit ----------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

#define GROW(arr, n) ((arr) = xrealloc((arr), ((n) + 1) * sizeof(*(arr))))

void emit_allocator(struct walk_ctx *w, const char *name, const char *kind,
		    const char *family, int gfp_arg, int size_arg,
		    const char *via, unsigned line)
{
	struct walk_emit *e = w->emit;
	struct emit_alloc *a;

	if (!e || !name || !kind)
		return;
	GROW(e->allocs, e->nallocs);
	a = &e->allocs[e->nallocs++];
	a->name = xstrdup(name);
	a->kind = xstrdup(kind);
	a->family = dup_or_null(family);
	a->via = dup_or_null(via);
	a->gfp_arg = gfp_arg;
	a->size_arg = size_arg;
	a->line = line;
}

void emit_sleeper(struct walk_ctx *w, const char *function,
		  const char *evidence, unsigned line)
{
	struct walk_emit *e = w->emit;
	struct emit_sleeper *s;

	if (!e || !function)
		return;
	GROW(e->sleepers, e->nsleepers);
	s = &e->sleepers[e->nsleepers++];
	s->function = xstrdup(function);
	s->evidence = dup_or_null(evidence);
	s->line = line;
}

void emit_cache(struct walk_ctx *w, unsigned line, unsigned col,
		const char *variable, const char *name, const char *flags,
		int reclaimable, int has_shrinker, const char *evidence)
{
	struct walk_emit *e = w->emit;
	struct emit_cache *c;

	if (!e)
		return;
	GROW(e->caches, e->ncaches);
	c = &e->caches[e->ncaches++];
	c->line = line;
	c->col = col;
	c->variable = dup_or_null(variable);
	c->name = dup_or_null(name);
	c->flags = dup_or_null(flags);
	c->evidence = dup_or_null(evidence);
	c->reclaimable = reclaimable;
	c->has_shrinker = has_shrinker;
}

void emit_finding(struct walk_ctx *w, const char *rule,
		  const char *severity, unsigned line, unsigned col,
		  const char *message, const char *suggestion)
{
	struct walk_emit *e = w->emit;
	struct emit_finding *f;

	if (!e || !rule || !message)
		return;
	GROW(e->findings, e->nfindings);
	f = &e->findings[e->nfindings++];
	f->rule = xstrdup(rule);
	f->severity = xstrdup(severity ? severity : "warning");
	f->message = xstrdup(message);
	f->suggestion = dup_or_null(suggestion);
	f->line = line;
	f->col = col;
}

void emit_fact(struct walk_ctx *w, const char *kind, const char *name,
	       const char *function, unsigned line)
{
	struct walk_emit *e = w->emit;
	struct emit_fact *f;

	if (!e || !kind || !name)
		return;
	GROW(e->facts, e->nfacts);
	f = &e->facts[e->nfacts++];
	f->kind = xstrdup(kind);
	f->name = xstrdup(name);
	f->function = dup_or_null(function);
	f->line = line;
}

void walk_emit_free(struct walk_emit *e)
{
	size_t i;

	for (i = 0; i < e->nallocs; i++) {
		free(e->allocs[i].name);
		free(e->allocs[i].kind);
		free(e->allocs[i].family);
		free(e->allocs[i].via);
	}
	for (i = 0; i < e->nsleepers; i++) {
		free(e->sleepers[i].function);
		free(e->sleepers[i].evidence);
	}
	for (i = 0; i < e->ncaches; i++) {
		free(e->caches[i].variable);
		free(e->caches[i].name);
		free(e->caches[i].flags);
		free(e->caches[i].evidence);
	}
	for (i = 0; i < e->nfindings; i++) {
		free(e->findings[i].rule);
		free(e->findings[i].severity);
		free(e->findings[i].message);
		free(e->findings[i].suggestion);
	}
	for (i = 0; i < e->nfacts; i++) {
		free(e->facts[i].kind);
		free(e->facts[i].name);
		free(e->facts[i].function);
	}
	free(e->allocs);
	free(e->sleepers);
	free(e->caches);
	free(e->findings);
	free(e->facts);
	memset(e, 0, sizeof(*e));
}

/* --- AST matching --------------------------------------------------- */

struct ast_fn {
	CXCursor cur;
	unsigned start, end; /* main-file offsets (expansion locations) */
};

struct match {
	struct walk_ctx *w;
	struct lexfile *lf;
	CXCursor *calls; /* per site, null cursor when unmatched */
	struct ast_fn *fns;
	size_t nfns;
	int mine;  /* the body visited is one of fns[] */
	int facts; /* its calls go to tu_facts_call() */
};

static int offset_in_main(struct walk_ctx *w, CXSourceLocation loc,
			  int spelling, unsigned *off)
{
	CXFile f;

	if (spelling)
		clang_getSpellingLocation(loc, &f, NULL, NULL, off);
	else
		clang_getExpansionLocation(loc, &f, NULL, NULL, off);
	return f && clang_File_isEqual(f, w->file);
}

/* Binary search of the site whose name token starts at OFF. */
static long site_at(const struct lexfile *lf, unsigned off)
{
	size_t lo = 0, hi = lf->nsites;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (lf->sites[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lf->nsites && lf->sites[lo].off == off ? (long)lo : -1;
}

static enum CXChildVisitResult visit_calls(CXCursor c, CXCursor parent,
					   CXClientData data)
{
	struct match *m = data;
	unsigned off;
	long at;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	if (m->facts)
		tu_facts_call(m->w, c);
	if (m->mine &&
	    offset_in_main(m->w, clang_getCursorLocation(c), 1, &off) &&
	    (at = site_at(m->lf, off)) >= 0 &&
	    clang_Cursor_isNull(m->calls[at]))
		m->calls[at] = c;
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent,
					 CXClientData data)
{
	struct match *m = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXSourceRange r;
	struct ast_fn f;

	(void)parent;
	if (k != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return k == CXCursor_LinkageSpec ? CXChildVisit_Recurse :
						   CXChildVisit_Continue;
	m->facts = tu_facts_function(m->w, c);
	r = clang_getCursorExtent(c);
	m->mine = offset_in_main(m->w, clang_getRangeStart(r), 0, &f.start) &&
		  offset_in_main(m->w, clang_getRangeEnd(r), 0, &f.end);
	if (m->mine) {
		f.cur = c;
		m->fns = xrealloc(m->fns, (m->nfns + 1) * sizeof(*m->fns));
		m->fns[m->nfns++] = f;
	}
	if (m->mine || m->facts)
		clang_visitChildren(c, visit_calls, m);
	return CXChildVisit_Continue;
}

static void call_site_hooks(struct walk_ctx *w, struct site *s, CXCursor call,
			    CXCursor fn)
{
	int i;

	for (i = 0; i < nclassifiers; i++)
		if (classifiers[i]->site)
			classifiers[i]->site(w, s, call, fn);
}

void walk_file(struct walk_ctx *w, struct lexfile *lf)
{
	struct match m = { w, lf, NULL, NULL, 0, 0, 0 };
	char *done;
	size_t i, f;
	int k;

	if (!w->lf)
		w->lf = lf;
	ast_spans_init(w);
	m.calls = xcalloc(lf->nsites ? lf->nsites : 1, sizeof(CXCursor));
	done = xcalloc(lf->nsites ? lf->nsites : 1, 1);
	for (i = 0; i < lf->nsites; i++)
		m.calls[i] = clang_getNullCursor();
	if (w->tu && w->depth >= DEPTH_SINGLE_FILE)
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu),
				    visit_top, &m);
	tu_facts_done(w);
	/*
	 * A site's confidence is what its classifiers can see: the parse
	 * depth when the AST has its call, else only the tokens (inactive
	 * #if branches, calls the parse dropped).
	 */
	for (i = 0; i < lf->nsites; i++)
		lf->sites[i].s.depth = clang_Cursor_isNull(m.calls[i]) ?
					       DEPTH_LEXICAL : w->depth;
	for (k = 0; k < nclassifiers; k++)
		if (classifiers[k]->tu_begin)
			classifiers[k]->tu_begin(w);
	for (f = 0; f < m.nfns; f++) {
		int any = 0;

		for (i = 0; i < lf->nsites && !any; i++)
			any = !done[i] && lf->sites[i].off >= m.fns[f].start &&
			      lf->sites[i].off < m.fns[f].end;
		if (!any)
			continue;
		for (k = 0; k < nclassifiers; k++)
			if (classifiers[k]->function_begin)
				classifiers[k]->function_begin(w, m.fns[f].cur);
		for (i = 0; i < lf->nsites; i++) {
			struct lex_site *ls = &lf->sites[i];

			if (done[i] || ls->off < m.fns[f].start ||
			    ls->off >= m.fns[f].end)
				continue;
			/*
			 * With the tree's headers, the name clang gives a
			 * SYSCALL_DEFINE body (__do_sys_memfd_create); a
			 * single-file parse sees the unexpanded macro.
			 */
			if (!ls->s.macro && w->depth == DEPTH_FULL) {
				CXString n = clang_getCursorSpelling(m.fns[f].cur);

				free(ls->s.function);
				ls->s.function = xstrdup(clang_getCString(n));
				clang_disposeString(n);
			}
			done[i] = 1;
			call_site_hooks(w, &ls->s, m.calls[i], m.fns[f].cur);
		}
		for (k = 0; k < nclassifiers; k++)
			if (classifiers[k]->function_end)
				classifiers[k]->function_end(w, m.fns[f].cur);
	}
	for (i = 0; i < lf->nsites; i++)
		if (!done[i])
			call_site_hooks(w, &lf->sites[i].s, m.calls[i],
					clang_getNullCursor());
	for (k = 0; k < nclassifiers; k++)
		if (classifiers[k]->tu_end)
			classifiers[k]->tu_end(w);
	tu_facts_free(w);
	ast_spans_free(w);
	free(m.calls);
	free(m.fns);
	free(done);
}

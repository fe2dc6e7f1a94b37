// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeps the flags decide, over the call graph (fnsum_gfp.h).  A
 * function that hands its gfp_t parameter to an allocator sleeps by
 * that parameter (functions.gfp_sleeps); one that hands its own gfp_t
 * parameter on to such a function sleeps by it too (`name/ARG>P` of
 * functions.gfp_calls), up to a fixpoint; and one that passes flags that
 * allow direct reclaim to such a function (`name/ARG@LINE`) sleeps,
 * whatever its callers pass: a root of "may sleep" like a mutex_lock().
 * A buffer held across such a call is held across a sleep.
 */
#include "analyzer/summaries_int.h"
#include "analyzer/summaries.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 32

/*
 * One gfp_calls entry: `name/ARG>P` (KIND '>') or `name/ARG@LINE` ('@'),
 * SOME when the flags allow direct reclaim on some paths only (`@LINE?`).
 */
struct gfp_entry {
	const char *name;
	size_t len;
	int arg;
	char kind;
	long val;
	int some;
};

/* The next entry of *P, advancing it; 0 at the end. */
static int next_entry(const char **p, struct gfp_entry *e)
{
	const char *s = *p, *slash, *end;
	char *q;

	while (*s == ' ')
		s++;
	if (!*s)
		return 0;
	end = s + strcspn(s, " ");
	*p = end;
	slash = memchr(s, '/', (size_t)(end - s));
	if (!slash)
		return next_entry(p, e);
	e->name = s;
	e->len = (size_t)(slash - s);
	e->arg = (int)strtol(slash + 1, &q, 10);
	e->kind = *q;
	e->val = (e->kind == '>' || e->kind == '@') ? strtol(q + 1, &q, 10)
						    : -1;
	e->some = e->kind == '@' && *q == '?';
	return e->kind == '>' || e->kind == '@' ? 1 : next_entry(p, e);
}

/* A definition of E's callee, from F's file, that sleeps by E's argument. */
static int sleeps_by(const struct graph *g, const struct fn *f,
		     const struct gfp_entry *e)
{
	int j;

	FOR_EACH_DEF(g, j, summaries_resolve(g, f->file_id, e->name, e->len))
	if (g->f[j].gsleep == e->arg)
		return j;
	return -1;
}

/* "f() -> g() -> kzalloc() at line 12 in path": down J's gvia chain. */
static char *gfp_chain(const struct graph *g, int j)
{
	struct strbuf sb = STRBUF_INIT;
	int hops = 0;

	for (; g->f[j].gvia >= 0 && hops < MAX_CHAIN; j = g->f[j].gvia, hops++)
		sb_addf(&sb, "%s() -> ", g->f[j].name);
	while (g->f[j].gvia >= 0)
		j = g->f[j].gvia;
	/* gfp_sleeps: `P name() at line N` */
	sb_addf(&sb, "%s() -> %s in %s", g->f[j].name,
		strchr(g->f[j].gfp_sleeps, ' ') + 1, g->f[j].path);
	return sb_detach(&sb);
}

void summaries_solve_gfp(struct graph *g)
{
	struct gfp_entry e;
	const char *p;
	size_t i;
	int round, changed = 1, j;

	for (i = 0; i < g->n; i++) {
		struct fn *f = &g->f[i];

		f->gvia = -1;
		f->gsleep = f->gfp_sleeps && strchr(f->gfp_sleeps, ' ')
				    ? atoi(f->gfp_sleeps)
				    : -1;
	}
	/* grows only: a parameter handed on to one that sleeps by it */
	for (round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		for (i = 0; i < g->n; i++) {
			struct fn *f = &g->f[i];

			if (f->gsleep >= 0)
				continue;
			for (p = f->gfp_calls; p && next_entry(&p, &e);) {
				if (e.kind != '>' ||
				    (j = sleeps_by(g, f, &e)) < 0)
					continue;
				f->gsleep = (int)e.val;
				f->gvia = j;
				changed = 1;
				break;
			}
		}
	}
	/* roots: sleeping flags passed to one that sleeps by them */
	for (i = 0; i < g->n; i++) {
		struct fn *f = &g->f[i];

		if (f->sleeps)
			continue;
		for (p = f->gfp_calls; p && next_entry(&p, &e);) {
			char *c, *ev;

			if (e.kind != '@' || (j = sleeps_by(g, f, &e)) < 0)
				continue;
			c = gfp_chain(g, j);
			ev = xasprintf("%.*s() at line %ld with flags that "
				       "allow reclaim: %s",
				       (int)e.len, e.name, e.val, c);
			f->sleeps = summaries_strdup(g, ev);
			free(ev);
			free(c);
			break;
		}
	}
}

char *summaries_gfp_held(const struct graph *g, int fj, const char *name,
			 int line)
{
	struct gfp_entry e;
	const char *p;
	int j;

	if (fj < 0)
		return NULL;
	for (p = g->f[fj].gfp_calls; p && next_entry(&p, &e);) {
		char *c, *ev;

		if (e.kind != '@' || e.val != line || e.len != strlen(name) ||
		    memcmp(e.name, name, e.len) ||
		    (j = sleeps_by(g, &g->f[fj], &e)) < 0)
			continue;
		c = gfp_chain(g, j);
		ev = xasprintf("%s() at line %d with flags that allow reclaim: "
			       "%s",
			       name, line, c);
		free(c);
		return ev;
	}
	return NULL;
}

/*
 * Does every caller of J pass flags that allow direct reclaim as the
 * parameter J sleeps by?  A caller passes them (`name/ARG@LINE`), or
 * hands on its own parameter (`name/ARG>P`) and every caller of its
 * passes them, and so on.  MEMO: per function, 0 not known yet, 1 yes,
 * 2 no, 3 being decided (a cycle is no).  *VIA: a caller, for the
 * evidence.
 */
static int reclaim_callers(const struct graph *g, int j, unsigned char *memo,
			   int depth, int *via)
{
	size_t len = strlen(g->f[j].name);
	int k, any = 0;

	if (memo[j])
		return memo[j] == 1;
	if (g->f[j].gsleep < 0 || depth > MAX_CHAIN)
		return 0;
	memo[j] = 3;
	for (k = g->rev_start[j]; k < g->rev_start[j + 1]; k++) {
		int c = g->rev[k], ok = 0;
		struct gfp_entry e;
		const char *p;

		for (p = g->f[c].gfp_calls; !ok && p && next_entry(&p, &e);) {
			if (e.arg != g->f[j].gsleep || e.len != len ||
			    memcmp(e.name, g->f[j].name, len))
				continue;
			ok = (e.kind == '@' && !e.some) ||
			     (e.kind == '>' && c != j &&
			      g->f[c].gsleep == e.val &&
			      reclaim_callers(g, c, memo, depth + 1, NULL));
		}
		if (!ok) {
			memo[j] = 2;
			return 0;
		}
		if (via && !any)
			*via = c;
		any = 1;
	}
	memo[j] = any ? 1 : 2;
	return any;
}

int summaries_gfp_callers_reclaim(const struct graph *g, int j,
				  unsigned char *memo, int *via)
{
	*via = -1;
	if (memo[j] == 1) {
		/* decided before: any caller will do for the evidence */
		*via = g->rev_start[j] < g->rev_start[j + 1]
			       ? g->rev[g->rev_start[j]]
			       : -1;
		return *via >= 0;
	}
	return reclaim_callers(g, j, memo, 0, via);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic context from the callers (summaries.h): a function whose every
 * caller in the tree calls it inside an atomic section (data/atomic.txt,
 * as fnsum.c reads it), or is itself such a function, runs in atomic
 * context; a site there that the function alone left `unknown` (no
 * section in view, and GFP_ATOMIC or the caller's flags) is `atomic`,
 * the caller as evidence.  A function nobody calls by name (a callback
 * through a pointer) gets nothing from here.
 *
 * A site left `process` (flags that may sleep, no section in view) stays
 * so: read from text, "every caller holds a lock" misses a callee that
 * drops the lock around its allocation (`spin_unlock(); kmalloc(...,
 * GFP_KERNEL); spin_lock();`) and early boot's irqs-off start_kernel():
 * on 6.1 nearly all the sleep-in-atomic findings it made were of these.
 */
#include "analyzer/summaries_int.h"
#include "db/db.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 32

int summaries_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && (p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Does every caller of J call it in an atomic section, or run in one? */
static int all_callers_atomic(const struct graph *g, int j, int *via)
{
	int k, first = -1;

	if (g->rev_start[j] == g->rev_start[j + 1])
		return 0;
	for (k = g->rev_start[j]; k < g->rev_start[j + 1]; k++) {
		const struct fn *c = &g->f[g->rev[k]];

		if (!c->actx &&
		    !summaries_in_list(c->atomic_callees, g->f[j].name))
			return 0;
		if (first < 0 || g->rev[k] < first)
			first = g->rev[k]; /* the first by path and line */
	}
	*via = first;
	return 1;
}

void summaries_solve_ctx(struct graph *g)
{
	int changed = 1, round, via;
	size_t j;

	/* grows only: callers that turn atomic can make their callees so */
	for (round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		for (j = 0; j < g->n; j++)
			if (!g->f[j].actx &&
			    all_callers_atomic(g, (int)j, &via)) {
				g->f[j].actx = 1;
				g->f[j].actx_via = via;
				changed = 1;
			}
	}
}

/* The evidence: the caller, and why it is atomic there. */
static char *ctx_evidence(const struct graph *g, int j)
{
	const struct fn *c = &g->f[g->f[j].actx_via];

	if (summaries_in_list(c->atomic_callees, g->f[j].name))
		return xasprintf("every caller calls it in an atomic section "
				 "(%s() in %s)",
				 c->name, c->path);
	return xasprintf("every caller runs in atomic context (%s() in %s)",
			 c->name, c->path);
}

static int set_ctx(sqlite3_stmt *up, long long id, const char *ctx,
		   const char *ev, int keep_base)
{
	int rc;

	sqlite3_bind_int64(up, 1, id);
	sqlite3_bind_text(up, 2, ctx, -1, SQLITE_TRANSIENT);
	if (ev)
		sqlite3_bind_text(up, 3, ev, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(up, 3);
	sqlite3_bind_int(up, 4, keep_base);
	rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
	sqlite3_reset(up);
	return rc;
}

/*
 * Sites the function alone could not place: `unknown` because of the
 * flags only.  context_base keeps
 * that answer while the summaries override it, so that the next solve
 * can give it back when a caller changed.
 */
int summaries_update_ctx(sqlite3 *db, const struct graph *g)
{
	sqlite3_stmt *sel = db_prepare(
		db,
		"SELECT id, file_id, function,"
		" coalesce(json_extract(context_base, '$[0]'), context),"
		" CASE WHEN context_base IS NULL THEN context_evidence"
		" ELSE json_extract(context_base, '$[1]') END,"
		" context_base IS NOT NULL FROM sites "
		"WHERE function IS NOT NULL AND (context_base IS NOT NULL OR"
		" (context = 'unknown' AND"
		" context_evidence LIKE 'no atomic section here%'))");
	/* ?4: 1 override (keep or set the base), 0 give the base back */
	sqlite3_stmt *up = db_prepare(
		db, "UPDATE sites SET context_base = CASE WHEN ?4 THEN"
		    " coalesce(context_base, json_array(context,"
		    " context_evidence)) END, context = ?2,"
		    " context_evidence = ?3 WHERE id = ?1");
	int rc = (!sel || !up) ? -1 : 0, step = SQLITE_DONE;

	while (!rc && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(sel, 0);
		const char *fn = (const char *)sqlite3_column_text(sel, 2);
		const char *base = (const char *)sqlite3_column_text(sel, 3);
		const char *base_ev = (const char *)sqlite3_column_text(sel, 4);
		int overridden = sqlite3_column_int(sel, 5);
		int j = summaries_resolve(g, sqlite3_column_int64(sel, 1), fn,
					  strlen(fn));

		/* a base other than the flags-only `unknown`: give it back */
		int eligible = !strcmp(base, "unknown") && base_ev &&
			       !strncmp(base_ev, "no atomic section here", 22);

		if (eligible && j >= 0 && g->f[j].actx) {
			char *ev = ctx_evidence(g, j);

			rc = set_ctx(up, id, "atomic", ev, 1);
			free(ev);
		} else if (overridden) {
			rc = set_ctx(up, id, base, base_ev, 0);
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The summaries step (summaries.h).
 */
#include "analyzer/summaries.h"
#include "analyzer/summaries_int.h"
#include "analyzer/fnsum.h"
#include "analyzer/names.h"
#include "db/db.h"
#include "lib/beside.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *member_text; /* the rows, kept for load_members' split */

/* file_facts member_inits rows: pairs resolved after summaries_index_defs(). */
struct mpair {
	long long file_id;
	const char *m, *t;
	size_t mn, tn;
	int same; /* the target only as a definition of file_id's */
};
static struct mpair *mpairs;
static size_t nmpairs;

static int load_members(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT ff.file_id, ff.function"
		    /*
		     * in path order, as load() reads the functions: a
		     * member's witness (member_via) does not depend on the
		     * order the files were written in
		     */
		    " FROM files fl CROSS JOIN file_facts ff"
		    " ON fl.id = ff.file_id"
		    " WHERE ff.kind = '" FACT_MEMBER_INITS "'"
		    " AND ff.function IS NOT NULL"
		    " ORDER BY fl.path, ff.line, ff.rowid");
	struct strbuf sb = STRBUF_INIT;
	size_t cap = 0, i, *start = NULL, nrows = 0, rcap = 0;
	long long *fids = NULL;
	int rc;

	(void)g;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (nrows == rcap) {
			rcap = rcap ? rcap * 2 : 1024;
			start = xrealloc(start, rcap * sizeof(*start));
			fids = xrealloc(fids, rcap * sizeof(*fids));
		}
		fids[nrows] = sqlite3_column_int64(st, 0);
		start[nrows++] = sb.len;
		sb_adds(&sb, (const char *)sqlite3_column_text(st, 1));
		sb_addc(&sb, 0);
	}
	sqlite3_finalize(st);
	member_text = sb.buf;
	nmpairs = 0;
	mpairs = NULL;
	for (i = 0; i < nrows; i++) {
		const char *p = member_text + start[i];

		while (*p) {
			size_t n = strcspn(p, " "), e;
			const char *eq = memchr(p, '=', n);

			if (eq) {
				if (nmpairs == cap) {
					cap = cap ? cap * 2 : 4096;
					mpairs = xrealloc(mpairs,
							  cap * sizeof(*mpairs));
				}
				e = (size_t)(eq - p);
				mpairs[nmpairs].file_id = fids[i];
				mpairs[nmpairs].m = p;
				mpairs[nmpairs].mn = e;
				mpairs[nmpairs].t = eq + 1;
				mpairs[nmpairs].tn = n - e - 1;
				/* `m=`: the member's own name, this file's */
				mpairs[nmpairs].same = !mpairs[nmpairs].tn;
				if (mpairs[nmpairs].same) {
					mpairs[nmpairs].t = p;
					mpairs[nmpairs].tn = e;
				}
				nmpairs++;
			}
			p += n + (p[n] == ' ');
		}
	}
	free(start);
	free(fids);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The graph's strings live in large chunks freed together: one malloc and
 * one free per string, for the 690k functions of 6.1, were a tenth of a
 * solve.  Chunks are linked through their first bytes.
 */
#define CHUNK_SIZE (1u << 20)

static char *graph_strdup(struct graph *g, const char *s)
{
	size_t n;
	char *r;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	if (n > CHUNK_SIZE / 4) { /* a huge one: a chunk of its own */
		char *c = xmalloc(sizeof(char *) + n);

		memcpy(c, &g->chunks, sizeof(char *));
		g->chunks = c;
		return memcpy(c + sizeof(char *), s, n);
	}
	if (!g->chunks || g->chunk_left < n) {
		char *c = xmalloc(CHUNK_SIZE);

		memcpy(c, &g->chunks, sizeof(char *));
		g->chunks = c;
		g->chunk_at = c + sizeof(char *);
		g->chunk_left = CHUNK_SIZE - sizeof(char *);
	}
	r = memcpy(g->chunk_at, s, n);
	g->chunk_at += n;
	g->chunk_left -= n;
	return r;
}

char *summaries_strdup(struct graph *g, const char *s)
{
	return graph_strdup(g, s);
}

static void graph_chunks_free(struct graph *g)
{
	while (g->chunks) {
		char *c = g->chunks;

		memcpy(&g->chunks, c, sizeof(char *));
		free(c);
	}
}

static int load(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT f.rowid, f.file_id, f.name, fl.path, f.is_static,"
		    " f.sleeps, f.callees, f.may_sleep, f.sleep_via,"
		    " f.atomic_callees, f.atomic_context, f.params,"
		    " f.param_use, f.callbacks, f.gfp_sleeps, f.gfp_calls,"
		    " f.drop_line, f.unlocked_callees, f.is_init "
		    /*
		     * files first, in path order from its index: only each
		     * file's functions are sorted (a sort of the whole
		     * table was 1 s of a 6.1 solve)
		     */
		    "FROM files fl CROSS JOIN functions f ON fl.id = f.file_id "
		    "ORDER BY fl.path, f.line, f.rowid");
	/*
	 * Sized once: doubling the 690k functions of 6.1 (about 120 MB)
	 * copied and faulted in twice that, a quarter of the load.
	 */
	long long want = db_scalar(db, "SELECT count(*) FROM functions", 0);
	size_t cap = want > 0 ? (size_t)want : 0;
	int rc;

	if (!st)
		return -1;
	if (cap)
		g->f = xmalloc(cap * sizeof(*g->f));
	names_init(&g->global);
	names_init(&g->statics);
	names_init(&g->hstatics);
	names_init(&g->static_names);
	names_init(&g->allocs);
	names_init(&g->atomic_called);
	names_init(&g->members);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fn *f;
		const char *t;

		if (g->n == cap) {
			cap = cap ? cap * 2 : 4096;
			g->f = xrealloc(g->f, cap * sizeof(*g->f));
		}
		f = &g->f[g->n];
		memset(f, 0, sizeof(*f));
		f->rowid = sqlite3_column_int64(st, 0);
		f->file_id = sqlite3_column_int64(st, 1);
		f->name = graph_strdup(g,
				       (const char *)sqlite3_column_text(st, 2));
		/* a file's functions are together: one copy of its path */
		f->path = g->n && g->f[g->n - 1].file_id == f->file_id
				  ? g->f[g->n - 1].path
				  : graph_strdup(g, (const char *)
						 sqlite3_column_text(st, 3));
		f->is_static = sqlite3_column_int(st, 4);
		f->sleeps = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 5));
		f->callees = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 6));
		f->old_may = sqlite3_column_type(st, 7) == SQLITE_NULL
				     ? -1
				     : sqlite3_column_int(st, 7);
		f->old_via = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 8));
		f->via = -1;
		f->old_actx = sqlite3_column_type(st, 10) == SQLITE_NULL
				      ? -1
				      : sqlite3_column_int(st, 10);
		f->actx_via = -1;
		f->params = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 11));
		f->old_use = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 12));
		f->callbacks = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 13));
		f->gfp_sleeps = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 14));
		f->gfp_calls = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 15));
		f->drop_line = sqlite3_column_int(st, 16);
		f->unlocked_callees = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 17));
		f->is_init = sqlite3_column_int(st, 18);
		t = f->atomic_callees = graph_strdup(
			g, (const char *)sqlite3_column_text(st, 9));
		while (t && *t) {
			size_t n = strcspn(t, " ");

			names_put(&g->atomic_called, t, n, 1);
			t += n + (t[n] == ' ');
		}
		g->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (load_members(db, g))
		return -1;
	/*
	 * Allocators and the kernel's frees answer at the call, by their
	 * flags; a cache creation has none, and sleeps the way its body
	 * does (a mutex), as does a free wrapper learned from the tree
	 * (__video_register_device() frees on an error path and takes
	 * videodev_lock).
	 */
	st = db_prepare(db, "SELECT name FROM allocators WHERE kind = 'alloc'"
			    " OR (kind = 'free' AND origin = 'builtin')");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		names_put(&g->allocs, t, strlen(t), 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The definition of FIRST's chain that FILE_ID holds, else -1. */
static int def_in_file(const struct graph *g, int first, long long file_id)
{
	int j;

	FOR_EACH_DEF(g, j, first)
	{
		if (g->f[j].file_id == file_id)
			return j;
	}
	return -1;
}

/* Each member's targets: definitions (the assigning file's static first). */
static void index_members(struct graph *g)
{
	size_t i, cap = 0;

	for (i = 0; i < nmpairs; i++) {
		const struct mpair *p = &mpairs[i];
		int j = summaries_resolve(g, p->file_id, p->t, p->tn), m;

		if (p->same)
			j = def_in_file(g, j, p->file_id);
		if (j < 0)
			continue;
		m = names_get(&g->members, p->m, p->mn);
		if (m < 0) {
			m = g->nmembers++;
			names_put(&g->members, p->m, p->mn, m);
			g->member_may = xrealloc(g->member_may, g->nmembers);
			g->member_via = xrealloc(g->member_via,
						 g->nmembers * sizeof(int));
			g->member_may[m] = 0;
			g->member_via[m] = -1;
		}
		if (g->nmt == cap) {
			cap = cap ? cap * 2 : 4096;
			g->mt = xrealloc(g->mt, cap * sizeof(int));
			g->mt_member = xrealloc(g->mt_member,
						cap * sizeof(int));
		}
		g->mt[g->nmt] = j;
		g->mt_member[g->nmt++] = m;
	}
	/* the targets grouped by member (a counting sort) */
	g->m_start = xcalloc(g->nmembers + 2, sizeof(int));
	g->m_targets = xcalloc(g->nmt + 1, sizeof(int));
	for (i = 0; i < g->nmt; i++)
		g->m_start[g->mt_member[i] + 2]++;
	for (i = 2; i < (size_t)g->nmembers + 2; i++)
		g->m_start[i] += g->m_start[i - 1];
	for (i = 0; i < g->nmt; i++)
		g->m_targets[g->m_start[g->mt_member[i] + 1]++] = g->mt[i];
	free(mpairs);
	mpairs = NULL;
	free(member_text);
	member_text = NULL;
}

int summaries_member_sleeps(const struct graph *g, const char *name,
			    size_t len)
{
	int m = names_get(&g->members, name, len);

	return m >= 0 && g->member_may[m] ? g->member_via[m] : -1;
}

static int may_pass(const struct graph *g, int c)
{
	return !g->f[c].may && names_get(&g->atomic_called, g->f[c].name,
					 strlen(g->f[c].name)) < 0;
}

static size_t propagate(struct graph *g, int *queue, size_t head, size_t tail)
{
	while (head < tail) {
		int j = queue[head++], k;

		for (k = g->rev_start[j]; k < g->rev_start[j + 1]; k++) {
			int c = g->rev[k];

			if (!may_pass(g, c))
				continue;
			g->f[c].may = 1;
			g->f[c].via = j;
			queue[tail++] = c;
		}
	}
	return tail;
}

/*
 * Calls through a member: the call may sleep when most of the functions
 * assigned to a member of that name may (`any` would make every
 * `->read()` and `->release()` sleep for one sleeping driver's).  New
 * sleepers change the votes: a few rounds.
 */
static void solve_members(struct graph *g, int *queue)
{
	int *tot = xcalloc(g->nmembers + 1, sizeof(int));
	int *yes = xcalloc(g->nmembers + 1, sizeof(int));
	int (*pc)[2] = NULL; /* {caller, member} */
	size_t npc = 0, cap = 0, i, k, tail;
	int round, m;

	for (i = 0; i < g->n; i++) {
		const char *p = g->f[i].callees, *s;
		size_t len;

		while (p && (len = summaries_next_callee(&p))) {
			s = p - len;
			if (*s != '.' ||
			    (m = names_get(&g->members, s + 1, len - 1)) < 0)
				continue;
			if (npc == cap) {
				cap = cap ? cap * 2 : 4096;
				pc = xrealloc(pc, cap * sizeof(*pc));
			}
			pc[npc][0] = (int)i;
			pc[npc++][1] = m;
		}
	}
	for (round = 0; round < 4; round++) {
		int flipped = 0;

		memset(tot, 0, g->nmembers * sizeof(int));
		memset(yes, 0, g->nmembers * sizeof(int));
		for (k = 0; k < g->nmt; k++) {
			m = g->mt_member[k];
			tot[m]++;
			if (g->f[g->mt[k]].may) {
				yes[m]++;
				g->member_via[m] = g->mt[k];
			}
		}
		for (m = 0; m < g->nmembers; m++)
			if (!g->member_may[m] && 2 * yes[m] > tot[m]) {
				g->member_may[m] = 1;
				flipped = 1;
			}
		if (!flipped)
			break;
		tail = 0;
		for (k = 0; k < npc; k++) {
			int c = pc[k][0];

			if (!g->member_may[pc[k][1]] || !may_pass(g, c))
				continue;
			g->f[c].may = 1;
			g->f[c].via = g->member_via[pc[k][1]];
			queue[tail++] = c;
		}
		propagate(g, queue, 0, tail);
	}
	free(pc);
	free(tot);
	free(yes);
}

static void solve(struct graph *g)
{
	int *queue = xcalloc(g->n + 1, sizeof(int));
	size_t tail = 0, i;

	for (i = 0; i < g->n; i++)
		if (g->f[i].sleeps) {
			g->f[i].may = 1;
			queue[tail++] = (int)i;
		}
	propagate(g, queue, 0, tail);
	solve_members(g, queue);
	free(queue);
}

/* "a() -> b() -> mutex_lock() at line 12 (fs/x.c)" from J down. */
static char *chain_of(const struct graph *g, int j)
{
	struct strbuf sb = STRBUF_INIT;
	int hops = 0;

	for (; g->f[j].via >= 0 && hops < MAX_CHAIN; j = g->f[j].via, hops++)
		sb_addf(&sb, "%s() -> ", g->f[j].name);
	if (g->f[j].via >= 0)
		sb_addf(&sb, "... -> ");
	while (g->f[j].via >= 0)
		j = g->f[j].via;
	sb_addf(&sb, "%s() -> %s (%s)", g->f[j].name, g->f[j].sleeps,
		g->f[j].path);
	return sb_detach(&sb);
}

/*
 * How far a re-solve reached, in meta `summaries_last`: "SOLVED NEW
 * CHANGED": functions solved, of those without an answer before (their
 * file was analysed again, or is new), and of those whose answer (may
 * sleep, runs atomic, or the callee it sleeps through) changed; or
 * "kept" when nothing the summaries depend on changed.
 */
static int write_functions(sqlite3 *db, struct graph *g,
			   const struct params *p, size_t *fresh,
			   size_t *changed)
{
	/* one write a row: the row's text is encoded again at each */
	sqlite3_stmt *up = db_prepare(
		db, "UPDATE functions SET may_sleep = ?2, sleep_via = ?3, "
		    "atomic_context = ?4, atomic_via = ?5, param_use = ?6 "
		    "WHERE rowid = ?1");
	size_t i;
	int rc = 0;

	if (!up)
		return -1;
	for (i = 0; i < g->n && !rc; i++) {
		struct fn *f = &g->f[i];
		const char *via = f->via >= 0 ? g->f[f->via].name : NULL;

		const char *avia = f->actx_via >= 0 ? g->f[f->actx_via].name
						     : f->actx_reg;
		char use[64];
		int same_use;

		summaries_param_use(p, i, use, sizeof(use));
		same_use = !strcmp(use, f->old_use ? f->old_use : "");
		if (f->old_may == f->may && f->old_actx == f->actx &&
		    (via ? f->old_via && !strcmp(via, f->old_via)
			 : !f->old_via)) {
			if (same_use)
				continue;
		} else if (f->old_may < 0) {
			++*fresh;
		} else {
			++*changed;
		}
		sqlite3_bind_int64(up, 1, f->rowid);
		sqlite3_bind_int(up, 2, f->may);
		if (via)
			sqlite3_bind_text(up, 3, via, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(up, 3);
		sqlite3_bind_int(up, 4, f->actx);
		if (avia)
			sqlite3_bind_text(up, 5, avia, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(up, 5);
		if (*use)
			sqlite3_bind_text(up, 6, use, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(up, 6);
		rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(up);
	}
	sqlite3_finalize(up);
	return rc;
}

/* One site: the first held call that may sleep decides. */
struct site_acc {
	long long id, file_id;
	int base, cur; /* -1 NULL */
	char *evidence, *cur_evidence;
};

static int flush_site(sqlite3_stmt *up, struct site_acc *a)
{
	int val = a->evidence ? 1 : a->base, rc = 0;
	int same = val == a->cur &&
		   ((!a->evidence && (val == 1 || !a->cur_evidence)) ||
		    (a->evidence && a->cur_evidence &&
		     !strcmp(a->evidence, a->cur_evidence)));

	if (a->id && !same) {
		sqlite3_bind_int64(up, 1, a->id);
		if (val < 0)
			sqlite3_bind_null(up, 2);
		else
			sqlite3_bind_int(up, 2, val);
		if (a->evidence)
			sqlite3_bind_text(up, 3, a->evidence, -1,
					  SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(up, 3);
		rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(up);
	}
	free(a->evidence);
	free(a->cur_evidence);
	memset(a, 0, sizeof(*a));
	return rc;
}

static int update_sites(sqlite3 *db, const struct graph *g)
{
	sqlite3_stmt *sel = db_prepare(
		db,
		"SELECT s.id, s.file_id, json_extract(s.held_calls, '$.base'),"
		" s.held_across_sleep, s.sleep_evidence,"
		" json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),"
		" json_extract(s.held_calls, '$.ev'), s.function "
		"FROM sites s, json_each(s.held_calls, '$.calls') j "
		/* NULL: the classifier did not run */
		"WHERE json_valid(s.held_calls) AND"
		" s.held_across_sleep IS NOT NULL ORDER BY s.id, j.key");
	sqlite3_stmt *up =
		db_prepare(db, "UPDATE sites SET held_across_sleep = ?2, "
			       "sleep_evidence = ?3 WHERE id = ?1");
	struct site_acc a = {0};
	int rc = (!sel || !up) ? -1 : 0, step = SQLITE_DONE, fj = -1;

	while (!rc && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(sel, 0);
		const char *name = (const char *)sqlite3_column_text(sel, 5);
		int j;

		if (id != a.id) {
			const char *ev;

			rc = flush_site(up, &a);
			a.id = id;
			a.file_id = sqlite3_column_int64(sel, 1);
			a.base = sqlite3_column_type(sel, 2) == SQLITE_NULL
					 ? -1
					 : sqlite3_column_int(sel, 2);
			a.cur = sqlite3_column_type(sel, 3) == SQLITE_NULL
					? -1
					: sqlite3_column_int(sel, 3);
			ev = (const char *)sqlite3_column_text(sel, 4);
			a.cur_evidence = ev ? xstrdup(ev) : NULL;
			/* held across a sleep already, by the file's walk */
			ev = (const char *)sqlite3_column_text(sel, 7);
			if (a.base == 1 && ev)
				a.evidence = xstrdup(ev);
			ev = (const char *)sqlite3_column_text(sel, 8);
			fj = ev ? summaries_resolve(g, a.file_id, ev,
						    strlen(ev))
				: -1;
		}
		if (a.evidence || !name)
			continue;

		if (*name == '.') {
			/* a call through a member: its targets decide */
			j = summaries_member_sleeps(g, name + 1,
						    strlen(name) - 1);
			if (j >= 0) {
				char *c = chain_of(g, j);

				a.evidence = xasprintf(
					"%s() at line %d: %s", name + 1,
					sqlite3_column_int(sel, 6), c);
				free(c);
			}
			continue;
		}
		FOR_EACH_DEF(g, j, summaries_resolve(g, a.file_id, name, strlen(name)))
		if (g->f[j].may) {
			char *c = chain_of(g, j);

			a.evidence = xasprintf("%s() at line %d: %s", name,
					       sqlite3_column_int(sel, 6), c);
			free(c);
			break;
		}
		/* one that sleeps by its flags, given flags that do */
		if (!a.evidence)
			a.evidence = summaries_gfp_held(
				g, fj, name, sqlite3_column_int(sel, 6));
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	if (!rc)
		rc = flush_site(up, &a);
	else
		flush_site(up, &(struct site_acc){0});
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc;
}

static void graph_free(struct graph *g)
{
	graph_chunks_free(g);
	free(g->f);
	free(g->rev_start);
	free(g->rev);
	names_free(&g->global);
	names_free(&g->statics);
	names_free(&g->hstatics);
	names_free(&g->static_names);
	names_free(&g->allocs);
	names_free(&g->atomic_called);
	names_free(&g->members);
	free(g->mt);
	free(g->mt_member);
	free(g->m_start);
	free(g->m_targets);
	free(g->member_may);
	free(g->member_via);
	free(mpairs);
	mpairs = NULL;
	free(member_text);
	member_text = NULL;
}

/*
 * What the summaries were solved from: a re-scan that changed nothing
 * keeps them (solving takes seconds; a no-change re-scan, well under
 * one).  Every file's rows give the solve what their digest says
 * (linkmemo.h); a file written again with another digest, a new one, or
 * merged rows are not linked yet, and a removed file changes the count.
 * The low 32 bits of each digest are summed: at most 2^32 files each.
 */
static char *stamp(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(
		db,
		"SELECT (SELECT count(*) || ':' ||"
		"  coalesce(sum(link_digest & 4294967295), 0) FROM files) ||"
		" ':' || (SELECT count(*) FROM allocators)");
	char *r = NULL;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		r = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return r;
}

struct params_job {
	const struct graph *g;
	struct params *p;
};

static void *params_thread(void *arg)
{
	struct params_job *pj = arg;

	pj->p = summaries_params_solve(pj->g);
	return NULL;
}

int summaries_link(sqlite3 *db)
{
	struct graph g;
	char *before = stamp(db), *last = db_meta_get(db, "summaries_stamp");
	size_t fresh = 0, changed = 0, solved;
	int rc;

	if (!before) {
		free(last);
		return -1;
	}
	if (last && !strcmp(before, last) &&
	    !db_scalar(db, "SELECT EXISTS (SELECT 1 FROM files"
			   " WHERE linked = 0)", 1)) {
		free(before);
		free(last);
		return db_meta_set(db, "summaries_last", "kept") ? -1 : 0;
	}
	free(before);
	free(last);
	memset(&g, 0, sizeof(g));
	rc = load(db, &g);
	if (!rc) {
		struct params_job pj = { &g, NULL };
		struct beside b;

		summaries_index_defs(&g);
		index_members(&g);
		/*
		 * The parameters need only the indexes: they are solved on
		 * another thread beside the other solves (a second of the
		 * 6.1 link's ten, all on one CPU before).
		 */
		beside_start(&b, params_thread, &pj);
		summaries_build_reverse(&g);
		summaries_solve_gfp(&g);
		solve(&g);
		rc = summaries_ctx_roots(db, &g);
		if (!rc)
			summaries_solve_ctx(&g);
		beside_finish(&b);
		rc = rc || write_functions(db, &g, pj.p, &fresh, &changed) ||
		     update_sites(db, &g) || summaries_update_ctx(db, &g) ||
		     summaries_params_write(db, &g, pj.p) ||
		     summaries_reclaim(db, &g);
		summaries_params_free(pj.p);
	}
	solved = g.n;
	graph_free(&g);
	if (!rc) {
		char *after = stamp(db);
		char *how = xasprintf("%zu %zu %zu", solved, fresh, changed);

		rc = !after || db_meta_set(db, "summaries_stamp", after) ||
		     db_meta_set(db, "summaries_last", how);
		free(after);
		free(how);
	}
	return rc ? -1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What each function does with its pointer parameters, solved over the
 * call graph (summaries.h), and the lifetime of the sites whose buffer is
 * handed to such a function.
 *
 * fnsum.c reads each function's own uses of a parameter (stores, frees
 * at the top level, reads through it, or something it cannot follow) and
 * the calls it hands the parameter to.  Here a hand-over takes the
 * callee's answer for that argument: a parameter handed to a function
 * that stores it is stored; handed, on every path, to one that frees it
 * is freed; handed to one that cannot be told (no definition in the tree,
 * a call through a pointer, a parameter that is no pointer by its text,
 * an argument of `...`) is unknown.  Recursion starts from "borrows" and
 * runs to a fixpoint.  Several definitions of a name (per arch) must
 * agree, else unknown (stored when one stores).
 *
 * A site whose buffer the path walk saw handed to functions the file
 * cannot tell (owner.c: `stored`, "passed to f()") carries, in its
 * held_calls, the calls and what the walk gives when they all borrow and
 * when they all free it; when the summaries say so, that answer is taken.
 */
#include "analyzer/summaries_int.h"
#include "db/db.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 32

enum { PV_B, PV_F, PV_U, PV_S, PV_NONE };

struct hand {
	int def, arg, uncond;
};

struct params {
	int *off, *np;	      /* per function: first slot, slot count */
	signed char *direct; /* per slot: PV_*, PV_NONE for no pointer */
	signed char *val;
	int *hstart;	     /* per slot: its hand-overs [hstart, hstart+1) */
	struct hand *h;
	size_t nslots, nh;
};

static int pchar(char c)
{
	switch (c) {
	case 'S':
		return PV_S;
	case 'F':
		return PV_F;
	case 'B':
		return PV_B;
	case 'U':
		return PV_U;
	default:
		return PV_NONE;
	}
}

/*
 * The definitions a hand-over names: a function (summaries_resolve()),
 * or `.m`, a call through member m: -2 - its index (-1 unknown).
 */
static int target(const struct graph *g, long long file_id, const char *n,
		  size_t len)
{
	int m;

	if (len < 1 || *n != '.')
		return summaries_resolve(g, file_id, n, len);
	m = names_get(&g->members, n + 1, len - 1);
	return m >= 0 ? -2 - m : -1;
}

static void parse(const struct graph *g, struct params *p)
{
	size_t i, scap = 1024, hcap = 1024;

	p->off = xcalloc(g->n + 1, sizeof(int));
	p->np = xcalloc(g->n + 1, sizeof(int));
	p->direct = xcalloc(scap, 1);
	p->hstart = xcalloc(scap + 1, sizeof(int));
	p->h = xcalloc(hcap, sizeof(*p->h));
	for (i = 0; i < g->n; i++) {
		const char *s = g->f[i].params;

		p->off[i] = (int)p->nslots;
		while (s && *s) {
			if (p->nslots + 1 >= scap) {
				scap *= 2;
				p->direct = xrealloc(p->direct, scap);
				p->hstart = xrealloc(p->hstart,
						     (scap + 1) * sizeof(int));
			}
			p->hstart[p->nslots] = (int)p->nh;
			p->direct[p->nslots] = (signed char)pchar(*s);
			s++;
			while (*s == '>' || *s == '!') {
				int uncond = *s == '!', arg;
				const char *n = s + 1, *sl = strchr(n, '/');

				if (!sl)
					break;
				arg = atoi(sl + 1);
				if (p->nh == hcap) {
					hcap *= 2;
					p->h = xrealloc(p->h,
							hcap * sizeof(*p->h));
				}
				p->h[p->nh].def = target(g, g->f[i].file_id,
							 n, (size_t)(sl - n));
				p->h[p->nh].arg = arg;
				p->h[p->nh++].uncond = uncond;
				for (s = sl + 1; *s >= '0' && *s <= '9';)
					s++;
			}
			p->nslots++;
			p->np[i]++;
			while (*s == ' ')
				s++;
		}
	}
	p->hstart[p->nslots] = (int)p->nh;
	p->val = xmalloc(p->nslots + 1);
	memcpy(p->val, p->direct, p->nslots);
}

/*
 * A call through member M: what most of the functions assigned to it do
 * with argument ARG (more than half of them), else unknown.  A function
 * whose ARG is no pointer parameter is another struct's member of that
 * name (phy_driver's get_strings(phydev, data) beside ethtool_ops'
 * get_strings(dev, set, data)): it has no vote.
 */
static int member_val(const struct graph *g, const struct params *p, int m,
		      int arg)
{
	int n[PV_NONE + 1] = {0}, tot = 0, v, k;

	for (k = g->m_start[m]; k < g->m_start[m + 1]; k++) {
		int j = g->m_targets[k];

		v = arg < p->np[j] ? p->val[p->off[j] + arg] : PV_NONE;
		if (v == PV_NONE)
			continue;
		n[v]++;
		tot++;
	}
	for (v = 0; v < PV_NONE; v++)
		if (2 * n[v] > tot)
			return v;
	return PV_U;
}

/* What the definitions from DEF do with argument ARG. */
static int callee_val(const struct graph *g, const struct params *p, int def,
		      int arg)
{
	int j, v = -1, any_s = 0;

	if (def <= -2)
		return member_val(g, p, -2 - def, arg);
	if (def < 0)
		return PV_U;
	FOR_EACH_DEF(g, j, def)
	{
		int w = arg < p->np[j] ? p->val[p->off[j] + arg] : PV_NONE;

		if (w == PV_NONE)
			w = PV_U;
		any_s |= w == PV_S;
		v = v < 0 || v == w ? w : PV_U;
	}
	return any_s ? PV_S : v;
}

static int slot_val(const struct graph *g, const struct params *p, size_t k)
{
	int d = p->direct[k], s = d == PV_S, f = d == PV_F, u = d == PV_U, h;

	for (h = p->hstart[k]; h < p->hstart[k + 1]; h++) {
		int v = callee_val(g, p, p->h[h].def, p->h[h].arg);

		s |= v == PV_S;
		f |= v == PV_F && p->h[h].uncond;
		u |= v == PV_U || (v == PV_F && !p->h[h].uncond);
	}
	return s ? PV_S : f ? PV_F : u ? PV_U : PV_B;
}

static void solve(const struct graph *g, struct params *p)
{
	int round, changed = 1;
	size_t k;

	for (round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		for (k = 0; k < p->nslots; k++) {
			int v;

			if (p->direct[k] == PV_NONE)
				continue;
			v = slot_val(g, p, k);
			if (v != p->val[k]) {
				p->val[k] = (signed char)v;
				changed = 1;
			}
		}
	}
}

/* The site's walk's answer KEY: ["lifetime", "evidence", line]. */
static int read_answer(sqlite3 *db, const char *json, const char *key,
		       char **lt, char **ev, int *line)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT json_extract(?1, ?2 || '[0]'),"
		    " json_extract(?1, ?2 || '[1]'),"
		    " json_extract(?1, ?2 || '[2]')");
	int ok = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL) {
		const char *e = (const char *)sqlite3_column_text(st, 1);

		*lt = xstrdup((const char *)sqlite3_column_text(st, 0));
		*ev = e ? xstrdup(e) : NULL;
		*line = sqlite3_column_int(st, 2);
		ok = 1;
	}
	sqlite3_finalize(st);
	return ok;
}

/*
 * The walk named the first hand-over of a stored object ("passed to
 * mutex_init() at line 252"); when the summaries say another callee is
 * the one that keeps it, name that one and its first call's line.
 */
static void name_keeper(sqlite3_stmt *st, const char *json, const char *keeper,
			char **ev, int *line)
{
	static const char pre[] = "passed to ";
	size_t n = strlen(keeper);

	if (!st || !*ev || strncmp(*ev, pre, sizeof(pre) - 1) ||
	    (!strncmp(*ev + sizeof(pre) - 1, keeper, n) &&
	     (*ev)[sizeof(pre) - 1 + n] == '('))
		return;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, keeper, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*line = sqlite3_column_int(st, 0);
		free(*ev);
		*ev = xasprintf("passed to %s() at line %d", keeper, *line);
	}
	sqlite3_reset(st);
}

static int update_sites(sqlite3 *db, const struct graph *g,
			const struct params *p)
{
	sqlite3_stmt *sel = db_prepare(
		db, "SELECT s.id, s.file_id, s.held_calls, s.lifetime,"
		    " s.lifetime_evidence,"
		    " json_extract(j.value, '$[0]'),"
		    " json_extract(j.value, '$[1]'),"
		    " json_extract(j.value, '$[2]'),"
		    " json_extract(s.held_calls, '$.lex') "
		    "FROM sites s, json_each(s.held_calls, '$.esc') j "
		    /* NULL: the classifier did not run */
		    "WHERE json_valid(s.held_calls) AND s.lifetime IS NOT NULL"
		    " ORDER BY s.id, j.key");
	sqlite3_stmt *up = db_prepare(
		db, "UPDATE sites SET lifetime = ?2, lifetime_evidence = ?3,"
		    " lifetime_line = ?4 WHERE id = ?1");
	/* name_keeper(): the line of the first call of a name */
	sqlite3_stmt *kline = db_prepare(
		db, "SELECT json_extract(value, '$[1]')"
		    " FROM json_each(?1, '$.calls')"
		    " WHERE json_extract(value, '$[0]') = ?2 LIMIT 1");
	long long cur = -1;
	int all_b = 0, all_f = 0, nf = 0, nkeep = 0, lex = 0, step;
	int rc = (!sel || !up) ? -1 : 0;
	char *json = NULL, *lt = NULL, *ev = NULL, *one = NULL, *keep = NULL;
	int keep_s = 0; /* keep: the first callee that stores it (or may) */

	for (;;) {
		step = rc ? SQLITE_DONE : sqlite3_step(sel);
		if (step != SQLITE_ROW ||
		    sqlite3_column_int64(sel, 0) != cur) {
			/* the previous site is complete */
			char *key = all_b   ? xstrdup("$.ab")
				    : all_f ? xstrdup("$.af")
				    : nf == 1 && one
					    ? xasprintf("$.\"f:%s\"", one)
					    : xstrdup("$.lt");
			/*
			 * One callee frees it, others may keep it meanwhile
			 * (a request an async driver queues, then waited
			 * for): the walk's answer with that one freeing, if
			 * it frees on every path.  The token tier's answers
			 * follow no path, so not from them.
			 */
			int only_scoped = nf == 1 && one && nkeep;
			char *nlt = NULL, *nev = NULL;
			int nline = 0, got = 0;

			if (cur >= 0 && !rc) {
				got = read_answer(db, json, key, &nlt, &nev,
						  &nline);
				/*
				 * Only an end of ownership seen here (a free,
				 * a return) replaces it: "leaked" or "unknown"
				 * after a borrow is as likely a store that the
				 * walk could not see.
				 */
				if (got == 1 &&
				    ((strcmp(nlt, "scoped") &&
				      strcmp(nlt, "returned")) ||
				     (only_scoped &&
				      (lex || strcmp(nlt, "scoped"))))) {
					free(nlt);
					free(nev);
					nlt = nev = NULL;
					got = 0;
				}
				if (!got)
					got = read_answer(db, json, "$.lt",
							  &nlt, &nev, &nline);
				if (got == 1 && keep && !strcmp(nlt, "stored"))
					name_keeper(kline, json, keep, &nev,
						    &nline);
			}
			free(key);
			free(one);
			free(keep);
			one = keep = NULL;
			keep_s = 0;
			if (got == 1 &&
			    (strcmp(nlt, lt ? lt : "") ||
			     strcmp(nev ? nev : "", ev ? ev : ""))) {
				sqlite3_bind_int64(up, 1, cur);
				sqlite3_bind_text(up, 2, nlt, -1, SQLITE_STATIC);
				if (nev)
					sqlite3_bind_text(up, 3, nev, -1,
							  SQLITE_STATIC);
				else
					sqlite3_bind_null(up, 3);
				sqlite3_bind_int(up, 4, nline);
				rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
				sqlite3_reset(up);
			}
			free(nlt);
			free(nev);
			free(json);
			free(lt);
			free(ev);
			json = lt = ev = NULL;
			if (step != SQLITE_ROW)
				break;
			cur = sqlite3_column_int64(sel, 0);
			json = xstrdup((const char *)sqlite3_column_text(sel, 2));
			lt = sqlite3_column_text(sel, 3)
				     ? xstrdup((const char *)
						       sqlite3_column_text(sel, 3))
				     : NULL;
			ev = sqlite3_column_text(sel, 4)
				     ? xstrdup((const char *)
						       sqlite3_column_text(sel, 4))
				     : NULL;
			all_b = all_f = 1;
			nf = nkeep = 0;
			lex = sqlite3_column_int(sel, 8);
		}
		{
			const char *name =
				(const char *)sqlite3_column_text(sel, 5);
			int v = PV_U;

			if (name)
				v = callee_val(g, p,
					       target(g,
						      sqlite3_column_int64(sel,
									   1),
						      name, strlen(name)),
					       sqlite3_column_int(sel, 6));
			/*
			 * an address inside the object, handed to what the
			 * summaries cannot tell (a macro: INIT_WORK): borrowed
			 */
			if (v == PV_U && sqlite3_column_int(sel, 7))
				v = PV_B;
			all_b &= v == PV_B;
			all_f &= v == PV_F;
			/* one freeing callee, the others borrowing or not */
			if (v == PV_F && !nf++)
				one = xstrdup(name);
			else if (v == PV_F)
				nf = 2;
			else if (v != PV_B)
				nkeep++;
			if (name && (v == PV_S || v == PV_U) &&
			    (!keep || (v == PV_S && !keep_s))) {
				free(keep);
				keep = xstrdup(name);
				keep_s = v == PV_S;
			}
		}
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	sqlite3_finalize(kline);
	return rc;
}

size_t summaries_param_use(const struct params *p, size_t i, char *buf,
			   size_t size)
{
	static const char letter[] = "BFUS-";
	size_t n = (size_t)p->np[i] < size ? (size_t)p->np[i] : size - 1, k;

	for (k = 0; k < n; k++)
		buf[k] = letter[p->direct[p->off[i] + k] == PV_NONE
					? PV_NONE
					: p->val[p->off[i] + k]];
	buf[n] = 0;
	return n;
}

struct params *summaries_params_solve(const struct graph *g)
{
	struct params *p = xcalloc(1, sizeof(*p));

	parse(g, p);
	solve(g, p);
	return p;
}

int summaries_params_write(sqlite3 *db, const struct graph *g,
			   const struct params *p)
{
	return !p || update_sites(db, g, p) ? -1 : 0;
}

void summaries_params_free(struct params *p)
{
	if (!p)
		return;
	free(p->off);
	free(p->np);
	free(p->direct);
	free(p->val);
	free(p->hstart);
	free(p->h);
	free(p);
}

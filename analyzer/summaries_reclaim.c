// SPDX-License-Identifier: GPL-2.0
/*
 * Which reclaimable caches memory reclaim frees, over the whole tree's
 * call graph: a SLAB_RECLAIM_ACCOUNT cache is shrunk (caches.shrinker_scope 'reclaim path') when a
 * function that reclaim calls through a member (a reclaim hook such as
 * `.scan_objects = foo_scan` or `.free_inode`, or an `evict` member such
 * as `.evict_inode` or `.d_release`: file_facts reclaim_hook/evict_hook)
 * reaches, call by call, a function that passes the cache's variable to
 * kmem_cache_free() (file_facts cache_free).  A function the path
 * hands to a list_lru walk or to call_rcu() (functions.callbacks, the
 * `calls` names of data/lifetime.txt) is followed like a call: shrinkers
 * free in their isolate callback, and after a grace period.  The
 * evidence names the path.  This is what a reader checks ("does a shrinker free *its*
 * objects?"), where the file and directory answers of check_shrinker.c
 * only see a reclaimer and a free side by side.
 *
 * Calls through members are not followed (`ops->release()` reaches every
 * `.release` of the tree); the depth is bounded.
 */
#include "analyzer/summaries_int.h"
#include "db/db.h"

#include <stdlib.h>
#include <string.h>

/*
 * Calls followed below a shrinker's own function (.scan_objects,
 * .free_cached_objects, .free_inode...), and below an evict member: an
 * inode's teardown also runs the filesystem's write and transaction
 * code (nilfs_evict_inode -> nilfs_transaction_begin), whose objects
 * live for one operation, not until reclaim.  What eviction frees for
 * good sits close to it (fat_evict_inode -> fat_cache_inval_inode ->
 * __fat_cache_inval_inode -> fat_cache_free).  A shrinker's own path
 * is all reclaim, and may be long: a filesystem's walk of its inodes
 * and a grace period put 8 calls between xfs's .free_cached_objects
 * and the free of its inode items (xfs_icwalk -> xfs_icwalk_ag -> ...
 * -> call_rcu(xfs_inode_free_callback) -> xfs_inode_item_destroy).  On
 * 6.1, 8 rather than 6 shrinks that one cache and no other.
 */
#define MAX_REACH 8
#define MAX_EVICT_REACH 3

struct reach {
	int *from;  /* BFS parent, -1 for a root, -2 not reached */
	int *left;  /* calls it may still follow */
	const char **via; /* `call/name` of the parent's callbacks, or NULL */
	int *queue;
	size_t nq;
};

static void visit(struct reach *r, int j, int parent, int left,
		  const char *via)
{
	if (r->from[j] != -2)
		return;
	r->from[j] = parent;
	r->left[j] = left;
	r->via[j] = via;
	r->queue[r->nq++] = j;
}

/* The definitions a call of NAME from I reaches (VIA: a callback's pair). */
static void follow(const struct graph *g, struct reach *r, int i,
		   const char *name, size_t n, const char *via)
{
	int j, first = summaries_resolve(g, g->f[i].file_id, name, n);

	FOR_EACH_DEF(g, j, first)
		visit(r, j, i, r->left[i] - 1, via);
}

static int load_roots(sqlite3 *db, const struct graph *g, struct reach *r)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT file_id, name, kind = 'evict_hook' FROM file_facts"
		    " WHERE kind IN ('reclaim_hook', 'evict_hook')"
		    " ORDER BY kind = 'evict_hook'");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int j, first;

		if (!name)
			continue;
		first = summaries_resolve(g, sqlite3_column_int64(st, 0), name,
					  strlen(name));
		FOR_EACH_DEF(g, j, first)
			visit(r, j, -1,
			      sqlite3_column_int(st, 2) ? MAX_EVICT_REACH
							: MAX_REACH,
			      NULL);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Breadth first from the roots, as deep as each root allows: the named
 * calls, then the functions handed to a `calls` function, each one call
 * deeper (call_rcu(&p->rcu, free_fn) runs free_fn as if it were called).
 */
static void spread(const struct graph *g, struct reach *r)
{
	size_t head = 0;

	while (head < r->nq) {
		int i = r->queue[head++];
		const char *p = g->f[i].callees;

		while (p && *p && r->left[i] > 0) {
			size_t n = strcspn(p, " ");

			if (n && *p != '.')
				follow(g, r, i, p, n, NULL);
			p += n + (p[n] == ' ');
		}
		for (p = g->f[i].callbacks; p && *p && r->left[i] > 0;) {
			size_t n = strcspn(p, " "), c = strcspn(p, "/");

			if (c + 1 < n)
				follow(g, r, i, p + c + 1, n - c - 1, p);
			p += n + (p[n] == ' ');
		}
	}
}

/*
 * "foo_evict_inode (fs/x/inode.c) -> clear -> cache_free", a callback
 * as the call it was handed to: "foo_scan -> list_lru_walk(foo_isolate)".
 */
static char *path_of(const struct graph *g, const struct reach *r, int j)
{
	struct strbuf sb = STRBUF_INIT;
	int chain[MAX_REACH + 2], n = 0, k;

	for (k = j; k >= 0 && n < MAX_REACH + 2; k = r->from[k])
		chain[n++] = k;
	sb_addf(&sb, "%s (%s)", g->f[chain[n - 1]].name,
		g->f[chain[n - 1]].path);
	for (k = n - 2; k >= 0; k--) {
		const char *via = r->via[chain[k]];

		if (via)
			sb_addf(&sb, " -> %.*s(%s)", (int)strcspn(via, "/"),
				via, g->f[chain[k]].name);
		else
			sb_addf(&sb, " -> %s", g->f[chain[k]].name);
	}
	return sb_detach(&sb);
}

static int mark(sqlite3 *db, const struct graph *g, const struct reach *r)
{
	sqlite3_stmt *sel = db_prepare(
		db, "SELECT c.file_id, c.name, c.function, f.path, c.line"
		    " FROM file_facts c JOIN files f ON f.id = c.file_id"
		    " WHERE c.kind = 'cache_free' AND c.function IS NOT NULL"
		    " ORDER BY f.path, c.line");
	/*
	 * The cache of that variable in the freeing file or its directory,
	 * not shrunk by another answer.  Only caches that say they are reclaimable: the path shows that
	 * reclaim reaches a free of the cache, not that the objects live
	 * until reclaim (eviction also runs the filesystem's transactions),
	 * so it may answer "something frees these" for a reclaimable cache
	 * but is not enough to ask a cache to become reclaimable.
	 */
	sqlite3_stmt *up = db_prepare(
		db, "UPDATE caches SET has_shrinker = 1,"
		    " shrinker_scope = 'reclaim path', shrinker_evidence = ?3"
		    " WHERE has_shrinker = 0 AND reclaimable = 1 AND"
		    " variable = ?1 AND"
		    " (file_id = ?2 OR rtrim(path, replace(path, '/', '')) ="
		    "  rtrim(?4, replace(?4, '/', '')))");
	int rc = (!sel || !up) ? -1 : 0, step;

	while (!rc && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *var = (const char *)sqlite3_column_text(sel, 1);
		const char *fn = (const char *)sqlite3_column_text(sel, 2);
		const char *path = (const char *)sqlite3_column_text(sel, 3);
		long long fid = sqlite3_column_int64(sel, 0);
		int j = summaries_def_in(g, fid, fn, strlen(fn));
		char *chain, *ev;

		if (j < 0 || r->from[j] == -2)
			continue;
		chain = path_of(g, r, j);
		ev = xasprintf("reclaim calls %s, kmem_cache_free(%s) at %s:%d",
			       chain, var,
			       path, sqlite3_column_int(sel, 4));
		sqlite3_bind_text(up, 1, var, -1, SQLITE_STATIC);
		sqlite3_bind_int64(up, 2, fid);
		sqlite3_bind_text(up, 3, ev, -1, SQLITE_STATIC);
		sqlite3_bind_text(up, 4, path, -1, SQLITE_STATIC);
		rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(up);
		free(chain);
		free(ev);
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc;
}

int summaries_reclaim(sqlite3 *db, const struct graph *g)
{
	struct reach r;
	size_t i;
	int rc;

	/*
	 * A file or directory answer comes first, as in a whole scan (whose
	 * directory link runs before this step): caches this step marked
	 * before go back to the directory link, then the rest get a path.
	 */
	if (db_exec(db, "UPDATE caches SET has_shrinker = 0,"
			" shrinker_evidence = NULL, shrinker_scope = NULL"
			" WHERE shrinker_scope = 'reclaim path'") ||
	    shrinker_link(db))
		return -1;
	r.from = xmalloc((g->n + 1) * sizeof(int));
	r.left = xmalloc((g->n + 1) * sizeof(int));
	r.via = xmalloc((g->n + 1) * sizeof(*r.via));
	r.queue = xmalloc((g->n + 1) * sizeof(int));
	r.nq = 0;
	for (i = 0; i < g->n; i++)
		r.from[i] = -2;
	rc = load_roots(db, g, &r);
	if (!rc) {
		spread(g, &r);
		rc = mark(db, g, &r);
	}
	free(r.from);
	free(r.left);
	free(r.via);
	free(r.queue);
	return rc;
}

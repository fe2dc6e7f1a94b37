// SPDX-License-Identifier: GPL-2.0
/*
 * Link answers kept across a re-analysis (linkmemo.h).
 */
#include "analyzer/linkmemo.h"
#include "db/db.h"
#include "lib/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The answers the link steps write, by table: summaries.c (may sleep,
 * held across sleep), summaries_ctx.c (context from the callers),
 * summaries_param.c (parameter uses, lifetimes through callees),
 * summaries_reclaim.c and check_shrinker.c (shrinker links).  A link
 * step that writes another column must add it here.
 */
static const struct memo_table {
	const char *table, *order, *cols;
} memo_tables[] = {
	{ "functions", "rowid",
	  "may_sleep, sleep_via, atomic_context, atomic_via, param_use" },
	{ "sites", "id",
	  "held_across_sleep, sleep_evidence, context, context_evidence,"
	  " context_base, lifetime, lifetime_evidence, lifetime_line" },
	{ "caches", "rowid",
	  "has_shrinker, shrinker_evidence, shrinker_scope" },
};

#define NMEMO (sizeof(memo_tables) / sizeof(memo_tables[0]))

/*
 * The sites columns no link step reads: what the flags and the call are.
 * Every other column is in the digest, so that a column a link step
 * starts to read is in it before anyone remembers to say so.
 */
static const char *const unlinked_cols[] = {
	"path", "line", "col", "api", "api_origin", "flags", "flags_line",
	"flags_col", "flags_via", "flags_resolved", "gfp_mask",
	"migratetype", "size", "size_const", "macro", "in_disabled_branch",
	"gfp_param", "flag_effective", "flag_effective_reason", "confidence",
	"flags_used",
};

static const char *const site_cols[] = {
#define SITE_COL(name, type, decl, value, rule) #name,
#include "db/sites_cols.h"
};

#define NSITECOLS (sizeof(site_cols) / sizeof(site_cols[0]))

static unsigned char in_digest[NSITECOLS];
static pthread_once_t in_digest_once = PTHREAD_ONCE_INIT;

static void in_digest_init(void)
{
	size_t i, k;

	for (i = 0; i < NSITECOLS; i++) {
		in_digest[i] = 1;
		for (k = 0; k < sizeof(unlinked_cols) / sizeof(unlinked_cols[0]); k++)
			if (!strcmp(site_cols[i], unlinked_cols[k]))
				in_digest[i] = 0;
	}
}

/* FNV-1a over tagged values: NULL, "", and 0 all differ. */
static void d_bytes(uint64_t *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		*h ^= *p++;
		*h *= 0x100000001b3ULL;
	}
}

static void d_str(uint64_t *h, const char *s)
{
	d_bytes(h, s ? "s" : "n", 1);
	if (s)
		d_bytes(h, s, strlen(s) + 1);
}

static void d_int(uint64_t *h, long long v)
{
	d_bytes(h, "i", 1);
	d_bytes(h, &v, sizeof(v));
}

static void d_int_if(uint64_t *h, int known, long long v)
{
	if (known)
		d_int(h, v);
	else
		d_str(h, NULL);
}

static void digest_sites(uint64_t *h, const struct file_result *r)
{
	size_t i;

	pthread_once(&in_digest_once, in_digest_init);
	for (i = 0; i < r->lf.nsites; i++) {
		const struct site *s = &r->lf.sites[i].s;
		size_t k = 0;

		/* each written column in list order, unless it is unlinked */
#define SV_NONE k++;
#define SV_FILE k++;
#define SV_STR(field) if (in_digest[k++]) d_str(h, s->field);
#define SV_TEXT(expr) if (in_digest[k++]) d_str(h, (expr));
#define SV_INT(expr) if (in_digest[k++]) d_int(h, (expr));
#define SV_INT_IF(known, expr) if (in_digest[k++]) d_int_if(h, (known), (expr));
#define SITE_COL(name, type, decl, value, rule) value
#include "db/sites_cols.h"
		d_bytes(h, "|", 1);
	}
}

uint64_t linkmemo_digest(const struct file_result *r)
{
	const struct walk_emit *e = &r->emit;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	digest_sites(&h, r);
	for (i = 0; i < r->fns.n; i++) {
		const struct fn_summary *f = &r->fns.v[i];

		d_str(&h, f->name);
		d_int(&h, f->line);
		d_int(&h, f->is_static);
		d_str(&h, f->sleeps);
		d_str(&h, f->callees);
		d_str(&h, f->atomic_callees);
		d_str(&h, f->callbacks);
		d_str(&h, f->params);
		d_str(&h, f->gfp_sleeps);
		d_str(&h, f->gfp_calls);
		d_int(&h, f->drop_line);
		d_str(&h, f->unlocked_callees);
		d_int(&h, f->is_init);
	}
	d_str(&h, r->fns.inits);
	d_str(&h, r->fns.callbacks);
	for (i = 0; i < e->ncaches; i++) {
		const struct emit_cache *c = &e->caches[i];

		d_int(&h, c->line);
		d_int(&h, c->col);
		d_str(&h, c->variable);
		d_str(&h, c->name);
		d_str(&h, c->flags);
		d_str(&h, c->evidence);
		d_int(&h, c->reclaimable);
		d_int(&h, c->has_shrinker);
	}
	for (i = 0; i < e->nfacts; i++) {
		d_str(&h, e->facts[i].kind);
		d_str(&h, e->facts[i].name);
		d_str(&h, e->facts[i].function);
		d_int(&h, e->facts[i].line);
	}
	/*
	 * Learned allocators: the solve leaves their calls out of the graph.
	 * Learned sleepers are not read by any link step (they are what the
	 * next analysis of other files starts from) and differ between a
	 * whole scan and a re-analysis that knows more of them: not here.
	 */
	for (i = 0; i < e->nallocs; i++) {
		const struct emit_alloc *a = &e->allocs[i];

		d_str(&h, a->name);
		d_str(&h, a->kind);
		d_str(&h, a->family);
		d_str(&h, a->via);
		d_int(&h, a->gfp_arg);
		d_int(&h, a->size_arg);
		d_int(&h, a->line);
	}
	return h;
}

/* Run SQL (made with xasprintf) and free it. */
static int exec_free(sqlite3 *db, char *sql)
{
	int rc = db_exec(db, sql);

	free(sql);
	return rc;
}

/* Nothing to carry over: most files of a tree have no such rows. */
static int has_rows(const struct file_result *r)
{
	return r->fns.n || r->lf.nsites || r->emit.ncaches;
}

int linkmemo_save(sqlite3 *db, sqlite3_stmt *old, const char *path,
		  uint64_t digest, const struct file_result *r, int *kept)
{
	long long fid = 0;
	int same = 0, step;
	size_t t;

	*kept = 0;
	sqlite3_bind_text(old, 1, path, -1, SQLITE_STATIC);
	step = sqlite3_step(old);
	if (step == SQLITE_ROW) {
		fid = sqlite3_column_int64(old, 0);
		same = sqlite3_column_type(old, 1) != SQLITE_NULL &&
		       (uint64_t)sqlite3_column_int64(old, 1) == digest &&
		       sqlite3_column_int(old, 2) == 1;
	}
	sqlite3_reset(old);
	sqlite3_clear_bindings(old);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return -1;
	if (!same)
		return 0;
	*kept = 1;
	if (!has_rows(r))
		return 0;
	for (t = 0; t < NMEMO; t++) {
		const struct memo_table *m = &memo_tables[t];

		if (exec_free(db, xasprintf(
			     "CREATE TEMP TABLE IF NOT EXISTS memo_%s AS"
			     " SELECT 0 AS ord, %s FROM main.%s WHERE 0;"
			     "DELETE FROM temp.memo_%s;"
			     "INSERT INTO temp.memo_%s SELECT row_number()"
			     " OVER (ORDER BY %s), %s FROM main.%s"
			     " WHERE file_id = %lld",
			     m->table, m->cols, m->table, m->table, m->table,
			     m->order, m->cols, m->table, fid)))
			return -1;
	}
	return 0;
}

int linkmemo_restore(sqlite3 *db, long long fid,
		     const struct file_result *r)
{
	size_t t;

	if (!has_rows(r))
		return 0;
	for (t = 0; t < NMEMO; t++) {
		const struct memo_table *m = &memo_tables[t];
		char *q = xasprintf(
			"SELECT (SELECT count(*) FROM main.%s WHERE file_id ="
			" %lld) = (SELECT count(*) FROM temp.memo_%s)",
			m->table, fid, m->table);
		long long n = db_scalar(db, q, -1);

		free(q);
		if (n < 0)
			return -1;
		if (!n)
			return exec_free(db, xasprintf(
					"UPDATE files SET linked = 0 WHERE id ="
					" %lld", fid));
	}
	for (t = 0; t < NMEMO; t++) {
		const struct memo_table *m = &memo_tables[t];

		if (exec_free(db, xasprintf(
			     "UPDATE main.%s SET (%s) = (SELECT %s FROM"
			     " temp.memo_%s k WHERE k.ord = n.ord) FROM"
			     " (SELECT %s AS rid, row_number() OVER (ORDER BY"
			     " %s) AS ord FROM main.%s WHERE file_id = %lld) n"
			     " WHERE main.%s.%s = n.rid",
			     m->table, m->cols, m->cols, m->table, m->order,
			     m->order, m->table, fid, m->table, m->order)))
			return -1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer_check_file(): one file with the exact flags kbuild compiles it
 * with, for `gfpaudit check` (kbuild's CHECK=).  Same pipeline and same
 * delete-then-insert as the scan, in one transaction of its own.
 */
#include "analyzer/analyzer.h"
#include "analyzer/fileproc.h"
#include "db/db.h"
#include "lib/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* PATH relative to TREE (both made absolute), or NULL when outside. */
static char *relative_to(const char *tree, const char *path)
{
	char *t = realpath(tree, NULL), *p = realpath(path, NULL), *rel = NULL;
	size_t n;

	if (t && p) {
		n = strlen(t);
		if (!strncmp(p, t, n) && p[n] == '/')
			rel = xstrdup(p + n + 1);
	}
	free(t);
	free(p);
	return rel;
}

static void copy_site(struct site *d, const struct site *s)
{
	*d = *s;
	/* the site's own strings are the SV_STR columns */
#define SV_STR(f) d->f = s->f ? xstrdup(s->f) : NULL;
#define SITE_COL(name, type, decl, value, rule) value
#include "db/sites_cols.h"
}

static void fill_report(struct analyzer_file_report *out,
			const struct file_result *r)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->path = xstrdup(r->path);
	out->parse_mode = r->parse_mode;
	out->diagnostics = r->diagnostics;
	out->nflag_uses = r->lf.nuses;
	out->nsites = r->lf.nsites;
	out->sites = xcalloc(out->nsites ? out->nsites : 1, sizeof(struct site));
	for (i = 0; i < out->nsites; i++)
		copy_site(&out->sites[i], &r->lf.sites[i].s);
	out->nfindings = r->emit.nfindings;
	out->findings = xcalloc(out->nfindings ? out->nfindings : 1,
				sizeof(struct check_finding));
	for (i = 0; i < out->nfindings; i++) {
		const struct emit_finding *f = &r->emit.findings[i];

		out->findings[i].rule = xstrdup(f->rule);
		out->findings[i].severity = xstrdup(f->severity);
		out->findings[i].message = xstrdup(f->message);
		out->findings[i].line = f->line;
		out->findings[i].col = f->col;
	}
}

int analyzer_check_file(sqlite3 *db, long long run_id, const char *tree,
			const char *path, const char *const *argv, int argc,
			struct analyzer_file_report *out)
{
	struct scan_env env;
	struct file_result r;
	struct tu_parser tp;
	char *rel = relative_to(tree, path);
	int rc = ANALYZER_OK;

	memset(out, 0, sizeof(*out));
	if (!rel) {
		error_msg("%s: not a file inside the tree %s", path, tree);
		return ANALYZER_BAD_INPUT;
	}
	if (scan_env_init(&env, tree, NULL, DEPTH_FULL, NULL,
			  sqlite3_db_filename(db, "main"))) {
		error_msg("%s: not a kernel tree (no Makefile with VERSION)",
			  tree);
		scan_env_free(&env);
		free(rel);
		return ANALYZER_BAD_INPUT;
	}
	/*
	 * Learned wrappers from earlier runs make their callers sites.  The
	 * builtin rows are written only when missing or stale, so that the
	 * checkers of a make -j do not all queue for the write lock.
	 */
	if (db_scalar(db, "SELECT count(*) FROM allocators WHERE origin = "
			  "'builtin'", -1) ==
	    (long long)alloc_table_builtin_count(&env.allocs)) {
		if (alloc_table_load_learned(&env.allocs, db)) {
			scan_env_free(&env);
			free(rel);
			return ANALYZER_FAILED;
		}
	} else if (db_begin(db) || alloc_table_sync_db(&env.allocs, db) ||
		   db_commit(db)) {
		db_rollback(db);
		scan_env_free(&env);
		free(rel);
		return ANALYZER_FAILED;
	}
	scan_env_prefilter(&env);
	tu_parser_init(&tp);
	process_file(&env, &tp, NULL, rel, NULL,
		     argc ? argv : NULL, argc, &r);
	if (r.failed && !r.parsed) {
		error_msg("%s: %s", rel, r.error ? r.error : "cannot analyse");
		rc = ANALYZER_BAD_INPUT;
	}
	if (db_begin(db) || write_result(db, run_id, &r, &env.tracked) ||
	    analyzer_link(db) || db_commit(db)) {
		db_rollback(db);
		rc = ANALYZER_FAILED;
	} else if (rc == ANALYZER_OK) {
		fill_report(out, &r);
	}
	file_result_free(&r);
	tu_parser_free(&tp);
	scan_env_free(&env);
	free(rel);
	return rc;
}

void analyzer_file_report_free(struct analyzer_file_report *r)
{
	size_t i;

	for (i = 0; i < r->nsites; i++)
		site_release(&r->sites[i]);
	for (i = 0; i < r->nfindings; i++) {
		free(r->findings[i].rule);
		free(r->findings[i].severity);
		free(r->findings[i].message);
	}
	free(r->sites);
	free(r->findings);
	free(r->path);
	memset(r, 0, sizeof(*r));
}

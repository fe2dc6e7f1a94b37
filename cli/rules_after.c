// SPDX-License-Identifier: GPL-2.0
/*
 * Rules at the end of scan and merge: a user who scans and then reports
 * sees the findings of the tree as it is now, not those of the last
 * `rules --run` (or none).
 */
#include "cli/rules_after.h"
#include "cli/cli.h"
#include "db/db.h"
#include "lib/util.h"
#include "rules/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rules_after_add(struct rules_after *ra, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n) {
			ra->names = xrealloc(ra->names, (size_t)(ra->nnames + 1) *
							  sizeof(*ra->names));
			ra->names[ra->nnames++] = xstrndup(p, n);
		}
		p += n + (p[n] == ',');
	}
}

static char *dir_of(const struct rules_after *ra)
{
	return ra->dir ? xstrdup(ra->dir) : rule_default_dir();
}

int rules_after_check(const char *cmd, struct rules_after *ra)
{
	struct rules_run rr = { 0 };
	char *dir;
	const char *bad;
	int rc = 0;

	if (ra->off)
		return 0;
	dir = dir_of(ra);
	if (rules_run_load(&rr, dir, ra->names, ra->nnames, &bad))
		rc = bad ? usage_error(cmd, "--run-rules: no rule '%s' in %s",
				       bad, dir)
			 : EXIT_USAGE;
	rules_run_free(&rr);
	free(dir);
	return rc;
}

int rules_after_run(const char *cmd, const char *dbpath,
		    struct rules_after *ra)
{
	struct rules_run rr = { 0 };
	struct strbuf sb = STRBUF_INIT;
	const char *bad;
	char *dir;
	sqlite3 *db;
	int i, rc = EXIT_OK;

	if (ra->off)
		return EXIT_OK;
	dir = dir_of(ra);
	db = db_open(dbpath, DB_READWRITE);
	if (!db || rules_run_load(&rr, dir, ra->names, ra->nnames, &bad) ||
	    rules_run_db(&rr, db, ra->names, ra->nnames))
		rc = EXIT_INTERNAL;
	for (i = 0; i < rr.nout; i++) {
		const struct rules_outcome *o = &rr.out[i];

		if (o->skipped || o->n < 0)
			continue;
		sb_addf(&sb, "%s%s %d", sb.len ? ", " : "", o->rule->name,
			o->n);
	}
	if (rc == EXIT_OK)
		fprintf(stderr, "%s %s: rules: %d finding%s (%s)\n", progname,
			cmd, rr.findings, rr.findings == 1 ? "" : "s",
			sb.len ? sb.buf : "no rule applies");
	else
		error_msg("%s: %s: rule findings not updated", cmd, dbpath);
	sb_release(&sb);
	rules_run_free(&rr);
	if (db)
		db_close(db);
	free(dir);
	return rc;
}

void rules_after_free(struct rules_after *ra)
{
	while (ra->nnames)
		free(ra->names[--ra->nnames]);
	free(ra->names);
	ra->names = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Matching findings across two databases by a line-independent
 * fingerprint, for CI: scan the base, scan the head, report the head
 * against the base, fail only on what is new.
 */
#include "reports/baseline.h"
#include "db/db.h"
#include "lib/util.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/*
 * The fingerprint of every finding of schema S.  What a finding is about
 * comes from the row its rule selected: the site (site_id), else the
 * cache or the flag use at its position.
 */
#define FP_SELECT(S)                                                        \
	"SELECT f.id, f.rule, f.path, f.line, f.col, f.severity, "          \
	"f.message, f.rule || '|' || f.path || '|' || k.fn || '|' || "      \
	"k.what || '|' || row_number() OVER (PARTITION BY f.rule, f.path, " \
	"k.fn, k.what ORDER BY f.line, f.col, f.id) AS fp "                 \
	"FROM " S ".findings f JOIN (SELECT f2.id, "                        \
	"coalesce((SELECT function FROM " S ".sites WHERE id = f2.site_id), " \
	"(SELECT function FROM " S ".flag_uses u WHERE u.path = f2.path "   \
	"AND u.line = f2.line AND u.col = f2.col LIMIT 1), '') AS fn, "     \
	"coalesce((SELECT api || '(' || " NORM("coalesce(flags, '')")       \
	" || ')' FROM " S ".sites WHERE id = f2.site_id), "                 \
	"(SELECT 'cache ' || coalesce(name, variable, '') FROM " S          \
	".caches c WHERE c.path = f2.path AND c.line = f2.line LIMIT 1), "  \
	"(SELECT flag || ' ' || " NORM("coalesce(call, '')") " FROM " S     \
	".flag_uses u WHERE u.path = f2.path AND u.line = f2.line AND "     \
	"u.col = f2.col LIMIT 1), '') AS what FROM " S ".findings f2) k "   \
	"ON k.id = f.id"

/* Blanks do not make a finding another one. */
#define NORM(x)                                                             \
	"replace(replace(replace(replace(" x ", ' ', ''), char(9), ''), "   \
	"char(10), ''), char(13), '')"

int severity_rank(const char *s)
{
	if (!s)
		return 0;
	if (!strcmp(s, "note"))
		return 1;
	if (!strcmp(s, "warning"))
		return 2;
	if (!strcmp(s, "error"))
		return 3;
	return 0;
}

static int attach(sqlite3 *db, const char *base)
{
	sqlite3 *probe;
	sqlite3_stmt *st;
	int rc;

	if (access(base, R_OK)) {
		error_msg("report: --baseline %s: %s", base, strerror(errno));
		return -1;
	}
	/* db_open names the problem (not ours, too old). */
	probe = db_open(base, DB_READONLY);
	if (!probe)
		return -1;
	sqlite3_close(probe);
	st = db_prepare(db, "ATTACH DATABASE ?1 AS base");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	if (rc)
		error_msg("report: %s: %s", base, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

int baseline_load(sqlite3 *db, const char *base, struct baseline_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (db_exec(db, "DROP TABLE IF EXISTS temp.finding_state; "
			"DROP TABLE IF EXISTS temp.finding_absent; "
			"CREATE TEMP TABLE finding_state AS " FP_SELECT("main")
			"; CREATE TEMP TABLE finding_absent (rule, path, "
			"line, col, severity, message, fp); "
			"ALTER TABLE temp.finding_state ADD COLUMN state TEXT"))
		return -1;
	if (!base)
		return 0;
	if (attach(db, base))
		return -1;
	if (db_exec(db, "CREATE TEMP TABLE base_fp AS " FP_SELECT("base")
			"; UPDATE temp.finding_state SET state = coalesce(("
			"SELECT CASE WHEN b.severity = finding_state.severity "
			"AND b.message = finding_state.message THEN "
			"'unchanged' ELSE 'updated' END FROM temp.base_fp b "
			"WHERE b.fp = finding_state.fp), 'new'); "
			"INSERT INTO temp.finding_absent SELECT rule, path, "
			"line, col, severity, message, fp FROM temp.base_fp "
			"WHERE fp NOT IN (SELECT fp FROM temp.finding_state); "
			"DROP TABLE temp.base_fp; DETACH DATABASE base"))
		return -1;
	c->new_ = db_scalar(db, "SELECT count(*) FROM temp.finding_state "
			       "WHERE state = 'new'", 0);
	c->unchanged = db_scalar(db, "SELECT count(*) FROM "
				"temp.finding_state WHERE state = 'unchanged'", 0);
	c->updated = db_scalar(db, "SELECT count(*) FROM temp.finding_state "
				  "WHERE state = 'updated'", 0);
	c->absent = db_scalar(db, "SELECT count(*) FROM temp.finding_absent", 0);
	return 0;
}

long long baseline_failing(sqlite3 *db, int min, int have_base)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT count(*) FROM temp.finding_state WHERE (?2 = 0 OR "
		"state = 'new') AND CASE severity WHEN 'error' THEN 3 WHEN "
		"'note' THEN 1 ELSE 2 END >= ?1");
	long long n = -1;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 1, min);
	sqlite3_bind_int(st, 2, have_base);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

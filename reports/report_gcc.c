// SPDX-License-Identifier: GPL-2.0
/*
 * gcc-style diagnostics, one line per finding, the form editors (vim's
 * quickfix, emacs' compile mode) and CI annotators parse:
 *	path:line:col: warning: message [rule]
 * The level is the finding's severity (error, warning or note), as gcc
 * and sparse print them.  `gfpaudit check` prints these for its file.
 */
#include "reports/report.h"
#include "db/db.h"

static void add_one_line(struct strbuf *sb, const unsigned char *s)
{
	for (; s && *s; s++)
		sb_addc(sb, *s == '\n' || *s == '\r' ? ' ' : (char)*s);
}

#define GCC_COLUMNS                                                         \
	"SELECT f.path, f.line, f.col, CASE f.severity WHEN 'error' THEN "  \
	"'error' WHEN 'note' THEN 'note' ELSE 'warning' END, f.message, "   \
	"f.rule "

static int gcc_lines(sqlite3 *db, const char *sql, const char *path,
		     struct strbuf *out, long long *count)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	long long n = 0;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		add_one_line(out, sqlite3_column_text(st, 0));
		sb_addf(out, ":%lld:%lld: %s: ", sqlite3_column_int64(st, 1),
			sqlite3_column_int64(st, 2),
			(const char *)sqlite3_column_text(st, 3));
		add_one_line(out, sqlite3_column_text(st, 4));
		sb_adds(out, " [");
		add_one_line(out, sqlite3_column_text(st, 5));
		sb_adds(out, "]\n");
		n++;
	}
	if (rc != SQLITE_DONE)
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (count)
		*count = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

int report_gcc(sqlite3 *db, const char *path, struct strbuf *out,
	       long long *count)
{
	return gcc_lines(db, GCC_COLUMNS "FROM findings f WHERE ?1 IS NULL OR "
			 "path = ?1 ORDER BY path, line, col, rule",
			 path, out, count);
}

int report_gcc_baseline(sqlite3 *db, struct strbuf *out)
{
	return gcc_lines(db, GCC_COLUMNS "FROM findings f JOIN "
			 "temp.finding_state fs ON fs.id = f.id WHERE ?1 IS "
			 "NULL ORDER BY fs.state <> 'new', f.path, f.line, "
			 "f.col, f.rule", NULL, out, NULL);
}

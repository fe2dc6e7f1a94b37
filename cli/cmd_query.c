// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit query: read-only SQL over the findings database.
 *
 * The database is opened read-only and every statement must also satisfy
 * sqlite3_stmt_readonly(), so a write is refused before it runs.  JSON is
 * produced by SQLite's own json_object(), one call per row.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "db/queries.h"
#include "lib/util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_query[] =
	"usage: gfpaudit query [--db FILE] [--tsv|--json|--table] SQL|NAME\n"
	"       gfpaudit query --list\n"
	"\n"
	"Run read-only SQL (or the canned query NAME) on the findings\n"
	"database (default ./gfpaudit.db).  Write statements are refused.\n"
	"\n"
	"  --db FILE   the database\n"
	"  --tsv       a header line, then tab-separated rows\n"
	"  --json      a JSON array of objects (SQLite's json_object)\n"
	"  --table     aligned columns (default)\n"
	"  --list      list the canned queries\n";

enum out_format { FMT_TABLE, FMT_TSV, FMT_JSON };

struct rows {
	int ncol;
	char **cells; /* (nrows + 1) * ncol, row 0 = header */
	size_t nrows, alloc;
};

static void rows_add(struct rows *r, char **cells)
{
	if (r->nrows + 1 >= r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 64;
		r->cells = xrealloc(r->cells, r->alloc * (size_t)r->ncol *
						      sizeof(char *));
	}
	memcpy(r->cells + r->nrows * (size_t)r->ncol, cells,
	       (size_t)r->ncol * sizeof(char *));
	r->nrows++;
}

static char *cell_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

static void print_table(struct rows *r)
{
	size_t *w = xcalloc((size_t)r->ncol, sizeof(size_t));
	size_t i;
	int c;

	for (i = 0; i < r->nrows; i++)
		for (c = 0; c < r->ncol; c++) {
			size_t n = strlen(r->cells[i * (size_t)r->ncol + c]);

			if (n > w[c])
				w[c] = n;
		}
	for (i = 0; i < r->nrows; i++) {
		for (c = 0; c < r->ncol; c++) {
			const char *s = r->cells[i * (size_t)r->ncol + c];

			if (c == r->ncol - 1)
				printf("%s", s);
			else
				printf("%-*s  ", (int)w[c], s);
		}
		putchar('\n');
		if (i == 0) {
			for (c = 0; c < r->ncol; c++) {
				size_t k;

				for (k = 0; k < w[c]; k++)
					putchar('-');
				if (c < r->ncol - 1)
					printf("  ");
			}
			putchar('\n');
		}
	}
	free(w);
}

static void print_tsv_field(const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			fputs("\\t", stdout);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\\')
			fputs("\\\\", stdout);
		else
			putchar(*s);
	}
}

/*
 * JSON has no binary and no infinity: a BLOB becomes the string of its
 * hexadecimal digits (as SQLite's hex() writes them), an infinite REAL
 * null (SQLite already stores NaN as NULL).  docs/cli.md says so.
 */
static void bind_json_value(sqlite3_stmt *js, int i, sqlite3_stmt *st, int c)
{
	static const char digits[] = "0123456789ABCDEF";

	if (sqlite3_column_type(st, c) == SQLITE_BLOB) {
		const unsigned char *b = sqlite3_column_blob(st, c);
		int n = sqlite3_column_bytes(st, c), k;
		char *hex = xmalloc((size_t)n * 2 + 1);

		for (k = 0; k < n; k++) {
			hex[2 * k] = digits[b[k] >> 4];
			hex[2 * k + 1] = digits[b[k] & 15];
		}
		hex[2 * n] = '\0';
		sqlite3_bind_text(js, i, hex, -1, free);
	} else if (sqlite3_column_type(st, c) == SQLITE_FLOAT &&
		   !isfinite(sqlite3_column_double(st, c))) {
		sqlite3_bind_null(js, i);
	} else {
		sqlite3_bind_value(js, i, sqlite3_column_value(st, c));
	}
}

static int run_json(sqlite3 *db, sqlite3_stmt *st, int *first)
{
	int ncol = sqlite3_column_count(st), c, rc;
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *js;

	sb_adds(&sql, "SELECT json_object(");
	for (c = 0; c < ncol; c++)
		sb_addf(&sql, "%s?%d, ?%d", c ? ", " : "", 2 * c + 1,
			2 * c + 2);
	sb_adds(&sql, ")");
	js = db_prepare(db, sql.buf);
	sb_release(&sql);
	if (!js)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_reset(js);
		for (c = 0; c < ncol; c++) {
			sqlite3_bind_text(js, 2 * c + 1,
					  sqlite3_column_name(st, c), -1,
					  SQLITE_TRANSIENT);
			bind_json_value(js, 2 * c + 2, st, c);
		}
		if (sqlite3_step(js) != SQLITE_ROW)
			break;
		printf("%s  %s", *first ? "" : ",\n",
		       (const char *)sqlite3_column_text(js, 0));
		*first = 0;
	}
	sqlite3_finalize(js);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int run_rows(sqlite3_stmt *st, enum out_format fmt)
{
	struct rows r = { .ncol = sqlite3_column_count(st) };
	char **cells;
	size_t i;
	int c, rc;

	if (r.ncol == 0) {
		rc = sqlite3_step(st);
		return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
	}
	cells = xcalloc((size_t)r.ncol, sizeof(char *));
	for (c = 0; c < r.ncol; c++)
		cells[c] = xstrdup(sqlite3_column_name(st, c));
	rows_add(&r, cells);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (c = 0; c < r.ncol; c++)
			cells[c] = cell_text(st, c);
		if (fmt == FMT_TSV) {
			for (c = 0; c < r.ncol; c++) {
				if (c)
					putchar('\t');
				print_tsv_field(cells[c]);
				free(cells[c]);
			}
			putchar('\n');
			continue;
		}
		rows_add(&r, cells);
	}
	if (fmt == FMT_TSV) {
		/* Header first: print it, then the streamed rows follow. */
	}
	if (fmt == FMT_TABLE)
		print_table(&r);
	for (i = 0; i < r.nrows * (size_t)r.ncol; i++)
		free(r.cells[i]);
	free(r.cells);
	free(cells);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void print_tsv_header(sqlite3_stmt *st)
{
	int c, n = sqlite3_column_count(st);

	for (c = 0; c < n; c++) {
		if (c)
			putchar('\t');
		print_tsv_field(sqlite3_column_name(st, c));
	}
	if (n)
		putchar('\n');
}

static int run_sql(sqlite3 *db, const char *sql, enum out_format fmt)
{
	const char *tail = sql;
	int first = 1, ret = 0;

	if (fmt == FMT_JSON)
		printf("[\n");
	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		const char *next;

		if (sqlite3_prepare_v2(db, tail, -1, &st, &next) != SQLITE_OK) {
			error_msg("query: %s", sqlite3_errmsg(db));
			ret = EXIT_USAGE;
			break;
		}
		tail = next;
		if (!st)
			continue; /* whitespace or a comment */
		if (!sqlite3_stmt_readonly(st)) {
			error_msg("query: refusing a statement that writes: "
				  "%.60s", sqlite3_sql(st));
			sqlite3_finalize(st);
			ret = EXIT_USAGE;
			break;
		}
		if (fmt == FMT_TSV)
			print_tsv_header(st);
		if ((fmt == FMT_JSON ? run_json(db, st, &first) :
				       run_rows(st, fmt)) < 0) {
			error_msg("query: %s", sqlite3_errmsg(db));
			ret = EXIT_USAGE;
		}
		sqlite3_finalize(st);
		if (ret)
			break;
	}
	if (fmt == FMT_JSON)
		printf("%s]\n", first ? "" : "\n");
	return ret;
}

static void list_queries(void)
{
	const struct canned_query *q;

	for (q = canned_queries; q->name; q++)
		printf("%-18s %s\n", q->name, q->summary);
}

int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tsv", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "table", no_argument, NULL, 'T' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = "gfpaudit.db", *sql;
	const struct canned_query *q;
	enum out_format fmt = FMT_TABLE;
	sqlite3 *db;
	int c, ret;

	optind = 0; /* full getopt reset: cmd_query may run twice */
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 't':
			fmt = FMT_TSV;
			break;
		case 'j':
			fmt = FMT_JSON;
			break;
		case 'T':
			fmt = FMT_TABLE;
			break;
		case 'l':
			list_queries();
			return EXIT_OK;
		default:
			return bad_option("query", argv);
		}
	}
	if (optind != argc - 1)
		return usage_error("query", "expected one SQL statement or a "
				   "canned query name");
	sql = argv[optind];
	q = find_canned_query(sql);
	if (q)
		sql = q->sql;
	db = db_open(dbpath, DB_READONLY);
	if (!db)
		return EXIT_USAGE;
	/* Belt and braces: even a readonly-looking statement cannot write. */
	sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL);
	ret = run_sql(db, sql, fmt);
	db_close(db);
	return ret;
}

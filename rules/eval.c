// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluating a rule's match sections against the database.  The SQL is
 * built only from the parser's column whitelist (never from rule values);
 * the conditions are evaluated here, on each row, so a value in a rule is
 * never spliced into SQL.
 */
#include "rules/eval.h"
#include "db/db.h"

#include <stdlib.h>
#include <string.h>

/* Column values of one row, by whitelist index; NULL for SQL NULL. */
struct row {
	const char *const *cols;
	char **vals;
	int ncol;
};

static const char *row_get(const struct row *rw, const char *col)
{
	int i;

	for (i = 0; i < rw->ncol; i++)
		if (!strcmp(rw->cols[i], col))
			return rw->vals[i];
	return NULL;
}

/* Numeric when both sides parse as integers, else string comparison. */
static int compare(const char *a, const char *b)
{
	char *ea, *eb;
	long long x = strtoll(a, &ea, 10), y = strtoll(b, &eb, 10);

	if (*a && *b && !*ea && !*eb)
		return (x > y) - (x < y);
	return strcmp(a, b);
}

/*
 * Does a flags expression set WORD?  `gfp_mask & ~__GFP_DIRECT_RECLAIM`
 * mentions the flag only to clear it.
 */
static int sets_word(const char *v, const char *word)
{
	const char *p = v, *q;

	while ((p = str_find_word(p, word))) {
		for (q = p; q > v && (q[-1] == ' ' || q[-1] == '(' ||
				      q[-1] == '\t');
		     q--)
			;
		if (q == v || q[-1] != '~')
			return 1;
		p += strlen(word);
	}
	return 0;
}

static int cond_true(const struct rule_cond *c, const char *v)
{
	int i;

	switch (c->op) {
	case OP_IS_NULL:
		return v == NULL;
	case OP_NOT_NULL:
		return v != NULL;
	case OP_EQ:
		return v && compare(v, c->values[0]) == 0;
	case OP_NE:
		return !v || compare(v, c->values[0]) != 0;
	case OP_LT:
		return v && compare(v, c->values[0]) < 0;
	case OP_GT:
		return v && compare(v, c->values[0]) > 0;
	case OP_HAS_ANY:
	case OP_HAS_NONE:
		for (i = 0; v && i < c->nvalues; i++)
			if (sets_word(v, c->values[i]))
				return c->op == OP_HAS_ANY;
		return c->op == OP_HAS_NONE;
	}
	return 0;
}

static char *render(const char *t, const struct row *rw)
{
	struct strbuf sb = STRBUF_INIT;
	const char *o, *c;

	while ((o = strchr(t, '{')) && (c = strchr(o, '}'))) {
		char *f = xstrndup(o + 1, (size_t)(c - o - 1));
		const char *v = row_get(rw, f);

		sb_add(&sb, t, (size_t)(o - t));
		sb_adds(&sb, v ? v : "?");
		free(f);
		t = c + 1;
	}
	sb_adds(&sb, t);
	return sb_detach(&sb);
}

/* Does the match read COL: a condition's column, or a template's {COL}? */
static int reads_col(const struct rule_match *m, const char *col)
{
	char *field = xasprintf("{%s}", col);
	int i, yes = strstr(m->message, field) ||
		     (m->suggestion && strstr(m->suggestion, field));

	free(field);
	for (i = 0; i < m->nconds && !yes; i++)
		yes = !strcmp(m->conds[i].column, col);
	return yes;
}

static int eval_match(sqlite3 *db, const struct rule_match *m,
		      struct rule_hit **hits, int *n, int *alloc)
{
	const char *const *cols = rule_source_columns(m->source);
	struct strbuf sql = STRBUF_INIT;
	struct row rw = {.cols = cols};
	sqlite3_stmt *st;
	int i, rc;

	while (cols[rw.ncol])
		rw.ncol++;
	/*
	 * Every column in its place, but NULL for those the match does not
	 * read: a wide one (held_calls, the evidence texts) converted for
	 * each of 48,000 sites was most of a rule's time.  The first three
	 * are the hit's place (path, line, col).
	 */
	sb_adds(&sql, "SELECT id");
	for (i = 0; i < rw.ncol; i++)
		sb_addf(&sql, ", %s", i < 3 || reads_col(m, cols[i]) ? cols[i]
								    : "NULL");
	sb_addf(&sql, " FROM %s ORDER BY path, line, col",
		rule_source_name(m->source));
	st = db_prepare(db, sql.buf);
	sb_release(&sql);
	if (!st)
		return -1;
	rw.vals = xcalloc((size_t)rw.ncol, sizeof(char *));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rule_hit *h;
		int ok = 1;

		for (i = 0; i < rw.ncol; i++) {
			const unsigned char *t = sqlite3_column_text(st, i + 1);

			rw.vals[i] = t ? (char *)t : NULL;
		}
		for (i = 0; i < m->nconds && ok; i++)
			ok = cond_true(&m->conds[i],
				       row_get(&rw, m->conds[i].column));
		if (!ok)
			continue;
		if (*n == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 64;
			*hits = xrealloc(*hits,
					 (size_t)*alloc * sizeof(**hits));
		}
		h = &(*hits)[(*n)++];
		memset(h, 0, sizeof(*h));
		h->match = m;
		h->row_id = sqlite3_column_int64(st, 0);
		h->site_id = m->source == SRC_SITES ? h->row_id : 0;
		h->path = xstrdup(row_get(&rw, "path") ? row_get(&rw, "path")
						       : "");
		h->line = sqlite3_column_int(st, 2);
		h->col = sqlite3_column_int(st, 3);
		h->message = render(m->message, &rw);
		h->suggestion =
			m->suggestion ? render(m->suggestion, &rw) : NULL;
	}
	free(rw.vals);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct rule_hit *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line - y->line;
	return x->col - y->col;
}

int rule_eval(sqlite3 *db, const struct rule *r, struct rule_hit **hits)
{
	int n = 0, alloc = 0, i;

	*hits = NULL;
	for (i = 0; i < r->nmatches; i++)
		if (eval_match(db, &r->matches[i], hits, &n, &alloc)) {
			rule_hits_free(*hits, n);
			*hits = NULL;
			return -1;
		}
	if (n)
		qsort(*hits, (size_t)n, sizeof(**hits), cmp_hit);
	return n;
}

void rule_hits_free(struct rule_hit *hits, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(hits[i].path);
		free(hits[i].message);
		free(hits[i].suggestion);
	}
	free(hits);
}

int rule_store_findings(sqlite3 *db, const struct rule *r,
			const struct rule_hit *hits, int n, long long run_id)
{
	sqlite3_stmt *del, *ins;
	int i, rc = 0;

	if (db_begin(db))
		return -1;
	del = db_prepare(db, "DELETE FROM findings WHERE rule = ?");
	ins = db_prepare(
		db, "INSERT INTO findings(rule, severity, path, line, col, "
		    "message, suggestion, site_id, run_id) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
	if (!del || !ins) {
		rc = -1;
		goto out;
	}
	sqlite3_bind_text(del, 1, r->name, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE)
		rc = -1;
	for (i = 0; i < n && !rc; i++) {
		const struct rule_hit *h = &hits[i];

		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, r->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, h->match->severity, -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, h->path, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 4, h->line);
		sqlite3_bind_int(ins, 5, h->col);
		sqlite3_bind_text(ins, 6, h->message, -1, SQLITE_STATIC);
		if (h->suggestion)
			sqlite3_bind_text(ins, 7, h->suggestion, -1,
					  SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 7);
		if (h->site_id)
			sqlite3_bind_int64(ins, 8, h->site_id);
		else
			sqlite3_bind_null(ins, 8);
		if (run_id > 0)
			sqlite3_bind_int64(ins, 9, run_id);
		else
			sqlite3_bind_null(ins, 9);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = -1;
	}
out:
	if (rc && (del || ins))
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	if (rc) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db);
}

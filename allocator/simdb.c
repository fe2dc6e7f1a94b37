// SPDX-License-Identifier: GPL-2.0
/* Writing simulation results into the findings database. */
#include "allocator/simdb.h"
#include "db/db.h"
#include "lib/util.h"

static void bind_common(sqlite3_stmt *st, const char *experiment,
			const char *rule, const char *policy,
			const char *variant)
{
	sqlite3_bind_text(st, 1, experiment, -1, SQLITE_STATIC);
	if (rule)
		sqlite3_bind_text(st, 2, rule, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_text(st, 3, policy, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, variant, -1, SQLITE_STATIC);
}

int simdb_store(sqlite3 *db, const char *experiment, const char *rule,
		const char *variant, const struct sim_result *res)
{
	sqlite3_stmt *m = db_prepare(
		db,
		"INSERT INTO sim_results (experiment, rule, policy, variant,"
		" metric, value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
	sqlite3_stmt *c = db_prepare(
		db, "INSERT INTO sim_curves (experiment, rule, policy, variant,"
		    " step, free_order9) VALUES (?, ?, ?, ?, ?, ?)");
	char now[32];
	int i, rc = 0;

	if (!m || !c) {
		sqlite3_finalize(m);
		sqlite3_finalize(c);
		return -1;
	}
	iso8601_now(now);
	for (i = 0; i < res->nr_metrics && !rc; i++) {
		bind_common(m, experiment, rule, res->policy, variant);
		sqlite3_bind_text(m, 5, res->metrics[i].name, -1,
				  SQLITE_STATIC);
		sqlite3_bind_double(m, 6, res->metrics[i].value);
		sqlite3_bind_text(m, 7, now, -1, SQLITE_STATIC);
		if (sqlite3_step(m) != SQLITE_DONE) {
			error_msg("simulate: writing sim_results: %s",
				  sqlite3_errmsg(db));
			rc = -1;
		}
		sqlite3_reset(m);
	}
	for (i = 0; i < res->nr_curve && !rc; i++) {
		bind_common(c, experiment, rule, res->policy, variant);
		sqlite3_bind_int64(c, 5, (sqlite3_int64)res->curve_step[i]);
		sqlite3_bind_int64(c, 6, (sqlite3_int64)res->curve_free9[i]);
		if (sqlite3_step(c) != SQLITE_DONE) {
			error_msg("simulate: writing sim_curves: %s",
				  sqlite3_errmsg(db));
			rc = -1;
		}
		sqlite3_reset(c);
	}
	sqlite3_finalize(m);
	sqlite3_finalize(c);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/* Writing simulation results into the findings database. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "allocator/simdb.h"
#include "db/db.h"
#include "lib/util.h"

struct sim_stmts {
	sqlite3 *db;
	sqlite3_stmt *result, *curve, *run;
	char now[32];
};

static int stmts_prepare(sqlite3 *db, struct sim_stmts *s)
{
	s->db = db;
	s->result = db_prepare(
		db, "INSERT INTO sim_results (experiment, rule, policy,"
		    " variant, metric, value, created_at, set_id, runs, sd,"
		    " ci95) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	s->curve = db_prepare(
		db, "INSERT INTO sim_curves (experiment, rule, policy, variant,"
		    " step, free_order9, set_id) VALUES (?, ?, ?, ?, ?, ?, ?)");
	s->run = db_prepare(
		db, "INSERT INTO sim_runs (experiment, rule, policy, variant,"
		    " set_id, run, seed, metric, value)"
		    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
	iso8601_now(s->now);
	return s->result && s->curve && s->run ? 0 : -1;
}

static void stmts_finalize(struct sim_stmts *s)
{
	sqlite3_finalize(s->result);
	sqlite3_finalize(s->curve);
	sqlite3_finalize(s->run);
}

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

/* NULL for what is not known: no set, no spread of one run */
static void bind_opt(sqlite3_stmt *st, int i, double v, bool known)
{
	if (known && !isnan(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int step(struct sim_stmts *s, sqlite3_stmt *st, const char *table)
{
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;

	if (rc)
		error_msg("simulate: writing %s: %s", table,
			  sqlite3_errmsg(s->db));
	sqlite3_reset(st);
	return rc;
}

static int insert_result(struct sim_stmts *s, const char *experiment,
			 const char *rule, const char *policy,
			 const char *variant, const char *metric,
			 sqlite3_int64 set_id, const struct sample_summary *sum)
{
	bind_common(s->result, experiment, rule, policy, variant);
	sqlite3_bind_text(s->result, 5, metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(s->result, 6, sum->mean);
	sqlite3_bind_text(s->result, 7, s->now, -1, SQLITE_STATIC);
	bind_opt(s->result, 8, (double)set_id, set_id > 0);
	sqlite3_bind_int(s->result, 9, (int)sum->n);
	bind_opt(s->result, 10, sum->sd, sum->n > 1);
	bind_opt(s->result, 11, sum->ci, sum->n > 1);
	return step(s, s->result, "sim_results");
}

static int insert_curves(struct sim_stmts *s, const char *experiment,
			 const char *rule, const char *variant,
			 sqlite3_int64 set_id, const struct sim_result *res)
{
	int i, rc = 0;

	for (i = 0; i < res->nr_curve && !rc; i++) {
		bind_common(s->curve, experiment, rule, res->policy, variant);
		sqlite3_bind_int64(s->curve, 5,
				   (sqlite3_int64)res->curve_step[i]);
		sqlite3_bind_int64(s->curve, 6,
				   (sqlite3_int64)res->curve_free9[i]);
		bind_opt(s->curve, 7, (double)set_id, set_id > 0);
		rc = step(s, s->curve, "sim_curves");
	}
	return rc;
}

int simdb_store(sqlite3 *db, const char *experiment, const char *rule,
		const char *variant, const struct sim_result *res)
{
	struct sim_stmts s;
	int i, rc = 0;

	if (stmts_prepare(db, &s) < 0) {
		stmts_finalize(&s);
		return -1;
	}
	for (i = 0; i < res->nr_metrics && !rc; i++) {
		const struct sample_summary one = {
			.n = 1, .mean = res->metrics[i].value, .ci = NAN};

		rc = insert_result(&s, experiment, rule, res->policy, variant,
				   res->metrics[i].name, 0, &one);
	}
	if (!rc)
		rc = insert_curves(&s, experiment, rule, variant, 0, res);
	stmts_finalize(&s);
	return rc;
}

/*
 * The set's id: the time in microseconds, or one more than the largest
 * id when that is later.  Ids grow within a database, and the sets of two
 * databases do not collide when `gfpaudit merge` puts them together.
 */
static sqlite3_int64 next_set_id(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT coalesce(max(set_id), 0) + 1 FROM sim_runs");
	sqlite3_int64 id = -1, now;
	struct timespec ts;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (sqlite3_int64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	return id > 0 && now > id ? now : id;
}

/* Every run of (P, VAR) in sim_runs, then their summary in sim_results. */
static int store_one(struct sim_stmts *s, const char *experiment,
		     const char *rule, const char *variant,
		     sqlite3_int64 set_id, const struct sim_runs *r, int p,
		     int var, double *v)
{
	const struct sim_result *r0 = sim_runs_at(r, 0, p, var);
	int j, k, rc = 0;

	for (j = 0; j < r0->nr_metrics && !rc; j++) {
		const char *m = r0->metrics[j].name;
		struct sample_summary sum;

		sim_runs_values(r, p, var, m, v);
		for (k = 0; k < r->nr_runs && !rc; k++) {
			bind_common(s->run, experiment, rule, r0->policy,
				    variant);
			sqlite3_bind_int64(s->run, 5, set_id);
			sqlite3_bind_int(s->run, 6, k + 1);
			sqlite3_bind_int64(
				s->run, 7,
				(sqlite3_int64)(r->first_seed + (uint64_t)k));
			sqlite3_bind_text(s->run, 8, m, -1, SQLITE_STATIC);
			sqlite3_bind_double(s->run, 9, v[k]);
			rc = step(s, s->run, "sim_runs");
		}
		sample_summarize(v, (unsigned int)r->nr_runs, SIM_CONFIDENCE,
				 &sum);
		if (!rc)
			rc = insert_result(s, experiment, rule, r0->policy,
					   variant, m, set_id, &sum);
	}
	/* one run's curve: the first, whose seed is the one asked for */
	if (!rc)
		rc = insert_curves(s, experiment, rule, variant, set_id, r0);
	return rc;
}

int simdb_store_runs(sqlite3 *db, const char *experiment, const char *rule,
		     const char *const *variants, const struct sim_runs *r)
{
	double *v = xcalloc((size_t)r->nr_runs, sizeof(*v));
	sqlite3_int64 set_id = next_set_id(db);
	struct sim_stmts s;
	int p, var, rc = 0;

	if (set_id < 0 || stmts_prepare(db, &s) < 0) {
		if (set_id >= 0)
			stmts_finalize(&s);
		free(v);
		return -1;
	}
	for (p = 0; p < r->nr_policies && !rc; p++)
		for (var = 0; var < r->nr_variants && !rc; var++)
			rc = store_one(&s, experiment, rule, variants[var],
				       set_id, r, p, var, v);
	stmts_finalize(&s);
	free(v);
	return rc;
}

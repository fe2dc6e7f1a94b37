// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluate rules over a whole database and store their findings.  One
 * copy of this serves `rules --run` and the end of scan and merge.
 */
#include "rules/run.h"
#include "db/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int named(char **names, int nnames, const char *name)
{
	int i;

	if (!nnames)
		return 1;
	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

int rules_run_load(struct rules_run *rr, const char *dir, char **names,
		   int nnames, const char **bad)
{
	int i;

	*bad = NULL;
	if (rules_load_dir(dir, &rr->rules, &rr->nrules))
		return -1;
	for (i = 0; i < nnames; i++)
		if (!rules_find(rr->rules, rr->nrules, names[i])) {
			*bad = names[i];
			return -1;
		}
	return 0;
}

/* Kernel version and id of the database's last run, for the rules. */
static int last_run(sqlite3 *db, struct kversion *kv, long long *run_id)
{
	sqlite3_stmt *st = db_prepare(
		db,
		"SELECT id, kernel_version FROM runs ORDER BY id DESC LIMIT 1");
	int rc = -1;

	*run_id = 0;
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 1);

		*run_id = sqlite3_column_int64(st, 0);
		if (v && !kversion_parse((const char *)v, kv))
			rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static int run_one(struct rules_run *rr, sqlite3 *db, struct rule *r,
		   long long run_id)
{
	struct rules_outcome *o = &rr->out[rr->nout++];

	o->rule = r;
	o->n = rule_eval(db, r, &o->hits);
	if (o->n < 0) {
		o->hits = NULL;
		return -1;
	}
	if (rule_store_findings(db, r, o->hits, o->n, run_id)) {
		rule_hits_free(o->hits, o->n);
		o->hits = NULL;
		o->n = -1;
		return -1;
	}
	rr->findings += o->n;
	if (!rr->keep_hits) {
		rule_hits_free(o->hits, o->n);
		o->hits = NULL;
	}
	return 0;
}

int rules_run_db(struct rules_run *rr, sqlite3 *db, char **names,
		 int nnames)
{
	struct kversion kv;
	long long run_id;
	int i, have_kv, rc = 0;

	have_kv = last_run(db, &kv, &run_id) == 0;
	if (have_kv)
		snprintf(rr->kernel, sizeof(rr->kernel), "%s", kv.text);
	rr->out = xcalloc((size_t)rr->nrules + 1, sizeof(*rr->out));
	for (i = 0; i < rr->nrules && !rc; i++) {
		struct rule *r = &rr->rules[i];

		if (!r->nmatches || !named(names, nnames, r->name))
			continue;
		if (have_kv && !rule_applies(r, &kv)) {
			rr->out[rr->nout].rule = r;
			rr->out[rr->nout++].skipped = 1;
			continue;
		}
		rc = run_one(rr, db, r, run_id);
	}
	return rc;
}

void rules_run_free(struct rules_run *rr)
{
	int i;

	for (i = 0; i < rr->nout; i++)
		if (rr->out[i].hits)
			rule_hits_free(rr->out[i].hits, rr->out[i].n);
	free(rr->out);
	rules_free(rr->rules, rr->nrules);
	memset(rr, 0, sizeof(*rr));
}

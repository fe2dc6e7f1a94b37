/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_RULES_EVAL_H
#define GFPAUDIT_RULES_EVAL_H

#include "rules/rule.h"

#include <sqlite3.h>

/* One row a rule's match section selected. */
struct rule_hit {
	const struct rule_match *match;
	long long row_id;  /* id in the match's source table */
	long long site_id; /* sites.id when the source is sites, else 0 */
	char *path;
	int line, col;
	char *message;
	char *suggestion; /* NULL when the section has none */
};

/*
 * Run every match section of r over the database, in (path, line, col)
 * order.  Returns the number of hits in *hits (malloc'd), or -1 on a
 * database error (printed).
 */
int rule_eval(sqlite3 *db, const struct rule *r, struct rule_hit **hits);
void rule_hits_free(struct rule_hit *hits, int n);

/*
 * Write hits into `findings` for run_id (replacing the rule's earlier
 * findings) in one transaction.  Returns 0 or -1.
 */
int rule_store_findings(sqlite3 *db, const struct rule *r,
			const struct rule_hit *hits, int n, long long run_id);

#endif

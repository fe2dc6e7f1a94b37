/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_RULES_RUN_H
#define GFPAUDIT_RULES_RUN_H

#include "rules/eval.h"

/*
 * Evaluating a set of rules over a whole database and storing their
 * findings: what `rules --run` does, and what scan and merge do when they
 * finish so that the findings are current after any of them.  The stage
 * neither prints hits nor chooses exit codes; the command does.
 */

/* What one rule gave. */
struct rules_outcome {
	const struct rule *rule;
	int skipped;	       /* the database's kernel is not r->versions */
	int n;		       /* hits; -1 when the evaluation failed */
	struct rule_hit *hits; /* NULL unless kept (rules_run.keep_hits) */
};

struct rules_run {
	/* in */
	int keep_hits; /* keep each rule's hits for the caller to print */
	/* out */
	struct rule *rules;
	int nrules;
	struct rules_outcome *out; /* one per rule that has match sections */
	int nout;
	int findings; /* sum of n over out[] */
	char kernel[96]; /* the kernel version rules were selected by, or "" */
};

/*
 * Load DIR's rules; NAMES (NULL-ended list of nnames, or nnames 0 for
 * all) must each name one, or *bad is set to the first that does not and
 * -1 returned.  Returns -1 as well when a rule file is malformed (the
 * loader names it).
 */
int rules_run_load(struct rules_run *rr, const char *dir, char **names,
		   int nnames, const char **bad);

/*
 * Evaluate the loaded rules NAMES (or all) that apply to the kernel of
 * the database's last run and replace their findings.  Returns 0, or -1
 * on a database error (printed).
 */
int rules_run_db(struct rules_run *rr, sqlite3 *db, char **names,
		 int nnames);

void rules_run_free(struct rules_run *rr);

#endif

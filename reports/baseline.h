/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_REPORTS_BASELINE_H
#define GFPAUDIT_REPORTS_BASELINE_H

#include <sqlite3.h>

/*
 * Findings across runs (report --baseline OLD.db).  A finding's
 * fingerprint does not contain its line: rule, path, enclosing function,
 * what it is about (the allocation call's API and flags with blanks
 * removed, the cache's name, or the flag use's flag and call text) and
 * its occurrence among the findings with the same key, in line order.  A
 * line inserted above a finding leaves it `unchanged`.
 *
 * baseline_load() fills temp.finding_state (id, fp, state) for every
 * finding of DB, state being new, unchanged (same fingerprint, severity
 * and message), updated (same fingerprint, other severity or message) or
 * NULL without a baseline; and temp.finding_absent with the baseline's
 * findings that DB no longer has.  The reports read those two tables.
 */
struct baseline_counts {
	long long new_, unchanged, updated, absent;
};

/*
 * BASE may be NULL (fingerprints only).  Returns 0, or -1 after printing
 * "report: BASE: problem" (not a gfpaudit database, unreadable).
 */
int baseline_load(sqlite3 *db, const char *base, struct baseline_counts *c);

/* Severity rank: note 1, warning 2, error 3; 0 for an unknown name. */
int severity_rank(const char *s);

/*
 * Findings at or above severity rank MIN that fail a CI run: the new ones
 * with a baseline, all of them without.  -1 on a database error.
 */
long long baseline_failing(sqlite3 *db, int min, int have_base);

#endif

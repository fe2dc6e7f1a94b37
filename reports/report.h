/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_REPORT_H
#define GFPAUDIT_REPORT_H

#include <sqlite3.h>
#include <stddef.h>

#include "lib/util.h"

/*
 * The report model: what `gfpaudit report` shows, loaded once from the
 * findings database (reports/report_data.c) and rendered by one file per
 * format (report_md.c, report_html.c).  SARIF and gcc output are built
 * straight from the findings table (report_sarif.c, report_gcc.c).
 */

/* A table of strings as the database returned it ("" for NULL). */
struct rtable {
	int ncol;
	char **head;	/* ncol column names */
	char **cells;	/* nrows * ncol */
	size_t nrows, alloc;
	unsigned numeric; /* bit i: column i holds numbers (right-aligned) */
};

static inline const char *rt_cell(const struct rtable *t, size_t row, int col)
{
	return t->cells[row * (size_t)t->ncol + (size_t)col];
}

/* One bar of a bar chart. */
struct bar {
	char *label;
	double value;
};

struct bars {
	struct bar *v;
	size_t n;
};

/* One line of a line chart: y over x. */
struct series {
	char *name;
	long long *x;
	double *y;
	size_t n, alloc;
};

/* The fragmentation curves of one (experiment, rule): a line per policy. */
struct chart {
	char *title;
	struct series *s;
	size_t n;
};

struct report {
	struct rtable summary;	  /* key, value */
	struct rtable parse_modes; /* parse mode, files */
	struct rtable by_subsys;  /* subsystem, flag, uses, files */
	struct bars subsys_bars;  /* flag uses per subsystem (top ones) */
	char *subsys_source;	  /* where the subsystems came from */
	struct rtable lifetime;	  /* lifetime x context counts */
	struct bars lifetime_bars;
	struct rtable context;
	struct rtable rules;	  /* findings per rule */
	struct rtable findings;
	struct rtable patches;
	struct rtable validations;
	struct rtable impact;	  /* a rule's as-is vs patched metrics */
	struct rtable policies;	  /* antifrag/trace metrics per policy */
	struct chart *charts;
	size_t ncharts;
	struct rtable curve_summary; /* per curve: start, min, end */
	const char *baseline;	     /* report_opts.baseline */
};

struct report_opts {
	const char *maintainers; /* MAINTAINERS path; NULL: TREE/MAINTAINERS */
	int top_subsystems;	 /* bars in the subsystem chart */
	/* against a baseline: the counts line, and findings in its order */
	const char *baseline;	 /* "3 new, 100 unchanged, ..."; NULL: none */
};

/* Load everything; 0, or -1 after printing the database error. */
int report_load(sqlite3 *db, const struct report_opts *o, struct report *r);
void report_free(struct report *r);

/* Formats.  Each appends to OUT; 0 on success, -1 on a database error. */
void report_md(const struct report *r, struct strbuf *out);
void report_html(const struct report *r, struct strbuf *out);
int report_sarif(sqlite3 *db, struct strbuf *out);
/*
 * gcc-style lines "path:line:col: warning: message [rule]" for the
 * findings of PATH (all findings when PATH is NULL); *count gets their
 * number when non-NULL.
 */
int report_gcc(sqlite3 *db, const char *path, struct strbuf *out,
	       long long *count);
/* The same, new findings first (temp.finding_state, reports/baseline.c). */
int report_gcc_baseline(sqlite3 *db, struct strbuf *out);

/*
 * The rule files (data/NAME.rule), for their descriptions: registers
 * rule_doc(name, 'description'|'why'|'replace:FLAG') on DB (the last: the
 * token a replace rule puts for FLAG), NULL for an unknown rule.
 * Without a rules directory every rule is unknown; never fails.
 */
struct rule;
struct report_rules {
	struct rule *v;
	int n;
};
void report_rules_open(sqlite3 *db, struct report_rules *rr);
void report_rules_close(sqlite3 *db, struct report_rules *rr);

/* Percent-encode a relative path or absolute directory for a URI. */
void sb_add_uri_path(struct strbuf *sb, const char *s);

/* Load the rows of SQL (no parameters) into T. */
int rtable_load(sqlite3 *db, struct rtable *t, const char *sql);
void rtable_free(struct rtable *t);

#endif

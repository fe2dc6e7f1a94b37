// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the report model from the findings database.  Every number in a
 * report comes from one of the SQL statements below, so that what a report
 * says can be checked with `gfpaudit query` and the same SQL.
 */
#include "reports/report.h"
#include "reports/maintainers.h"
#include "db/db.h"
#include "rules/rule.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void rtable_grow(struct rtable *t)
{
	if (t->nrows < t->alloc)
		return;
	t->alloc = t->alloc ? 2 * t->alloc : 16;
	t->cells = xrealloc(t->cells, t->alloc * (size_t)t->ncol *
					      sizeof(char *));
}

static void rtable_init(struct rtable *t, int ncol, const char *const *head)
{
	int c;

	memset(t, 0, sizeof(*t));
	t->ncol = ncol;
	t->head = xcalloc((size_t)ncol, sizeof(char *));
	for (c = 0; c < ncol; c++)
		t->head[c] = xstrdup(head[c]);
}

static void rtable_add(struct rtable *t, const char *const *cells)
{
	int c;

	rtable_grow(t);
	for (c = 0; c < t->ncol; c++)
		t->cells[t->nrows * (size_t)t->ncol + (size_t)c] =
			xstrdup(cells[c] ? cells[c] : "");
	t->nrows++;
}

/* Right-align a column when all its non-empty cells are numbers. */
static int column_is_numeric(const struct rtable *t, int c)
{
	size_t i, seen = 0;

	for (i = 0; i < t->nrows; i++) {
		const char *v = rt_cell(t, i, c);
		char *end;

		if (!*v)
			continue;
		strtod(v, &end);
		if (*end)
			return 0;
		seen++;
	}
	return seen > 0;
}

int rtable_load(sqlite3 *db, struct rtable *t, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int c, rc;

	memset(t, 0, sizeof(*t));
	if (!st)
		return -1;
	t->ncol = sqlite3_column_count(st);
	t->head = xcalloc((size_t)t->ncol, sizeof(char *));
	for (c = 0; c < t->ncol; c++)
		t->head[c] = xstrdup(sqlite3_column_name(st, c));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rtable_grow(t);
		for (c = 0; c < t->ncol; c++) {
			const unsigned char *v = sqlite3_column_text(st, c);

			t->cells[t->nrows * (size_t)t->ncol + (size_t)c] =
				xstrdup(v ? (const char *)v : "");
		}
		t->nrows++;
	}
	if (rc != SQLITE_DONE)
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
	sqlite3_finalize(st);
	for (c = 0; c < t->ncol && c < 32; c++)
		if (column_is_numeric(t, c))
			t->numeric |= 1u << c;
	return rc == SQLITE_DONE ? 0 : -1;
}

void rtable_free(struct rtable *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->nrows * (size_t)t->ncol; i++)
		free(t->cells[i]);
	for (c = 0; c < t->ncol; c++)
		free(t->head[c]);
	free(t->cells);
	free(t->head);
	memset(t, 0, sizeof(*t));
}

/* gfp_num(x): integers as such, other reals with three decimals. */
static void sql_num(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	double v = sqlite3_value_double(argv[0]);
	char buf[64];

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
	else
		snprintf(buf, sizeof(buf), "%.3f", v);
	sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/* subsystem(path): the MAINTAINERS section, or a directory without one. */
static void sql_subsystem(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct maintainers *m = sqlite3_user_data(ctx);
	const char *path = (const char *)sqlite3_value_text(argv[0]);
	char buf[512];

	(void)argc;
	if (!path) {
		sqlite3_result_null(ctx);
		return;
	}
	sqlite3_result_text(ctx, report_subsystem(m, path, buf, sizeof(buf)),
			    -1, SQLITE_TRANSIENT);
}

static char *last_tree(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT tree FROM runs ORDER BY id DESC LIMIT 1");
	char *tree = NULL;

	if (st && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		tree = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return tree;
}

/* Parse MAINTAINERS; sets r->subsys_source to say what was used. */
static struct maintainers *load_maintainers(sqlite3 *db,
					    const struct report_opts *o,
					    struct report *r)
{
	char *tree = last_tree(db), *path, *buf = NULL;
	struct maintainers *m = NULL;
	size_t len;

	path = o->maintainers ? xstrdup(o->maintainers) :
	       tree	      ? xasprintf("%s/MAINTAINERS", tree) :
				NULL;
	if (path && read_whole_file(path, &buf, &len) == 0) {
		m = maintainers_parse(buf, len);
		r->subsys_source = xasprintf("%s (%zu sections)", path,
					     maintainers_count(m));
	} else if (path) {
		r->subsys_source = xasprintf(
			"directories: %s could not be read (%s)", path,
			strerror(errno));
		if (o->maintainers)
			warn_msg("%s: %s; grouping by directory", path,
				 strerror(errno));
	} else {
		r->subsys_source = xstrdup("directories: no run recorded");
	}
	free(buf);
	free(path);
	free(tree);
	return m;
}

static const char sql_summary[] =
	"WITH last AS (SELECT * FROM runs ORDER BY id DESC LIMIT 1) "
	"SELECT 'tree' AS item, (SELECT tree FROM last) AS value "
	"UNION ALL SELECT 'kernel version', (SELECT kernel_version FROM last) "
	"UNION ALL SELECT 'git HEAD', (SELECT git_head FROM last) "
	"UNION ALL SELECT 'arch', (SELECT arch FROM last) "
	"UNION ALL SELECT 'runs', (SELECT count(*) || ' (' || "
	"  group_concat(command || ' ' || n, ', ') || ')' FROM "
	"  (SELECT command, count(*) AS n FROM runs GROUP BY command)) "
	"UNION ALL SELECT 'shards merged', (SELECT group_concat(shard, ' ') "
	"  FROM runs WHERE shard IS NOT NULL) "
	"UNION ALL SELECT 'last run', (SELECT command || ', ' || status || "
	"  ', ' || started_at || ' .. ' || coalesce(finished_at, '?') "
	"  FROM last) "
	"UNION ALL SELECT 'files', (SELECT count(*) FROM files) "
	"UNION ALL SELECT 'files that failed to parse', (SELECT count(*) "
	"  FROM files WHERE parse_mode = 'failed' OR error IS NOT NULL) "
	"UNION ALL SELECT 'flag uses', (SELECT count(*) FROM flag_uses) "
	"UNION ALL SELECT 'allocation sites', (SELECT count(*) FROM sites) "
	"UNION ALL SELECT 'slab caches', (SELECT count(*) FROM caches) "
	"UNION ALL SELECT 'findings', (SELECT count(*) FROM findings) "
	"UNION ALL SELECT 'patches', (SELECT count(*) FROM patches) "
	"UNION ALL SELECT 'simulation metrics', (SELECT count(*) "
	"  FROM sim_results)";

static const char sql_parse_modes[] =
	"SELECT parse_mode AS \"parse mode\", count(*) AS files, "
	"sum(diagnostics) AS diagnostics FROM files "
	"GROUP BY parse_mode ORDER BY 2 DESC, 1";

/* Subsystems of the files with flag uses, each looked up once. */
#define WITH_SUBSYS                                                         \
	"WITH p AS MATERIALIZED (SELECT path, subsystem(path) AS subsystem " \
	"FROM (SELECT DISTINCT path FROM flag_uses)) "

static const char sql_by_subsys[] = WITH_SUBSYS
	"SELECT p.subsystem, f.flag, count(*) AS uses, "
	"count(DISTINCT f.path) AS files, "
	"count(*) FILTER (WHERE f.context = 'call_arg') AS \"call args\", "
	"count(*) FILTER (WHERE f.in_disabled_branch) AS \"disabled branch\" "
	"FROM flag_uses f JOIN p USING (path) "
	"GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2";

static const char sql_subsys_bars[] = WITH_SUBSYS
	"SELECT p.subsystem, count(*) FROM flag_uses f JOIN p USING (path) "
	"GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?";

static const char sql_lifetime[] =
	"SELECT coalesce(lifetime, '(unclassified)') AS lifetime, "
	"count(*) AS sites, "
	"count(*) FILTER (WHERE context = 'atomic') AS atomic, "
	"count(*) FILTER (WHERE context = 'process') AS process, "
	"count(*) FILTER (WHERE context IS NULL OR context = 'unknown') "
	"  AS \"context unknown\", "
	"count(*) FILTER (WHERE held_across_sleep = 1) "
	"  AS \"held across sleep\", "
	"count(*) FILTER (WHERE migratetype = 'reclaimable') "
	"  AS reclaimable "
	"FROM sites GROUP BY 1 ORDER BY 2 DESC, 1";

static const char sql_context[] =
	"SELECT coalesce(context, '(unclassified)') AS context, "
	"count(*) AS sites, "
	"count(*) FILTER (WHERE migratetype = 'reclaimable') AS reclaimable, "
	"count(*) FILTER (WHERE gfp_param IS NOT NULL) "
	"  AS \"hard-codes flags despite gfp_t param\", "
	"count(*) FILTER (WHERE flag_effective = 0) AS \"flag ignored\" "
	"FROM sites GROUP BY 1 ORDER BY 2 DESC, 1";

static const char sql_rules[] =
	"SELECT rule, severity, count(*) AS findings, "
	"count(DISTINCT path) AS files, "
	"coalesce(rule_doc(rule, 'description'), '') AS description "
	"FROM findings GROUP BY 1, 2 ORDER BY 3 DESC, 1";

static const char sql_findings[] =
	"SELECT path || ':' || line || ':' || col AS location, rule, "
	"severity, message, coalesce(suggestion, '') AS suggestion "
	"FROM findings ORDER BY path, line, col, rule";

/* Against a baseline (reports/baseline.c): new ones first, then absent. */
static const char sql_findings_baseline[] =
	"SELECT * FROM (SELECT fs.state AS baseline, f.path || ':' || "
	"f.line || ':' || f.col AS location, f.rule, f.severity, f.message, "
	"coalesce(f.suggestion, '') AS suggestion FROM findings f "
	"JOIN temp.finding_state fs ON fs.id = f.id "
	"UNION ALL SELECT 'absent', path || ':' || line || ':' || col, rule, "
	"severity, message, '' FROM temp.finding_absent) "
	"ORDER BY baseline <> 'new', baseline = 'absent', location, rule";

static const char sql_patches[] =
	"SELECT p.series, p.number AS number, p.file, p.subject, "
	"p.files_changed AS files, "
	"'+' || p.insertions || ' -' || p.deletions AS lines, "
	"coalesce((SELECT group_concat(check_name || ': ' || result, ', ') "
	"  FROM validations v WHERE v.series = p.series AND "
	"  (v.patch = p.file OR substr(v.patch, -length(p.file) - 1) = "
	"   '/' || p.file)), '') AS validation "
	"FROM patches p ORDER BY p.series, p.number";

static const char sql_validations[] =
	"SELECT series, coalesce(patch, '(series)') AS patch, "
	"coalesce(path, '') AS file, check_name AS \"check\", result, "
	"CASE WHEN length(detail) > 300 THEN substr(detail, 1, 300) || '...' "
	"ELSE coalesce(detail, '') END AS detail "
	"FROM validations ORDER BY series, patch IS NOT NULL, patch, id";

/* The newest value of each metric. */
#define NEWEST_METRICS                                                     \
	"WITH v AS (SELECT * FROM sim_results WHERE id IN (SELECT max(id) " \
	"FROM sim_results GROUP BY experiment, rule, policy, variant, "     \
	"metric)) "

/* A rule's impact: as-is next to patched, and the change. */
static const char sql_impact[] = NEWEST_METRICS
	"SELECT experiment, coalesce(rule, '') AS rule, policy, metric, "
	"gfp_num(max(value) FILTER (WHERE variant = 'as-is')) AS \"as-is\", "
	"gfp_num(max(value) FILTER (WHERE variant = 'patched')) AS patched, "
	"gfp_num(max(value) FILTER (WHERE variant = 'patched') - "
	"  max(value) FILTER (WHERE variant = 'as-is')) AS change "
	"FROM v WHERE variant IN ('as-is', 'patched') "
	"GROUP BY experiment, rule, policy, metric "
	"ORDER BY experiment, rule, policy, metric";

/* Experiments without variants (antifrag, trace): one column per policy. */
static const char sql_policies[] = NEWEST_METRICS
	"SELECT experiment, metric, "
	"gfp_num(max(value) FILTER (WHERE policy = 'nogroup')) AS nogroup, "
	"gfp_num(max(value) FILTER (WHERE policy = '2.6.24')) AS \"2.6.24\", "
	"gfp_num(max(value) FILTER (WHERE policy = '6.1')) AS \"6.1\" "
	"FROM v WHERE variant NOT IN ('as-is', 'patched') "
	"GROUP BY experiment, metric ORDER BY experiment, metric";

static const char sql_curves[] =
	"SELECT experiment, coalesce(rule, ''), policy, variant, step, "
	"free_order9 FROM sim_curves WHERE id IN (SELECT max(id) FROM "
	"sim_curves GROUP BY experiment, rule, policy, variant, step) "
	"ORDER BY experiment, rule, policy, variant, step";

static int load_bars(sqlite3 *db, const char *sql, int limit, struct bars *b)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	size_t alloc = 0;
	int rc;

	if (!st)
		return -1;
	if (limit)
		sqlite3_bind_int(st, 1, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *l = sqlite3_column_text(st, 0);

		if (b->n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			b->v = xrealloc(b->v, alloc * sizeof(*b->v));
		}
		b->v[b->n].label = xstrdup(l ? (const char *)l : "");
		b->v[b->n].value = sqlite3_column_double(st, 1);
		b->n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void series_add(struct series *s, long long x, double y)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		s->x = xrealloc(s->x, s->alloc * sizeof(*s->x));
		s->y = xrealloc(s->y, s->alloc * sizeof(*s->y));
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
}

static const char *col_text(sqlite3_stmt *st, int c)
{
	const unsigned char *t = sqlite3_column_text(st, c);

	return t ? (const char *)t : "";
}

/*
 * Group the curve rows into one chart per (experiment, rule), one line per
 * policy and variant: the antifrag chart compares the policies, a rule's
 * impact chart shows as-is against patched.
 */
static int load_charts(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = db_prepare(db, sql_curves);
	struct chart *ch = NULL;
	struct series *s = NULL;
	char *key = NULL, *name;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *rule = col_text(st, 1), *var = col_text(st, 3);
		char *k = xasprintf("%s%s%s", col_text(st, 0),
				    *rule ? ", " : "", rule);

		if (!key || strcmp(k, key)) {
			r->charts = xrealloc(r->charts, (r->ncharts + 1) *
							       sizeof(*ch));
			ch = &r->charts[r->ncharts++];
			memset(ch, 0, sizeof(*ch));
			ch->title = xstrdup(k);
			free(key);
			key = k;
			s = NULL;
		} else {
			free(k);
		}
		name = strcmp(var, "-") ?
			       xasprintf("%s %s", col_text(st, 2), var) :
			       xstrdup(col_text(st, 2));
		if (!s || strcmp(s->name, name)) {
			ch->s = xrealloc(ch->s, (ch->n + 1) * sizeof(*s));
			s = &ch->s[ch->n++];
			memset(s, 0, sizeof(*s));
			s->name = name;
		} else {
			free(name);
		}
		series_add(s, sqlite3_column_int64(st, 4),
			   sqlite3_column_double(st, 5));
	}
	free(key);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Start, minimum and end of every curve, for the text formats. */
static void summarize_charts(struct report *r)
{
	static const char *const head[] = { "curve", "line", "steps",
					    "first", "minimum", "last" };
	size_t i, j, k;

	rtable_init(&r->curve_summary, 6, head);
	r->curve_summary.numeric = 0x3c;
	for (i = 0; i < r->ncharts; i++)
		for (j = 0; j < r->charts[i].n; j++) {
			const struct series *s = &r->charts[i].s[j];
			char n[32], a[32], m[32], z[32];
			const char *cells[] = { r->charts[i].title, s->name, n,
						a, m, z };
			double min = s->y[0];

			for (k = 1; k < s->n; k++)
				if (s->y[k] < min)
					min = s->y[k];
			snprintf(n, sizeof(n), "%zu", s->n);
			snprintf(a, sizeof(a), "%.0f", s->y[0]);
			snprintf(m, sizeof(m), "%.0f", min);
			snprintf(z, sizeof(z), "%.0f", s->y[s->n - 1]);
			rtable_add(&r->curve_summary, cells);
		}
}

/* rule_doc(name, what): what is description, why or replace:FLAG */
static void sql_rule_doc(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct report_rules *rr = sqlite3_user_data(ctx);
	const char *name = (const char *)sqlite3_value_text(argv[0]);
	const char *what = (const char *)sqlite3_value_text(argv[1]);
	const struct rule *r = name && rr->n ? rules_find(rr->v, rr->n, name) :
					       NULL;
	const char *v = NULL;

	(void)argc;
	if (r && what && !strcmp(what, "description"))
		v = r->description;
	else if (r && what && !strcmp(what, "why"))
		v = r->why;
	else if (r && what && r->action == RULE_REPLACE &&
		 !strncmp(what, "replace:", 8))
		/* the token a replace rule puts for flag FROM ("" drops it) */
		for (int i = 0; i < r->nsubst; i++)
			if (!strcmp(r->subst[i].from, what + 8))
				v = r->subst[i].to ? r->subst[i].to : "";
	if (v)
		sqlite3_result_text(ctx, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
}

void report_rules_open(sqlite3 *db, struct report_rules *rr)
{
	char *dir = rule_default_dir();
	struct stat st;

	rr->v = NULL;
	rr->n = 0;
	/* Rule files that do not parse are skipped (and named on stderr). */
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		rules_load_dir(dir, &rr->v, &rr->n);
	free(dir);
	sqlite3_create_function(db, "rule_doc", 2, SQLITE_UTF8, rr,
				sql_rule_doc, NULL, NULL);
}

void report_rules_close(sqlite3 *db, struct report_rules *rr)
{
	sqlite3_create_function(db, "rule_doc", 2, SQLITE_UTF8, NULL, NULL,
				NULL, NULL);
	rules_free(rr->v, rr->n);
	rr->v = NULL;
	rr->n = 0;
}

int report_load(sqlite3 *db, const struct report_opts *o, struct report *r)
{
	struct report_rules rr;
	struct maintainers *m;
	size_t i;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->baseline = o->baseline;
	m = load_maintainers(db, o, r);
	if (sqlite3_create_function(db, "subsystem", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, m,
				    sql_subsystem, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(db, "gfp_num", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    sql_num, NULL, NULL) != SQLITE_OK) {
		error_msg("cannot register SQL functions: %s",
			  sqlite3_errmsg(db));
		maintainers_free(m);
		return -1;
	}
	report_rules_open(db, &rr);
	err |= rtable_load(db, &r->summary, sql_summary);
	err |= rtable_load(db, &r->parse_modes, sql_parse_modes);
	err |= rtable_load(db, &r->by_subsys, sql_by_subsys);
	err |= load_bars(db, sql_subsys_bars,
			 o->top_subsystems > 0 ? o->top_subsystems : 20,
			 &r->subsys_bars);
	err |= rtable_load(db, &r->lifetime, sql_lifetime);
	err |= rtable_load(db, &r->context, sql_context);
	err |= rtable_load(db, &r->rules, sql_rules);
	report_rules_close(db, &rr);
	err |= rtable_load(db, &r->findings, o->baseline ?
					sql_findings_baseline : sql_findings);
	err |= rtable_load(db, &r->patches, sql_patches);
	err |= rtable_load(db, &r->validations, sql_validations);
	err |= rtable_load(db, &r->impact, sql_impact);
	err |= rtable_load(db, &r->policies, sql_policies);
	err |= load_charts(db, r);
	summarize_charts(r);
	/* The lifetime chart: the first two columns of the lifetime table. */
	r->lifetime_bars.v = xcalloc(r->lifetime.nrows + 1, sizeof(struct bar));
	for (i = 0; i < r->lifetime.nrows; i++) {
		r->lifetime_bars.v[i].label = xstrdup(rt_cell(&r->lifetime, i, 0));
		r->lifetime_bars.v[i].value =
			strtod(rt_cell(&r->lifetime, i, 1), NULL);
	}
	r->lifetime_bars.n = r->lifetime.nrows;
	/* The functions use M: drop them before freeing it. */
	sqlite3_create_function(db, "subsystem", 1, SQLITE_UTF8, NULL, NULL,
				NULL, NULL);
	maintainers_free(m);
	return err ? -1 : 0;
}

static void bars_free(struct bars *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->v[i].label);
	free(b->v);
}

void report_free(struct report *r)
{
	struct rtable *tables[] = { &r->summary,     &r->parse_modes,
				    &r->by_subsys,   &r->lifetime,
				    &r->context,     &r->rules,
				    &r->findings,    &r->patches,
				    &r->validations, &r->impact,
				    &r->policies,
				    &r->curve_summary };
	size_t i, j;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		rtable_free(tables[i]);
	bars_free(&r->subsys_bars);
	bars_free(&r->lifetime_bars);
	for (i = 0; i < r->ncharts; i++) {
		for (j = 0; j < r->charts[i].n; j++) {
			free(r->charts[i].s[j].name);
			free(r->charts[i].s[j].x);
			free(r->charts[i].s[j].y);
		}
		free(r->charts[i].s);
		free(r->charts[i].title);
	}
	free(r->charts);
	free(r->subsys_source);
	memset(r, 0, sizeof(*r));
}

void sb_add_uri_path(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/-._~+,=@", c)) {
			sb_addc(sb, (char)c);
		} else {
			sb_addc(sb, '%');
			sb_addc(sb, hex[c >> 4]);
			sb_addc(sb, hex[c & 15]);
		}
	}
}

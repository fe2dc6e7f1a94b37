// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit simulate: the reference buddy allocator (allocator/) run on the
 * anti-fragmentation experiment, on a replayed kmem trace, or on the
 * site-driven workload of the findings database with and without a rule.
 */
#include "allocator/impact.h"
#include "allocator/policy.h"
#include "allocator/simdb.h"
#include "allocator/simruns.h"
#include "allocator/trace.h"
#include "allocator/trace_callers.h"
#include "allocator/trace_compare.h"
#include "allocator/workload.h"
#include "cli/cli.h"
#include "rules/rule.h"
#include "db/db.h"
#include "lib/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_simulate[] =
	"usage: gfpaudit simulate --experiment antifrag [options]\n"
	"       gfpaudit simulate --trace FILE [--kernel-version V] [options]\n"
	"       gfpaudit simulate --db FILE --rule NAME [options]\n"
	"       gfpaudit simulate --show-policy NAME\n"
	"\n"
	"Run the reference buddy allocator (2.6.24, 6.1 and nogroup "
	"policies).\n"
	"\n"
	"  --experiment antifrag  Gorman's test: a mixed workload (page "
	"cache,\n"
	"                      an updatedb-like dentry/inode burst, "
	"long-lived\n"
	"                      unmovable, short-lived buffers) under each "
	"policy,\n"
	"                      then reclaim and compaction at rest, then "
	"order-9\n"
	"                      attempts; prints policy, metric, value rows\n"
	"  --trace FILE        replay "
	"kmem:mm_page_alloc/mm_page_free(_batched)/\n"
	"                      mm_page_alloc_extfrag under each policy, from\n"
	"                      trace-cmd's trace.dat (told by its content), "
	"or\n"
	"                      text: /sys/kernel/tracing/trace or trace_pipe,\n"
	"                      `perf script [--header]`, `trace-cmd report`;\n"
	"                      perf.data: give its `perf script` instead\n"
	"  --start PTI0        with --trace: start the model in the state of\n"
	"                      this /proc/pagetypeinfo (taken just before the\n"
	"                      trace), replay the trace's events of --zone,\n"
	"  --compare PTI1      and compare the end state with this one (taken\n"
	"                      just after): zone migratetype measure start\n"
	"                      real model error within rows (tools/kboot\n"
	"                      records the three on a booted 6.1 kernel)\n"
	"  --zone NAME         the zone compared (default DMA32)\n"
	"  --kernel-version V  the traced kernel (pfn= format and migratetype\n"
	"                      numbering); default: the trace header (perf\n"
	"                      script --header) or trace.dat's formats, else "
	"6.1\n"
	"  --rule NAME         with --db: the site-driven workload of the "
	"sites\n"
	"                      table, as-is and as rule NAME would make it\n"
	"                      (a replace or drop rule: its rule file's\n"
	"                      edits are made to each site's flags); prints\n"
	"                      both and the delta\n"
	"  --db FILE           write results to sim_results and sim_curves;\n"
	"                      with --trace whose fallbacks carry kernel\n"
	"                      stacks (tools/kboot --stacks), also list them\n"
	"                      by allocating function with its sites in FILE\n"
	"                      (a scan of the same tree)\n"
	"                      (and every run to sim_runs)\n"
	"  --policy P[,P...]   only these policies (nogroup, 2.6.24, 6.1, "
	"the\n"
	"                      what-if 2.6.24+9c0415e); the first is the\n"
	"                      experiment's baseline for deltas; --trace takes "
	"one\n"
	"  --runs N            --experiment and --rule: N runs on seeds "
	"SEED..\n"
	"                      SEED+N-1 (paired: every policy and variant "
	"runs\n"
	"                      each seed), reported as mean, sd and 95% "
	"interval\n"
	"                      (Student's t) of each metric and paired delta,\n"
	"                      and a verdict (significant when the delta's\n"
	"                      interval excludes 0); default 1 for "
	"--experiment,\n"
	"                      10 for --rule (1: one run's table, no "
	"verdict)\n"
	"  --pages N           zone size in 4K pages (default 131072 = 512 "
	"MB)\n"
	"  --steps N           workload steps (default 1000000)\n"
	"  --seed N            workload random seed (default 1)\n"
	"  --highatomic        6.1: keep a MIGRATE_HIGHATOMIC reserve\n"
	"  --debug-checks      run the invariant checker after every "
	"operation\n"
	"  --proc-out DIR      antifrag: write DIR/buddyinfo.POLICY and\n"
	"                      DIR/pagetypeinfo.POLICY of the zone at rest\n"
	"                      (readable by gfpaudit fragstat; the first "
	"run's)\n"
	"  --tsv               a header line, then tab-separated rows\n"
	"  --show-policy NAME  print a policy's fallback table\n";

struct sim_opts {
	const char *experiment, *trace, *kversion, *rule, *db, *policy;
	const char *show_policy, *start, *compare, *zone;
	struct workload_config wc;
	int runs; /* 0: the mode's default */
	bool tsv;
};

#define MAX_POLICIES 8

static const char *const mt_cnames[MIGRATE_TYPES] = {
	"MIGRATE_UNMOVABLE",  "MIGRATE_MOVABLE", "MIGRATE_RECLAIMABLE",
	"MIGRATE_HIGHATOMIC", "MIGRATE_RESERVE", "MIGRATE_ISOLATE",
};

/* One row per type the kernel lists: "TYPE: FB1 FB2 ..." */
static int show_policy(const char *name)
{
	const struct alloc_policy *p = policy_find(name);
	int mt, i;

	if (!p)
		return usage_error("simulate",
				   "unknown policy '%s' (nogroup, 2.6.24, 6.1)",
				   name);
	printf("# %s\n", p->source);
	for (mt = 0; mt < MIGRATE_TYPES; mt++) {
		if (p->fallbacks[mt][0] == MIGRATE_TYPES)
			continue;
		printf("%s:", mt_cnames[mt]);
		for (i = 0;
		     i < MAX_FALLBACKS && p->fallbacks[mt][i] != MIGRATE_TYPES;
		     i++)
			printf(" %s", mt_cnames[p->fallbacks[mt][i]]);
		printf("\n");
	}
	return EXIT_OK;
}

static void print_value(double v, bool tsv)
{
	if (v == (double)(long long)v)
		printf(tsv ? "%lld" : "%12lld", (long long)v);
	else
		printf(tsv ? "%.3f" : "%12.3f", v);
}

static void print_results(const struct sim_result *res, int n, bool tsv)
{
	int i, j;

	printf(tsv ? "policy\tmetric\tvalue\n" : "%-8s %-28s %12s\n", "policy",
	       "metric", "value");
	for (i = 0; i < n; i++)
		for (j = 0; j < res[i].nr_metrics; j++) {
			printf(tsv ? "%s\t%s\t" : "%-8s %-28s ", res[i].policy,
			       res[i].metrics[j].name);
			print_value(res[i].metrics[j].value, tsv);
			printf("\n");
		}
}

/* One run: both variants and the delta, one row per policy and metric. */
static void print_impact(const struct sim_runs *r, bool tsv)
{
	int i, j;

	printf(tsv ? "policy\tmetric\tas-is\tpatched\tdelta\n"
		   : "%-8s %-28s %12s %12s %12s\n",
	       "policy", "metric", "as-is", "patched", "delta");
	for (i = 0; i < r->nr_policies; i++) {
		const struct sim_result *asis = sim_runs_at(r, 0, i, 0);
		const struct sim_result *patched = sim_runs_at(r, 0, i, 1);

		for (j = 0; j < asis->nr_metrics; j++) {
			double a = asis->metrics[j].value;
			double b = sim_metric_get(patched,
						  asis->metrics[j].name, NULL);

			printf(tsv ? "%s\t%s\t" : "%-8s %-28s ", asis->policy,
			       asis->metrics[j].name);
			print_value(a, tsv);
			printf(tsv ? "\t" : " ");
			print_value(b, tsv);
			printf(tsv ? "\t" : " ");
			print_value(b - a, tsv);
			printf("\n");
		}
	}
}

static int store(const char *path, const char *experiment, const char *rule,
		 const char *variant, const struct sim_result *res, int n,
		 sqlite3 *open_db)
{
	sqlite3 *db = open_db ? open_db : db_open(path, DB_READWRITE);
	int i, rc = 0;

	if (!db)
		return -1;
	if (db_begin(db) < 0)
		rc = -1;
	for (i = 0; i < n && !rc; i++)
		rc = simdb_store(db, experiment, rule, variant, &res[i]);
	if (!rc)
		rc = db_commit(db);
	else
		db_rollback(db);
	if (!open_db)
		db_close(db);
	return rc;
}

/*
 * The runs into the database in one transaction: sim_runs, the summaries
 * in sim_results, the first run's curves.
 */
static int store_runs(sqlite3 *db, const char *experiment, const char *rule,
		      const char *const *variants, const struct sim_runs *r)
{
	int rc = db_begin(db);

	if (!rc)
		rc = simdb_store_runs(db, experiment, rule, variants, r);
	if (!rc)
		rc = db_commit(db);
	else
		db_rollback(db);
	return rc;
}

/*
 * --policy for the experiment and rule impact: a comma-separated list,
 * the first being the baseline; all three modelled kernels by default.
 */
static int select_policy_list(const char *list, const struct alloc_policy **out)
{
	char *copy, *save = NULL, *name;
	int n = 0;

	if (!list) {
		for (; alloc_policies[n]; n++)
			out[n] = alloc_policies[n];
		return n;
	}
	copy = xstrdup(list);
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		const struct alloc_policy *p = policy_find(name);
		int i;

		if (!p) {
			usage_error(
				"simulate",
				"unknown policy '%s' (nogroup, 2.6.24, 6.1, "
				"2.6.24+9c0415e)",
				name);
			free(copy);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (out[i] == p)
				break;
		if (i < n || n == MAX_POLICIES) {
			usage_error("simulate",
				    i < n ? "policy '%s' given twice"
					  : "more than 8 policies at '%s'",
				    name);
			free(copy);
			return -1;
		}
		out[n++] = p;
	}
	free(copy);
	if (!n)
		usage_error("simulate", "--policy names no policy");
	return n ? n : -1;
}

/* Say what the intervals rest on, once, on stderr. */
static void note_runs(const struct sim_opts *o, const char *what)
{
	if (o->runs < 2)
		return;
	fprintf(stderr,
		"gfpaudit simulate: %d %s, seeds %llu..%llu; intervals 95%%, "
		"Student's t with %d degree%s of freedom\n",
		o->runs, what, (unsigned long long)o->wc.seed,
		(unsigned long long)(o->wc.seed + (uint64_t)o->runs - 1),
		o->runs - 1, o->runs == 2 ? "" : "s");
}

/* The policies to run: one by name, or all. */
static int select_policies(const char *name, const struct alloc_policy **out)
{
	int n = 0;

	if (name) {
		out[0] = policy_find(name);
		return out[0] ? 1 : -1;
	}
	for (; alloc_policies[n]; n++)
		out[n] = alloc_policies[n];
	return n;
}

static int run_antifrag(struct sim_opts *o)
{
	static const char *const variants[] = {"-"};
	const struct alloc_policy *pol[MAX_POLICIES];
	int n = select_policy_list(o->policy, pol), i, k, rc = EXIT_OK;
	struct sim_runs r;

	if (n < 0)
		return EXIT_USAGE;
	sim_runs_init(&r, o->runs, n, 1, o->wc.seed);
	if (n > 1 && o->runs > 1)
		fprintf(stderr,
			"gfpaudit simulate: deltas are each policy's minus "
			"%s's on the same seed\n",
			pol[0]->name);
	note_runs(o, "runs per policy (paired by seed)");
	for (k = 0; k < o->runs; k++) {
		struct workload_config wc = o->wc;

		wc.seed = o->wc.seed + (uint64_t)k;
		if (k)
			wc.proc_out = NULL; /* the first run's zone only */
		for (i = 0; i < n; i++) {
			struct stream s[32];
			int ns = antifrag_streams(pol[i], s, 32);
			int ret = run_workload(&wc, pol[i], s, ns,
					       sim_runs_at(&r, k, i, 0));

			if (ret < 0) {
				if (ret == -1)
					error_msg("simulate: cannot set up a "
						  "zone of %u pages",
						  o->wc.nr_pages);
				sim_runs_free(&r);
				return EXIT_USAGE;
			}
		}
	}
	if (o->runs == 1)
		print_results(r.res, n, o->tsv);
	else
		sim_runs_print_experiment(stdout, &r, o->tsv);
	if (o->db) {
		sqlite3 *db = db_open(o->db, DB_READWRITE);

		if (!db || store_runs(db, "antifrag", NULL, variants, &r) < 0)
			rc = EXIT_INTERNAL;
		if (db)
			db_close(db);
	}
	sim_runs_free(&r);
	return rc;
}

/* In the voice of trace_report(), whose counts come just before. */
static void __attribute__((format(printf, 1, 2)))
trace_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("gfpaudit simulate: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int load_snapshot(const char *path, const char *zone,
			 struct zone_snapshot *s)
{
	struct parse_error perr = {0, ""};
	struct frag_info *fi = xmalloc(sizeof(*fi));
	char *buf, err[200];
	size_t len;
	int rc = -1;

	frag_info_init(fi);
	if (read_whole_file(path, &buf, &len) < 0) {
		trace_error("%s: %s", path, strerror(errno));
		free(fi);
		return -1;
	}
	if (parse_pagetypeinfo(buf, len, fi, &perr) < 0)
		trace_error("%s:%d: %s", path, perr.line, perr.msg);
	else if (zone_snapshot_get(fi, zone, s, err, sizeof(err)))
		trace_error("%s: %s", path, err);
	else
		rc = 0;
	free(buf);
	free(fi);
	return rc;
}

/* --trace T --start PTI0 --compare PTI1: the model against the kernel */
static int run_compare(struct sim_opts *o, const struct trace_events *ev)
{
	const struct alloc_policy *pol = policy_find(o->policy ? o->policy :
							       "6.1");
	struct zone_snapshot start, end;
	struct trace_compare c;
	char err[200];

	if (load_snapshot(o->start, o->zone, &start) ||
	    load_snapshot(o->compare, o->zone, &end))
		return EXIT_USAGE;
	if (start.nr_blocks != end.nr_blocks) {
		trace_error("%s and %s: zone %s has %lu and %lu pageblocks "
			    "(not the same boot?)", o->start, o->compare,
			    o->zone, start.nr_blocks, end.nr_blocks);
		return EXIT_USAGE;
	}
	if (trace_compare_run(ev, &start, &end, pol, &c, err, sizeof(err))) {
		trace_error("%s", err);
		return EXIT_INTERNAL;
	}
	trace_compare_print(stdout, o->zone, &c, o->tsv);
	return EXIT_OK;
}

/*
 * With --db and a trace whose fallbacks carry kernel stacks: the
 * fallbacks by allocating function, joined with the database's sites.
 */
static int fallback_callers(struct sim_opts *o)
{
	struct fallback_callers fc;
	sqlite3 *db = db_open(o->db, DB_READONLY);
	int rc = EXIT_OK;

	if (!db)
		return EXIT_USAGE;
	if (trace_fallback_callers(o->trace, db, &fc)) {
		trace_error("%s: cannot read its stacks", o->trace);
		rc = EXIT_USAGE;
	} else if (!fc.with_stack) {
		fprintf(stderr, "gfpaudit simulate: %s: the fallbacks have no "
			"kernel stacks (record with options/stacktrace: "
			"tools/kboot --stacks) to tell their callers\n",
			o->trace);
	} else {
		trace_fallback_callers_print(stdout, db, &fc);
	}
	trace_fallback_callers_free(&fc);
	db_close(db);
	return rc;
}

static int run_trace(struct sim_opts *o)
{
	const struct alloc_policy *pol[4];
	struct trace_events ev;
	struct sim_result *res;
	int n = select_policies(o->policy, pol), i, rc = EXIT_OK;

	if (n < 0)
		return usage_error("simulate", "unknown policy '%s'",
				   o->policy);
	if (trace_read(o->trace, o->kversion, &ev) < 0) {
		trace_error("%s: %s", o->trace, ev.error);
		trace_events_free(&ev);
		return EXIT_USAGE;
	}
	trace_report(stderr, o->trace, &ev);
	if (trace_mostly_unparseable(&ev)) {
		trace_error("%s: %lu of %lu kmem event %s unparseable, the "
			    "first is %s %ld (a wrong --kernel-version?)",
			    o->trace, ev.unparseable,
			    ev.unparseable + ev.nr + ev.failed_allocs, ev.unit,
			    strcmp(ev.unit, "records") ? "line" : "record",
			    ev.first_bad_line);
		trace_events_free(&ev);
		return EXIT_USAGE;
	}
	if (!ev.nr) {
		trace_error("%s: no kmem page allocator events", o->trace);
		trace_events_free(&ev);
		return EXIT_USAGE;
	}
	if (o->start) {
		rc = run_compare(o, &ev);
		trace_events_free(&ev);
		return rc;
	}
	res = xcalloc((size_t)n, sizeof(*res));
	for (i = 0; i < n; i++)
		trace_replay(&ev, pol[i], &o->wc, &res[i]);
	print_results(res, n, o->tsv);
	if (o->db && store(o->db, "trace", NULL, "-", res, n, NULL) < 0)
		rc = EXIT_INTERNAL;
	if (o->db && rc == EXIT_OK && ev.by_type[TEV_EXTFRAG])
		rc = fallback_callers(o);
	free(res);
	trace_events_free(&ev);
	return rc;
}

/*
 * The rule's flag edits for the impact workload: its replace: pairs, or
 * for a drop rule its flags going.  Returns 0, or EXIT_USAGE after
 * naming an unknown rule.
 */
static int impact_rule_of(const char *name, struct rule **rules, int *nrules,
			  struct impact_rule *ir)
{
	char *dir = rule_default_dir();
	const char **from, **to;
	struct rule *r;
	int i;

	rules_load_dir(dir, rules, nrules);
	r = rules_find(*rules, *nrules, name);
	if (!r) {
		usage_error("simulate", "no rule '%s' in %s", name, dir);
		free(dir);
		return EXIT_USAGE;
	}
	free(dir);
	memset(ir, 0, sizeof(*ir));
	ir->name = r->name;
	from = xcalloc((size_t)r->nsubst + (size_t)r->nflags + 1,
		       sizeof(*from));
	to = xcalloc((size_t)r->nsubst + (size_t)r->nflags + 1, sizeof(*to));
	if (r->action == RULE_REPLACE)
		for (i = 0; i < r->nsubst; i++) {
			from[ir->n] = r->subst[i].from;
			to[ir->n++] = r->subst[i].to;
		}
	else if (r->action == RULE_DROP)
		for (i = 0; i < r->nflags; i++)
			from[ir->n++] = r->flags[i];
	ir->from = from;
	ir->to = to;
	return 0;
}

static int run_impact(struct sim_opts *o)
{
	static const char *const variants[] = {"as-is", "patched"};
	const struct alloc_policy *pol[MAX_POLICIES];
	struct impact_sites sites;
	struct strbuf names = STRBUF_INIT;
	struct sim_runs r;
	sqlite3 *db;
	int n, i, k, rc = EXIT_OK;

	struct impact_rule ir;
	struct rule *rules = NULL;
	int nrules = 0;

	if (impact_rule_of(o->rule, &rules, &nrules, &ir)) {
		rules_free(rules, nrules);
		return EXIT_USAGE;
	}
	db = db_open(o->db, DB_READWRITE);
	rc = !db ? EXIT_USAGE :
	     impact_load(db, &ir, o->kversion, &sites) < 0 ? EXIT_USAGE : 0;
	if (db && rc)
		error_msg("simulate: %s: %s", o->db, sites.error);
	free((void *)ir.from);
	free((void *)ir.to);
	rules_free(rules, nrules);
	if (rc) {
		if (db) {
			db_close(db);
			impact_sites_free(&sites);
		}
		return rc;
	}
	if (o->policy) {
		n = select_policy_list(o->policy, pol);
		if (n < 0) {
			db_close(db);
			impact_sites_free(&sites);
			return EXIT_USAGE;
		}
	} else {
		/* the policy of the scanned kernel */
		pol[0] = policy_for_version(sites.kernel_version);
		n = 1;
	}
	for (i = 0; i < n; i++)
		sb_addf(&names, "%s%s", i ? "," : "", pol[i]->name);
	fprintf(stderr,
		"gfpaudit simulate: %zu sites (%zu changed by %s), kernel %s, "
		"policy %s\n",
		sites.nr, sites.nr_changed, o->rule,
		sites.kernel_version ? sites.kernel_version
				     : "unknown (6.1 assumed)",
		names.buf);
	sb_release(&names);
	note_runs(o, "paired runs (as-is and patched on each seed)");
	sim_runs_init(&r, o->runs, n, 2, o->wc.seed);
	for (k = 0; k < o->runs && rc == EXIT_OK; k++) {
		struct workload_config wc = o->wc;

		wc.seed = o->wc.seed + (uint64_t)k;
		for (i = 0; i < n && rc == EXIT_OK; i++) {
			if (impact_run(&sites, pol[i], &wc, false,
				       sim_runs_at(&r, k, i, 0)) < 0 ||
			    impact_run(&sites, pol[i], &wc, true,
				       sim_runs_at(&r, k, i, 1)) < 0) {
				error_msg("simulate: cannot set up a zone of "
					  "%u pages",
					  o->wc.nr_pages);
				rc = EXIT_USAGE;
			}
		}
	}
	if (rc == EXIT_OK) {
		if (o->runs == 1)
			print_impact(&r, o->tsv);
		else
			sim_runs_print_impact(stdout, &r, o->tsv);
		if (store_runs(db, "impact", o->rule, variants, &r) < 0)
			rc = EXIT_INTERNAL;
	}
	sim_runs_free(&r);
	impact_sites_free(&sites);
	db_close(db);
	return rc;
}

static int parse_ulong_opt(const char *opt, const char *arg, unsigned long min,
			   unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max || *arg == '-')
		return usage_error("simulate",
				   "%s wants a number in %lu..%lu, not '%s'",
				   opt, min, max, arg);
	*out = v;
	return 0;
}

int cmd_simulate(int argc, char **argv)
{
	static const struct option opts[] = {
		{"experiment", required_argument, NULL, 'e'},
		{"trace", required_argument, NULL, 'T'},
		{"kernel-version", required_argument, NULL, 'k'},
		{"rule", required_argument, NULL, 'r'},
		{"db", required_argument, NULL, 'd'},
		{"policy", required_argument, NULL, 'p'},
		{"pages", required_argument, NULL, 'n'},
		{"steps", required_argument, NULL, 's'},
		{"seed", required_argument, NULL, 'S'},
		{"highatomic", no_argument, NULL, 'H'},
		{"debug-checks", no_argument, NULL, 'D'},
		{"tsv", no_argument, NULL, 't'},
		{"show-policy", required_argument, NULL, 'P'},
		{"proc-out", required_argument, NULL, 'o'},
		{"runs", required_argument, NULL, 'R'},
		{"start", required_argument, NULL, 'A'},
		{"compare", required_argument, NULL, 'C'},
		{"zone", required_argument, NULL, 'Z'},
		{NULL, 0, NULL, 0},
	};
	struct sim_opts o = {
		.wc = {.nr_pages = 131072, .steps = 1000000, .seed = 1},
	};
	unsigned long v;
	int c, modes;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o.experiment = optarg;
			break;
		case 'T':
			o.trace = optarg;
			break;
		case 'k':
			o.kversion = optarg;
			break;
		case 'r':
			o.rule = optarg;
			break;
		case 'd':
			o.db = optarg;
			break;
		case 'p':
			o.policy = optarg;
			break;
		case 'n':
			if (parse_ulong_opt("--pages", optarg, 1024, 1UL << 30,
					    &v))
				return EXIT_USAGE;
			o.wc.nr_pages = (uint32_t)v;
			break;
		case 's':
			if (parse_ulong_opt("--steps", optarg, 1, 1UL << 34,
					    &v))
				return EXIT_USAGE;
			o.wc.steps = v;
			break;
		case 'S':
			if (parse_ulong_opt("--seed", optarg, 0, ~0UL, &v))
				return EXIT_USAGE;
			o.wc.seed = v;
			break;
		case 'H':
			o.wc.highatomic = true;
			break;
		case 'D':
			o.wc.debug_checks = true;
			break;
		case 't':
			o.tsv = true;
			break;
		case 'P':
			o.show_policy = optarg;
			break;
		case 'o':
			o.wc.proc_out = optarg;
			break;
		case 'A':
			o.start = optarg;
			break;
		case 'C':
			o.compare = optarg;
			break;
		case 'Z':
			o.zone = optarg;
			break;
		case 'R':
			if (parse_ulong_opt("--runs", optarg, 1, SIM_MAX_RUNS,
					    &v))
				return EXIT_USAGE;
			o.runs = (int)v;
			break;
		default:
			return bad_option("simulate", argv);
		}
	}
	if (optind < argc)
		return usage_error("simulate", "unexpected argument '%s'",
				   argv[optind]);
	if (o.show_policy)
		return show_policy(o.show_policy);
	modes = !!o.experiment + !!o.trace + !!o.rule;
	if (modes != 1)
		return usage_error(
			"simulate",
			"give exactly one of --experiment, --trace, --rule");
	if (o.trace && o.policy && !policy_find(o.policy))
		return usage_error("simulate",
				   "unknown policy '%s' (nogroup, 2.6.24, 6.1)",
				   o.policy);
	if (!o.start != !o.compare || (o.start && !o.trace))
		return usage_error("simulate", "--start and --compare go "
				   "together, with --trace");
	if (o.zone && !o.start)
		return usage_error("simulate", "--zone is for --start");
	if (!o.zone)
		o.zone = "DMA32";
	if (o.trace && o.runs)
		return usage_error("simulate",
				   "--runs is for --experiment and --rule (a "
				   "trace replays the same events)");
	if (!o.runs)
		o.runs = o.rule ? 10 : 1;
	/* run_workload() seeds 0 and 1 alike: two runs would be one */
	if (o.runs > 1 && !o.wc.seed)
		return usage_error(
			"simulate",
			"--seed 0 is the workload of --seed 1: start "
			"--runs at 1 or above");
	if (o.wc.seed > UINT64_MAX - (uint64_t)(o.runs - 1))
		return usage_error("simulate",
				   "--seed %llu with --runs %d runs past the "
				   "largest seed",
				   (unsigned long long)o.wc.seed, o.runs);
	if (o.experiment) {
		if (strcmp(o.experiment, "antifrag"))
			return usage_error("simulate",
					   "unknown experiment '%s' (antifrag)",
					   o.experiment);
		return run_antifrag(&o);
	}
	if (o.trace)
		return run_trace(&o);
	if (!o.db)
		return usage_error("simulate", "--rule needs --db FILE");
	return run_impact(&o);
}

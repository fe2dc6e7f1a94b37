// SPDX-License-Identifier: GPL-2.0
/* Repeated simulation runs and their tables: see allocator/simruns.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/simruns.h"
#include "lib/util.h"

void sim_runs_init(struct sim_runs *r, int runs, int policies, int variants,
		   uint64_t first_seed)
{
	r->nr_runs = runs;
	r->nr_policies = policies;
	r->nr_variants = variants;
	r->first_seed = first_seed;
	r->res = xcalloc((size_t)runs * (size_t)policies * (size_t)variants,
			 sizeof(*r->res));
}

void sim_runs_free(struct sim_runs *r)
{
	free(r->res);
	r->res = NULL;
}

void sim_runs_values(const struct sim_runs *r, int policy, int variant,
		     const char *metric, double *v)
{
	int k;

	for (k = 0; k < r->nr_runs; k++)
		v[k] = sim_metric_get(sim_runs_at(r, k, policy, variant),
				      metric, NULL);
}

void sim_runs_deltas(const struct sim_runs *r, int pa, int va, int pb, int vb,
		     const char *metric, double *v)
{
	int k;

	for (k = 0; k < r->nr_runs; k++)
		v[k] = sim_metric_get(sim_runs_at(r, k, pb, vb), metric, NULL) -
		       sim_metric_get(sim_runs_at(r, k, pa, va), metric, NULL);
}

const char *sim_verdict(const struct sample_summary *delta)
{
	return sample_significant(delta) ? "significant" : "not significant";
}

/*
 * Counts print as counts, NaN as -.  The text table gives three decimals
 * (three significant digits below 0.01, so that an interval bound of
 * -0.00003 does not read as 0); the TSV ten significant digits, enough
 * for a reader to redo the verdict from the bounds.
 */
static const char *fmt(char *buf, size_t n, double v, bool tsv)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) < 1e15 && v == floor(v))
		snprintf(buf, n, "%lld", (long long)v);
	else if (tsv)
		snprintf(buf, n, "%.10g", v);
	else
		snprintf(buf, n, fabs(v) < 0.01 ? "%.3g" : "%.3f", v);
	return buf;
}

static const char *num(char *buf, size_t n, double v)
{
	return fmt(buf, n, v, false);
}

static const char *tnum(char *buf, size_t n, double v)
{
	return fmt(buf, n, v, true);
}

/* "MEAN +- CI" for the text table */
static const char *mean_ci(char *buf, size_t n, const struct sample_summary *s)
{
	char m[40], c[40];

	snprintf(buf, n, "%s +- %s", num(m, sizeof(m), s->mean),
		 num(c, sizeof(c), s->ci));
	return buf;
}

/* "[LOW, HIGH]" of the interval */
static const char *interval(char *buf, size_t n, const struct sample_summary *s)
{
	char lo[40], hi[40];

	snprintf(buf, n, "[%s, %s]", num(lo, sizeof(lo), s->mean - s->ci),
		 num(hi, sizeof(hi), s->mean + s->ci));
	return buf;
}

/* The delta as a share of the baseline's mean, as compare-kernels adds. */
static const char *pct(char *buf, size_t n, double delta, double base, bool tsv)
{
	double v = base == 0 ? NAN : 100 * delta / base;

	if (isnan(v))
		snprintf(buf, n, "-");
	else /* + 0.0: no "-0.0%" for no change against a negative base */
		snprintf(buf, n, tsv ? "%.10g" : "%+.1f%%", v + 0.0);
	return buf;
}

static int policy_width(const struct sim_runs *r)
{
	int p, w = 6;

	for (p = 0; p < r->nr_policies; p++) {
		int l = (int)strlen(sim_runs_at(r, 0, p, 0)->policy);

		if (l > w)
			w = l;
	}
	return w;
}

/* Summary of METRIC over the runs of (P, VAR); V is scratch. */
static void summarize(const struct sim_runs *r, double *v, int p, int var,
		      const char *metric, struct sample_summary *s)
{
	sim_runs_values(r, p, var, metric, v);
	sample_summarize(v, (unsigned int)r->nr_runs, SIM_CONFIDENCE, s);
}

/* Summary of the paired deltas (PB, VB) - (PA, VA) of METRIC. */
static void summarize_delta(const struct sim_runs *r, double *v, int pa, int va,
			    int pb, int vb, const char *metric,
			    struct sample_summary *s)
{
	sim_runs_deltas(r, pa, va, pb, vb, metric, v);
	sample_summarize(v, (unsigned int)r->nr_runs, SIM_CONFIDENCE, s);
}

void sim_runs_print_experiment(FILE *f, const struct sim_runs *r, bool tsv)
{
	double *v = xcalloc((size_t)r->nr_runs, sizeof(*v));
	int pw = policy_width(r), p, j;
	char b[6][80];

	if (tsv)
		fprintf(f, "policy\tmetric\truns\tmean\tsd\tci95\tdelta\t"
			   "delta_sd\tdelta_ci95_low\tdelta_ci95_high\t"
			   "delta_pct\tverdict\n");
	else
		fprintf(f, "%-*s %-28s %4s %24s %10s  %-12s %-26s %7s  %s\n",
			pw, "policy", "metric", "runs", "mean +- 95% CI", "sd",
			"delta", "delta 95% CI", "delta%", "verdict");
	for (p = 0; p < r->nr_policies; p++) {
		const struct sim_result *r0 = sim_runs_at(r, 0, p, 0);

		for (j = 0; j < r0->nr_metrics; j++) {
			const char *m = r0->metrics[j].name;
			struct sample_summary s, d, bs;
			const char *verdict = "baseline";

			summarize(r, v, p, 0, m, &s);
			summarize(r, v, 0, 0, m, &bs);
			summarize_delta(r, v, 0, 0, p, 0, m, &d);
			if (p)
				verdict = sim_verdict(&d);
			if (tsv) {
				fprintf(f, "%s\t%s\t%d\t%s\t%s\t%s\t",
					r0->policy, m, r->nr_runs,
					tnum(b[0], 80, s.mean),
					tnum(b[1], 80, s.sd),
					tnum(b[2], 80, s.ci));
				if (p)
					fprintf(f, "%s\t%s\t%s\t%s\t%s\t",
						tnum(b[0], 80, d.mean),
						tnum(b[1], 80, d.sd),
						tnum(b[2], 80, d.mean - d.ci),
						tnum(b[3], 80, d.mean + d.ci),
						pct(b[4], 80, d.mean, bs.mean,
						    true));
				else
					fprintf(f, "-\t-\t-\t-\t-\t");
				fprintf(f, "%s\n", verdict);
				continue;
			}
			fprintf(f, "%-*s %-28s %4d %24s %10s  ", pw, r0->policy,
				m, r->nr_runs, mean_ci(b[0], 80, &s),
				num(b[1], 80, s.sd));
			if (p)
				fprintf(f, "%-12s %-26s %7s  %s\n",
					num(b[2], 80, d.mean),
					interval(b[3], 80, &d),
					pct(b[4], 80, d.mean, bs.mean, false),
					verdict);
			else
				fprintf(f, "%-12s %-26s %7s  %s\n", "-", "-",
					"-", verdict);
		}
	}
	free(v);
}

void sim_runs_print_impact(FILE *f, const struct sim_runs *r, bool tsv)
{
	double *v = xcalloc((size_t)r->nr_runs, sizeof(*v));
	int pw = policy_width(r), p, j;
	char b[11][80]; /* one per number of a row: they print together */

	if (tsv)
		fprintf(f, "verdict\tpolicy\tmetric\truns\tas-is\tas-is_sd\t"
			   "as-is_ci95\tpatched\tpatched_sd\tpatched_ci95\t"
			   "delta\tdelta_sd\tdelta_ci95_low\tdelta_ci95_high\t"
			   "delta_pct\n");
	else
		fprintf(f, "%-15s %-*s %-28s %22s %22s %12s %-26s %7s\n",
			"verdict", pw, "policy", "metric", "as-is +- 95% CI",
			"patched +- 95% CI", "delta", "delta 95% CI", "delta%");
	for (p = 0; p < r->nr_policies; p++) {
		const struct sim_result *r0 = sim_runs_at(r, 0, p, 0);

		for (j = 0; j < r0->nr_metrics; j++) {
			const char *m = r0->metrics[j].name;
			struct sample_summary a, pa, d;

			summarize(r, v, p, 0, m, &a);
			summarize(r, v, p, 1, m, &pa);
			summarize_delta(r, v, p, 0, p, 1, m, &d);
			if (tsv) {
				fprintf(f,
					"%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s"
					"\t%s\t%s\t%s\t%s\t%s\n",
					sim_verdict(&d), r0->policy, m,
					r->nr_runs, tnum(b[0], 80, a.mean),
					tnum(b[1], 80, a.sd),
					tnum(b[2], 80, a.ci),
					tnum(b[3], 80, pa.mean),
					tnum(b[4], 80, pa.sd),
					tnum(b[5], 80, pa.ci),
					tnum(b[6], 80, d.mean),
					tnum(b[7], 80, d.sd),
					tnum(b[8], 80, d.mean - d.ci),
					tnum(b[9], 80, d.mean + d.ci),
					pct(b[10], 80, d.mean, a.mean, true));
				continue;
			}
			fprintf(f,
				"%-15s %-*s %-28s %22s %22s %12s %-26s %7s\n",
				sim_verdict(&d), pw, r0->policy, m,
				mean_ci(b[0], 80, &a), mean_ci(b[1], 80, &pa),
				num(b[2], 80, d.mean), interval(b[3], 80, &d),
				pct(b[4], 80, d.mean, a.mean, false));
		}
	}
	free(v);
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_SIMRUNS_H
#define GFPAUDIT_ALLOCATOR_SIMRUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "allocator/workload.h"
#include "lib/stats.h"

/*
 * Repeated runs (simulate --runs N): run k of every policy and variant
 * uses seed first_seed + k, so that the runs sharing k are a pair and
 * their difference cancels what the seed alone does.  Reported as
 * mmtests' compare-kernels reports A/B kernel runs: per metric the mean,
 * sd and 95 % interval, and the same of the paired delta, with a verdict.
 */
#define SIM_CONFIDENCE 0.95
#define SIM_MAX_RUNS 1000

struct sim_runs {
	int nr_runs, nr_policies, nr_variants;
	uint64_t first_seed;
	struct sim_result *res; /* [run][policy][variant] */
};

void sim_runs_init(struct sim_runs *r, int runs, int policies, int variants,
		   uint64_t first_seed);
void sim_runs_free(struct sim_runs *r);

static inline struct sim_result *sim_runs_at(const struct sim_runs *r, int run,
					     int policy, int variant)
{
	return &r->res[((size_t)run * (size_t)r->nr_policies + (size_t)policy) *
			       (size_t)r->nr_variants +
		       (size_t)variant];
}

/* The N values of METRIC for POLICY and VARIANT, into V (nr_runs long). */
void sim_runs_values(const struct sim_runs *r, int policy, int variant,
		     const char *metric, double *v);

/*
 * The paired deltas of METRIC, run by run: (policy B, variant VB) minus
 * (policy A, variant VA), into V.
 */
void sim_runs_deltas(const struct sim_runs *r, int pa, int va, int pb, int vb,
		     const char *metric, double *v);

/* "significant" or "not significant": the delta's interval and 0. */
const char *sim_verdict(const struct sample_summary *delta);

/*
 * The experiment's table: per policy and metric the runs' summary and the
 * paired delta against the first policy (the baseline, as compare-kernels
 * compares against its first kernel), with the verdict.
 */
void sim_runs_print_experiment(FILE *f, const struct sim_runs *r, bool tsv);

/*
 * A rule's impact: per policy and metric, verdict first, then as-is,
 * patched and the paired delta (patched - as-is), each with its interval.
 */
void sim_runs_print_impact(FILE *f, const struct sim_runs *r, bool tsv);

#endif

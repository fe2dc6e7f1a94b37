/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_STATS_H
#define GFPAUDIT_STATS_H

#include <stdbool.h>

/*
 * Summaries of repeated runs, the way mmtests' compare-kernels reports
 * A/B runs: mean, sample standard deviation and the confidence interval
 * of the mean from Student's t with n - 1 degrees of freedom (the runs
 * are few, and their spread is not known beforehand).
 */
struct sample_summary {
	unsigned int n;
	double mean;
	double sd; /* sample standard deviation (n - 1); 0 when n < 2 */
	double ci; /* half-width of the interval of the mean; NaN if n < 2 */
};

/*
 * The two-sided quantile q of Student's t with DF degrees of freedom:
 * P(|T| <= q) = CONF (CONF 0.95, DF 4: 2.776445).  DF >= 1, 0 < CONF < 1.
 */
double student_t_quantile(double conf, unsigned int df);

/* P(|T| <= T) for Student's t with DF degrees of freedom, exactly. */
double student_t_two_sided(double t, unsigned int df);

/* Mean, sd and the CONF interval of the N values V. */
void sample_summarize(const double *v, unsigned int n, double conf,
		      struct sample_summary *s);

/*
 * A paired difference is significant when its interval excludes 0; with
 * fewer than two runs there is no interval and nothing is significant.
 */
bool sample_significant(const struct sample_summary *delta);

#endif

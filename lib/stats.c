// SPDX-License-Identifier: GPL-2.0
/* Repeated-run statistics: see lib/stats.h. */
#include <math.h>

#include "lib/stats.h"

/*
 * Abramowitz and Stegun 26.7.3 and 26.7.4: for an integer number of
 * degrees of freedom, P(|T| <= t) is a finite series in theta =
 * atan(t / sqrt(df)).  Exact to rounding, with no table to transcribe
 * and no special-function library (glibc has none for Student's t).
 */
static double two_sided_theta(double theta, unsigned int df)
{
	double c = cos(theta), c2 = c * c, term, sum;
	unsigned int k;

	if (df % 2 == 0) {
		/* sin(theta) (1 + 1/2 c^2 + 1.3/2.4 c^4 + ... c^(df-2)) */
		term = sum = 1;
		for (k = 1; 2 * k <= df - 2; k++) {
			term *= c2 * (2.0 * k - 1) / (2.0 * k);
			sum += term;
		}
		return sin(theta) * sum;
	}
	if (df == 1)
		return 2 * theta / M_PI;
	/* 2/pi (theta + sin(theta) (c + 2/3 c^3 + ... c^(df-2))) */
	term = sum = c;
	for (k = 1; 2 * k + 1 <= df - 2; k++) {
		term *= c2 * (2.0 * k) / (2.0 * k + 1);
		sum += term;
	}
	return 2 / M_PI * (theta + sin(theta) * sum);
}

double student_t_two_sided(double t, unsigned int df)
{
	return two_sided_theta(atan(fabs(t) / sqrt((double)df)), df);
}

double student_t_quantile(double conf, unsigned int df)
{
	double lo = 0, hi = M_PI / 2;
	int i;

	/* P(|T| <= q) grows with theta: bisect to the last bit */
	for (i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;

		if (two_sided_theta(mid, df) < conf)
			lo = mid;
		else
			hi = mid;
	}
	return sqrt((double)df) * tan((lo + hi) / 2);
}

void sample_summarize(const double *v, unsigned int n, double conf,
		      struct sample_summary *s)
{
	double mean = 0, m2 = 0;
	unsigned int i;

	/* Welford: equal values give an sd of exactly 0, not rounding noise */
	for (i = 0; i < n; i++) {
		double d = v[i] - mean;

		mean += d / (i + 1);
		m2 += d * (v[i] - mean);
	}
	s->n = n;
	s->mean = mean;
	if (n < 2) {
		s->sd = 0;
		s->ci = NAN;
		return;
	}
	s->sd = sqrt(m2 / (n - 1));
	s->ci = student_t_quantile(conf, n - 1) * s->sd / sqrt((double)n);
}

bool sample_significant(const struct sample_summary *delta)
{
	if (delta->n < 2 || isnan(delta->ci))
		return false;
	return delta->mean - delta->ci > 0 || delta->mean + delta->ci < 0;
}

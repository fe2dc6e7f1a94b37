// SPDX-License-Identifier: GPL-2.0
/*
 * lib/stats.c against published values: Student's t quantiles from the
 * usual tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2) and
 * hand-computed summaries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "lib/stats.h"

static void test_t_quantiles(void **state)
{
	(void)state;
	/* two-sided 95 %: the 0.975 column of a one-sided table */
	assert_float_equal(student_t_quantile(0.95, 1), 12.706205, 1e-6);
	assert_float_equal(student_t_quantile(0.95, 2), 4.302653, 1e-6);
	assert_float_equal(student_t_quantile(0.95, 4), 2.776445, 1e-6);
	assert_float_equal(student_t_quantile(0.95, 9), 2.262157, 1e-6);
	assert_float_equal(student_t_quantile(0.95, 30), 2.042272, 1e-6);
	/* towards the normal's 1.959964 */
	assert_float_equal(student_t_quantile(0.95, 1000), 1.962339, 1e-6);
	/* 99 % and 90 % */
	assert_float_equal(student_t_quantile(0.99, 4), 4.604095, 1e-6);
	assert_float_equal(student_t_quantile(0.90, 9), 1.833113, 1e-6);
	/* the CDF the quantile inverts */
	assert_float_equal(student_t_two_sided(2.262157, 9), 0.95, 1e-6);
	assert_float_equal(student_t_two_sided(0, 7), 0, 1e-12);
	assert_float_equal(student_t_two_sided(-4.302653, 2), 0.95, 1e-6);
}

static void test_summary(void **state)
{
	const double v[] = {1, 2, 3, 4, 5};
	struct sample_summary s;

	(void)state;
	sample_summarize(v, 5, 0.95, &s);
	assert_int_equal(s.n, 5);
	assert_float_equal(s.mean, 3, 1e-12);
	/* sqrt(10 / 4) */
	assert_float_equal(s.sd, 1.581139, 1e-6);
	/* 2.776445 * 1.581139 / sqrt(5) */
	assert_float_equal(s.ci, 1.963243, 1e-6);
	assert_true(sample_significant(&s));
}

static void test_verdict(void **state)
{
	const double around0[] = {-1, 1, 2}, same[] = {2, 2, 2},
		     zero[] = {0, 0, 0}, neg[] = {-10, -12, -11, -9};
	struct sample_summary s;

	(void)state;
	/* mean 2/3, sd sqrt(7/3), half-width 4.302653 sd / sqrt(3): 0 in */
	sample_summarize(around0, 3, 0.95, &s);
	assert_float_equal(s.sd, 1.527525, 1e-6);
	assert_float_equal(s.ci, 3.794583, 1e-6);
	assert_false(sample_significant(&s));
	/* no spread: the interval is the point, which is not 0 */
	sample_summarize(same, 3, 0.95, &s);
	assert_float_equal(s.sd, 0, 0);
	assert_float_equal(s.ci, 0, 0);
	assert_true(sample_significant(&s));
	/* a rule that changes nothing */
	sample_summarize(zero, 3, 0.95, &s);
	assert_false(sample_significant(&s));
	/* below 0 counts as well as above */
	sample_summarize(neg, 4, 0.95, &s);
	assert_float_equal(s.mean, -10.5, 1e-12);
	assert_true(sample_significant(&s));
	/* one run: no interval, no verdict */
	sample_summarize(same, 1, 0.95, &s);
	assert_true(isnan(s.ci));
	assert_float_equal(s.sd, 0, 0);
	assert_false(sample_significant(&s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

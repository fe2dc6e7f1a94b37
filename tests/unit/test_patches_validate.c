// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure parts of validate: the diagnostics' comparison
 * key and the per-file summary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "patches/validate.h"
#include "patches/vtool.h"

#include <stdlib.h>
#include <string.h>

static void norm_is(const char *msg, const char *want)
{
	static const char *const prefixes[] = {"/s/.gfpaudit-v/before/",
					       "/s/.gfpaudit-v/after/", "/s/",
					       "/t/", NULL};
	char *got = diag_normalise(msg, prefixes);

	assert_string_equal(got, want);
	free(got);
}

static void test_normalise(void **state)
{
	(void)state;
	/* 6.1 mm/slab.c, direct sparse call on the before and after copies. */
	norm_is("symbol 'ret' has multiple initializers (originally "
		"initialized at /s/.gfpaudit-v/after/mm/slab.c:1094)",
		"symbol 'ret' has multiple initializers (originally "
		"initialized at mm/slab.c)");
	norm_is("symbol 'ret' has multiple initializers (originally "
		"initialized at /s/.gfpaudit-v/before/mm/slab.c:1093)",
		"symbol 'ret' has multiple initializers (originally "
		"initialized at mm/slab.c)");
	norm_is("previous declaration at /t/include/linux/gfp.h:12:5 here",
		"previous declaration at include/linux/gfp.h here");
	/* Numbers that are not line numbers stay. */
	norm_is("incorrect type in argument 2 (different base types)",
		"incorrect type in argument 2 (different base types)");
	norm_is("cast truncates bits from constant value (100000000 becomes 0)",
		"cast truncates bits from constant value (100000000 becomes "
		"0)");
	norm_is("bits 0:3 of x", "bits 0:3 of x");
	norm_is("a.b:12", "a.b");
	norm_is("version 1.2:3", "version 1.2:3");
}

static void test_summary(void **state)
{
	struct vresults r = {0};
	struct vsummary s;

	(void)state;
	vres_add(&r, "1.patch", NULL, "apply", "pass", "ok");
	vres_add(&r, "1.patch", "a.c", "compile", "pass", "ok");
	vres_add(&r, "1.patch", "a.c", "sparse", "inconclusive", "gave up");
	vres_add(&r, "1.patch", "b.c", "compile", "pass", "ok");
	vres_add(&r, "2.patch", "b.c", "compile", "fail", "new error");
	vres_add(&r, "2.patch", "c.c", "compile", "pass", "ok");
	vres_add(&r, "2.patch", "g.h", "compile", "skip", "not a .c file");
	vres_add(&r, "2.patch", NULL, "checkpatch", "fail", "ERROR");
	vres_summary(&r, &s);
	assert_int_equal(s.files, 4);
	assert_int_equal(s.pass, 1);	     /* c.c */
	assert_int_equal(s.fail, 1);	     /* b.c, in its second patch */
	assert_int_equal(s.inconclusive, 1); /* a.c */
	assert_int_equal(s.unchecked, 1);    /* g.h */
	vres_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

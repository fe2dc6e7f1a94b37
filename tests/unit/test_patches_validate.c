// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure parts of validate: the diagnostics' comparison
 * key, the per-file summary, and how an #included .c's includer is read.
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

static void resolve_is(const char *dir, const char *name, const char *want)
{
	char *got = vinclude_resolve(dir, name);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

static void test_resolve(void **state)
{
	(void)state;
	resolve_is("drivers/gpu/drm/i915", "selftests/intel_uncore.c",
		   "drivers/gpu/drm/i915/selftests/intel_uncore.c");
	resolve_is("arch/x86/boot/compressed", "../../../../lib/decompress.c",
		   "lib/decompress.c");
	resolve_is("lib", "./a/../b.c", "lib/b.c");
	resolve_is("", "a.c", "a.c");
	resolve_is("lib", "../../x.c", NULL);
	resolve_is("lib", "/abs.c", NULL);
}

static void test_guards(void **state)
{
	const char *src =
		"#include <linux/slab.h>\n"			      /* 1 */
		"#if IS_ENABLED(CONFIG_A) && !IS_ENABLED(CONFIG_B)\n" /* 2 */
		"# ifdef CONFIG_C\n"				      /* 3 */
		"#  include \"x.c\"\n"				      /* 4 */
		"# endif\n"					      /* 5 */
		"#endif\n"					      /* 6 */
		"#ifndef CONFIG_D\n"				      /* 7 */
		"#include \"y.c\"\n"				      /* 8 */
		"#else\n"					      /* 9 */
		"#include \"z.c\"\n"				      /* 10 */
		"#endif\n"					      /* 11 */
		"#if defined(CONFIG_E) || !defined(CONFIG_F)\n"	      /* 12 */
		"#include \"w.c\"\n";				      /* 13 */
	char **d;
	int n, i;

	(void)state;
	n = vinclude_guards(src, strlen(src), 4, &d);
	assert_int_equal(n, 2);
	assert_string_equal(d[0], "-DCONFIG_A=1");
	assert_string_equal(d[1], "-DCONFIG_C=1");
	for (i = 0; i < n; i++)
		free(d[i]);
	free(d);
	/* Neither #ifndef nor #else is entered by defining something. */
	assert_int_equal(vinclude_guards(src, strlen(src), 8, &d), 0);
	free(d);
	assert_int_equal(vinclude_guards(src, strlen(src), 10, &d), 0);
	free(d);
	n = vinclude_guards(src, strlen(src), 13, &d);
	assert_int_equal(n, 1);
	assert_string_equal(d[0], "-DCONFIG_E=1");
	free(d[0]);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_guards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

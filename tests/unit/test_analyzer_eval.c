// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the analyzer's expression evaluator and gfp models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyzer/gfpeval.h"
#include "analyzer/macroenv.h"
#include "analyzer/names.h"
#include "analyzer/ppexpr.h"
#include "analyzer/tables.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int value(const struct menv_ctx *c, const char *s,
		 unsigned long long *v)
{
	return menv_eval_value(c, s, strlen(s), v);
}

static void test_constants(void **state)
{
	struct menv_ctx c = { NULL, NULL, NULL, NULL, NULL };
	unsigned long long v = 0;

	(void)state;
	assert_true(value(&c, "((0x80000u))", &v));
	assert_int_equal(v, 0x80000);
	assert_true(value(&c, "1 << 3 | 4", &v));
	assert_int_equal(v, 12);
	assert_true(value(&c, "~0x10u & 0xff", &v));
	assert_int_equal(v, 0xef);
	assert_true(value(&c, "(( __force gfp_t)0x10u)", &v));
	assert_int_equal(v, 0x10);
	assert_true(value(&c, "((slab_flags_t __force)0x00020000U)", &v));
	assert_int_equal(v, 0x20000);
	assert_true(value(&c, "BIT(4) + 1", &v));
	assert_int_equal(v, 17);
	assert_true(value(&c, "16 * 2", &v));
	assert_int_equal(v, 32);
	assert_true(value(&c, "1 ? 5 : 6", &v));
	assert_int_equal(v, 5);
	assert_false(value(&c, "gfp | 1", &v));   /* unknown name */
	assert_false(value(&c, "(1 + ", &v));     /* malformed */
	assert_false(value(&c, "1 / 0", &v));
	assert_false(value(&c, "foo(1)", &v));    /* unknown function */
}

static void test_conditions(void **state)
{
	struct macro_env local;
	struct kconfig k;
	struct menv_ctx c = { NULL, NULL, NULL, NULL, NULL };
	const char *s;

	(void)state;
	menv_init(&local);
	menv_set(&local, "A", 1, "2", 1, MDEF_DEFINED, 0);
	menv_set(&local, "B", 1, NULL, 0, MDEF_UNDEF, 0);
	memset(&k, 0, sizeof(k));
	menv_init(&k.opts);
	menv_set(&k.opts, "CONFIG_NUMA", 11, "1", 1, MDEF_DEFINED, 0);
	k.configured = 1;
	c.local = &local;
	c.config = &k;
	s = "defined(A) && A == 2";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), 1);
	s = "defined B";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), 0);
	s = "UNKNOWN_MACRO > 1";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), -1);
	s = "0 && UNKNOWN_MACRO";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), 0);
	s = "IS_ENABLED(CONFIG_NUMA) && !defined(CONFIG_SMP)";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), 1);
	s = "defined(__KERNEL__)";
	assert_int_equal(menv_eval_cond(&c, s, strlen(s)), 1);
	menv_free(&local);
	kconfig_free(&k);
}

static const char *src_dir(void)
{
	static char dir[4096];
	const char *r = rules_dir();

	assert_non_null(r);
	snprintf(dir, sizeof(dir), "%s", r);
	*strrchr(dir, '/') = '\0';
	return dir;
}

static void test_gfp_model_2_6_24(void **state)
{
	struct gfp_model g;
	struct kconfig k;
	char *tree = xasprintf("%s/examples/oldkernel", src_dir());
	struct menv_ctx c;
	unsigned long long v;

	(void)state;
	kconfig_load(&k, tree);
	assert_false(k.configured);
	gfp_model_load(&g, tree, &k);
	assert_true(g.have_gfp);
	assert_false(g.shift_style);
	assert_int_equal(g.reclaimable, 0x80000);
	assert_int_equal(g.movable, 0x100000);
	c = (struct menv_ctx){ NULL, &g.env, &k, NULL, NULL };
	assert_true(value(&c, "GFP_TEMPORARY", &v));
	assert_int_equal(v, 0x800d0);
	assert_string_equal(gfp_migratetype_of(&g, v), "reclaimable");
	assert_string_equal(gfp_migratetype_of(&g, 0x100000), "movable");
	assert_string_equal(gfp_migratetype_of(&g, 0x180000), "reserve");
	assert_string_equal(gfp_migratetype_of(&g, 0xd0), "unmovable");
	gfp_model_free(&g);
	kconfig_free(&k);
	free(tree);
}

static void test_gfp_model_4_x(void **state)
{
	struct gfp_model g;
	struct kconfig k;
	char *tree = xasprintf("%s/examples/minikernel", src_dir());

	(void)state;
	kconfig_load(&k, tree);
	gfp_model_load(&g, tree, &k);
	assert_true(g.shift_style);
	assert_int_equal(g.movable_shift, 3);
	assert_string_equal(gfp_migratetype_of(&g, 0x08), "movable");
	assert_string_equal(gfp_migratetype_of(&g, 0x10), "reclaimable");
	assert_string_equal(gfp_migratetype_of(&g, 0x18), "highatomic");
	assert_int_equal(g.slab_reclaim, 0x20000);
	gfp_model_free(&g);
	kconfig_free(&k);
	free(tree);
}

static void test_names_prefilter(void **state)
{
	struct name_set s;
	const char *text = "x = 0x80000u; /* kmallocx */ kmalloc(1, 2);";

	(void)state;
	names_init(&s);
	names_put(&s, "kmalloc", 7, 1);
	assert_true(names_any_in(&s, text, strlen(text)));
	assert_false(names_any_in(&s, text, 25)); /* only kmallocx there */
	assert_int_equal(names_get(&s, "kmallocx", 7), 1);
	assert_int_equal(names_get(&s, "kmallocx", 8), -1);
	names_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_gfp_model_2_6_24),
		cmocka_unit_test(test_gfp_model_4_x),
		cmocka_unit_test(test_names_prefilter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

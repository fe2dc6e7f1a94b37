// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for analyzer/scope.c: which files a scan scoped to a
 * rule's flags takes, the calls that take one of the flags as an
 * argument, and the files that look like they define one of those.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyzer/scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *temporary[] = {"GFP_TEMPORARY"};

static int callee(const struct scope *s, const char *name)
{
	return names_get(&s->callees, name, strlen(name)) >= 0;
}

static void test_match(void **state)
{
	static const char text[] =
		"/* GFP_TEMPORARY in a comment */\n"
		"void *p = tmpbuf_zalloc(32, GFP_TEMPORARY);\n"
		"f(1, g(2, GFP_TEMPORARY | __GFP_ZERO));\n"
		"if (gfp == GFP_TEMPORARY) sizeof(GFP_TEMPORARY);\n"
		"a(1); b = GFP_TEMPORARY;\n"
		"puts(\"GFP_TEMPORARY\");\n";
	struct scope s;

	(void)state;
	scope_init(&s, temporary, 1);
	assert_int_equal(scope_match(&s, text, sizeof(text) - 1), 1);
	assert_true(callee(&s, "tmpbuf_zalloc"));
	assert_true(callee(&s, "f"));
	assert_true(callee(&s, "g"));
	/* Keywords, finished statements and strings are no calls of it. */
	assert_false(callee(&s, "if"));
	assert_false(callee(&s, "sizeof"));
	assert_false(callee(&s, "a"));
	assert_false(callee(&s, "puts"));
	scope_free(&s);

	scope_init(&s, temporary, 1);
	/* A longer name is not the name. */
	assert_int_equal(scope_match(&s, "x(GFP_TEMPORARYX);", 18), 0);
	assert_int_equal(s.callees.n, 0);
	scope_free(&s);
}

static void test_deep_parens(void **state)
{
	struct scope s;
	char buf[1024];
	int i, n = 0;

	(void)state;
	/*
	 * c0(c1(...c69( : more open calls than are kept.  Ten of them
	 * closed, then the flag: c0..c59 take it, c60 and deeper do not.
	 */
	for (i = 0; i < 70; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "c%d(", i);
	for (i = 0; i < 10; i++)
		buf[n++] = ')';
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "GFP_TEMPORARY");
	scope_init(&s, temporary, 1);
	assert_int_equal(scope_match(&s, buf, (size_t)n), 1);
	assert_true(callee(&s, "c0"));
	assert_true(callee(&s, "c59"));
	assert_false(callee(&s, "c60"));
	scope_free(&s);
}

static void test_defines(void **state)
{
	static const char use[] = "int f(void)\n{\n\treturn tmpbuf_zalloc(1, "
				  "GFP_KERNEL) != 0;\n}\n";
	static const char mac[] = "#define tmpbuf_zalloc(sz, gfp) "
				  "kzalloc((sz), (gfp))\n";
	static const char fn[] = "static inline void *\ntmpbuf_zalloc(size_t "
				 "sz, gfp_t gfp)\n{\n}\n";
	struct scope s;

	(void)state;
	scope_init(&s, temporary, 1);
	assert_int_equal(scope_defines_callee(&s, mac, sizeof(mac) - 1), 0);
	scope_match(&s, "x = tmpbuf_zalloc(32, GFP_TEMPORARY);", 37);
	assert_int_equal(scope_defines_callee(&s, use, sizeof(use) - 1), 0);
	assert_int_equal(scope_defines_callee(&s, mac, sizeof(mac) - 1), 1);
	assert_int_equal(scope_defines_callee(&s, fn, sizeof(fn) - 1), 1);
	scope_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_deep_parens),
		cmocka_unit_test(test_defines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for analyzer/names.c: the identifier set and the per-file
 * identifier sets (name_sig) the learned-allocator passes select with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyzer/names.h"

#include <stdio.h>
#include <string.h>

static int sig_has(const struct name_sig *g, const char *const *names, size_t n)
{
	uint32_t h[8];
	size_t i, k = n;

	for (i = 0; i < n; i++)
		h[i] = name_sig_hash(names[i], strlen(names[i]));
	name_sig_sort(h, &k);
	return name_sig_meets(g, h, k);
}

static void test_sig(void **state)
{
	static const char text[] =
		"static void *foo_alloc(gfp_t gfp)\n"
		"{\n\treturn kmalloc(8, gfp); /* bar_alloc */ }\n"
		"int x = 0x80000u; char *s = \"in_string\";\n";
	const char *foo[] = {"foo_alloc"}, *bar[] = {"bar_alloc"};
	const char *str[] = {"in_string"}, *num[] = {"x80000u"};
	const char *none[] = {"kzalloc", "foo", "alloc", "kmallo"};
	const char *mixed[] = {"zz_top", "aa_first", "kmalloc"};
	struct name_sig g, empty;

	(void)state;
	name_sig_build(&g, text, sizeof(text) - 1);
	assert_true(sig_has(&g, foo, 1));
	/* Comments and strings count, as for the prefilter. */
	assert_true(sig_has(&g, bar, 1));
	assert_true(sig_has(&g, str, 1));
	/* A number is no identifier; parts of names are not names. */
	assert_false(sig_has(&g, num, 1));
	assert_false(sig_has(&g, none, 4));
	/* Any one of several, wherever it sorts. */
	assert_true(sig_has(&g, mixed, 3));
	assert_false(sig_has(&g, mixed, 0));
	name_sig_free(&g);

	/* A file with no identifier has an empty set, not "unknown". */
	name_sig_build(&empty, "123 + 456;\n", 11);
	assert_non_null(empty.h);
	assert_int_equal(empty.n, 0);
	assert_false(sig_has(&empty, foo, 1));
	name_sig_free(&empty);

	/* No set at all: the file may name anything. */
	assert_null(empty.h);
	assert_true(sig_has(&empty, foo, 1));
}

/*
 * Many keys: the table grows several times, moving each key with its
 * stored hash; every key is still found with its last value, by
 * names_get() and names_get_hashed() alike, and near misses are not.
 */
static void test_grow(void **state)
{
	struct name_set s;
	char name[32];
	int i;

	(void)state;
	names_init(&s);
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "fn_%d", i);
		names_put(&s, name, strlen(name), i);
	}
	for (i = 0; i < 20000; i += 2) {
		snprintf(name, sizeof(name), "fn_%d", i);
		names_put(&s, name, strlen(name), -i - 2);
	}
	assert_int_equal(s.n, 20000);
	for (i = 0; i < 20000; i++) {
		size_t len;

		snprintf(name, sizeof(name), "fn_%d", i);
		len = strlen(name);
		assert_int_equal(names_get(&s, name, len), i % 2 ? i : -i - 2);
		assert_int_equal(names_get_hashed(&s, name, len,
						  names_hash(name, len)),
				 names_get(&s, name, len));
		/* the key with a byte more is another name */
		name[len] = 'x';
		assert_int_equal(names_get(&s, name, len + 1), -1);
	}
	assert_int_equal(names_get(&s, "fn_20000", 8), -1);
	assert_int_equal(names_get(&s, "fn_", 3), -1);
	names_free(&s);
}

/* Room made at once, also when names are already in: nothing is lost. */
static void test_reserve(void **state)
{
	struct name_set s;
	char name[32];
	size_t cap;
	int i;

	(void)state;
	names_init(&s);
	names_put(&s, "before", 6, 7);
	names_reserve(&s, 5000);
	assert_true(s.cap >= 10000);
	cap = s.cap;
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "r_%d", i);
		names_put(&s, name, strlen(name), i);
	}
	assert_int_equal(s.cap, cap); /* no growing after the reserve */
	assert_int_equal(names_get(&s, "before", 6), 7);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "r_%d", i);
		assert_int_equal(names_get(&s, name, strlen(name)), i);
	}
	names_reserve(&s, 10); /* never shrinks */
	assert_int_equal(s.cap, cap);
	names_free(&s);
}

static void test_sort_unique(void **state)
{
	uint32_t h[] = {5, 3, 5, 1, 3, 3};
	size_t n = 6;

	(void)state;
	name_sig_sort(h, &n);
	assert_int_equal(n, 3);
	assert_int_equal(h[0], 1);
	assert_int_equal(h[1], 3);
	assert_int_equal(h[2], 5);
	n = 0;
	name_sig_sort(h, &n);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sig),
		cmocka_unit_test(test_sort_unique),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

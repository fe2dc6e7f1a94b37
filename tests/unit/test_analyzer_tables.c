// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the knowledge-file readers in analyzer/tables.c
 * (tracked-flags.txt, sleepers.txt, allocators.txt, atomic.txt,
 * lifetime.txt), fed from memory as the fuzz target does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyzer/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *mem(const char *s, size_t n)
{
	FILE *fp = fmemopen((void *)s, n, "r");

	assert_non_null(fp);
	return fp;
}

static int flags_of(const char *s, size_t n, struct tracked_flags *t)
{
	FILE *fp = mem(s, n);
	int rc = tracked_flags_read(fp, "t.txt", t);

	fclose(fp);
	return rc;
}

static void test_tracked_flags(void **state)
{
	static const char good[] = "# flags\nGFP_TEMPORARY\n\n"
				   "  __GFP_RECLAIMABLE # c\n"
				   "GFP_TEMPORARY\n";
	struct tracked_flags t;

	(void)state;
	assert_int_equal(flags_of(good, strlen(good), &t), 0);
	assert_int_equal(t.n, 2); /* the repeated name once */
	assert_string_equal(t.names[1], "__GFP_RECLAIMABLE");
	assert_int_equal(names_get(&t.set, "__GFP_RECLAIMABLE", 17), 1);
	tracked_flags_free(&t);
	/* A bad line fails and leaves nothing behind to free. */
	assert_int_equal(flags_of("A\nB C\n", 6, &t), -1);
	assert_int_equal(t.n, 0);
	assert_null(t.names);
	assert_int_equal(flags_of("A\n1x\n", 5, &t), -1);
}

static void test_long_line(void **state)
{
	struct tracked_flags t;
	char buf[1024];

	(void)state;
	/*
	 * A 700-byte comment used to be read as two lines, the second half
	 * misread as a bad identifier line: now it is an error of its own.
	 */
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "A\n# ", 4);
	buf[704] = '\n';
	memcpy(buf + 705, "B\n", 2);
	assert_int_equal(flags_of(buf, 707, &t), -1);
	/* The longest line that fits, with and without its newline. */
	memset(buf, 'y', 510);
	buf[0] = 'Y';
	buf[510] = '\n';
	assert_int_equal(flags_of(buf, 511, &t), 0);
	assert_int_equal(t.n, 1);
	tracked_flags_free(&t);
	buf[510] = 'y';
	assert_int_equal(flags_of(buf, 511, &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(strlen(t.names[0]), 511);
	tracked_flags_free(&t);
}

static void test_allocators(void **state)
{
	static const char good[] = "kmalloc alloc slab 1 0\n"
				   "kfree free slab - -\n"
				   "kvfree_rcu free vmalloc - - 1\n";
	static const char bad[] = "kmalloc alloc slab 33 0\n";
	struct alloc_table a;
	const struct alloc_fn *f;
	FILE *fp;

	(void)state;
	alloc_table_init(&a);
	fp = mem(good, strlen(good));
	assert_int_equal(allocators_read(fp, "a.txt", &a), 0);
	fclose(fp);
	f = alloc_lookup(&a, "kmalloc", 7);
	assert_non_null(f);
	assert_int_equal(f->gfp_arg, 1);
	assert_int_equal(f->size_arg, 0);
	assert_int_equal(alloc_lookup(&a, "kfree", 5)->ptr_arg, 0);
	assert_int_equal(alloc_lookup(&a, "kvfree_rcu", 10)->ptr_arg, 1);
	fp = mem(bad, strlen(bad));
	assert_int_equal(allocators_read(fp, "a.txt", &a), -1);
	fclose(fp);
	alloc_table_free(&a);
}

static void test_keyed(void **state)
{
	static const char good[] = "enter spin_lock\nleave spin_unlock 15\n";
	static const char bad[] = "enter spin_lock 16\n";
	struct name_set s[AT_KINDS];
	FILE *fp;
	int i;

	(void)state;
	for (i = 0; i < AT_KINDS; i++)
		names_init(&s[i]);
	fp = mem(good, strlen(good));
	assert_int_equal(keyed_names_read(fp, "k.txt", atomic_kinds, s), 0);
	fclose(fp);
	assert_int_equal(names_get(&s[AT_ENTER], "spin_lock", 9), 0);
	assert_int_equal(names_get(&s[AT_LEAVE], "spin_unlock", 11), 15);
	fp = mem(bad, strlen(bad));
	assert_int_equal(keyed_names_read(fp, "k.txt", atomic_kinds, s), -1);
	fclose(fp);
	fp = mem("store x\n", 8); /* a lifetime kind in an atomic file */
	assert_int_equal(keyed_names_read(fp, "k.txt", atomic_kinds, s), -1);
	fclose(fp);
	for (i = 0; i < AT_KINDS; i++)
		names_free(&s[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracked_flags),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_keyed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

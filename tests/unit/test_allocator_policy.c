// SPDX-License-Identifier: GPL-2.0
/*
 * The policies' fallback tables, entry by entry, against the kernels'
 * mm/page_alloc.c, and their steal rules.  Expected rows transcribed from:
 *  - Linux 6.1 mm/page_alloc.c, static int fallbacks[MIGRATE_TYPES][3]
 *    (Debian linux-source-6.1; t4001 also re-reads the installed source)
 *  - Linux 2.6.24 mm/page_alloc.c, static int
 *    fallbacks[MIGRATE_TYPES][MIGRATE_TYPES-1], as left by Mel Gorman's
 *    "Group short-lived and reclaimable kernel allocations" (the seed
 *    patch: three types) and "Bias the location of pages freed for
 *    min_free_kbytes in the same pageblock_nr_pages areas" (MIGRATE_RESERVE
 *    appended), both in 2.6.24-rc1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"

#define U MIGRATE_UNMOVABLE
#define M MIGRATE_MOVABLE
#define R MIGRATE_RECLAIMABLE
#define RES MIGRATE_RESERVE
#define END MIGRATE_TYPES

struct row {
	int mt;
	int fb[MAX_FALLBACKS];
};

static void check_rows(const struct alloc_policy *p, const struct row *rows,
		       int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < MAX_FALLBACKS; j++) {
			if (p->fallbacks[rows[i].mt][j] != rows[i].fb[j])
				fail_msg("%s fallbacks[%s][%d] = %s, kernel "
					 "has %s",
					 p->name, migratetype_names[rows[i].mt],
					 j,
					 p->fallbacks[rows[i].mt][j] == END
						 ? "END"
						 : migratetype_names
							   [p->fallbacks
								    [rows[i].mt]
								    [j]],
					 rows[i].fb[j] == END
						 ? "END"
						 : migratetype_names
							   [rows[i].fb[j]]);
			if (rows[i].fb[j] == END)
				break;
		}
}

static void test_table_61(void **state)
{
	/* clang-format off */
	static const struct row rows[] = {
		{ U, { R, M, END } },
		{ M, { R, U, END } },
		{ R, { U, M, END } },
		{ MIGRATE_HIGHATOMIC, { END } },
		{ MIGRATE_ISOLATE, { END } },
	};
	/* clang-format on */

	(void)state;
	check_rows(&policy_61, rows, 5);
	check_rows(&policy_nogroup, rows, 5);
	assert_true(policy_nogroup.mobility_disabled);
	assert_false(policy_61.mobility_disabled);
}

static void test_table_2624(void **state)
{
	static const struct row rows[] = {
		{U, {R, M, RES, END}},
		{R, {U, M, RES, END}},
		{M, {R, U, RES, END}},
		{RES, {RES, RES, RES, END}},
	};

	(void)state;
	check_rows(&policy_2624, rows, 4);
	assert_true(policy_2624.has_reserve);
}

/* 6.1 can_steal_fallback(): true from order 4 (pageblock_order / 2) up,
 * and always for UNMOVABLE and RECLAIMABLE requests. */
static void test_can_steal_61(void **state)
{
	struct zone z;
	unsigned int o;

	(void)state;
	zone_init(&z, "Normal", 1024, &policy_61);
	for (o = 0; o < MAX_ORDER; o++) {
		assert_true(can_steal_fallback(&z, o, U));
		assert_true(can_steal_fallback(&z, o, R));
		assert_int_equal(can_steal_fallback(&z, o, M), o >= 4);
	}
	zone_destroy(&z);
	zone_init(&z, "Normal", 1024, &policy_nogroup);
	for (o = 0; o < MAX_ORDER; o++)
		assert_true(can_steal_fallback(&z, o, M));
	zone_destroy(&z);
}

/*
 * 2.6.24 steal rule: a reclaimable request falling back claims the block
 * when half of it is free; an unmovable order-0 request splitting a small
 * block leaves the block's type alone.
 */
static void test_steal_rule_2624(void **state)
{
	struct zone z;
	uint32_t pfn;
	int i;

	(void)state;
	/*
	 * 2048 pages: min_free_kbytes sqrt(8192 * 16) = 362 -> one
	 * MIGRATE_RESERVE block (block 0); block 2 (pfn 1024..1535) is a
	 * plain movable block to play with.
	 */
	zone_init(&z, "Normal", 2048, &policy_2624);
	z.debug_checks = true;
	assert_int_equal(get_pageblock_migratetype(&z, 0), RES);
	for (i = 0; i < 2048; i++)
		alloc_pages(&z, 0, M, 0, OWNER_PAGE, 0);
	for (i = 0; i < 300; i++)
		free_pages(&z, 1024 + (uint32_t)i);
	/* largest free block is order 8 (256 pages) >= pageblock_order/2 */
	pfn = alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_true(pfn >= 1024 && pfn < 1536);
	assert_int_equal(get_pageblock_migratetype(&z, pfn), U);
	assert_int_equal(z.stats.steals, 1);
	assert_int_equal(z.stats.polluting_unmovable, 0);
	zone_destroy(&z);

	zone_init(&z, "Normal", 2048, &policy_2624);
	z.debug_checks = true;
	for (i = 0; i < 2048; i++)
		alloc_pages(&z, 0, M, 0, OWNER_PAGE, 0);
	free_pages(&z, 1031); /* one free page: no steal for unmovable */
	pfn = alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_int_equal(pfn, 1031);
	assert_int_equal(get_pageblock_migratetype(&z, pfn), M);
	assert_int_equal(z.stats.steals, 0);
	assert_int_equal(z.stats.fallbacks, 1);
	assert_int_equal(z.stats.polluting_unmovable, 1);
	free_pages(&z, 1031);
	free_pages(&z, 1033);
	/* reclaimable moves the free pages, but 2 are not half a block */
	pfn = alloc_pages(&z, 0, R, 0, OWNER_PAGE, 0);
	assert_true(pfn == 1031 || pfn == 1033);
	assert_int_equal(get_pageblock_migratetype(&z, pfn), M);
	/* ... and the other free page went to the reclaimable list */
	assert_int_equal(z.free_area[0].nr_free_mt[R], 1);
	zone_destroy(&z);
}

/*
 * The what-if 2.6.24+9c0415e: the same small unmovable fallback moves the
 * block's other free pages to the unmovable lists (4.0's rule), so the
 * next unmovable refill finds them there instead of falling back again.
 */
static void test_steal_rule_2624_9c0415e(void **state)
{
	struct zone z;
	uint32_t pfn;
	int i;

	(void)state;
	assert_ptr_equal(policy_find("2.6.24+9c0415e"), &policy_2624_9c0415e);
	zone_init(&z, "Normal", 2048, &policy_2624_9c0415e);
	z.debug_checks = true;
	zone_set_pcp(&z, false);
	for (i = 0; i < 2048; i++)
		alloc_pages(&z, 0, M, 0, OWNER_PAGE, 0);
	free_pages(&z, 1031);
	free_pages(&z, 1033);
	pfn = alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_true(pfn == 1031 || pfn == 1033);
	/* two free pages are not half a block: moved, not claimed */
	assert_int_equal(get_pageblock_migratetype(&z, pfn), M);
	assert_int_equal(z.free_area[0].nr_free_mt[U], 1);
	assert_int_equal(z.stats.polluting_unmovable, 0);
	/* the next unmovable request needs no fallback */
	alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_int_equal(z.stats.fallbacks, 1);
	zone_destroy(&z);

	/* under plain 2.6.24 the same two requests fall back twice */
	zone_init(&z, "Normal", 2048, &policy_2624);
	zone_set_pcp(&z, false);
	for (i = 0; i < 2048; i++)
		alloc_pages(&z, 0, M, 0, OWNER_PAGE, 0);
	free_pages(&z, 1031);
	free_pages(&z, 1033);
	alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_int_equal(z.stats.fallbacks, 2);
	assert_int_equal(z.stats.polluting_unmovable, 2);
	zone_destroy(&z);
}

/* 6.1 steal_suitable_fallback(): unmovable from a movable block counts
 * the block's non-movable pages as alike. */
static void test_alike_pages_61(void **state)
{
	struct zone z;
	uint32_t pfn;
	int i;

	(void)state;
	zone_init(&z, "Normal", 1024, &policy_61);
	z.debug_checks = true;
	for (i = 0; i < 1024; i++)
		alloc_pages(&z, 0, M, 0, OWNER_PAGE, 0);
	/* free 10 pages of block 1: 10 free + 0 alike < 256: no claim */
	for (i = 0; i < 10; i++)
		free_pages(&z, 512 + (uint32_t)i * 2);
	pfn = alloc_pages(&z, 0, U, 0, OWNER_PAGE, 0);
	assert_true(pfn >= 512);
	assert_int_equal(get_pageblock_migratetype(&z, pfn), M);
	zone_destroy(&z);
}

static void test_lookup(void **state)
{
	(void)state;
	assert_ptr_equal(policy_find("6.1"), &policy_61);
	assert_ptr_equal(policy_find("2.6.24"), &policy_2624);
	assert_ptr_equal(policy_find("nogroup"), &policy_nogroup);
	assert_null(policy_find("5.0"));
	assert_ptr_equal(policy_for_version("2.6.22"), &policy_nogroup);
	assert_ptr_equal(policy_for_version("2.6.24"), &policy_2624);
	assert_ptr_equal(policy_for_version("3.10.0"), &policy_2624);
	assert_ptr_equal(policy_for_version("4.13"), &policy_61);
	assert_ptr_equal(policy_for_version("6.1.0"), &policy_61);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_61),
		cmocka_unit_test(test_table_2624),
		cmocka_unit_test(test_can_steal_61),
		cmocka_unit_test(test_steal_rule_2624),
		cmocka_unit_test(test_steal_rule_2624_9c0415e),
		cmocka_unit_test(test_alike_pages_61),
		cmocka_unit_test(test_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

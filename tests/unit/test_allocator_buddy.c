// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy core: splitting, coalescing, fallback and stealing, with the
 * invariant checker after every operation, and a randomized operation
 * fuzzer under every policy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"

static void assert_zone_ok(const struct zone *z)
{
	char err[256] = "";

	if (check_zone(z, err, sizeof(err)) < 0)
		fail_msg("invariant: %s", err);
}

static void test_init_all_free(void **state)
{
	struct zone z;

	(void)state;
	assert_int_equal(zone_init(&z, "Normal", 4096 + 100, &policy_61), 0);
	assert_int_equal(z.nr_pages, 4096);
	assert_int_equal(z.free_pages, 4096);
	assert_int_equal(z.free_area[MAX_ORDER - 1].nr_free, 4);
	assert_int_equal(z.nr_blocks[MIGRATE_MOVABLE], 8);
	assert_zone_ok(&z);
	zone_destroy(&z);
}

static void test_split_and_coalesce(void **state)
{
	struct zone z;
	uint32_t a, b;
	int o;

	(void)state;
	zone_init(&z, "Normal", 1024, &policy_61);
	zone_set_pcp(&z, false); /* exact buddy behaviour */
	z.debug_checks = true;
	a = alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 1);
	assert_int_equal(a, 0);
	/* one free block of each order 0..9 remains */
	for (o = 0; o < MAX_ORDER - 1; o++)
		assert_int_equal(z.free_area[o].nr_free, 1);
	b = alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 2);
	assert_int_equal(b, 1);
	assert_int_equal(z.free_area[0].nr_free, 0);
	assert_int_equal(free_pages(&z, a), 0);
	assert_int_equal(free_pages(&z, a), -1); /* double free refused */
	assert_int_equal(free_pages(&z, b), 0);
	assert_int_equal(z.free_area[MAX_ORDER - 1].nr_free, 1);
	assert_int_equal(z.free_pages, 1024);
	zone_destroy(&z);
}

/* An unmovable request on an all-movable zone steals a whole block. */
static void test_fallback_steals_block(void **state)
{
	const struct alloc_policy *const *p;

	(void)state;
	for (p = alloc_policies; *p; p++) {
		struct zone z;
		uint32_t pfn;

		zone_init(&z, "Normal", 2048, *p);
		z.debug_checks = true;
		pfn = alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, 1);
		assert_int_not_equal(pfn, NIL_PFN);
		assert_int_equal(z.stats.fallbacks, 1);
		assert_int_equal(z.stats.steals, 1);
		assert_int_equal(get_pageblock_migratetype(&z, pfn),
				 MIGRATE_UNMOVABLE);
		/* the next unmovable one needs no fallback */
		alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, 2);
		assert_int_equal(z.stats.fallbacks, 1);
		zone_destroy(&z);
	}
}

/*
 * 6.1: a movable request that cannot steal splits the smallest fallback
 * page instead of the largest (no permanent fragmentation); 2.6.24 takes
 * the largest and keeps the block's type when less than half is free.
 */
static void test_movable_fallback_smallest(void **state)
{
	struct zone z;
	unsigned long steals;
	uint32_t pfn;
	int i;

	(void)state;
	zone_init(&z, "Normal", 1024, &policy_61);
	z.debug_checks = true;
	/* turn both blocks unmovable, fill them, free one page in each */
	for (i = 0; i < 1024; i++)
		alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, i);
	assert_int_equal(z.free_pages, 0);
	assert_int_equal(z.nr_blocks[MIGRATE_UNMOVABLE], 2);
	free_pages(&z, 5);
	free_pages(&z, 600);
	steals = z.stats.steals;
	pfn = alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 9);
	assert_true(pfn == 5 || pfn == 600);
	assert_int_equal(z.stats.steals, steals);
	assert_int_equal(z.nr_blocks[MIGRATE_UNMOVABLE], 2);
	zone_destroy(&z);
}

static void test_2624_reserve(void **state)
{
	struct zone z;

	(void)state;
	/* 1 GB: min_free_kbytes 4096 -> 1024 pages -> 2 reserve blocks */
	zone_init(&z, "Normal", 262144, &policy_2624);
	assert_int_equal(z.nr_blocks[MIGRATE_RESERVE], 2);
	assert_zone_ok(&z);
	zone_destroy(&z);
}

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void fuzz_policy(const struct alloc_policy *p, bool highatomic, bool pcp)
{
	enum { NR = 2048, OPS = 20000 };
	static uint32_t live[NR];
	unsigned int nlive = 0, op;
	struct zone z;

	zone_init(&z, "Normal", NR, p);
	zone_set_pcp(&z, pcp);
	z.highatomic = highatomic && p->has_highatomic;
	/* check_zone() after every alloc_pages() and free_pages() */
	z.debug_checks = true;
	for (op = 0; op < OPS; op++) {
		uint64_t r = xorshift();
		bool do_alloc = nlive == 0 || (r & 7) < 5;

		if (do_alloc && nlive < NR) {
			unsigned int order =
				(r >> 8) % 16 == 0
					? (unsigned int)((r >> 12) % MAX_ORDER)
					: (unsigned int)((r >> 12) % 3);
			int mt = (int)((r >> 20) % 3);
			unsigned int flags =
				((r >> 24) & 15) == 0 ? ALLOC_HARDER : 0;
			uint32_t pfn = alloc_pages(&z, order, mt, flags,
						   OWNER_PAGE, op);

			if (pfn != NIL_PFN)
				live[nlive++] = pfn;
		} else if (nlive) {
			unsigned int i = (unsigned int)((r >> 32) % nlive);

			assert_int_equal(free_pages(&z, live[i]), 0);
			live[i] = live[--nlive];
		}
	}
	while (nlive)
		assert_int_equal(free_pages(&z, live[--nlive]), 0);
	drain_all_pages(&z);
	assert_zone_ok(&z);
	assert_int_equal(z.free_pages, z.nr_pages);
	/* everything freed: the zone is whole MAX_ORDER blocks again */
	if (!p->has_reserve && !z.highatomic)
		assert_int_equal(z.free_area[MAX_ORDER - 1].nr_free,
				 NR >> (MAX_ORDER - 1));
	zone_destroy(&z);
}

static void test_fuzz_all_policies(void **state)
{
	const struct alloc_policy *const *p;

	(void)state;
	for (p = alloc_policies; *p; p++) {
		fuzz_policy(*p, false, false);
		fuzz_policy(*p, true, false);
		fuzz_policy(*p, false, true);
		fuzz_policy(*p, true, true);
	}
}

/* The checker itself catches broken state (it is not a test that can't fail).
 */
static void test_checker_detects(void **state)
{
	struct zone z;
	char err[256];
	uint32_t pfn;

	(void)state;
	zone_init(&z, "Normal", 1024, &policy_61);
	pfn = alloc_pages(&z, 3, MIGRATE_MOVABLE, 0, OWNER_PAGE, 1);
	z.pages[pfn].flags = 0; /* lose the block */
	assert_int_equal(check_zone(&z, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no free or allocated block"));
	z.pages[pfn].flags = PG_head;
	z.free_area[0].nr_free++;
	assert_int_equal(check_zone(&z, err, sizeof(err)), -1);
	z.free_area[0].nr_free--;
	z.nr_blocks[MIGRATE_MOVABLE]--;
	assert_int_equal(check_zone(&z, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pageblocks"));
	zone_destroy(&z);
}

static void test_page_size(void **state)
{
	(void)state;
	assert_true(sizeof(struct page) <= 64);
	assert_int_equal(sizeof(struct page), 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_all_free),
		cmocka_unit_test(test_split_and_coalesce),
		cmocka_unit_test(test_fallback_steals_block),
		cmocka_unit_test(test_movable_fallback_smallest),
		cmocka_unit_test(test_2624_reserve),
		cmocka_unit_test(test_fuzz_all_policies),
		cmocka_unit_test(test_checker_detects),
		cmocka_unit_test(test_page_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

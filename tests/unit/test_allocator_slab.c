// SPDX-License-Identifier: GPL-2.0
/*
 * The slab layer (version-aware kmalloc, SLAB_RECLAIM_ACCOUNT caches),
 * compaction at rest, and the vmstat.c metrics on model zones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "allocator/compaction.h"
#include "allocator/policy.h"
#include "allocator/slab.h"
#include "allocator/vmstat.h"

static int slab_mt(struct slab_layer *sl, uint32_t handle)
{
	if (handle & HANDLE_LARGE)
		return get_pageblock_migratetype(sl->zone,
						 handle & ~HANDLE_LARGE);
	return sl->zone->pages[sl->slabs[handle >> SLAB_OBJ_BITS].pfn].mt;
}

static void test_kmalloc_versions(void **state)
{
	struct slab_layer old, cur;
	struct zone z1, z2;
	uint32_t h;

	(void)state;
	zone_init(&z1, "Normal", 4096, &policy_61);
	zone_init(&z2, "Normal", 4096, &policy_61);
	z1.debug_checks = z2.debug_checks = true;
	slab_init(&old, &z1, "4.13");
	slab_init(&cur, &z2, "4.20");
	assert_false(old.kmalloc_rcl);
	assert_true(cur.kmalloc_rcl);
	/* 4.13: kmalloc(GFP_TEMPORARY) lands in unmovable kmalloc-512 */
	h = kmalloc(&old, 500, MIGRATE_RECLAIMABLE);
	assert_string_equal(
		old.caches[kmalloc_cache(&old, 500, MIGRATE_RECLAIMABLE)].name,
		"kmalloc-512");
	assert_int_equal(slab_mt(&old, h), MIGRATE_UNMOVABLE);
	kfree(&old, h);
	/* 4.20: kmalloc-rcl-512, a reclaimable slab page */
	h = kmalloc(&cur, 500, MIGRATE_RECLAIMABLE);
	assert_string_equal(
		cur.caches[kmalloc_cache(&cur, 500, MIGRATE_RECLAIMABLE)].name,
		"kmalloc-rcl-512");
	assert_int_equal(slab_mt(&cur, h), MIGRATE_RECLAIMABLE);
	kfree(&cur, h);
	/* kmalloc_large honours the caller's mobility on both */
	h = kmalloc(&old, 20000, MIGRATE_RECLAIMABLE);
	assert_true(h & HANDLE_LARGE);
	assert_int_equal(z1.pages[h & ~HANDLE_LARGE].order, 3);
	assert_int_equal(z1.pages[h & ~HANDLE_LARGE].mt, MIGRATE_RECLAIMABLE);
	kfree(&old, h);
	/* even a movable kmalloc_large is not something compaction moves */
	h = kmalloc(&old, 20000, MIGRATE_MOVABLE);
	assert_int_equal(z1.pages[h & ~HANDLE_LARGE].owner, OWNER_SLAB);
	kfree(&old, h);
	drain_all_pages(&z1);
	drain_all_pages(&z2);
	/* everything freed: the zone is whole again */
	assert_int_equal(z1.free_pages, 4096);
	assert_int_equal(z2.free_pages, 4096);
	slab_destroy(&old);
	slab_destroy(&cur);
	zone_destroy(&z1);
	zone_destroy(&z2);
}

static void test_named_cache(void **state)
{
	struct slab_layer sl;
	struct zone z;
	uint32_t h[100];
	int dentry, i;

	(void)state;
	zone_init(&z, "Normal", 4096, &policy_61);
	z.debug_checks = true;
	slab_init(&sl, &z, NULL);
	dentry = kmem_cache_create(&sl, "dentry", 192, SLAB_RECLAIM_ACCOUNT);
	assert_int_equal(sl.caches[dentry].migratetype, MIGRATE_RECLAIMABLE);
	/* 192 bytes: 21 per page, order 0 holds the 12 SLUB wants */
	assert_int_equal(sl.caches[dentry].order, 0);
	assert_int_equal(sl.caches[dentry].objects, 21);
	for (i = 0; i < 100; i++)
		h[i] = kmem_cache_alloc(&sl, dentry);
	assert_int_equal(sl.caches[dentry].nr_slabs, 5);
	assert_int_equal(slab_pages(&sl, MIGRATE_RECLAIMABLE), 5);
	/* the first fallback took an order-10 block: both its pageblocks */
	assert_int_equal(z.nr_blocks[MIGRATE_RECLAIMABLE], 2);
	for (i = 0; i < 100; i++)
		kmem_cache_free(&sl, h[i]);
	assert_int_equal(sl.caches[dentry].nr_slabs, 0);
	/* the freed slab pages sit on the pcp list until drained */
	assert_int_equal(z.free_pages + (unsigned long)z.pcp.count, 4096);
	drain_all_pages(&z);
	assert_int_equal(z.free_pages, 4096);
	slab_destroy(&sl);
	zone_destroy(&z);
}

static uint32_t moved_from, moved_to, moves;

static void on_migrate(void *owner, uint32_t handle, uint32_t old_pfn,
		       uint32_t new_pfn)
{
	(void)owner;
	(void)handle;
	moved_from = old_pfn;
	moved_to = new_pfn;
	moves++;
}

/* Movable pages scattered over the low blocks move up; unmovable stay. */
static void test_compaction(void **state)
{
	struct zone z;
	struct compact_result cr;
	uint32_t pfn, unmov;
	int i;

	(void)state;
	zone_init(&z, "Normal", 4096, &policy_61);
	zone_set_pcp(&z,
		     false); /* the hand count below is for the buddy lists */
	z.debug_checks = true;
	z.migrate_cb = on_migrate;
	for (i = 0; i < 4096; i++)
		alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGECACHE,
			    (uint32_t)i);
	/* keep one movable page in every 8th of the lower half, free the rest
	 */
	for (pfn = 0; pfn < 4096; pfn++)
		if (pfn >= 2048 || pfn % 64)
			free_pages(&z, pfn);
	unmov = alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, 0);
	assert_int_equal(zone_free_order9(&z), 3);
	compact_zone(&z, &cr);
	assert_int_equal(cr.migrated, moves);
	assert_true(cr.migrated >= 24);
	/*
	 * The unmovable request stole an order-10 block (blocks 4 and 5);
	 * blocks 6-7 are free and never targets, so the free scanner fills
	 * block 3 and blocks 0-2 come free: 0, 1, 2, 5, 6, 7.
	 */
	assert_int_equal(zone_free_order9(&z), 6);
	assert_int_equal(z.free_area[0].nr_free + z.free_area[1].nr_free > 0,
			 1);
	assert_true(z.pages[unmov].flags & PG_head);
	assert_true(moved_to > moved_from);
	zone_destroy(&z);
}

static void test_mixed_count(void **state)
{
	unsigned long count[MIGRATE_TYPES];
	struct zone z;
	uint32_t pfn;

	(void)state;
	zone_init(&z, "Normal", 2048, &policy_61);
	/* an unmovable page claims block 0; a movable one in a movable block */
	alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, 0);
	alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 0);
	assert_int_equal(zone_mixed_pageblocks(&z, count), 0);
	/* nogroup: one list for all; mixing is recorded from the gfp type */
	zone_destroy(&z);
	zone_init(&z, "Normal", 2048, &policy_nogroup);
	alloc_pages(&z, 0, MIGRATE_UNMOVABLE, 0, OWNER_PAGE, 0);
	alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 0);
	assert_int_equal(zone_mixed_pageblocks(&z, count), 1);
	assert_int_equal(count[MIGRATE_UNMOVABLE], 1);
	assert_int_equal(zone_mixed_mobility_blocks(&z), 1);
	zone_destroy(&z);
	/* one type of page in a block of another: mixed for page_owner only */
	zone_init(&z, "Normal", 2048, &policy_61);
	pfn = alloc_pages(&z, 0, MIGRATE_MOVABLE, 0, OWNER_PAGE, 0);
	set_pageblock_migratetype(&z, pfn, MIGRATE_UNMOVABLE);
	assert_int_equal(zone_mixed_pageblocks(&z, count), 1);
	assert_int_equal(zone_mixed_mobility_blocks(&z), 0);
	zone_destroy(&z);
}

static void test_indices(void **state)
{
	unsigned long nr_free[MAX_ORDER] = {100, 50};
	struct contig_page_info info;
	char buf[16];

	(void)state;
	fill_contig_page_info(nr_free, MAX_ORDER, 2, &info);
	assert_int_equal(info.free_pages, 200);
	assert_int_equal(info.free_blocks_total, 150);
	assert_int_equal(__fragmentation_index(2, MAX_ORDER, &info), 660);
	assert_int_equal(unusable_free_index(2, &info), 1000);
	fill_contig_page_info(nr_free, MAX_ORDER, 1, &info);
	assert_int_equal(__fragmentation_index(1, MAX_ORDER, &info), -1000);
	assert_string_equal(format_index(buf, -1000), "-1.000");
	assert_string_equal(format_index(buf, 55), "0.055");
	assert_string_equal(format_index(buf, 1000), "1.000");
	memset(nr_free, 0, sizeof(nr_free));
	fill_contig_page_info(nr_free, MAX_ORDER, 3, &info);
	assert_int_equal(__fragmentation_index(3, MAX_ORDER, &info), 0);
	assert_int_equal(unusable_free_index(3, &info), 1000);
	assert_int_equal(__fragmentation_index(MAX_ORDER, MAX_ORDER, &info), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmalloc_versions),
		cmocka_unit_test(test_named_cache),
		cmocka_unit_test(test_compaction),
		cmocka_unit_test(test_mixed_count),
		cmocka_unit_test(test_indices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

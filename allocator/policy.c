// SPDX-License-Identifier: GPL-2.0
/*
 * Anti-fragmentation policies: each a fallback table plus the rule
 * functions of that kernel's mm/page_alloc.c.  The tables are written the
 * way the kernels write them (by migratetype name); tests/unit/
 * test_allocator_policy.c checks them entry by entry and
 * tests/t4001-policy-tables.sh against the 6.1 source itself.
 */
#include <string.h>

#include "allocator/policy.h"
#include "lib/ktree.h"

#define END MIGRATE_TYPES

static void record_extfrag(struct zone *zone, uint32_t pfn,
			   unsigned int fallback_order, int start_mt,
			   bool moved_block)
{
	/* what trace_mm_page_alloc_extfrag() reports */
	zone->stats.fallbacks++;
	if (fallback_order < pageblock_order)
		zone->stats.fragmenting++;
	if (get_pageblock_migratetype(zone, pfn) == start_mt)
		zone->stats.steals++;
	/*
	 * An unmovable request that took only its own chunk left the rest
	 * of the block's free pages on the other type's lists: its next
	 * refill falls back again, likely into another block, and each
	 * such block keeps a page compaction cannot move.
	 */
	if (start_mt == MIGRATE_UNMOVABLE && !moved_block)
		zone->stats.polluting_unmovable++;
}

/* ---- 6.1 (and nogroup, which is 6.1 with mobility grouping disabled) ---- */

bool can_steal_fallback(const struct zone *zone, unsigned int order,
			int start_mt)
{
	/*
	 * Leaving this order check is intended, although there is relaxed
	 * order check in next check: a whole free pageblock is always taken.
	 */
	if (order >= pageblock_order)
		return true;
	if (order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	    start_mt == MIGRATE_UNMOVABLE || zone->policy->mobility_disabled)
		return true;
	return false;
}

int find_suitable_fallback(const struct zone *zone, unsigned int order,
			   int migratetype, bool only_stealable,
			   bool *can_steal)
{
	const struct free_area *area = &zone->free_area[order];
	const int *fb = zone->policy->fallbacks[migratetype];
	int i;

	if (area->nr_free == 0)
		return -1;
	*can_steal = false;
	for (i = 0; i < MAX_FALLBACKS && fb[i] != END; i++) {
		int fallback_mt = fb[i];

		if (free_area_empty(area, fallback_mt))
			continue;
		if (can_steal_fallback(zone, order, migratetype))
			*can_steal = true;
		if (!only_stealable || *can_steal)
			return fallback_mt;
	}
	return -1;
}

bool steal_suitable_fallback(struct zone *zone, uint32_t pfn, int start_type,
			     bool whole_block)
{
	unsigned int current_order = buddy_order(&zone->pages[pfn]);
	int old_block_type = get_pageblock_migratetype(zone, pfn);
	int free_pages, movable_pages, alike_pages;

	/* broken highatomic accounting otherwise */
	if (old_block_type == MIGRATE_HIGHATOMIC)
		goto single_page;
	/* Take ownership for orders >= pageblock_order */
	if (current_order >= pageblock_order) {
		change_pageblock_range(zone, pfn, current_order, start_type);
		goto single_page;
	}
	/* (boost_watermark() is not modelled: there is no kswapd) */
	if (!whole_block)
		goto single_page;
	free_pages =
		move_freepages_block(zone, pfn, start_type, &movable_pages);
	if (!free_pages)
		goto single_page;
	/*
	 * How many pages are compatible with the allocation: for a movable
	 * one, the movable pages; for the others, every non-movable page
	 * when stealing from a MOVABLE block, none otherwise (unmovable and
	 * reclaimable pages cannot be told apart).
	 */
	if (start_type == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (old_block_type == MIGRATE_MOVABLE)
		alike_pages =
			(int)pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;
	if (free_pages + alike_pages >= (1 << (pageblock_order - 1)) ||
	    zone->policy->mobility_disabled)
		set_pageblock_migratetype(zone, pfn, start_type);
	return true;
single_page:
	move_to_free_list(zone, pfn, current_order, start_type);
	return current_order >= pageblock_order;
}

/*
 * 6.1 __rmqueue_fallback(): take the largest free block of a fallback type
 * (roughly the pageblock with most free pages), steal it or just split it,
 * then __rmqueue_smallest() again.  ALLOC_NOFRAGMENT is not modelled: it
 * only matters with a lower zone to fall back to, and the model has one.
 */
static uint32_t rmqueue_fallback_61(struct zone *zone, unsigned int order,
				    int start_migratetype)
{
	int current_order, fallback_mt = -1;
	bool can_steal = false;
	uint32_t pfn;

	for (current_order = MAX_ORDER - 1; current_order >= (int)order;
	     --current_order) {
		fallback_mt = find_suitable_fallback(zone, current_order,
						     start_migratetype, false,
						     &can_steal);
		if (fallback_mt == -1)
			continue;
		/*
		 * A movable request that cannot steal the block splits the
		 * smallest page instead: it causes no permanent fragmentation.
		 */
		if (!can_steal && start_migratetype == MIGRATE_MOVABLE &&
		    current_order > (int)order)
			goto find_smallest;
		goto do_steal;
	}
	return NIL_PFN;

find_smallest:
	for (current_order = order; current_order < MAX_ORDER;
	     current_order++) {
		fallback_mt = find_suitable_fallback(zone, current_order,
						     start_migratetype, false,
						     &can_steal);
		if (fallback_mt != -1)
			break;
	}
	if (current_order == MAX_ORDER)
		return NIL_PFN;
do_steal:
	pfn = zone->free_area[current_order].free_list[fallback_mt];
	record_extfrag(zone, pfn, current_order, start_migratetype,
		       steal_suitable_fallback(zone, pfn, start_migratetype,
					       can_steal));
	return __rmqueue_smallest(zone, order, start_migratetype);
}

/* ---- 2.6.24 ---- */

/*
 * 2.6.24 __rmqueue_fallback(): the largest block of a fallback type; when
 * it is at least half a pageblock, or the request is reclaimable (the
 * seed patch's "be more aggressive" rule), move the block's free pages
 * and claim the block if at least half of it was free.  An unmovable
 * request below order 4 takes its chunk and moves nothing (until 4.0's
 * 9c0415e: policy_2624_9c0415e).
 */
static uint32_t rmqueue_fallback_2624(struct zone *zone, unsigned int order,
				      int start_migratetype)
{
	const int *fb = zone->policy->fallbacks[start_migratetype];
	int current_order, i;

	for (current_order = MAX_ORDER - 1; current_order >= (int)order;
	     --current_order) {
		for (i = 0; i < MAX_FALLBACKS && fb[i] != END; i++) {
			int migratetype = fb[i];
			bool moved = false;
			uint32_t pfn;

			/* MIGRATE_RESERVE handled later if necessary */
			if (migratetype == MIGRATE_RESERVE)
				continue;
			pfn = zone->free_area[current_order]
				      .free_list[migratetype];
			if (pfn == NIL_PFN)
				continue;
			if (current_order >= (int)(pageblock_order >> 1) ||
			    start_migratetype == MIGRATE_RECLAIMABLE ||
			    (zone->policy->steal_unmovable &&
			     start_migratetype == MIGRATE_UNMOVABLE) ||
			    zone->policy->mobility_disabled) {
				int pages = move_freepages_block(
					zone, pfn, start_migratetype, NULL);

				/* Claim the whole block if over half is free */
				if (pages >= (1 << (pageblock_order - 1)) ||
				    zone->policy->mobility_disabled)
					set_pageblock_migratetype(
						zone, pfn, start_migratetype);
				migratetype = start_migratetype;
				moved = true;
			}
			del_page_from_free_list(zone, pfn, current_order);
			if (current_order == pageblock_order)
				set_pageblock_migratetype(zone, pfn,
							  start_migratetype);
			expand(zone, pfn, order, current_order, migratetype);
			record_extfrag(zone, pfn, current_order,
				       start_migratetype, moved);
			return pfn;
		}
	}
	/* Use MIGRATE_RESERVE rather than fail an allocation */
	return __rmqueue_smallest(zone, order, MIGRATE_RESERVE);
}

/*
 * Linux 6.1 mm/page_alloc.c, fallbacks[MIGRATE_TYPES][3] (CMA and
 * ISOLATE rows "Never used").
 */
/* clang-format off */
#define FALLBACKS_61 {								\
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,   END },	\
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, END },	\
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,   END },	\
	[MIGRATE_HIGHATOMIC]  = { END },						\
	[MIGRATE_RESERVE]     = { END },						\
	[MIGRATE_ISOLATE]     = { END },						\
}
/* clang-format on */

const struct alloc_policy policy_61 = {
	.name = "6.1",
	.source = "Linux 6.1 mm/page_alloc.c: fallbacks[], "
		  "can_steal_fallback(), steal_suitable_fallback()",
	.has_highatomic = true,
	.fallbacks = FALLBACKS_61,
	.rmqueue_fallback = rmqueue_fallback_61,
};

/*
 * Linux 2.6.24 mm/page_alloc.c, fallbacks[MIGRATE_TYPES][MIGRATE_TYPES-1]:
 * the seed patch's ("Group short-lived and reclaimable kernel
 * allocations") three-type table, with MIGRATE_RESERVE appended by "Bias
 * the location of pages freed for min_free_kbytes in the same
 * pageblock_nr_pages areas" (both merged for 2.6.24-rc1).  The kernel's
 * rows have a zero-initialised fourth entry (MIGRATE_UNMOVABLE, a list
 * already tried): the model ends the row instead, which behaves the same.
 */
/* clang-format off */
#define FALLBACKS_2624 {							\
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,   MIGRATE_RESERVE, END },	\
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,   MIGRATE_RESERVE, END },	\
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE, MIGRATE_RESERVE, END },	\
	[MIGRATE_RESERVE]     = { MIGRATE_RESERVE,     MIGRATE_RESERVE,   MIGRATE_RESERVE, END },	\
	[MIGRATE_HIGHATOMIC]  = { END },						\
	[MIGRATE_ISOLATE]     = { END },						\
}
/* clang-format on */

const struct alloc_policy policy_2624 = {
	.name = "2.6.24",
	.source = "Linux 2.6.24 mm/page_alloc.c: fallbacks[], "
		  "__rmqueue_fallback()",
	.has_reserve = true,
	.fallbacks = FALLBACKS_2624,
	.rmqueue_fallback = rmqueue_fallback_2624,
};

/*
 * What-if: 2.6.24 with the one line of 9c0415e (Vlastimil Babka, 4.0)
 * that lets an unmovable fallback move the block's free pages at any
 * order, as a reclaimable one always did.  Everything else is 2.6.24's,
 * so a difference between the two is that rule's doing alone
 * (docs/allocator.md: the 2.6.24 seed sensitivity).
 */
const struct alloc_policy policy_2624_9c0415e = {
	.name = "2.6.24+9c0415e",
	.source = "Linux 2.6.24 mm/page_alloc.c with 9c0415e (\"mm: more "
		  "aggressive page stealing for UNMOVABLE allocations\", "
		  "4.0): what-if",
	.has_reserve = true,
	.steal_unmovable = true,
	.fallbacks = FALLBACKS_2624,
	.rmqueue_fallback = rmqueue_fallback_2624,
};

/*
 * page_group_by_mobility_disabled (set by build_all_zonelists() on small
 * machines, and the behaviour before 2.6.23): gfp_migratetype() answers
 * UNMOVABLE for everything and every fallback claims its block.
 */
const struct alloc_policy policy_nogroup = {
	.name = "nogroup",
	.source = "page_group_by_mobility_disabled (6.1 rules, one effective "
		  "list)",
	.mobility_disabled = true,
	.fallbacks = FALLBACKS_61,
	.rmqueue_fallback = rmqueue_fallback_61,
};

const struct alloc_policy *const alloc_policies[] = {
	&policy_nogroup, &policy_2624, &policy_61, NULL};

const struct alloc_policy *const whatif_policies[] = {&policy_2624_9c0415e,
						      NULL};

const struct alloc_policy *policy_find(const char *name)
{
	int i;

	for (i = 0; alloc_policies[i]; i++)
		if (!strcmp(alloc_policies[i]->name, name))
			return alloc_policies[i];
	for (i = 0; whatif_policies[i]; i++)
		if (!strcmp(whatif_policies[i]->name, name))
			return whatif_policies[i];
	return NULL;
}

/*
 * The nearest modelled policy: mobility grouping arrived in 2.6.23/24;
 * can_steal_fallback()/steal_suitable_fallback() came with the 2015 rework
 * of the fallback path (around 4.0) and were refined later (the
 * alike-pages count), so kernels from 4.0 get the 6.1 rules.
 */
const struct alloc_policy *policy_for_version(const char *version)
{
	struct kversion kv, v2624, v40;

	if (!version || kversion_parse(version, &kv) < 0)
		return &policy_61;
	kversion_parse("2.6.24", &v2624);
	kversion_parse("4.0", &v40);
	if (kversion_cmp(&kv, &v2624) < 0)
		return &policy_nogroup;
	if (kversion_cmp(&kv, &v40) < 0)
		return &policy_2624;
	return &policy_61;
}

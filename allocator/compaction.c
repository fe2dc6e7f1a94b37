// SPDX-License-Identifier: GPL-2.0
/* Compaction at rest: see allocator/compaction.h. */
#include "allocator/compaction.h"
#include "allocator/policy.h"

struct compact_control {
	uint32_t migrate_pfn; /* next pfn the migrate scanner looks at */
	uint32_t free_block;  /* pageblock the free scanner is in */
	uint32_t free_pfn;    /* next pfn inside it */
	bool free_done;
};

static bool suitable_migration_target(const struct zone *zone, uint32_t pfn)
{
	const struct page *page = &zone->pages[pfn];

	/* never break up a free pageblock: that is what we want to make */
	if (PageBuddy(page) && page->order >= pageblock_order)
		return false;
	if (zone->policy->mobility_disabled)
		return true;
	return get_pageblock_migratetype(zone, pfn) == MIGRATE_MOVABLE;
}

/*
 * The free scanner: the next free order-ORDER page in blocks above the
 * migrate scanner, walking down from the zone end.  The free buddy it is
 * in is split (as isolate_freepages_block()/split_page() do) and the
 * target marked allocated.
 */
static uint32_t isolate_free_target(struct zone *zone,
				    struct compact_control *cc,
				    unsigned int order)
{
	while (!cc->free_done) {
		uint32_t start = cc->free_block << pageblock_order;
		uint32_t end = start + pageblock_nr_pages;

		if (start <= cc->migrate_pfn) {
			cc->free_done = true;
			break;
		}
		if (cc->free_pfn < start || cc->free_pfn >= end)
			cc->free_pfn = start;
		if (!suitable_migration_target(zone, start))
			cc->free_pfn = end;
		while (cc->free_pfn < end) {
			uint32_t pfn = cc->free_pfn;
			struct page *page = &zone->pages[pfn];
			unsigned int o = page->order;

			if (PageBuddy(page) && o >= order &&
			    o < pageblock_order) {
				int mt = page->mt;

				del_page_from_free_list(zone, pfn, o);
				expand(zone, pfn, order, o, mt);
				zone->free_pages -= 1UL << order;
				return pfn;
			}
			cc->free_pfn += (page->flags & (PG_buddy | PG_head))
						? 1U << o
						: 1;
		}
		if (cc->free_block == 0) {
			cc->free_done = true;
			break;
		}
		cc->free_block--;
	}
	return NIL_PFN;
}

static bool page_is_movable(const struct page *page)
{
	return (page->flags & PG_head) && page->mt == MIGRATE_MOVABLE &&
	       (page->owner == OWNER_PAGECACHE || page->owner == OWNER_PAGE);
}

void compact_zone(struct zone *zone, struct compact_result *res)
{
	struct compact_control cc = {
		.migrate_pfn = 0,
		.free_block = zone->nr_pageblocks - 1,
		.free_pfn = NIL_PFN,
	};

	res->migrated = res->failed = 0;
	/* pcp pages are neither free nor movable: give them back first */
	drain_all_pages(zone);
	while (cc.migrate_pfn < zone->nr_pages && !cc.free_done) {
		struct page *page = &zone->pages[cc.migrate_pfn];
		unsigned int order = page->order;
		uint32_t src = cc.migrate_pfn;
		uint32_t nr =
			(page->flags & (PG_buddy | PG_head)) ? 1U << order : 1;

		/* the scanners met: the free scanner owns blocks above */
		if ((src >> pageblock_order) >= cc.free_block)
			break;
		if (page_is_movable(page) && order < pageblock_order) {
			uint32_t dst = isolate_free_target(zone, &cc, order);
			struct page *d;

			if (dst == NIL_PFN) {
				res->failed++;
				break;
			}
			d = &zone->pages[dst];
			d->flags = PG_head;
			d->order = (uint8_t)order;
			d->mt = page->mt;
			d->owner = page->owner;
			d->private = page->private;
			if (zone->migrate_cb)
				zone->migrate_cb(zone->migrate_owner,
						 page->private, src, dst);
			/* the target was counted as allocated above */
			free_pages(zone, src);
			res->migrated++;
		}
		cc.migrate_pfn = src + nr;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The model's invariant checker (CONFIG_DEBUG_VM for the model): run after
 * every operation when zone->debug_checks is set, and by the tests.
 */
#include <stdio.h>
#include <string.h>

#include "allocator/mmzone.h"

#define FAIL(...)                                                              \
	do {                                                                   \
		snprintf(err, errlen, __VA_ARGS__);                            \
		return -1;                                                     \
	} while (0)

/* Every page in exactly one block; interior pages carry no flags. */
static int check_partition(const struct zone *zone, unsigned long *free,
			   char *err, size_t errlen)
{
	uint32_t pfn, i;

	*free = 0;
	for (pfn = 0; pfn < zone->nr_pages;) {
		const struct page *page = &zone->pages[pfn];
		uint32_t nr;

		if (!(page->flags & (PG_buddy | PG_head | PG_pcp)))
			FAIL("pfn %u is in no free or allocated block", pfn);
		if (__builtin_popcount(page->flags &
				       (PG_buddy | PG_head | PG_pcp)) > 1)
			FAIL("pfn %u is in two states (flags %#x)", pfn,
			     page->flags);
		if ((page->flags & PG_pcp) && page->order)
			FAIL("pcp page %u has order %u", pfn, page->order);
		if (page->order >= MAX_ORDER)
			FAIL("pfn %u has order %u", pfn, page->order);
		nr = 1U << page->order;
		if (pfn & (nr - 1))
			FAIL("pfn %u is not aligned to its order %u", pfn,
			     page->order);
		if (pfn + nr > zone->nr_pages)
			FAIL("block at pfn %u order %u overruns the zone", pfn,
			     page->order);
		for (i = 1; i < nr; i++)
			if (zone->pages[pfn + i].flags)
				FAIL("pfn %u inside the order-%u block at %u "
				     "is counted twice",
				     pfn + i, page->order, pfn);
		if (PageBuddy(page)) {
			*free += nr;
			if (page->order < MAX_ORDER - 1) {
				uint32_t b = __find_buddy_pfn(pfn, page->order);
				const struct page *bp = &zone->pages[b];
				bool split_ok =
					page->order >= pageblock_order &&
					(page->mt >= MIGRATE_PCPTYPES ||
					 bp->mt >= MIGRATE_PCPTYPES);

				if (PageBuddy(bp) && bp->order == page->order &&
				    !split_ok)
					FAIL("free buddies at pfn %u and %u "
					     "(order %u) not coalesced",
					     pfn, b, page->order);
			}
		}
		pfn += nr;
	}
	return 0;
}

static int check_lists(const struct zone *zone, char *err, size_t errlen)
{
	int o, mt;

	for (o = 0; o < MAX_ORDER; o++) {
		const struct free_area *area = &zone->free_area[o];
		unsigned long total = 0;

		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			uint32_t pfn = area->free_list[mt], prev = NIL_PFN;
			unsigned long n = 0;

			if ((pfn == NIL_PFN) ==
			    !!(zone->nonempty[mt] & (1U << o)))
				FAIL("nonempty mask wrong for order %d %s", o,
				     migratetype_names[mt]);
			for (; pfn != NIL_PFN; pfn = zone->pages[pfn].next) {
				const struct page *p;

				if (pfn >= zone->nr_pages)
					FAIL("free list order %d %s links to "
					     "pfn %u",
					     o, migratetype_names[mt], pfn);
				p = &zone->pages[pfn];
				if (!PageBuddy(p) || p->order != o ||
				    p->mt != mt)
					FAIL("pfn %u on free list order %d %s "
					     "is not such a free block",
					     pfn, o, migratetype_names[mt]);
				if (p->prev != prev)
					FAIL("free list order %d %s: bad prev "
					     "link at pfn %u",
					     o, migratetype_names[mt], pfn);
				prev = pfn;
				if (++n > zone->nr_pages)
					FAIL("free list order %d %s loops", o,
					     migratetype_names[mt]);
			}
			if (n != area->nr_free_mt[mt])
				FAIL("order %d %s: %lu on the list, counter "
				     "says %u",
				     o, migratetype_names[mt], n,
				     area->nr_free_mt[mt]);
			total += n;
		}
		if (total != area->nr_free)
			FAIL("order %d: nr_free %lu but lists hold %lu", o,
			     area->nr_free, total);
	}
	return 0;
}

static int check_pcp(const struct zone *zone, char *err, size_t errlen)
{
	const struct per_cpu_pages *pcp = &zone->pcp;
	int mt, total = 0;

	for (mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		uint32_t pfn;
		int n = 0;

		for (pfn = pcp->lists[mt]; pfn != NIL_PFN;
		     pfn = zone->pages[pfn].next) {
			if (pfn >= zone->nr_pages)
				FAIL("pcp list %s links to pfn %u",
				     migratetype_names[mt], pfn);
			if (!(zone->pages[pfn].flags & PG_pcp) ||
			    zone->pages[pfn].mt != mt)
				FAIL("pfn %u on pcp list %s is not a pcp page "
				     "of it",
				     pfn, migratetype_names[mt]);
			if (++n > pcp->count)
				FAIL("pcp list %s is longer than the pcp count",
				     migratetype_names[mt]);
		}
		if (n != pcp->nr[mt])
			FAIL("pcp list %s: %d on the list, counter says %d",
			     migratetype_names[mt], n, pcp->nr[mt]);
		total += n;
	}
	if (total != pcp->count)
		FAIL("pcp count %d but lists hold %d", pcp->count, total);
	if (pcp->high && pcp->count >= pcp->high)
		FAIL("pcp count %d not below high %d", pcp->count, pcp->high);
	return 0;
}

int check_zone(const struct zone *zone, char *err, size_t errlen)
{
	unsigned long free = 0, listed = 0, blocks[MIGRATE_TYPES] = {0};
	uint32_t b;
	int o, mt;

	if (check_partition(zone, &free, err, errlen) < 0)
		return -1;
	if (check_lists(zone, err, errlen) < 0)
		return -1;
	if (check_pcp(zone, err, errlen) < 0)
		return -1;
	for (o = 0; o < MAX_ORDER; o++)
		listed += zone->free_area[o].nr_free << o;
	if (free != listed || free != zone->free_pages)
		FAIL("free pages: %lu in blocks, %lu on lists, counter %lu",
		     free, listed, zone->free_pages);
	for (b = 0; b < zone->nr_pageblocks; b++) {
		if (zone->pageblock_flags[b] >= MIGRATE_TYPES)
			FAIL("pageblock %u has type %u", b,
			     zone->pageblock_flags[b]);
		blocks[zone->pageblock_flags[b]]++;
	}
	for (mt = 0; mt < MIGRATE_TYPES; mt++)
		if (blocks[mt] != zone->nr_blocks[mt])
			FAIL("%s pageblocks: %lu flagged, counter %lu",
			     migratetype_names[mt], blocks[mt],
			     zone->nr_blocks[mt]);
	return 0;
}

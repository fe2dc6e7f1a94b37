// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy allocator core of the model: free lists per order and
 * migratetype, splitting (expand), coalescing (__free_one_page), pageblock
 * ownership.  The anti-fragmentation decisions (which list to fall back
 * to, when to steal a block) are the policy's: allocator/policy.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"

const char *const migratetype_names[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = "Unmovable",
	[MIGRATE_MOVABLE] = "Movable",
	[MIGRATE_RECLAIMABLE] = "Reclaimable",
	[MIGRATE_HIGHATOMIC] = "HighAtomic",
	[MIGRATE_RESERVE] = "Reserve",
	[MIGRATE_ISOLATE] = "Isolate",
};

static void zone_debug_check(const struct zone *zone, const char *what)
{
	char err[256];

	if (!zone->debug_checks)
		return;
	if (check_zone(zone, err, sizeof(err)) < 0) {
		fprintf(stderr,
			"gfpaudit: allocator invariant broken after %s: %s\n",
			what, err);
		abort();
	}
}

void set_pageblock_migratetype(struct zone *zone, uint32_t pfn, int mt)
{
	uint8_t *flags = &zone->pageblock_flags[pfn >> pageblock_order];

	zone->nr_blocks[*flags]--;
	zone->nr_blocks[mt]++;
	*flags = (uint8_t)mt;
}

void change_pageblock_range(struct zone *zone, uint32_t pfn, unsigned int order,
			    int migratetype)
{
	uint32_t nr =
		order >= pageblock_order ? 1U << (order - pageblock_order) : 1;

	while (nr--) {
		set_pageblock_migratetype(zone, pfn, migratetype);
		pfn += pageblock_nr_pages;
	}
}

void add_to_free_list(struct zone *zone, uint32_t pfn, unsigned int order,
		      int migratetype)
{
	struct free_area *area = &zone->free_area[order];
	struct page *page = &zone->pages[pfn];
	uint32_t head = area->free_list[migratetype];

	page->flags = PG_buddy;
	page->order = (uint8_t)order;
	page->mt = (uint8_t)migratetype;
	page->prev = NIL_PFN;
	page->next = head;
	if (head != NIL_PFN)
		zone->pages[head].prev = pfn;
	area->free_list[migratetype] = pfn;
	area->nr_free_mt[migratetype]++;
	area->nr_free++;
	zone->nonempty[migratetype] |= (uint16_t)(1U << order);
}

void del_page_from_free_list(struct zone *zone, uint32_t pfn,
			     unsigned int order)
{
	struct free_area *area = &zone->free_area[order];
	struct page *page = &zone->pages[pfn];
	int mt = page->mt;

	if (page->prev != NIL_PFN)
		zone->pages[page->prev].next = page->next;
	else
		area->free_list[mt] = page->next;
	if (page->next != NIL_PFN)
		zone->pages[page->next].prev = page->prev;
	if (area->free_list[mt] == NIL_PFN)
		zone->nonempty[mt] &= (uint16_t) ~(1U << order);
	area->nr_free_mt[mt]--;
	area->nr_free--;
	page->flags = 0;
}

void move_to_free_list(struct zone *zone, uint32_t pfn, unsigned int order,
		       int migratetype)
{
	del_page_from_free_list(zone, pfn, order);
	add_to_free_list(zone, pfn, order, migratetype);
}

/*
 * Split a free block of order HIGH at PFN down to LOW, putting the upper
 * halves back on the MIGRATETYPE lists (mm/page_alloc.c: expand()).
 */
void expand(struct zone *zone, uint32_t pfn, unsigned int low,
	    unsigned int high, int migratetype)
{
	uint32_t size = 1U << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_list(zone, pfn + size, high, migratetype);
	}
}

/* Take the first block of the smallest order >= ORDER from the MT lists. */
uint32_t __rmqueue_smallest(struct zone *zone, unsigned int order, int mt)
{
	unsigned int mask = zone->nonempty[mt] >> order;
	unsigned int current_order;
	uint32_t pfn;

	if (!mask)
		return NIL_PFN;
	current_order = order + (unsigned int)__builtin_ctz(mask);
	pfn = zone->free_area[current_order].free_list[mt];
	del_page_from_free_list(zone, pfn, current_order);
	expand(zone, pfn, order, current_order, mt);
	return pfn;
}

/* 6.1: blocks of these types never merge with a differently typed buddy. */
static bool migratetype_is_mergeable(int mt)
{
	return mt < MIGRATE_PCPTYPES;
}

void __free_one_page(struct zone *zone, uint32_t pfn, unsigned int order,
		     int migratetype)
{
	while (order < MAX_ORDER - 1) {
		uint32_t buddy_pfn = __find_buddy_pfn(pfn, order);
		struct page *buddy;

		if (buddy_pfn >= zone->nr_pages)
			break;
		buddy = &zone->pages[buddy_pfn];
		if (!PageBuddy(buddy) || buddy_order(buddy) != order)
			break;
		if (order >= pageblock_order) {
			int buddy_mt =
				get_pageblock_migratetype(zone, buddy_pfn);

			if (migratetype != buddy_mt &&
			    (!migratetype_is_mergeable(migratetype) ||
			     !migratetype_is_mergeable(buddy_mt)))
				break;
		}
		del_page_from_free_list(zone, buddy_pfn, order);
		pfn &= buddy_pfn;
		order++;
	}
	add_to_free_list(zone, pfn, order, migratetype);
}

/*
 * Move the free pages of PFN's pageblock to the MIGRATETYPE lists; count
 * the allocated movable pages in *NUM_MOVABLE (6.1 counts PageLRU and
 * __PageMovable pages; the model knows which allocations were movable).
 * Returns the number of free pages moved.
 */
int move_freepages_block(struct zone *zone, uint32_t pfn, int migratetype,
			 int *num_movable)
{
	uint32_t start = pfn & ~(pageblock_nr_pages - 1);
	uint32_t end = start + pageblock_nr_pages;
	int moved = 0;

	if (num_movable)
		*num_movable = 0;
	for (pfn = start; pfn < end;) {
		struct page *page = &zone->pages[pfn];
		uint32_t nr = 1U << page->order;

		if (PageBuddy(page)) {
			move_to_free_list(zone, pfn, page->order, migratetype);
			moved += (int)nr;
		} else if (page->flags & PG_head) {
			if (num_movable && page->mt == MIGRATE_MOVABLE)
				*num_movable +=
					(int)(nr < pageblock_nr_pages
						      ? nr
						      : pageblock_nr_pages);
		} else {
			nr = 1;
		}
		pfn += nr;
	}
	return moved;
}

/* 2.6.24's setup_zone_migrate_reserve(): min_free_kbytes worth of blocks. */
static void setup_zone_migrate_reserve(struct zone *zone)
{
	/* init_per_zone_pages_min: min_free_kbytes = sqrt(lowmem_kbytes * 16)
	 */
	unsigned long kb = (unsigned long)zone->nr_pages * (PAGE_SIZE / 1024);
	unsigned long min_kb = 1, pages_min, reserve;
	uint32_t pfn;

	while ((min_kb + 1) * (min_kb + 1) <= kb * 16)
		min_kb++;
	if (min_kb < 128)
		min_kb = 128;
	if (min_kb > 65536)
		min_kb = 65536;
	pages_min = min_kb / (PAGE_SIZE / 1024);
	reserve = (pages_min + pageblock_nr_pages - 1) >> pageblock_order;
	for (pfn = 0; pfn < zone->nr_pages && reserve;
	     pfn += pageblock_nr_pages) {
		if (get_pageblock_migratetype(zone, pfn) != MIGRATE_MOVABLE)
			continue;
		set_pageblock_migratetype(zone, pfn, MIGRATE_RESERVE);
		move_freepages_block(zone, pfn, MIGRATE_RESERVE, NULL);
		reserve--;
	}
}

int zone_init(struct zone *zone, const char *name, uint32_t nr_pages,
	      const struct alloc_policy *policy)
{
	const uint32_t max_block = 1U << (MAX_ORDER - 1);
	uint32_t pfn;
	int o, mt;

	memset(zone, 0, sizeof(*zone));
	nr_pages &= ~(max_block - 1);
	if (!nr_pages || nr_pages >= NIL_PFN)
		return -1;
	zone->name = name;
	zone->nr_pages = nr_pages;
	zone->nr_pageblocks = nr_pages >> pageblock_order;
	zone->policy = policy;
	zone->pages = calloc(nr_pages, sizeof(struct page));
	zone->pageblock_flags = calloc(zone->nr_pageblocks, 1);
	if (!zone->pages || !zone->pageblock_flags) {
		zone_destroy(zone);
		return -1;
	}
	for (o = 0; o < MAX_ORDER; o++)
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			zone->free_area[o].free_list[mt] = NIL_PFN;
	for (mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		zone->pcp.lists[mt] = NIL_PFN;
	/*
	 * memmap_init_zone() marks every pageblock MOVABLE so that early
	 * kernel allocations claim whole blocks instead of leaking across
	 * the address space.
	 */
	memset(zone->pageblock_flags, MIGRATE_MOVABLE, zone->nr_pageblocks);
	zone->nr_blocks[MIGRATE_MOVABLE] = zone->nr_pageblocks;
	for (pfn = 0; pfn < nr_pages; pfn += max_block)
		__free_one_page(zone, pfn, MAX_ORDER - 1, MIGRATE_MOVABLE);
	zone->free_pages = nr_pages;
	/* zone_managed_pages / 100 + pageblock_nr_pages, as 6.1 */
	zone->max_highatomic = nr_pages / 100 + pageblock_nr_pages;
	if (policy->has_reserve)
		setup_zone_migrate_reserve(zone);
	zone_set_pcp(zone, true);
	return 0;
}

void zone_destroy(struct zone *zone)
{
	free(zone->pages);
	free(zone->pageblock_flags);
	zone->pages = NULL;
	zone->pageblock_flags = NULL;
}

/* 6.1 reserve_highatomic_pageblock(): keep high-order atomic blocks apart. */
static void reserve_highatomic_pageblock(struct zone *zone, uint32_t pfn)
{
	int mt;

	if (zone->nr_reserved_highatomic >= zone->max_highatomic)
		return;
	mt = get_pageblock_migratetype(zone, pfn);
	if (mt != MIGRATE_HIGHATOMIC && migratetype_is_mergeable(mt)) {
		zone->nr_reserved_highatomic += pageblock_nr_pages;
		set_pageblock_migratetype(zone, pfn, MIGRATE_HIGHATOMIC);
		move_freepages_block(zone, pfn, MIGRATE_HIGHATOMIC, NULL);
	}
}

/* 6.1 unreserve_highatomic_pageblock(): give one back under pressure. */
static bool unreserve_highatomic_pageblock(struct zone *zone, int mt)
{
	int order;

	for (order = 0; order < MAX_ORDER; order++) {
		uint32_t pfn =
			zone->free_area[order].free_list[MIGRATE_HIGHATOMIC];

		if (pfn == NIL_PFN)
			continue;
		if (get_pageblock_migratetype(zone, pfn) ==
		    MIGRATE_HIGHATOMIC) {
			zone->nr_reserved_highatomic -=
				zone->nr_reserved_highatomic <
						pageblock_nr_pages
					? zone->nr_reserved_highatomic
					: pageblock_nr_pages;
			set_pageblock_migratetype(zone, pfn, mt);
		}
		move_freepages_block(zone, pfn, mt, NULL);
		return true;
	}
	return false;
}

static uint32_t __rmqueue(struct zone *zone, unsigned int order, int mt)
{
	uint32_t pfn = __rmqueue_smallest(zone, order, mt);

	if (pfn == NIL_PFN)
		pfn = zone->policy->rmqueue_fallback(zone, order, mt);
	return pfn;
}

/*
 * zone_batchsize() for a zone of this size: about a quarter of a
 * thousandth of it, at most 256K worth, rounded to 2^n - 1 (63 on most
 * machines); high as the pre-5.14 default, 6 * batch.
 */
void zone_set_pcp(struct zone *zone, bool on)
{
	unsigned long batch = zone->nr_pages / 1024 / 4, b = 1;

	drain_all_pages(zone);
	if (!on) {
		zone->pcp.high = zone->pcp.batch = 0;
		return;
	}
	if (batch * PAGE_SIZE > 256 * 1024)
		batch = 256 * 1024 / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	while (b * 2 <= batch + batch / 2)
		b *= 2;
	zone->pcp.batch = (int)b - 1 > 0 ? (int)b - 1 : 1;
	zone->pcp.high = 6 * zone->pcp.batch;
}

static void pcp_push(struct zone *zone, uint32_t pfn, int mt)
{
	struct page *page = &zone->pages[pfn];

	page->flags = PG_pcp;
	page->order = 0;
	page->mt = (uint8_t)mt;
	page->next = zone->pcp.lists[mt];
	zone->pcp.lists[mt] = pfn;
	zone->pcp.nr[mt]++;
	zone->pcp.count++;
}

static uint32_t pcp_pop(struct zone *zone, int mt)
{
	uint32_t pfn = zone->pcp.lists[mt];

	zone->pcp.lists[mt] = zone->pages[pfn].next;
	zone->pcp.nr[mt]--;
	zone->pcp.count--;
	zone->pages[pfn].flags = 0;
	return pfn;
}

/* rmqueue_bulk(): refill the MT list with up to a batch of pages. */
static void rmqueue_bulk(struct zone *zone, int mt)
{
	int i;

	for (i = 0; i < zone->pcp.batch; i++) {
		uint32_t pfn = __rmqueue(zone, 0, mt);

		if (pfn == NIL_PFN)
			break;
		zone->free_pages--;
		pcp_push(zone, pfn, mt);
	}
}

/* free_pcppages_bulk(): COUNT pages back, round-robin over the lists. */
static void free_pcppages_bulk(struct zone *zone, int count)
{
	int mt = 0;

	while (count > 0 && zone->pcp.count) {
		if (zone->pcp.lists[mt] != NIL_PFN) {
			uint32_t pfn = pcp_pop(zone, mt);

			zone->free_pages++;
			__free_one_page(zone, pfn, 0,
					get_pageblock_migratetype(zone, pfn));
			count--;
		}
		mt = (mt + 1) % MIGRATE_PCPTYPES;
	}
}

void drain_all_pages(struct zone *zone)
{
	free_pcppages_bulk(zone, zone->pcp.count);
}

uint32_t alloc_pages(struct zone *zone, unsigned int order, int mt,
		     unsigned int alloc_flags, uint8_t owner, uint32_t handle)
{
	int list_mt = policy_migratetype(zone->policy, mt);
	bool harder =
		zone->highatomic && order > 0 && (alloc_flags & ALLOC_HARDER);
	uint32_t pfn = NIL_PFN;
	struct page *page;

	if (order >= MAX_ORDER)
		return NIL_PFN;
	if (order == 0 && zone->pcp.high && list_mt < MIGRATE_PCPTYPES) {
		/* rmqueue_pcplist() */
		if (zone->pcp.lists[list_mt] == NIL_PFN)
			rmqueue_bulk(zone, list_mt);
		if (zone->pcp.lists[list_mt] != NIL_PFN) {
			pfn = pcp_pop(zone, list_mt);
			zone->free_pages++; /* taken back below */
			goto got_pfn;
		}
	}
	if (harder)
		pfn = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (pfn == NIL_PFN)
		pfn = __rmqueue(zone, order, list_mt);
	if (pfn == NIL_PFN && zone->highatomic &&
	    unreserve_highatomic_pageblock(zone, list_mt))
		pfn = __rmqueue(zone, order, list_mt);
	if (pfn == NIL_PFN && zone->pcp.count) {
		/* the slow path drains the pcp lists before giving up */
		drain_all_pages(zone);
		pfn = __rmqueue(zone, order, list_mt);
	}
	if (pfn == NIL_PFN) {
		zone->stats.alloc_fail++;
		return NIL_PFN;
	}
	if (harder)
		reserve_highatomic_pageblock(zone, pfn);
got_pfn:
	page = &zone->pages[pfn];
	page->flags = PG_head;
	page->order = (uint8_t)order;
	page->mt = (uint8_t)mt;
	page->owner = owner;
	page->private = handle;
	zone->free_pages -= 1UL << order;
	zone->stats.alloc_success++;
	zone_debug_check(zone, "alloc_pages");
	return pfn;
}

int free_pages(struct zone *zone, uint32_t pfn)
{
	struct page *page;
	unsigned int order;

	if (pfn >= zone->nr_pages)
		return -1;
	page = &zone->pages[pfn];
	if (!(page->flags & PG_head))
		return -1;
	order = page->order;
	page->flags = 0;
	page->owner = OWNER_NONE;
	if (order == 0 && zone->pcp.high) {
		/* free_unref_page(): isolate frees bypass, others go to pcp */
		int mt = get_pageblock_migratetype(zone, pfn);

		if (mt != MIGRATE_ISOLATE) {
			pcp_push(zone, pfn,
				 mt < MIGRATE_PCPTYPES ? mt : MIGRATE_MOVABLE);
			if (zone->pcp.count >= zone->pcp.high)
				free_pcppages_bulk(zone, zone->pcp.batch);
			zone_debug_check(zone, "free_pages");
			return 0;
		}
	}
	zone->free_pages += 1UL << order;
	__free_one_page(zone, pfn, order, get_pageblock_migratetype(zone, pfn));
	zone_debug_check(zone, "free_pages");
	return 0;
}

unsigned long zone_free_order9(const struct zone *zone)
{
	unsigned long n = 0;
	int o;

	for (o = pageblock_order; o < MAX_ORDER; o++)
		n += zone->free_area[o].nr_free << (o - pageblock_order);
	return n;
}

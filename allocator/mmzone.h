/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_MMZONE_H
#define GFPAUDIT_ALLOCATOR_MMZONE_H

/*
 * A userspace model of one zone of the kernel's buddy page allocator,
 * written with the kernel's names (include/linux/mmzone.h, mm/page_alloc.c)
 * so that mm people recognise every function.  One struct page per modelled
 * page frame (16 bytes), one byte of pageblock flags per pageblock, free
 * lists as intrusive pfn-indexed doubly linked lists.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x86-64 defaults of the modelled kernels (MAX_ORDER 11, order 9 THP). */
#define MAX_ORDER 11
#define PAGEBLOCK_ORDER 9
#define pageblock_order PAGEBLOCK_ORDER
#define pageblock_nr_pages (1U << pageblock_order)
#define PAGE_SHIFT 12
#define PAGE_SIZE (1U << PAGE_SHIFT)
#define PAGE_ALLOC_COSTLY_ORDER 3

/*
 * Migratetypes.  The model numbers them as 6.1 does (UNMOVABLE, MOVABLE,
 * RECLAIMABLE, then HIGHATOMIC); the 2.6.24 policy uses MIGRATE_RESERVE,
 * which only that kernel has.  The policy tables are written with these
 * names, exactly as the kernels write theirs, so the numbering is internal.
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES, /* the number of types on the pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_RESERVE, /* 2.6.24 .. 3.x only */
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

extern const char *const migratetype_names[MIGRATE_TYPES];

#define NIL_PFN UINT32_MAX

/* page->flags */
enum {
	PG_buddy = 1 << 0, /* head of a free buddy block, order in ->order */
	PG_head = 1 << 1,  /* head of an allocated block, order in ->order */
	PG_pcp = 1 << 2,   /* order-0 page on a per-cpu list (->mt: which) */
};

/*
 * What an allocated page is used for; lets reclaim and compaction at rest
 * know what they may do with it (page_owner would tell from the stack).
 */
enum page_owner_kind {
	OWNER_NONE,
	OWNER_PAGE,	 /* direct page allocation, held by a workload object */
	OWNER_SLAB,	 /* a slab page of a kmem_cache */
	OWNER_PAGECACHE, /* movable page cache / anon, migratable */
};

struct page {
	uint32_t next, prev; /* free list links while PG_buddy */
	uint32_t private;    /* owner's handle while allocated */
	uint8_t flags;
	uint8_t order;
	uint8_t mt;    /* free: list it is on; allocated: request's type */
	uint8_t owner; /* enum page_owner_kind */
};

struct free_area {
	uint32_t free_list[MIGRATE_TYPES]; /* head pfn or NIL_PFN */
	uint32_t nr_free_mt[MIGRATE_TYPES];
	unsigned long nr_free;
};

/*
 * The per-cpu page lists of order-0 pages (one CPU is modelled): frees go
 * to the list, allocations come from it, refilled and drained in batches
 * from the buddy lists (rmqueue_bulk / free_pcppages_bulk), as the kernel
 * does.  Pages on them count neither as free in free_area nor as used.
 */
struct per_cpu_pages {
	int count, high, batch;
	uint32_t lists[MIGRATE_PCPTYPES]; /* singly linked through ->next */
	int nr[MIGRATE_PCPTYPES];
};

struct zone;
struct alloc_policy;

/* Called by compaction when it moves an allocated page. */
typedef void (*migrate_page_fn)(void *owner, uint32_t handle, uint32_t old_pfn,
				uint32_t new_pfn);

/* Fallback and steal events, as mm_page_alloc_extfrag reports them. */
struct extfrag_stats {
	unsigned long fallbacks;   /* __rmqueue_fallback took another type */
	unsigned long fragmenting; /* fallback_order < pageblock_order */
	unsigned long steals;	   /* pageblock ownership changed */
	/* unmovable requests that moved none of the block's free pages */
	unsigned long polluting_unmovable;
	unsigned long alloc_fail;
	unsigned long alloc_success;
};

struct zone {
	const char *name;
	uint32_t nr_pages; /* spanned == present; a multiple of
			      MAX_ORDER_NR_PAGES */
	uint32_t nr_pageblocks;
	struct page *pages;
	uint8_t *pageblock_flags; /* migratetype per pageblock */
	struct free_area free_area[MAX_ORDER];
	/* bit o of nonempty[mt] set when free_area[o].free_list[mt] is not */
	uint16_t nonempty[MIGRATE_TYPES];
	unsigned long free_pages;
	unsigned long nr_blocks[MIGRATE_TYPES];
	unsigned long nr_reserved_highatomic, max_highatomic;
	const struct alloc_policy *policy;
	bool highatomic;	  /* 6.1: MIGRATE_HIGHATOMIC reserve enabled */
	bool debug_checks;	  /* run check_zone() after every operation */
	struct per_cpu_pages pcp; /* pcp.high == 0: no pcp lists */
	struct extfrag_stats stats;
	migrate_page_fn migrate_cb;
	void *migrate_owner;
};

/* alloc_pages() flags beyond the migratetype */
enum {
	ALLOC_HARDER = 1 << 0, /* atomic high-order: may use HIGHATOMIC */
};

/*
 * Set up a zone of NR_PAGES (rounded down to MAX_ORDER blocks) under
 * POLICY with every page free.  Returns 0 or -1 (too small, no memory).
 */
int zone_init(struct zone *zone, const char *name, uint32_t nr_pages,
	      const struct alloc_policy *policy);
void zone_destroy(struct zone *zone);

/*
 * Allocate 2^order pages for a request of migratetype MT (what the caller's
 * gfp mobility bits say; the policy decides which free lists serve it).
 * Returns the first pfn, or NIL_PFN when the zone has no block.
 */
uint32_t alloc_pages(struct zone *zone, unsigned int order, int mt,
		     unsigned int alloc_flags, uint8_t owner, uint32_t handle);
/* Free the block at PFN (its order is remembered); -1 if PFN is not the
 * head of an allocated block (a double or bogus free). */
int free_pages(struct zone *zone, uint32_t pfn);

/* Give every pcp page back to the buddy lists (drain_all_pages()). */
void drain_all_pages(struct zone *zone);
/* Turn the pcp lists off (after draining them) or on. */
void zone_set_pcp(struct zone *zone, bool on);

/* Kernel-named internals, exported for the policies and tests. */
uint32_t __rmqueue_smallest(struct zone *zone, unsigned int order, int mt);
void __free_one_page(struct zone *zone, uint32_t pfn, unsigned int order,
		     int migratetype);
int move_freepages_block(struct zone *zone, uint32_t pfn, int migratetype,
			 int *num_movable);
void expand(struct zone *zone, uint32_t pfn, unsigned int low,
	    unsigned int high, int migratetype);
void change_pageblock_range(struct zone *zone, uint32_t pfn, unsigned int order,
			    int migratetype);
void del_page_from_free_list(struct zone *zone, uint32_t pfn,
			     unsigned int order);
void add_to_free_list(struct zone *zone, uint32_t pfn, unsigned int order,
		      int migratetype);
void move_to_free_list(struct zone *zone, uint32_t pfn, unsigned int order,
		       int migratetype);

static inline int get_pageblock_migratetype(const struct zone *zone,
					    uint32_t pfn)
{
	return zone->pageblock_flags[pfn >> pageblock_order];
}

void set_pageblock_migratetype(struct zone *zone, uint32_t pfn, int mt);

static inline bool PageBuddy(const struct page *page)
{
	return page->flags & PG_buddy;
}

static inline unsigned int buddy_order(const struct page *page)
{
	return page->order;
}

static inline uint32_t __find_buddy_pfn(uint32_t pfn, unsigned int order)
{
	return pfn ^ (1U << order);
}

static inline bool free_area_empty(const struct free_area *area, int mt)
{
	return area->free_list[mt] == NIL_PFN;
}

/*
 * Debug invariant checker: every page in exactly one free or allocated
 * block, free buddies coalesced, list and block counts consistent.
 * Returns 0, or -1 with a description of the first violation in ERR.
 */
int check_zone(const struct zone *zone, char *err, size_t errlen);

/* Free blocks of order >= 9, in order-9 units (sim_curves.free_order9). */
unsigned long zone_free_order9(const struct zone *zone);

#endif

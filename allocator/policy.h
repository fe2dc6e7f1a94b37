/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_POLICY_H
#define GFPAUDIT_ALLOCATOR_POLICY_H

#include "allocator/mmzone.h"

/*
 * An anti-fragmentation policy: the fallback table of a kernel version
 * plus its rule functions.  Tables are terminated by MIGRATE_TYPES (6.1's
 * own sentinel); rows the kernel leaves out are { MIGRATE_TYPES }.
 */
#define MAX_FALLBACKS 4

struct alloc_policy {
	const char *name;   /* "nogroup", "2.6.24", "6.1" */
	const char *source; /* where the table and rules come from */
	/* page_group_by_mobility_disabled: every request is UNMOVABLE */
	bool mobility_disabled;
	/* 2.6.24: a MIGRATE_RESERVE of min_free_kbytes blocks */
	bool has_reserve;
	/* 6.1 may keep a MIGRATE_HIGHATOMIC reserve */
	bool has_highatomic;
	/*
	 * 2.6.24 rules: an unmovable fallback moves the block's free pages
	 * at any order, as 4.0's 9c0415e ("mm: more aggressive page
	 * stealing for UNMOVABLE allocations") made them (what-if only)
	 */
	bool steal_unmovable;
	int fallbacks[MIGRATE_TYPES][MAX_FALLBACKS];
	/* __rmqueue_fallback of that kernel: a pfn or NIL_PFN */
	uint32_t (*rmqueue_fallback)(struct zone *zone, unsigned int order,
				     int start_migratetype);
};

extern const struct alloc_policy policy_nogroup;
extern const struct alloc_policy policy_2624;
extern const struct alloc_policy policy_61;
extern const struct alloc_policy policy_2624_9c0415e;

/* All policies, NULL-terminated, in the order experiments print them. */
extern const struct alloc_policy *const alloc_policies[];

/*
 * What-if policies: a modelled kernel's rules with one later change, run
 * only when named with --policy (docs/allocator.md says what each shows).
 */
extern const struct alloc_policy *const whatif_policies[];

/* By name ("nogroup", "2.6.24", "6.1", or a what-if), or NULL. */
const struct alloc_policy *policy_find(const char *name);

/* The policy a kernel version ran with ("4.13" -> 2.6.24 rules). */
const struct alloc_policy *policy_for_version(const char *version);

/* 6.1's rule functions, by their kernel names. */
bool can_steal_fallback(const struct zone *zone, unsigned int order,
			int start_mt);
int find_suitable_fallback(const struct zone *zone, unsigned int order,
			   int migratetype, bool only_stealable,
			   bool *can_steal);
/*
 * The kernel's returns nothing; the model's says whether the block's free
 * pages (or the whole block) went to START_TYPE, not just the chunk taken.
 */
bool steal_suitable_fallback(struct zone *zone, uint32_t pfn, int start_type,
			     bool whole_block);

/* Which migratetype list a request of MT is served from (gfp_migratetype). */
static inline int policy_migratetype(const struct alloc_policy *p, int mt)
{
	return p->mobility_disabled ? MIGRATE_UNMOVABLE : mt;
}

#endif

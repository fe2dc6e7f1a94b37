// SPDX-License-Identifier: GPL-2.0
/*
 * sites.flag_effective: whether the site's mobility bits (the
 * migratetype its mask evaluates to) change where the memory comes from
 * on the scanned kernel version.
 *
 * - The page allocator (__get_free_pages, alloc_pages, ...) and vmalloc's
 *   page allocations honour them: grouping by mobility is 2.6.24's.
 * - Slab objects live in slab pages allocated with the cache's own flags
 *   (SLUB's allocate_slab() keeps only the reclaim and constraint bits of
 *   the caller's mask): a kmem_cache_alloc() caller's mobility bits never
 *   count, only the cache's SLAB_RECLAIM_ACCOUNT does.
 * - kmalloc() and its users (kstrdup, kasprintf, kvmalloc's kmalloc path)
 *   ignored __GFP_RECLAIMABLE before 4.20, whose kmalloc-rcl-* caches are
 *   chosen by it; a kmalloc() above KMALLOC_MAX_CACHE_SIZE (8 KiB with
 *   SLUB and 4 KiB pages) goes straight to the page allocator and keeps
 *   the bits.  __GFP_MOVABLE is never honoured by slab.
 */
#include "analyzer/tables.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <string.h>

#define KMALLOC_MAX_CACHE_SIZE 8192

static void set(struct site *s, int effective, const char *reason)
{
	s->flag_effective = effective;
	s->flag_effective_reason = xstrdup(reason);
}

static void slab_site(struct walk_ctx *w, struct site *s,
		      const struct alloc_fn *a)
{
	long v = kversion_code(w->kv);
	int reclaimable = !strcmp(s->migratetype, "reclaimable");

	if (!strncmp(s->api, "kmem_cache_", 11) ||
	    (a->via && !strncmp(a->via, "kmem_cache_", 11))) {
		set(s, 0,
		    "kmem_cache_alloc() takes the cache's flags; the "
		    "caller's mobility bits are ignored");
		return;
	}
	if (s->size_known && s->size_const > KMALLOC_MAX_CACHE_SIZE) {
		set(s, 1,
		    "a kmalloc() above 8 KiB goes to the page allocator "
		    "with these flags (SLUB)");
		return;
	}
	if (!reclaimable)
		set(s, 0, "slab ignores __GFP_MOVABLE");
	else if (v >= (4L << 16) + (20L << 8))
		set(s, 1,
		    "__GFP_RECLAIMABLE selects the kmalloc-rcl caches "
		    "(4.20+)");
	else
		set(s, 0, "kmalloc strips mobility bits before 4.20");
}

static void effective_site(struct walk_ctx *w, struct site *s, CXCursor call,
			   CXCursor fn)
{
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			  : NULL;

	(void)call;
	(void)fn;
	if (!a || !s->mask_known || !s->migratetype || !w->kv)
		return;
	if (a->kind == AK_CACHE_CREATE) {
		if (!strcmp(s->migratetype, "reclaimable"))
			set(s, 1,
			    "SLAB_RECLAIM_ACCOUNT: the cache's slabs come "
			    "from reclaimable pageblocks");
		return;
	}
	if (a->kind != AK_ALLOC || !strcmp(s->migratetype, "unmovable") ||
	    !a->family)
		return;
	if (!strcmp(a->family, "page"))
		set(s, 1, "the page allocator groups pages by migratetype");
	else if (!strcmp(a->family, "vmalloc"))
		set(s, 1,
		    "vmalloc allocates the area's pages with these flags");
	else if (!strcmp(a->family, "slab") || !strcmp(a->family, "string"))
		slab_site(w, s, a);
}

/* listed in analyzer/check_list.h */
const struct classifier effective_classifier = {
	.name = "flag_effective",
	.site = effective_site,
};


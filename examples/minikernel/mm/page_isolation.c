// SPDX-License-Identifier: GPL-2.0
/* 2.6.24-era helper that rewrites the mobility bits of a mask. */
#include <linux/gfp.h>

static inline gfp_t set_migrateflags(gfp_t gfp, gfp_t migrate_flags)
{
	return (gfp & ~(GFP_MOVABLE_MASK)) | migrate_flags;
}

static struct page *alloc_reclaimable(void)
{
	return alloc_pages(set_migrateflags(GFP_KERNEL, __GFP_RECLAIMABLE),
			   1);
}

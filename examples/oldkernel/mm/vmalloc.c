/* 2.6.24: mobility bits rewritten with set_migrateflags(). */
#include <linux/gfp.h>

static struct page *alloc_area_page(gfp_t gfp_mask)
{
	return alloc_pages(set_migrateflags(gfp_mask, __GFP_RECLAIMABLE), 0);
}

static struct page *alloc_user_page(void)
{
	return alloc_page(GFP_HIGHUSER_MOVABLE);
}

static struct page *alloc_odd_page(void)
{
	return alloc_pages(GFP_KERNEL | GFP_MOVABLE_MASK, 0);
}

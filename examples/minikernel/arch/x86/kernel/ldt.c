// SPDX-License-Identifier: GPL-2.0
/* A movable page allocation and a lock annotation between ) and {. */
#include <linux/gfp.h>

static struct page *alloc_ldt_page(void)
	__acquires(ldt_lock)
{
	return alloc_pages(GFP_KERNEL | __GFP_MOVABLE, 0);
}

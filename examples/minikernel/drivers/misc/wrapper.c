// SPDX-License-Identifier: GPL-2.0
/* A wrapper that takes a gfp_t and hands it to the allocator. */
#include <linux/slab.h>

void *drm_malloc_gfp(unsigned long nmemb, unsigned long size, gfp_t gfp)
{
	if (size != 0 && nmemb > (unsigned long)-1 / size)
		return (void *)0;
	return kmalloc(nmemb * size, gfp);
}

static int drm_use(void)
{
	void *p = drm_malloc_gfp(16, 64, GFP_TEMPORARY);

	kfree(p);
	return 0;
}

/* 2.6.24 dcache: the reclaimable slab cache, five-argument create. */
#include <linux/slab.h>

static struct kmem_cache *dentry_cache;

void dcache_init(void)
{
	dentry_cache = kmem_cache_create("dentry_cache", 192, 0,
					 SLAB_RECLAIM_ACCOUNT | SLAB_PANIC,
					 NULL);
}

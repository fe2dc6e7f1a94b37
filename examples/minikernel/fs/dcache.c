// SPDX-License-Identifier: GPL-2.0
/* Slab caches whose objects are reclaimable by a shrinker. */
#include <linux/slab.h>

struct dentry {
	int d_flags;
};

struct inode {
	int i_state;
};

static struct kmem_cache *dentry_cache;
static struct kmem_cache *inode_cachep;

static void dcache_init(void)
{
	dentry_cache = kmem_cache_create("dentry", sizeof(struct dentry), 0,
					 SLAB_RECLAIM_ACCOUNT | SLAB_PANIC,
					 NULL);
	inode_cachep = KMEM_CACHE(inode, SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT);
}

static struct dentry *d_alloc(void)
{
	return kmem_cache_alloc(dentry_cache, GFP_KERNEL);
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/gfp.h>

#define SLAB_HWCACHE_ALIGN	0x00002000UL
#define SLAB_PANIC		0x00040000UL
#define SLAB_RECLAIM_ACCOUNT	0x00020000UL	/* Objects are reclaimable */
#define SLAB_TEMPORARY		SLAB_RECLAIM_ACCOUNT	/* Objects are short-lived */
#define SLAB_ACCOUNT		0x04000000UL

void *__kmalloc(unsigned long size, gfp_t flags);
static inline void *kmalloc(unsigned long size, gfp_t flags)
{
	return __kmalloc(size, flags);
}
static inline void *kzalloc(unsigned long size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}
void kfree(const void *p);
#define KMEM_CACHE(__struct, __flags) kmem_cache_create(#__struct,\
		sizeof(struct __struct), __alignof__(struct __struct),\
		(__flags), NULL)

/* Declared so that sparse checks the users instead of erroring. */
void *kvmalloc(unsigned long size, gfp_t flags);
char *kstrdup(const char *s, gfp_t gfp);
int printk(const char *fmt, ...);
#define pr_debug(fmt, ...) printk(fmt, ##__VA_ARGS__)

#endif

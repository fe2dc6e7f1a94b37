/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_SLAB_H
#define GFPAUDIT_ALLOCATOR_SLAB_H

#include <stdbool.h>
#include <stdint.h>

#include "allocator/mmzone.h"

/*
 * A SLUB-like slab layer over the model zone: kmalloc size classes and
 * named caches whose slab pages are allocated with the cache's
 * migratetype (SLAB_RECLAIM_ACCOUNT: reclaimable), version-aware:
 *  - before 4.20, slab pages take only the cache's own mobility: kmalloc
 *    ignores the caller's __GFP_RECLAIMABLE (SLUB passes the caller's
 *    flags through GFP_RECLAIM_MASK, which has no mobility bits);
 *  - from 4.20, kmalloc(__GFP_RECLAIMABLE) is served by the kmalloc-rcl-N
 *    caches, created SLAB_RECLAIM_ACCOUNT.
 * kmalloc above KMALLOC_MAX_CACHE_SIZE goes to the page allocator with the
 * caller's mobility (kmalloc_large).
 */
#define SLAB_RECLAIM_ACCOUNT 0x00020000U /* include/linux/slab.h */
#define KMALLOC_MAX_CACHE_SIZE (2 * PAGE_SIZE)
#define SLAB_MAX_ORDER 3 /* slub_max_order */
#define NR_KMALLOC 13	 /* 8 .. 8192 with 96 and 192 */
#define SLAB_OBJ_BITS 12
#define HANDLE_LARGE 0x80000000U /* handle is a pfn of kmalloc_large */
#define NIL_HANDLE UINT32_MAX

struct slab_layer;

struct kmem_cache {
	char name[32];
	unsigned int size, order, objects;
	int migratetype;
	unsigned long nr_slabs,
		nr_objects; /* slabs allocated, objects in use */
	uint32_t partial;   /* slab id of the first slab with a free object */
};

struct slab {
	uint32_t pfn;
	uint16_t inuse, nfree;
	uint16_t cache;
	uint32_t next_partial, prev_partial;
	uint16_t *freelist; /* free object indices (a stack) */
};

struct slab_layer {
	struct zone *zone;
	bool kmalloc_rcl; /* 4.20+: kmalloc-rcl-N caches exist */
	struct kmem_cache *caches;
	unsigned int nr_caches, alloc_caches;
	int kmalloc_idx[NR_KMALLOC], kmalloc_rcl_idx[NR_KMALLOC];
	struct slab *slabs;
	uint32_t nr_slabs, alloc_slabs, free_slab_ids;
	unsigned long alloc_fail;
};

/* KERNEL_VERSION decides kmalloc-rcl; NULL means 6.1. */
int slab_init(struct slab_layer *sl, struct zone *zone,
	      const char *kernel_version);
void slab_destroy(struct slab_layer *sl);

/* A named cache; returns its index. */
int kmem_cache_create(struct slab_layer *sl, const char *name,
		      unsigned int size, unsigned int slab_flags);
struct kmem_cache *slab_cache(struct slab_layer *sl, int idx);
/* An object handle, or NIL_HANDLE when the zone is out of pages. */
uint32_t kmem_cache_alloc(struct slab_layer *sl, int cache);
void kmem_cache_free(struct slab_layer *sl, uint32_t handle);
/* MT is the mobility the caller's gfp flags ask for. */
uint32_t kmalloc(struct slab_layer *sl, unsigned int size, int mt);
void kfree(struct slab_layer *sl, uint32_t handle);
/* The cache kmalloc(SIZE, MT) uses, or -1 for kmalloc_large. */
int kmalloc_cache(const struct slab_layer *sl, unsigned int size, int mt);
/* Pages held by slabs of migratetype MT. */
unsigned long slab_pages(const struct slab_layer *sl, int mt);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The slab layer of the model (SLUB-like): a slab is 2^order pages of one
 * cache, its objects handed out from a free index stack; a slab whose last
 * object is freed goes back to the page allocator (SLUB keeps a few empty
 * slabs per node, min_partial; the model keeps none, which only makes
 * freed slab memory visible sooner).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/slab.h"
#include "lib/ktree.h"
#include "lib/util.h"

static const unsigned int kmalloc_sizes[NR_KMALLOC] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192};

#define NO_SLAB UINT32_MAX

/*
 * SLUB's calculate_order(): the smallest order holding min_objects, where
 * min_objects = 4 * (fls(nr_cpu_ids) + 1) = 12 for the model's two CPUs,
 * and at most slub_max_order.
 */
static unsigned int slab_order(unsigned int size)
{
	unsigned int order;

	for (order = 0; order < SLAB_MAX_ORDER; order++)
		if ((PAGE_SIZE << order) / size >= 12)
			break;
	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

int kmem_cache_create(struct slab_layer *sl, const char *name,
		      unsigned int size, unsigned int slab_flags)
{
	struct kmem_cache *c;

	if (!size || size > (PAGE_SIZE << SLAB_MAX_ORDER))
		return -1;
	if (sl->nr_caches == sl->alloc_caches) {
		sl->alloc_caches = sl->alloc_caches ? sl->alloc_caches * 2 : 32;
		sl->caches = xrealloc(sl->caches,
				      sl->alloc_caches * sizeof(*sl->caches));
	}
	c = &sl->caches[sl->nr_caches];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	/* objects are at least word aligned */
	c->size = (size + 7) & ~7U;
	c->order = slab_order(c->size);
	c->objects = (PAGE_SIZE << c->order) / c->size;
	if (c->objects >= (1U << SLAB_OBJ_BITS))
		c->objects = (1U << SLAB_OBJ_BITS) - 1;
	c->migratetype = (slab_flags & SLAB_RECLAIM_ACCOUNT)
				 ? MIGRATE_RECLAIMABLE
				 : MIGRATE_UNMOVABLE;
	c->partial = NO_SLAB;
	return (int)sl->nr_caches++;
}

struct kmem_cache *slab_cache(struct slab_layer *sl, int idx)
{
	return &sl->caches[idx];
}

int slab_init(struct slab_layer *sl, struct zone *zone,
	      const char *kernel_version)
{
	struct kversion kv, v420;
	int i;

	memset(sl, 0, sizeof(*sl));
	sl->zone = zone;
	sl->free_slab_ids = NO_SLAB;
	kversion_parse("4.20", &v420);
	sl->kmalloc_rcl =
		!kernel_version || (kversion_parse(kernel_version, &kv) == 0 &&
				    kversion_cmp(&kv, &v420) >= 0);
	for (i = 0; i < NR_KMALLOC; i++) {
		char name[32];

		snprintf(name, sizeof(name), "kmalloc-%u", kmalloc_sizes[i]);
		sl->kmalloc_idx[i] =
			kmem_cache_create(sl, name, kmalloc_sizes[i], 0);
		sl->kmalloc_rcl_idx[i] = -1;
		if (sl->kmalloc_rcl) {
			snprintf(name, sizeof(name), "kmalloc-rcl-%u",
				 kmalloc_sizes[i]);
			sl->kmalloc_rcl_idx[i] =
				kmem_cache_create(sl, name, kmalloc_sizes[i],
						  SLAB_RECLAIM_ACCOUNT);
		}
	}
	return 0;
}

void slab_destroy(struct slab_layer *sl)
{
	uint32_t i;

	for (i = 0; i < sl->nr_slabs; i++)
		free(sl->slabs[i].freelist);
	free(sl->slabs);
	free(sl->caches);
	memset(sl, 0, sizeof(*sl));
}

static void partial_add(struct slab_layer *sl, struct kmem_cache *c,
			uint32_t id)
{
	struct slab *s = &sl->slabs[id];

	s->prev_partial = NO_SLAB;
	s->next_partial = c->partial;
	if (c->partial != NO_SLAB)
		sl->slabs[c->partial].prev_partial = id;
	c->partial = id;
}

static void partial_del(struct slab_layer *sl, struct kmem_cache *c,
			uint32_t id)
{
	struct slab *s = &sl->slabs[id];

	if (s->prev_partial != NO_SLAB)
		sl->slabs[s->prev_partial].next_partial = s->next_partial;
	else
		c->partial = s->next_partial;
	if (s->next_partial != NO_SLAB)
		sl->slabs[s->next_partial].prev_partial = s->prev_partial;
}

static uint32_t new_slab(struct slab_layer *sl, int cache)
{
	struct kmem_cache *c = &sl->caches[cache];
	struct slab *s;
	uint32_t id, pfn;
	unsigned int i;

	if (sl->free_slab_ids != NO_SLAB) {
		id = sl->free_slab_ids;
		sl->free_slab_ids = sl->slabs[id].next_partial;
	} else {
		if (sl->nr_slabs >= (HANDLE_LARGE >> SLAB_OBJ_BITS))
			return NO_SLAB;
		if (sl->nr_slabs == sl->alloc_slabs) {
			sl->alloc_slabs =
				sl->alloc_slabs ? sl->alloc_slabs * 2 : 1024;
			sl->slabs =
				xrealloc(sl->slabs,
					 sl->alloc_slabs * sizeof(*sl->slabs));
		}
		id = sl->nr_slabs++;
		sl->slabs[id].freelist = NULL;
	}
	pfn = alloc_pages(sl->zone, c->order, c->migratetype, 0, OWNER_SLAB,
			  id);
	s = &sl->slabs[id];
	if (pfn == NIL_PFN) {
		s->next_partial = sl->free_slab_ids;
		sl->free_slab_ids = id;
		return NO_SLAB;
	}
	s->pfn = pfn;
	s->cache = (uint16_t)cache;
	s->inuse = 0;
	s->nfree = (uint16_t)c->objects;
	s->freelist = xrealloc(s->freelist, c->objects * sizeof(uint16_t));
	for (i = 0; i < c->objects; i++)
		s->freelist[i] = (uint16_t)(c->objects - 1 - i);
	c->nr_slabs++;
	partial_add(sl, c, id);
	return id;
}

uint32_t kmem_cache_alloc(struct slab_layer *sl, int cache)
{
	struct kmem_cache *c = &sl->caches[cache];
	uint32_t id = c->partial;
	struct slab *s;
	unsigned int obj;

	if (id == NO_SLAB)
		id = new_slab(sl, cache);
	if (id == NO_SLAB) {
		sl->alloc_fail++;
		return NIL_HANDLE;
	}
	s = &sl->slabs[id];
	obj = s->freelist[--s->nfree];
	s->inuse++;
	if (!s->nfree)
		partial_del(sl, c, id);
	c->nr_objects++;
	return id << SLAB_OBJ_BITS | obj;
}

void kmem_cache_free(struct slab_layer *sl, uint32_t handle)
{
	uint32_t id = handle >> SLAB_OBJ_BITS;
	struct slab *s = &sl->slabs[id];
	struct kmem_cache *c = &sl->caches[s->cache];

	if (!s->nfree)
		partial_add(sl, c, id);
	s->freelist[s->nfree++] =
		(uint16_t)(handle & ((1U << SLAB_OBJ_BITS) - 1));
	s->inuse--;
	c->nr_objects--;
	if (!s->inuse) {
		/* discard_slab(): the empty slab's pages go back */
		partial_del(sl, c, id);
		free_pages(sl->zone, s->pfn);
		c->nr_slabs--;
		s->next_partial = sl->free_slab_ids;
		sl->free_slab_ids = id;
	}
}

int kmalloc_cache(const struct slab_layer *sl, unsigned int size, int mt)
{
	int i;

	if (size > KMALLOC_MAX_CACHE_SIZE)
		return -1;
	for (i = 0; i < NR_KMALLOC; i++)
		if (size <= kmalloc_sizes[i])
			break;
	if (mt == MIGRATE_RECLAIMABLE && sl->kmalloc_rcl)
		return sl->kmalloc_rcl_idx[i];
	return sl->kmalloc_idx[i];
}

uint32_t kmalloc(struct slab_layer *sl, unsigned int size, int mt)
{
	int cache = kmalloc_cache(sl, size, mt);
	unsigned int order = 0;
	uint32_t pfn;

	if (cache >= 0)
		return kmem_cache_alloc(sl, cache);
	/* kmalloc_large(): the page allocator, caller's flags */
	while ((PAGE_SIZE << order) < size)
		order++;
	/* kmalloc memory is never movable, whatever the caller asked */
	pfn = alloc_pages(sl->zone, order, mt, 0, OWNER_SLAB, NIL_PFN);
	if (pfn == NIL_PFN) {
		sl->alloc_fail++;
		return NIL_HANDLE;
	}
	return HANDLE_LARGE | pfn;
}

void kfree(struct slab_layer *sl, uint32_t handle)
{
	if (handle & HANDLE_LARGE)
		free_pages(sl->zone, handle & ~HANDLE_LARGE);
	else
		kmem_cache_free(sl, handle);
}

unsigned long slab_pages(const struct slab_layer *sl, int mt)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < sl->nr_caches; i++)
		if (sl->caches[i].migratetype == mt)
			n += sl->caches[i].nr_slabs << sl->caches[i].order;
	return n;
}

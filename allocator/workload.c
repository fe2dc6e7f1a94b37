// SPDX-License-Identifier: GPL-2.0
/*
 * The workload engine: see allocator/workload.h.  Objects live in one
 * table (slot = page->private for page-backed objects, so compaction can
 * tell the owner where a page went); per-stream FIFOs give the expiry
 * order of short-lived objects, the LRU order of page cache and the
 * shrinker order of reclaimable slab objects.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/compaction.h"
#include "allocator/slab.h"
#include "allocator/vmstat.h"
#include "allocator/workload.h"
#include "lib/util.h"

struct fifo {
	uint32_t *v;
	size_t head, len, cap;
};

static void fifo_push(struct fifo *f, uint32_t x)
{
	if (f->len == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 1024, i;
		uint32_t *nv = xmalloc(ncap * sizeof(*nv));

		for (i = 0; i < f->len; i++)
			nv[i] = f->v[(f->head + i) % f->cap];
		free(f->v);
		f->v = nv;
		f->head = 0;
		f->cap = ncap;
	}
	f->v[(f->head + f->len++) % f->cap] = x;
}

static uint32_t fifo_peek(const struct fifo *f)
{
	return f->v[f->head];
}

static uint32_t fifo_pop(struct fifo *f)
{
	uint32_t x = f->v[f->head];

	f->head = (f->head + 1) % f->cap;
	f->len--;
	return x;
}

struct obj {
	uint32_t handle; /* pfn for page-backed objects, else slab handle */
	uint32_t expiry; /* LIFE_SHORT: step it is freed at */
	uint16_t stream;
	uint8_t pinned;
};

struct wl {
	const struct workload_config *cfg;
	const struct stream *streams;
	int nr;
	struct zone zone;
	struct slab_layer slab;
	int *cache_of; /* SK_CACHE stream -> slab cache index */
	struct obj *objs;
	uint32_t nr_objs, alloc_objs;
	struct fifo free_slots;
	struct fifo *queue; /* per stream */
	unsigned long lru_pages, reclaimable_objs, alloc_failures;
	uint64_t rng;
};

static uint64_t rnd(struct wl *w)
{
	/* xorshift64*: deterministic for a seed, fast */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 2685821657736338717ULL;
}

static void wl_migrate(void *owner, uint32_t slot, uint32_t old_pfn,
		       uint32_t new_pfn)
{
	struct wl *w = owner;

	(void)old_pfn;
	w->objs[slot].handle = new_pfn;
}

static uint32_t slot_get(struct wl *w)
{
	if (w->free_slots.len)
		return fifo_pop(&w->free_slots);
	if (w->nr_objs == w->alloc_objs) {
		w->alloc_objs = w->alloc_objs ? w->alloc_objs * 2 : 65536;
		w->objs = xrealloc(w->objs, w->alloc_objs * sizeof(*w->objs));
	}
	return w->nr_objs++;
}

static bool page_backed(const struct stream *s)
{
	return s->kind == SK_PAGECACHE || s->kind == SK_PAGES;
}

static void obj_free(struct wl *w, uint32_t slot)
{
	struct obj *o = &w->objs[slot];
	const struct stream *s = &w->streams[o->stream];

	if (page_backed(s))
		free_pages(&w->zone, o->handle);
	else if (s->kind == SK_KMALLOC)
		kfree(&w->slab, o->handle);
	else
		kmem_cache_free(&w->slab, o->handle);
	if (s->kind == SK_PAGECACHE)
		w->lru_pages--;
	if (s->life == LIFE_RECLAIM)
		w->reclaimable_objs--;
	fifo_push(&w->free_slots, slot);
}

/* Shrink stream S's objects: scan up to NR, freeing the unpinned ones. */
static unsigned long shrink_stream(struct wl *w, int si, unsigned long nr)
{
	struct fifo *q = &w->queue[si];
	unsigned long freed = 0;

	while (nr-- && q->len) {
		uint32_t slot = fifo_pop(q);

		if (w->objs[slot].pinned) {
			fifo_push(q, slot); /* referenced: rotate */
			continue;
		}
		obj_free(w, slot);
		freed++;
	}
	return freed;
}

/*
 * kswapd-like balancing: below the low watermark, evict page cache from
 * the LRU tail and scan the shrinkers in proportion (shrink_slab() scans
 * objects in the ratio of LRU pages scanned to LRU size) until the high
 * watermark is met.
 */
static void balance_zone(struct wl *w)
{
	unsigned long low = w->zone.nr_pages / 64, high = w->zone.nr_pages / 32;
	int i;

	if (w->zone.free_pages >= low)
		return;
	while (w->zone.free_pages < high) {
		unsigned long freed = 0, lru = w->lru_pages ? w->lru_pages : 1;

		for (i = 0; i < w->nr; i++) {
			const struct stream *s = &w->streams[i];

			if (s->life == LIFE_LRU)
				freed += shrink_stream(w, i, 32);
			else if (s->life == LIFE_RECLAIM) {
				unsigned long scan =
					w->queue[i].len * 32 / lru + 1;

				freed += shrink_stream(w, i, scan);
			}
		}
		if (!freed)
			break;
	}
}

static int alloc_one(struct wl *w, int si, unsigned long step)
{
	const struct stream *s = &w->streams[si];
	uint32_t slot = slot_get(w), h;
	struct obj *o = &w->objs[slot];

	switch (s->kind) {
	case SK_PAGECACHE:
		h = alloc_pages(&w->zone, 0, s->mt, s->alloc_flags,
				OWNER_PAGECACHE, slot);
		break;
	case SK_PAGES:
		h = alloc_pages(&w->zone, s->order, s->mt, s->alloc_flags,
				OWNER_PAGE, slot);
		break;
	case SK_KMALLOC:
		h = kmalloc(&w->slab, s->size, s->mt);
		if (h == NIL_HANDLE)
			h = NIL_PFN;
		break;
	default:
		h = kmem_cache_alloc(&w->slab, w->cache_of[si]);
		if (h == NIL_HANDLE)
			h = NIL_PFN;
		break;
	}
	if (h == NIL_PFN) {
		fifo_push(&w->free_slots, slot);
		w->alloc_failures++;
		return -1;
	}
	o->handle = h;
	o->stream = (uint16_t)si;
	o->pinned = s->life == LIFE_RECLAIM && rnd(w) % 100 < s->pinned_pct;
	o->expiry = (uint32_t)(step + s->life_steps);
	if (s->kind == SK_PAGECACHE)
		w->lru_pages++;
	if (s->life == LIFE_RECLAIM)
		w->reclaimable_objs++;
	fifo_push(&w->queue[si], slot);
	return 0;
}

static void expire(struct wl *w, unsigned long step)
{
	int i;

	for (i = 0; i < w->nr; i++) {
		struct fifo *q = &w->queue[i];

		if (w->streams[i].life != LIFE_SHORT)
			continue;
		while (q->len && w->objs[fifo_peek(q)].expiry <= step)
			obj_free(w, fifo_pop(q));
	}
}

static double stream_weight(const struct stream *s, double t)
{
	if (s->burst_end > s->burst_start && t >= s->burst_start &&
	    t < s->burst_end)
		return s->burst_weight;
	return s->weight;
}

static int pick_stream(struct wl *w, double t)
{
	double total = 0, r;
	int i;

	for (i = 0; i < w->nr; i++)
		total += stream_weight(&w->streams[i], t);
	if (total <= 0)
		return -1;
	r = (double)(rnd(w) >> 11) / 9007199254740992.0 * total;
	for (i = 0; i < w->nr; i++) {
		r -= stream_weight(&w->streams[i], t);
		if (r < 0)
			return i;
	}
	return w->nr - 1;
}

static void add_metric(struct sim_result *res, const char *name, double v)
{
	if (res->nr_metrics < SIM_MAX_METRICS) {
		res->metrics[res->nr_metrics].name = name;
		res->metrics[res->nr_metrics].value = v;
		res->nr_metrics++;
	}
}

double sim_metric_get(const struct sim_result *res, const char *name,
		      bool *found)
{
	int i;

	for (i = 0; i < res->nr_metrics; i++)
		if (!strcmp(res->metrics[i].name, name)) {
			if (found)
				*found = true;
			return res->metrics[i].value;
		}
	if (found)
		*found = false;
	return 0;
}

static void add_curve(struct sim_result *res, unsigned long step,
		      const struct zone *zone)
{
	if (res->nr_curve < SIM_CURVE_POINTS + 2) {
		res->curve_step[res->nr_curve] = step;
		res->curve_free9[res->nr_curve] = zone_free_order9(zone);
		res->nr_curve++;
	}
}

/* Short-lived objects freed, shrinkers run to the end, then compaction. */
static void bring_to_rest(struct wl *w, struct sim_result *res)
{
	struct compact_result cr;
	int i;

	for (i = 0; i < w->nr; i++) {
		struct fifo *q = &w->queue[i];

		if (w->streams[i].life == LIFE_SHORT)
			while (q->len)
				obj_free(w, fifo_pop(q));
		else if (w->streams[i].life == LIFE_RECLAIM)
			shrink_stream(w, i, q->len);
	}
	compact_zone(&w->zone, &cr);
	add_metric(res, "compaction_migrated", (double)cr.migrated);
}

static void index_metrics(struct wl *w, struct sim_result *res)
{
	unsigned long nr_free[MAX_ORDER];
	struct contig_page_info info;

	zone_nr_free(&w->zone, nr_free);
	fill_contig_page_info(nr_free, MAX_ORDER, pageblock_order, &info);
	add_metric(res, "unusable_index_9",
		   unusable_free_index(pageblock_order, &info) / 1000.0);
	add_metric(res, "fragmentation_index_9",
		   __fragmentation_index(pageblock_order, MAX_ORDER, &info) /
			   1000.0);
}

/*
 * Order-9 attempts at rest, as many as succeed, as a percentage of what
 * the free memory could hold; the blocks are given back afterwards.
 */
static void highorder_probe(struct wl *w, struct sim_result *res,
			    const char *pct_name, const char *got_name,
			    const char *possible_name)
{
	unsigned long possible = w->zone.free_pages >> pageblock_order, got = 0;
	uint32_t *blocks = xmalloc((possible + 1) * sizeof(*blocks)), pfn;

	while (got <= possible &&
	       (pfn = alloc_pages(&w->zone, pageblock_order, MIGRATE_MOVABLE, 0,
				  OWNER_PAGE, NIL_PFN)) != NIL_PFN)
		blocks[got++] = pfn;
	add_metric(res, possible_name, (double)possible);
	add_metric(res, got_name, (double)got);
	add_metric(res, pct_name,
		   possible ? 100.0 * (double)got / (double)possible : 0);
	while (got)
		free_pages(&w->zone, blocks[--got]);
	free(blocks);
}

/* echo 3 > drop_caches: the page cache goes too, then compact again. */
static void drop_caches(struct wl *w, struct sim_result *res)
{
	struct compact_result cr;
	int i;

	for (i = 0; i < w->nr; i++)
		if (w->streams[i].life == LIFE_LRU)
			shrink_stream(w, i, w->queue[i].len);
	compact_zone(&w->zone, &cr);
	add_metric(res, "compaction_migrated_dropped", (double)cr.migrated);
	add_metric(res, "free_pages_at_rest", (double)w->zone.free_pages);
}

/*
 * The zone at rest as the kernel would show it, /proc/buddyinfo and
 * /proc/pagetypeinfo, so `gfpaudit fragstat` can read the model too.
 */
static int write_proc(const struct wl *w, const char *dir, const char *policy)
{
	static const char *const names[] = {"buddyinfo", "pagetypeinfo"};
	int i;

	for (i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s.%s", dir, names[i], policy);
		FILE *f = fopen(path, "w");
		int bad;

		if (!f) {
			error_msg("simulate: %s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		if (i == 0)
			print_buddyinfo(f, &w->zone);
		else
			print_pagetypeinfo(f, &w->zone);
		bad = ferror(f);
		bad |= fclose(f);
		if (bad) {
			error_msg("simulate: %s: write error", path);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

static void wl_free(struct wl *w)
{
	int i;

	for (i = 0; i < w->nr; i++)
		free(w->queue[i].v);
	free(w->queue);
	free(w->free_slots.v);
	free(w->objs);
	free(w->cache_of);
	slab_destroy(&w->slab);
	zone_destroy(&w->zone);
}

int run_workload(const struct workload_config *cfg,
		 const struct alloc_policy *policy,
		 const struct stream *streams, int nr, struct sim_result *res)
{
	unsigned long mixed_by[MIGRATE_TYPES], step, every;
	struct wl w = {.cfg = cfg, .streams = streams, .nr = nr};
	const char *kv = cfg->kernel_version;
	int i;

	memset(res, 0, sizeof(*res));
	res->policy = policy->name;
	if (zone_init(&w.zone, "Normal", cfg->nr_pages, policy) < 0)
		return -1;
	w.zone.highatomic = cfg->highatomic && policy->has_highatomic;
	w.zone.debug_checks = cfg->debug_checks;
	w.zone.migrate_cb = wl_migrate;
	w.zone.migrate_owner = &w;
	w.rng = cfg->seed ? cfg->seed : 1;
	if (!kv)
		kv = policy == &policy_61 ? "6.1" : "2.6.24";
	slab_init(&w.slab, &w.zone, kv);
	w.cache_of = xcalloc((size_t)nr, sizeof(int));
	w.queue = xcalloc((size_t)nr, sizeof(struct fifo));
	for (i = 0; i < nr; i++)
		if (streams[i].kind == SK_CACHE)
			w.cache_of[i] = kmem_cache_create(
				&w.slab, streams[i].name, streams[i].size,
				streams[i].slab_flags);
	every = cfg->steps / SIM_CURVE_POINTS ? cfg->steps / SIM_CURVE_POINTS
					      : 1;
	for (step = 0; step < cfg->steps; step++) {
		int si;

		if (step % every == 0)
			add_curve(res, step, &w.zone);
		expire(&w, step);
		balance_zone(&w);
		si = pick_stream(&w, (double)step / (double)cfg->steps);
		if (si >= 0)
			alloc_one(&w, si, step);
	}
	add_curve(res, cfg->steps, &w.zone);
	add_metric(res, "mixed_pageblocks",
		   (double)zone_mixed_pageblocks(&w.zone, mixed_by));
	add_metric(res, "mixed_mobility_pageblocks",
		   (double)zone_mixed_mobility_blocks(&w.zone));
	add_metric(res, "blocks_unmovable",
		   (double)w.zone.nr_blocks[MIGRATE_UNMOVABLE]);
	add_metric(res, "blocks_reclaimable",
		   (double)w.zone.nr_blocks[MIGRATE_RECLAIMABLE]);
	add_metric(res, "blocks_movable",
		   (double)w.zone.nr_blocks[MIGRATE_MOVABLE]);
	add_metric(res, "fallbacks", (double)w.zone.stats.fallbacks);
	add_metric(res, "fragmenting_fallbacks",
		   (double)w.zone.stats.fragmenting);
	add_metric(res, "steals", (double)w.zone.stats.steals);
	add_metric(res, "polluting_unmovable",
		   (double)w.zone.stats.polluting_unmovable);
	add_metric(res, "alloc_failures", (double)w.alloc_failures);
	bring_to_rest(&w, res);
	add_metric(res, "mixed_pageblocks_at_rest",
		   (double)zone_mixed_pageblocks(&w.zone, mixed_by));
	add_curve(res, cfg->steps + 1, &w.zone);
	/* page cache kept (migrated by compaction): few free blocks */
	add_metric(res, "free_pages_cached", (double)w.zone.free_pages);
	highorder_probe(&w, res, "highorder_success_pct_cached",
			"highorder_allocated_cached",
			"highorder_possible_cached");
	/* the headline: clean page cache reclaimed too, as Gorman's test */
	drop_caches(&w, res);
	index_metrics(&w, res);
	if (cfg->proc_out && write_proc(&w, cfg->proc_out, policy->name) < 0) {
		wl_free(&w);
		return -2;
	}
	add_curve(res, cfg->steps + 2, &w.zone);
	highorder_probe(&w, res, "highorder_success_pct", "highorder_allocated",
			"highorder_possible");
	wl_free(&w);
	return 0;
}

#define U MIGRATE_UNMOVABLE
#define M MIGRATE_MOVABLE
#define R MIGRATE_RECLAIMABLE

/*
 * Gorman's test: a kernel build with an updatedb-like burst of dentries
 * and inodes, under memory pressure from page cache.  Sizes are 6.1
 * x86-64's (dentry 192, ext4_inode_cache ~1096, task_struct ~9.7K).
 */
int antifrag_streams(const struct alloc_policy *policy, struct stream *out,
		     int max)
{
	/* GFP_TEMPORARY was __GFP_RECLAIMABLE until 4.14 removed it */
	int temp_mt = policy == &policy_61 ? U : R;
	const struct stream s[] = {
		{.name = "pagecache",
		 .kind = SK_PAGECACHE,
		 .mt = M,
		 .life = LIFE_LRU,
		 .weight = 40,
		 .burst_weight = 25,
		 .burst_start = 0.25,
		 .burst_end = 0.5},
		{.name = "anon",
		 .kind = SK_PAGES,
		 .mt = M,
		 .life = LIFE_SHORT,
		 .life_steps = 40000,
		 .weight = 12,
		 .burst_weight = 12},
		{.name = "dentry",
		 .kind = SK_CACHE,
		 .size = 192,
		 .slab_flags = SLAB_RECLAIM_ACCOUNT,
		 .mt = R,
		 .life = LIFE_RECLAIM,
		 .pinned_pct = 3,
		 .weight = 2,
		 .burst_weight = 30,
		 .burst_start = 0.25,
		 .burst_end = 0.5},
		{.name = "ext4_inode_cache",
		 .kind = SK_CACHE,
		 .size = 1096,
		 .slab_flags = SLAB_RECLAIM_ACCOUNT,
		 .mt = R,
		 .life = LIFE_RECLAIM,
		 .pinned_pct = 3,
		 .weight = 1,
		 .burst_weight = 15,
		 .burst_start = 0.25,
		 .burst_end = 0.5},
		{.name = "kmalloc-256 long",
		 .kind = SK_KMALLOC,
		 .size = 256,
		 .mt = U,
		 .life = LIFE_LONG,
		 .weight = 1,
		 .burst_weight = 1},
		{.name = "kmalloc-1k long",
		 .kind = SK_KMALLOC,
		 .size = 1024,
		 .mt = U,
		 .life = LIFE_LONG,
		 .weight = 0.5,
		 .burst_weight = 0.5},
		{.name = "task_struct",
		 .kind = SK_CACHE,
		 .size = 9792,
		 .mt = U,
		 .life = LIFE_LONG,
		 .weight = 0.1,
		 .burst_weight = 0.1},
		{.name = "pgtable",
		 .kind = SK_PAGES,
		 .mt = U,
		 .life = LIFE_LONG,
		 .weight = 0.3,
		 .burst_weight = 0.3},
		{.name = "temporary pages",
		 .kind = SK_PAGES,
		 .mt = temp_mt,
		 .life = LIFE_SHORT,
		 .life_steps = 50,
		 .weight = 8,
		 .burst_weight = 8},
		{.name = "temporary kmalloc",
		 .kind = SK_KMALLOC,
		 .size = 512,
		 .mt = temp_mt,
		 .life = LIFE_SHORT,
		 .life_steps = 50,
		 .weight = 5,
		 .burst_weight = 5},
		{.name = "skb order-3",
		 .kind = SK_PAGES,
		 .order = 3,
		 .mt = U,
		 .life = LIFE_SHORT,
		 .life_steps = 30,
		 .weight = 1,
		 .burst_weight = 1,
		 .alloc_flags = ALLOC_HARDER},
	};
	int n = (int)(sizeof(s) / sizeof(s[0])), i;

	for (i = 0; i < n && i < max; i++)
		out[i] = s[i];
	return i;
}

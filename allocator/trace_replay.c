// SPDX-License-Identifier: GPL-2.0
/*
 * Replaying a kmem trace into the model: the kernel's requests (order,
 * migratetype) are re-served by the model under each policy; a traced pfn
 * is mapped to the model block that served it, so its free frees that.
 */
#include <stdlib.h>
#include <string.h>

#include "allocator/compaction.h"
#include "allocator/trace.h"
#include "allocator/vmstat.h"
#include "lib/util.h"

/* traced pfn -> live index; open addressing, backward-shift deletion */
struct pfn_map {
	uint64_t *key;
	uint32_t *val;
	size_t mask, used;
};

#define EMPTY_KEY UINT64_MAX

static void map_init(struct pfn_map *m, size_t min)
{
	size_t cap = 1024, i;

	while (cap < min * 2)
		cap <<= 1;
	m->key = xmalloc(cap * sizeof(*m->key));
	m->val = xmalloc(cap * sizeof(*m->val));
	for (i = 0; i < cap; i++)
		m->key[i] = EMPTY_KEY;
	m->mask = cap - 1;
	m->used = 0;
}

static size_t map_slot(const struct pfn_map *m, uint64_t k)
{
	return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 20) & m->mask;
}

static uint32_t *map_find(struct pfn_map *m, uint64_t k)
{
	size_t i = map_slot(m, k);

	while (m->key[i] != EMPTY_KEY) {
		if (m->key[i] == k)
			return &m->val[i];
		i = (i + 1) & m->mask;
	}
	return NULL;
}

static void map_put(struct pfn_map *m, uint64_t k, uint32_t v)
{
	size_t i = map_slot(m, k);

	while (m->key[i] != EMPTY_KEY && m->key[i] != k)
		i = (i + 1) & m->mask;
	if (m->key[i] == EMPTY_KEY)
		m->used++;
	m->key[i] = k;
	m->val[i] = v;
}

static void map_del(struct pfn_map *m, uint64_t k)
{
	size_t i = map_slot(m, k), j;

	while (m->key[i] != k) {
		if (m->key[i] == EMPTY_KEY)
			return;
		i = (i + 1) & m->mask;
	}
	/* shift later members of the cluster back over the hole */
	for (j = (i + 1) & m->mask; m->key[j] != EMPTY_KEY;
	     j = (j + 1) & m->mask) {
		size_t home = map_slot(m, m->key[j]);

		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->key[i] = m->key[j];
			m->val[i] = m->val[j];
			i = j;
		}
	}
	m->key[i] = EMPTY_KEY;
	m->used--;
}

struct replay {
	struct pfn_map map;
	uint32_t *model_pfn; /* live index -> model pfn */
	uint32_t *free_idx;
	uint32_t nr_free_idx, nr_live;
};

static void replay_migrate(void *owner, uint32_t idx, uint32_t old_pfn,
			   uint32_t new_pfn)
{
	struct replay *r = owner;

	(void)old_pfn;
	r->model_pfn[idx] = new_pfn;
}

static void metric(struct sim_result *res, const char *name, double v)
{
	if (res->nr_metrics < SIM_MAX_METRICS) {
		res->metrics[res->nr_metrics].name = name;
		res->metrics[res->nr_metrics].value = v;
		res->nr_metrics++;
	}
}

static void release(struct zone *z, struct replay *r, uint32_t *slot,
		    uint64_t pfn)
{
	uint32_t idx = *slot;

	free_pages(z, r->model_pfn[idx]);
	r->free_idx[r->nr_free_idx++] = idx;
	map_del(&r->map, pfn);
}

int trace_replay(const struct trace_events *ev,
		 const struct alloc_policy *policy,
		 const struct workload_config *cfg, struct sim_result *res)
{
	unsigned long unknown_frees = 0, model_failures = 0, refill = 0;
	unsigned long every =
		ev->nr / SIM_CURVE_POINTS ? ev->nr / SIM_CURVE_POINTS : 1;
	unsigned long mixed_by[MIGRATE_TYPES], possible, got = 0;
	unsigned long nr_free[MAX_ORDER];
	struct contig_page_info info;
	struct compact_result cr;
	struct replay r = {0};
	struct zone z;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->policy = policy->name;
	if (zone_init(&z, "Normal", cfg->nr_pages, policy) < 0)
		return -1;
	z.highatomic = cfg->highatomic && policy->has_highatomic;
	z.debug_checks = cfg->debug_checks;
	z.migrate_cb = replay_migrate;
	z.migrate_owner = &r;
	map_init(&r.map, z.nr_pages);
	r.model_pfn = xmalloc(z.nr_pages * sizeof(uint32_t));
	r.free_idx = xmalloc(z.nr_pages * sizeof(uint32_t));
	for (i = 0; i < ev->nr; i++) {
		const struct trace_event *e = &ev->ev[i];
		uint32_t *slot, pfn, idx;

		if (i % every == 0 && res->nr_curve < SIM_CURVE_POINTS) {
			res->curve_step[res->nr_curve] = i;
			res->curve_free9[res->nr_curve++] =
				zone_free_order9(&z);
		}
		switch (e->type) {
		case TEV_ALLOC:
			slot = map_find(&r.map, e->pfn);
			if (slot) {
				/* its free was not traced: let the old one go
				 */
				release(&z, &r, slot, e->pfn);
				refill++;
			}
			idx = r.nr_free_idx ? r.free_idx[--r.nr_free_idx]
					    : r.nr_live++;
			pfn = alloc_pages(&z, e->order, e->mt, 0, OWNER_PAGE,
					  idx);
			if (pfn == NIL_PFN) {
				model_failures++;
				r.free_idx[r.nr_free_idx++] = idx;
				break;
			}
			r.model_pfn[idx] = pfn;
			map_put(&r.map, e->pfn, idx);
			break;
		case TEV_FREE:
		case TEV_FREE_BATCHED:
			slot = map_find(&r.map, e->pfn);
			if (slot)
				release(&z, &r, slot, e->pfn);
			else
				unknown_frees++;
			break;
		default:
			break;
		}
	}
	res->curve_step[res->nr_curve] = ev->nr;
	res->curve_free9[res->nr_curve++] = zone_free_order9(&z);
	metric(res, "events", (double)ev->nr);
	metric(res, "unparseable_lines", (double)ev->unparseable);
	metric(res, "unknown_frees", (double)unknown_frees);
	metric(res, "untraced_frees", (double)refill);
	metric(res, "model_alloc_failures", (double)model_failures);
	metric(res, "kernel_extfrag_events", (double)ev->by_type[TEV_EXTFRAG]);
	metric(res, "kernel_fragmenting", (double)ev->extfrag_fragmenting);
	metric(res, "kernel_change_ownership",
	       (double)ev->extfrag_change_ownership);
	metric(res, "fallbacks", (double)z.stats.fallbacks);
	metric(res, "fragmenting_fallbacks", (double)z.stats.fragmenting);
	metric(res, "steals", (double)z.stats.steals);
	metric(res, "mixed_pageblocks",
	       (double)zone_mixed_pageblocks(&z, mixed_by));
	metric(res, "mixed_mobility_pageblocks",
	       (double)zone_mixed_mobility_blocks(&z));
	/* at rest: only compaction, the trace says nothing of shrinkers */
	compact_zone(&z, &cr);
	metric(res, "compaction_migrated", (double)cr.migrated);
	zone_nr_free(&z, nr_free);
	fill_contig_page_info(nr_free, MAX_ORDER, pageblock_order, &info);
	metric(res, "unusable_index_9",
	       unusable_free_index(pageblock_order, &info) / 1000.0);
	metric(res, "fragmentation_index_9",
	       __fragmentation_index(pageblock_order, MAX_ORDER, &info) /
		       1000.0);
	res->curve_step[res->nr_curve] = ev->nr + 1;
	res->curve_free9[res->nr_curve++] = zone_free_order9(&z);
	possible = z.free_pages >> pageblock_order;
	while (alloc_pages(&z, pageblock_order, MIGRATE_MOVABLE, 0, OWNER_PAGE,
			   NIL_PFN) != NIL_PFN)
		got++;
	metric(res, "highorder_possible", (double)possible);
	metric(res, "highorder_allocated", (double)got);
	metric(res, "highorder_success_pct",
	       possible ? 100.0 * (double)got / (double)possible : 0);
	free(r.map.key);
	free(r.map.val);
	free(r.model_pfn);
	free(r.free_idx);
	zone_destroy(&z);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_WORKLOAD_H
#define GFPAUDIT_ALLOCATOR_WORKLOAD_H

#include <stdint.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"

/*
 * A workload: streams of allocations, each with a kind, a mobility, a
 * lifetime class and a rate (optionally higher inside a burst window),
 * run step by step against a zone and its slab layer with kswapd-like
 * reclaim under pressure, then brought to rest (short-lived objects freed,
 * shrinkers run, compaction) and probed with order-9 allocations.
 */
enum stream_kind {
	SK_PAGECACHE, /* movable order-0 page cache on an LRU */
	SK_PAGES,     /* alloc_pages(order) */
	SK_KMALLOC,   /* kmalloc(size) */
	SK_CACHE,     /* kmem_cache_alloc from a named cache */
};

enum lifetime {
	LIFE_SHORT,   /* freed LIFE steps after allocation */
	LIFE_LONG,    /* held for the whole run and at rest */
	LIFE_RECLAIM, /* freed by the shrinker (except the pinned share) */
	LIFE_LRU,     /* page cache: evicted oldest first under pressure */
};

struct stream {
	const char *name;
	enum stream_kind kind;
	unsigned int order;	 /* SK_PAGES */
	unsigned int size;	 /* SK_KMALLOC, SK_CACHE object size */
	unsigned int slab_flags; /* SK_CACHE: SLAB_RECLAIM_ACCOUNT */
	int mt;			 /* the caller's gfp mobility */
	enum lifetime life;
	unsigned int life_steps; /* LIFE_SHORT */
	unsigned int pinned_pct; /* LIFE_RECLAIM: % a shrinker cannot free */
	double weight;		 /* relative rate outside the burst */
	double burst_weight;	 /* rate inside [burst_start, burst_end) */
	double burst_start, burst_end; /* fractions of the run */
	unsigned int alloc_flags;      /* ALLOC_HARDER for atomic high-order */
};

#define SIM_MAX_METRICS 40
#define SIM_CURVE_POINTS 100

struct sim_metric {
	const char *name;
	double value;
};

struct sim_result {
	const char *policy;
	int nr_metrics;
	struct sim_metric metrics[SIM_MAX_METRICS];
	int nr_curve;
	unsigned long curve_step[SIM_CURVE_POINTS + 2];
	unsigned long curve_free9[SIM_CURVE_POINTS + 2];
};

struct workload_config {
	uint32_t nr_pages;
	unsigned long steps;
	uint64_t seed;
	const char *kernel_version; /* slab behaviour; NULL: the policy's */
	bool highatomic;
	bool debug_checks;
	/* write buddyinfo.POLICY and pagetypeinfo.POLICY at rest here */
	const char *proc_out;
};

/*
 * Run STREAMS (NR of them) under POLICY.  Returns 0, -1 when the zone
 * cannot be set up, -2 when cfg->proc_out cannot be written (said).
 */
int run_workload(const struct workload_config *cfg,
		 const struct alloc_policy *policy,
		 const struct stream *streams, int nr, struct sim_result *res);

/* Value of metric NAME in RES, or NaN-free 0 with *found false. */
double sim_metric_get(const struct sim_result *res, const char *name,
		      bool *found);

/*
 * The anti-fragmentation experiment's streams under POLICY: the seed
 * patch's short-lived buffers are GFP_TEMPORARY (reclaimable) on the
 * kernels that had it and GFP_KERNEL on 6.1.  Returns the count.
 */
int antifrag_streams(const struct alloc_policy *policy, struct stream *out,
		     int max);

#endif

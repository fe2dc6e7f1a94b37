/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_TRACE_COMPARE_H
#define GFPAUDIT_ALLOCATOR_TRACE_COMPARE_H
/*
 * The model against a real kernel (simulate --trace T --start PTI0
 * --compare PTI1): one zone of the model starts in the state a
 * /proc/pagetypeinfo snapshot shows, replays the kmem trace recorded
 * after it, and its end state is compared with the snapshot taken after
 * the trace.  tools/kboot records the three on a booted 6.1 kernel.
 */
#include <stdio.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"
#include "allocator/procfs.h"
#include "allocator/trace.h"

/* One zone's state as pagetypeinfo shows it, in model migratetypes. */
struct zone_snapshot {
	unsigned long blocks[MIGRATE_TYPES];
	unsigned long free[MIGRATE_TYPES][MAX_ORDER];
	unsigned long start_pfn; /* the zone's first pfn (zones before it) */
	unsigned long nr_blocks;
};

/*
 * ZONE's state in FI (pagetypeinfo with its block counts).  The zone's
 * start pfn is the sum of the zones before it on its node, as on a machine
 * without holes (qemu's).  Returns 0, or -1 with a message in err.
 */
int zone_snapshot_get(const struct frag_info *fi, const char *zone,
		      struct zone_snapshot *s, char *err, size_t errlen);

struct trace_compare {
	struct zone_snapshot start, real, model;
	unsigned long real_fallbacks, real_steals;     /* extfrag events */
	unsigned long model_fallbacks, model_steals;
	/* events of the zone, and what happened to them */
	unsigned long allocs, frees, alloc_failed, outside;
	unsigned long dup_frees; /* a free traced again (free_batched) */
	unsigned long frees_of_unknown;	 /* allocated before the trace */
	unsigned long frees_in_place;	 /* ... found at their own pfn */
	unsigned long frees_unmatched;	 /* ... nothing to free in the model */
	unsigned long unplaced;	 /* start pages that did not fit their type */
};

/*
 * Build the model zone from S under POLICY, replay EV's events of that
 * zone, and fill C (C->real from END).  Returns 0 or -1 (no memory, a
 * zone too small), with a message in err.
 */
int trace_compare_run(const struct trace_events *ev,
		      const struct zone_snapshot *start,
		      const struct zone_snapshot *end,
		      const struct alloc_policy *policy,
		      struct trace_compare *c, char *err, size_t errlen);

/*
 * Print `zone migratetype measure start real model error within` rows
 * (TSV with a header when tsv), and a line per target of issue #20.
 * Returns the number of block rows outside their target.
 */
int trace_compare_print(FILE *out, const char *zone,
			const struct trace_compare *c, int tsv);

#endif

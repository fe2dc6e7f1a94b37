/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_IMPACT_H
#define GFPAUDIT_ALLOCATOR_IMPACT_H

#include <sqlite3.h>
#include <stddef.h>

#include "allocator/workload.h"

/*
 * The site-driven workload of `simulate --rule`: one allocation stream per
 * group of like sites in the `sites` table (same kind, size class,
 * mobility as-is and as patched, lifetime), each site one unit of rate,
 * plus page cache pressure as in the antifrag experiment.
 */
struct impact_group {
	struct stream as_is, patched;
	unsigned long sites;
	char name[64];
};

struct impact_sites {
	struct impact_group *g;
	size_t nr_groups, alloc_groups;
	size_t nr, nr_changed; /* sites, sites the rule changes */
	char *kernel_version;  /* runs.kernel_version of the last scan */
	char error[200];
};

/*
 * Read the sites of DB and what RULE would make of them (known rules:
 * gfp-temporary: GFP_TEMPORARY and __GFP_RECLAIMABLE become GFP_KERNEL,
 * i.e. unmovable).  KVERSION overrides the scanned kernel version.
 * Returns 0, or -1 with out->error.
 */
int impact_load(sqlite3 *db, const char *rule, const char *kversion,
		struct impact_sites *out);
void impact_sites_free(struct impact_sites *s);

/* Run the workload as-is or PATCHED under POLICY. */
int impact_run(const struct impact_sites *s, const struct alloc_policy *policy,
	       const struct workload_config *cfg, bool patched,
	       struct sim_result *res);

/* The migratetype the flags text asks for ("GFP_KERNEL|__GFP_RECLAIMABLE"). */
int flags_text_migratetype(const char *flags);

#endif

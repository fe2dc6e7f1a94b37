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
 * A rule's flag edits, from its rule file (the command loads it): each
 * token FROM[i] becomes TO[i], or goes when TO[i] is NULL.
 */
struct impact_rule {
	const char *name;
	const char *const *from;
	const char *const *to;
	int n;
};

/*
 * Read the sites of DB and what RULE's edits would make of them (a site
 * whose flags text names a FROM token is read again with the edit made:
 * gfp-temporary turns GFP_TEMPORARY into GFP_KERNEL, unmovable).
 * KVERSION overrides the scanned kernel version.  Returns 0, or -1 with
 * out->error (a rule with no edit).
 */
int impact_load(sqlite3 *db, const struct impact_rule *rule,
		const char *kversion, struct impact_sites *out);
void impact_sites_free(struct impact_sites *s);

/* Run the workload as-is or PATCHED under POLICY. */
int impact_run(const struct impact_sites *s, const struct alloc_policy *policy,
	       const struct workload_config *cfg, bool patched,
	       struct sim_result *res);

/* The migratetype the flags text asks for ("GFP_KERNEL|__GFP_RECLAIMABLE"). */
int flags_text_migratetype(const char *flags);

#endif

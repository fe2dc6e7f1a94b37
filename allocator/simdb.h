/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_SIMDB_H
#define GFPAUDIT_ALLOCATOR_SIMDB_H

#include <sqlite3.h>

#include "allocator/simruns.h"
#include "allocator/workload.h"

/*
 * Store one simulation result in sim_results (one row per metric, runs
 * 1, no set) and sim_curves (free order-9 blocks per sampled step),
 * docs/schema.md.  RULE may be NULL; VARIANT is "as-is", "patched" or
 * "-".  The caller holds the transaction.  Returns 0 or -1 (error
 * printed).
 */
int simdb_store(sqlite3 *db, const char *experiment, const char *rule,
		const char *variant, const struct sim_result *res);

/*
 * Store the runs R under a new set_id: every run's metrics in sim_runs
 * (run k paired by its seed), per policy and variant (named
 * VARIANTS[var]) the summary in sim_results (value = the mean, runs, sd,
 * ci95), and the first run's curves in sim_curves.  The caller holds the
 * transaction.  Returns 0 or -1 (error printed).
 */
int simdb_store_runs(sqlite3 *db, const char *experiment, const char *rule,
		     const char *const *variants, const struct sim_runs *r);

#endif

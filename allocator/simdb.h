/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_SIMDB_H
#define GFPAUDIT_ALLOCATOR_SIMDB_H

#include <sqlite3.h>

#include "allocator/workload.h"

/*
 * Store one simulation result in sim_results (one row per metric) and
 * sim_curves (free order-9 blocks per sampled step), docs/schema.md.
 * RULE may be NULL; VARIANT is "as-is", "patched" or "-".  The caller
 * holds the transaction.  Returns 0 or -1 (error printed).
 */
int simdb_store(sqlite3 *db, const char *experiment, const char *rule,
		const char *variant, const struct sim_result *res);

#endif

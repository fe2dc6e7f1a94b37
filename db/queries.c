// SPDX-License-Identifier: GPL-2.0
/*
 * Canned queries: the questions users ask most, by name.  Plain SQL over
 * the documented schema, so `gfpaudit query --list` doubles as examples
 * for the sqlite3 shell.
 */
#include "db/queries.h"

#include <string.h>

const struct canned_query canned_queries[] = {
	{ "runs", "every scan/check run, newest first",
	  "SELECT id, command, tree, kernel_version, git_head, status, "
	  "files_total, files_parsed, files_unchanged, files_failed, "
	  "started_at, finished_at FROM runs ORDER BY id DESC" },
	{ "flag-census", "tracked flag uses by flag and context",
	  "SELECT flag, context, count(*) AS uses, "
	  "count(DISTINCT path) AS files FROM flag_uses "
	  "GROUP BY flag, context ORDER BY flag, uses DESC" },
	{ "flags-by-dir", "tracked flag uses by top-level directory",
	  "SELECT CASE WHEN instr(path, '/') > 0 "
	  "THEN substr(path, 1, instr(path, '/') - 1) ELSE path END AS dir, "
	  "flag, count(*) AS uses FROM flag_uses GROUP BY dir, flag "
	  "ORDER BY uses DESC, dir" },
	{ "temporary", "every GFP_TEMPORARY use, with its call if any",
	  "SELECT path, line, col, context, function, call FROM flag_uses "
	  "WHERE flag = 'GFP_TEMPORARY' ORDER BY path, line, col" },
	{ "apis", "allocation sites by API",
	  "SELECT api, api_origin, count(*) AS sites FROM sites "
	  "GROUP BY api ORDER BY sites DESC, api" },
	{ "migratetypes", "allocation sites by evaluated migratetype",
	  "SELECT coalesce(migratetype, '(not evaluated)') AS migratetype, "
	  "count(*) AS sites FROM sites GROUP BY 1 ORDER BY 2 DESC" },
	{ "lifetimes", "allocation sites by lifetime class",
	  "SELECT coalesce(lifetime, '(unclassified)') AS lifetime, "
	  "count(*) AS sites, sum(held_across_sleep = 1) AS held_across_sleep "
	  "FROM sites GROUP BY 1 ORDER BY 2 DESC" },
	{ "noop-flags", "mobility flags that have no effect on this kernel",
	  "SELECT path, line, api, flags, flag_effective_reason FROM sites "
	  "WHERE flag_effective = 0 ORDER BY path, line" },
	{ "ignored-gfp-param",
	  "sites that hard-code flags although the function has a gfp_t",
	  "SELECT path, line, function, api, flags, gfp_param FROM sites "
	  "WHERE gfp_param IS NOT NULL ORDER BY path, line" },
	{ "parse-modes", "files by how they were parsed",
	  "SELECT parse_mode, count(*) AS files, "
	  "sum(diagnostics) AS diagnostics FROM files GROUP BY parse_mode "
	  "ORDER BY files DESC" },
	{ "findings", "rule findings",
	  "SELECT rule, severity, path, line, col, message FROM findings "
	  "ORDER BY rule, path, line" },
	{ "wrappers", "allocator and free functions learned from the tree",
	  "SELECT name, kind, family, gfp_arg, via, path, line "
	  "FROM allocators WHERE origin = 'learned' ORDER BY name" },
	{ NULL, NULL, NULL },
};

const struct canned_query *find_canned_query(const char *name)
{
	const struct canned_query *q;

	for (q = canned_queries; q->name; q++)
		if (!strcmp(q->name, name))
			return q;
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: rule files (rules/rule.c, docs/rules.md).  The input
 * is a rule file's text.  A rule that parses is also checked against a
 * few kernel versions and evaluated (rules/eval.c) over a small in-memory
 * database with a row in each source table, so that its conditions and
 * message templates run on real values, NULLs included.
 */
#include "db/db.h"
#include "lib/ktree.h"
#include "rules/eval.h"
#include "rules/rule.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char rows[] =
	"INSERT INTO runs(id, command, tree, started_at) "
	"  VALUES (1, 'scan', '/t', '2026-01-01T00:00:00Z');"
	"INSERT INTO files(id, path, hash, size, run_id, parse_mode) "
	"  VALUES (1, 'fs/proc/base.c', '0', 1, 1, 'ast');"
	"INSERT INTO flag_uses(file_id, path, line, col, flag, context) "
	"  VALUES (1, 'fs/proc/base.c', 10, 2, 'GFP_TEMPORARY', 'call');"
	"INSERT INTO sites(file_id, path, line, col, api, flags) "
	"  VALUES (1, 'fs/proc/base.c', 30, 2, 'kmalloc',"
	"          'GFP_KERNEL & ~__GFP_RECLAIMABLE');"
	"INSERT INTO sites(file_id, path, line, col, api) "
	"  VALUES (1, 'fs/proc/base.c', 31, 4, 'kfree');"
	"INSERT INTO caches(file_id, path, line, col, name, flags) "
	"  VALUES (1, 'fs/proc/base.c', 40, 1, 'c', 'SLAB_RECLAIM_ACCOUNT');";

static sqlite3 *db;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	db = db_open(":memory:", DB_READWRITE);
	if (!db || db_exec(db, rows))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const versions[] = { "2.6.24", "4.13", "4.14",
						"6.1" };
	struct rule r;
	struct rule_hit *hits;
	char err[512];
	size_t i;
	int n;

	if (rule_parse((const char *)data, size, "fuzz.rule", &r, err,
		       sizeof(err)))
		return 0;
	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		struct kversion kv;

		if (kversion_parse(versions[i], &kv))
			abort();
		rule_applies(&r, &kv);
	}
	n = rule_eval(db, &r, &hits);
	if (n < 0)
		abort(); /* the SQL comes from the whitelist: it must run */
	rule_hits_free(hits, n);
	rule_free(&r);
	return 0;
}

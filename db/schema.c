// SPDX-License-Identifier: GPL-2.0
/*
 * The findings schema, as a list of migrations.  Migration N takes a
 * database from schema version N to N+1; a new column or table is a new
 * entry at the end, never an edit of an old one, so that databases written
 * by older binaries open and migrate.  Every table and column here is
 * documented in docs/schema.md (tests/t0003 checks they agree).  The
 * `sites` columns are also listed in db/sites_cols.h, which the scan
 * writes from; tests/t0007 checks that these migrations end there.
 */
#include "db/db.h"

#include <stddef.h>

const char *const db_migrations[] = {
	/* 0 -> 1: the initial schema. */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  command TEXT NOT NULL,"
	"  tree TEXT NOT NULL,"
	"  kernel_version TEXT,"
	"  git_head TEXT,"
	"  arch TEXT,"
	"  shard TEXT,"
	"  options TEXT,"
	"  started_at TEXT NOT NULL,"
	"  finished_at TEXT,"
	"  status TEXT NOT NULL DEFAULT 'running',"
	"  files_total INTEGER,"
	"  files_parsed INTEGER,"
	"  files_unchanged INTEGER,"
	"  files_failed INTEGER"
	");"
	"CREATE TABLE files ("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL UNIQUE,"
	"  hash TEXT NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  run_id INTEGER REFERENCES runs(id),"
	"  parse_mode TEXT NOT NULL,"
	"  diagnostics INTEGER NOT NULL DEFAULT 0,"
	"  error TEXT"
	");"
	"CREATE TABLE flag_uses ("
	"  id INTEGER PRIMARY KEY,"
	"  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  col INTEGER NOT NULL,"
	"  flag TEXT NOT NULL,"
	"  context TEXT NOT NULL,"
	"  function TEXT,"
	"  macro TEXT,"
	"  call TEXT,"
	"  in_disabled_branch INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (path, line, col, flag)"
	");"
	"CREATE INDEX flag_uses_flag ON flag_uses(flag);"
	"CREATE INDEX flag_uses_file ON flag_uses(file_id);"
	"CREATE TABLE sites ("
	"  id INTEGER PRIMARY KEY,"
	"  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  col INTEGER NOT NULL,"
	"  function TEXT,"
	"  api TEXT NOT NULL,"
	"  api_origin TEXT NOT NULL DEFAULT 'builtin',"
	"  flags TEXT,"
	"  flags_line INTEGER,"
	"  flags_col INTEGER,"
	"  flags_via TEXT,"
	"  flags_resolved TEXT,"
	"  gfp_mask INTEGER,"
	"  migratetype TEXT,"
	"  size TEXT,"
	"  size_const INTEGER,"
	"  macro TEXT,"
	"  in_disabled_branch INTEGER NOT NULL DEFAULT 0,"
	"  lifetime TEXT,"
	"  lifetime_evidence TEXT,"
	"  lifetime_line INTEGER,"
	"  held_across_sleep INTEGER,"
	"  sleep_evidence TEXT,"
	"  context TEXT,"
	"  context_evidence TEXT,"
	"  gfp_param TEXT,"
	"  flag_effective INTEGER,"
	"  flag_effective_reason TEXT,"
	"  confidence TEXT,"
	"  UNIQUE (path, line, col, api)"
	");"
	"CREATE INDEX sites_file ON sites(file_id);"
	"CREATE INDEX sites_api ON sites(api);"
	"CREATE TABLE allocators ("
	"  name TEXT PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  family TEXT,"
	"  gfp_arg INTEGER,"
	"  size_arg INTEGER,"
	"  origin TEXT NOT NULL,"
	"  via TEXT,"
	"  path TEXT,"
	"  line INTEGER"
	");"
	"CREATE TABLE sleepers ("
	"  function TEXT PRIMARY KEY,"
	"  origin TEXT NOT NULL,"
	"  evidence TEXT,"
	"  path TEXT,"
	"  line INTEGER"
	");"
	"CREATE TABLE caches ("
	"  id INTEGER PRIMARY KEY,"
	"  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  col INTEGER NOT NULL,"
	"  variable TEXT,"
	"  name TEXT,"
	"  flags TEXT,"
	"  reclaimable INTEGER,"
	"  has_shrinker INTEGER,"
	"  shrinker_evidence TEXT,"
	"  UNIQUE (path, line, col)"
	");"
	"CREATE TABLE findings ("
	"  id INTEGER PRIMARY KEY,"
	"  rule TEXT NOT NULL,"
	"  severity TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  col INTEGER NOT NULL,"
	"  message TEXT NOT NULL,"
	"  suggestion TEXT,"
	"  site_id INTEGER,"
	"  run_id INTEGER REFERENCES runs(id),"
	"  UNIQUE (rule, path, line, col)"
	");"
	"CREATE TABLE patches ("
	"  id INTEGER PRIMARY KEY,"
	"  series TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  number INTEGER NOT NULL,"
	"  file TEXT NOT NULL,"
	"  subject TEXT NOT NULL,"
	"  files_changed INTEGER NOT NULL,"
	"  insertions INTEGER NOT NULL,"
	"  deletions INTEGER NOT NULL,"
	"  created_at TEXT NOT NULL,"
	"  UNIQUE (series, number)"
	");"
	"CREATE TABLE validations ("
	"  id INTEGER PRIMARY KEY,"
	"  series TEXT NOT NULL,"
	"  patch TEXT,"
	"  path TEXT,"
	"  check_name TEXT NOT NULL,"
	"  result TEXT NOT NULL,"
	"  detail TEXT,"
	"  created_at TEXT NOT NULL"
	");"
	"CREATE TABLE sim_results ("
	"  id INTEGER PRIMARY KEY,"
	"  experiment TEXT NOT NULL,"
	"  rule TEXT,"
	"  policy TEXT NOT NULL,"
	"  variant TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  value REAL,"
	"  created_at TEXT NOT NULL"
	");"
	"CREATE TABLE sim_curves ("
	"  id INTEGER PRIMARY KEY,"
	"  experiment TEXT NOT NULL,"
	"  rule TEXT,"
	"  policy TEXT NOT NULL,"
	"  variant TEXT NOT NULL,"
	"  step INTEGER NOT NULL,"
	"  free_order9 INTEGER NOT NULL"
	");",
	/*
	 * 1 -> 2: a re-analysed file deletes its learned rows, findings and
	 * (by cascade) caches by path or file id: without these indexes each
	 * delete scanned the whole table (quadratic on a kernel tree).
	 */
	"CREATE INDEX allocators_path ON allocators(path);"
	"CREATE INDEX sleepers_path ON sleepers(path);"
	"CREATE INDEX findings_path ON findings(path);"
	"CREATE INDEX caches_file ON caches(file_id);",
	/*
	 * 2 -> 3: facts a classifier records per file and joins across
	 * files once the tree is in (a cache shrunk from another file of
	 * its directory); `caches.shrinker_scope` says which it was.
	 */
	"CREATE TABLE file_facts ("
	"  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  function TEXT,"
	"  dir TEXT NOT NULL,"
	"  line INTEGER NOT NULL"
	");"
	"CREATE INDEX file_facts_file ON file_facts(file_id);"
	"CREATE INDEX file_facts_lookup ON file_facts(kind, dir, name);"
	"ALTER TABLE caches ADD COLUMN shrinker_scope TEXT;"
	"UPDATE caches SET shrinker_scope = 'file' WHERE has_shrinker = 1;"
	/* a re-scan skips a file whose size and mtime are these unread */
	"ALTER TABLE files ADD COLUMN mtime_ns INTEGER;"
	/* files scanned before have no facts: the next scan re-reads them */
	"UPDATE files SET hash = '';",
	/*
	 * 3 -> 4: whole-tree function summaries (analyzer/fnsum.h), and
	 * the calls each site's buffer is held across, which the summaries
	 * step resolves once every file is in.
	 */
	"CREATE TABLE functions ("
	"  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  is_static INTEGER NOT NULL,"
	"  sleeps TEXT,"
	"  callees TEXT,"
	"  atomic_callees TEXT,"
	"  may_sleep INTEGER,"
	"  sleep_via TEXT,"
	"  atomic_context INTEGER,"
	"  atomic_via TEXT"
	");"
	"CREATE INDEX functions_file ON functions(file_id);"
	"ALTER TABLE sites ADD COLUMN held_calls TEXT;"
	"ALTER TABLE sites ADD COLUMN context_base TEXT;"
	/* files scanned before have no summaries: re-read them */
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	/*
	 * 4 -> 5: repeated simulation runs (simulate --runs).  One run's
	 * figure cannot tell a rule's effect from the seed's, so every
	 * run's metrics are kept, numbered and paired by seed, for a
	 * report to recompute; sim_results holds their mean, sd and
	 * interval.  set_id ties the rows of one invocation together.
	 */
	"CREATE TABLE sim_runs ("
	"  id INTEGER PRIMARY KEY,"
	"  set_id INTEGER NOT NULL,"
	"  experiment TEXT NOT NULL,"
	"  rule TEXT,"
	"  policy TEXT NOT NULL,"
	"  variant TEXT NOT NULL,"
	"  run INTEGER NOT NULL,"
	"  seed INTEGER NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  value REAL"
	");"
	"CREATE INDEX sim_runs_set ON sim_runs(set_id, policy, metric);"
	"ALTER TABLE sim_results ADD COLUMN set_id INTEGER;"
	"ALTER TABLE sim_results ADD COLUMN runs INTEGER;"
	"ALTER TABLE sim_results ADD COLUMN sd REAL;"
	"ALTER TABLE sim_results ADD COLUMN ci95 REAL;"
	"ALTER TABLE sim_curves ADD COLUMN set_id INTEGER;",
	/*
	 * 5 -> 6: sites.lifetime and sites.context are closed sets
	 * (db/labels.h), so that a misspelt label fails to be stored instead
	 * of silently matching no query.  SQLite cannot add a CHECK to an
	 * existing column: triggers refuse any other value.  NULL (not
	 * classified) stays allowed: NULL NOT IN (...) is not true.
	 */
	"CREATE TRIGGER sites_lifetime_insert BEFORE INSERT ON sites "
	"WHEN NEW.lifetime NOT IN ('scoped', 'returned', 'stored', "
	"'leaked_on_path', 'unknown') BEGIN SELECT RAISE(ABORT, "
	"'sites.lifetime must be scoped, returned, stored, leaked_on_path "
	"or unknown'); END;"
	"CREATE TRIGGER sites_lifetime_update BEFORE UPDATE OF lifetime ON "
	"sites WHEN NEW.lifetime NOT IN ('scoped', 'returned', 'stored', "
	"'leaked_on_path', 'unknown') BEGIN SELECT RAISE(ABORT, "
	"'sites.lifetime must be scoped, returned, stored, leaked_on_path "
	"or unknown'); END;"
	"CREATE TRIGGER sites_context_insert BEFORE INSERT ON sites "
	"WHEN NEW.context NOT IN ('atomic', 'process', 'unknown') BEGIN "
	"SELECT RAISE(ABORT, 'sites.context must be atomic, process or "
	"unknown'); END;"
	"CREATE TRIGGER sites_context_update BEFORE UPDATE OF context ON "
	"sites WHEN NEW.context NOT IN ('atomic', 'process', 'unknown') "
	"BEGIN SELECT RAISE(ABORT, 'sites.context must be atomic, process "
	"or unknown'); END;",
	/*
	 * 6 -> 7: functions.params, what each function does with each
	 * pointer parameter (analyzer/fnsum.h), and param_use, that solved
	 * over the call graph, so that a buffer handed to a function that
	 * only borrows or frees it is not called stored.
	 * Files scanned before have none: re-read them.
	 */
	"ALTER TABLE functions ADD COLUMN params TEXT;"
	"ALTER TABLE functions ADD COLUMN param_use TEXT;"
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	/*
	 * 7 -> 8: what a file gives the link steps, as a digest, and
	 * whether its rows hold their answers (analyzer/linkmemo.h), so that
	 * a re-analysed file whose digest did not change keeps its answers
	 * and the tree is not solved again.  Rows from before have none:
	 * the next scan solves once.
	 */
	"ALTER TABLE files ADD COLUMN link_digest INTEGER;"
	"ALTER TABLE files ADD COLUMN linked INTEGER NOT NULL DEFAULT 0;",
	/*
	 * 8 -> 9: functions.callbacks, the functions each one hands to a
	 * list_lru walk or call_rcu() (data/lifetime.txt `calls`), which a
	 * reclaim path reaches as it reaches a callee.  Files scanned
	 * before have none: re-read them.
	 */
	"ALTER TABLE functions ADD COLUMN callbacks TEXT;"
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	/*
	 * 9 -> 10: functions.gfp_sleeps and gfp_calls, the sleeps that the
	 * flags a caller passes decide (analyzer/fnsum_gfp.h).  Files
	 * scanned before have none: re-read them.
	 */
	"ALTER TABLE functions ADD COLUMN gfp_sleeps TEXT;"
	"ALTER TABLE functions ADD COLUMN gfp_calls TEXT;"
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	/*
	 * 10 -> 11: functions.drop_line and unlocked_callees, where a
	 * function drops its caller's lock and what it calls then, and
	 * is_init, so that a caller's section is not taken past the drop,
	 * nor early boot for a sleep-in-atomic bug (summaries_ctx.c).
	 * Files scanned before have none: re-read them.
	 */
	"ALTER TABLE functions ADD COLUMN drop_line INTEGER;"
	"ALTER TABLE functions ADD COLUMN unlocked_callees TEXT;"
	"ALTER TABLE functions ADD COLUMN is_init INTEGER;"
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	/*
	 * 11 -> 12: sites.flags_used, the flags an allocation is made with
	 * (through a variable, or an allocator's own: vzalloc()), so that a
	 * rule can ask whether they sleep.  Re-read the files.
	 */
	"ALTER TABLE sites ADD COLUMN flags_used TEXT;"
	"UPDATE files SET hash = '', mtime_ns = NULL;",
	NULL,
};

int db_schema_version(void)
{
	int n = 0;

	while (db_migrations[n])
		n++;
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * SARIF 2.1.0 for code-scanning uploads.  The whole log is one SQL
 * statement built from SQLite's JSON functions, so escaping and structure
 * are SQLite's, not ours.  Paths are relative to the tree and resolved
 * against the SRCROOT base id, which points at the scanned tree.
 *
 * Values that come out of a subquery lose their JSON subtype, so they are
 * passed through json() again before being nested.  Optional members
 * (baselineState, fixes, versionControlProvenance) are merged in with
 * json_patch(), which drops the ones that are NULL.  Fingerprints and
 * baseline states come from temp.finding_state (reports/baseline.c).
 */
#include "reports/report.h"
#include "db/db.h"
#include "lib/ktree.h"

#include <stdlib.h>
#include <string.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define INFO_URI "https://www.kernel.org/doc/html/latest/core-api/memory-allocation.html"

/* gfp_uri(path): the path percent-encoded for a URI. */
static void sql_uri(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	struct strbuf sb = STRBUF_INIT;

	(void)argc;
	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	sb_add_uri_path(&sb, s);
	sb_addc(&sb, '\0');
	sqlite3_result_text(ctx, sb.buf, -1, SQLITE_TRANSIENT);
	sb_release(&sb);
}

/* SARIF levels are error, warning, note and none. */
#define LEVEL(col)                                                          \
	"CASE " col " WHEN 'error' THEN 'error' WHEN 'note' THEN 'note' "   \
	"ELSE 'warning' END"

/* The location of a finding-like row R (path, line, col). */
#define LOCATION(r)                                                         \
	"json_array(json_object('physicalLocation', json_object("            \
	"'artifactLocation', json_object('uri', gfp_uri(" r ".path), "       \
	"'uriBaseId', 'SRCROOT'), 'region', json_object('startLine', "      \
	r ".line, 'startColumn', max(" r ".col, 1)))))"

/*
 * A replace rule's finding on a flag use has an exact fix: the flag's
 * token at the finding's position becomes the rule's replacement.
 */
#define FIXES                                                               \
	"(SELECT json_array(json_object('description', json_object('text', " \
	"CASE WHEN rule_doc(f.rule, 'replace:' || u.flag) = '' THEN "        \
	"'Remove ' || u.flag ELSE 'Replace ' || u.flag || ' by ' || "        \
	"rule_doc(f.rule, 'replace:' || u.flag) END), 'artifactChanges', "  \
	"json_array(json_object('artifactLocation', json_object('uri', "    \
	"gfp_uri(f.path), 'uriBaseId', 'SRCROOT'), 'replacements', "        \
	"json_array(json_object('deletedRegion', json_object('startLine', " \
	"f.line, 'startColumn', f.col, 'endColumn', f.col + "               \
	"length(u.flag)), 'insertedContent', json_object('text', "          \
	"rule_doc(f.rule, 'replace:' || u.flag)))))))) FROM flag_uses u "   \
	"WHERE u.path = f.path AND u.line = f.line AND u.col = f.col AND "   \
	"rule_doc(f.rule, 'replace:' || u.flag) IS NOT NULL LIMIT 1)"

static const char sql_sarif[] =
	"WITH rules AS (SELECT rule, min(" LEVEL("severity") ") AS level, "
	"  count(*) AS n, (SELECT message FROM findings f2 WHERE f2.rule = "
	"  f.rule ORDER BY path, line LIMIT 1) AS example "
	"  FROM findings f GROUP BY rule ORDER BY rule), "
	"ruleidx AS (SELECT rule, row_number() OVER (ORDER BY rule) - 1 AS i "
	"  FROM rules), "
	"results AS (SELECT json_patch(json_object("
	"  'ruleId', f.rule, 'ruleIndex', ri.i, 'level', " LEVEL("f.severity")
	", 'message', json_object('text', f.message), "
	"  'locations', " LOCATION("f") ", "
	"  'partialFingerprints', json_object('gfpaudit/v2', fs.fp), "
	"  'properties', json_object('severity', f.severity, "
	"    'suggestion', f.suggestion)), json_object("
	"  'baselineState', fs.state, 'fixes', json(" FIXES "))) AS r, "
	"  f.path, f.line, f.col, f.rule "
	"  FROM findings f JOIN ruleidx ri USING (rule) "
	"  JOIN temp.finding_state fs ON fs.id = f.id "
	"  UNION ALL SELECT json_object('ruleId', a.rule, 'level', "
	LEVEL("a.severity") ", 'message', json_object('text', a.message), "
	"  'locations', " LOCATION("a") ", "
	"  'partialFingerprints', json_object('gfpaudit/v2', a.fp), "
	"  'baselineState', 'absent'), a.path, a.line, a.col, a.rule "
	"  FROM temp.finding_absent a "
	"  ORDER BY 2, 3, 4, 5), "
	"last AS (SELECT * FROM runs ORDER BY id DESC LIMIT 1) "
	"SELECT json_object('$schema', '" SARIF_SCHEMA "', "
	"'version', '2.1.0', "
	"'runs', json_array(json_patch(json_object("
	"  'tool', json_object('driver', json_object("
	"    'name', 'gfpaudit', 'version', ?1, "
	"    'informationUri', '" INFO_URI "', "
	"    'rules', json((SELECT json_group_array(json_object('id', rule, "
	"      'name', rule, 'shortDescription', json_object('text', "
	"      coalesce(rule_doc(rule, 'description'), 'gfpaudit rule ' || "
	"      rule)), 'fullDescription', json_object('text', "
	"      coalesce(rule_doc(rule, 'why'), example)), "
	"      'help', json_object('text', coalesce(rule_doc(rule, 'why'), "
	"      rule_doc(rule, 'description'), example)), "
	"      'defaultConfiguration', "
	"      json_object('level', level), 'properties', "
	"      json_object('findings', n))) FROM rules)))), "
	"  'originalUriBaseIds', json_object('SRCROOT', json_object("
	"    'uri', ?2)), "
	"  'results', json((SELECT json_group_array(json(r)) FROM results)), "
	"  'properties', json_object("
	"    'tree', (SELECT tree FROM last), "
	"    'kernelVersion', (SELECT kernel_version FROM last))), "
	/* SARIF wants a repositoryUri: without a remote, the tree itself */
	"  json_object('versionControlProvenance', (SELECT json_array("
	"    json_object('repositoryUri', coalesce(?3, ?2), "
	"    'revisionId', git_head)) FROM last WHERE git_head IS NOT NULL "
	"    AND git_head <> ''))))) ";

/* The last run's tree, or NULL. */
static char *last_tree(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT tree FROM runs ORDER BY id DESC LIMIT 1");
	char *t = NULL;

	if (st && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		t = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return t;
}

/* file:///TREE/ for SRCROOT (file:/// when the tree is not known). */
static char *srcroot_uri(const char *t)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "file://");
	if (t) {
		sb_add_uri_path(&sb, t);
		if (!*t || t[strlen(t) - 1] != '/')
			sb_addc(&sb, '/');
	} else {
		sb_addc(&sb, '/');
	}
	return sb_detach(&sb);
}

int report_sarif(sqlite3 *db, struct strbuf *out)
{
	char *tree = last_tree(db), *root = srcroot_uri(tree);
	char *remote = tree ? ktree_git_remote(tree) : NULL;
	struct report_rules rr;
	sqlite3_stmt *st;
	int rc = -1;

	if (sqlite3_create_function(db, "gfp_uri", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    sql_uri, NULL, NULL) != SQLITE_OK) {
		error_msg("cannot register SQL function: %s",
			  sqlite3_errmsg(db));
		free(root);
		free(tree);
		free(remote);
		return -1;
	}
	report_rules_open(db, &rr);
	st = db_prepare(db, sql_sarif);
	if (st) {
		sqlite3_bind_text(st, 1, GFPAUDIT_VERSION, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, root, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, remote, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			sb_adds(out, (const char *)sqlite3_column_text(st, 0));
			sb_addc(out, '\n');
			rc = 0;
		} else {
			error_msg("%s: %s", sqlite3_db_filename(db, "main"),
				  sqlite3_errmsg(db));
		}
	}
	sqlite3_finalize(st);
	report_rules_close(db, &rr);
	free(root);
	free(tree);
	free(remote);
	return rc;
}

#!/bin/sh
# gfpaudit query: read-only SQL, output formats, canned queries, bad files.
. "$(dirname "$0")/lib.sh"

db=$TMP/q.db
# The database is created by db_open() itself (tests/tools/mkdb); rows are
# inserted with the sqlite3 shell, as a user could.
"$GFPAUDIT" query --db "$db" "SELECT 1" >/dev/null 2>&1
ok "a missing database is refused read-only" test ! -e "$db"
sqlite3 "$db" "PRAGMA user_version" >/dev/null
exit_is 2 "an empty SQLite file is refused by query" \
	"$GFPAUDIT" query --db "$db" "SELECT 1"
rm -f "$db"
"$TOOLS/mkdb" "$db"
sqlite3 "$db" "INSERT INTO runs(command, tree, started_at) VALUES
	('scan', '/t', '2026-01-01T00:00:00Z');
	INSERT INTO files(path, hash, size, parse_mode) VALUES
	('fs/a.c', 'h', 1, 'single_file');
	INSERT INTO flag_uses(file_id, path, line, col, flag, context)
	VALUES (1, 'fs/a.c', 3, 9, 'GFP_TEMPORARY', 'call_arg'),
	       (1, 'fs/a.c', 7, 2, 'GFP_TEMPORARY', 'macro_def');"

out=$("$GFPAUDIT" query --db "$db" --tsv "SELECT path, line FROM flag_uses ORDER BY line")
is "$out" "path	line
fs/a.c	3
fs/a.c	7" "--tsv prints a header then rows"

out=$("$GFPAUDIT" query --db "$db" --json "SELECT path, line, flag FROM flag_uses WHERE line = 3")
want='[
  {"path":"fs/a.c","line":3,"flag":"GFP_TEMPORARY"}
]'
is "$out" "$want" "--json is an array of objects"
ok "--json output parses as JSON" sh -c "'$GFPAUDIT' query --db '$db' --json 'SELECT * FROM flag_uses' | python3 -m json.tool"
out=$("$GFPAUDIT" query --db "$db" --json "SELECT 1 AS x WHERE 0")
is "$out" "[
]" "--json with no rows is an empty array"

out=$("$GFPAUDIT" query --db "$db" --table "SELECT flag, count(*) AS n FROM flag_uses GROUP BY flag")
is "$out" "flag           n
-------------  -
GFP_TEMPORARY  2" "--table aligns columns"

before=$(sha256sum "$db" | cut -c1-64)
exit_is 2 "DELETE is refused" "$GFPAUDIT" query --db "$db" "DELETE FROM flag_uses"
exit_is 2 "a write hidden after a SELECT is refused" \
	"$GFPAUDIT" query --db "$db" "SELECT 1; DROP TABLE sites"
exit_is 2 "ATTACH is refused" "$GFPAUDIT" query --db "$db" "ATTACH '$TMP/x.db' AS x"
is "$(sql "$db" 'SELECT count(*) FROM flag_uses')" "2" "rows are untouched"
is "$(sha256sum "$db" | cut -c1-64)" "$before" "database file is unchanged"
exit_is 2 "SQL syntax error exits 2" "$GFPAUDIT" query --db "$db" "SELEC nothing"

ok "--list names the canned queries" sh -c "'$GFPAUDIT' query --list | grep -q '^temporary '"
out=$("$GFPAUDIT" query --db "$db" --tsv temporary | wc -l)
is "$out" "3" "canned query 'temporary' answers"
for q in $("$GFPAUDIT" query --list | cut -d' ' -f1); do
	ok "canned query $q runs" "$GFPAUDIT" query --db "$db" --tsv "$q"
done

printf 'not a database at all, just text\n' >"$TMP/text.db"
exit_is 2 "a non-SQLite file exits 2" "$GFPAUDIT" query --db "$TMP/text.db" "SELECT 1"
out=$("$GFPAUDIT" query --db "$TMP/text.db" "SELECT 1" 2>&1)
like "$out" "text.db: not an SQLite database" "the error names the file"
is "$(echo "$out" | wc -l)" "1" "the error is one line"
sqlite3 "$TMP/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
out=$("$GFPAUDIT" query --db "$TMP/other.db" "SELECT 1" 2>&1)
like "$out" "other.db: .*not a gfpaudit" "someone else's SQLite file is refused"
done_testing

#!/bin/sh
# docs/schema.md and the schema in db/schema.c name the same tables and
# columns, in both directions.
. "$(dirname "$0")/lib.sh"

db=$TMP/s.db
"$TOOLS/mkdb" "$db" || exit 1
doc=$SRC_DIR/docs/schema.md

# Documented: "## `table`" headings and "| `column` |" rows below them.
awk '/^## `/ { gsub(/[#` ]/, ""); t = $0; next }
     t != "" && /^\| `/ { split($0, f, "`"); print t "." f[2] }' "$doc" |
	sort >"$TMP/doc"
# Actual: every table's columns.
for t in $(sql "$db" "SELECT name FROM sqlite_schema WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%'"); do
	sql "$db" "SELECT '$t.' || name FROM pragma_table_info('$t')"
done | sort >"$TMP/code"

ok "schema.md documents some columns" test -s "$TMP/doc"
missing=$(comm -13 "$TMP/doc" "$TMP/code" | tr '\n' ' ')
is "$missing" "" "every column in the code is documented"
stale=$(comm -23 "$TMP/doc" "$TMP/code" | tr '\n' ' ')
is "$stale" "" "every documented column exists"
done_testing

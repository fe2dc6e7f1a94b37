#!/bin/sh
# The `sites` columns are listed once, in db/sites_cols.h: a database the
# migrations made, docs/schema.md and the columns rules may name must all
# be that list (a migration that adds a column the list lacks, or a list
# entry no migration adds, fails here).
. "$(dirname "$0")/lib.sh"

"$TOOLS/sitecols" >"$TMP/list" || exit 1
ok "the list has columns" test -s "$TMP/list"

# The migrated table, column by column (order, type, NOT NULL, default,
# primary key), against a table created from the list's declarations.
db=$TMP/s.db
"$TOOLS/mkdb" "$db" || exit 1
info="SELECT cid, name, type, \"notnull\", dflt_value, pk
	FROM pragma_table_info('sites')"
sql "$db" "$info" >"$TMP/migrated"
create=$(awk -F '\t' '{ printf "%s%s %s %s", (NR > 1 ? ", " : ""), $1, $2, $3 }
	END { print "" }' "$TMP/list")
sql "$TMP/list.db" "CREATE TABLE sites ($create); $info" >"$TMP/listed"
is "$(diff "$TMP/listed" "$TMP/migrated")" "" \
	"the migrations' sites table is db/sites_cols.h, column by column"

# Every migration path ends there: a database made at version 1 and
# migrated by opening it.
"$TOOLS/mkdb" "$TMP/old.db" 1 && "$TOOLS/mkdb" "$TMP/old.db" || exit 1
is "$(sql "$TMP/old.db" "$info" | diff "$TMP/listed" -)" "" \
	"a database migrated from version 1 has the same sites table"

# docs/schema.md's sites table: the same names, in the same order, with
# the same types.
awk '/^## / { s = ($0 == "## `sites`"); next }
     s && /^\| `/ { split($0, f, "|"); gsub(/[ `]/, "", f[2]);
		    gsub(/ /, "", f[3]); print f[2] "\t" f[3] }' \
	"$SRC_DIR/docs/schema.md" >"$TMP/doc"
cut -f 1,2 "$TMP/list" >"$TMP/names"
is "$(diff "$TMP/names" "$TMP/doc")" "" \
	"docs/schema.md documents every sites column, in order, with its type"

# Rules may name the RULE columns and no other: the others are refused
# as no column (not for some other fault of the rule).
n=0 bad=""
cut -f 1,4 "$TMP/list" >"$TMP/uses"
while read -r name use; do
	n=$((n + 1))
	printf '%s\n' "name: c$n" "description: d" "versions: all" \
		"flags: GFP_TEMPORARY" "action: report" "match: sites" \
		"where: $name is-null" "message: {$name}" >"$TMP/c$n.rule"
	out=$("$GFPAUDIT" rules --check "$TMP/c$n.rule" 2>&1)
	rc=$?
	case "$use:$rc:$out" in
	RULE:0:*) ;;
	INTERNAL:2:*"'$name' is not a column of sites"*) ;;
	*) bad="$bad $name($use: $rc $out)" ;;
	esac
done <"$TMP/uses"
is "$bad" "" "rules take the RULE columns and refuse the INTERNAL ones"
grep -c '	INTERNAL$' "$TMP/list" >"$TMP/n"
ok "some columns are INTERNAL (ids, the summaries' working columns)" \
	test "$(cat "$TMP/n")" -gt 0
done_testing

#!/bin/sh
# Two scans into one database at once: both finish (one waits for the
# other's write lock) or one fails with a clear message; nothing is lost.
. "$(dirname "$0")/lib.sh"
require_cmd scan

db=$TMP/c.db
"$GFPAUDIT" scan --db "$TMP/ref.db" "$MINIKERNEL" >/dev/null 2>&1
"$GFPAUDIT" scan --db "$db" "$MINIKERNEL" >"$TMP/a.out" 2>&1 &
a=$!
"$GFPAUDIT" scan --db "$db" "$MINIKERNEL" >"$TMP/b.out" 2>&1 &
b=$!
wait $a; ra=$?
wait $b; rb=$?
like "$ra $rb" "^(0 0|0 2|2 0)$" "both scans succeed, or one refuses cleanly"
for f in a b; do
	is "$(grep -ci 'database is locked' "$TMP/$f.out")" "0" \
		"scan $f does not fail with 'database is locked'"
done
is "$(sql "$db" 'PRAGMA integrity_check')" "ok" "integrity_check"
is "$(sql "$db" 'SELECT count(*) FROM sites')" \
	"$(sql "$TMP/ref.db" 'SELECT count(*) FROM sites')" \
	"sites equal a single scan"
is "$(sql "$db" 'SELECT count(*) FROM flag_uses')" \
	"$(sql "$TMP/ref.db" 'SELECT count(*) FROM flag_uses')" \
	"flag_uses equal a single scan"
done_testing

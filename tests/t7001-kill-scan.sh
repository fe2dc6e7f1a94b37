#!/bin/sh
# A scan killed with SIGKILL at random moments leaves a consistent
# database, and the next scan finishes the job without duplicate rows:
# the result equals a scan that was never interrupted.
. "$(dirname "$0")/lib.sh"
require_cmd scan

src=$(linux61_pristine) || skip_all "linux-source-6.1 not installed"
# A sub-tree of the real 6.1 tree, hard-linked (scan never writes it).
tree=$TMP/tree
mkdir -p "$tree"
dirs="include fs/proc fs/ext4 mm kernel"
[ "$GFPAUDIT_SANITIZED" = 1 ] && dirs="include/linux fs/proc mm"
cp -al "$src/Makefile" "$tree/"
for d in $dirs; do
	mkdir -p "$tree/$(dirname "$d")"
	cp -al "$src/$d" "$tree/$d"
done

db=$TMP/k.db
# Deterministic "random" delays between 0.1 and 2.5 seconds.
delays=$(awk 'BEGIN { srand(7001); for (i = 0; i < 10; i++)
	printf "%.2f ", 0.1 + rand() * 2.4 }')
n=0
for d in $delays; do
	n=$((n + 1))
	"$GFPAUDIT" scan -j 2 --db "$db" "$tree" >/dev/null 2>&1 &
	pid=$!
	sleep "$d"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -f "$db" ]; then
		is "$(sql "$db" 'PRAGMA integrity_check')" "ok" \
			"integrity_check after kill $n (at ${d}s)"
	else
		ok "kill $n (at ${d}s) came before the database existed" true
	fi
done

ok "a scan after the kills completes" "$GFPAUDIT" scan -j 2 --db "$db" "$tree"
ok "a fresh, uninterrupted scan" "$GFPAUDIT" scan -j 2 --db "$TMP/ref.db" "$tree"
is "$(sql "$db" 'PRAGMA integrity_check')" "ok" "integrity_check at the end"

dump() {
	sql "$1" "SELECT path, line, col, flag, context FROM flag_uses
		ORDER BY 1, 2, 3, 4" >"$2.flags"
	sql "$1" "SELECT path, line, col, api, flags FROM sites
		ORDER BY 1, 2, 3, 4" >"$2.sites"
	sql "$1" "SELECT path, hash FROM files ORDER BY 1" >"$2.files"
}
dump "$db" "$TMP/got"
dump "$TMP/ref.db" "$TMP/want"
ok "flag_uses equal an uninterrupted scan" cmp "$TMP/got.flags" "$TMP/want.flags"
ok "sites equal an uninterrupted scan" cmp "$TMP/got.sites" "$TMP/want.sites"
ok "files equal an uninterrupted scan" cmp "$TMP/got.files" "$TMP/want.files"
ok "the reference scan found sites" test -s "$TMP/want.sites"
is "$(sql "$db" "SELECT count(*) FROM (SELECT path, line, col, api
	FROM sites GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)")" "0" \
	"no duplicate sites"
is "$(sql "$db" "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" \
	"complete" "the last run is complete"
done_testing

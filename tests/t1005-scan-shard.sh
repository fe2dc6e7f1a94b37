#!/bin/sh
# --shard K/N: deterministic disjoint parts whose union is the whole scan.
. "$(dirname "$0")/lib.sh"

q="SELECT path, line, col, api FROM sites ORDER BY 1, 2, 3, 4"
ok "full scan" "$GFPAUDIT" scan --db "$TMP/all.db" "$MINIKERNEL"
for k in 1 2 3; do
	ok "shard $k/3" "$GFPAUDIT" scan --shard $k/3 --db "$TMP/s$k.db" "$MINIKERNEL"
done
union=$(for k in 1 2 3; do sql "$TMP/s$k.db" "$q"; done | sort)
is "$union" "$(sql "$TMP/all.db" "$q" | sort)" "shards together = full scan"
is "$(for k in 1 2 3; do sql "$TMP/s$k.db" "SELECT path FROM files"; done | sort | uniq -d)" \
	"" "shards are disjoint"
is "$(sql "$TMP/s2.db" "SELECT shard FROM runs")" "2/3" "runs.shard recorded"
ok "shard 2/3 again" "$GFPAUDIT" scan --force --shard 2/3 --db "$TMP/again.db" "$MINIKERNEL"
is "$(sql "$TMP/again.db" "SELECT path FROM files ORDER BY 1")" \
	"$(sql "$TMP/s2.db" "SELECT path FROM files ORDER BY 1")" "sharding is deterministic"
done_testing

#!/bin/sh
# Demo stage 40: the reference allocator.  This machine's fragmentation,
# the anti-fragmentation experiment, a trace replay and, when the scan
# stage filled the sites table, the impact of the gfp-temporary rule.
# Environment from examples/demo.sh: GFPAUDIT, OUT, DB, SRC_DIR.
set -eu

echo "-- fragstat: this machine (/proc/buddyinfo, /proc/pagetypeinfo)"
"$GFPAUDIT" fragstat --tsv >"$OUT/fragstat.tsv" || true
awk -F'\t' 'NR == 1 || $3 == 9' "$OUT/fragstat.tsv"

echo "-- simulate --experiment antifrag (256 MB zone)"
"$GFPAUDIT" simulate --experiment antifrag --pages 65536 --steps 500000 \
	--db "$DB" --tsv >"$OUT/antifrag.tsv"
grep -E 'policy|highorder_success_pct	|mixed_pageblocks	' "$OUT/antifrag.tsv"

echo "-- simulate --trace (a hand-written 6.1 trace_pipe excerpt)"
"$GFPAUDIT" simulate --trace "$SRC_DIR/tests/fixtures/trace/trace_pipe.6.1" \
	--pages 8192 --policy 6.1 --db "$DB" >"$OUT/trace.txt"

n=$(sqlite3 -batch -noheader "$DB" "SELECT count(*) FROM sites" 2>/dev/null || echo 0)
if [ "${n:-0}" -gt 0 ]; then
	echo "-- simulate --rule gfp-temporary ($n sites)"
	"$GFPAUDIT" simulate --db "$DB" --rule gfp-temporary --pages 65536 \
		--steps 300000 >"$OUT/impact.txt"
	grep -E 'policy|highorder_success_pct |fallbacks |mixed_pageblocks ' "$OUT/impact.txt"
else
	echo "-- simulate --rule: no sites in $DB yet (scan stage), skipped"
fi

#!/bin/sh
# The reference allocator's speed (issue 8 targets: >= 20 M order-0
# alloc+free pairs/s on one core, <= 64 bytes of state per page, trace
# replay >= 5 M events/s), each against a peer measured in the same run:
# glibc malloc/free of 4 KB for the pairs, `wc -l` over the same trace for
# the replay.  Prints figures and ratios; asserts nothing.
set -eu
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
GFPAUDIT=${GFPAUDIT:-$SRC_DIR/build/gfpaudit}
TOOLS=${TOOLS:-$(dirname "$GFPAUDIT")/tests/tools}
EVENTS=${BENCH_TRACE_EVENTS:-5000000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfpaudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }

echo "== allocator: order-0 alloc+free pairs per second (one core)"
"$TOOLS/bench_allocator" 20000000 >"$TMP/pairs"
peer=$(awk -F'\t' '$1 == "peer" { print $3 }' "$TMP/pairs")
awk -F'\t' -v peer="$peer" '
	$1 == "bytes_per_page" { printf "model state: %s bytes per page (target <= 64)\n", $2 }
	$1 == "peer" { printf "peer glibc malloc/free 4K: %s M pairs/s\n", $3 }
	$1 == "steady" || $1 ~ /^empty/ {
		printf "%-11s %-8s %6s M pairs/s  ratio to malloc/free %.2f\n",
			$1, $2, $3, $3 / peer }' "$TMP/pairs"

echo "== allocator: kmem trace replay (parse + one policy), $EVENTS events"
"$TOOLS/gen_trace" "$EVENTS" 6.1 1 >"$TMP/trace"
t0=$(now)
wc -l "$TMP/trace" >/dev/null
t1=$(now)
"$GFPAUDIT" simulate --trace "$TMP/trace" --policy 6.1 --pages 262144 \
	>/dev/null 2>&1
t2=$(now)
awk -v n="$EVENTS" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
	peer = n / (b - a); ours = n / (c - b);
	printf "peer wc -l: %.1f M lines/s\n", peer / 1e6;
	printf "replay: %.1f M events/s (target >= 5)  ratio to wc -l %.3f\n",
		ours / 1e6, ours / peer }'

#!/bin/sh
# The reference allocator's speed (issue 8 targets: >= 20 M order-0
# alloc+free pairs/s on one core, <= 64 bytes of state per page, trace
# replay >= 5 M events/s), each against a peer measured in the same run:
# glibc malloc/free of 4 KB for the pairs, `wc -l` over the same trace for
# the replay.  Prints figures and ratios; asserts nothing.
set -eu
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
GFPAUDIT=${GFPAUDIT:-$SRC_DIR/build/gfpaudit}
# the test tools live next to the real binary (./gfpaudit is a symlink)
TOOLS=${TOOLS:-$(dirname "$(readlink -f "$GFPAUDIT")")/tests/tools}
# `make bench` builds only gfpaudit: build the two helpers when missing
if [ ! -x "$TOOLS/bench_allocator" ] || [ ! -x "$TOOLS/gen_trace" ]; then
	make -C "$SRC_DIR" -s unit >&2
fi
EVENTS=${BENCH_TRACE_EVENTS:-5000000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfpaudit-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }

echo "== allocator: order-0 alloc+free pairs per second (one core)"
"$TOOLS/bench_allocator" 20000000 >"$TMP/pairs"
peer=$(awk -F'\t' '$1 == "peer" { print $3 }' "$TMP/pairs")
awk -F'\t' -v peer="$peer" '
	$1 == "bytes_per_page" {
		printf "model state: %s bytes per page (target <= 64)\n", $2
		printf "RESULT\tallocator: model bytes per page\t%s\t<= 64\tstruct page + pageblock flags\n", $2 }
	$1 == "peer" { printf "peer glibc malloc/free 4K: %s M pairs/s\n", $3 }
	$1 == "steady" || $1 ~ /^empty/ {
		printf "%-11s %-8s %6s M pairs/s  ratio to malloc/free %.2f\n",
			$1, $2, $3, $3 / peer
		if ($2 == "6.1")
			printf "RESULT\tallocator: order-0 pairs/s %s (6.1)\t%sM (x%.2f malloc)\t%s\tone core, CPU time\n",
				$1, $3, $3 / peer,
				$1 == "empty-nopcp" ? "- (pcp off)" : ">= 20M" }' "$TMP/pairs"

echo "== allocator: kmem trace replay (parse + one policy), $EVENTS events"
"$TOOLS/gen_trace" "$EVENTS" 6.1 1 >"$TMP/trace"
# CPU seconds (user + sys) of a command, best of three: the machine is
# shared, so wall time measures the neighbours; GNU time when present.
cpu() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$TMP/time" "$@" >/dev/null 2>&1
		awk '{ print $1 + $2 }' "$TMP/time"
	else
		t0=$(now)
		"$@" >/dev/null 2>&1
		t1=$(now)
		awk -v a="$t0" -v c="$t1" 'BEGIN { print c - a }'
	fi
}
best() {
	b=
	for i in 1 2 3; do
		d=$(cpu "$@")
		b=$(awk -v d="$d" -v b="$b" 'BEGIN { print (b == "" || d < b) ? d : b }')
	done
	echo "$b"
}
tw=$(best wc -l "$TMP/trace")
tr=$(best "$GFPAUDIT" simulate --trace "$TMP/trace" --policy 6.1 --pages 262144)
awk -v n="$EVENTS" -v tw="$tw" -v tr="$tr" 'BEGIN {
	peer = n / tw; ours = n / tr;
	printf "peer wc -l: %.1f M lines/s\n", peer / 1e6;
	printf "replay: %.1f M events/s (target >= 5)  ratio to wc -l %.3f\n",
		ours / 1e6, ours / peer;
	printf "RESULT\tallocator: trace replay events/s\t%.1fM (x%.3f wc -l)\t>= 5M\tparse + one policy, CPU time\n",
		ours / 1e6, ours / peer }'

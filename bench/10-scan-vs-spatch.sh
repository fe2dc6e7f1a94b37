#!/bin/sh
# bench 10: `gfpaudit scan` against Coccinelle's spatch running a one-rule
# SmPL search for GFP_TEMPORARY, on the same injected 6.1 tree, in one
# run.  Prints both times, the ratio scan/spatch (target: < 1) and both
# recalls against the injection manifest (target: scan 100%).
. "$(dirname "$0")/lib.sh"

if ! command -v spatch >/dev/null; then
	result scan-vs-spatch skipped "<1" "spatch not installed"
	exit 0
fi
manifest=$GFPAUDIT_CACHE/linux-6.1-temporary.manifest
tree=$(linux61_copy linux-6.1-temporary python3 \
	"$SRC_DIR/tests/lib/inject-temporary.py" . "$manifest") || {
	result scan-vs-spatch skipped "<1" "no linux-source-6.1"
	exit 0
}
now() { date +%s.%N; }

printf '@@\n@@\n\n* GFP_TEMPORARY\n' >"$TMP/temporary.cocci"
# spatch's own prefilter: idutils when the tree has an ID index, else
# its default scan of the files for the rule's tokens.
prefilter=
[ -f "$tree/ID" ] && command -v lid >/dev/null && prefilter=--use-idutils

# CPU (user + system) of each, from /usr/bin/time when there is one: on
# a shared machine it moves much less than wall-clock time.
cpu_of() { # FILE CMD...: run CMD, its user+sys seconds into FILE
	_f=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$_f" -f '%U %S' "$@"
	else
		"$@"; echo "0 0" >"$_f"
	fi
}
# PAIRS=N: N runs of each, taken in turn (scan, spatch, scan, ...), so
# that a machine whose speed drifts moves both; the medians and the
# pair-by-pair CPU ratios are printed.  One pair by default.
pairs=${PAIRS:-1}
: >"$TMP/pairs"
i=0
while [ "$i" -lt "$pairs" ]; do
	rm -f "$TMP/bench.db" "$TMP/bench.db-wal" "$TMP/bench.db-shm"
	t0=$(now)
	cpu_of "$TMP/scan.cpu" "$GFPAUDIT" scan -j "$JOBS" --force \
		--no-progress --db "$TMP/bench.db" "$tree" 2>"$TMP/scan.err"
	t1=$(now)
	cpu_of "$TMP/spatch.cpu" spatch --sp-file "$TMP/temporary.cocci" \
		--dir "$tree" -j "$JOBS" $prefilter >"$TMP/spatch.out" \
		2>"$TMP/spatch.err"
	t2=$(now)
	echo "$(echo "$t1 - $t0" | bc -l) $(echo "$t2 - $t1" | bc -l)" \
		"$(awk '{ print $1 + $2 }' "$TMP/scan.cpu")" \
		"$(awk '{ print $1 + $2 }' "$TMP/spatch.cpu")" >>"$TMP/pairs"
	i=$((i + 1))
done
# median of column $1 of the pairs (the ratio scan/spatch CPU for 5)
median() {
	awk -v c="$1" '{ print (c == 5 ? ($4 > 0 ? $3 / $4 : 0) : $c) }' \
		"$TMP/pairs" | sort -g | awk '{ v[NR] = $1 } END {
			if (NR % 2) print v[(NR + 1) / 2];
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ts=$(median 1)
tc=$(median 2)
cs=$(median 3)
cc=$(median 4)
range=$(awk '{ print ($4 > 0 ? $3 / $4 : 0) }' "$TMP/pairs" | sort -g |
	awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')

# Lines spatch marked ('-' lines of its context diff), as path<TAB>line.
awk -v root="$tree/" '
	/^--- / { f = $2; sub(root, "", f); next }
	/^\+\+\+ / { next }
	/^@@ / { split($2, a, ","); l = -a[1]; next }
	/^-/ { print f "\t" l; l++; next }
	/^ / { l++ }' "$TMP/spatch.out" | sort -u >"$TMP/spatch.lines"
cut -f1,2 "$manifest" | sort -u >"$TMP/manifest.lines"
n=$(wc -l <"$manifest" | tr -d ' ')
sp_found=$(comm -12 "$TMP/manifest.lines" "$TMP/spatch.lines" | wc -l | tr -d ' ')
sp_lines=$(wc -l <"$TMP/manifest.lines" | tr -d ' ')
scan_found=$(sqlite3 -batch "$TMP/bench.db" <<EOF2
CREATE TEMP TABLE m(path, line INTEGER, col INTEGER, callee, in_define);
.mode tabs
.import $manifest m
.mode list
SELECT count(*) FROM m JOIN flag_uses f ON f.path = m.path AND
	f.line = m.line AND f.col = m.col AND f.flag = 'GFP_TEMPORARY';
EOF2
)
ratio=$(echo "$ts / $tc" | bc -l)
cratio=$(median 5)
printf 'gfpaudit scan: %.1fs wall, %.1fs CPU, recall %s/%s tokens (%s)\n' \
	"$ts" "$cs" "$scan_found" "$n" "$(tail -1 "$TMP/scan.err")"
printf 'spatch:        %.1fs wall, %.1fs CPU, recall %s/%s lines (prefilter: %s)\n' \
	"$tc" "$cc" "$sp_found" "$sp_lines" "${prefilter:-default}"
result scan-vs-spatch "$(printf '%.2fx' "$ratio")" "<1" \
	"wall; CPU $(printf '%.2fx' "$cratio") (pairs $range, $pairs pair(s), medians); scan ${ts%.*}s recall $scan_found/$n; spatch ${tc%.*}s recall $sp_found/$sp_lines lines; -j $JOBS"

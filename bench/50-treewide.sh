#!/bin/sh
# bench 50: the treewide GFP_TEMPORARY job on the injected 6.1 tree.
# gfpaudit: `scan --rule gfp-temporary` into a fresh database (only the
# files that name GFP_TEMPORARY are analysed, with the wrappers they call
# it through learned from the files that define them), then
# `patch --rule gfp-temporary` (the git-am-able series, To:/Cc: from
# gfpaudit's MAINTAINERS parser).  TREEWIDE_SCOPE=whole scans the whole
# tree instead (the series is the same: t1022 checks it on the
# minikernel).
# Peer: Coccinelle's spatch doing the same rewrite with the rule's
# companion semantic patch (data/cocci/gfp-temporary.cocci, -D patch, its
# Options line: --no-includes --include-headers), `--dir TREE -j N`, the
# same N.  Prints both times, the ratio (target: <= 0.25x) and both
# recalls against the injection manifest (lines the generated patches
# change; lines spatch's diff changes).
#
# The scan runs at TREEWIDE_DEPTH (default lexical: the rewrite needs the
# tokens and sites, not the ASTs; t3100 round-trips the series at that
# depth).
. "$(dirname "$0")/lib.sh"
TREEWIDE_DEPTH=${TREEWIDE_DEPTH:-lexical}
scope="--rule gfp-temporary"
[ "${TREEWIDE_SCOPE:-rule}" = whole ] && scope=
COCCI=$SRC_DIR/data/cocci/gfp-temporary.cocci

command -v spatch >/dev/null || {
	result treewide-vs-spatch skipped "<=0.25x" "spatch not installed"
	exit 0
}
manifest=$GFPAUDIT_CACHE/linux-6.1-temporary.manifest
tree=$(linux61_copy linux-6.1-temporary python3 \
	"$SRC_DIR/tests/lib/inject-temporary.py" . "$manifest") || {
	result treewide-vs-spatch skipped "<=0.25x" "no linux-source-6.1"
	exit 0
}
prefilter=
[ -f "$tree/ID" ] && command -v lid >/dev/null && prefilter=--use-idutils

# timed OUT CMD...: "wall user+sys" of CMD, children included (GNU time);
# CMD's standard output goes to OUT.
timed() {
	_out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@" >"$_out"
	_rc=$?
	tail -1 "$TMP/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
	return $_rc
}
# Old-side line numbers of the '-' lines of a unified diff, as
# path<TAB>line; STRIP is the prefix of the '--- ' paths (a/ for both:
# spatch's patch mode prints paths relative to --dir, as git does).
minus_lines() {
	awk -v strip="$1" '
		/^--- / { f = $2; if (index(f, strip) == 1)
				f = substr(f, length(strip) + 1); next }
		/^\+\+\+ / { next }
		/^@@ / { split($2, a, ","); l = -a[1]; next }
		/^-/ { print f "\t" l; l++; next }
		/^ / { l++ }' "$2"
}

# Both sides walk the same tree: have it in the page cache first.
# (through cat: GNU tar reads nothing when its output is /dev/null)
(cd "$tree" && tar cf - --exclude=.git .) 2>/dev/null | cat >/dev/null

db=$TMP/treewide.db
out=$TMP/series
t_scan=$(timed "$TMP/scan.out" "$GFPAUDIT" scan $scope --depth "$TREEWIDE_DEPTH" -j "$JOBS" \
	--no-progress --db "$db" "$tree" 2>"$TMP/scan.err") || {
	tail -5 "$TMP/scan.err" >&2
	result treewide-vs-spatch failed "<=0.25x" "gfpaudit scan failed"
	exit 0
}
t_patch=$(timed "$TMP/patch.out" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--maintainers builtin --out "$out" "$tree" 2>"$TMP/patch.err") || {
	tail -5 "$TMP/patch.err" >&2
	result treewide-vs-spatch failed "<=0.25x" "gfpaudit patch failed"
	exit 0
}
t_spatch=$(timed "$TMP/spatch.diff" spatch --sp-file "$COCCI" -D patch --no-includes \
	--include-headers --dir "$tree" -j "$JOBS" $prefilter \
	2>"$TMP/spatch.err")
[ -s "$TMP/spatch.diff" ] || {
	tail -5 "$TMP/spatch.err" >&2
	result treewide-vs-spatch failed "<=0.25x" "spatch printed no diff"
	exit 0
}

cut -f1,2 "$manifest" | sort -u >"$TMP/manifest.lines"
nm=$(wc -l <"$TMP/manifest.lines" | tr -d ' ')
cat "$out"/[0-9]*.patch | minus_lines a/ /dev/stdin | sort -u >"$TMP/series.lines"
minus_lines a/ "$TMP/spatch.diff" | sort -u >"$TMP/spatch.lines"
r_series=$(comm -12 "$TMP/manifest.lines" "$TMP/series.lines" | wc -l | tr -d ' ')
r_spatch=$(comm -12 "$TMP/manifest.lines" "$TMP/spatch.lines" | wc -l | tr -d ' ')
npatch=$(find "$out" -name '[0-9]*.patch' ! -name '0000-*' | wc -l | tr -d ' ')

ws=$(awk -v a="${t_scan% *}" -v b="${t_patch% *}" 'BEGIN { printf "%.2f", a + b }')
cs=$(awk -v a="${t_scan#* }" -v b="${t_patch#* }" 'BEGIN { printf "%.2f", a + b }')
printf 'gfpaudit scan %s--depth %s -j %s: %s s wall, %s s CPU\n  %s\n' \
	"${scope:+$scope }" "$TREEWIDE_DEPTH" "$JOBS" "${t_scan% *}" "${t_scan#* }" "$(grep "^gfpaudit scan: /" "$TMP/scan.err" | tail -1)"
printf 'gfpaudit patch --rule gfp-temporary: %s s wall, %s s CPU (%s patches)\n' \
	"${t_patch% *}" "${t_patch#* }" "$npatch"
printf 'gfpaudit scan + patch: %s s wall, %s s CPU; recall %s/%s manifest lines\n' \
	"$ws" "$cs" "$r_series" "$nm"
printf 'spatch -D patch -j %s: %s s wall, %s s CPU; recall %s/%s manifest lines (prefilter: %s)\n' \
	"$JOBS" "${t_spatch% *}" "${t_spatch#* }" "$r_spatch" "$nm" "${prefilter:-default}"
cr=$(awk -v a="$cs" -v b="${t_spatch#* }" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
wr=$(awk -v a="$ws" -v b="${t_spatch% *}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
printf 'ratio gfpaudit/spatch: %sx CPU, %sx wall\n' "$cr" "$wr"
met=not-met
awk -v r="$cr" 'BEGIN { exit !(r <= 0.25) }' && met=met
result "treewide GFP_TEMPORARY job vs spatch" "${cr}x CPU" "<=0.25x" \
	"$met; wall ${wr}x; gfpaudit ${cs}s recall $r_series/$nm; spatch ${t_spatch#* }s recall $r_spatch/$nm; -j $JOBS"

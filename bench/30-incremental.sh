#!/bin/sh
# bench 30: the incremental re-scan.  The whole 6.1 tree (the LLVM=1
# defconfig copy of bench 20) is scanned once into a database (untimed),
# then re-scanned twice: with nothing changed, and after one .c file's
# content changed (the first GFP_KERNEL of INCR_FILE becomes GFP_NOIO).
# Prints the wall and CPU time of both re-scans (target for the second:
# <= 1 s), their ratio to `clang -fsyntax-only` of that one file with
# kbuild's argv (`make LLVM=1 -n FILE.o`) and to each other, and checks
# from the database that exactly that file was re-parsed and that its new
# flags are recorded.
#
# The scanned tree is a hard-linked copy of the cached one (cp -al) in
# TMP; the changed file is written to a new inode, so the cache is never
# touched.
. "$(dirname "$0")/lib.sh"
INCR_FILE=${INCR_FILE:-fs/proc/base.c}
INCR_DEPTH=${INCR_DEPTH:-single}
CLANG=${CLANG:-clang}

for p in make "$CLANG" ld.lld flex bison bc; do
	command -v "$p" >/dev/null 2>&1 || {
		result incremental-rescan skipped "<=1s" "$p not installed"
		exit 0
	}
done
base=$(linux61_copy linux-6.1-llvm sh -c \
	'make -s LLVM=1 defconfig >/dev/null && make -s LLVM=1 prepare >/dev/null') || {
	result incremental-rescan skipped "<=1s" "no 6.1 tree, or LLVM=1 defconfig prepare failed"
	exit 0
}
grep -q GFP_KERNEL "$base/$INCR_FILE" 2>/dev/null || {
	result incremental-rescan failed "<=1s" "$INCR_FILE has no GFP_KERNEL"
	exit 0
}

# "wall user+sys" of a command, children included (GNU time).
timed() {
	/usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@"
	_rc=$?
	tail -1 "$TMP/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
	return $_rc
}
last_run() {
	sql "$db" "SELECT files_total || ' ' || files_parsed || ' ' || files_unchanged FROM runs ORDER BY id DESC LIMIT 1"
}

tree=$TMP/tree
db=$TMP/incr.db
cp -al "$base" "$tree" || {
	result incremental-rescan failed "<=1s" "cp -al of the tree failed"
	exit 0
}
rm -f "$tree/.gfpaudit-ready"

echo "first scan: the whole tree, --depth $INCR_DEPTH (untimed)"
t=$(timed "$GFPAUDIT" scan --depth "$INCR_DEPTH" -j "$JOBS" --no-progress \
	--db "$db" "$tree" 2>"$TMP/scan0.err") || {
	tail -5 "$TMP/scan0.err" >&2
	result incremental-rescan failed "<=1s" "first scan failed"
	exit 0
}
printf '  %s s wall, %s s CPU\n  %s\n' "${t% *}" "${t#* }" "$(tail -1 "$TMP/scan0.err")"

t_same=$(timed "$GFPAUDIT" scan --depth "$INCR_DEPTH" -j "$JOBS" \
	--no-progress --db "$db" "$tree" 2>"$TMP/scan1.err")
same_run=$(last_run)
printf 're-scan, nothing changed: %s s wall, %s s CPU (total parsed unchanged: %s)\n' \
	"${t_same% *}" "${t_same#* }" "$same_run"

f=$tree/$INCR_FILE
awk '!d && sub(/GFP_KERNEL/, "GFP_NOIO") { d = 1 } { print }' "$base/$INCR_FILE" >"$f.new" && mv "$f.new" "$f"
cmp -s "$f" "$base/$INCR_FILE" && {
	result incremental-rescan failed "<=1s" "could not change $INCR_FILE"
	exit 0
}
t_one=$(timed "$GFPAUDIT" scan --depth "$INCR_DEPTH" -j "$JOBS" \
	--no-progress --db "$db" "$tree" 2>"$TMP/scan2.err")
one_run=$(last_run)
printf 're-scan, %s changed: %s s wall, %s s CPU (total parsed unchanged: %s)\n' \
	"$INCR_FILE" "${t_one% *}" "${t_one#* }" "$one_run"
printf '  %s\n' "$(tail -1 "$TMP/scan2.err")"
set -- $one_run
parsed_ok=no
[ "$2" = 1 ] && [ "$3" = $(($1 - 1)) ] && parsed_ok=yes
noio=$(sql "$db" "SELECT count(*) FROM sites WHERE path = '$INCR_FILE' AND flags LIKE '%GFP_NOIO%'")
printf '  exactly %s re-parsed: %s; its GFP_NOIO site recorded: %s\n' \
	"$INCR_FILE" "$parsed_ok" "$noio"

# The peer: clang -fsyntax-only of that file, kbuild's argv, in the
# configured copy (same content before the change).
obj=${INCR_FILE%.c}.o
(cd "$base" && make LLVM=1 -n "$obj") 2>/dev/null | awk '
	/echo .  CC      / {
		n = split($0, part, ";")
		for (i = 1; i <= n; i++)
			if (part[i] ~ / -c -o /) {
				cmd = part[i]
				sub(/ -Wp,-MMD,[^ ]*/, "", cmd)
				sub(/ -c -o [^ ]*/, " -fsyntax-only", cmd)
				print cmd
				exit
			}
	}' >"$TMP/clang.sh"
if [ -s "$TMP/clang.sh" ]; then
	t_clang=$(cd "$base" && timed sh "$TMP/clang.sh" 2>"$TMP/clang.err") ||
		sed 's/^/  clang: /' "$TMP/clang.err" | tail -3
	printf 'clang -fsyntax-only %s: %s s wall, %s s CPU\n' "$INCR_FILE" \
		"${t_clang% *}" "${t_clang#* }"
else
	t_clang="0 0"
	echo "clang: no kbuild command for $obj"
fi

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}
met=not-met
awk -v c="${t_one#* }" 'BEGIN { exit !(c <= 1) }' && met=met
result "incremental re-scan, 1 file of 6.1 changed" \
	"${t_one#* }s CPU" "<=1s" \
	"$met; wall ${t_one% *}s; re-parsed exactly that file: $parsed_ok; --depth $INCR_DEPTH -j $JOBS"
result "incremental re-scan vs clang -fsyntax-only of the file" \
	"$(ratio "${t_one#* }" "${t_clang#* }")x CPU" "-" \
	"wall $(ratio "${t_one% *}" "${t_clang% *}")x; clang ${t_clang#* }s CPU"
result "incremental re-scan vs no-change re-scan" \
	"$(ratio "${t_one#* }" "${t_same#* }")x CPU" "-" \
	"no-change re-scan ${t_same#* }s CPU, ${t_same% *}s wall"

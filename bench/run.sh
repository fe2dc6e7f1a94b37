#!/bin/sh
# make bench: run every bench/NN-*.sh and collect their result lines into
# one table.  Each benchmark measures gfpaudit and its peer in the same run
# and prints lines "RESULT<TAB>name<TAB>ratio-or-figure<TAB>target<TAB>note".
set -u
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
export SRC_DIR GFPAUDIT=${GFPAUDIT:-$SRC_DIR/gfpaudit}
out=$(mktemp)
for b in "$SRC_DIR"/bench/[0-9]*.sh; do
	[ -f "$b" ] || continue
	echo "== $(basename "$b")" >&2
	sh "$b" | tee -a "$out" | grep -v '^RESULT' >&2
done
echo
printf '%-40s %-22s %-12s %s\n' benchmark figure target note
grep '^RESULT' "$out" | while IFS='	' read -r _ name fig target note; do
	printf '%-40s %-22s %-12s %s\n' "$name" "$fig" "$target" "$note"
done
rm -f "$out"

#!/bin/sh
# Demo step 20: the gfp-temporary rule's series for the minikernel (the
# upstream v4.14 removal), and what the report rules find.
# Environment from examples/demo.sh: GFPAUDIT, OUT, DB, SRC_DIR.
set -eu
# Step 10 scans; when it has not run (a partial checkout), scan here.
n=$("$GFPAUDIT" query --db "$DB" --tsv "SELECT count(*) FROM runs" 2>/dev/null |
	tail -1) || n=0
[ "${n:-0}" -gt 0 ] || "$GFPAUDIT" scan --db "$DB" "$SRC_DIR/examples/minikernel"
"$GFPAUDIT" rules
rm -rf "$OUT/patches-gfp-temporary"
"$GFPAUDIT" patch --db "$DB" --rule gfp-temporary \
	--out "$OUT/patches-gfp-temporary" "$SRC_DIR/examples/minikernel"
echo "-- the series:"
grep -h '^Subject:' "$OUT"/patches-gfp-temporary/*.patch
echo "-- its last patch:"
sed -n '/^diff --git/,$p' "$OUT"/patches-gfp-temporary/*-mm-remove-GFP_TEMPORARY.patch
echo "-- report rules (from the classifiers' columns):"
"$GFPAUDIT" rules --run --db "$DB" sleep-in-atomic reclaimable-noop \
	reclaimable-without-shrinker shrinker-without-reclaimable

#!/bin/sh
# gfpaudit fragstat on captured and hand-written /proc files; the expected
# indices are computed by hand from the counts (see the comments).
. "$(dirname "$0")/lib.sh"
FX=$TESTS_DIR/fixtures/proc

# field N of the TSV row for zone Z, order O
row() { awk -F'\t' -v z="$2" -v o="$3" -v f="$4" \
	'$2 == z && $3 == o { print $f }' "$1"; }

exit_is 0 "fragstat on this machine's captured files" \
	"$GFPAUDIT" fragstat --tsv --buddyinfo "$FX/buddyinfo.host" \
	--pagetypeinfo "$FX/pagetypeinfo.host"
"$GFPAUDIT" fragstat --tsv --buddyinfo "$FX/buddyinfo.host" \
	--pagetypeinfo "$FX/pagetypeinfo.host" >"$TMP/host.tsv"
hdr=$(head -1 "$TMP/host.tsv")
like "$hdr" "^node	zone	order	free_blocks	free_pages	unusable_index	fragmentation_index	" \
	"tsv header names zone, order and both indices"
like "$hdr" "free_Unmovable	free_Movable	free_Reclaimable" \
	"tsv header names the migratetypes read from pagetypeinfo"
# DMA: 1 block of order 8, 1 of order 9, 3 of order 10 = 3840 free pages.
# order 10: (3840 - 3*1024) * 1000 / 3840 = 200; order 9: suitable 1+3*2=7,
# (3840 - 7*512) * 1000 / 3840 = 66.6 -> 66 (integer division, as div_u64).
is "$(row "$TMP/host.tsv" DMA 10 6)" "0.200" "DMA order-10 unusable index"
is "$(row "$TMP/host.tsv" DMA 9 6)" "0.066" "DMA order-9 unusable index"
# Normal: 566168 free pages, 1044 order-9 units free -> (566168-534528)*1000
# / 566168 = 55.88 -> 55; order 9 would succeed -> fragmentation -1.000.
is "$(row "$TMP/host.tsv" Normal 9 5)" "0" "Normal order-9 free pages"
is "$(row "$TMP/host.tsv" Normal 9 6)" "0.055" "Normal order-9 unusable index"
is "$(row "$TMP/host.tsv" Normal 9 7)" "-1.000" "fragmentation index -1.000 when the order would succeed"
is "$(row "$TMP/host.tsv" Normal 0 10)" "3965" "per-type free count from pagetypeinfo"

# 100 order-0 + 50 order-1 blocks: 200 pages in 150 blocks.
# order 2: 1000 - (1000 + 200*1000/4) / 150 = 1000 - 340 = 660.
"$GFPAUDIT" fragstat --tsv --buddyinfo "$FX/buddyinfo.small" >"$TMP/small.tsv"
is "$(row "$TMP/small.tsv" Normal 2 7)" "0.660" "fragmentation index of a failing order"
is "$(row "$TMP/small.tsv" Normal 2 6)" "1.000" "unusable index 1.000 when nothing is big enough"
is "$(row "$TMP/small.tsv" Normal 1 6)" "0.500" "unusable index order 1: (200-100)*1000/200"
is "$(row "$TMP/small.tsv" Empty 3 7)" "0.000" "fragmentation index 0 with no free blocks"
is "$(row "$TMP/small.tsv" Empty 3 6)" "1.000" "unusable index 1.000 with no free memory"

# Old kernel layout: Reclaimable before Movable, a Reserve type.
"$GFPAUDIT" fragstat --tsv --pagetypeinfo "$FX/pagetypeinfo.2.6.24" >"$TMP/old.tsv"
like "$(head -1 "$TMP/old.tsv")" "free_Unmovable	free_Reclaimable	free_Movable	free_Reserve	free_Isolate" \
	"2.6.24 type order is read from the file"
# Normal order 10: 12 Movable + 2 Reserve = 14 blocks (summed per type)
is "$(row "$TMP/old.tsv" Normal 10 4)" "14" "free blocks summed over the types without buddyinfo"
"$GFPAUDIT" fragstat --pagetypeinfo "$FX/pagetypeinfo.2.6.24" >"$TMP/old.txt"
like "$(cat "$TMP/old.txt")" "zone Normal pageblocks: Unmovable 31 Reclaimable 9 Movable 210 Reserve 2" \
	"Number of blocks type is reported per type"

# The 6.x cap: ">100000" is read, flagged and said.
"$GFPAUDIT" fragstat --tsv --pagetypeinfo "$FX/pagetypeinfo.capped" \
	>"$TMP/cap.tsv" 2>"$TMP/cap.err"
is "$(row "$TMP/cap.tsv" Normal 0 9)" ">100000" "capped count shown as >100000"
is "$(row "$TMP/cap.tsv" Normal 0 14)" "1" "capped column set on the capped order"
is "$(row "$TMP/cap.tsv" Normal 1 14)" "0" "capped column clear elsewhere"
like "$(cat "$TMP/cap.err")" "capped at 100000.*lower bounds" "capped counts are noted"
"$GFPAUDIT" fragstat --pagetypeinfo "$FX/pagetypeinfo.capped" >"$TMP/cap.txt" 2>/dev/null
like "$(cat "$TMP/cap.txt")" "mixed pageblocks: Unmovable 17 Movable 230 Reclaimable 9" \
	"Number of mixed blocks (page_owner kernels) is read"

# page_owner dumps, 6.1 and 4.13 record layouts
out=$("$GFPAUDIT" fragstat --page-owner "$FX/page_owner.6.1")
is "$out" "page_owner: 5 records, 2 mixed pageblocks Movable 1 Unmovable 1" \
	"page_owner: mixed pageblocks counted once per block"
out=$("$GFPAUDIT" fragstat --page-owner "$FX/page_owner.4.13")
is "$out" "page_owner: 2 records, 1 mixed pageblocks Movable 1" "4.13 page_owner layout"

# records and no mixed block (an empty set: once undefined behaviour)
printf 'Page allocated via order 0, mask 0xcc0(GFP_KERNEL)\nPFN 1 type Unmovable Block 0 type Unmovable Flags 0x0()\n' >"$TMP/po1"
is "$("$GFPAUDIT" fragstat --page-owner "$TMP/po1")" \
	"page_owner: 1 records, 0 mixed pageblocks" "page_owner without mixed blocks"

# Malformed input: exit 2 and one line naming file:line.
exit_is 2 "bad buddyinfo exits 2" "$GFPAUDIT" fragstat --buddyinfo "$FX/buddyinfo.bad"
err=$("$GFPAUDIT" fragstat --buddyinfo "$FX/buddyinfo.bad" 2>&1)
like "$err" "buddyinfo.bad:1: free block count is not a number" "error names file:line"
is "$(printf '%s\n' "$err" | wc -l)" "1" "error is one line"
err=$("$GFPAUDIT" fragstat --pagetypeinfo "$FX/pagetypeinfo.bad" 2>&1)
like "$err" "pagetypeinfo.bad:6: fewer counts" "short pagetypeinfo row named"
printf 'PFN 1 type Movable Block 0 type Movable Flags 0x0()\n' >"$TMP/po"
err=$("$GFPAUDIT" fragstat --page-owner "$TMP/po" 2>&1)
like "$err" "po:1: PFN line outside" "page_owner PFN line without a record"
printf 'Node 0, zone Normal 1 99999999999999999\n' >"$TMP/huge"
err=$("$GFPAUDIT" fragstat --buddyinfo "$TMP/huge" 2>&1)
like "$err" "huge:1: free block count too large" "absurd counts refused, not overflowed"
exit_is 2 "missing file exits 2" "$GFPAUDIT" fragstat --buddyinfo "$TMP/nope"
exit_is 2 "unknown option exits 2" "$GFPAUDIT" fragstat --frob
: >"$TMP/empty"
exit_is 2 "empty buddyinfo is an error" "$GFPAUDIT" fragstat --buddyinfo "$TMP/empty"
head -c 3000 /dev/urandom >"$TMP/junk"
exit_is 2 "binary junk is an input error, not a crash" \
	"$GFPAUDIT" fragstat --pagetypeinfo "$TMP/junk"

# The live files (skipped parts are fine: pagetypeinfo may be root-only)
if [ -r /proc/buddyinfo ]; then
	exit_is 0 "fragstat on the live /proc" "$GFPAUDIT" fragstat
fi
done_testing
